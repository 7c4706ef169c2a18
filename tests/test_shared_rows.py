"""The shared key array's rows get their memory a level at a time.

The parts of a search on one machine write their states' rows into the
coordinator's key array, a shared mapping whose pages are 4 KB each and were
faulted in one at a time as they were written; ``statestore.populate`` gives a
level's rows their pages in one call.  Held by the thread's count of minor
page faults.
"""
from __future__ import annotations

import resource
import sys

import pytest

from itcp.checks.explicit.statestore import _POPULATE_WRITE, populate, shared_rows


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="MADV_POPULATE_WRITE is Linux's")
def test_populated_rows_of_the_shared_key_array_are_written_without_page_faults():
    """``statestore.populate`` gives a level's rows of the shared key array their
    pages in one call: the writes that follow fault none in (65,536 rows of two
    words are 256 pages of 4 KB; without it, each is faulted in as written)."""
    rows = shared_rows(2)
    assert rows is not None

    def faults(lo, hi, first):
        if first:
            populate(rows, lo, hi)
        before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
        rows[lo:hi] = 7
        return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before

    if faults(0, 1 << 16, first=False) < 16:
        pytest.skip("shared memory in huge pages here: few faults to save")
    try:
        rows.base.base.obj.madvise(_POPULATE_WRITE, 0, 0)   # does this kernel know the call?
    except OSError:
        pytest.skip("a kernel before Linux 5.14")
    assert faults(1 << 20, (1 << 20) + (1 << 16), first=True) == 0
    assert (rows[1 << 20:(1 << 20) + (1 << 16)] == 7).all() and not rows[1 << 19].any()
