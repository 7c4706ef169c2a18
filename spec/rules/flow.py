"""How one move leads to the next: the expressions several parts share.

A discard (or a Justice answer, or the first face-up card under
``setup.first_card = applies``) is an *effect context*: a card, who played it,
whether its option effect applies, and the seat play resumes from.  Whether
the move opens a phase of a card's own (Mercy's race, Pride Cycle's gifts, a
Secret Combination choice: each card says when, ``Part.opens``), holds the turn
open, or ends the turn is decided here, once, so the turn's parts and the
cards never disagree about it.  Everything reading-dependent goes through a
definition; this module adds no rule of its own.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ast import Node, op
from ..lang import TRUE, And, If, Not, Or
from .words import Words


@dataclass(frozen=True)
class Effect:
    action: str
    card: Node       # the card played
    by: Node         # who played it
    on: Node         # does its option effect apply
    from_seat: Node  # where play resumes when the turn ends


def racing_from(t: Words):
    """The seat play resumes from after a discard: in Mercy's race, as the
    race's readings say (``race_resume``); else the turn's."""
    return If(t.racing, t.d("race_resume", t.actor, t.resume), t.turn)


def effect_contexts(t: Words) -> list[Effect]:
    """The ways a card is played so that its option effect may act."""
    return [
        Effect("discard", t.param("discard"), t.actor,
               Or(Not(t.racing), t.d("race_effects")), racing_from(t)),
        Effect("answer", t.param("answer"), t.actor, TRUE, t.turn),
        Effect("reveal", t.top_card, t.dealer, TRUE, t.dealer),
    ]


def ring(t: Words):
    return t.ring(t.hand_of, t.aside)


def my_seat(t: Words):
    """The seat whose hand the player to act plays."""
    return t.hand_of[t.actor]


def opens(t: Words, e: Effect):
    """Does the card played in ``e`` open a phase of a card's own?"""
    return Or(*t.openings(e))


def skip(t: Words, e: Effect):
    """Does this card skip the next player (Unbelief; Repentance with two)?"""
    return And(e.on, Or(And(t.is_kind(e.card, "unbelief"), t.d("unbelief_skips")),
                        And(t.is_kind(e.card, "repentance"), t.d("repentance_skips"),
                            t.d("repentance_acts", t.first_passer))))


def race_on(t: Words):
    """After this move, Mercy's race still has a racer to discard (only under
    ``mercy.discards = every_racer``: the racers still to discard who can)."""
    field = t.d("race_field", hands=t.hands_, hand_of=t.hand_of_, passers=t.passers_,
                aside=t.aside_, by=t.resume, dir=t.dir_, pile=t.pile_, turn=t.turn, taken=t.taken)
    return And(t.d("race_continues"), Not((t.racers & field).is_empty()))


def owes_discard(t: Words):
    """After this move, the turn player still owes the turn's discard (a Justice
    answer under ``justice.answer = draw_only``)."""
    return And(t.d("answer_then_discard"), t.owes_discard_)


def held(t: Words):
    """The turn goes on after a move that would otherwise end it: the race has
    racers left, or the turn's own discard is still to come."""
    return Or(race_on(t), owes_discard(t))


def may_hold(t: Words):
    """Can a turn go on after a move that would otherwise end it (at all, under
    these readings)?  A duty set in such a turn outlasts the turn's end."""
    return Or(t.d("race_continues"), t.d("answer_then_discard"))


def raw_endings(t: Words):
    """(action, does it end what the move began, seat play resumes from, skip flag):
    a move that opens nothing more ends the turn unless the turn is held open
    (``endings``).  The effect contexts' rows come first, then the parts' own
    (``Part.endings``: a turn's end without a discard, a Pass, the last gift, a
    team's choice)."""
    out = []
    for e in effect_contexts(t):
        out.append((e.action, Not(opens(t, e)), e.from_seat, skip(t, e)))
    return out + t.ending_rows()


def endings(t: Words):
    """(action, does it end the turn, seat play resumes from, skip flag): a turn
    held open (Mercy's race with racers left, the turn's own discard still to
    come: ``held``) does not end."""
    hold = held(t)
    return [(a, And(ends, Not(hold)), f, s) for a, ends, f, s in raw_endings(t)]


def live_seats(t: Words, aside, passers, first_passer):
    """Seats that take turns: not set aside, not frozen (the first passer
    stays, since reaching them ends the round)."""
    return (t.ALLP - aside) - (passers - t.NONEP.plus(first_passer))


def next_seat(t: Words, from_seat):
    """The next seat in the next state's direction of play from ``from_seat``,
    among the seats that take turns then (and those seats)."""
    live = live_seats(t, t.aside_, t.passers_, t.first_passer_)
    return op("next_in", from_seat, t.dir_, live), live


def taken_by(t: Words, p, turn=None, taken=None):
    """The cards ``p`` took from the pile this turn: the turn player's taken
    cards, nothing for anyone else (a Mercy race winner drew nothing).  Who may
    win the race and what the winner may discard both read it, so they agree."""
    turn = t.turn if turn is None else turn
    taken = t.taken if taken is None else taken
    return If(p.eq(turn), taken, t.NONE)


def points_before(t: Words, hand, racing=None):
    """One more than the points a discard may not leave ``hand`` above (under
    ``discard.lower = constraint``), 0 if none is recorded: the turn player's
    points before the turn's first draw; in Mercy's race, where no draw came
    first, the racer's points before the discard.  Who may win the race
    (``racing=TRUE``) and what the winner may discard both read it, like
    ``taken_by``.  (0 is what a reading that keeps no record leaves: a story
    told under it then does not blame it on a record it never kept.)"""
    racing = t.racing if racing is None else racing
    return If(racing, t.cards_points(hand) + 1, t.before_draw)


def named_expressions(t: Words) -> list[tuple[Node, str]]:
    """The expressions of this module the rules share, as a rule's English names
    them (``Words.named_expressions``)."""
    out = [(live_seats(t, t.aside_, t.passers_, t.first_passer_),
            "the seats that take turns after this move"),
           (live_seats(t, t.aside, t.passers, t.first_passer), "the seats that take turns"),
           (racing_from(t), "the seat play goes on from after this discard"),
           (held(t), "the turn is held open"),
           (race_on(t), "Mercy's race has racers left"),
           (owes_discard(t), "the turn's own discard is still to come")]
    for e in effect_contexts(t):
        out += [(opens(t, e), "the card played opens a phase of its own"),
                (skip(t, e), "the card played skips the next player")]
    return out


__all__ = ["Effect", "named_expressions", "effect_contexts", "racing_from", "ring", "my_seat",
           "opens", "skip", "race_on", "owes_discard", "held", "may_hold", "raw_endings", "endings",
           "live_seats", "next_seat", "taken_by", "points_before"]
