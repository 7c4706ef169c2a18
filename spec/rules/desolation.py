"""Desolation (25 pts.): "Can only be discarded on the same suit" (desolation.1),
and what else it may go on (desolation.target).

Whether the restriction binds a Mercy race discard is Mercy's question
(``mercy.desolation``); ``discard.py`` asks both.
"""
from __future__ import annotations

from ..ast import BOOL, CARD, PILE, op
from ..lang import And, Not, Or, Part, define, rule, signature
from .words import Words

SIGNATURES = (signature("desolation_ok", BOOL, card=CARD, pile=PILE,
                        says="Desolation's rule lets {card} go on {pile}"),)


def rules(t: Words):
    # the top card is of the Desolation's suit (an option card is of every suit under
    # options.suit = every_suit)
    same = lambda c, pile: And(Not(op("pile_len", pile).eq(0)), Or(
        op("attr", op("top", pile), t.SUIT).eq(op("attr", c, t.SUIT)),
        And(t.d("options_suited"), op("top", pile).in_(t.OPTIONS))))
    gate = lambda c, ok: Or(Not(t.is_kind(c, "desolation")), ok)
    return [
        rule("desolation.target.same_suit", ["desolation.1"],
             "A Desolation may only be discarded on a top card of its suit.",
             define(t, "desolation_ok", lambda card, pile: gate(card, same(card, pile))),
             choice="desolation.target", reading="same_suit"),
        rule("desolation.target.or_mercy", ["desolation.1"],
             "A Desolation may be discarded on its suit or on a Mercy.",
             define(t, "desolation_ok", lambda card, pile: gate(card, Or(
                 same(card, pile), t.is_kind(op("top", pile), "mercy")))),
             choice="desolation.target", reading="or_mercy"),
        rule("desolation.target.or_empty", ["desolation.1"],
             "A Desolation may be discarded on its suit or on an empty pile.",
             define(t, "desolation_ok", lambda card, pile: gate(card, Or(
                 same(card, pile), op("pile_len", pile).eq(0)))),
             choice="desolation.target", reading="or_empty"),
    ]


PART = Part("desolation", signatures=SIGNATURES, rules=rules)
