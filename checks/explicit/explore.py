"""Explicit-state exploration: breadth-first over every reachable game position.

From every deal (each an initial state), the explorer visits the round's
states breadth-first, a level at a time, storing each once as a packed key
(``model/search/searchkey.py``; optionally the canonical form under suit and copy
symmetry) with a parent link, so the first time a property fails the path
back is a shortest counterexample.  State and step properties are checked on
the fly; live states without a legal move are deadlocks; edges among
post-Pass states are kept so ``ROUND_ENDS`` can be decided on the graph
afterwards.  Limits (states, depth, time) stop the search and are recorded:
whatever was not exhausted can never be reported as HOLDS.

One stored state per game position:

* a variable the state's future never reads (``model/analysis/liveness.py``) is reset
  to its canonical value before the key is made, and one constant in every
  stored state has no field;
* a chance node (the deck's top card revealed) is folded into the move that
  opens it: the drawing move and the card drawn are one edge of the search,
  two steps long.  The levels are counted in game steps, so a state reached
  by a folded edge is stored two levels down, and every trace the search
  finds is still a shortest one in moves of the game; the trace itself
  (``concrete_trace``) replays the engine, so it shows the draw and the card.
  A chance node is stored instead when it is not an ordinary one: it has no
  outcome (a deadlock), breaks a state property, or one of its outcomes
  breaks a step property, so every violation is reported as before.

The search expands a level in chunks of states: the batch successor code
(``model/search/vectorized.py``) gives every successor of a chunk as arrays, the
visited set (``statestore.py``) numbers them a batch at a time, and the
checks run on arrays.  Per state the search keeps its key's words, a slot of
the visited set's table and a 4-byte parent link; depths cost nothing (states
are numbered level by level).  Where the batch code does not apply (a deck
too large for a key word) the generic engine path gives the same successors
one state at a time.
"""
from __future__ import annotations

import gc
import sys
import time
import types
from abc import ABC, abstractmethod
from array import array
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from itcp.model.analysis.liveness import Reduction, compile_observations
from itcp.model.engine.engine import Game
from itcp.model.search.packed import compile_packed
from itcp.model.search.searchkey import KeyLayout, search_keys
from itcp.model.search.vectorized import BatchModule, Unsupported
from itcp.spec.properties import Kind
from itcp.spec.rules.vocabulary import score_of

from .column import Column, position
from .statestore import StateStore

#: states expanded per batch (the limits are polled between batches)
CHUNK_STATES = 1 << 15

#: Rule coverage is tracked on every transition of an action until this many in
#: a row have shown no rule not seen before; after that it is a sample (said so).
COVERAGE_PATIENCE = 5000


@dataclass(frozen=True)
class Limits:
    """What stops a search: states stored, moves deep, seconds (``timeout_name``:
    the time limit as the user set it, which a verdict it stops names)."""
    max_states: int | None = None
    max_depth: int | None = None
    timeout: float | None = None
    timeout_name: str | None = None

    def timeout_text(self) -> str:
        """The time limit as a verdict names it: ``--timeout S``."""
        return self.timeout_name or f"--timeout {self.timeout:g}"


@dataclass(frozen=True)
class SearchPlan:
    """How a search goes, besides its limits and where it resumes.

    ``symmetry``: store one state per suit and copy permutation; ``fast``: the
    batch successor code (else the generic engine path, one state at a time);
    ``fold``: a chance node folded into the move that opens it (else every
    chance node a state of its own); ``reduce``: forget what the future never
    reads (else every reachable state stored as the engine has it);
    ``track_rules``: record which rules fire.  ``progress(states, depth,
    seconds)`` is called after each level; ``on_level(ex, level)`` at the top
    of every level (``level()`` is the search's ``Level`` there), and may raise
    ``Pause`` to stop there; ``stopped()`` names what interrupted the search
    (None: Ctrl-C)."""
    symmetry: bool = True
    track_rules: bool = True
    fast: bool = True
    fold: bool = True
    reduce: bool = True
    progress: Callable[[int, int, float], None] | None = None
    on_level: Callable[[Exploration, Callable[[], Level]], None] | None = None
    stopped: Callable[[], str | None] | None = None

    def interrupted(self) -> str:
        """What stopped the search, when a ``KeyboardInterrupt`` did."""
        return (self.stopped() if self.stopped is not None else None) or "interrupted (Ctrl-C)"


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
        return bisect_right(self.starts, position(i, self.n)) - 1

    def __iter__(self):
        ends = list(self.starts[1:]) + [self.n]
        for d, (lo, hi) in enumerate(zip(self.starts, ends)):
            yield from repeat(d, max(0, min(hi, self.n) - lo))

    def of(self, nums: np.ndarray) -> np.ndarray:
        """The depth of each of an array of state numbers."""
        return np.searchsorted(np.frombuffer(self.starts, dtype=np.int32), nums, "right") - 1


def _allocated(size: int) -> int:
    """The bytes CPython's allocator takes for an object of ``size`` bytes."""
    return (size + 15) & ~15


class PostPassEdges:
    """The post-Pass edges (source, target) as a read-only sequence of pairs,
    over the two arrays the search fills."""

    def __init__(self, src: Column, dst: Column):
        self.src, self.dst = src, dst

    def __len__(self) -> int:
        return min(len(self.src), len(self.dst))

    def __iter__(self):
        return zip(self.src, self.dst)

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __repr__(self) -> str:
        return f"PostPassEdges({list(self)!r})"

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        n = len(self)
        return self.src.view()[:n], self.dst.view()[:n]


class KeyView:
    """The stored keys in state-number order, each as one Python int (read-only)."""

    def __init__(self, ex: Exploration):
        self.ex = ex

    def __len__(self) -> int:
        return self.ex.store.n if self.ex.store is not None else 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self.ex.layout.join(self.ex.store.key(i))

    def __iter__(self):
        store, join = self.ex.store, self.ex.layout.join
        if store is None:
            return
        for lo in range(0, store.n, 1 << 16):
            for row in store.rows(lo, min(store.n, lo + (1 << 16))).tolist():
                yield join(row)

    def __eq__(self, other) -> bool:
        return list(self) == list(other)


@dataclass
class Exploration:
    """Everything a search found, in terms of state numbers (BFS order)."""
    game: Game
    symmetry: bool
    parent: Column = field(default_factory=Column)
    depth_of: Depths = field(default_factory=Depths)
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
    #: what the search forgets (constants, dead variables) and its keys' layout
    reduction: Reduction | None = field(default=None, repr=False)
    layout: KeyLayout | None = field(default=None, repr=False)
    store: StateStore | None = field(default=None, repr=False)
    #: per initial state: its deal, as the index of the legal action of the
    #: state before the deal that made it (a trace starts there)
    deal_action: Column = field(default_factory=Column, repr=False)
    _edge_src: Column = field(default_factory=Column, repr=False)
    _edge_dst: Column = field(default_factory=Column, repr=False)
    #: the most the chance outcomes waiting for a later level held (bytes)
    _waiting_peak: int = 0
    _index_cache: dict | None = field(default=None, repr=False)
    backend: str = "batch"
    #: the top of the last level the search reached (where it can go on from)
    level: Level | None = field(default=None, repr=False)
    #: the search's key codec, set by ``explore`` when the search ends: a key to
    #: its state, and a state to its key
    unpack: Callable[[int], tuple] = field(init=False, repr=False, compare=False)
    key_of: Callable[[tuple], int] = field(init=False, repr=False, compare=False)

    @property
    def keys(self) -> KeyView:
        return KeyView(self)

    @property
    def states(self) -> int:
        return self.store.n if self.store is not None else 0

    @property
    def post_pass_edges(self) -> PostPassEdges:
        return PostPassEdges(self._edge_src, self._edge_dst)

    @property
    def _index(self) -> dict:
        """Key -> state number, built on first use after the search (the search
        itself keeps no such dict); for the readers that look states up by key."""
        if self._index_cache is None or len(self._index_cache) != self.states:
            self._index_cache = {k: i for i, k in enumerate(self.keys)}
        return self._index_cache

    def number_of(self, key: int) -> int | None:
        """The state number of a stored key, or None."""
        assert self.layout is not None and self.store is not None   # set by the search
        words = self.layout.split(key)
        n = int(self.store.lookup([np.array([w], dtype=np.int64) for w in words])[0])
        return None if n < 0 else n

    def memory(self) -> dict:
        """Bytes the search keeps, by structure: the keys (in chunks of rows,
        the last one's spare rows counted), the visited set's table, the parent
        and depth arrays, the post-Pass edge arrays with their spare capacity,
        the chance outcomes waiting for a later level at their peak, the deals
        and the deadlocks."""
        if not self.states or self.store is None:
            return {}
        out = dict(self.store.nbytes())
        out.update({"parent": self.parent.nbytes,
                    "depth": sys.getsizeof(self.depth_of.starts),
                    "post-Pass edges": self._edge_src.nbytes
                    + self._edge_dst.nbytes,
                    "waiting outcomes": self._waiting_peak,
                    "deals": self.deal_action.nbytes,
                    "deadlocks": sys.getsizeof(self.deadlocks)
                    + sum(_allocated(sys.getsizeof(i)) for i in self.deadlocks if i > 256)})
        return out

    def bytes_per_state(self) -> float:
        """Everything in ``memory()``, per stored state."""
        return sum(self.memory().values()) / self.states if self.states else 0.0


@dataclass
class Level:
    """A search at the top of a level: levels ``0 .. depth`` stored, the states of
    ``depth`` about to be expanded, and everything it counted so far; with the
    rows of the first ``states`` states (``Exploration``'s arrays cut there) it is
    all a search needs to go on from that point (``explore(resume=...)``, the
    partitioned search, a checkpoint)."""
    depth: int
    states: int
    edges: int
    deadlocks: int
    deals: int
    violations: dict
    #: rows waiting for level ``depth + 1`` (folded outcomes): [(words, src, post-Pass)]
    waiting: list
    transitions: int
    terminal: int
    initial: int
    hands: tuple
    unreduced: int
    waiting_peak: int
    fired: set
    unseen: dict
    quiet: dict
    taken: set


class Pause(Exception):
    """Raised by a level hook to stop a search at the top of a level (a search
    handed over to processes, a checkpoint's last level): not a limit."""


# -- successor backends -----------------------------------------------------------------

class Moves:
    """The successors of a batch of states, as arrays: ``src`` (the state's row in
    the batch), ``aid`` (the action's index in the spec), ``prm`` (its parameter,
    or its place among the action's legal moves when they are listed by the
    engine's enumeration; -1 without), ``words`` (the successor keys' words),
    ``bad`` ({step property index: rows where it fails}).  In the order the
    batch code makes them: by the source state's dispatch class, then action,
    then state, then parameter (both backends give this order, so a search
    numbers its states the same on both)."""

    def __init__(self, src, aid, prm, words, bad):
        self.src, self.aid, self.prm, self.words, self.bad = src, aid, prm, words, bad

    def __len__(self):
        return len(self.src)

    def take(self, sel) -> Moves:
        return Moves(self.src[sel], self.aid[sel], self.prm[sel], [w[sel] for w in self.words],
                     {p: b[sel] for p, b in self.bad.items()})


#: bits of a move key below the source's number: the move's place among its
#: source's moves, and a folded outcome's place among its chance node's outcomes
PLACE_BITS = 16


def move_keys(src, place, outcome) -> np.ndarray:
    """One int64 per move that orders moves as one search stores them: by source
    number, then the move's place among the source's moves, then (a folded
    chance node's outcome) its place among the outcomes (0 for a direct move).
    The outcomes of moves from depth ``d - 1`` reach depth ``d + 1`` with the
    direct moves from depth ``d``, whose sources all have larger numbers."""
    if len(place) and (int(np.max(place)) >= 1 << PLACE_BITS
                       or int(np.max(outcome)) >= 1 << PLACE_BITS):
        raise OverflowError("more moves from one state than a move key can order")
    return (src << 2 * PLACE_BITS) | (place << PLACE_BITS) | outcome


def places(src: np.ndarray) -> np.ndarray:
    """Each row's place among the rows of its source (``src`` sorted): 0, 1, ...
    from the first row of each source."""
    at = np.arange(len(src))
    if not len(src):
        return at
    first = np.empty(len(src), dtype=bool)
    first[0] = True
    np.not_equal(src[1:], src[:-1], out=first[1:])
    return at - np.maximum.accumulate(np.where(first, at, 0))


def by_source(mv: Moves) -> Moves:
    """The moves in the search's order: by source state, then as the backend
    lists one state's moves (by action, then parameter).  A batch stored in this
    order numbers its new states by the first move reaching each (the store
    numbers by first row), so a state's number does not depend on how the
    level was cut into chunks or spread over processes."""
    if len(mv) < 2 or bool(np.all(mv.src[1:] >= mv.src[:-1])):
        return mv
    return mv.take(np.argsort(mv.src, kind="stable"))


def _moves(parts, words: int) -> Moves:
    """Concatenate (src, aid, prm, words, bad) parts."""
    if not parts:
        e = np.empty(0, dtype=np.int64)
        return Moves(e, e, e, [e] * words, {})
    src = np.concatenate([p[0] for p in parts])
    aid = np.concatenate([np.full(len(p[0]), p[1], dtype=np.int64) for p in parts])
    prm = np.concatenate([p[2] for p in parts])
    ws = [np.concatenate([p[3][j] for p in parts]) for j in range(words)]
    props = {k for p in parts for k in p[4]}
    bad = {k: np.concatenate([p[4].get(k, np.zeros(len(p[0]), dtype=bool)) for p in parts])
           for k in props}
    return Moves(src, aid, prm, ws, bad)


class _Backend(ABC):
    """What the search needs of a state representation (shared part)."""

    def __init__(self, game: Game, red: Reduction, layout: KeyLayout, symmetry: bool):
        self.game, self.red, self.layout = game, red, layout
        self.pack, self.unpack = layout.compile()
        self.words = layout.words
        self.step_ids = [p.id for p in game.spec.properties
                         if p.kind is Kind.STEP and p.formula is not None]
        self.state_ids = [p.id for p in game.spec.properties
                          if p.kind is Kind.STATE and p.formula is not None]
        self.action_names = [a.name for a in game.spec.actions]
        self.action_index = {a: i for i, a in enumerate(self.action_names)}

    def words_of(self, keys: list) -> list:
        split = self.layout.split
        rows = [split(k) for k in keys]
        return [np.array([r[j] for r in rows], dtype=np.int64) for j in range(self.words)]

    def keys_of(self, words) -> list:
        join = self.layout.join
        return [join(r) for r in zip(*[w.tolist() for w in words])]

    @abstractmethod
    def root(self, legal) -> Moves:
        """The successors of the state before the deal, one per legal action."""


class BatchBackend(_Backend):
    """Successors and checks by the generated numpy code, a batch at a time."""
    name = "batch"

    def __init__(self, game, red, layout, symmetry):
        super().__init__(game, red, layout, symmetry)
        self.mod = BatchModule(game.spec, red, layout, symmetry)
        self.dmask = layout.dispatch_mask
        self.pmask = layout.phase_field.mask
        self.given = {ai for ai in range(len(self.action_names)) if self.mod.given_params(ai)}
        self.given_phase = {}
        for ai in self.given:
            self.given_phase.setdefault(game.spec.actions[ai].phase.value, []).append(ai)
        self.state_bad_fn, self.post_pass_fn = self.mod.state_bad, self.mod.post_pass
        self.hand_range_fn = self.mod.hand_range
        self.symmetric = bool(self.mod.perms)

    def classes(self, words):
        disp = words[0] & self.dmask
        first = int(disp[0])
        if np.all(disp == first):
            return [(first, None)]
        order = np.argsort(disp, kind="stable")
        vals, starts = np.unique(disp[order], return_index=True)
        ends = list(starts[1:]) + [len(order)]
        return [(int(v), order[a:b]) for v, a, b in zip(vals, starts, ends)]

    def successors(self, words) -> Moves:
        parts = []
        for x, rows in self.classes(words):
            sub = words if rows is None else [w[rows] for w in words]
            mine = []
            for ai, ix, p, nw, bads in self.mod.succ(x)(*sub):
                src = ix if rows is None else rows[ix]
                prm = p if p is not None else np.full(len(ix), -1, dtype=np.int64)
                mine.append((src, ai, prm, nw, {k: b for k, b in bads}))
            ph = x & self.pmask
            for ai in self.given_phase.get(ph, ()):
                mine += self.given_moves(ai, x, sub, rows)
            parts += sorted(mine, key=lambda part: part[1])  # by action
        return _moves(parts, self.words)

    def given_moves(self, ai, x, sub, rows) -> list:
        """Moves of an action whose parameters are listed state by state (the
        engine's own enumeration), then applied as a batch."""
        act = self.game.spec.actions[ai]
        enum = self.mod.enum(ai)
        out: list = []
        keys = self.keys_of(sub)
        ixs: list[int] = []
        places: list[int] = []
        params: list[list] = [[] for _ in act.decl.params]
        for r, k in enumerate(keys):
            for place, a in enumerate(enum(self.unpack(k))):
                ixs.append(r)
                places.append(place)
                for j, v in enumerate(a[1]):
                    params[j].append(v)
        if not ixs:
            return out
        ix = np.array(ixs, dtype=np.int64)
        nw, bads = self.mod.apply(ai, x)(*sub, ix, *[np.array(p, dtype=np.int64) for p in params])
        src = ix if rows is None else rows[ix]
        out.append((src, ai, np.array(places, dtype=np.int64), nw, dict(bads)))
        return out

    def legal(self, s) -> list:
        return self.mod.legal(s)

    def _root_parts(self, legal, cover: bool = False):
        s0 = self.game.initial_state()
        w0 = self.words_of([self.pack(s0)])
        x = int(w0[0][0]) & self.dmask
        by_action: dict = {}
        for place, a in enumerate(legal):
            by_action.setdefault(self.action_index[a[0]], []).append((place, a[1]))
        for ai, items in sorted(by_action.items()):
            ix = np.zeros(len(items), dtype=np.int64)
            params = list(zip(*[args for _, args in items])) if items[0][1] else []
            arrays = [np.array(p, dtype=np.int64) for p in params]
            yield ai, items, self.mod.apply(ai, x, cover)(*w0, ix, *arrays)

    def root(self, legal) -> Moves:
        parts: list = []
        for ai, items, (nw, _) in self._root_parts(legal):
            ix = np.zeros(len(items), dtype=np.int64)
            parts.append((ix, ai, np.array([p for p, _ in items], dtype=np.int64), nw, {}))
        return _moves(parts, self.words)

    def cover_root(self, legal, fired: set, unseen: dict):
        for _ai, _, out in self._root_parts(legal, cover=True):
            for name, ids, where in out:
                n = int(where.sum()) if where.dtype == bool else len(where)
                if n:
                    new = unseen[name] & set(ids)
                    unseen[name] -= new
                    fired |= new

    def state_bad(self, words) -> list:
        return self.state_bad_fn(*words)

    def post_pass(self, words) -> np.ndarray:
        return self.post_pass_fn(*words)

    def hand_range(self, words):
        return self.hand_range_fn(*words)

    def phase(self, words) -> np.ndarray:
        return words[0] & self.pmask

    def chance(self, words) -> np.ndarray:
        return self.mod.chance[self.phase(words)]

    def terminal(self, words) -> np.ndarray:
        return self.mod.terminal[self.phase(words)]

    def canon(self, words) -> list:
        return list(self.mod.canon(words)) if self.symmetric else words

    def orbit(self, words) -> np.ndarray:
        return self.mod.orbit(words)

    def cover(self, words, fired: set, quiet: dict, unseen: dict) -> None:
        """Rule coverage of every move of the batch (``fired_<a>`` in arrays)."""
        for x, rows in self.classes(words):
            ph = x & self.pmask
            names = [a for a in unseen if self.game.spec.action(a).phase.value == ph]
            if not any(unseen[a] and quiet[a] < COVERAGE_PATIENCE for a in names):
                continue
            sub = words if rows is None else [w[rows] for w in words]
            per: dict = {}   # action -> the rules some move of it took part in
            moves: dict = {}  # action -> its moves in the batch
            for name, ids, where in self.mod.cover(x)(*sub):
                n = int(where.sum()) if where.dtype == bool else len(where)
                if where.dtype != bool:
                    moves[name] = max(moves.get(name, 0), n)
                if n:
                    per.setdefault(name, set()).update(ids)
            for a in names:
                new = unseen[a] & per.get(a, set())
                if new:
                    unseen[a] -= new
                    fired |= new
                    quiet[a] = 0
                else:
                    quiet[a] += moves.get(a, 0)


class GenericBackend(_Backend):
    """Successors and checks by the generic engine, one state at a time (for
    decks too large for the batch code, and to test it against)."""
    name = "generic"

    def __init__(self, game, red, layout, symmetry):
        super().__init__(game, red, layout, symmetry)
        self.key_of, n = layout.key_function(symmetry)
        self.symmetric = n > 1
        self.perms = layout.renamings(symmetry)
        self.post_pass_s, self.hand_range_s = compile_observations(game.spec)
        self.pmask = layout.phase_field.mask
        phases = game.spec.phases
        top = max(p.value for p in phases) + 1
        self.chance_t = np.array([any(p.value == v and p.actor is None and not p.terminal
                                      for p in phases) for v in range(top)], dtype=bool)
        self.terminal_t = np.array([any(p.value == v and p.terminal for p in phases)
                                    for v in range(top)], dtype=bool)

    def successors(self, words) -> Moves:
        game = self.game
        legal, apply, pack = game.impl.legal, game._apply, self.pack
        src, aid, prm, keys = [], [], [], []
        bad: dict[int, list] = {n: [] for n in range(len(self.step_ids))}
        checks = [getattr(game.impl, f"prop_{p}") for p in self.step_ids]
        for r, k in enumerate(self.keys_of(words)):
            s = self.unpack(k)
            places: dict = {}  # action -> its moves so far (listed parameters' place)
            for a in legal(s):
                s2 = apply[a[0]](s, a[1])
                src.append(r)
                ai = self.action_index[a[0]]
                aid.append(ai)
                ps = game.spec.actions[ai].decl.params
                place = places[ai] = places.get(ai, -1) + 1
                prm.append(a[1][0] if len(ps) == 1 and ps[0].size is None else
                           (-1 if not ps else place))
                keys.append(pack(s2))
                for n, f in enumerate(checks):
                    bad[n].append(not f(s, s2))
        arr = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
        ws = self.words_of(keys) if keys else [arr([])] * self.words
        b = {n: np.array(v, dtype=bool) for n, v in bad.items() if any(v)}
        mv = Moves(arr(src), arr(aid), arr(prm), ws, b)
        # the batch code's order: by dispatch class, action, state, parameter
        disp = words[0][mv.src] & self.layout.dispatch_mask if len(mv) else mv.src
        return mv.take(np.lexsort((mv.prm, mv.src, mv.aid, disp)))

    def legal(self, s) -> list:
        return self.game.impl.legal(s)

    def cover_root(self, legal, fired: set, unseen: dict):
        game = self.game
        s0 = game.initial_state()
        for a in legal:
            if unseen[a[0]]:
                for r in game.fired(s0, a, game._apply[a[0]](s0, a[1])):
                    if r in unseen[a[0]]:
                        unseen[a[0]].discard(r)
                        fired.add(r)

    def root(self, legal) -> Moves:
        s0 = self.game.initial_state()
        keys = [self.pack(self.game._apply[a[0]](s0, a[1])) for a in legal]
        n = len(keys)
        arr = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
        return Moves(arr([0] * n), arr([self.action_index[a[0]] for a in legal]),
                     arr(list(range(n))), self.words_of(keys) if keys else [arr([])] * self.words,
                     {})

    def state_bad(self, words) -> list:
        game = self.game
        out = []
        states = [self.unpack(k) for k in self.keys_of(words)]
        for n, pid in enumerate(self.state_ids):
            f = getattr(game.impl, f"prop_{pid}")
            out.append((n, np.array([not f(s) for s in states], dtype=bool)))
        return out

    def post_pass(self, words) -> np.ndarray:
        return np.array([bool(self.post_pass_s(self.unpack(k))) for k in self.keys_of(words)],
                        dtype=bool)

    def hand_range(self, words):
        lo, hi = 999, -1
        for k, t in zip(self.keys_of(words), self.terminal(words).tolist()):
            if t:
                continue
            a, b = self.hand_range_s(self.unpack(k))
            lo, hi = min(lo, a), max(hi, b)
        return lo, hi

    def phase(self, words) -> np.ndarray:
        return words[0] & self.pmask

    def chance(self, words) -> np.ndarray:
        return self.chance_t[self.phase(words)]

    def terminal(self, words) -> np.ndarray:
        return self.terminal_t[self.phase(words)]

    def canon(self, words) -> list:
        if not self.symmetric:
            return words
        lay = self.layout
        keys = [min([k] + [lay.renamed(k, p) for p in self.perms]) for k in self.keys_of(words)]
        return self.words_of(keys) if keys else words

    def orbit(self, words) -> np.ndarray:
        lay = self.layout
        return np.array([len({k} | {lay.renamed(k, p) for p in self.perms})
                         for k in self.keys_of(words)], dtype=np.int64)

    def cover(self, words, fired, quiet, unseen) -> None:
        game = self.game
        for k in self.keys_of(words):
            s = self.unpack(k)
            for a in game.impl.legal(s):
                name = a[0]
                if not unseen[name] or quiet[name] >= COVERAGE_PATIENCE:
                    continue
                quiet[name] += 1
                for r in game.fired(s, a, game._apply[name](s, a[1])):
                    if r in unseen[name]:
                        unseen[name].discard(r)
                        fired.add(r)
                        quiet[name] = 0


# -- the search --------------------------------------------------------------------------

def search_setup(game: Game, symmetry: bool, reduce: bool = True):
    """(reduction, layout, key_of, permutations) of a search of ``game``."""
    return search_keys(game, symmetry, reduce)


@dataclass
class CompiledSuccessors:
    """A game's successor code, compiled once and kept with the game
    (``Game.derived``)."""
    #: (symmetry, reduce) -> the batch backend of a search
    batch: dict[tuple[bool, bool], BatchBackend] = field(default_factory=dict)
    #: (with_actions, store, symmetric) -> the packed successor module
    packed: dict[tuple[bool, bool, bool], types.ModuleType] = field(default_factory=dict)


def search_backend(game: Game, red: Reduction, layout: KeyLayout, symmetry: bool,
                   reduce: bool = True, fast: bool = True) -> BatchBackend | GenericBackend:
    """The successor backend of a search: the batch code (compiled once per game,
    symmetry and reduction), or the generic engine path where that does not
    apply (or ``fast`` is off)."""
    if fast and game.backend == "generated":
        cache = game.derived.record(CompiledSuccessors).batch
        try:
            if (symmetry, reduce) not in cache:
                cache[symmetry, reduce] = BatchBackend(game, red, layout, symmetry)
            return cache[symmetry, reduce]
        except Unsupported:
            pass
    return GenericBackend(game, red, layout, symmetry)


def explore(game: Game, limits: Limits | None = None, resume: Resume | None = None,
            **options) -> Exploration:
    """Breadth-first search of every round reachable from every deal, within
    ``limits``, as ``options`` say (a ``SearchPlan``'s fields).

    The batch successor code (``model/search/vectorized.py``) and the generic
    engine path (``fast=False``: unpack, ``legal``, ``apply``, pack, one state
    at a time) store the same states under the same numbers; the generic path
    is kept to test the batch one against, and for decks the batch code does
    not handle.  ``resume`` goes on from a level a search reached before (its
    ``Level`` and arrays: a checkpoint)."""
    return run_search(game, limits or Limits(), SearchPlan(**options), resume)


def run_search(game: Game, limits: Limits, plan: SearchPlan,
               resume: Resume | None = None) -> Exploration:
    """``explore`` with its plan made."""
    red, layout, key_of, nperms = search_setup(game, plan.symmetry, plan.reduce)
    ex = Exploration(game, plan.symmetry, permutations=nperms, reduction=red, layout=layout,
                     store=StateStore(layout.words))
    backend = search_backend(game, red, layout, plan.symmetry, plan.reduce, plan.fast)
    ex.backend = backend.name
    start = time.monotonic()
    search = Search(ex, game, limits, backend, plan, start)
    if resume is not None:
        search.restore(resume)
    # the search creates no reference cycles, and the cyclic collector would
    # only walk its growing tables again and again: off while it runs
    collecting = gc.isenabled()
    gc.disable()
    try:
        search.run(resumed=resume is not None)
    except Pause:
        ex.limit = "paused"
    except KeyboardInterrupt:
        ex.interrupted = True
        ex.limit = plan.interrupted()
        search.rollback()
    finally:
        if collecting:
            gc.enable()
    search.finish()
    ex.seconds = time.monotonic() - start
    ex.unpack, ex.key_of = layout.compile()[1], key_of
    return ex


class Search:
    """The state of one breadth-first search of ``game`` into ``ex`` (started at
    the monotonic time ``start``)."""

    def __init__(self, ex: Exploration, game: Game, limits: Limits, backend, plan: SearchPlan,
                 start: float = 0.0):
        self.ex, self.game, self.limits, self.b = ex, game, limits, backend
        self.progress, self.track_rules = plan.progress, plan.track_rules
        assert ex.store is not None   # explore() made it
        self.store = ex.store
        self.start = start
        self.deadline: float | None = None
        self.bounds = [999, -1]
        self.waiting: dict = {}   # level -> [(words, source numbers, post-Pass flags)]
        self.committed = (0, 0, 0, 0)
        spec = game.spec
        self.unseen_rules = rules_to_cover(spec)
        self.quiet = {a.name: 0 for a in spec.actions}
        self.taken: set = set()
        self.folding = plan.fold
        #: compute each move's key (a partitioned search orders its batches by it)
        self.keyed = False
        #: where the search stands at the top of the current level
        self.level: Level | None = None
        self.on_level = plan.on_level

    def coverage_sampled(self) -> bool:
        """Rule coverage stopped being tracked for an action with rules still unseen."""
        return any(q >= COVERAGE_PATIENCE and self.unseen_rules[a] for a, q in self.quiet.items())

    # -- levels ------------------------------------------------------------------------
    def mark(self, d: int) -> Level:
        """The search as it stands at the top of level ``d`` (cheap: counts and
        copies of small sets; the arrays are cut at ``states`` when needed)."""
        ex = self.ex
        return Level(d, ex.states, len(ex._edge_src), len(ex.deadlocks), len(ex.deal_action),
                     dict(ex.violations), list(self.waiting.get(d + 1, [])), ex.transitions,
                     ex.terminal, ex.initial, tuple(self.bounds), ex.unreduced_states,
                     ex._waiting_peak, set(ex.fired),
                     {a: set(r) for a, r in self.unseen_rules.items()}, dict(self.quiet),
                     set(self.taken))

    def restore(self, r: Resume) -> None:
        """Go on from a level reached before: its arrays and counts."""
        ex, lv = self.ex, r.level
        r.restore(ex, self.store)
        self.waiting = {lv.depth + 1: list(lv.waiting)} if lv.waiting else {}
        ex.transitions, ex.terminal, ex.initial = lv.transitions, lv.terminal, lv.initial
        self.bounds = list(lv.hands)
        ex.unreduced_states, ex._waiting_peak = lv.unreduced, lv.waiting_peak
        ex.fired = set(lv.fired)
        self.unseen_rules = {a: set(v) for a, v in lv.unseen.items()}
        self.quiet, self.taken = dict(lv.quiet), set(lv.taken)
        ex.depth = lv.depth
        self.level = lv

    # -- limits and interruptions -------------------------------------------------------
    def poll(self) -> bool:
        """Between batches: True when a limit stops the search (``ex.limit`` says which)."""
        return limit_reached(self.ex, self.limits, self.deadline)

    def commit(self):
        """A consistent point to come back to if the search is interrupted."""
        ex = self.ex
        self.committed = (self.store.n, len(ex._edge_src), len(ex.deadlocks), len(ex.deal_action))

    def rollback(self):
        """After Ctrl-C: forget what the batch in progress stored."""
        ex = self.ex
        n, edges, dead, deals = self.committed
        self.store.rollback(n)
        del ex.parent[n:], ex._edge_src[edges:], ex._edge_dst[edges:]
        del ex.deadlocks[dead:], ex.deal_action[deals:]
        ex.depth_of.truncate(n)
        ex.violations = {p: w for p, w in ex.violations.items() if w[1] < n}

    # -- storing -----------------------------------------------------------------------
    def store_batch(self, words, src, pp, depth: int, deal=None, keys=None):
        """Store a batch of successors found at ``depth`` from the states ``src``;
        check the new ones, record the post-Pass edges (``pp``)."""
        ex, b = self.ex, self.b
        nums, new = self.store.insert(words)
        k = int(new.sum())
        if k:
            rows = np.flatnonzero(new)
            rows = rows[np.argsort(nums[rows], kind="stable")]  # in the order numbered
            ex.parent.extend(src[rows])
            ex.depth_of.add(depth, k)
            if deal is not None:
                ex.deal_action.extend(deal[rows])
            nw = [w[rows] for w in words]
            fresh = nums[rows]
            for p, bad in b.state_bad(nw):
                pid = b.state_ids[p]
                if pid not in ex.violations and bad.any():
                    ex.violations[pid] = ("state", int(fresh[bad].min()))
            lo, hi = b.hand_range(nw)
            if hi >= 0:
                self.bounds[0] = min(self.bounds[0], lo)
                self.bounds[1] = max(self.bounds[1], hi)
            if b.symmetric:
                ex.unreduced_states += int(b.orbit(nw).sum())
        elif depth > ex.depth_of.deepest() and ex.depth_of.n:
            ex.depth_of.add(depth, 0)
        if pp is not None:
            sel = np.flatnonzero(pp)
            if len(sel):
                ex._edge_src.extend(src[sel])
                ex._edge_dst.extend(nums[sel])

    # -- the levels ----------------------------------------------------------------------
    def run(self, resumed: bool = False):
        ex, game, b = self.ex, self.game, self.b
        limits = self.limits
        self.deadline = None if limits.timeout is None else self.start + limits.timeout
        if resumed:
            assert self.level is not None
            d = self.level.depth
            lo, hi = ex.depth_of.starts[d], ex.states
        else:
            s0 = game.initial_state()
            legal = b.legal(s0)
            if self.track_rules:
                b.cover_root(legal, ex.fired, self.unseen_rules)
            mv = b.root(legal)
            words = b.canon(mv.words)
            self.store_batch(words, np.full(len(mv), -1, dtype=np.int64), None, 0, deal=mv.prm)
            ex.transitions = 0
            ex.initial = ex.states
            lo, hi, d = 0, ex.states, 0
        self.commit()
        while lo < hi or any(self.waiting.values()):
            level = self.level = ex.level = self.mark(d)
            if self.on_level is not None:
                self.on_level(ex, lambda: level)
            if limits.max_depth is not None and d >= limits.max_depth:
                ex.limit = f"--depth {limits.max_depth}"
                return
            for words, src, pp in self.waiting.pop(d + 1, []):
                self.store_batch(words, src, pp, d + 1)
            self.commit()
            for c_lo in range(lo, hi, CHUNK_STATES):
                self.expand(c_lo, min(hi, c_lo + CHUNK_STATES), d)
                self.commit()
                if self.poll():
                    return
            if self.progress is not None:
                self.progress(ex.states, d + 1, time.monotonic() - self.start)
            if self.poll():
                return
            lo, hi = hi, ex.states
            d += 1
            ex.depth = d
        ex.complete = True

    def expand(self, lo: int, hi: int, d: int):
        """Expand the states ``lo`` .. ``hi - 1`` (all at depth ``d``)."""
        rows = self.store.rows(lo, hi)
        words = [np.ascontiguousarray(rows[:, j]) for j in range(self.store.words)]
        self.expand_rows(words, np.arange(lo, hi, dtype=np.int64), d)

    def expand_rows(self, words, nums, d: int):
        """Expand the states ``words`` (numbered ``nums``, in increasing order, all
        at depth ``d``): their moves stored at ``d + 1`` (``store_batch``), the
        outcomes of the chance nodes folded into them kept for ``d + 2``
        (``defer``), each in the search's order (by source, then move)."""
        ex, b = self.ex, self.b
        n = len(nums)
        term = b.terminal(words)
        ex.terminal += int(term.sum())
        if self.track_rules:
            self.cover(words)
        mv = by_source(b.successors(words))
        counts = np.bincount(mv.src, minlength=n) if len(mv) else np.zeros(n, int)
        stuck = (counts == 0) & ~term
        if stuck.any():
            ex.deadlocks.extend(nums[stuck].tolist())
        self.step_violations(mv, nums)
        if not len(mv):
            return
        # a move's place among its source's moves: with the source's number, the
        # move's identity in the search's order (a partitioned search sorts by it)
        place = places(mv.src) if self.keyed else None
        pp_src = b.post_pass(words)
        chance = b.chance(mv.words) if self.folding else np.zeros(len(mv), dtype=bool)
        keep = ~chance
        if chance.any():
            ci = np.flatnonzero(chance)
            m = mv.take(ci)
            out, foldable = self.fold(m)
            keep[ci[~foldable]] = True
            if len(out):
                out = out.take(np.flatnonzero(foldable[out.src]))
                o_src = m.src[out.src]
                pp2 = pp_src[o_src] & b.post_pass(m.words)[out.src] & b.post_pass(out.words)
                ex.transitions += len(out)
                keys = None
                if place is not None:
                    # the outcome's place among its chance node's outcomes, after
                    # every direct move of the source (1 + ...)
                    opened = place[ci][out.src]
                    o_place = places(out.src)
                    keys = move_keys(nums[o_src], opened, 1 + o_place)
                self.defer(d + 2, b.canon(out.words), nums[o_src], pp2, keys)
        sel = np.flatnonzero(keep)
        w1 = mv.take(sel) if len(sel) < len(mv) else mv
        ex.transitions += len(w1)
        pp = pp_src[w1.src] & b.post_pass(w1.words)
        keys = None if place is None else move_keys(nums[w1.src], place[sel], 0)
        self.store_batch(b.canon(w1.words), nums[w1.src], pp, d + 1, keys=keys)

    def defer(self, depth: int, words, src, pp, keys=None):
        """Keep a batch of folded outcomes for level ``depth``."""
        ex = self.ex
        self.waiting.setdefault(depth, []).append((words, src, pp))
        size = sum(sum(w.nbytes for w in x[0]) + x[1].nbytes + x[2].nbytes
                   for x in self.waiting[depth])
        ex._waiting_peak = max(ex._waiting_peak, size)

    def fold(self, m: Moves):
        """The outcomes of the chance nodes ``m`` (rows of the outcome moves'
        ``src``), and which nodes fold into the moves that open them."""
        b = self.b
        if self.track_rules:
            self.cover(m.words)
        foldable = np.ones(len(m), dtype=bool)
        for _, bad in b.state_bad(m.words):
            foldable &= ~bad
        out = by_source(b.successors(m.words))
        counts = np.bincount(out.src, minlength=len(m)) if len(out) else np.zeros(len(m), int)
        foldable &= counts > 0
        for _, bad in out.bad.items():
            if bad.any():
                foldable[out.src[bad]] = False
        return out, foldable

    def step_violations(self, mv: Moves, nums):
        ex, b = self.ex, self.b
        for p, bad in mv.bad.items():
            pid = b.step_ids[p]
            if pid in ex.violations or not bad.any():
                continue
            r = int(np.argmax(bad))
            name = b.action_names[int(mv.aid[r])]
            prm = int(mv.prm[r])
            act = self.game.spec.action(name)
            args = (prm,) if len(act.decl.params) == 1 and act.decl.params[0].size is None else ()
            ex.violations[pid] = ("step", int(nums[mv.src[r]]), (name, args))

    # -- rule coverage -------------------------------------------------------------------
    def cover(self, words):
        unseen, quiet = self.unseen_rules, self.quiet
        if not any(unseen[a] and quiet[a] < COVERAGE_PATIENCE for a in unseen):
            return
        for ph in set(self.b.phase(words).tolist()):
            for a in self.game.spec.actions:
                if a.phase.value == ph and a.name not in self.taken:
                    self.taken.add(a.name)
                    self.ex.fired |= a.cond_defs
        self.b.cover(words, self.ex.fired, quiet, unseen)

    def finish(self):
        ex, game = self.ex, self.game
        ex.complete = ex.complete and ex.limit is None
        if not self.b.symmetric:
            ex.unreduced_states = ex.states
        if self.bounds[1] >= 0:
            ex.hand_min, ex.hand_max = self.bounds
        ex.coverage_sampled = self.coverage_sampled()
        if ex.terminal and self.track_rules:
            ex.fired |= fired_at_round_end(game)
        ex.depth = max(ex.depth, ex.depth_of.deepest())


@dataclass
class Resume:
    """A level reached before and the arrays up to it: what a search needs to go
    on (from a checkpoint, or handed from one process to several)."""
    level: Level
    keys: np.ndarray          # (states, words) int64, in state-number order
    parent: np.ndarray
    depth_starts: np.ndarray  # the first state number of each depth 0 .. level.depth
    edge_src: np.ndarray
    edge_dst: np.ndarray
    deadlocks: np.ndarray
    deals: np.ndarray


    def restore(self, ex: Exploration, store: StateStore) -> None:
        """Put the arrays and the first violations into an empty search's
        ``ex`` and ``store``."""
        store.extend(self.keys)
        ex.parent.extend(self.parent)
        ex.depth_of = Depths()
        ex.depth_of.starts.extend(int(x) for x in self.depth_starts)
        ex.depth_of.n = store.n
        ex._edge_src.extend(self.edge_src)
        ex._edge_dst.extend(self.edge_dst)
        ex.deadlocks.extend(int(x) for x in self.deadlocks)
        ex.deal_action.extend(self.deals)
        ex.violations = dict(self.level.violations)


def limit_reached(ex: Exploration, limits: Limits, deadline: float | None) -> bool:
    """True when ``--max-states`` or the time limit stops a search now (``ex.limit``
    then says which)."""
    if limits.max_states is not None and ex.states >= limits.max_states:
        ex.limit = f"--max-states {limits.max_states}"
        return True
    if deadline is not None and time.monotonic() > deadline:
        ex.limit = limits.timeout_text()
        return True
    return False


def resume_point(ex: Exploration, level: Level | None = None) -> Resume:
    """The arrays of ``ex`` cut at ``level`` (by default the top of the last level
    it reached: a paused or interrupted search goes on from there)."""
    level = level or ex.level
    assert level is not None, "the search never reached a level"
    n = level.states
    store = ex.store
    assert store is not None
    starts = np.frombuffer(ex.depth_of.starts, dtype=np.int32)[:level.depth + 1].copy()
    return Resume(level, store.keys[:n].copy(), ex.parent.view()[:n].copy(),
                  starts, ex._edge_src.view()[:level.edges].copy(),
                  ex._edge_dst.view()[:level.edges].copy(),
                  np.array(ex.deadlocks[:level.deadlocks], dtype=np.int64),
                  ex.deal_action.view()[:level.deals].copy())


def rules_to_cover(spec) -> dict[str, set]:
    """Per action, the rules and definitions a move of it can exercise (what rule
    coverage looks for)."""
    return {a.name: set(r for r, _ in a.guards)
            | {r for ups in a.updates.values() for r, *_ in ups}
            | set(a.used_defs) | {d for ds in a.update_defs.values() for d in ds}
            for a in spec.actions}


def fired_at_round_end(game: Game) -> set:
    """The rules that act when a round has ended (scoring, through ``scores()``)."""
    inline = game.spec.inliner()
    inline(score_of(0))
    return set(inline.used)


# -- reading the results -----------------------------------------------------------------

def state(ex: Exploration, i: int):
    """The stored state number ``i``: its key's state, with every variable the
    search forgot at its canonical value (a representative of the position)."""
    return ex.unpack(ex.keys[i])


def path_to(ex: Exploration, i: int) -> list[int]:
    out = []
    while i >= 0:
        out.append(i)
        i = ex.parent[i]
    return out[::-1]


def stored_successors(ex: Exploration, s):
    """((action, ...), state, number) for each stored state one search edge from
    the concrete state ``s``: a move to a stored state, or a move to a chance
    node the search folded followed by one of its outcomes."""
    game, key_of = ex.game, ex.key_of
    chance = {p.value for p in game.spec.phases if p.actor is None and not p.terminal}
    for a, s2 in game.successors(s):
        j = ex.number_of(key_of(s2))
        if j is not None:
            yield (a,), s2, j
        elif s2[0] in chance:
            for b, s3 in game.successors(s2):
                k = ex.number_of(key_of(s3))
                if k is not None:
                    yield (a, b), (s2, s3), k


def number_of(ex: Exploration, s) -> int | None:
    """The number of the stored position the engine state ``s`` stands for (with
    the forgotten variables reset and, under symmetry reduction, its canonical
    form), or None if the search did not store it (a folded chance node, or a
    state beyond a limit)."""
    return ex.number_of(ex.key_of(s))


def edges(ex: Exploration) -> list[tuple[int, int]]:
    """Every search edge among the stored states, as (source, target) numbers
    (each state's successors computed again: for small explorations, such as a
    picture of the graph)."""
    game = ex.game
    out: list[tuple[int, int]] = []
    for i in range(ex.states):
        s = state(ex, i)
        if game.is_terminal(s):
            continue
        out.extend((i, j) for _, _, j in stored_successors(ex, s))
    return out


def concrete_trace(ex: Exploration, numbers: list[int]):
    """A real sequence of (state, action) steps through the given state numbers.

    The stored states are keys with forgotten variables at canonical values
    (and, with symmetry reduction, canonical representatives); the trace
    starts from a real deal and follows actual successors whose keys match,
    through a chance node where the search folded one, so every step is a
    legal move of the game.
    """
    game = ex.game
    first = numbers[0]
    if ex.depth_of[first] == 0 and first < len(ex.deal_action):
        s0 = game.initial_state()
        a = game.legal_actions(s0)[ex.deal_action[first]]
        s = game.apply(s0, a, validate=False)
    else:  # pragma: no cover - traces start at a deal
        s = state(ex, first)
    steps = []
    key_of = ex.key_of
    chance = {p.value for p in game.spec.phases if p.actor is None and not p.terminal}
    for j in numbers[1:]:
        target = ex.keys[j]
        succ = list(game.successors(s))
        hit = next(((a, s2) for a, s2 in succ if key_of(s2) == target), None)
        if hit is not None:
            steps.append((s, hit[0]))
            s = hit[1]
            continue
        for a, s2 in succ:
            if s2[0] not in chance:
                continue
            two = next(((b, s3) for b, s3 in game.successors(s2) if key_of(s3) == target), None)
            if two is not None:
                steps += [(s, a), (s2, two[0])]
                s = two[1]
                break
        else:  # pragma: no cover - the graph was built from these successors
            raise AssertionError("trace reconstruction failed")
    return steps, s


def packed_successors(game: Game, with_actions: bool = False, store: bool = False,
                      symmetric: bool = False):
    """The packed successor module of ``game`` (compiled once per game and mode;
    ``model/search/packed.py``, one state at a time: ``itcp-check rules
    --dump-successors`` and the tests read it)."""
    cache = game.derived.record(CompiledSuccessors).packed
    mode = (with_actions, store, symmetric)
    if mode not in cache:
        cache[mode] = compile_packed(game.spec, with_actions, store, symmetric)
    return cache[mode]
