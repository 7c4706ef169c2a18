"""From an exploration to a verdict per property.

HOLDS only when the search was exhausted (every state reachable from every
deal at this table was visited); VIOLATED with the shortest trace the
breadth-first search found; UNKNOWN, naming the limit, otherwise.  Every
verdict states its scope: the table and the number of states explored.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from itcp.scenarios.story import Trace, story
from itcp.spec.properties import Kind, Property, Violation

from ..results import Bounded, Exhaustive, Found, PropertyResult, Shortest, Verdict
from .explore import Exploration, concrete_trace, path_to

ENGINE = "explicit"


def scope(ex: Exploration) -> str:
    return (f"every deal and every play at this table ({ex.game.config.describe()}): "
            f"{ex.states:,} states, depth {ex.depth}")


def _exhaustive(ex: Exploration, **extra) -> Exhaustive:
    return Exhaustive(ex.states, ex.transitions, ex.depth, ex.symmetry, scope(ex), **extra)


def _unknown(ex: Exploration, **extra) -> Bounded:
    assert ex.limit is not None   # a search not exhausted says what stopped it
    return Bounded(ex.limit, ex.states, ex.depth,
                   f"search stopped by {ex.limit}: no violation within what was explored",
                   **extra)


def _result(prop: Property, verdict: Verdict, evidence) -> PropertyResult:
    return PropertyResult(prop.id, verdict, ENGINE, prop.statement, evidence)


def _trace(ex: Exploration, numbers, ending, loop_from: int | None = None,
           final_action=None) -> Trace:
    """The concrete trace through the stored states ``numbers`` (then
    ``final_action``, a violating step, if given), told; ``ending`` is text or a
    function of the trace's last (concrete) state."""
    game = ex.game
    steps, last = concrete_trace(ex, numbers)
    if callable(ending):
        ending = ending(last)
    states = [s for s, _ in steps] + [last]
    actions = [a for _, a in steps]
    if final_action is not None:
        states.append(game.apply(last, final_action))
        actions.append(final_action)
    return story(game, states, actions, ending, loop_from)


def verdicts(ex: Exploration, wanted: list[str] | None = None, stopped=None
             ) -> list[PropertyResult]:
    """A result per property (those ``wanted``, else all), each decided by the
    decider of its kind (``DECIDERS``).

    The analysis after the search (each trace told as a story, the cycle
    search for ROUND_ENDS) can be stopped too: a ``KeyboardInterrupt`` while
    it runs (Ctrl-C, a signal, the command's time or memory limit;
    ``stopped()`` names it) ends it, and each property from there on gets
    what the search alone shows: VIOLATED where it found a violation (the
    trace then not built), HOLDS where it was exhausted and needs nothing
    more, else UNKNOWN naming what stopped it."""
    out = []
    reason = None
    for prop in ex.game.spec.properties:
        if wanted and prop.id not in wanted:
            continue
        if reason is None:
            try:
                out.append(DECIDERS[prop.kind].decide(ex, prop))
                continue
            except KeyboardInterrupt:
                reason = (stopped() if stopped is not None else None) or "interrupted (Ctrl-C)"
        out.append(_cut_short(ex, prop, reason))
    return out


def search_verdicts(ex: Exploration, wanted: list[str] | None, reason: str
                    ) -> list[PropertyResult]:
    """The results the search alone gives, the analysis after it having been
    stopped by ``reason`` before it began (see ``verdicts``)."""
    return [_cut_short(ex, p, reason) for p in ex.game.spec.properties
            if not wanted or p.id in wanted]


def _cut_short(ex: Exploration, prop: Property, reason: str) -> PropertyResult:
    """The result the search alone gives ``prop`` when the analysis after it
    was stopped by ``reason``."""
    decider = DECIDERS[prop.kind]
    if decider.found(ex, prop):
        return _result(prop, Verdict.VIOLATED, Found(reason))
    if decider.analysis:
        return _result(prop, Verdict.UNKNOWN, Bounded(
            reason, ex.states, ex.depth, f"the {decider.analysis} was stopped by {reason}"))
    if ex.complete:
        return _result(prop, Verdict.HOLDS, _exhaustive(ex, **decider.reported(ex)))
    return _result(prop, Verdict.UNKNOWN, _unknown(ex))


def _violation(ex: Exploration, prop: Property) -> PropertyResult | None:
    """VIOLATED with the shortest trace to the first violation the search found
    of a state or step property, or None when it found none."""
    game, pid = ex.game, prop.id
    if pid not in ex.violations:
        return None
    w = ex.violations[pid]
    if w[0] == "step":
        _, i, a = w
        nums = path_to(ex, i)
        _, last = concrete_trace(ex, nums)
        # the violating step, taken from the concrete (not canonical) last state
        match = next(b for b, x in game.successors(last)
                     if not game.check_property(pid, last, x))
        ending = prop.tell(Violation(game, last, game.apply(last, match)))
        t = _trace(ex, nums, ending, final_action=match)
    else:
        _, i = w
        t = _trace(ex, path_to(ex, i), lambda s: prop.tell(Violation(game, s)))
    return _result(prop, Verdict.VIOLATED, Shortest(t))


def _undecided(ex: Exploration, prop: Property, held: dict | None = None,
               seen: dict | None = None) -> PropertyResult:
    """HOLDS (what ``held`` adds to the evidence) where the search was exhausted,
    else UNKNOWN (with what was ``seen``) naming the limit that stopped it."""
    if ex.complete:
        return _result(prop, Verdict.HOLDS, _exhaustive(ex, **(held or {})))
    return _result(prop, Verdict.UNKNOWN, _unknown(ex, **(seen or {})))


def _decide_invariant(ex: Exploration, prop: Property) -> PropertyResult:
    """A state or step property: checked on every state and step as the search went."""
    return _violation(ex, prop) or _undecided(ex, prop)


def _decide_no_deadlock(ex: Exploration, prop: Property) -> PropertyResult:
    """The first live state without a legal move the search stored, if any."""
    game = ex.game
    if ex.deadlocks:
        t = _trace(ex, path_to(ex, ex.deadlocks[0]), lambda s: prop.tell(Violation(game, s)))
        return _result(prop, Verdict.VIOLATED, Shortest(t, len(ex.deadlocks)))
    return _undecided(ex, prop)


def _decide_ends_after(ex: Exploration, prop: Property) -> PropertyResult:
    """A cycle among the states the property observes (after a Pass), told as a
    lasso: the shortest path to the cycle's entry, then round the loop."""
    game = ex.game
    cycle = find_post_pass_cycle(ex)
    if cycle:
        entry = cycle[0]
        nums = path_to(ex, entry) + cycle[1:] + [entry]
        steps = ex.depth_of[entry]  # moves of the game to the entry
        ending = lambda s: prop.tell(Violation(game, s, loop_entry=steps))
        return _result(prop, Verdict.VIOLATED,
                       Shortest(_trace(ex, nums, ending, loop_from=steps + 1)))
    return _undecided(ex, prop, {"post_pass_edges": len(ex.post_pass_edges),
                                 "method": "no cycle among post-Pass states"})


def _decide_determinism(ex: Exploration, prop: Property) -> PropertyResult:
    """Exhausted, every transition is the value of one function: nothing to find."""
    return _undecided(ex, prop, {
        "method": "every transition explored is the value of the compiled next-state "
                  "function at (state, choice); elaboration rejects any action where "
                  "two rules could set one variable at the same priority"})


def _decide_reported_range(ex: Exploration, prop: Property) -> PropertyResult:
    """The range of the live hands' sizes over every state stored: exact when the
    search was exhausted, what was seen so far otherwise."""
    return _undecided(ex, prop, _reported(ex), {"seen": (ex.hand_min, ex.hand_max)})


def _reported(ex: Exploration) -> dict:
    """What an exhausted search reports of a range: the live hands' sizes."""
    return {"reported": (ex.hand_min, ex.hand_max)}


def _nothing(ex: Exploration) -> dict:
    return {}


@dataclass(frozen=True)
class Decider:
    """How the explicit search decides one kind of property: ``decide`` from the
    finished exploration; ``found`` says whether the search alone saw a
    violation; ``analysis`` names the work after the search the kind needs
    (None: none), and ``reported`` what an exhausted search reports of it."""
    decide: Callable[[Exploration, Property], PropertyResult]
    found: Callable[[Exploration, Property], bool] = lambda ex, prop: False
    analysis: str | None = None
    reported: Callable[[Exploration], dict] = _nothing


#: one decider per kind of property (``spec/properties.py`` ``Kind``)
DECIDERS: dict[Kind, Decider] = {
    Kind.STATE: Decider(_decide_invariant, lambda ex, prop: prop.id in ex.violations),
    Kind.STEP: Decider(_decide_invariant, lambda ex, prop: prop.id in ex.violations),
    Kind.NO_DEADLOCK: Decider(_decide_no_deadlock, lambda ex, prop: bool(ex.deadlocks)),
    Kind.ENDS_AFTER: Decider(_decide_ends_after, analysis="cycle search among post-Pass states"),
    Kind.DETERMINISM: Decider(_decide_determinism),
    Kind.REPORTED_RANGE: Decider(_decide_reported_range, reported=_reported),
}


def find_post_pass_cycle(ex: Exploration) -> list[int] | None:
    """A cycle among post-Pass states, as state numbers (first = entry), or None.

    Every edge one level deeper or more means no cycle.  Otherwise the states
    no remaining edge enters are peeled off, then those no remaining edge
    leaves, until what is left is nothing (no cycle) or the states on cycles
    and between them.  From the shallowest state left, its first edges lead
    round to a cycle; the entry is that cycle's shallowest state, and the loop
    the shortest way from it back to itself, so the lasso (the shortest path
    to the entry, then the loop) is short.  Everything is arrays: the states
    left may be millions."""
    src, dst = ex.post_pass_edges.arrays()  # 4-byte numbers, read in place
    if not len(src):
        return None
    step = 1 << 22  # edges at a time: the depth arrays stay small
    if all(np.all(ex.depth_of.of(dst[i:i + step]) > ex.depth_of.of(src[i:i + step]))
           for i in range(0, len(src), step)):
        return None
    # the edges left, their states numbered compactly (in state-number order)
    cs, ct, nodes = _peeled(src, dst, ex.states)
    if not len(cs):
        return None
    order = np.lexsort((ct, cs))
    cs, ct = cs[order], ct[order]
    indptr = np.zeros(len(nodes) + 1, dtype=np.int64)
    np.cumsum(np.bincount(cs, minlength=len(nodes)), out=indptr[1:])
    depth = ex.depth_of.of(nodes)
    # every state left has an edge out to one left: walking the first edges
    # from the shallowest comes round to a state met before, on a cycle
    walk: list[int] = []
    at: dict[int, int] = {}
    v = int(np.argmin(depth))
    while v not in at:
        at[v] = len(walk)
        walk.append(v)
        v = int(ct[indptr[v]])
    cycle = walk[at[v]:]
    entry = min(cycle, key=lambda c: (int(depth[c]), c))
    back = _shortest_return(indptr, ct, entry)
    return [int(nodes[entry])] + [int(nodes[x]) for x in back]


def _peeled(src: np.ndarray, dst: np.ndarray, n: int):
    """The edges left when the states without an edge in or without an edge
    out (among the edges left) are peeled off, to a fixed point: (sources,
    targets, nodes), with the states left renumbered 0 .. ``len(nodes) - 1``
    in the order of ``nodes``, their state numbers (ascending).

    An edge stays while its source has an edge in and its target an edge out:
    that is all a state needs to stay, so each round reads the edges alone,
    and fewer of them each time (the first round's survivors are renumbered
    compactly, so later rounds do not touch arrays of every state)."""
    s, t, nodes = src, dst, None
    while True:
        m = n if nodes is None else len(nodes)
        into = np.zeros(m, dtype=bool)
        into[t] = True
        out = np.zeros(m, dtype=bool)
        out[s] = True
        keep = into[s] & out[t]
        del into, out
        if keep.all():
            break
        s, t = s[keep], t[keep]
        if nodes is None:
            s, t, nodes = _compact(s, t, n)
    s, t, left = _compact(s, t, n if nodes is None else len(nodes))
    return s, t, (left if nodes is None else nodes[left])


def _compact(s: np.ndarray, t: np.ndarray, m: int):
    """The edges ``s``/``t`` among states 0 .. ``m - 1`` with the states at an
    edge renumbered 0, 1, ... in their order, and those states."""
    used = np.zeros(m, dtype=bool)
    used[s] = True
    used[t] = True
    index = np.cumsum(used, dtype=np.int32)   # 4-byte numbers, as the search keeps them
    index -= 1
    return index[s], index[t], np.flatnonzero(used)


def _shortest_return(indptr: np.ndarray, ct: np.ndarray, entry: int) -> list[int]:
    """The states after ``entry`` on a shortest path from it back to itself
    (``entry`` lies on a cycle), breadth-first over the edges ``indptr``/``ct``."""
    m = len(indptr) - 1
    parent = np.full(m, -1, dtype=np.int64)
    seen = np.zeros(m, dtype=bool)
    seen[entry] = True
    frontier = np.array([entry], dtype=np.int64)
    while len(frontier):
        counts = indptr[frontier + 1] - indptr[frontier]
        srcs = np.repeat(frontier, counts)
        offs = np.arange(len(srcs)) - np.repeat(np.cumsum(counts) - counts, counts)
        nbr = ct[np.repeat(indptr[frontier], counts) + offs]
        hit = np.flatnonzero(nbr == entry)
        if len(hit):
            u, path = int(srcs[hit[0]]), []
            while u != entry:
                path.append(u)
                u = int(parent[u])
            return path[::-1]
        fresh = np.flatnonzero(~seen[nbr])
        nbr, srcs = nbr[fresh], srcs[fresh]
        nbr, first = np.unique(nbr, return_index=True)
        parent[nbr] = srcs[first]
        seen[nbr] = True
        frontier = nbr
    raise AssertionError("the entry lies on no cycle")  # pragma: no cover


__all__ = ["verdicts", "search_verdicts", "scope", "find_post_pass_cycle", "DECIDERS",
           "Decider", "ENGINE"]
