"""Memory a process frees kept for its next allocations, while a search runs in parts.

Each level, a part of the partitioned search (``partitioned.py``) makes arrays
the size of the level (the rows it received, their order, the rows in that
order, the numbers the store gives them) and frees them at the level's end.
glibc's malloc gives every block over 32 MB a mapping of its own and unmaps it
when it is freed, and it gives the top of its heap back to the system past a
threshold: so every level's arrays are fresh pages, which the kernel zeroes on
first touch (with transparent huge pages, 2 MB at a time).  On the all-option
2-player table (120.9M states) two parts spent 62 s of system time, one
process 24 s (a profile put 13% of all samples in that zeroing); with the
blocks taken from the heap and its free top kept, the next level's arrays
reuse the last one's pages: 37 s, and the command's wall time fell from 205 s
to 168 s (one run each, 2026-12-04; medians in docs/performance.md).  One
process gained nothing from it (308 s against 304 s), so only the partitioned
search keeps its memory this way.

The cost is memory: what a level frees stays the process's until the search
ends (the peak resident size of that run rose from 6.1 GB to 7.9 GB).  After
the search the usual settings are back and the kept memory is given back.
Where the C library is not glibc nothing changes.
"""
from __future__ import annotations

import ctypes
import platform

#: glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_MAX = -4
#: glibc's defaults for them
DEFAULT_TRIM_THRESHOLD = 128 * 1024
DEFAULT_MMAP_MAX = 65536
#: M_TRIM_THRESHOLD's value that turns trimming off (mallopt(3))
NEVER = -1


def _libc():
    """This process's C library, if it is glibc (which has ``mallopt``)."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def keep_freed_memory() -> bool:
    """From now on, large blocks come from the heap and its free top is kept
    (processes forked after this inherit it): whether it could be set."""
    libc = _libc()
    if libc is None:
        return False
    return bool(libc.mallopt(M_MMAP_MAX, 0)) and bool(libc.mallopt(M_TRIM_THRESHOLD, NEVER))


def release_kept_memory() -> None:
    """Back to glibc's default values, and the heap's free memory given back
    (glibc's own raising of the thresholds as blocks are freed stays off once
    they were set: a smaller difference than the one undone)."""
    libc = _libc()
    if libc is None:
        return
    libc.mallopt(M_MMAP_MAX, DEFAULT_MMAP_MAX)
    libc.mallopt(M_TRIM_THRESHOLD, DEFAULT_TRIM_THRESHOLD)
    libc.malloc_trim(0)


__all__ = ["keep_freed_memory", "release_kept_memory"]
