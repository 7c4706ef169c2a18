"""Random playouts (model/engine/simulate.py): every table size, every ending, deterministic."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from itcp.model.engine.engine import Game
from itcp.model.engine.simulate import ENDINGS, play_round, simulate
from itcp.spec.variants import FULL_DECK_OVERRIDES, load_variant


def official_game(players: int) -> Game:
    v = load_variant("official", dict(FULL_DECK_OVERRIDES, players=players))
    return Game.from_variant(v)


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("seconds", "steps_per_second")}


def check_report(report: dict, rounds: int):
    assert report["rounds"] == rounds
    assert set(ENDINGS) <= set(report["endings"])
    assert sum(report["endings"].values()) == rounds
    assert report["steps"] >= 0 and report["seconds"] >= 0
    assert report["mean_round_length"] == pytest.approx(report["steps"] / max(rounds, 1),
                                                        abs=1e-3)
    assert len(report["stuck_examples"]) <= min(report["endings"]["stuck"], 3)
    assert len(report["step_cap_examples"]) <= min(report["endings"]["step cap"], 3)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_official_full_deck(players):
    game = official_game(players)
    report = simulate(game, 200, seed=players)
    check_report(report, 200)
    assert report["config"]["players"] == players
    assert report["steps"] > 0 and report["steps_per_second"] > 0
    assert report["rule_firings"]
    # every rule id that fired is a rule of this variant
    rule_ids = {r.id for r in game.spec.rules}
    assert set(report["rule_firings"]) <= rule_ids
    # a rule counts at most once per step
    assert max(report["rule_firings"].values()) <= report["steps"]
    # deterministic for a seed (a shorter run keeps the test fast)
    a = simulate(game, 20, seed=11)
    b = simulate(game, 20, seed=11)
    assert without_timing(a) == without_timing(b)


def test_other_variants_run():
    for name in ("published", "clarified"):
        game = Game.from_variant(load_variant(name, {"players": 3}))
        check_report(simulate(game, 30, seed=5), 30)


def test_seed_matters():
    game = official_game(4)
    a, b = simulate(game, 20, seed=1), simulate(game, 20, seed=2)
    assert without_timing(a) != without_timing(b)


def test_step_cap_with_real_game():
    game = official_game(3)
    report = simulate(game, 5, seed=0, max_steps=3)
    check_report(report, 5)
    assert report["endings"]["step cap"] == 5
    ex = report["step_cap_examples"][0]
    assert ex["steps"] == 3 and ex["last_action"] and ex["state"]["phase"]


def test_track_rules_off():
    report = simulate(official_game(4), 10, seed=0, track_rules=False)
    assert report["rule_firings"] == {}


def test_zero_rounds():
    report = simulate(official_game(2), 0, seed=0)
    check_report(report, 0)
    assert report["mean_round_length"] == 0


# -- endings the real rules rarely reach, on a scripted stand-in game -----------------------

class ScriptedGame:
    """A stand-in with the Game API: a counter that goes up; what happens at each
    value is scripted.  "terminal:<reason>" ends, "stuck" has no legal action."""

    def __init__(self, script: dict[int, str]):
        self.script = script
        self.config = SimpleNamespace(as_dict=lambda: {"players": 2})
        self.spec = SimpleNamespace(readings={})

    def deal(self, rng):
        return 0

    def is_terminal(self, s):
        return self.script.get(s, "").startswith("terminal:")

    def is_chance(self, s):
        return self.script.get(s) == "chance"

    def sample_chance(self, s, rng):
        return ("chance", ())

    def legal_actions(self, s):
        return [] if self.script.get(s) == "stuck" else [("up", ()), ("up2", ())]

    def apply(self, s, a, validate=True):
        assert validate is False
        return s + 1

    def fired(self, s, a, s2):
        return ["rule.a", "rule.a", f"rule.{a[0]}"]

    def describe(self, s):
        what = self.script.get(s, "")
        return {"phase": "X", "ended": what.split(":", 1)[1] if ":" in what else "live",
                "at": s}

    def action_str(self, a):
        return a[0]


@pytest.mark.parametrize("script, ending, steps", [
    ({3: "terminal:pass reached"}, "pass reached", 3),
    ({1: "chance", 2: "terminal:zero"}, "zero", 2),
    ({4: "terminal:deck exhausted"}, "deck exhausted", 4),
    ({2: "stuck"}, "stuck", 2),
    ({0: "stuck"}, "stuck", 0),
    ({}, "step cap", 10),
])
def test_every_ending(script, ending, steps):
    game = ScriptedGame(script)
    report = simulate(game, 4, seed=0, max_steps=10)
    assert report["endings"][ending] == 4
    assert sum(report["endings"].values()) == 4
    assert report["steps"] == 4 * steps
    # rule.a appears twice per step in fired(): counted once per step
    assert report["rule_firings"].get("rule.a", 0) == 4 * steps
    if ending == "stuck":
        ex = report["stuck_examples"][0]
        assert ex["state"]["at"] == steps
        assert ex["last_action"] == (None if steps == 0 else ex["last_action"])
        assert len(report["stuck_examples"]) == 3


def test_stuck_exactly_at_the_cap_is_stuck():
    game = ScriptedGame({5: "stuck"})
    assert play_round(game, random.Random(0), max_steps=5)[0] == "stuck"
    game = ScriptedGame({5: "terminal:zero"})
    assert play_round(game, random.Random(0), max_steps=5)[0] == "zero"


def test_bad_arguments():
    game = ScriptedGame({})
    with pytest.raises(ValueError):
        simulate(game, -1, seed=0)
    with pytest.raises(ValueError):
        simulate(game, 1, seed=0, max_steps=0)
