"""Explicit-state exploration: breadth-first over every reachable state.

From every deal (each an initial state), the explorer visits the round's
states breadth-first, storing each once as a packed integer (optionally the
canonical form under suit and copy symmetry) with a parent link, so the first
time a property fails the path back is a shortest counterexample.  State and
step properties are checked on the fly; live states without a legal move are
deadlocks; edges among post-Pass states are kept so ``ROUND_ENDS`` can be
decided on the graph afterwards.  Limits (states, depth, time) stop the search
and are recorded: whatever was not exhausted can never be reported as HOLDS.
"""
from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field

from itcp.model.engine import Game
from itcp.model.packing import compile_packer
from itcp.model.symmetry import canonicalizer, orbit_size


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
    depth_of: array = field(default_factory=lambda: array("H"))
    transitions: int = 0
    terminal: int = 0
    initial: int = 0
    deadlocks: list = field(default_factory=list)   # state numbers
    violations: dict = field(default_factory=dict)  # property id -> first witness
    post_pass_edges: list = field(default_factory=list)
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

    @property
    def states(self) -> int:
        return len(self.keys)

    def bytes_per_state(self) -> float:
        import sys
        if not self.keys:
            return 0.0
        sample = self.keys[:: max(1, len(self.keys) // 1000)]
        ints = sum(sys.getsizeof(k) for k in sample) / len(sample)
        # the visited dict (key -> number), the key list, parent and depth arrays
        dict_entry = sys.getsizeof(self._index) / max(1, len(self._index)) if self._index else 0
        return ints + dict_entry + 8 + self.parent.itemsize + self.depth_of.itemsize

    _index: dict = field(default_factory=dict, repr=False)


def explore(game: Game, limits: Limits | None = None, symmetry: bool = True,
            progress=None, track_rules: bool = True) -> Exploration:
    """Breadth-first search of every round reachable from every deal."""
    limits = limits or Limits()
    pack, unpack = compile_packer(game.spec)
    key_of, nperms = canonicalizer(game.spec, pack, symmetry)
    ex = Exploration(game, symmetry, permutations=nperms)
    symmetric = nperms > 1
    index = ex._index
    keys, parent, depth_of = ex.keys, ex.parent, ex.depth_of
    state_props = [p.id for p in game.spec.properties if p.kind == "state" and p.formula is not None]
    step_props = [p.id for p in game.spec.properties if p.kind == "step" and p.formula is not None]
    check = {p: getattr(game.impl, f"prop_{p}") for p in state_props + step_props}
    fired_fns = {a: getattr(game.impl, f"fired_{a}", None) for a in game.actions}
    unseen_rules = {a.name: set(r for r, _ in a.guards) | {r for ups in a.updates.values()
                                                           for r, *_ in ups} | set(a.used_defs)
                    | {d for ds in a.update_defs.values() for d in ds}
                    for a in game.spec.actions}
    taken: set = set()
    quiet = {a: 0 for a in game.actions}  # transitions since the action's last new rule
    legal, apply = game.impl.legal, game._apply
    terminal_fn = game.is_terminal
    hands_i, fp_i, aside_i, hand_of_i = (game.index[v] for v in
                                         ("hands", "first_passer", "aside", "hand_of"))
    from itcp.spec.rules.table import OVER
    phase_i = game.index["phase"]
    start = time.monotonic()
    deadline = None if limits.timeout is None else start + limits.timeout
    max_states = limits.max_states

    def visit(state, par, d):
        k = key_of(state)
        if k in index:
            return index[k], False
        i = len(keys)
        index[k] = i
        keys.append(k)
        parent.append(par)
        depth_of.append(d)
        return i, True

    state_ok, hand_range = game.impl.state_ok, game.impl.hand_range
    bounds = [999, -1]

    def on_new_state(i, s):
        if symmetric:
            ex.unreduced_states += orbit_size(key_of, s)
        if not state_ok(s):
            for p in state_props:
                if p not in ex.violations and not check[p](s):
                    ex.violations[p] = ("state", i)
        if s[phase_i] != OVER:
            lo, hi = hand_range(s)
            if lo < bounds[0]:
                bounds[0] = lo
            if hi > bounds[1]:
                bounds[1] = hi

    frontier = []
    s0 = game.initial_state()
    try:
        for a in legal(s0):
            s = apply[a[0]](s0, a[1])
            if track_rules and unseen_rules[a[0]]:
                for r in fired_fns[a[0]](s0, a[1], s):
                    if r in unseen_rules[a[0]]:
                        unseen_rules[a[0]].discard(r)
                        ex.fired.add(r)
            i, new = visit(s, -1, 0)
            if new:
                frontier.append(i)
                on_new_state(i, s)
        ex.initial = len(keys)
        d = 0
        while frontier:
            if limits.max_depth is not None and d >= limits.max_depth:
                ex.limit = f"--depth {limits.max_depth}"
                break
            nxt = []
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
                    for p in step_props:
                        if p not in ex.violations and not check[p](s, s2):
                            ex.violations[p] = ("step", i, a)
                    if track_rules and a[0] not in taken:
                        taken.add(a[0])  # its conditions were consulted
                        ex.fired |= game.actions[a[0]].cond_defs
                    if track_rules and unseen_rules[a[0]] and quiet[a[0]] < COVERAGE_PATIENCE:
                        quiet[a[0]] += 1
                        for r in fired_fns[a[0]](s, a[1], s2):
                            if r in unseen_rules[a[0]]:
                                unseen_rules[a[0]].discard(r)
                                ex.fired.add(r)
                                quiet[a[0]] = 0
                    j, new = visit(s2, i, d + 1)
                    if new:
                        nxt.append(j)
                        on_new_state(j, s2)
                    if post_pass and s2[fp_i] >= 0:
                        ex.post_pass_edges.append((i, j))
                if max_states is not None and len(keys) >= max_states:
                    break
                if deadline is not None and ex.transitions % 64 == 0 and time.monotonic() > deadline:
                    break
            if progress is not None:
                progress(len(keys), d + 1, time.monotonic() - start)
            if max_states is not None and len(keys) >= max_states:
                ex.limit = f"--max-states {max_states}"
                break
            if deadline is not None and time.monotonic() > deadline:
                ex.limit = f"--timeout {limits.timeout:g}"
                break
            frontier = nxt
            d += 1
            ex.depth = d
        else:
            ex.complete = True
        if not frontier:
            ex.complete = ex.limit is None
    except KeyboardInterrupt:
        ex.interrupted = True
        ex.limit = "interrupted (Ctrl-C)"
    ex.complete = ex.complete and ex.limit is None
    if not symmetric:
        ex.unreduced_states = len(keys)
    if bounds[1] >= 0:
        ex.hand_min, ex.hand_max = bounds
    ex.coverage_sampled = any(q >= COVERAGE_PATIENCE and unseen_rules[a]
                              for a, q in quiet.items())
    if ex.terminal and track_rules:
        # scoring rules act at the end of a round, through scores()
        from itcp.spec import ast as A
        from itcp.spec.lang import Inliner
        inline = Inliner(game.spec.definitions)
        inline(A.Call("score", (A.Var("hands", "map[cards]"), A.Var("hand_of", "map[player]"),
                                A.Var("passers", A.PLAYERS), A.Const(0, A.PLAYER)), A.INT))
        ex.fired |= inline.used
    ex.depth = max(ex.depth, max(depth_of) if len(depth_of) else 0)
    ex.seconds = time.monotonic() - start
    ex._unpack, ex._key_of = unpack, key_of
    return ex


def state(ex: Exploration, i: int):
    """The stored (canonical) state number ``i``."""
    return ex._unpack(ex.keys[i])


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
