"""Pass: saying it, who may, and when play reaches the passer (pass.1 to pass.4).

(The module is not named ``pass``: that is a Python keyword.)  How a Pass
scores is the scoring's (``scoring.py``); what it does to the cards played
after it is each card's.
"""
from __future__ import annotations

from ..ast import BOOL, INT, PLAYER, PLAYERS, op
from ..lang import (
    FALSE,
    TRUE,
    ActionDecl,
    And,
    Guard,
    If,
    Not,
    Part,
    StateVar,
    Update,
    define,
    rule,
    signature,
)
from .words import Words

VARIABLES = (
    StateVar("passers", PLAYERS, "players who have said Pass this round", says="the passers"),
    StateVar("first_passer", PLAYER, "the first player to say Pass, or nobody",
             says="the first passer"),
    StateVar("since_pass", PLAYERS, "players who finished a turn since the first Pass",
             record=True, says="the players who have had a turn since the first Pass"),
)

SIGNATURES = (
    signature("arrival_ends", BOOL, land=PLAYER, first_passer=PLAYER,
              since_pass=PLAYERS, live=PLAYERS, passers=PLAYERS,
              says="play arriving at {land} reaches the passer"),
    signature("arrival_seat", PLAYER, land=PLAYER, first_passer=PLAYER, dir=INT,
              live=PLAYERS, says="the seat that plays when play arrives at {land}"),
)


def actions(t: Words):
    return (ActionDecl("pass", "DRAW", (), "say Pass instead of drawing",
                       says="a player says Pass"),)


def initial(t: Words):
    return {"passers": t.NONEP, "first_passer": t.NOBODY, "since_pass": t.NONEP}


def endings(t: Words):
    return [("pass", TRUE, t.actor, FALSE)]


def rules(t: Words):
    duty_active = And(t.duty > 0, t.duty_on.eq(t.actor))
    return [
        rule("pass.say", ["pass.1", "pass.2"],
             "Instead of drawing, a player may say Pass (only before drawing this turn); "
             "their hand is frozen.",
             Guard(("pass",), Not(t.drew)),
             Update(("pass",), "passers", t.passers.plus(t.actor)),
             Update(("pass",), "first_passer", t.actor, when=t.first_passer.eq(t.NOBODY))),
        rule("pass.when.any_turn", ["pass.1"], "Pass is allowed on any turn.",
             choice="pass.when", reading="any_turn"),
        rule("pass.when.after_first_circuit", ["pass.1"],
             "Pass is allowed once every player has had a turn.",
             Guard(("pass",), op("subset", t.ALLP - t.aside, t.had_turn)),
             choice="pass.when", reading="after_first_circuit"),
        rule("pass.multiple.not_allowed", ["pass.1", "pass.3"],
             "Once someone has passed, nobody else may.",
             Guard(("pass",), t.passers.is_empty()),
             choice="pass.multiple", reading="not_allowed"),
        rule("pass.multiple.allowed", ["pass.1", "pass.3"],
             "Several players may pass; the round ends at the first passer.",
             choice="pass.multiple", reading="allowed"),
        rule("justice.pass.not_allowed", ["justice.1", "pass.1"],
             "A player under a Justice duty must draw or play: no Pass.",
             Guard(("pass",), Not(duty_active)),
             choice="justice.pass", reading="not_allowed"),
        rule("justice.pass.allowed", ["justice.1", "pass.1"],
             "A player under a Justice duty may still pass.",
             choice="justice.pass", reading="allowed"),
        rule("pass.reached.next_turn", ["pass.3", "pass.4"],
             "The round stops when the passer's next turn comes.",
             define(t, "arrival_ends", lambda land, first_passer, since_pass, live, passers:
                    land.eq(first_passer)),
             define(t, "arrival_seat", lambda land, first_passer, dir, live: land),
             choice="pass.reached", reading="next_turn"),
        rule("pass.reached.circuit", ["pass.3", "pass.4"],
             "The round stops once every other player has had a turn since the Pass; "
             "the frozen passer's own turns are skipped.",
             define(t, "arrival_ends", lambda land, first_passer, since_pass, live, passers: And(
                 Not(first_passer.eq(t.NOBODY)), op("subset", live - passers, since_pass))),
             define(t, "arrival_seat", lambda land, first_passer, dir, live: If(
                 land.eq(first_passer), op("next_in", first_passer, dir, live.minus(first_passer)),
                 land)),
             choice="pass.reached", reading="circuit"),
    ]


PART = Part("passing", VARIABLES, SIGNATURES, actions=actions, initial=initial,
            endings=endings, rules=rules)
