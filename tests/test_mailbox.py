"""A channel's arrays go through shared memory, and arrive as they were sent."""
from __future__ import annotations

import multiprocessing

import numpy as np

from itcp.checks.mailbox import Channel, Mailbox


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
