"""The ``itcp-check`` program's entry point: signals first, then everything else.

Importing the program takes about a second.  A SIGTERM, SIGHUP or Ctrl-C in
that second would kill it with nothing printed (an empty JSON report), so the
handlers are installed before anything else is imported: a signal that comes
meanwhile is noted (``PENDING``) and acted on as soon as the command can (a
``check`` then reports every property UNKNOWN, naming the signal; another
command stops with "interrupted").
"""
from __future__ import annotations

import signal
import time

from .early import PENDING, STARTED

EARLY = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _note(signum, frame):
    PENDING.append(signum)


def main():
    STARTED.append(time.monotonic())
    for sig in EARLY:
        try:
            signal.signal(sig, _note)
        except (OSError, ValueError):
            pass
    # lazy on purpose: the import this module exists to guard (handlers first)
    from .main import main as program
    return program()


__all__ = ["main", "PENDING"]
