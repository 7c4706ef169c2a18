"""The Hypothesis state machine derived from the spec finds a seeded bug and
shrinks it to (nearly) the shortest trace the explicit search finds."""
from __future__ import annotations

import pytest

from itcp.checks.run import Check
from itcp.model.engine.engine import Game
from itcp.scenarios.format import loads, to_toml
from itcp.scenarios.replay import replay
from itcp.scenarios.stateful import hunt, machine_for, to_scenario
from itcp.spec.variants import load_variant

#: 2 players, one suit, two Pride Cycles and no Charity (a Charity dealt alone is
#: a zero hand: the round would end at the deal)
TABLE = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1,
         "options": (("pride_cycle", 2),), "charity": False}


@pytest.fixture
def house_rule(tmp_path):
    """The clarified variant, where every property holds, with one house rule:
    Pride Cycle's gifts reach the passer (they give nothing but still receive)."""
    path = tmp_path / "house.toml"
    path.write_text('description = "clarified, but Pride Cycle hands the passer a card"\n'
                    'extends = "clarified"\n[readings]\n"pride.passer" = "gives_not_receives"\n')
    return str(path)


def test_machine_rules_are_the_spec_actions():
    game = Game.from_variant(load_variant("official", TABLE))
    machine = machine_for(game)
    names = {n for n in dir(machine) if n.startswith("do_")}
    assert names == {f"do_{a.name}" for a in game.spec.actions if a.name != "deal"}


def test_no_violation_without_the_house_rule():
    game = Game.from_variant(load_variant("clarified", TABLE))
    assert hunt(game, ["FROZEN"], max_examples=10, steps=8) is None


@pytest.mark.slow
def test_finds_the_seeded_bug_and_shrinks_it(house_rule, tmp_path):
    variant = load_variant(house_rule, TABLE)
    game = Game.from_variant(variant)
    (frozen,) = Check(variant, ("FROZEN",), game=game).run().results
    assert frozen.verdict == "VIOLATED"
    shortest = frozen.trace.length
    failure = hunt(game, ["FROZEN"], max_examples=50, steps=8)
    assert failure is not None and failure.property == "FROZEN"
    assert failure.moves <= shortest + 2, (failure.moves, shortest)
    # the shrunk run is a scenario file that replays to the same violation
    sc = to_scenario(house_rule, game, failure)
    path = tmp_path / "found.toml"
    path.write_text(to_toml(sc))
    again = loads(path.read_text(), str(path))
    res = replay(again)
    assert res.ok, res.message
    assert "pride_cycle" in {game.config.cards[a[1][0]].kind for a in failure.actions
                             if a[0] == "discard"}
