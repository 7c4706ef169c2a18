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
would fill past that).  A batch's new states are numbered round by round of
the probing, in batch order within a round: deterministic, so the same batch
always gets the same numbers; ``rollback(n)`` forgets every state
numbered ``n`` or above (an interrupted batch).

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

    def __init__(self, words: int, capacity: int = 1 << 16):
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
        A key repeated in the batch is new at its first row only.

        Each round, every row still looking probes one slot: a slot holding a
        number is compared with the row's key (equal: found; else probe on);
        an empty slot is claimed by the first row that reaches it (a scatter
        written last-row-first, then read back), the other rows there compare
        with the new key next round."""
        m = len(words[0])
        nums = np.full(m, -1, dtype=np.int64)
        new = np.zeros(m, dtype=bool)
        if not m:
            return nums, new
        self._reserve(m)
        table = self.table
        mask = len(table) - 1
        slot = (hash_words(words) & np.uint64(mask)).astype(np.int64)
        pending = np.arange(m, dtype=np.int64)
        while len(pending):
            s = slot[pending]
            t = table[s]
            empty = t < 0
            if not empty.all():
                occ = ~empty
                po, to = pending[occ], t[occ].astype(np.int64)
                same = self._equal(to, words, po)
                nums[po[same]] = to[same]
                other = po[~same]
                slot[other] = (slot[other] + 1) & mask
            if empty.any():
                pe, se = pending[empty], s[empty]
                # claim: the first row at each empty slot wins (written last)
                table[se[::-1]] = -2 - pe[::-1]
                won = table[se] == -2 - pe
                winners, wslots = pe[won], se[won]
                numbers = self.n + np.arange(len(winners), dtype=np.int64)
                table[wslots] = numbers
                self._append_words(words, winners)
                nums[winners] = numbers
                new[winners] = True
            # rows resolved this round leave; the others (a different key at
            # the slot, or a slot just claimed by another row) go round again
            pending = pending[nums[pending] < 0]
        return nums, new

    def _equal(self, to: np.ndarray, words, rows: np.ndarray) -> np.ndarray:
        """Rows whose key equals the stored key of the state numbered ``to``."""
        if len(self.chunks) == 1:
            chunk = self.chunks[0]
            same = chunk[to, 0] == words[0][rows]
            for j in range(1, self.words):
                same &= chunk[to, j] == words[j][rows]
            return same
        stored = self.gather(to)
        same = stored[:, 0] == words[0][rows]
        for j in range(1, self.words):
            same &= stored[:, j] == words[j][rows]
        return same

    def _append_words(self, words, rows: np.ndarray):
        if len(rows):
            self._append(np.stack([w[rows] for w in words], axis=1))

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
            pending = np.arange(lo, hi, dtype=np.int64)
            while len(pending):
                s = slot[pending - lo]
                free = table[s] < 0
                pe, se = pending[free], s[free]
                table[se] = pe  # distinct keys: any of them may take a free slot
                placed = np.zeros(len(pending), dtype=bool)
                placed[np.flatnonzero(free)] = table[se] == pe
                pending = pending[~placed]
                slot[pending - lo] = (slot[pending - lo] + 1) & mask
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
        """Forget every state numbered ``n`` or above (the table is rebuilt from
        the keys kept: a rehash places keys in no particular order, so a newer
        key may sit on an older one's probe sequence)."""
        if n >= self.n:
            return
        self.n = n
        del self.chunks[-(-n // CHUNK):]
        self._rehash(len(self.table))

    # -- size -------------------------------------------------------------------------
    def nbytes(self) -> dict:
        return {"keys": sum(c.nbytes for c in self.chunks), "visited table": self.table.nbytes}
