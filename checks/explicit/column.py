"""An append-only column of 4-byte integers that never copies itself to grow.

A search keeps a few numbers per state or edge: the parent link, the post-Pass
edges, the deal that made each initial state.  An ``array.array`` grows by a
sixteenth at a time, so each append past its room reallocates it; that is
cheap only while the C library moves a large block by remapping its pages.
While a partitioned search runs, glibc is told to keep large blocks in its
heap instead (``heap.py``), where reallocating half a gigabyte is a copy of
half a gigabyte: seen as 5.6 s of the coordinator's time on a table of 120
million states, a level at a time.  Here the numbers live in a large
reserved mapping past a million numbers, as the key store's rows do
(``statestore.larger``: address space only; a page takes memory once
written), so an append is a copy of the new numbers and nothing else; where
no such mapping can be made, the column doubles as it grows.

It reads like the ``array("i")`` it replaces: ``len``, an index, iteration,
``del column[n:]``; ``view()`` is the numbers as a numpy array, in place.
"""
from __future__ import annotations

import numpy as np

from .statestore import larger

_PAGE = 4096


def position(i: int, n: int) -> int:
    """Index ``i`` of a sequence of ``n`` (negative from the end), or IndexError."""
    at = i + n if i < 0 else i
    if not 0 <= at < n:
        raise IndexError(i)
    return at


class Column:
    """4-byte integers appended in batches, read by index or as an array."""

    def __init__(self, values=()):
        self._data = np.empty(1024, dtype=np.int32)
        self.n = 0
        if len(values):
            self.extend(np.asarray(values))

    def extend(self, values: np.ndarray) -> None:
        """Append ``values`` (any integer array; each must fit in 4 bytes)."""
        m = len(values)
        if self.n + m > len(self._data):
            self._data = larger(self._data, self.n, self.n + m)   # as the key store grows
        self._data[self.n:self.n + m] = values
        self.n += m

    @property
    def _mapped(self) -> bool:
        """The numbers live in a reserved mapping (``larger``), not an array of its own."""
        return self._data.base is not None

    def view(self) -> np.ndarray:
        """The numbers appended so far, in place (valid until the next append)."""
        return self._data[:self.n]

    def truncate(self, n: int) -> None:
        """Forget the numbers from index ``n`` on."""
        self.n = max(0, min(self.n, n))

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        return int(self._data[position(i, self.n)])

    def __delitem__(self, cut: slice) -> None:
        if not isinstance(cut, slice) or cut.stop is not None or cut.step is not None:
            raise TypeError("a column forgets only its tail: del column[n:]")
        start = cut.start or 0
        self.truncate(start + self.n if start < 0 else start)

    def __iter__(self):
        return iter(self.view().tolist())

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __repr__(self) -> str:
        return f"Column({list(self)!r})"

    def __reduce__(self):
        return (Column, (self.view().copy(),))

    @property
    def nbytes(self) -> int:
        """The memory the column holds: the pages written (a mapping's pages past
        them were never touched; an ordinary array counts whole)."""
        if self._mapped:
            return -(-self.n * 4 // _PAGE) * _PAGE
        return self._data.nbytes


__all__ = ["Column", "position"]
