"""Unbelief (20 pts.): "This card skips the next player", and after a Pass
(unbelief.1, unbelief.2).

What a skip does with two players (unbelief.two) and whether it may pass over
the passer (unbelief.pass).  Whether a card skips is ``flow.skip``; where play
lands after a skip is the turn's end (``advance.py``).
"""
from __future__ import annotations

from ..ast import BOOL, PLAYER
from ..lang import FALSE, TRUE, Part, define, rule, signature
from .words import Words

SIGNATURES = (
    signature("unbelief_skips", BOOL, says="Unbelief skips the next player"),
    signature("skip_stops", BOOL, skipped=PLAYER, first_passer=PLAYER,
              says="skipping {skipped} stops the round"),
)


def rules(t: Words):
    two = t.n == 2
    return [
        rule("unbelief.two.again", ["unbelief.1"],
             "Unbelief skips the next player; with two, the discarder plays again.",
             define(t, "unbelief_skips", lambda: TRUE),
             choice="unbelief.two", reading="again"),
        rule("unbelief.two.no_effect", ["unbelief.1"],
             "Unbelief skips the next player; with two players it has no effect.",
             define(t, "unbelief_skips", lambda: FALSE if two else TRUE),
             choice="unbelief.two", reading="no_effect"),
        rule("unbelief.pass.go_around", ["unbelief.2"],
             "Skipping the passer sends play round again until it reaches the passer.",
             define(t, "skip_stops", lambda skipped, first_passer: FALSE),
             choice="unbelief.pass", reading="go_around"),
        rule("unbelief.pass.round_ends", ["unbelief.2"],
             "A skip cannot pass over the passer: the round ends.",
             define(t, "skip_stops", lambda skipped, first_passer: skipped.eq(first_passer)),
             choice="unbelief.pass", reading="round_ends"),
    ]


PART = Part("unbelief", signatures=SIGNATURES, rules=rules)
