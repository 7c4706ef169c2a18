"""Explicit-state exploration: breadth-first over every reachable state.

From every deal (each an initial state), the explorer visits the round's
states breadth-first, storing each once as a packed integer (optionally the
canonical form under suit and copy symmetry) with a parent link, so the first
time a property fails the path back is a shortest counterexample.  State and
step properties are checked on the fly; live states without a legal move are
deadlocks; edges among post-Pass states are kept so ``ROUND_ENDS`` can be
decided on the graph afterwards.  Limits (states, depth, time) stop the search
and are recorded: whatever was not exhausted can never be reported as HOLDS.

Per state the search keeps the key object (shared by the key list and the
visited set), one slot of the visited set, one of the key list and a 4-byte
parent link; no state numbers in the visited set (a new state's number is its
place in the key list, and only a post-Pass edge to a state seen before needs
another's: its key waits, packed in bytes, until the level is done) and no
per-state depth (states are numbered level by level).
"""
from __future__ import annotations

import gc
import sys
import time
from array import array
from bisect import bisect_right
from itertools import compress, count, islice, repeat, tee
from operator import itemgetter
from struct import iter_unpack
from dataclasses import dataclass, field

from itcp.model.engine import Game
from itcp.model.packed import compile_packed
from itcp.model.packing import Layout, compile_packer
from itcp.model.symmetry import canonicalizer, orbit_size, packed_canonicalizer
from itcp.spec.lang import Inliner
from itcp.spec.rules.table import score_of


#: Pending post-Pass edge targets are resolved in chunks of up to
#: ``PENDING_CHUNK_MIN`` or stored states / ``PENDING_CHUNK_DIVISOR`` distinct
#: targets, whichever is more (a distinct target takes about 120 bytes while
#: its chunk is resolved; each chunk is one pass over the stored keys).
PENDING_CHUNK_MIN = 4096
PENDING_CHUNK_DIVISOR = 32

#: Rule coverage is tracked on every transition of an action until this many in
#: a row have shown no rule not seen before; after that it is a sample (said so).
COVERAGE_PATIENCE = 5000


@dataclass
class Limits:
    max_states: int | None = None
    max_depth: int | None = None
    timeout: float | None = None


@dataclass
class Exploration:
    """Everything a search found, in terms of state numbers (BFS order)."""
    game: Game
    symmetry: bool
    keys: list = field(default_factory=list)        # state number -> packed key
    parent: array = field(default_factory=lambda: array("i"))
    depth_of: "Depths" = field(default_factory=lambda: Depths())
    transitions: int = 0
    terminal: int = 0
    initial: int = 0
    deadlocks: list = field(default_factory=list)   # state numbers
    violations: dict = field(default_factory=dict)  # property id -> first witness
    hand_min: int | None = None
    hand_max: int | None = None
    fired: set = field(default_factory=set)
    depth: int = 0
    seconds: float = 0.0
    complete: bool = False
    limit: str | None = None  # which limit stopped the search
    interrupted: bool = False
    permutations: int = 1
    coverage_sampled: bool = False
    #: with symmetry reduction: how many states the unreduced search would store
    #: (the sum of the stored states' orbit sizes; exact, since the deals are
    #: closed under the symmetries)
    unreduced_states: int = 0

    #: the visited set: every stored key, without state numbers (a number is
    #: needed only for a post-Pass edge to a state seen before; see ``_pending``)
    _seen: set = field(default_factory=set, repr=False)
    #: post-Pass edges (source, target) as two arrays; a target -1 is a state
    #: seen before, whose key waits in ``_pending`` until the search resolves it
    _edge_src: array = field(default_factory=lambda: array("i"), repr=False)
    _edge_dst: array = field(default_factory=lambda: array("i"), repr=False)
    _pending: bytearray = field(default_factory=bytearray, repr=False)
    _key_bytes: int = 0   # width of one key in ``_pending``
    #: the largest memory the resolution of ``_pending`` held (bytes), counted
    #: in ``bytes_per_state`` as part of the search
    _pending_peak: int = 0
    _edges_resolved: int = 0  # the edges before this one have no pending target
    _resolving: bool = False  # pending targets are being resolved
    _index_cache: dict | None = field(default=None, repr=False)

    @property
    def states(self) -> int:
        return len(self.keys)

    @property
    def post_pass_edges(self) -> "PostPassEdges":
        return PostPassEdges(self._edge_src, self._edge_dst)

    @property
    def _index(self) -> dict:
        """Key -> state number, built on first use after the search (the search
        itself keeps no numbers); for the readers that look states up by key."""
        if self._index_cache is None or len(self._index_cache) != len(self.keys):
            self._index_cache = {k: i for i, k in enumerate(self.keys)}
        return self._index_cache

    def memory(self) -> dict:
        """Bytes the search keeps, by structure: the key objects (each allocated
        in 16-byte steps, as CPython's small-object allocator does), the visited
        set's table, the key list, parent and depth arrays and post-Pass edge
        arrays with their spare capacity, and the pending edge targets at their
        peak (before they were resolved to numbers)."""
        n = len(self.keys)
        if not n:
            return {}
        sample = self.keys[:: max(1, n // 1000)]
        per_key = sum(_allocated(sys.getsizeof(k)) for k in sample) / len(sample)
        return {"key objects": per_key * n, "visited set": sys.getsizeof(self._seen),
                "key list": sys.getsizeof(self.keys), "parent": sys.getsizeof(self.parent),
                "depth": sys.getsizeof(self.depth_of.starts),
                "post-Pass edges": sys.getsizeof(self._edge_src) + sys.getsizeof(self._edge_dst),
                "pending targets": max(self._pending_peak, sys.getsizeof(self._pending)),
                "deadlocks": sys.getsizeof(self.deadlocks)
                + sum(_allocated(sys.getsizeof(i)) for i in self.deadlocks if i > 256)}

    def bytes_per_state(self) -> float:
        """Everything in ``memory()``, per stored state."""
        return sum(self.memory().values()) / len(self.keys) if self.keys else 0.0


class Depths:
    """The depth of every stored state, kept as the first state number of each
    breadth-first level: the search numbers states level by level, so a depth
    costs nothing per state.  Reads like a sequence of depths."""

    def __init__(self, depths=()):
        self.starts = array("i")  # starts[d]: the first state number at depth d
        self.n = 0
        for d in depths:
            self.add(d)

    def add(self, d: int, count: int = 1):
        """``count`` more states, at depth ``d`` (never less than the last)."""
        if self.starts and d < len(self.starts) - 1:
            raise ValueError(f"depth {d} after depth {len(self.starts) - 1}")
        while len(self.starts) <= d:
            self.starts.append(self.n)
        self.n += count

    def truncate(self, n: int):
        """Forget the states numbered ``n`` and above."""
        self.n = min(self.n, n)
        while self.starts and self.starts[-1] >= self.n and len(self.starts) > 1:
            self.starts.pop()

    def deepest(self) -> int:
        return len(self.starts) - 1 if self.n else 0

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        return bisect_right(self.starts, i) - 1

    def __iter__(self):
        ends = list(self.starts[1:]) + [self.n]
        for d, (lo, hi) in enumerate(zip(self.starts, ends)):
            yield from repeat(d, max(0, min(hi, self.n) - lo))


def _allocated(size: int) -> int:
    """The bytes CPython's allocator takes for an object of ``size`` bytes."""
    return (size + 15) & ~15


class PostPassEdges:
    """The post-Pass edges (source, target) as a read-only sequence of pairs,
    over the two arrays the search fills."""

    def __init__(self, src: array, dst: array):
        self.src, self.dst = src, dst

    def __len__(self) -> int:
        return min(len(self.src), len(self.dst))

    def __iter__(self):
        return zip(self.src, self.dst)

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __repr__(self) -> str:
        return f"PostPassEdges({list(self)!r})"


def explore(game: Game, limits: Limits | None = None, symmetry: bool = True,
            progress=None, track_rules: bool = True, fast: bool = True) -> Exploration:
    """Breadth-first search of every round reachable from every deal.

    ``fast`` (the default) expands states with the packed successor functions
    (``model/packed.py``); ``fast=False`` takes the generic engine path (unpack,
    ``legal``, ``apply``, pack).  Both number the states identically; the
    generic path is kept to test the fast one against.
    """
    limits = limits or Limits()
    pack, unpack = compile_packer(game.spec)
    key_of, nperms = canonicalizer(game.spec, pack, symmetry)
    ex = Exploration(game, symmetry, permutations=nperms,
                     _key_bytes=(Layout(game.spec).max_bits() + 7) // 8)
    search = _Search(ex, game, limits, key_of, unpack, nperms > 1, progress, track_rules)
    start = time.monotonic()
    search.start, search.pack = start, pack
    # the search creates no reference cycles, and the cyclic collector would
    # only walk its growing tables again and again: off while it runs
    collecting = gc.isenabled()
    gc.disable()
    try:
        if fast and game.backend == "generated":
            canon = packed_canonicalizer(game.spec, symmetry) if nperms > 1 else None
            if nperms > 1 and canon is None:
                # a deck too large for the renaming tables: rename the unpacked state
                canon = (lambda k: key_of(unpack(k)), lambda k: key_of.orbit(unpack(k)))
            search.run_stored(packed_successors(game, store=True, symmetric=nperms > 1), canon)
        else:
            search.deals()
            search.run_generic()
    except KeyboardInterrupt:
        ex.interrupted = True
        ex.limit = "interrupted (Ctrl-C)"
        _drop_half_stored(ex)
    finally:
        if collecting:
            gc.enable()
    search.finish()
    ex.seconds = time.monotonic() - start
    ex._unpack, ex._key_of = unpack, key_of
    return ex


def _drop_half_stored(ex: Exploration):
    """After Ctrl-C: forget a state whose key, parent and depth were not all
    stored when the interrupt came (a successor function stores the key, the
    parent, then adds the key to the visited set), and a post-Pass edge that
    was half recorded or leads to such a state."""
    if ex._resolving:
        # stopped while pending targets were being resolved: the edges from the
        # last resolved one on may be half rewritten; forget them (fewer edges
        # can hide a post-Pass cycle, never invent one; the search is incomplete)
        del ex._edge_src[ex._edges_resolved:], ex._edge_dst[ex._edges_resolved:]
        del ex._pending[:]
        ex._resolving = False
    n = min(len(ex.keys), len(ex.parent), len(ex.depth_of))
    for k in ex.keys[n:]:
        ex._seen.discard(k)
    del ex.keys[n:], ex.parent[n:]
    ex.depth_of.truncate(n)
    if n:
        ex._seen.add(ex.keys[n - 1])  # stored, perhaps not yet in the set
    src, dst = ex._edge_src, ex._edge_dst
    m = min(len(src), len(dst))
    while m and dst[m - 1] >= n:
        m -= 1
    del src[m:], dst[m:]
    # a pending target's key is recorded before its edge
    del ex._pending[dst.count(-1) * ex._key_bytes:]


def _resolve_pending(ex: Exploration, start: int = 0):
    """Turn each pending post-Pass edge target (a key) into its state number.

    The search calls this after every level: the targets recorded while
    expanding a level are almost all states of the next level, so the stored
    keys are scanned from ``start`` (that level's first number) first, the
    older ones only for a target not found there.  Targets are resolved a
    chunk at a time, so the look-up table stays a few bytes per stored state;
    ``_pending_peak`` records the most the pending targets held."""
    pending, width, dst, keys = ex._pending, ex._key_bytes, ex._edge_dst, ex.keys
    n_pending = len(pending) // width if width else 0
    if not n_pending:
        return
    ex._resolving = True
    peak = sys.getsizeof(pending)
    budget = max(PENDING_CHUNK_MIN, len(keys) // PENDING_CHUNK_DIVISOR)  # distinct targets
    pos = ex._edges_resolved
    unpack, decode, little = iter_unpack, int.from_bytes, repeat("little")
    fmt = f"{width}s"
    lo = 0
    while lo < n_pending:
        # the next targets, up to ``budget`` distinct ones: each a reference
        # to the first key object decoded for it (a repeat is dropped at once)
        want: dict = {}
        targets: list = []
        hi = lo
        view = memoryview(pending)
        while hi < n_pending and len(want) < budget:
            step = min(n_pending, hi + budget - len(want))
            first, again = tee(map(decode, map(itemgetter(0), unpack(
                fmt, view[hi * width:step * width])), little))
            targets.extend(map(want.setdefault, first, again))
            del first, again  # they hold a view of ``pending``
            hi = step
        view.release()
        left = len(want)
        for first, last in _windows(ex, start):
            hits = list(compress(range(first, last), map(want.__contains__,
                                                         islice(keys, first, last))))
            for i in hits:
                want[keys[i]] = i
            left -= len(hits)
            if not left:
                break
        numbers = list(map(want.__getitem__, targets))
        key_size = _allocated(sys.getsizeof(next(iter(want))))
        held = (sys.getsizeof(want) + sys.getsizeof(hits) + sys.getsizeof(numbers)
                + sys.getsizeof(targets)
                + len(want) * (key_size + _allocated(sys.getsizeof(len(dst)))))
        peak = max(peak, sys.getsizeof(pending) + held)
        holes = compress(count(pos), map((-1).__eq__, islice(dst, pos, None)))
        for p, j in zip(holes, numbers):
            dst[p] = j
        pos = p + 1
        lo = hi
    del pending[:]
    ex._edges_resolved = pos
    ex._resolving = False
    ex._pending_peak = max(ex._pending_peak, peak)


def _windows(ex: Exploration, start: int):
    """The stored states to look for pending targets in, most likely first:
    from ``start`` on (the level just found), then each older level, newest
    first (a post-Pass cycle leads back a few levels, seldom to the deals)."""
    yield start, len(ex.keys)
    starts = ex.depth_of.starts
    last = start
    for d in range(bisect_right(starts, start - 1) - 1, -1, -1) if start else ():
        yield starts[d], last
        last = starts[d]
    if last > 0:  # states not yet given a depth (cannot happen between levels)
        yield 0, last


def _fill_depths(ex: Exploration, d: int):
    """Give depth ``d`` to the states stored since the last call: the stored
    successor functions do not record depths, as every state found while one
    breadth-first level is expanded is one level deeper."""
    missing = min(len(ex.keys), len(ex.parent)) - len(ex.depth_of)
    if missing > 0:
        ex.depth_of.add(d, missing)


def packed_successors(game: Game, with_actions: bool = False, store: bool = False,
                      symmetric: bool = False):
    """The packed successor module of ``game`` (compiled once per game and mode)."""
    cache = game.__dict__.setdefault("_packed", {})
    mode = (with_actions, store, symmetric)
    if mode not in cache:
        cache[mode] = compile_packed(game.spec, with_actions, store, symmetric)
    return cache[mode]


class _Search:
    """The state of one breadth-first search; the two expansion paths share it."""

    def __init__(self, ex, game, limits, key_of, unpack, symmetric, progress, track_rules):
        self.ex, self.game, self.limits = ex, game, limits
        self.key_of, self.unpack, self.symmetric = key_of, unpack, symmetric
        self.progress, self.track_rules = progress, track_rules
        self.deadline = None
        spec = game.spec
        self.state_props = [p.id for p in spec.properties
                            if p.kind == "state" and p.formula is not None]
        self.step_props = [p.id for p in spec.properties
                           if p.kind == "step" and p.formula is not None]
        self.check = {p: getattr(game.impl, f"prop_{p}") for p in self.state_props + self.step_props}
        self.fired_fns = {a: getattr(game.impl, f"fired_{a}", None) for a in game.actions}
        self.unseen_rules = {a.name: set(r for r, _ in a.guards)
                             | {r for ups in a.updates.values() for r, *_ in ups}
                             | set(a.used_defs) | {d for ds in a.update_defs.values() for d in ds}
                             for a in spec.actions}
        self.taken: set = set()
        self.quiet = {a: 0 for a in game.actions}  # transitions since the action's last new rule
        self.bounds = [999, -1]
        self.fp_i = game.index["first_passer"]
        from itcp.spec.rules.table import OVER
        self.over = OVER
        self.phase_i = game.index["phase"]

    # -- shared pieces ----------------------------------------------------------
    def visit(self, state, par, d):
        """Store ``state`` if new: (its number, True), else (its key, False)."""
        ex = self.ex
        k = self.key_of(state)
        if k in ex._seen:
            return k, False
        i = len(ex.keys)
        ex.keys.append(k)
        ex.parent.append(par)
        ex.depth_of.add(d)
        ex._seen.add(k)
        return i, True

    def post_pass_edge(self, i, j, new):
        """The edge from ``i`` to ``j`` (a number if ``new``, else a key)."""
        ex = self.ex
        if not new:
            ex._pending.extend(j.to_bytes(ex._key_bytes, "little"))
            j = -1
        ex._edge_src.append(i)
        ex._edge_dst.append(j)

    def on_new_state(self, i, s):
        ex, impl = self.ex, self.game.impl
        if self.symmetric:
            ex.unreduced_states += orbit_size(self.key_of, s)
        if not impl.state_ok(s):
            self.state_violations(i, s)
        if s[self.phase_i] != self.over:
            lo, hi = impl.hand_range(s)
            self.widen(lo, hi)

    def state_violations(self, i, s):
        for p in self.state_props:
            if p not in self.ex.violations and not self.check[p](s):
                self.ex.violations[p] = ("state", i)

    def widen(self, lo, hi):
        bounds = self.bounds
        if lo < bounds[0]:
            bounds[0] = lo
        if hi > bounds[1]:
            bounds[1] = hi

    def cover(self, s, a, s2):
        """Rule coverage of one move (every move until the action goes quiet)."""
        name = a[0]
        if name not in self.taken:
            self.taken.add(name)  # its conditions were consulted
            self.ex.fired |= self.game.actions[name].cond_defs
        unseen = self.unseen_rules[name]
        if unseen and self.quiet[name] < COVERAGE_PATIENCE:
            self.quiet[name] += 1
            for r in self.fired_fns[name](s, a[1], s2):
                if r in unseen:
                    unseen.discard(r)
                    self.ex.fired.add(r)
                    self.quiet[name] = 0

    def covering(self, name) -> bool:
        return name not in self.taken or (bool(self.unseen_rules[name])
                                          and self.quiet[name] < COVERAGE_PATIENCE)

    def deals(self):
        """Every deal: the initial states (state numbers 0 .. initial-1)."""
        ex, game = self.ex, self.game
        limits = self.limits
        self.deadline = None if limits.timeout is None else self.start + limits.timeout
        s0 = game.initial_state()
        for a in game.impl.legal(s0):
            s = game._apply[a[0]](s0, a[1])
            if self.track_rules and self.unseen_rules[a[0]]:
                for r in self.fired_fns[a[0]](s0, a[1], s):
                    if r in self.unseen_rules[a[0]]:
                        self.unseen_rules[a[0]].discard(r)
                        ex.fired.add(r)
            i, new = self.visit(s, -1, 0)
            if new:
                self.on_new_state(i, s)
        ex.initial = len(ex.keys)

    def end_level(self, d) -> bool:
        """After level ``d``: report progress; True when a limit stops the search."""
        ex, limits = self.ex, self.limits
        if self.progress is not None:
            self.progress(len(ex.keys), d + 1, time.monotonic() - self.start)
        if limits.max_states is not None and len(ex.keys) >= limits.max_states:
            ex.limit = f"--max-states {limits.max_states}"
            return True
        if self.deadline is not None and time.monotonic() > self.deadline:
            ex.limit = f"--timeout {limits.timeout:g}"
            return True
        return False

    def depth_limited(self, d) -> bool:
        if self.limits.max_depth is not None and d >= self.limits.max_depth:
            self.ex.limit = f"--depth {self.limits.max_depth}"
            return True
        return False

    # -- the generic path: tuples through the engine's legal/apply ------------------
    def run_generic(self):
        ex, game = self.ex, self.game
        keys = ex.keys
        legal, apply, unpack = game.impl.legal, game._apply, self.unpack
        terminal_fn = game.is_terminal
        fp_i, check, visit = self.fp_i, self.check, self.visit
        max_states, deadline = self.limits.max_states, self.deadline
        track = self.track_rules
        frontier = list(range(len(keys)))
        d = 0
        while frontier:
            if self.depth_limited(d):
                return
            nxt = []
            first_new = len(keys)
            for i in frontier:
                s = unpack(keys[i])
                if terminal_fn(s):
                    ex.terminal += 1
                    continue
                moves = legal(s)
                if not moves:
                    ex.deadlocks.append(i)
                    continue
                post_pass = s[fp_i] >= 0
                for a in moves:
                    s2 = apply[a[0]](s, a[1])
                    ex.transitions += 1
                    for p in self.step_props:
                        if p not in ex.violations and not check[p](s, s2):
                            ex.violations[p] = ("step", i, a)
                    if track:
                        self.cover(s, a, s2)
                    j, new = visit(s2, i, d + 1)
                    if new:
                        nxt.append(j)
                        self.on_new_state(j, s2)
                    if post_pass and s2[fp_i] >= 0:
                        self.post_pass_edge(i, j, new)
                if max_states is not None and len(keys) >= max_states:
                    break
                if deadline is not None and ex.transitions % 64 == 0 and time.monotonic() > deadline:
                    break
            _resolve_pending(ex, first_new)
            if self.end_level(d):
                return
            frontier = nxt
            d += 1
            ex.depth = d
        ex.complete = True

    # -- the fast path: packed keys through the packed successor functions ---------
    def run_stored(self, mod, canon=None):
        """The generated functions store each new successor themselves
        (``model/packed.py``, ``store``; with symmetry reduction under the key
        ``canon`` gives), so this loop only walks the levels, counts, and turns
        their reports into violations.  Rule coverage, while it is still being
        tracked for some action of a phase, replays that phase's moves through
        the generic engine on the side."""
        ex = self.ex
        keys = ex.keys
        bad: list = []
        state_bad: list = []
        bounds = self.bounds
        unreduced = [0]
        succ = mod.bind(ex._seen, keys, ex.parent, ex._edge_src, ex._edge_dst, ex._pending,
                        bad, state_bad, bounds, *(canon or (None, None)), unreduced)
        try:
            self.expand_stored(mod, succ, bad, state_bad)
        finally:
            ex.unreduced_states += unreduced[0]

    def expand_stored(self, mod, succ, bad, state_bad):
        ex, game = self.ex, self.game
        keys, violations = ex.keys, ex.violations
        s0 = game.initial_state()
        if self.track_rules or not game.impl.state_ok(s0):
            self.deals()
        else:
            # the deals are the pre-deal state's successors; it satisfies every
            # state property, so the deals are checked as any successor is
            self.deadline = None if self.limits.timeout is None else \
                self.start + self.limits.timeout
            k0 = self.pack(s0)
            succ[k0 & mod.DISPATCH](k0, -1)
            _fill_depths(ex, 0)
            bad.clear()  # moves are checked from the deals on, as on the generic path
            for p, j in state_bad:
                if self.state_props[p] not in violations:
                    violations[self.state_props[p]] = ("state", j)
            state_bad.clear()
            ex.initial = len(keys)
        layout = Layout(game.spec)
        phase_f = next(fs for v, _, fs in layout.fields if v == "phase")[0]
        assert phase_f.offset == 0 and phase_f.bias == 0
        phase_mask = (1 << phase_f.width) - 1
        dispatch = mod.DISPATCH
        state_props = self.state_props
        max_states, deadline = self.limits.max_states, self.deadline
        deadlocks = ex.deadlocks
        covering = {}
        if self.track_rules:
            from itcp.spec import ast as A
            for a in game.spec.actions:
                if a.guard != A.Const(False, A.BOOL):  # else never legal at this table
                    covering.setdefault(a.phase.value, []).append(a.name)
        legal, apply, unpack = game.impl.legal, game._apply, self.unpack
        transitions, terminals = ex.transitions, 0
        limit = sys.maxsize if max_states is None else max_states
        lo, hi = 0, len(keys)
        d = 0
        try:
            while lo < hi:
                if self.depth_limited(d):
                    return
                d1 = d + 1
                for i in range(lo, hi):
                    k = keys[i]
                    # a terminal phase's function returns -1
                    n = succ[k & dispatch](k, i)
                    if n <= 0:
                        if n:
                            terminals += 1
                        else:
                            deadlocks.append(i)
                        continue
                    transitions += n
                    if bad:
                        for p, a in bad:
                            if p not in violations:
                                violations[p] = ("step", i, a)
                        bad.clear()
                    if state_bad:
                        for p, j in state_bad:
                            if state_props[p] not in violations:
                                violations[state_props[p]] = ("state", j)
                        state_bad.clear()
                    if covering and k & phase_mask in covering:
                        ph = k & phase_mask
                        names = [a for a in covering[ph] if self.covering(a)]
                        if names:
                            s = unpack(k)
                            for a in legal(s):
                                if a[0] in names:
                                    self.cover(s, a, apply[a[0]](s, a[1]))
                        else:
                            del covering[ph]
                    if len(keys) >= limit:
                        break
                    if deadline is not None and not i & 63 and time.monotonic() > deadline:
                        break
                ex.transitions = transitions
                _fill_depths(ex, d1)
                _resolve_pending(ex, hi)
                if self.end_level(d):
                    return
                lo, hi = hi, len(keys)
                d += 1
                ex.depth = d
            ex.complete = True
        finally:
            ex.transitions = transitions
            ex.terminal += terminals
            _fill_depths(ex, d + 1)  # the states a stop or Ctrl-C left in mid-level

    def finish(self):
        ex, game = self.ex, self.game
        _resolve_pending(ex)
        ex.complete = ex.complete and ex.limit is None
        if not self.symmetric:
            ex.unreduced_states = len(ex.keys)
        if self.bounds[1] >= 0:
            ex.hand_min, ex.hand_max = self.bounds
        ex.coverage_sampled = any(q >= COVERAGE_PATIENCE and self.unseen_rules[a]
                                  for a, q in self.quiet.items())
        if ex.terminal and self.track_rules:
            # scoring rules act at the end of a round, through scores()
            inline = Inliner(game.spec.definitions)
            inline(score_of(0))
            ex.fired |= inline.used
        ex.depth = max(ex.depth, ex.depth_of.deepest())


def state(ex: Exploration, i: int):
    """The stored (canonical) state number ``i``."""
    return ex._unpack(ex.keys[i])


def number_of(ex: Exploration, s) -> int | None:
    """The number of the stored state ``s`` stands for (its canonical form under
    the search's symmetry reduction), or None if the search did not store it."""
    return ex._index.get(ex._key_of(s))


def edges(ex: Exploration) -> list[tuple[int, int]]:
    """Every transition among the stored states, as (source, target) numbers
    (each state's successors computed again: for small explorations, such as a
    picture of the graph)."""
    game, out = ex.game, []
    for i in range(ex.states):
        s = state(ex, i)
        if game.is_terminal(s):
            continue
        for _, s2 in game.successors(s):
            j = number_of(ex, s2)
            if j is not None:
                out.append((i, j))
    return out


def path_to(ex: Exploration, i: int) -> list[int]:
    out = []
    while i >= 0:
        out.append(i)
        i = ex.parent[i]
    return out[::-1]


def concrete_trace(ex: Exploration, numbers: list[int]):
    """A real sequence of (state, action) steps through the given state numbers.

    With symmetry reduction the stored states are canonical representatives;
    the trace follows actual successors whose canonical keys match, so every
    step is a legal move of the game.
    """
    game = ex.game
    s = state(ex, numbers[0])
    steps = []
    for j in numbers[1:]:
        target = ex.keys[j]
        for a, s2 in game.successors(s):
            if ex._key_of(s2) == target:
                steps.append((s, a))
                s = s2
                break
        else:  # pragma: no cover - the graph was built from these successors
            raise AssertionError("trace reconstruction failed")
    return steps, s
