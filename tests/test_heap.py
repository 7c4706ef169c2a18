"""The partitioned search's parts keep the memory a level frees for the next one.

``checks/explicit/heap.py`` sets glibc's malloc so that a large block is taken from the
heap and its pages stay the process's once freed: the next block of that size
reuses them, with no new page faults (each of which the kernel pays by zeroing
the page).  Held in a fresh process (the settings are the whole process's), by
its count of minor page faults.
"""
from __future__ import annotations

import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                                reason="the setting is glibc's malloc's")

_FAULTS = """
import resource, sys
import numpy as np
from itcp.checks.explicit.heap import keep_freed_memory, release_kept_memory

def faults(keep):
    if keep:
        assert keep_freed_memory()
    a = np.ones(64 << 20, dtype=np.uint8)   # a level's array: over glibc's 32 MB
    del a
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    b = np.ones(64 << 20, dtype=np.uint8)   # the next level's
    after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    del b
    if keep:
        release_kept_memory()
    return after - before

print(faults(sys.argv[1] == "keep"))
"""


def _faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", _FAULTS, mode], capture_output=True, text=True,
                         check=True)
    return int(out.stdout)


def test_a_freed_level_array_is_reused_without_new_page_faults():
    # 64 MB is 16,384 pages of 4 KB (or 32 huge pages of 2 MB): without the
    # setting the second array is a fresh mapping, faulted in again
    assert _faults("default") >= 32
    assert _faults("keep") < 8

