"""The end of a turn: who plays next, reaching the passer, and a round that
stops (play.1, pass.3 to pass.5).

Which moves end a turn is ``flow.endings``; this part says what a turn's end
does: play goes to the next seat in the direction of play, the turn's records
start afresh, and reaching the passer stops the round.
"""
from __future__ import annotations

from ..ast import INT, PLAYER, PLAYERS, op
from ..lang import FALSE, And, If, Not, Or, Part, Phase, StateVar, Update, num, rule
from ..layout import DRAW, END_NAMES, LIVE, OVER, PASS_REACHED
from . import flow
from .priorities import Priority
from .words import Words

VARIABLES = (
    StateVar("had_turn", PLAYERS, "players who have finished a turn this round", record=True,
             says="the players who have had a turn"),
    StateVar("resume", PLAYER, "the seat play resumes from after a race, gifts or a team",
             says="the seat play resumes from"),
    StateVar("ended", INT, "why the round ended: 0 live, 1 pass reached, 2 zero, 3 deck", bounds=(0, 7),
             says="how the round ended", names=END_NAMES),
)


def phases(t: Words):
    return (Phase("OVER", OVER, None, "the round is over", terminal=True),)


def initial(t: Words):
    return {"had_turn": t.NONEP, "resume": t.NOBODY, "ended": num(LIVE)}


def rules(t: Words):
    """End of turn: who plays next, and whether that reaches the passer."""
    frags = []
    clear_duty = Or(Not(flow.may_hold(t)), Not(t.duty_fresh))
    for action, ends, from_seat, skip in flow.endings(t):
        q1, live = flow.next_seat(t, from_seat)
        land = If(skip, op("next_in", q1, t.dir_, live), q1)
        stop = Or(And(skip, t.d("skip_stops", q1, t.first_passer_)),
                  t.d("arrival_ends", land=land, first_passer=t.first_passer_,
                      since_pass=t.since_pass_, live=live, passers=t.passers_))
        nxt = t.d("arrival_seat", land=land, first_passer=t.first_passer_, dir=t.dir_, live=live)
        frags += [
            Update((action,), "turn", nxt, when=ends),
            Update((action,), "actor", nxt, when=ends),
            Update((action,), "owed", num(1), when=ends),
            Update((action,), "taken", t.NONE, when=ends),
            Update((action,), "drew", FALSE, when=ends),
            Update((action,), "racing", FALSE, when=ends),
            Update((action,), "resume", t.NOBODY, when=ends, priority=Priority.CLEARED),
            # a duty set in the middle of this turn (duty_fresh) outlasts its end
            Update((action,), "duty", num(0), when=And(ends, clear_duty)),
            Update((action,), "duty_on", t.NOBODY, when=And(ends, clear_duty)),
            Update((action,), "duty_fresh", FALSE, when=And(ends, flow.may_hold(t))),
            Update((action,), "phase", num(DRAW), when=ends),
            Update((action,), "ended", num(PASS_REACHED), when=And(ends, stop)),
        ]
        if action != "reveal":
            frags += [
                Update((action,), "had_turn", t.had_turn.plus(t.turn), when=ends),
                Update((action,), "since_pass", t.since_pass.plus(t.turn), when=And(
                    ends, Not(t.first_passer_.eq(t.NOBODY)), Not(t.turn.in_(t.passers_)))),
            ]
    return [
        rule("turn.advance", ["play.1", "pass.3", "pass.4"],
             "When a turn ends, play goes to the next seat in the direction of play "
             "(skipping set-aside seats and frozen later passers); reaching the passer "
             "stops the round.", *frags),
        rule("round.stop", ["pass.4", "pass.5"],
             "A round that has ended admits no further play.",
             *[Update((a,), "phase", num(OVER), when=Not(t.ended_.eq(LIVE)), priority=Priority.ROUND_STOPPED)
               for a in t.round_actions]),
    ]


PART = Part("advance", VARIABLES, phases=phases, initial=initial, rules=rules)
