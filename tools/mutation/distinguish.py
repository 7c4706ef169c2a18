"""The shortest round two games play differently, or the proof that none does at a table.

A mutant of the spec (``tools/mutation/mutants.py``) that no check kills either
describes the same game as the spec, or plays some round differently that no
scenario happens to play.  This tells the two apart at one table: a
breadth-first search of the *pairs* of states the two games reach by the same
moves from the same deals (``checks/questions/divergence.py``'s one side-by-side search,
with its ``Observable`` lens narrowed to what a scenario can state), until one
of them

* allows a move the other refuses, or
* shows a state that differs in what a scenario can observe of it (turn,
  actor, phase, how the round ended, direction, passers, pile, deck size,
  hands, scores; rounds and totals in a whole game: ``scenarios/replay.py``'s
  facts).

Breadth first, the difference found is one of the fewest moves.  A search that
runs out of pairs shows that at that table no round tells the games apart: no
scenario there can kill the mutant, and no verdict of a state property can
differ, since every state either game reaches is observed alike (a property
reading a variable that is not observed is the one way a verdict could still
move, which is why ``tools/mutation/pin_mutants.py`` says "at these tables" and the
mutation runner's property tables still run).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from itcp.checks.questions.divergence import Observable, legality_difference
from itcp.checks.questions.divergence import first_difference as search
from itcp.model.analysis.liveness import liveness, next_phases
from itcp.model.analysis.liveness import observed_formulas as graph_observed
from itcp.model.engine.engine import Game
from itcp.spec import ast as A
from itcp.spec.ast import PLAYER
from itcp.spec.lang import Spec
from itcp.spec.rules.vocabulary import SCENARIO_FACTS, SCENARIO_FACTS_GAME, score_of


@dataclass(frozen=True)
class PlayedDifferently:
    """A round the two games play differently.

    ``states[i]`` leads by ``actions[i]`` to ``states[i + 1]`` in the first
    game, from the state before the deal.  ``kind`` is "facts" (the last
    states differ in what is observed), "refused" (the last action, allowed by
    the first game, is refused by the second; ``states`` ends after it) or
    "illegal" (the last action is the second game's, refused by the first;
    ``states`` ends before it) or "bounds" (after the last action the second
    game's state leaves a variable's declared bounds, the first's does not)."""
    kind: str
    states: tuple
    actions: tuple


@dataclass(frozen=True)
class Same:
    """Every pair of states the two games reach at the table was seen: none differs."""
    pairs: int


@dataclass(frozen=True)
class StoppedAtLimit:
    """The search stopped at its limit before it found a difference or ran out of pairs."""
    pairs: int
    limit: int


def _observer(g: Game):
    """What a scenario can state of a state, as a tuple; None where it can state
    nothing (the turn and actor between the rounds of a game: no seat)."""
    names = SCENARIO_FACTS + (SCENARIO_FACTS_GAME if g.spec.scope == "game" else ())
    idx = [g.index[n] for n in names]
    types = {v.name: v.type for v in g.spec.variables}
    seats = {g.index[n] for n in names if types[n] == PLAYER}
    n = g.config.players
    scores = g.impl.scores
    return lambda s: tuple(None if i in seats and not 0 <= s[i] < n else s[i]
                           for i in idx) + (scores(s),)


def _differ(mine: tuple, theirs: tuple) -> bool:
    """Would a scenario expecting ``mine`` fail on ``theirs``?"""
    return any(x is not None and x != y for x, y in zip(mine, theirs))


class _Pinnable(Observable):
    """``divergence.Observable``, seeing what a scenario can state (``_observer``)."""

    def __init__(self, g: Game, gm: Game):
        super().__init__(g, gm)
        self.see, self.see_m = _observer(g), _observer(gm)

    def reached(self, node):
        return ("facts", None) if _differ(self.see(node[0]), self.see_m(node[1])) else None


def first_difference(g: Game, gm: Game, max_pairs: int = 200_000
                     ) -> PlayedDifferently | Same | StoppedAtLimit:
    """The shortest round ``g`` and ``gm`` (the same table, variables and
    actions) play differently, or ``Same`` when no pair of states they reach
    by the same moves differs, or ``StoppedAtLimit`` past ``max_pairs`` pairs
    (``checks/questions/divergence.py``'s search, seeing what a scenario states)."""
    got = search(_Pinnable(g, gm), max_pairs)
    if got.found is None:
        return StoppedAtLimit(got.nodes, max_pairs) if got.limit else Same(got.nodes)
    f = got.found
    states = tuple(node[0] for node, _ in f.path) + (f.node[0],)
    actions = tuple(a for _, a in f.path)
    return _difference(g, states, actions, f.what[0], f.what[1])


def _difference(g: Game, states: tuple, actions: tuple, kind: str, what) -> PlayedDifferently:
    """The ``PlayedDifferently`` for what ``divergence.Observable`` saw after the spec's
    ``states`` and ``actions``: facts that differ, or a move one game refuses."""
    if kind == "facts":
        return PlayedDifferently("facts", states, actions)
    if kind == "illegal_under_a":  # the mutant allows a move the spec refuses
        return PlayedDifferently("illegal", states, actions + (what,))
    return PlayedDifferently("refused", states + (g.apply(states[-1], what, validate=False),),
                      actions + (what,))


@dataclass(frozen=True)
class Unseen:
    """Random rounds played side by side showed no difference: evidence, not proof."""
    rounds: int
    states: int


def sampled_difference(g: Game, gm: Game, rng, rounds: int, max_steps: int = 400,
                       deadline: float | None = None, choose=None,
                       watch=None) -> PlayedDifferently | Unseen:
    """A round ``g`` and ``gm`` play differently, found by random rounds played
    side by side (the same deal, then each move drawn from ``g``'s legal ones,
    a chance outcome as ``g`` draws it), or ``Unseen`` after ``rounds`` of them
    (or at ``deadline``, a ``time.monotonic()`` value).

    Why: the pair search (``first_difference``) is exhaustive and so limited to
    tables of a few cards; a mutant whose difference needs more cards, a third
    player and several option cards in one round is out of its reach.  Random
    rounds at such a table reach deep states cheaply.  What is a difference is
    the pair search's: a move one game allows and the other refuses, or a state
    that differs in what a scenario can state.  The round found is not the
    shortest; it is a real round of the spec, so it makes a scenario as the pair
    search's does.

    ``choose(state, legal, rng)`` picks the move instead of a uniform draw (a
    bias towards the moves a mutant is about); ``watch(action, state, state_m)``
    sees every step's pair of states (what differs between them, where)."""
    see, see_m = _observer(g), _observer(gm)
    s0 = g.initial_state()
    seen = 0
    for r in range(rounds):
        if deadline is not None and time.monotonic() > deadline:
            return Unseen(r, seen)
        sa = sb = s0
        states: list = [s0]
        actions: list = []
        for _ in range(max_steps + 1):
            if g.is_terminal(sa):
                break
            if sa[0] == s0[0]:
                # a deal (the first, or a later round's in a whole game): drawn, not
                # enumerated (a table's deals are too many), the same under both
                a = g.sample_chance(sa, rng)
            else:
                la = g.legal_actions(sa)
                differ = legality_difference(la, gm.legal_actions(sb))
                if differ is not None:
                    return _difference(g, tuple(states), tuple(actions), *differ)
                if not la:
                    break
                if g.is_chance(sa):
                    a = g.sample_chance(sa, rng)
                else:
                    a = rng.choice(la) if choose is None else choose(sa, la, rng)
            sa, sb = g.apply(sa, a, validate=False), gm.apply(sb, a, validate=False)
            if watch is not None:
                watch(a, sa, sb)
            states.append(sa)
            actions.append(a)
            seen += 1
            if _differ(see(sa), see_m(sb)):
                return PlayedDifferently("facts", tuple(states), tuple(actions))
            if gm.outside_bounds(sb) is not None and g.outside_bounds(sa) is None:
                return PlayedDifferently("bounds", tuple(states), tuple(actions))
    return Unseen(rounds, seen)


def observed_formulas(spec: Spec) -> list:
    """What a scenario can observe of any state, as formulas (``SCENARIO_FACTS``, the
    seats' scores; rounds and totals in a whole game)."""
    types = {v.name: v.type for v in spec.variables}
    names = SCENARIO_FACTS + (SCENARIO_FACTS_GAME if spec.scope == "game" else ())
    return ([A.Var(n, types[n]) for n in names]
            + [score_of(p) for p in range(spec.config.players)])


def unread_write(spec: Spec, var: str, actions) -> bool:
    """Is the value an update of ``var`` at ``actions`` writes never read?

    True when ``var`` is dead (``model/analysis/liveness.py``) at every phase each of
    these actions may lead to, with what a scenario observes, the properties
    and the graph observations counted as reads, and no variable assumed
    constant (a mutant may make a constant vary).  Then a mutant that changes
    only that written value (the update dropped, its condition negated, a seat
    in it shifted) plays every round alike, checks alike, and is told apart by
    nothing: every later read of ``var`` comes after a write that does not
    read it, in both games."""
    live = _liveness(spec)
    phases = [p.value for p in spec.phases]
    for act in spec.actions:
        if act.name not in actions:
            continue
        nxt = next_phases(spec, act)
        for q in (phases if nxt is None else nxt):
            if var in live.get(q, ()):
                return False
    return True


@dataclass
class _UnreadWriteLiveness:
    """What ``unread_write`` keeps with a spec's rules (``Spec.derived``): the
    properties' ids -> (those properties, the liveness it reads)."""
    by_properties: dict[tuple, tuple[list, dict]] = field(default_factory=dict)


def _liveness(spec: Spec) -> dict:
    """The liveness ``unread_write`` reads, once per spec: ``Spec.derived`` is
    shared by specs of the same rules, so it is keyed by their properties."""
    cache = spec.derived.record(_UnreadWriteLiveness).by_properties
    key = tuple(id(p) for p in spec.properties)
    if key not in cache:
        extra = observed_formulas(spec) + graph_observed(spec)
        cache[key] = (list(spec.properties), liveness(spec, {}, extra, {}))
    return cache[key][1]
