"""A pipe between the coordinator and a part whose arrays go through shared memory.

The parts of a search on one machine (``partitioned.ProcessParts``) hand the
coordinator, and through it each other, a level's successors: tens of
megabytes a level on a big table.  Pickled into a pipe, each array is copied
into the pickle, written in 64 KB pieces, read and copied out again; on a
table of 11.6 million states that was the largest cost a part had beyond its
share of the search.  Here a message is pickled with protocol 5, which leaves
every array's bytes *out of band*: the sender copies them into a mapping it
shares with the receiver (made before the parts fork, one each way), and the
pipe carries only the pickle and where each array lies.  The receiver copies
them out as it reads the message.

Each way of a channel carries one message at a time (a call, then its answer),
so a mailbox is written again only after its last message was read whole.  A
message whose arrays do not fit goes through the pipe as it is.
"""
from __future__ import annotations

import mmap
import pickle

import numpy as np

from .statestore import reserved_mapping

#: bytes of address space a mailbox reserves (memory only as its pages are written)
MAILBOX_BYTES = 1 << 37
#: the pages a mailbox keeps after a message is read; those past it go back to the
#: system (a level's rows at a big table are gigabytes, and a shared page once
#: written stays in memory until it is removed)
MAILBOX_KEEP = 64 << 20


class Mailbox:
    """A shared mapping one end writes and the other reads."""

    def __init__(self, size: int = MAILBOX_BYTES):
        buf = reserved_mapping(size, mmap.MAP_SHARED)
        if buf is None:
            raise OSError("no shared anonymous mapping on this system")
        self.buf = buf
        self.bytes = np.frombuffer(buf, dtype=np.uint8)

    @classmethod
    def make(cls) -> Mailbox | None:
        """A mailbox, or None where shared anonymous mappings are not available."""
        try:
            return cls()
        except OSError:
            return None

    def put(self, buffers: list) -> list | None:
        """Copy the buffers in: where each lies, or None if they do not fit."""
        at, spans = 0, []
        for b in buffers:
            raw = np.frombuffer(b, dtype=np.uint8)
            n = len(raw)
            if at + n > len(self.bytes):
                return None
            self.bytes[at:at + n] = raw
            spans.append((at, n))
            at += -(-n // 64) * 64   # each buffer on its own cache line
        return spans

    def take(self, spans: list) -> list:
        """Copies of the buffers at ``spans``; the pages past ``MAILBOX_KEEP``
        given back."""
        out = [self.bytes[at:at + n].copy() for at, n in spans]
        end = max((at + n for at, n in spans), default=0)
        if end > MAILBOX_KEEP and hasattr(mmap, "MADV_REMOVE"):
            top = -(-end // mmap.PAGESIZE) * mmap.PAGESIZE
            try:
                self.buf.madvise(mmap.MADV_REMOVE, MAILBOX_KEEP, top - MAILBOX_KEEP)
            except OSError:
                pass   # kept: the next message writes over them
        return out

    def close(self) -> None:
        del self.bytes
        self.buf.close()


class Channel:
    """One end of a pipe (``multiprocessing`` Connection) with a mailbox for the
    arrays it sends (``out``) and one for those it receives (``inbox``): either
    may be None (the arrays then go through the pipe)."""

    def __init__(self, conn, out: Mailbox | None, inbox: Mailbox | None):
        self.conn, self.out, self.inbox = conn, out, inbox

    def send(self, obj) -> None:
        if self.out is not None:
            buffers: list = []
            data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
            spans = self.out.put([b.raw() for b in buffers]) if buffers else []
            if spans is not None:
                self.conn.send_bytes(pickle.dumps((data, spans), protocol=5))
                return
        self.conn.send_bytes(pickle.dumps((obj, None), protocol=5))

    def recv(self):
        head, spans = pickle.loads(self.conn.recv_bytes())
        if spans is None:
            return head
        assert self.inbox is not None
        return pickle.loads(head, buffers=self.inbox.take(spans))

    def poll(self, timeout=None) -> bool:
        return self.conn.poll(timeout)

    def close(self) -> None:
        self.conn.close()


__all__ = ["Channel", "Mailbox", "MAILBOX_BYTES"]
