"""The game of several rounds: totals, the rotating dealer, the end of the game."""
from __future__ import annotations

from ..ast import op
from ..lang import Exists, MapOf, Update, define, num, rule
from .priorities import Priority
from .vocabulary import DEAL, GAME_OVER, Vocabulary, score_of

#: Round variables a new round starts afresh (everything but the game's own).
ROUND_RESET = ("turn", "actor", "dir", "hands", "deck", "pile", "passers", "first_passer",
               "since_pass", "had_turn", "taken", "drew", "owed", "duty", "duty_on", "racing",
               "racers", "owes_discard", "duty_fresh", "resume", "pride_left", "gifts",
               "partner", "hand_of", "aside", "charity_out", "ended", "before_draw")


def rules(t: Vocabulary):
    totals = MapOf(t.ALLP, lambda p: t.totals[p] + score_of(p), hint="p")
    done = t.d("game_done", t.totals_, t.round_no_)
    return [
        rule("game.next_round", ["object.1", "scoring.1", "setup.2"],
             "At the end of a round each player's score is added to their total; the deal "
             "passes to the left and a new round begins unless the game is over.",
             Update(("next_round",), "totals", totals),
             Update(("next_round",), "round_no", t.round_no + 1),
             Update(("next_round",), "dealer", op("step", t.dealer, num(1))),
             Update(("next_round",), "phase", num(DEAL)),
             Update(("next_round",), "phase", num(GAME_OVER), when=done, priority=Priority.OVERRIDE),
             *[Update(("next_round",), v, t.initial[v]) for v in ROUND_RESET],
             scope="game"),
        rule("game.end.rounds", ["object.1"],
             "The game ends after one round per player (each deals once).",
             define(t, "game_done", lambda totals, round_no: round_no >= t.cfg.game_rounds),
             choice="game.end", reading="rounds", scope="game"),
        rule("game.end.threshold", ["object.1"],
             "The game ends when a player's total passes the threshold.",
             define(t, "game_done", lambda totals, round_no: Exists(
                 t.ALLP, lambda p: totals[p] > t.cfg.threshold, hint="p")),
             choice="game.end", reading="threshold", scope="game"),
    ]
