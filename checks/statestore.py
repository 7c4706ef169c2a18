"""The explorer's visited set: packed keys in arrays, not Python objects.

A stored state is a row of ``words`` 64-bit integers (``model/searchkey.py``),
kept in fixed-size chunks of rows in state-number order, so its number is its
row.  The visited set is an open-addressing hash table (linear probing) of
4-byte state numbers, -1 for an empty slot: a look-up hashes the key, and
compares it with the keys of the numbers met along its probe sequence.  Keys
are inserted a batch at a time (``insert``): every step is a numpy operation
on the whole batch, duplicates within the batch included, so the cost per key
is a few array operations, not a Python-level loop.

Per state this keeps ``8 * words`` bytes of key and 4 bytes of table slot
per slot (the table is kept at most ``MAX_LOAD`` full, and doubles when it
would fill past that).  A batch's new states are numbered in the order of
their first occurrence... within each probing round (ascending batch
position), which is deterministic; ``rollback(n)`` forgets every state
numbered ``n`` or above (an interrupted batch), which linear probing allows:
the slots those states took were empty when every older key was inserted.

The store is the unit a search partitioned over processes would own: a key's
owner can be chosen by the same hash, each owner numbering its own states.
"""
from __future__ import annotations

import numpy as np

CHUNK_BITS = 20                # rows per key chunk: 2**20
CHUNK = 1 << CHUNK_BITS
MAX_LOAD = 0.7
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0x165667B19E3779F9)


def hash_words(words) -> np.ndarray:
    """A 64-bit hash of each key (the rows of ``words``, a list of int64 arrays)."""
    h = np.zeros(len(words[0]), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j, w in enumerate(words):
            x = w.astype(np.uint64, copy=False) * _M1 + np.uint64(j + 1) * _M3
            x ^= x >> np.uint64(31)
            h = (h ^ x) * _M2
        h ^= h >> np.uint64(29)
    return h


class StateStore:
    """Keys by state number, and the hash table that finds a key's number."""

    def __init__(self, words: int, capacity: int = 1 << 12):
        self.words = words
        self.n = 0
        self.chunks: list[np.ndarray] = []
        cap = 1 << max(4, (capacity - 1).bit_length())
        self.table = np.full(cap, -1, dtype=np.int32)

    # -- keys by number ---------------------------------------------------------------
    def _append(self, rows: np.ndarray):
        """Append keys (an (m, words) array) as the next state numbers."""
        done = 0
        m = len(rows)
        while done < m:
            used = self.n & (CHUNK - 1)
            if used == 0 and (self.n >> CHUNK_BITS) == len(self.chunks):
                self.chunks.append(np.empty((CHUNK, self.words), dtype=np.int64))
            take = min(m - done, CHUNK - used)
            self.chunks[self.n >> CHUNK_BITS][used:used + take] = rows[done:done + take]
            self.n += take
            done += take

    def rows(self, lo: int, hi: int) -> np.ndarray:
        """The keys of states ``lo`` .. ``hi - 1`` as an (hi - lo, words) array."""
        if hi <= lo:
            return np.empty((0, self.words), dtype=np.int64)
        c0, c1 = lo >> CHUNK_BITS, (hi - 1) >> CHUNK_BITS
        if c0 == c1:
            return self.chunks[c0][lo & (CHUNK - 1):((hi - 1) & (CHUNK - 1)) + 1]
        parts = [self.chunks[c0][lo & (CHUNK - 1):]]
        parts += [self.chunks[c] for c in range(c0 + 1, c1)]
        parts.append(self.chunks[c1][:((hi - 1) & (CHUNK - 1)) + 1])
        return np.concatenate(parts)

    def gather(self, nums: np.ndarray) -> np.ndarray:
        """The keys of the given state numbers, as a (len, words) array."""
        if len(self.chunks) == 1:
            return self.chunks[0][nums]
        out = np.empty((len(nums), self.words), dtype=np.int64)
        which = nums >> CHUNK_BITS
        for c in np.unique(which):
            sel = which == c
            out[sel] = self.chunks[c][nums[sel] & (CHUNK - 1)]
        return out

    def key(self, i: int) -> tuple:
        row = self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
        return tuple(int(x) for x in row)

    # -- the visited set --------------------------------------------------------------
    def insert(self, words) -> tuple[np.ndarray, np.ndarray]:
        """Look up the keys (``words``: a list of int64 arrays, one row per key)
        and store the new ones: (each key's state number, which rows were new).
        A key repeated in the batch is new at its first row only."""
        m = len(words[0])
        nums = np.full(m, -1, dtype=np.int64)
        new = np.zeros(m, dtype=bool)
        if not m:
            return nums, new
        self._reserve(m)
        keys = np.stack(words, axis=1) if self.words > 1 else words[0].reshape(-1, 1)
        mask = len(self.table) - 1
        slot = (hash_words(words) & np.uint64(mask)).astype(np.int64)
        pending = np.arange(m, dtype=np.int64)
        table = self.table
        while len(pending):
            s = slot[pending]
            t = table[s]
            empty = t < 0
            moving = []
            occupied = ~empty
            if occupied.any():
                po, to = pending[occupied], t[occupied].astype(np.int64)
                same = np.all(self.gather(to) == keys[po], axis=1)
                nums[po[same]] = to[same]
                moving.append(po[~same])
            stay = None
            if empty.any():
                pe, se = pending[empty], s[empty]
                slots, first = np.unique(se, return_index=True)
                winners = pe[first]
                order = np.argsort(winners, kind="stable")
                winners, slots = winners[order], slots[order]
                numbers = self.n + np.arange(len(winners), dtype=np.int64)
                self._append(keys[winners])
                table[slots] = numbers
                nums[winners] = numbers
                new[winners] = True
                if len(winners) < len(pe):
                    lost = np.ones(len(pe), dtype=bool)
                    lost[first] = False
                    stay = pe[lost]  # same slot, now taken: compared next round
            if moving and len(moving[0]):
                slot[moving[0]] = (slot[moving[0]] + 1) & mask
            parts = moving + ([stay] if stay is not None else [])
            pending = np.sort(np.concatenate(parts)) if parts else pending[:0]
        return nums, new

    def _reserve(self, more: int):
        if self.n + more <= MAX_LOAD * len(self.table):
            return
        cap = len(self.table)
        while self.n + more > MAX_LOAD * cap:
            cap *= 2
        self._rehash(cap)

    def _rehash(self, cap: int):
        table = np.full(cap, -1, dtype=np.int32)
        mask = cap - 1
        for lo in range(0, self.n, CHUNK):
            hi = min(self.n, lo + CHUNK)
            rows = self.rows(lo, hi)
            slot = (hash_words([rows[:, j] for j in range(self.words)]) & np.uint64(mask)
                    ).astype(np.int64)
            pending = np.arange(hi - lo, dtype=np.int64)
            while len(pending):
                s = slot[pending]
                free = table[s] < 0
                pe, se = pending[free], s[free]
                slots, first = np.unique(se, return_index=True)
                table[slots] = lo + pe[first]
                placed = np.zeros(len(pending), dtype=bool)
                placed[np.flatnonzero(free)[first]] = True
                pending = pending[~placed]
                slot[pending] = (slot[pending] + 1) & mask
        self.table = table

    def lookup(self, words) -> np.ndarray:
        """Each key's state number, or -1 (nothing is stored)."""
        m = len(words[0])
        nums = np.full(m, -1, dtype=np.int64)
        if not m or not self.n:
            return nums
        keys = np.stack(words, axis=1)
        mask = len(self.table) - 1
        slot = (hash_words(words) & np.uint64(mask)).astype(np.int64)
        pending = np.arange(m, dtype=np.int64)
        while len(pending):
            s = slot[pending]
            t = self.table[s]
            occ = t >= 0
            pending = pending[occ]
            if not len(pending):
                break
            to = t[occ].astype(np.int64)
            same = np.all(self.gather(to) == keys[pending], axis=1)
            nums[pending[same]] = to[same]
            pending = pending[~same]
            slot[pending] = (slot[pending] + 1) & mask
        return nums

    def rollback(self, n: int):
        """Forget every state numbered ``n`` or above."""
        if n >= self.n:
            return
        self.table[self.table >= n] = -1
        self.n = n
        keep = -(-n // CHUNK)
        del self.chunks[keep:]

    # -- size -------------------------------------------------------------------------
    def nbytes(self) -> dict:
        return {"keys": sum(c.nbytes for c in self.chunks), "visited table": self.table.nbytes}
