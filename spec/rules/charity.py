"""Charity (0 pts.): "Cancels points of all cards in the same suit" (charity.1).

Which cards it cancels (charity.scope) and in which hands, when (charity.acts):
held in its own hand, held anywhere, or once discarded.
"""
from __future__ import annotations

from ..ast import CARDS, op
from ..lang import And, If, Part, StateVar, Update, define, rule, signature
from . import flow
from .words import Words

VARIABLES = (
    StateVar("charity_out", CARDS, "Charity cards discarded this round (they act once discarded "
             "under charity.acts = discarded)", says="the Charity cards discarded this round"),
)

SIGNATURES = (
    signature("cancelled", CARDS, hand=CARDS, acting=CARDS,
              says="the cards of {hand} that {acting} cancel"),
    signature("charity_acting", CARDS, hand=CARDS, held=CARDS, charity_out=CARDS,
              says="the Charity cards acting on {hand}"),
)


def initial(t: Words):
    return {"charity_out": t.NONE}


def rules(t: Words):
    def cancelled(numbers_only):
        def body(hand, acting):
            out = t.NONE
            for s, ch in enumerate(t.charity_of):
                if ch is None:
                    continue
                # an option card is of Charity's suit only under options.suit = every_suit
                suit = (t.suit_mask[s] & t.kind["number"] if numbers_only else
                        t.suit_mask[s] | If(t.d("options_suited"), t.OPTIONS, t.NONE))
                out = out | If(op("member", t.card_const(ch), acting), suit, t.NONE)
            return out
        return body
    charities = t.kind["charity"]
    dc = t.param("discard")
    discard = next(e for e in flow.effect_contexts(t) if e.action == "discard")
    return [
        rule("charity.scope.whole_suit", ["charity.1"],
             "Charity cancels every card of its suit in the hands it acts on, Desolation too.",
             define(t, "cancelled", cancelled(False)),
             choice="charity.scope", reading="whole_suit"),
        rule("charity.scope.numbers_only", ["charity.1"],
             "Charity cancels the number cards of its suit only.",
             define(t, "cancelled", cancelled(True)),
             choice="charity.scope", reading="numbers_only"),
        # charity_acting(hand, held, out): the Charities that act on ``hand``; held: the
        # cards of the hands in play; out: the Charities discarded this round
        rule("charity.acts.held_own", ["charity.1", "scoring.1"],
             "A Charity counts while held, in the hand that holds it.",
             define(t, "charity_acting", lambda hand, held, charity_out: hand & charities),
             choice="charity.acts", reading="held_own"),
        rule("charity.acts.held_every", ["charity.1"],
             "A Charity counts while held, in every hand: a Charity held anywhere cancels its "
             "suit for everyone.",
             define(t, "charity_acting", lambda hand, held, charity_out: held & charities),
             choice="charity.acts", reading="held_every"),
        rule("charity.acts.discarded", ["charity.1"],
             "A Charity acts when discarded: from then to the end of the round its suit is "
             "cancelled in every hand (a Charity held cancels nothing).",
             define(t, "charity_acting", lambda hand, held, charity_out: charity_out),
             Update(("discard",), "charity_out", t.charity_out.plus(dc),
                    when=And(discard.on, dc.in_(charities))),
             choice="charity.acts", reading="discarded"),
    ]


PART = Part("charity", VARIABLES, SIGNATURES, initial=initial, rules=rules)
