"""A channel's arrays go through shared memory, and arrive as they were sent."""
from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest

from itcp.checks.explicit import mailbox
from itcp.checks.explicit.mailbox import Channel, Mailbox


def _pair(size=None):
    a, b = multiprocessing.Pipe()
    down = Mailbox(size) if size else Mailbox.make()
    up = Mailbox(size) if size else Mailbox.make()
    return Channel(a, down, up), Channel(b, up, down)


def test_arrays_arrive_equal_and_the_pipe_carries_only_where_they_lie():
    mine, theirs = _pair()
    rows = ([np.arange(100_000, dtype=np.int64), np.arange(100_000, dtype=np.int64) * 3],
            np.arange(100_000, dtype=np.int64) << 32, np.ones(100_000, dtype=bool),
            np.empty(0, dtype=np.int64))
    for _ in range(3):   # the mailbox is written again each message
        mine.send(("close", (7, [(8, rows)], 6)))
        name, (depth, [(d, got)], origin) = theirs.recv()
        assert (name, depth, d, origin) == ("close", 7, 8, 6)
        assert all((x == y).all() for x, y in zip(got[0], rows[0]))
        assert (got[1] == rows[1]).all() and (got[2] == rows[2]).all() and got[3].size == 0
        assert got[1].flags.writeable   # copies, not views of the mailbox
    theirs.send({"keys": np.arange(5)})
    assert (mine.recv()["keys"] == np.arange(5)).all()
    theirs.send(None)
    assert mine.recv() is None


def test_a_message_too_big_for_the_mailbox_goes_through_the_pipe():
    mine, theirs = _pair(size=4096)
    big = np.arange(10_000, dtype=np.int64)
    mine.send([big, np.arange(3)])
    got = theirs.recv()
    assert (got[0] == big).all() and (got[1] == np.arange(3)).all()


def _shared_resident() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("RssShmem:"):
                return int(line.split()[1]) * 1024
    pytest.skip("no RssShmem in /proc/self/status")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_the_pages_past_those_kept_go_back_once_a_message_is_read(monkeypatch):
    """A shared page stays in memory once written: a mailbox that once carried a
    level's rows (gigabytes at a big table) would hold them for the rest of the
    search.  Past ``MAILBOX_KEEP`` they are given back as the message is read,
    and the next message writes them afresh."""
    monkeypatch.setattr(mailbox, "MAILBOX_KEEP", 1 << 20)
    mine, theirs = _pair()
    big = np.arange(4 << 20, dtype=np.int64)   # 32 MB
    for _ in range(2):
        mine.send([big])
        sent = _shared_resident()
        got = theirs.recv()
        assert sent - _shared_resident() > 24 << 20
        assert (got[0] == big).all()
