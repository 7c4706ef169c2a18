"""Pride Cycle (20 pts.): "When a player discards a Pride Cycle card, all players
give any card from their hand to the player next to them in the direction of
play.  (A player who has said "Pass" is not included.)" (pride.1, pride.2).

The gifts are a phase of their own (PRIDE): each included player in turn
chooses a card (``give``, or ``give_nothing`` with an empty hand).  Whether the
cards move together or one after another is pride.timing; what "not included"
does to a passer is pride.passer.
"""
from __future__ import annotations

from ..ast import CARD, INT, PLAYER, PLAYERS, map_of, op
from ..lang import (
    FALSE,
    ActionDecl,
    And,
    Guard,
    If,
    MapOf,
    Not,
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
from ..layout import PRIDE
from . import flow
from .priorities import Priority
from .words import Words

VARIABLES = (
    StateVar("pride_left", PLAYERS, "Pride Cycle givers still to choose",
             says="the Pride Cycle givers still to choose"),
    StateVar("gifts", map_of(CARD), "cards chosen for Pride Cycle, not yet handed over",
             says="the card {} chose to give"),
)

SIGNATURES = (
    signature("pride_givers", PLAYERS, ring=PLAYERS, passers=PLAYERS, dir=INT,
              says="the Pride Cycle givers among {ring}"),
    signature("pride_to", PLAYER, giver=PLAYER, ring=PLAYERS, passers=PLAYERS, dir=INT,
              says="the player {giver} gives to"),
)


def phases(t: Words):
    return (Phase("PRIDE", PRIDE, t.actor, "a Pride Cycle giver chooses a card", effect=True),)


def actions(t: Words):
    my = t.hands[flow.my_seat(t)]
    return (
        ActionDecl("give", "PRIDE", (ParamDecl("c", CARD, my, says="the card given"),),
                   "give a card (Pride Cycle)", says="a giver chooses a card to give"),
        ActionDecl("give_nothing", "PRIDE", (), "a giver with an empty hand gives nothing",
                   says="a giver with an empty hand gives nothing"),
    )


def initial(t: Words):
    return {"pride_left": t.NONEP, "gifts": MapOf(t.ALLP, lambda p: t.NOCARD)}


def endings(t: Words):
    """The last giver's choice ends the gifts; play resumes where it was to."""
    return [
        ("give", t.pride_left_.is_empty(), t.resume, FALSE),
        ("give_nothing", t.pride_left_.is_empty(), t.resume, FALSE),
    ]


def givers(t: Words):
    """Who gives, as pride.passer says."""
    return t.d("pride_givers", ring=flow.ring(t), passers=t.passers, dir=t.dir)


def opens(t: Words, e: flow.Effect):
    """A Pride Cycle played in ``e`` opens the gifts if anyone gives."""
    return And(e.on, t.is_kind(e.card, "pride_cycle"), Not(givers(t).is_empty()))


def rules(t: Words):  # long on purpose: one rule record per reading, each read alone
    frags = []
    givers_now = givers(t)
    for e in flow.effect_contexts(t):
        when = opens(t, e)
        first = op("next_in", op("step", e.by, num(0) - t.dir), t.dir, givers_now)
        frags += [Update((e.action,), "phase", num(PRIDE), when=when, priority=Priority.OPENS_PRIDE),
                  Update((e.action,), "pride_left", givers_now, when=when),
                  Update((e.action,), "actor", first, when=when, priority=Priority.OPENS_PRIDE),
                  Update((e.action,), "resume", e.from_seat, when=when, priority=Priority.PRIDE_RESUME)]
    gc = t.param("give")
    giver_seat = t.hand_of[t.actor]
    left = t.pride_left.minus(t.actor)
    done = left.is_empty()
    ring = flow.ring(t)
    to = t.d("pride_to", giver=t.actor, ring=ring, passers=t.passers, dir=t.dir)
    order = [Update(("give", "give_nothing"), "pride_left", left),
             Update(("give", "give_nothing"), "actor", op("next_in", t.actor, t.dir, left),
                    when=Not(done), priority=Priority.OVERRIDE)]
    removed = t.hands.put(giver_seat, t.hands[giver_seat].minus(gc))
    gifts_after = t.gifts.put(t.actor, gc)

    def delivered(hands, gifts):
        """Every chosen card leaves its giver's hand and reaches its receiver's,
        all at once: until then no hand has changed."""
        def body(r):
            got = hands[r]
            for g in range(t.n):
                G = t.player_const(g)
                gift = t.NONE.plus(gifts[G])
                got = got - If(t.hand_of[G].eq(r), gift, t.NONE)
            for g in range(t.n):
                G = t.player_const(g)
                dest = t.hand_of[t.d("pride_to", giver=G, ring=ring, passers=t.passers,
                                     dir=t.dir)]
                got = got | If(dest.eq(r), t.NONE.plus(gifts[G]), t.NONE)
            return got
        return MapOf(t.ALLP, body, hint="r")

    no_gifts = MapOf(t.ALLP, lambda p: t.NOCARD)
    return [
        rule("pride.open", ["pride.1", "pride.2"],
             "Discarding a Pride Cycle makes every included player give a card.", *frags),
        rule("pride.empty_hand", ["pride.1"],
             "A giver with an empty hand gives nothing.",
             Guard(("give_nothing",), t.hands[giver_seat].is_empty())),
        rule("pride.passer.gives_not_receives", ["pride.2"],
             "The passer gives nothing but still receives.",
             define(t, "pride_givers", lambda ring, passers, dir: ring - passers),
             define(t, "pride_to", lambda giver, ring, passers, dir: op("next_in", giver, dir, ring)),
             choice="pride.passer", reading="gives_not_receives"),
        rule("pride.passer.skipped", ["pride.2"],
             "The passer neither gives nor receives: the player before gives past them.",
             define(t, "pride_givers", lambda ring, passers, dir: ring - passers),
             define(t, "pride_to", lambda giver, ring, passers, dir: op(
                 "next_in", giver, dir, ring - passers)),
             choice="pride.passer", reading="skipped"),
        rule("pride.passer.before_keeps", ["pride.2"],
             "The passer gives nothing, and the player before the passer keeps their card.",
             define(t, "pride_givers", lambda ring, passers, dir: SetOf(
                 ring - passers, lambda p: Not(op("next_in", p, dir, ring).in_(passers)),
                 hint="g")),
             define(t, "pride_to", lambda giver, ring, passers, dir: op("next_in", giver, dir, ring)),
             choice="pride.passer", reading="before_keeps"),
        rule("pride.timing.simultaneous", ["pride.1"],
             "Everyone chooses a card first; then all cards move at once (no hand "
             "changes until they do).",
             *order,
             Update(("give",), "hands", delivered(t.hands, gifts_after), when=done),
             Update(("give",), "gifts", If(done, no_gifts, gifts_after)),
             Update(("give_nothing",), "hands", delivered(t.hands, t.gifts), when=done),
             Update(("give_nothing",), "gifts", no_gifts, when=done),
             choice="pride.timing", reading="simultaneous"),
        rule("pride.timing.in_turn", ["pride.1"],
             "Givers give one after another, so a card received may be passed on.",
             *order,
             Update(("give",), "hands", removed.put(
                 t.hand_of[to], removed[t.hand_of[to]].plus(gc))),
             choice="pride.timing", reading="in_turn"),
    ]


PART = Part("pride", VARIABLES, SIGNATURES, phases=phases, actions=actions, initial=initial,
            endings=endings, opens=opens, rules=rules)
