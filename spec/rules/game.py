"""The game of several rounds: totals, the rotating dealer, the end of the game
(object.1)."""
from __future__ import annotations

from ..ast import BOOL, INT, map_of, op
from ..lang import (
    ActionDecl,
    Exists,
    MapOf,
    Part,
    Phase,
    StateVar,
    Update,
    define,
    num,
    rule,
    signature,
)
from ..layout import DEAL, GAME_OVER
from .priorities import Priority
from .scoring import score_of
from .words import Words

VARIABLES = (
    StateVar("totals", map_of(INT), "each player's running total", scope="game",
             bounds=(-4096, 65535), says="the running total of {}"),
    StateVar("round_no", INT, "rounds completed", scope="game", bounds=(0, 255),
             says="the rounds completed"),
)

SIGNATURES = (signature("game_done", BOOL, totals=map_of(INT), round_no=INT,
                        says="the game is over"),)

#: round variables a new round does not start afresh: next_round sets them itself
SET_BY_NEXT_ROUND = ("phase", "dealer")


def phases(t: Words):
    return (Phase("GAME_OVER", GAME_OVER, None, "the game is over", terminal=True, scope="game"),)


def actions(t: Words):
    return (ActionDecl("next_round", "OVER", (), "total the scores and start the next round",
                       scope="game", says="the scores are totalled and the next round begins"),)


def initial(t: Words):
    return {"totals": MapOf(t.ALLP, lambda p: num(0)), "round_no": num(0)}


def round_reset(t: Words) -> tuple[str, ...]:
    """The round variables a new round starts afresh: all but the phase and the
    dealer, in the state's order."""
    return tuple(v.name for v in t.variables
                 if v.scope == "round" and v.name not in SET_BY_NEXT_ROUND)


def rules(t: Words):
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
             *[Update(("next_round",), v, t.initial[v]) for v in round_reset(t)],
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


PART = Part("game", VARIABLES, SIGNATURES, phases=phases, actions=actions, initial=initial,
            rules=rules)
