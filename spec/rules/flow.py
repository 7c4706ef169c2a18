"""How one move leads to the next: the expressions several rules share.

A discard (or a Justice answer, or the first face-up card under
``setup.first_card = applies``) is an *effect context*: a card, who played it,
whether its option effect applies, and the seat play resumes from.  Whether
the move opens a sub-phase (Mercy's race, Pride Cycle's gifts, a Secret
Combination choice) or ends the turn is decided here from the definitions the
option rules provide, so the turn rules and the option rules never disagree
about it.  Everything reading-dependent goes through a definition; this module
adds no rule of its own.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ast import Node
from ..lang import FALSE, TRUE, And, If, Not, Or
from .vocabulary import Vocabulary


@dataclass(frozen=True)
class Effect:
    action: str
    card: Node       # the card played
    by: Node         # who played it
    on: Node         # does its option effect apply
    from_seat: Node  # where play resumes when the turn ends


def effect_contexts(t: Vocabulary) -> list[Effect]:
    c = lambda a: next(p for p in next(x for x in t.actions if x.name == a).params).ref
    racing_from = If(t.racing, t.d("race_resume", t.actor, t.resume), t.turn)
    return [
        Effect("discard", c("discard"), t.actor,
               Or(Not(t.racing), t.d("race_effects")), racing_from),
        Effect("answer", c("answer"), t.actor, TRUE, t.turn),
        Effect("reveal", t.top_card, t.dealer, TRUE, t.dealer),
    ]


def ring(t: Vocabulary):
    return t.ring(t.hand_of, t.aside)


def race_field(t: Vocabulary, e: Effect):
    return t.d("race_field", hands=t.hands_, hand_of=t.hand_of, passers=t.passers, aside=t.aside,
               by=e.by, dir=t.dir_, pile=t.pile_, turn=t.turn, taken=t.taken)


def pride_givers(t: Vocabulary):
    return t.d("pride_givers", ring=ring(t), passers=t.passers, dir=t.dir)


def secret_partner(t: Vocabulary, e: Effect):
    return t.d("secret_partner", by=e.by, ring=ring(t), passers=t.passers, dir=t.dir)


def opens_race(t, e):
    return And(e.on, t.is_kind(e.card, "mercy"), Not(race_field(t, e).is_empty()))


def opens_pride(t, e):
    return And(e.on, t.is_kind(e.card, "pride_cycle"), Not(pride_givers(t).is_empty()))


def forms_team(t, e):
    q = secret_partner(t, e)
    return And(e.on, t.is_kind(e.card, "secret_combination"), q.ne(t.NOBODY),
               t.hand_of[q].ne(t.hand_of[e.by]), t.d("secret_allowed", ring(t)))


def opens_secret(t, e):
    return And(forms_team(t, e), t.d("secret_waits"))


def opens(t, e):
    return Or(opens_race(t, e), opens_pride(t, e), opens_secret(t, e))


def skip(t, e):
    """Does this card skip the next player (Unbelief; Repentance with two)?"""
    return And(e.on, Or(And(t.is_kind(e.card, "unbelief"), t.d("unbelief_skips")),
                        And(t.is_kind(e.card, "repentance"), t.d("repentance_skips"),
                            t.d("repentance_acts", t.first_passer))))


def race_on(t: Vocabulary):
    """After this move, Mercy's race still has a racer to discard (only under
    ``mercy.discards = every_racer``: the racers still to discard who can)."""
    field = t.d("race_field", hands=t.hands_, hand_of=t.hand_of_, passers=t.passers_,
                aside=t.aside_, by=t.resume, dir=t.dir_, pile=t.pile_, turn=t.turn, taken=t.taken)
    return And(t.d("race_continues"), Not((t.racers & field).is_empty()))


def owes_discard(t: Vocabulary):
    """After this move, the turn player still owes the turn's discard (a Justice
    answer under ``justice.answer = draw_only``)."""
    return And(t.d("answer_then_discard"), t.owes_discard_)


def held(t: Vocabulary):
    """The turn goes on after a move that would otherwise end it: the race has
    racers left, or the turn's own discard is still to come."""
    return Or(race_on(t), owes_discard(t))


def may_hold(t: Vocabulary):
    """Can a turn go on after a move that would otherwise end it (at all, under
    these readings)?  A duty set in such a turn outlasts the turn's end."""
    return Or(t.d("race_continues"), t.d("answer_then_discard"))


def taken_by(t: Vocabulary, p, turn=None, taken=None):
    """The cards ``p`` took from the pile this turn: the turn player's taken
    cards, nothing for anyone else (a Mercy race winner drew nothing).  Who may
    win the race and what the winner may discard both read it, so they agree."""
    turn = t.turn if turn is None else turn
    taken = t.taken if taken is None else taken
    return If(p.eq(turn), taken, t.NONE)


def points_before(t: Vocabulary, hand, racing=None):
    """One more than the points a discard may not leave ``hand`` above (under
    ``discard.lower = constraint``), 0 if none is recorded: the turn player's
    points before the turn's first draw; in Mercy's race, where no draw came
    first, the racer's points before the discard.  Who may win the race
    (``racing=TRUE``) and what the winner may discard both read it, like
    ``taken_by``.  (0 is what a reading that keeps no record leaves: a story
    told under it then does not blame it on a record it never kept.)"""
    racing = t.racing if racing is None else racing
    return If(racing, t.cards_points(hand) + 1, t.before_draw)


def live_seats(t: Vocabulary, aside, passers, first_passer):
    """Seats that take turns: not set aside, not frozen (the first passer
    stays, since reaching them ends the round)."""
    return (t.ALLP - aside) - (passers - t.NONEP.plus(first_passer))


__all__ = ["Effect", "effect_contexts", "opens", "opens_race", "opens_pride",
           "opens_secret", "forms_team", "skip", "race_field", "pride_givers",
           "secret_partner", "ring", "live_seats", "taken_by", "points_before", "race_on",
           "owes_discard", "held", "may_hold", "FALSE"]
