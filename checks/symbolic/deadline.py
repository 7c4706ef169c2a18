"""The symbolic run's time budget: the exception that ends it.

Why a module of its own: the symbolic checker raises ``OutOfTime`` when its
deadline passes, and the scout (``scout.py``), which runs a checker of its own
at the scout table, catches it; the scout sits below the checker (the checker
builds scouts), so the exception lives below both.
"""
from __future__ import annotations

import time


class OutOfTime(Exception):
    """The time budget ran out."""


def seconds_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (a ``time.monotonic()`` time; None: no limit);
    raises ``OutOfTime`` once it has passed."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise OutOfTime()
    return left


__all__ = ["OutOfTime", "seconds_left"]
