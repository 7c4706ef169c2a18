"""Scenario files: the library replays; bad files fail with file, line and step."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from itcp.cli.replay_cmd import replay as replay_cli
from itcp.scenarios.format import from_trace, load_scenario, loads, to_toml
from itcp.scenarios.replay import facts, narrate, replay
from itcp.spec.errors import InputError, ScenarioError

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"
FILES = sorted(LIBRARY.glob("*.toml"))


def test_library_is_big_enough():
    assert len(FILES) >= 12


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_library_scenario_passes(path):
    res = replay(load_scenario(path))
    assert res.ok, res.message


PINNED = sorted((Path(__file__).resolve().parent / "regression").glob("*.toml"))


@pytest.mark.parametrize("path", PINNED, ids=[p.stem for p in PINNED])
def test_pinned_scenario_passes(path):
    """tests/regression/: rounds generated from the spec that tell a mutant of it
    apart (tools/mutation/pin_mutants.py); a change of the rule they pin fails them."""
    res = replay(load_scenario(path))
    assert res.ok, res.message


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_round_trip(path):
    sc = load_scenario(path)
    again = loads(to_toml(sc), str(path))
    assert again == sc
    assert again.actions == sc.actions and again.deal_action == sc.deal_action


def _corrupt(tmp_path, name, old, new, count=1):
    text = (LIBRARY / name).read_text()
    assert old in text
    bad = tmp_path / name
    bad.write_text(text.replace(old, new, count))
    return bad, bad.read_text()


def _line_of(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_wrong_card_name(tmp_path):
    bad, text = _corrupt(tmp_path, "frozen-pride-cycle.toml", 'card = "red 2"', 'card = "red 22"')
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    msg = str(e.value)
    assert f"{bad}:{_line_of(text, 'red 22')}:" in msg
    assert "step 4" in msg and "red 22" in msg and "did you mean 'red 2'" in msg


def test_illegal_move(tmp_path):
    # P0 may not pass: P1 already did (pass.multiple = not_allowed)
    bad, _ = _corrupt(tmp_path, "frozen-pride-cycle.toml",
                      'player = 0\naction = "draw_pile"', 'player = 0\naction = "pass"')
    text = bad.read_text().replace("[config]", '[readings]\n"pass.multiple" = "not_allowed"\n\n'
                                   "[config]", 1)
    bad.write_text(text)
    with pytest.raises(ScenarioError) as e:
        replay(load_scenario(bad))
    msg = str(e.value)
    line = _line_of(text, 'action = "pass"\n') if False else [
        i for i, ln in enumerate(text.splitlines(), 1) if ln == 'action = "pass"'][1]
    assert f"{bad}:{line}:" in msg and "step 2" in msg
    assert "pass.multiple.not_allowed" in msg


def test_typo_in_field(tmp_path):
    bad, text = _corrupt(tmp_path, "frozen-pride-cycle.toml", 'action = "discard"', 'acton = "discard"')
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    msg = str(e.value)
    assert "step 3" in msg and re.search(rf"{re.escape(str(bad))}:\d+:", msg)
    bad2, text2 = _corrupt(tmp_path, "mercy-race.toml", 'winner = 0', 'winer = 0')
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad2)
    assert f"{bad2}:{_line_of(text2, 'winer')}:" in str(e.value)
    assert "did you mean 'winner'" in str(e.value)


def test_bad_expectation_fields(tmp_path):
    bad, text = _corrupt(tmp_path, "repentance-reverses.toml", "dir = -1", "direction = -1")
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    assert f"{bad}:{_line_of(text, 'direction =')}:" in str(e.value)
    assert "did you mean 'dir'" in str(e.value)
    bad, text = _corrupt(tmp_path, "frozen-pride-cycle.toml", '"FROZEN"', '"FROZN"')
    with pytest.raises(ScenarioError, match="did you mean 'FROZEN'"):
        load_scenario(bad)


def test_bad_toml_and_unknown_action(tmp_path):
    bad, _ = _corrupt(tmp_path, "repentance-reverses.toml", "[deal]", "[deal")
    with pytest.raises(ScenarioError, match=r":\d+: not valid TOML"):
        load_scenario(bad)
    bad, text = _corrupt(tmp_path, "repentance-reverses.toml", '"discard"', '"discrad"')
    with pytest.raises(ScenarioError, match="did you mean 'discard'") as e:
        load_scenario(bad)
    assert f":{_line_of(text, 'discrad')}: step 3" in str(e.value)


def test_failed_expectation_is_a_result(tmp_path):
    bad, _ = _corrupt(tmp_path, "repentance-reverses.toml", "turn = 0", "turn = 2")
    res = replay(load_scenario(bad))
    assert not res.ok and "turn" in res.message


def test_readings_change_the_outcome():
    literal = replay(load_scenario(LIBRARY / "frozen-pride-cycle.toml"))
    skipped = replay(load_scenario(LIBRARY / "pride-passer-skipped.toml"))
    assert literal.scenario.actions == skipped.scenario.actions
    f1 = facts(literal.scenario.game, literal.states[-1])
    f2 = facts(skipped.scenario.game, skipped.states[-1])
    assert f1["hand.1"] != f2["hand.1"]
    s1 = replay(load_scenario(LIBRARY / "pass-score-lowest-or-total.toml"))
    s2 = replay(load_scenario(LIBRARY / "pass-score-always.toml"))
    assert s1.scenario.actions == s2.scenario.actions
    assert s1.checks[-1][2] != s2.checks[-1][2]


def test_narration_mentions_the_rules():
    text = "\n".join(narrate(load_scenario(LIBRARY / "frozen-pride-cycle.toml")))
    assert "P1 says Pass" in text and "rule pass.say" in text
    assert "pride.passer = gives_not_receives" in text
    assert "Scores:" in text and "FROZEN" in text
    text = "\n".join(narrate(load_scenario(LIBRARY / "desolation-illegal-discard.toml")))
    assert "Not allowed" in text and "desolation.target.same_suit" in text


def test_from_trace_round_trips(tmp_path):
    sc = load_scenario(LIBRARY / "frozen-pride-cycle.toml")
    res = replay(sc)
    saved = from_trace("official", sc.game.config, sc.game, res.states, sc.actions,
                       {"property": "FROZEN", "verdict": "violated"}, title="saved")
    path = tmp_path / "saved.toml"
    path.write_text(to_toml(saved))
    again = load_scenario(path)
    assert again.actions == sc.actions and replay(again).ok
    # a trace that starts before the deal
    s0 = sc.game.initial_state()
    saved = from_trace("official", sc.game.config, sc.game, [s0] + res.states,
                       [sc.deal_action] + sc.actions, {"property": "FROZEN"})
    assert replay(loads(to_toml(saved))).ok


def test_scenario_error_is_input_error():
    assert issubclass(ScenarioError, InputError)


def test_cli_exit_codes(tmp_path):
    runner = CliRunner()
    # three files (each file of the library replays on its own above, and the command
    # in a real process in tests/test_library.py::test_replay_library_subprocess)
    ok = runner.invoke(replay_cli, [str(p) for p in FILES[:3]])
    assert ok.exit_code == 0, ok.output
    bad, _ = _corrupt(tmp_path, "repentance-reverses.toml", "turn = 0", "turn = 2")
    assert runner.invoke(replay_cli, [str(bad)]).exit_code == 1
    worse, _ = _corrupt(tmp_path, "mercy-race.toml", '"red 3"', '"red 33"', 2)
    r = runner.invoke(replay_cli, [str(bad), str(worse)])
    assert r.exit_code == 2 and "step" in r.output and str(worse) in r.output
    story = runner.invoke(replay_cli, ["--story", str(FILES[0])])
    assert story.exit_code == 0 and "rule " in story.output
    js = runner.invoke(replay_cli, ["--json", str(FILES[0])])
    assert js.exit_code == 0 and '"ok": true' in js.output


# -- whole games (scope = "game") ------------------------------------------------------

GAME = "reading-game-end.toml"


def test_game_scope_replays_whole_game_and_narrates():
    sc = load_scenario(LIBRARY / GAME)
    assert sc.scope == "game" and sc.game.spec.scope == "game"
    res = replay(sc)
    assert res.ok, res.message
    f = facts(sc.game, res.states[-1])
    assert (f["phase"], f["round"], f["totals"]) == ("GAME_OVER", 2, [4, 0])
    text = "\n".join(narrate(sc))
    assert "a new round is dealt" in text and "The game is over after 2 round(s)" in text


def test_round_scope_facts_are_unchanged():
    sc = load_scenario(LIBRARY / "repentance-reverses.toml")
    assert sc.scope == "round"
    assert "round" not in facts(sc.game, replay(sc).states[-1])
    assert "scope" not in to_toml(sc)


def test_game_scope_expectation_fails_as_a_result(tmp_path):
    bad, _ = _corrupt(tmp_path, GAME, "round = 2", "round = 1")
    res = replay(load_scenario(bad))
    assert not res.ok and "expected round = 1, got 2" in res.message


@pytest.mark.parametrize("old,new,needle,words", [
    ('scope = "game"', 'scope = "games"', "scope", ["scope must be one of", "did you mean 'game'"]),
    ('scope = "game"\n', '', "next_round", ["step 1", 'add scope = "game"']),
    ('hands = [["red 2"], ["red Charity"]]\nup = "red Desolation"\n\n[[move]]\nchance = true\n'
     'action = "next_round"\n\n[expect]',
     'handz = [["red 2"], ["red Charity"]]\nup = "red Desolation"\n\n[[move]]\nchance = true\n'
     'action = "next_round"\n\n[expect]', "handz", ["step 2", "did you mean 'hands'"]),
])
def test_bad_game_scenario_is_an_input_error(tmp_path, old, new, needle, words):
    bad, text = _corrupt(tmp_path, GAME, old, new)
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    msg = str(e.value)
    assert f"{bad}:{_line_of(text, needle)}:" in msg, msg
    for w in words:
        assert w in msg, msg
    r = CliRunner().invoke(replay_cli, [str(bad)])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_game_facts_need_game_scope(tmp_path):
    bad, text = _corrupt(tmp_path, "repentance-reverses.toml", "[expect]\n",
                         "[expect]\ntotals = [0, 0]\n")
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    assert f"{bad}:{_line_of(text, 'totals')}:" in str(e.value)
    assert "whole game" in str(e.value) and 'scope = "game"' in str(e.value)


def test_deal_move_needs_game_scope(tmp_path):
    deal = '[[move]]\nchance = true\naction = "deal"\nhands = [["red 2"]]\nup = "red 3"\n\n'
    bad, text = _corrupt(tmp_path, "repentance-reverses.toml", "[expect]", deal + "[expect]")
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    msg = str(e.value)
    line = _line_of(text, 'action = "deal"')
    assert f"{bad}:{line}:" in msg, msg
    assert "not as a move" in msg and 'scope = "game"' in msg


def test_game_scope_from_trace_round_trips():
    sc = load_scenario(LIBRARY / GAME)
    res = replay(sc)
    s0 = sc.game.initial_state()
    saved = from_trace("official", sc.game.config, sc.game, [s0] + res.states,
                       [sc.deal_action] + sc.actions, {"phase": "GAME_OVER", "round": 2})
    assert saved.scope == "game" and 'scope = "game"' in to_toml(saved)
    again = loads(to_toml(saved))
    assert again.actions == sc.actions and replay(again).ok
