"""The explorer's visited set: packed keys in arrays, not Python objects.

A stored state is a row of ``words`` 64-bit integers (``model/search/searchkey.py``),
kept in one array in state-number order, so its number is its row (past a
million rows the array is a large reserved mapping whose pages take memory
only once written, so it is never copied again; elsewhere it doubles).  The
visited set is an open-addressing hash table (linear probing) of
4-byte state numbers, -1 for an empty slot: a look-up hashes the key, and
compares it with the keys of the numbers met along its probe sequence.  Keys
are inserted a batch at a time (``insert``): every step is a numpy operation
on the whole batch, duplicates within the batch included, so the cost per key
is a few array operations, not a Python-level loop.

Per state this keeps ``8 * words`` bytes of key and 4 bytes of table
per slot (a slot holds the number and, in the bits the number does not use,
up to 3 bits of the key's hash, so a probe meeting another key mostly tells
it apart without reading that key) (the table is kept at most ``MAX_LOAD`` full, and doubles when it
would fill past that).  A batch's new states are numbered in the order of
their first rows in the batch, whatever the probing met on the way: the
numbers depend on the batch's order alone (``checks/explicit/partitioned.py`` relies on
it); ``rollback(n)`` forgets every state numbered ``n`` or above (an
interrupted batch).

The store is the unit a search partitioned over processes owns: a key's owner
is chosen by the same hash (``owner_of``), each owner numbering its own states.
"""
from __future__ import annotations

import mmap
import sys

import numpy as np

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


def owner_of(words, parts: int) -> np.ndarray:
    """The part (0 .. ``parts - 1``) that owns each key in a search partitioned
    over processes: from the hash's high bits, which the table's slots (its low
    bits) do not use, so each part's table still spreads its keys evenly."""
    if parts == 1:
        return np.zeros(len(words[0]), dtype=np.int64)
    return ((hash_words(words) >> np.uint64(40)) % np.uint64(parts)).astype(np.int64)


#: Linux's MAP_NORESERVE: address space only, memory given page by page as written
_NORESERVE = 0x4000 if sys.platform.startswith("linux") else 0
#: rows reserved at once for a large key array (address space, not memory)
RESERVE_ROWS = 1 << 31


def reserved_mapping(size: int, flags: int) -> mmap.mmap | None:
    """An anonymous mapping of ``size`` bytes (``flags``: MAP_SHARED or
    MAP_PRIVATE) that takes memory only as its pages are written, or None where
    that is not available."""
    if not _NORESERVE:
        return None
    try:
        return mmap.mmap(-1, size, flags=flags | mmap.MAP_ANONYMOUS | _NORESERVE)
    except (OSError, ValueError, OverflowError):
        return None


def _mapped(rows: int, words: int, flags: int) -> np.ndarray | None:
    """An (rows, words) int64 array over a ``reserved_mapping``, or None."""
    buf = reserved_mapping(rows * words * 8, flags)
    if buf is None:
        return None
    return np.frombuffer(buf, dtype=np.int64).reshape(rows, words)


def shared_rows(words: int) -> np.ndarray | None:
    """A key array of ``RESERVE_ROWS`` rows shared with the processes forked
    after it (a partitioned search's parts write their states' rows straight
    into the coordinator's array), or None where that is not available."""
    return _mapped(RESERVE_ROWS, words, mmap.MAP_SHARED)


#: Linux's MADV_POPULATE_WRITE (5.14 and later): fault a range's pages in at once
_POPULATE_WRITE = getattr(mmap, "MADV_POPULATE_WRITE", 23 if _NORESERVE else None)


def populate(rows: np.ndarray, lo: int, hi: int) -> None:
    """Give rows ``lo`` .. ``hi - 1`` of a ``reserved_mapping`` array their memory
    now, in one call, rather than a page fault at a time as they are written.
    A shared mapping's pages are 4 KB (no huge pages for shared memory here):
    on the all-option 2-player table, each of two parts spent 7.6 s writing
    its 60 million rows into the shared key array that way, 4.7 s after this
    call (one timed run each).  Nothing happens where the kernel has no such
    call or ``rows`` is no mapping."""
    buf = getattr(rows.base, "base", None)
    buf = getattr(buf, "obj", None)
    if _POPULATE_WRITE is None or not isinstance(buf, mmap.mmap) or hi <= lo:
        return
    width = rows.strides[0]
    start = lo * width // mmap.PAGESIZE * mmap.PAGESIZE
    try:
        buf.madvise(_POPULATE_WRITE, start, hi * width - start)
    except (OSError, ValueError):
        pass   # an older kernel: the pages come as they are written


#: past this many rows a growing array moves into a reserved mapping
MAPPED_PAST = 1 << 20


def larger(old: np.ndarray, n: int, need: int) -> np.ndarray:
    """An array like ``old`` (its dtype, its row shape) with room for ``need``
    rows, ``old``'s first ``n`` rows copied in: twice the rows until they fit,
    and past ``MAPPED_PAST`` rows a large anonymous mapping of at least
    ``RESERVE_ROWS`` rows, reserved once (only the pages written take memory,
    so it never needs to grow again) where that is available."""
    cap = len(old)
    while cap < need:
        cap *= 2
    grown = None
    if cap > MAPPED_PAST:
        rows = max(cap, RESERVE_ROWS)
        buf = reserved_mapping(rows * (old.nbytes // len(old)), mmap.MAP_PRIVATE)
        if buf is not None:
            grown = np.frombuffer(buf, dtype=old.dtype).reshape((rows,) + old.shape[1:])
    if grown is None:
        grown = np.empty((cap,) + old.shape[1:], dtype=old.dtype)
    grown[:n] = old[:n]
    return grown


class StateStore:
    """Keys by state number, and the hash table that finds a key's number."""

    def __init__(self, words: int, capacity: int = 1 << 16):
        self.words = words
        self.n = 0
        # one array of rows, grown by doubling: the rows past ``n`` were never
        # written, so the operating system has not given them memory yet
        self.keys = np.empty((1 << 16, words), dtype=np.int64)
        cap = 1 << max(4, (capacity - 1).bit_length())
        # a slot: the state number, and above it FP_BITS of the key's hash (a
        # probe meeting another key is mostly told apart without reading it)
        self.num_bits = 28  # grows (and fp_bits shrinks) past 2**28 states
        self.table = np.full(cap, -1, dtype=np.int32)
        self._stale = False  # keys appended by ``extend`` and not in the table yet

    # -- keys by number ---------------------------------------------------------------
    def _append(self, rows: np.ndarray):
        """Append keys (an (m, words) array) as the next state numbers."""
        m = len(rows)
        if self.n + m > len(self.keys):
            self.keys = larger(self.keys, self.n, self.n + m)
        self.keys[self.n:self.n + m] = rows
        self.n += m

    def rows(self, lo: int, hi: int) -> np.ndarray:
        """The keys of states ``lo`` .. ``hi - 1`` as an (hi - lo, words) array (a
        copy: the key array may move when it grows)."""
        return self.keys[lo:max(lo, hi)].copy()

    def gather(self, nums: np.ndarray) -> np.ndarray:
        """The keys of the given state numbers, as a (len, words) array."""
        return self.keys[nums]

    def key(self, i: int) -> tuple:
        return tuple(int(x) for x in self.keys[i])

    def over(self, keys: np.ndarray) -> StateStore:
        """Keep the keys in ``keys`` (an empty store: a shared array, see
        ``shared_rows``), which others may fill (``adopt``)."""
        assert self.n == 0
        self.keys = keys
        return self

    def adopt(self, m: int):
        """The next ``m`` rows of the key array, written there by another
        process, become the next state numbers (the table is built when a key
        is first looked up)."""
        if self.n + m > len(self.keys):
            raise MemoryError("more states than the shared key array holds")
        self.n += m
        self._stale = True

    def extend(self, rows: np.ndarray):
        """Append keys known to be new (an (m, words) array) as the next state
        numbers, without the table: it is built when a key is first looked up
        (a partitioned search's parts did the looking up)."""
        self._append(rows)
        self._stale = True

    def _indexed(self):
        if self._stale:
            self._stale = False
            cap = len(self.table)
            while self.n > MAX_LOAD * cap:
                cap *= 2
            if self.n >= 1 << self.num_bits:
                self.num_bits = min(31, self.n.bit_length())
            self._rehash(cap)

    # -- the visited set --------------------------------------------------------------
    def insert(self, words) -> tuple[np.ndarray, np.ndarray]:
        """Look up the keys (``words``: a list of int64 arrays, one row per key)
        and store the new ones: (each key's state number, which rows were new).
        A key repeated in the batch is new at its first row only.

        Each round, every row still looking probes one slot: a slot holding a
        number is compared with the row's key (equal: found; else probe on);
        an empty slot is claimed by the first row that reaches it (a scatter
        written last-row-first, then read back), the other rows there compare
        with the new key next round.  The new keys are written to the key
        array once, at the end (until then a new number's key is its row)."""
        m = len(words[0])
        nums = np.full(m, -1, dtype=np.int64)
        new = np.zeros(m, dtype=bool)
        if not m:
            return nums, new
        self._indexed()
        self._reserve(m)
        table = self.table
        mask = len(table) - 1
        nb = self.num_bits
        n0 = self.n
        owner = np.empty(m, dtype=np.int64)  # new number - n0 -> its row in the batch
        claimed = np.empty(m, dtype=np.int64)  # new number - n0 -> its slot in the table
        taken = 0
        h = hash_words(words)
        slot = (h & np.uint64(mask)).astype(np.int64)
        fp = (h >> np.uint64(64 - self.fp_bits)).astype(np.int64) if self.fp_bits else \
            np.zeros(m, dtype=np.int64)
        pending = np.arange(m, dtype=np.int64)
        # (masks are turned into index arrays before indexing: numpy's boolean
        # indexing is several times slower on masks that are not runs)
        while len(pending):
            s = slot[pending]
            t = table[s].astype(np.int64)
            occ = np.flatnonzero(t >= 0)
            if len(occ):
                po, to = pending[occ], t[occ]
                maybe = np.flatnonzero((to >> nb) == fp[po])
                same = np.zeros(len(po), dtype=bool)
                if len(maybe):
                    same[maybe] = self._equal(to[maybe] & ((1 << nb) - 1), words, po[maybe],
                                              n0, owner)
                hit = np.flatnonzero(same)
                nums[po[hit]] = to[hit] & ((1 << nb) - 1)
                other = po[np.flatnonzero(~same)]
                slot[other] = (slot[other] + 1) & mask
            if len(occ) < len(pending):
                empty = np.flatnonzero(t < 0)
                pe, se = pending[empty], s[empty]
                # claim: the first row at each empty slot wins (written last)
                table[se[::-1]] = -2 - pe[::-1]
                won = np.flatnonzero(table[se] == -2 - pe)
                winners, wslots = pe[won], se[won]
                numbers = n0 + taken + np.arange(len(winners), dtype=np.int64)
                table[wslots] = numbers | (fp[winners] << nb)
                owner[taken:taken + len(winners)] = winners
                claimed[taken:taken + len(winners)] = wslots
                taken += len(winners)
                nums[winners] = numbers
                new[winners] = True
            # rows resolved this round leave; the others (a different key at
            # the slot, or a slot just claimed by another row) go round again
            pending = pending[np.flatnonzero(nums[pending] < 0)]
        if taken:
            rows = self._in_row_order(nums, owner[:taken], claimed[:taken], n0, fp)
            self._append(np.stack([w[rows] for w in words], axis=1))
        return nums, new

    def _in_row_order(self, nums, owner, claimed, n0: int, fp) -> np.ndarray:
        """Number the batch's new keys in the order of their first rows (the
        probing claimed them round by round): a key's number then depends on
        the batch's order alone, not on where the hash put it, so a search
        partitioned over processes can give every state the number one process
        gives it.  Returns the new keys' rows in number order."""
        if np.all(owner[1:] > owner[:-1]):
            return owner
        order = np.argsort(owner)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order), dtype=np.int64)
        fresh = np.flatnonzero(nums >= n0)
        nums[fresh] = n0 + rank[nums[fresh] - n0]
        rows = owner[order]
        self.table[claimed[order]] = (n0 + np.arange(len(order), dtype=np.int64)) \
            | (fp[rows] << self.num_bits)
        return rows

    def _equal(self, to: np.ndarray, words, rows: np.ndarray, n0: int,
               owner: np.ndarray | None) -> np.ndarray:
        """Rows whose key equals that of the state numbered ``to`` (a number
        from ``n0`` on is new in this batch: its key is the batch's row)."""
        old = to < n0
        if old.all():
            keys = self.keys
            same = keys[to, 0] == words[0][rows]
            for j in range(1, self.words):
                same &= keys[to, j] == words[j][rows]
            return same
        same = np.empty(len(to), dtype=bool)
        was = np.flatnonzero(old)
        if len(was):
            same[was] = self._equal(to[was], words, rows[was], n0, owner)
        fresh = np.flatnonzero(~old)
        assert owner is not None   # a number new in this batch has its owner row
        mine = owner[to[fresh] - n0]
        eq = words[0][mine] == words[0][rows[fresh]]
        for j in range(1, self.words):
            eq &= words[j][mine] == words[j][rows[fresh]]
        same[fresh] = eq
        return same

    def _reserve(self, more: int):
        if self.n + more >= 1 << self.num_bits:  # more states than the slots can number
            if self.num_bits >= 31:
                raise MemoryError("more than 2**31 states")
            self.num_bits = min(31, (self.n + more).bit_length())
            self._rehash(len(self.table))
        if self.n + more <= MAX_LOAD * len(self.table):
            return
        cap = len(self.table)
        while self.n + more > MAX_LOAD * cap:
            cap *= 2
        self._rehash(cap)

    @property
    def fp_bits(self) -> int:
        """Bits of the hash a slot keeps above the number (31 in all)."""
        return 31 - self.num_bits

    def _rehash(self, cap: int):
        table = np.full(cap, -1, dtype=np.int32)
        mask = cap - 1
        nb = self.num_bits
        for lo in range(0, self.n, 1 << 20):
            hi = min(self.n, lo + (1 << 20))
            rows = self.rows(lo, hi)
            h = hash_words([rows[:, j] for j in range(self.words)])
            slot = (h & np.uint64(mask)).astype(np.int64)
            fp = (h >> np.uint64(64 - self.fp_bits)).astype(np.int64) if self.fp_bits else \
                np.zeros(hi - lo, dtype=np.int64)
            pending = np.arange(lo, hi, dtype=np.int64)
            while len(pending):
                s = slot[pending - lo]
                free = np.flatnonzero(table[s] < 0)
                pe, se = pending[free], s[free]
                table[se] = pe  # distinct keys: any of them may take a free slot
                won = np.flatnonzero(table[se] == pe)
                table[se[won]] = pe[won] | (fp[pe[won] - lo] << nb)
                placed = np.zeros(len(pending), dtype=bool)
                placed[free[won]] = True
                pending = pending[np.flatnonzero(~placed)]
                slot[pending - lo] = (slot[pending - lo] + 1) & mask
        self.table = table

    def lookup(self, words) -> np.ndarray:
        """Each key's state number, or -1 (nothing is stored)."""
        m = len(words[0])
        nums = np.full(m, -1, dtype=np.int64)
        if not m or not self.n:
            return nums
        self._indexed()
        mask = len(self.table) - 1
        nb = self.num_bits
        h = hash_words(words)
        slot = (h & np.uint64(mask)).astype(np.int64)
        fp = (h >> np.uint64(64 - self.fp_bits)).astype(np.int64) if self.fp_bits else \
            np.zeros(m, dtype=np.int64)
        pending = np.arange(m, dtype=np.int64)
        while len(pending):
            s = slot[pending]
            t = self.table[s].astype(np.int64)
            occ = np.flatnonzero(t >= 0)
            pending, t = pending[occ], t[occ]
            if not len(pending):
                break
            to = t & ((1 << nb) - 1)
            same = ((t >> nb) == fp[pending]) & self._equal(to, words, pending, self.n, None)
            hit = np.flatnonzero(same)
            nums[pending[hit]] = to[hit]
            pending = pending[np.flatnonzero(~same)]
            slot[pending] = (slot[pending] + 1) & mask
        return nums

    def rollback(self, n: int):
        """Forget every state numbered ``n`` or above (the table is rebuilt from
        the keys kept: a rehash places keys in no particular order, so a newer
        key may sit on an older one's probe sequence)."""
        if n >= self.n:
            return
        self.n = n
        self._rehash(len(self.table))

    # -- size -------------------------------------------------------------------------
    def nbytes(self) -> dict:
        """The memory the store holds: the key rows written (the pages of the
        array past them were never touched, so they take no memory) and the
        table."""
        page = 4096
        used = -(-self.n * self.words * 8 // page) * page
        return {"keys": used, "visited table": self.table.nbytes}
