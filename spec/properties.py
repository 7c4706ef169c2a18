"""The properties a variant is checked against (DESIGN.md section 5).

State properties are predicates over one state; step properties over a state
and its successor (``Primed`` variables).  Properties about the state graph
(deadlock, cycles, determinism, the reachable hand sizes) have no formula
here: the checkers decide them from the graph or the transition relation.
"""
from __future__ import annotations

from dataclasses import dataclass

from .ast import Node, op
from .lang import And, ForAll, If, Implies, Not, Or, num


@dataclass(frozen=True)
class Property:
    id: str
    kind: str  # "state", "step" or "graph"
    statement: str
    formula: Node | None = None


LIVE_PHASES = ("DRAW", "DISCARD", "PRIDE", "SECRET", "REVEAL")


def build(t) -> tuple[Property, ...]:
    from .rules.table import DEAL, DRAW, DISCARD, GAME_OVER, LIVE, OVER, PRIDE, REVEAL, SECRET

    playing = Or(*[t.phase.eq(p) for p in (REVEAL, DRAW, DISCARD, PRIDE, SECRET)])
    in_round = Not(Or(t.phase.eq(DEAL), t.phase.eq(OVER), t.phase.eq(GAME_OVER)))
    zones = t.deck | op("pile_cards", t.pile)
    count = t.deck.count() + op("pile_len", t.pile)
    for p in range(t.n):
        P = t.player_const(p)
        zones = zones | t.hands[P] | t.NONE.plus(t.gifts[P])
        count = count + t.hands[P].count() + If(t.gifts[P].eq(t.NOCARD), num(0), num(1))
    conservation = And(zones.eq(t.ALL), count.eq(t.cfg.n_cards))
    frozen = ForAll(t.passers, lambda p: Or(
        t.hands_[t.hand_of_[p]].eq(t.hands[t.hand_of[p]]),
        Not(t.ended.eq(LIVE))), hint="f")
    turn_defined = Implies(playing, And(
        Not(t.actor.eq(t.NOBODY)), Not(t.actor.in_(t.aside))))
    zero_stops = Implies(in_round, Not(t.any_zero(t.hands, t.hand_of)))
    return (
        Property("FROZEN", "step",
                 "The passer's hand never changes until the round ends.", frozen),
        Property("CONSERVATION", "state",
                 "Every card is in exactly one place: a hand, the deck, the pile or "
                 "in transit as a Pride Cycle gift.", conservation),
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
