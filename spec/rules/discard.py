"""The discard: which card may go on the pile, and a turn with no legal discard
(play.2, desolation.1).

"Discard any card from their hand to lower their points" leaves three gaps: a
card just taken from the pile (turn.take_back), whether "to lower their points"
binds (discard.lower), and a hand with no card that may go (discard.none).
"""
from __future__ import annotations

from ..ast import BOOL, CARD, CARDS, INT, PILE, op
from ..lang import (
    FALSE,
    TRUE,
    ActionDecl,
    And,
    Exists,
    Guard,
    Not,
    Or,
    ParamDecl,
    Part,
    Phase,
    StateVar,
    Update,
    define,
    num,
    rule,
    signature,
)
from ..layout import DISCARD
from . import flow
from .words import Words

VARIABLES = (
    StateVar("before_draw", INT, "one more than the turn player's points before this turn's "
             "first draw; 0: none recorded (always, unless discard.lower = constraint)",
             bounds=(0, 2047), record=True,
             says="one more than the turn player's points before the first draw"),
)

SIGNATURES = (
    signature("take_back_ok", BOOL, card=CARD, taken=CARDS,
              says="the take-back rule allows {card} (taken from the pile: {taken})"),
    signature("lowers_ok", BOOL, card=CARD, hand=CARDS, limit=INT,
              says="discarding {card} from {hand} lowers the points enough (below {limit})"),
    signature("can_discard", BOOL, card=CARD, hand=CARDS, pile=PILE, taken=CARDS,
              limit=INT, racing=BOOL, says="{card} may be discarded from {hand}"),
    signature("discard_ok", BOOL, card=CARD, hand=CARDS, pile=PILE, taken=CARDS,
              limit=INT, racing=BOOL,
              says="{card} is a legal discard from {hand} (a hand with no legal discard "
                   "included)"),
)


def phases(t: Words):
    return (Phase("DISCARD", DISCARD, t.actor, "the turn player (or a race winner) discards"),)


def actions(t: Words):
    my = t.hands[flow.my_seat(t)]
    return (
        ActionDecl("discard", "DISCARD", (ParamDecl("c", CARD, my, says="the card discarded"),),
                   "discard a card", says="a player discards a card"),
        ActionDecl("skip_discard", "DISCARD", (), "end the turn without a discard",
                   says="a player ends the turn without a discard"),
    )


def initial(t: Words):
    return {"before_draw": num(0)}


def endings(t: Words):
    return [("skip_discard", TRUE, flow.racing_from(t), FALSE)]


def rules(t: Words):
    seat = flow.my_seat(t)
    dc = t.param("discard")
    ac = t.param("answer")
    hand = t.hands[seat]
    mine = flow.taken_by(t, t.actor)
    limit = flow.points_before(t, hand)
    any_ok = Exists(hand, lambda x: t.d("can_discard", card=x, hand=hand, pile=t.pile,
                                        taken=mine, limit=limit, racing=t.racing),
                    hint="d")
    first_draw = [Update((a,), "before_draw", t.cards_points(hand) + 1, when=Not(t.drew))
                  for a in ("draw_pile", "deck_card")]
    return [
        rule("play.discard", ["play.2"],
             "Discard a card from the hand onto the pile.",
             Guard(("discard",), t.d("discard_ok", card=dc, hand=hand, pile=t.pile, taken=mine,
                                     limit=limit, racing=t.racing)),
             Update(("discard",), "hands", t.hands.put(seat, hand.minus(dc))),
             Update(("discard",), "pile", op("push", t.pile, dc)),
             Update(("answer",), "hands", t.hands.put(seat, hand.minus(ac))),
             Update(("answer",), "pile", op("push", t.pile, ac))),
        rule("play.can_discard", ["play.2", "desolation.1"],
             "A card may be discarded when Desolation's rule (in Mercy's race as "
             "mercy.desolation says), the take-back rule and the reading of \"to lower "
             "their points\" allow it.",
             define(t, "can_discard", lambda card, hand, pile, taken, limit, racing: And(
                 Or(Not(t.d("desolation_binds", racing)), t.d("desolation_ok", card, pile)),
                 t.d("take_back_ok", card, taken),
                 t.d("lowers_ok", card=card, hand=hand, limit=limit)))),
        rule("turn.take_back.allowed", ["play.2"],
             "\"Any card\": a card taken from the pile may be discarded again.",
             define(t, "take_back_ok", lambda card, taken: TRUE),
             choice="turn.take_back", reading="allowed"),
        rule("turn.take_back.not_allowed", ["play.2"],
             "No card taken from the pile this turn may be discarded this turn.",
             define(t, "take_back_ok", lambda card, taken: Not(card.in_(taken))),
             choice="turn.take_back", reading="not_allowed"),
        rule("discard.lower.purpose", ["play.2"],
             "\"To lower their points\" says why a player discards: any card may be "
             "discarded.",
             define(t, "lowers_ok", lambda card, hand, limit: TRUE),
             choice="discard.lower", reading="purpose"),
        rule("discard.lower.constraint", ["play.2"],
             "A discard may not leave the hand's points higher than they were before the "
             "turn's first draw (in Mercy's race, than before the discard).",
             define(t, "lowers_ok", lambda card, hand, limit: Or(
                 limit.eq(0), t.cards_points(hand.minus(card)) < limit)),
             *first_draw,
             Update(("discard", "skip_discard"), "before_draw", num(0)),
             choice="discard.lower", reading="constraint"),
        rule("discard.none.stuck", ["play.2"],
             "The text says nothing: with no legal discard there is no move.",
             Guard(("skip_discard",), FALSE),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: t.d(
                 "can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                 racing=racing)),
             choice="discard.none", reading="stuck"),
        rule("discard.none.any_card", ["play.2"],
             "With no legal discard, any card may be discarded.",
             Guard(("skip_discard",), FALSE),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: Or(
                 t.d("can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                     racing=racing),
                 Not(Exists(hand, lambda x: t.d("can_discard", card=x, hand=hand, pile=pile,
                                                taken=taken, limit=limit, racing=racing),
                            hint="d")))),
             choice="discard.none", reading="any_card"),
        rule("discard.none.skip_discard", ["play.2"],
             "With no legal discard, the turn ends without one.",
             Guard(("skip_discard",), Not(any_ok)),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: t.d(
                 "can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                 racing=racing)),
             choice="discard.none", reading="skip_discard"),
        rule("discard.none.any_untaken", ["play.2"],
             "With no legal discard, any card may be discarded but one taken from the pile "
             "this turn (the take-back rule still holds), unless every card in the hand was.",
             Guard(("skip_discard",), FALSE),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: Or(
                 t.d("can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                     racing=racing),
                 And(Not(Exists(hand, lambda x: t.d("can_discard", card=x, hand=hand, pile=pile,
                                                    taken=taken, limit=limit, racing=racing),
                                hint="d")),
                     Or(t.d("take_back_ok", card, taken), op("subset", hand, taken))))),
             choice="discard.none", reading="any_untaken"),
    ]


PART = Part("discard", VARIABLES, SIGNATURES, phases=phases, actions=actions, initial=initial,
            endings=endings, rules=rules)
