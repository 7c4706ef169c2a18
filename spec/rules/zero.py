"""The zero rule: "if, at any time, a player reaches zero points, the round stops
immediately" (pass.5), and when "at any time" is looked at (zero.when).

A hand dealt worth zero is the deal's question (``setup.zero_deal``, in
``setup.py``).
"""
from __future__ import annotations

from ..lang import And, Part, Update, num, rule
from ..layout import ZERO
from . import flow
from .priorities import Priority
from .words import Words


def rules(t: Words):
    zero_now = t.any_zero(t.hands_, t.hand_of_, t.charity_out_)
    every = [a for a in t.round_actions if a not in ("deal", "race")]
    return [
        rule("zero.when.every_change", ["pass.5"],
             "After every change, mid-effect too: a player at zero points stops the round.",
             Update(tuple(every), "ended", num(ZERO), when=zero_now, priority=Priority.ENDS_ON_ZERO),
             choice="zero.when", reading="every_change"),
        rule("zero.when.end_of_turn", ["pass.5"],
             "At the end of each turn: a player at zero points stops the round.",
             *[Update((a,), "ended", num(ZERO), when=And(ends, zero_now), priority=Priority.ENDS_ON_ZERO)
               for a, ends, _, _ in flow.endings(t)],
             choice="zero.when", reading="end_of_turn"),
        rule("zero.when.after_move", ["pass.5"],
             "After each whole move: a draw, or a discard once every effect it opened (a "
             "race and its discard, a Pride exchange, a team's choice) is over; a player at "
             "zero points then stops the round.",
             *[Update((a,), "ended", num(ZERO), when=And(ends, zero_now), priority=Priority.ENDS_ON_ZERO)
               for a, ends, _, _ in flow.endings(t)],
             *[Update((a,), "ended", num(ZERO), when=zero_now, priority=Priority.ENDS_ON_ZERO)
               for a in ("draw_pile", "deck_card")],
             choice="zero.when", reading="after_move"),
    ]


PART = Part("zero", rules=rules)
