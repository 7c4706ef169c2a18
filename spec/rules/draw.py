"""The draw: the top card of the discard pile, or the deck's, and an empty deck
(play.1).

It declares what a turn remembers of its draws: the cards taken from the pile,
whether the player has drawn, and the draws still owed (a Justice duty adds
one).
"""
from __future__ import annotations

from ..ast import BOOL, CARD, CARDS, INT, op
from ..lang import (
    FALSE,
    TRUE,
    ActionDecl,
    Guard,
    If,
    Not,
    Or,
    ParamDecl,
    Part,
    Phase,
    StateVar,
    Update,
    num,
    rule,
)
from ..layout import DECK, DECK_OUT, DISCARD, DRAW
from .flow import my_seat
from .priorities import Priority
from .words import Words

VARIABLES = (
    StateVar("taken", CARDS, "the cards taken from the discard pile this turn", record=True,
             says="the cards taken from the pile this turn"),
    StateVar("drew", BOOL, "the player whose turn it is has drawn this turn", record=True,
             says="the turn player has drawn this turn"),
    StateVar("owed", INT, "draws still owed this turn before discarding", bounds=(0, 31),
             says="the draws still owed this turn"),
)


def phases(t: Words):
    return (
        Phase("DRAW", DRAW, t.actor, "the turn player draws, passes or meets a duty"),
        Phase("DECK", DECK, None, "the top card of the deck is revealed (chance)"),
    )


def actions(t: Words):
    return (
        ActionDecl("draw_pile", "DRAW", (), "take the top card of the discard pile",
                   says="a player takes the top card of the discard pile"),
        ActionDecl("draw_deck", "DRAW", (), "draw from the deck", says="a player draws from the deck"),
        ActionDecl("deck_card", "DECK", (ParamDecl("c", CARD, t.deck, "chance",
                                                   says="the card drawn"),),
                   "the card drawn from the deck", says="chance turns up the card drawn"),
    )


def initial(t: Words):
    return {"taken": t.NONE, "drew": FALSE, "owed": num(1)}


def rules(t: Words):
    seat = my_seat(t)
    top = t.top_card
    c = t.param("deck_card")
    after_draw = If(t.owed_ > 0, num(DRAW), num(DISCARD))
    return [
        rule("play.draw_pile", ["play.1"],
             "Take the top card of the discard pile.",
             Guard(("draw_pile",), Not(op("pile_len", t.pile).eq(0))),
             Update(("draw_pile",), "hands", t.hands.put(seat, t.hands[seat].plus(top))),
             Update(("draw_pile",), "pile", op("pop", t.pile)),
             Update(("draw_pile",), "taken", t.taken.plus(top)),
             Update(("draw_pile",), "drew", TRUE),
             Update(("draw_pile",), "owed", t.owed - 1),
             Update(("draw_pile",), "phase", after_draw)),
        rule("play.draw_deck", ["play.1"],
             "Draw the top card of the deck: which card it is, is chance.",
             Update(("draw_deck",), "phase", num(DECK))),
        rule("play.deck_card", ["play.1"],
             "The card drawn from the deck goes to the drawer's hand.",
             Update(("deck_card",), "hands", t.hands.put(seat, t.hands[seat].plus(c))),
             Update(("deck_card",), "deck", t.deck.minus(c)),
             Update(("deck_card",), "drew", TRUE),
             Update(("deck_card",), "owed", t.owed - 1),
             Update(("deck_card",), "phase", after_draw)),
        rule("deck.exhausted.nothing", ["play.1"],
             "An empty deck cannot be drawn from; only the discard pile can.",
             Guard(("draw_deck",), Not(t.deck.is_empty())),
             choice="deck.exhausted", reading="nothing"),
        rule("deck.exhausted.reshuffle", ["play.1"],
             "An empty deck is replaced by the discard pile under its top card.",
             Guard(("draw_deck",), Or(Not(t.deck.is_empty()), op("pile_len", t.pile) > 1)),
             Update(("draw_deck",), "deck", op("pile_cards", op("pop", t.pile)),
                    when=t.deck.is_empty()),
             Update(("draw_deck",), "pile", op("pile_of", top), when=t.deck.is_empty()),
             choice="deck.exhausted", reading="reshuffle"),
        rule("deck.exhausted.round_ends", ["play.1"],
             "Drawing from the empty deck ends the round.",
             Update(("draw_deck",), "ended", num(DECK_OUT), when=t.deck.is_empty(),
                    priority=Priority.ENDS_ON_DECK),
             choice="deck.exhausted", reading="round_ends"),
    ]


PART = Part("draw", VARIABLES, phases=phases, actions=actions, initial=initial, rules=rules)
