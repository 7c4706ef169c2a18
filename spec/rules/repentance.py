"""Repentance (20 pts.): "Reverses the direction of play" (repentance.1).

What reversing does with two players (repentance.two) and after a Pass
(repentance.pass).  When Repentance skips, it skips as Unbelief does
(``flow.skip``).
"""
from __future__ import annotations

from ..ast import BOOL, PLAYER
from ..lang import FALSE, TRUE, And, Part, Update, define, num, rule, signature
from . import flow
from .words import Words

SIGNATURES = (
    signature("repentance_skips", BOOL, says="Repentance skips the next player"),
    signature("repentance_acts", BOOL, first_passer=PLAYER,
              says="Repentance acts (first passer: {first_passer})"),
)


def rules(t: Words):
    frags = [Update((e.action,), "dir", num(0) - t.dir,
                    when=And(e.on, t.is_kind(e.card, "repentance"),
                             t.d("repentance_acts", t.first_passer)))
             for e in flow.effect_contexts(t)]
    two = t.n == 2
    return [
        rule("repentance.reverse", ["repentance.1"],
             "Repentance reverses the direction of play.", *frags),
        rule("repentance.two.no_effect", ["repentance.1"],
             "With two players, reversing changes nothing.",
             define(t, "repentance_skips", lambda: FALSE),
             choice="repentance.two", reading="no_effect"),
        rule("repentance.two.skip", ["repentance.1"],
             "With two players, Repentance acts as a skip.",
             define(t, "repentance_skips", lambda: TRUE if two else FALSE),
             choice="repentance.two", reading="skip"),
        rule("repentance.pass.reverses", ["repentance.1"],
             "Repentance acts after a Pass as before it.",
             define(t, "repentance_acts", lambda first_passer: TRUE),
             choice="repentance.pass", reading="reverses"),
        rule("repentance.pass.no_effect", ["repentance.1", "pass.3"],
             "After a Pass, Repentance neither reverses nor skips: play goes on round to "
             "the passer.",
             define(t, "repentance_acts", lambda first_passer: first_passer.eq(t.NOBODY)),
             choice="repentance.pass", reading="no_effect"),
    ]


PART = Part("repentance", signatures=SIGNATURES, rules=rules)
