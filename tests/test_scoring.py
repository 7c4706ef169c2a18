"""Scoring: the readings that decide a seat's score, and the one place every
backend and the game's totals take it from (``score_of``).

Two finished rounds of the library are rescored under each combination of the
scoring readings, by the generated engine and the reference evaluator, and the
game scope's ``next_round`` adds exactly those scores to the totals."""
from __future__ import annotations

from pathlib import Path

import pytest

from itcp.model.engine.engine import Game
from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay
from itcp.spec.rules.vocabulary import ZERO

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"


def final(name):
    """The scenario's readings and its last state (the round is over)."""
    sc = load_scenario(LIBRARY / name)
    res = replay(sc)
    assert res.ok, res.message
    return sc, res.states[-1]


def scores(sc, s, backend="generated", **readings):
    """The scores of ``s`` with the scenario's readings, changed by ``readings``
    (keys with ``_`` for ``.``)."""
    r = dict(sc.readings) | {k.replace("_", ".", 1): v for k, v in readings.items()}
    game = Game.make(sc.game.config, r, backend=backend)
    return list(game.scores(s))


def with_ended(sc, s, ended):
    i = [v.name for v in sc.game.spec.variables].index("ended")
    return s[:i] + (ended,) + s[i + 1:]


# P0 and P1 are one team playing P0's red 2 from P0's seat (P1's Desolation set
# aside); P0 said Pass and play reached P0.
TEAM_CASES = [
    ("kept_hand", "seat", [-20, 2]),
    ("kept_hand", "team", [-20, -20]),
    ("own_hand", "seat", [-20, 25]),    # P1 totals the set-aside Desolation
    ("own_hand", "team", [-20, -20]),
    ("once", "seat", [-20, 0]),         # the team scored once, at P0's seat
    ("once", "team", [-20, 0]),         # P1 holds no hand: nothing, not -20
]


@pytest.mark.parametrize("backend", ["generated", "reference"])
@pytest.mark.parametrize("secret,team,want", TEAM_CASES)
def test_team_scores(secret, team, want, backend):
    sc, s = final("reading-secret-score-once.toml")
    assert scores(sc, s, backend, secret_score=secret, pass_team=team) == want


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_a_round_stopped_on_zero_and_the_passer(backend):
    """Stopped on zero, the passer's try counts under any_end only; a try that is
    not judged has not failed, so it costs no penalty."""
    sc, s = final("reading-secret-score-once.toml")
    z = with_ended(sc, s, ZERO)
    assert scores(sc, z, backend, pass_zero="any_end") == [-20, 2]
    assert scores(sc, z, backend, pass_zero="reached_only") == [2, 2]
    sc, s = final("reading-pass-fail.toml")  # P1 passed on 3, P0 ended on 2
    assert scores(sc, s, backend) == [2, 3]
    assert scores(sc, s, backend, pass_fail="penalty") == [2, 23]
    z = with_ended(sc, s, ZERO)
    assert scores(sc, z, backend, pass_fail="penalty") == [2, 23]
    assert scores(sc, z, backend, pass_fail="penalty", pass_zero="reached_only") == [2, 3]


@pytest.mark.parametrize("secret", ["kept_hand", "own_hand", "once"])
def test_next_round_adds_exactly_the_scores(secret):
    """The game's totals score through the same definition as the round."""
    sc, s = final("reading-secret-score-once.toml")
    readings = dict(sc.readings) | {"secret.score": secret, "pass.fail": "penalty"}
    round_game = Game.make(sc.game.config, readings)
    game = Game.make(sc.game.config, readings, scope="game")
    names = [v.name for v in game.spec.variables]
    g = s + tuple(game.get(game.initial_state(), v) for v in names[len(s):])
    (_, after), = game.successors(g)
    assert list(game.get(after, "totals")) == list(round_game.scores(s))
