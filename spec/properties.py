"""The properties a variant is checked against.

State properties are predicates over one state; step properties over a state
and its successor (``Primed`` variables).  Properties about the state graph
(deadlock, cycles, determinism, the reachable hand sizes) have no formula
here: the checkers decide them from the graph or the transition relation.
"""
from __future__ import annotations

from dataclasses import dataclass

from .ast import Node, op
from .lang import And, ForAll, Implies, Not, Or
from .rules.table import DEAL, DISCARD, DRAW, GAME_OVER, LIVE, OVER, PRIDE, REVEAL, SECRET


@dataclass(frozen=True)
class Property:
    id: str
    kind: str  # "state", "step" or "graph"
    statement: str
    formula: Node | None = None


LIVE_PHASES = ("DRAW", "DISCARD", "PRIDE", "SECRET", "REVEAL")


def zones(t) -> list:
    """The places a card can be, as card sets: the deck, the pile and each hand
    (a Pride Cycle gift chosen under ``pride.timing = simultaneous`` stays in its
    giver's hand until every card moves)."""
    out = [t.deck, op("pile_cards", t.pile)]
    for p in range(t.n):
        out.append(t.hands[t.player_const(p)])
    return out


def exactly_one_place(t):
    """Every card in exactly one place: the zones are pairwise disjoint, the pile
    holds no card twice, and together they hold every card.

    Said without counting on purpose: it means the same as "the zones' sizes add
    up to the number of cards and together they hold every card" (a test proves
    the two equivalent), but a solver proves it preserved by propositional
    reasoning alone, where sums of set sizes cost arithmetic on every card."""
    parts, seen = [op("pile_distinct", t.pile)], None
    for z in zones(t):
        if seen is not None:
            parts.append((z & seen).is_empty())
        seen = z if seen is None else seen | z
    parts.append(seen.eq(t.ALL))
    return And(*parts)


def build(t) -> tuple[Property, ...]:

    playing = Or(*[t.phase.eq(p) for p in (REVEAL, DRAW, DISCARD, PRIDE, SECRET)])
    in_round = Not(Or(t.phase.eq(DEAL), t.phase.eq(OVER), t.phase.eq(GAME_OVER)))
    conservation = exactly_one_place(t)
    frozen = ForAll(t.passers, lambda p: Or(
        t.hands_[t.hand_of_[p]].eq(t.hands[t.hand_of[p]]),
        Not(t.ended.eq(LIVE))), hint="f")
    turn_defined = Implies(playing, And(
        Not(t.actor.eq(t.NOBODY)), Not(t.actor.in_(t.aside))))
    zero_stops = Implies(in_round, Not(t.any_zero(t.hands, t.hand_of, t.charity_out)))
    return (
        Property("FROZEN", "step",
                 "The passer's hand never changes until the round ends.", frozen),
        Property("CONSERVATION", "state",
                 "Every card is in exactly one place: a hand, the deck or the pile.",
                 conservation),
        Property("TURN_DEFINED", "state",
                 "The player to act is always a seated player who has not been set aside.",
                 turn_defined),
        Property("ZERO_STOPS", "state",
                 "No round goes on while a player is at zero points.", zero_stops),
        Property("NO_DEADLOCK", "graph",
                 "Every state of a round that has not ended has a legal move, duties included."),
        Property("ROUND_ENDS", "graph",
                 "After a Pass the round ends on every path: no cycle among post-Pass states."),
        Property("DETERMINED", "graph",
                 "Each player choice and chance outcome leads to exactly one next state."),
        Property("HAND_BOUNDS", "graph", "The reachable range of hand sizes (reported)."),
        Property("SCORE_DEFINED", "state",
                 "At the end of a round every player has exactly one score.",
                 # each player scores one hand: a seat's hand that is itself kept
                 # (not set aside), so a team's members all score the same hand
                 Implies(t.phase.eq(OVER), ForAll(t.ALLP, lambda p: And(
                     Not(t.hand_of[p].eq(t.NOBODY)),
                     t.hand_of[t.hand_of[p]].eq(t.hand_of[p])), hint="s"))),
    )
