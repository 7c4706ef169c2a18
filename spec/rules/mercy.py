"""Mercy (50 pts.): "All players race to be the first to discard any card"
(mercy.1).

Who may race (mercy.race), whether only the winner discards or every racer
does (mercy.discards), where play goes on after the race (mercy.after), and
whether the race's discard obeys Desolation (mercy.desolation) and has its
own effect (mercy.effect).  The race is a phase of its own (RACE): chance
picks the winner among the eligible.
"""
from __future__ import annotations

from ..ast import BOOL, CARDS, INT, PILE, PLAYER, PLAYERS, map_of, op
from ..lang import (
    FALSE,
    TRUE,
    ActionDecl,
    And,
    Exists,
    Guard,
    If,
    Not,
    Or,
    ParamDecl,
    Part,
    Phase,
    SetOf,
    StateVar,
    Update,
    define,
    num,
    rule,
    signature,
)
from ..layout import DISCARD, RACE
from . import flow
from .priorities import Priority
from .words import Words

VARIABLES = (
    StateVar("racing", BOOL, "the pending discard is a Mercy race discard",
             says="a Mercy race discard is pending"),
    StateVar("racers", PLAYERS, "racers still to discard in Mercy's race (every racer discards "
             "under mercy.discards = every_racer)", says="the racers still to discard"),
)

SIGNATURES = (
    signature("desolation_binds", BOOL, racing=BOOL,
              says="Desolation's rule binds the discard"),
    signature("race_field", PLAYERS, hands=map_of(CARDS), hand_of=map_of(PLAYER),
              passers=PLAYERS, aside=PLAYERS, by=PLAYER, dir=INT, pile=PILE,
              turn=PLAYER, taken=CARDS, says="the players who may race for the Mercy "
                                             "played by {by}"),
    signature("race_effects", BOOL, says="a race discard has its option effect"),
    signature("race_from", PLAYER, winner=PLAYER, mercy_player=PLAYER,
              says="the seat play goes on from after {winner} wins the race for the Mercy "
                   "of {mercy_player}"),
    signature("race_continues", BOOL, says="Mercy's race goes on after its first discard"),
    signature("race_resume", PLAYER, racer=PLAYER, resume=PLAYER,
              says="the seat play resumes from after {racer}'s race discard"),
)


def phases(t: Words):
    return (Phase("RACE", RACE, None, "who wins Mercy's race (a choice among eligible players)",
                  effect=True),)


def actions(t: Words):
    return (ActionDecl("race", "RACE", (ParamDecl("w", PLAYER, t.ALLP, "chance",
                                                  says="the racer"),),
                       "the winner of Mercy's race",
                       says="chance picks who discards in Mercy's race"),)


def initial(t: Words):
    return {"racing": FALSE, "racers": t.NONEP}


def race_field(t: Words, e: flow.Effect):
    """Who may race after the card played in ``e``, as the next state has it."""
    return t.d("race_field", hands=t.hands_, hand_of=t.hand_of, passers=t.passers, aside=t.aside,
               by=e.by, dir=t.dir_, pile=t.pile_, turn=t.turn, taken=t.taken)


def opens(t: Words, e: flow.Effect):
    """A Mercy played in ``e`` opens the race if anyone may race."""
    return And(e.on, t.is_kind(e.card, "mercy"), Not(race_field(t, e).is_empty()))


def _can_race(t: Words, hands, hand_of, p, pile, turn, taken):
    """Only a player who can legally discard can be first to discard: the same
    test as the winner's discard (``play.discard``'s guard)."""
    hand = hands[hand_of[p]]
    mine = flow.taken_by(t, p, turn, taken)
    limit = flow.points_before(t, hand, racing=TRUE)
    return Exists(hand, lambda c: t.d("discard_ok", card=c, hand=hand, pile=pile, taken=mine,
                                      limit=limit, racing=TRUE),
                  hint="rc")


def _race_field(t: Words, exclude_passers: bool):
    """The body of ``race_field`` where any seated player who can discard races
    (a passer too, unless ``exclude_passers``)."""
    def body(hands, hand_of, passers, aside, by, dir, pile, turn, taken):
        seated = t.ALLP - aside
        pool = seated - passers if exclude_passers else seated
        return SetOf(pool, lambda p: _can_race(t, hands, hand_of, p, pile, turn, taken),
                     hint="m")
    return body


def _race_next_only(t: Words):
    """The body of ``race_field`` where only the next player races."""
    def body(hands, hand_of, passers, aside, by, dir, pile, turn, taken):
        q = op("next_in", by, dir, t.ALLP - aside)
        return If(_can_race(t, hands, hand_of, q, pile, turn, taken), t.NONEP.plus(q), t.NONEP)
    return body


def rules(t: Words):  # long on purpose: one rule record per reading, each read alone
    frags = []
    for e in flow.effect_contexts(t):
        when = opens(t, e)
        frags += [Update((e.action,), "phase", num(RACE), when=when, priority=Priority.OPENS_RACE),
                  Update((e.action,), "resume", e.by, when=when)]
    w = t.param("race")
    field_now = t.d("race_field", hands=t.hands, hand_of=t.hand_of, passers=t.passers,
                    aside=t.aside, by=t.resume, dir=t.dir, pile=t.pile, turn=t.turn,
                    taken=t.taken)
    # no racer has discarded yet in this race (mercy.discards = every_racer)
    first_pick = t.racers.is_empty()
    return [
        rule("mercy.open", ["mercy.1"],
             "Discarding a Mercy starts a race to discard any card.", *frags),
        rule("mercy.win", ["mercy.1"],
             "The race winner (chance among the eligible) must discard next.",
             Guard(("race",), w.in_(field_now)),
             Update(("race",), "actor", w),
             Update(("race",), "racing", TRUE),
             Update(("race",), "phase", num(DISCARD))),
        rule("mercy.discards.winner", ["mercy.1"],
             "Only the race winner discards; play then goes on as mercy.after says.",
             define(t, "race_continues", lambda: FALSE),
             define(t, "race_resume", lambda racer, resume: t.d("race_from", racer, resume)),
             choice="mercy.discards", reading="winner"),
        rule("mercy.discards.every_racer", ["mercy.1"],
             "Every player who can discards one card, in an order chance decides; the first "
             "wins the race (mercy.after: play goes on from them or the Mercy player).",
             define(t, "race_continues", lambda: TRUE),
             # the seat play goes on from is fixed at the first discard of the race
             define(t, "race_resume", lambda racer, resume: resume),
             Guard(("race",), Or(first_pick, w.in_(t.racers))),
             Update(("race",), "racers", If(first_pick, field_now, t.racers).minus(w)),
             Update(("race",), "resume", t.d("race_from", w, t.resume), when=first_pick),
             *[Update((e.action,), "racers", t.NONEP, when=opens(t, e), priority=Priority.OVERRIDE)
               for e in flow.effect_contexts(t)],
             *[f for a, raw, _, _ in flow.raw_endings(t) for f in (
                 Update((a,), "phase", num(RACE), when=And(raw, flow.race_on(t)),
                        priority=Priority.RACE_GOES_ON),
                 Update((a,), "racing", FALSE, when=And(raw, flow.race_on(t)),
                        priority=Priority.RACE_GOES_ON))],
             *[Update((a,), "racers", t.NONEP, when=ends) for a, ends, _, _ in flow.endings(t)],
             choice="mercy.discards", reading="every_racer"),
        rule("mercy.race.not_passer", ["mercy.1", "pass.2"],
             "Any player who can discard may win the race, except a passer.",
             define(t, "race_field", _race_field(t, exclude_passers=True)),
             choice="mercy.race", reading="not_passer"),
        rule("mercy.race.anyone", ["mercy.1"],
             "Any player who can discard may win the race, a passer too.",
             define(t, "race_field", _race_field(t, exclude_passers=False)),
             choice="mercy.race", reading="anyone"),
        rule("mercy.race.next_only", ["mercy.1"],
             "Only the next player races (if they can discard).",
             define(t, "race_field", _race_next_only(t)),
             choice="mercy.race", reading="next_only"),
        rule("mercy.after.from_mercy_player", ["mercy.1"],
             "After the race, play goes on from the player who discarded the Mercy.",
             define(t, "race_from", lambda winner, mercy_player: mercy_player),
             choice="mercy.after", reading="from_mercy_player"),
        rule("mercy.after.from_winner", ["mercy.1"],
             "After the race, play goes on from the race winner.",
             define(t, "race_from", lambda winner, mercy_player: winner),
             choice="mercy.after", reading="from_winner"),
        rule("mercy.desolation.binds", ["mercy.1", "desolation.1"],
             "A Mercy race discard obeys Desolation's restriction like any discard.",
             define(t, "desolation_binds", lambda racing: TRUE),
             choice="mercy.desolation", reading="binds"),
        rule("mercy.desolation.free", ["mercy.1", "desolation.1"],
             "A Mercy race discard may be any card: Desolation's restriction does not bind it.",
             define(t, "desolation_binds", lambda racing: Not(racing)),
             choice="mercy.desolation", reading="free"),
        rule("mercy.effect.no_effect", ["mercy.1"],
             "The card discarded in the race has no option effect.",
             define(t, "race_effects", lambda: FALSE),
             choice="mercy.effect", reading="no_effect"),
        rule("mercy.effect.applies", ["mercy.1"],
             "The card discarded in the race has its usual effect.",
             define(t, "race_effects", lambda: TRUE),
             choice="mercy.effect", reading="applies"),
    ]


PART = Part("mercy", VARIABLES, SIGNATURES, phases=phases, actions=actions, initial=initial,
            opens=opens, rules=rules)
