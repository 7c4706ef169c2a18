"""What every option card shares: whether it has a suit (options.suit), which
decides what a Desolation may go on and what a Charity cancels (options.1,
charity.1, desolation.1)."""
from __future__ import annotations

from ..ast import BOOL
from ..lang import FALSE, TRUE, Part, define, rule, signature
from .words import Words

SIGNATURES = (signature("options_suited", BOOL, says="an option card is of a suit"),)


def rules(t: Words):
    return [
        rule("options.suit.suitless", ["options.1", "charity.1", "desolation.1"],
             "An option card has no suit: no Desolation is discarded on one, no Charity "
             "cancels one.",
             define(t, "options_suited", lambda: FALSE),
             choice="options.suit", reading="suitless"),
        rule("options.suit.every_suit", ["options.1", "charity.1", "desolation.1"],
             "An option card belongs to every suit: a Desolation may be discarded on one, "
             "and a Charity cancels one as a card of its suit.",
             define(t, "options_suited", lambda: TRUE),
             choice="options.suit", reading="every_suit"),
    ]


PART = Part("options", signatures=SIGNATURES, rules=rules)
