"""Scoring: a hand's points and a seat's score at the end of a round (scoring.1,
options.1, pass.1).

A seat's score is the ``score`` definition (``SCORE``), composed of one
definition per choice point it depends on; every backend, checker and rule
that scores a player asks ``score_of``.
"""
from __future__ import annotations

from .. import ast as A
from ..ast import BOOL, CARDS, INT, PLAYER, PLAYERS, map_of, op
from ..lang import TRUE, And, Exists, ForAll, If, Not, Or, Part, define, num, rule, signature
from ..layout import DECK_OUT, ZERO
from .words import Words

#: A seat's score: the ``score`` definition (the scoring rules give its body),
#: over the state variables of ``SCORE_INPUTS`` (its parameters are named after
#: them) and then the player.
SCORE = signature("score", INT, hands=map_of(CARDS), hand_of=map_of(PLAYER), passers=PLAYERS,
                  ended=INT, charity_out=CARDS, player=PLAYER, says="the score of {player}")
SCORE_INPUTS = SCORE.names[:-1]

SIGNATURES = (
    signature("points_of", INT, hand=CARDS, held=CARDS, charity_out=CARDS,
              says="the points of {hand}"),
    SCORE,
    signature("seat_points", INT, hands=map_of(CARDS), hand_of=map_of(PLAYER),
              charity_out=CARDS, player=PLAYER, says="the points {player} totals"),
    signature("seat_scored", BOOL, hand_of=map_of(PLAYER), player=PLAYER,
              says="{player} is scored"),
    signature("pass_for", BOOL, hand_of=map_of(PLAYER), passers=PLAYERS, player=PLAYER,
              says="a Pass counts for {player}"),
    signature("pass_tested", BOOL, ended=INT,
              says="a Pass try counts in a round that ended as {ended}"),
    signature("pass_wins", BOOL, hands=map_of(CARDS), hand_of=map_of(PLAYER),
              charity_out=CARDS, player=PLAYER, says="the Pass try of {player} wins"),
    signature("pass_failed", INT, total=INT, says="what a failed Pass with {total} points scores"),
)


def score_of(p, primed=False):
    """Player ``p``'s score in the current state (the next one with ``primed``),
    as an expression: the ``score`` definition applied to the state variables
    it reads.  Every backend, checker and rule that scores a player asks this,
    so a reading that scores from more of the state changes ``SCORE`` here, and
    nothing that calls it."""
    var = A.Primed if primed else A.Var
    return SCORE(**{n: var(n, typ) for n, typ in SCORE.params[:-1]}, player=p)


def rules(t: Words):  # long on purpose: one rule record per reading, each read alone
    """A seat's score, composed of one definition per choice point it depends on,
    so each reading changes one part: which hand a seat totals (secret.score),
    whose Pass a seat may score -20 for (pass.team), whether the way the round
    stopped allows it (pass.zero), when the try wins (pass.score) and what a
    failed try scores (pass.fail).  ``out``: the Charities discarded this round
    (they act on every hand under charity.acts = discarded)."""
    def score(hands, hand_of, passers, ended, charity_out, player):
        hand = dict(hands=hands, hand_of=hand_of, charity_out=charity_out, player=player)
        base = t.d("seat_points", **hand)
        tried = And(t.d("pass_for", hand_of=hand_of, passers=passers, player=player),
                    t.d("pass_tested", ended))
        result = If(tried, If(t.d("pass_wins", **hand), num(-20),
                              t.d("pass_failed", base)), base)
        return If(t.d("seat_scored", hand_of, player), result, num(0))

    def wins(cmp):
        """The hand p plays against every other hand in play (a team's members
        play one hand: it is not compared with itself)."""
        def body(hands, hand_of, charity_out, player):
            own = t.points(hands, hand_of, player, charity_out)
            return ForAll(t.ALLP, lambda q: Or(hand_of[q].eq(hand_of[player]),
                                               cmp(own, t.points(hands, hand_of, q, charity_out))),
                          hint="q")
        return body

    in_play = lambda hands, hand_of, charity_out, player: t.points(hands, hand_of, player,
                                                                  charity_out)
    return [
        rule("scoring.points", ["scoring.1", "options.1"],
             "A hand's points: the cards' values, less what the Charities that act on it "
             "cancel.",
             define(t, "points_of", lambda hand, held, charity_out: op(
                 "tsum", hand - t.d("cancelled", hand, t.d(
                     "charity_acting", hand=hand, held=held, charity_out=charity_out)),
                 t.VALUES))),
        rule("scoring.score", ["scoring.1", "pass.1"],
             "Each player totals the points of their hand; a passer whose try counts "
             "scores -20 if it wins, else what a failed Pass scores.",
             define(t, "score", score)),
        rule("pass.score.lowest_or_total", ["pass.1", "scoring.1"],
             "The passer's try wins if no hand in play is lower (ties count).",
             define(t, "pass_wins", wins(lambda own, x: own <= x)),
             choice="pass.score", reading="lowest_or_total"),
        rule("pass.score.strictly_lowest", ["pass.1", "scoring.1"],
             "The passer's try wins only if every other hand in play is higher.",
             define(t, "pass_wins", wins(lambda own, x: own < x)),
             choice="pass.score", reading="strictly_lowest"),
        rule("pass.score.always", ["pass.1", "scoring.1"],
             "The passer's try always wins: -20.",
             define(t, "pass_wins", lambda hands, hand_of, charity_out, player: TRUE),
             choice="pass.score", reading="always"),
        rule("pass.fail.total", ["pass.1", "scoring.1"],
             "A Pass that fails scores the hand's total, like any player.",
             define(t, "pass_failed", lambda total: total),
             choice="pass.fail", reading="total"),
        rule("pass.fail.penalty", ["pass.1", "scoring.1"],
             "A Pass that fails scores the hand's total plus 20.",
             define(t, "pass_failed", lambda total: total + 20),
             choice="pass.fail", reading="penalty"),
        rule("pass.team.seat", ["pass.1", "secret.2"],
             "Only the seat that said Pass may score -20; its teammates total their hand.",
             define(t, "pass_for", lambda hand_of, passers, player: player.in_(passers)),
             choice="pass.team", reading="seat"),
        rule("pass.team.team", ["pass.1", "secret.2"],
             "A Pass said by any member of a team counts for every member.",
             define(t, "pass_for", lambda hand_of, passers, player: Exists(
                 passers, lambda q: hand_of[q].eq(hand_of[player]), hint="q")),
             choice="pass.team", reading="team"),
        rule("pass.zero.any_end", ["pass.1", "pass.4", "pass.5"],
             "The passer's try counts however the round stops.",
             define(t, "pass_tested", lambda ended: TRUE),
             choice="pass.zero", reading="any_end"),
        rule("pass.zero.reached_only", ["pass.1", "pass.4", "pass.5"],
             "The passer's try counts only when the round stops by reaching the passer: "
             "a round stopped on zero (or by an exhausted deck) gives no -20.",
             define(t, "pass_tested", lambda ended: Not(Or(ended.eq(ZERO),
                                                           ended.eq(DECK_OUT)))),
             choice="pass.zero", reading="reached_only"),
        rule("secret.score.kept_hand", ["scoring.1", "secret.2"],
             "Every member of a team totals the kept hand (the hand they play).",
             define(t, "seat_points", in_play),
             define(t, "seat_scored", lambda hand_of, player: TRUE),
             choice="secret.score", reading="kept_hand"),
        rule("secret.score.own_hand", ["scoring.1", "secret.2", "secret.3"],
             "Each player totals the cards at their own seat: a set-aside hand is its "
             "owner's score.",
             define(t, "seat_points", lambda hands, hand_of, charity_out, player: t.hand_points(
                 hands, hand_of, player, charity_out)),
             define(t, "seat_scored", lambda hand_of, player: TRUE),
             choice="secret.score", reading="own_hand"),
        rule("secret.score.once", ["scoring.1", "secret.2", "secret.3"],
             "A team is scored once, at the seat whose hand was kept; a member whose "
             "hand was set aside scores 0.",
             define(t, "seat_points", in_play),
             define(t, "seat_scored", lambda hand_of, player: hand_of[player].eq(player)),
             choice="secret.score", reading="once"),
    ]


PART = Part("scoring", signatures=SIGNATURES, rules=rules)
