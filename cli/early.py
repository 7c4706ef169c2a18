"""What the program notes before it has imported anything else: the signals that
came meanwhile and when it started (``entry.py`` fills them in).

Why a module of its own: ``entry.py`` imports the rest of the program only
after its signal handlers are in place, and the rest (``common.py``,
``limits.py``) reads these notes; kept here, below both, so that nothing
imports the entry point back.
"""
from __future__ import annotations

#: signals that came before the command could act on them
PENDING: list[int] = []
#: when the program started (its first line), for ``--timeout``; None when the
#: commands run another way (``python -m itcp.cli.main``, tests)
STARTED: list[float] = []

__all__ = ["PENDING", "STARTED"]
