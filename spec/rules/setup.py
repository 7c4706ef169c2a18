"""Setup: the deal, the first player, and what the face-up first card and a hand
dealt worth zero do (setup.1, setup.2).

It declares the table as the deal leaves it: the phase, whose turn it is and
who acts, the direction of play, the hands, the deck, the pile and the dealer.
"""
from __future__ import annotations

from .. import ast as A
from ..ast import CARD, CARDS, INT, PILE, PLAYER, map_of, op
from ..lang import ActionDecl, If, MapOf, ParamDecl, Part, Phase, StateVar, Update, num, player, rule
from ..layout import DEAL, DRAW, PHASE_NAMES, REVEAL, ZERO
from .priorities import Priority
from .words import Words

VARIABLES = (
    StateVar("phase", INT, "what kind of move comes next (DEAL, DRAW, ...)", bounds=(0, 15),
             says="the phase", names=PHASE_NAMES),
    StateVar("turn", PLAYER, "whose turn it is in the rotation", says="the turn player"),
    StateVar("actor", PLAYER, "who must choose now (the turn player, a race winner, a giver)",
             says="the player to act"),
    StateVar("dir", INT, "direction of play: +1 to the left, -1 to the right", bounds=(-1, 1),
             says="the direction of play"),
    StateVar("hands", map_of(CARDS), "the cards held at each seat", says="the hand of {}"),
    StateVar("deck", CARDS, "the face-down deck (unordered: drawing is chance)",
             says="the deck"),
    StateVar("pile", PILE, "the discard pile, top card last", says="the discard pile"),
    StateVar("dealer", PLAYER, "the dealer of this round", says="the dealer"),
)


def phases(t: Words):
    return (
        Phase("DEAL", DEAL, None, "the dealer deals (chance)"),
        Phase("REVEAL", REVEAL, t.actor,
              "the face-up first card takes effect as if the dealer discarded it"),
    )


def actions(t: Words):
    deal_params, dealt = [], t.NONE
    for p in range(t.n):
        prm = ParamDecl(f"h{p}", CARDS, t.deck - dealt, chooser="chance", size=t.cfg.hand,
                        says=f"the hand dealt to P{p}")
        deal_params.append(prm)
        dealt = dealt | prm.ref
    deal_params.append(ParamDecl("up", CARD, t.deck - dealt, chooser="chance",
                                  says="the card turned face up"))
    return (
        ActionDecl("deal", "DEAL", tuple(deal_params), "deal the hands and the face-up card",
                   says="the dealer deals"),
        ActionDecl("reveal", "REVEAL", (), "the first face-up card takes effect",
                   says="the face-up first card takes effect"),
    )


def initial(t: Words):
    return {"phase": num(DEAL), "turn": t.NOBODY, "actor": t.NOBODY, "dir": num(1),
            "hands": MapOf(t.ALLP, lambda p: t.NONE), "deck": t.ALL,
            "pile": A.Const((), PILE), "dealer": player(0)}


def rules(t: Words):
    h = [t.param("deal", f"h{i}") for i in range(t.n)]
    up = t.param("deal", "up")
    dealt = t.NONE
    for x in h:
        dealt = dealt | x

    def hand_for(p):
        v = h[-1]
        for i in range(t.n - 2, -1, -1):
            v = If(p.eq(i), h[i], v)
        return v

    first = op("step", t.dealer, num(1))
    return [
        rule("setup.deal", ["setup.1"],
             "Deal a hand to each player from the deck and turn the next card face up.",
             Update(("deal",), "hands", MapOf(t.ALLP, hand_for)),
             Update(("deal",), "deck", (t.deck - dealt).minus(up)),
             Update(("deal",), "pile", op("pile_of", up))),
        rule("setup.first_player", ["setup.2"],
             "The player to the left of the dealer begins; play goes to the left.",
             Update(("deal",), "turn", first),
             Update(("deal",), "actor", first),
             Update(("deal",), "dir", num(1)),
             Update(("deal",), "phase", num(DRAW))),
        rule("setup.first_card.no_effect", ["setup.1"],
             "The face-up first card is only the start of the pile.",
             choice="setup.first_card", reading="no_effect"),
        rule("setup.first_card.applies", ["setup.1"],
             "An option card turned up first acts as if the dealer had discarded it.",
             Update(("deal",), "phase", num(REVEAL), when=up.in_(t.OPTIONS), priority=Priority.OVERRIDE),
             Update(("deal",), "actor", t.dealer, when=up.in_(t.OPTIONS), priority=Priority.OVERRIDE),
             choice="setup.first_card", reading="applies"),
        rule("setup.zero_deal.ends_at_once", ["setup.1", "pass.5"],
             "A hand dealt worth zero ends the round at once.",
             Update(("deal",), "ended", num(ZERO),
                    when=t.any_zero(t.hands_, t.hand_of_, t.charity_out_), priority=Priority.ENDS_ON_ZERO),
             choice="setup.zero_deal", reading="ends_at_once"),
        rule("setup.zero_deal.after_actions", ["setup.1", "pass.5"],
             "Zero is only checked after a player's action, not at the deal.",
             choice="setup.zero_deal", reading="after_actions"),
    ]


PART = Part("setup", VARIABLES, phases=phases, actions=actions, initial=initial, rules=rules)
