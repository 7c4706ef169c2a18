"""The scenario library is the rules' regression suite: every option card, every
contradiction of the official text, and for each choice point a round whose
outcome changes with the reading."""
from __future__ import annotations

import functools
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.config import OPTION_VALUES
from tools.contrast import under_contrast

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"
FILES = sorted(LIBRARY.glob("*.toml"))
#: the files with a [contrast] (read as plain TOML: collecting stays cheap)
CONTRASTED = sorted(p.name for p in FILES if tomllib.loads(p.read_text()).get("contrast"))


@functools.cache
def scenario(name):
    return load_scenario(LIBRARY / name)


def all_scenarios():
    return {p.name: scenario(p.name) for p in FILES}
EXE = Path(sys.executable).parent / "itcp-check"

#: choice points no scenario separates at the tables searched, why, and a table
#: where the side-by-side search of the two readings is exhausted (game.end, which
#: acts between rounds, has a whole-game scenario: reading-game-end.toml)
NO_ROUND_DIFFERENCE = {
    "justice.passer": ("the duty goes to the next seat that takes turns; the only passer "
                       "among those is the first one, and reaching them ends the round",
                       ("stands", "skips"), {"players": 3, "suits": 1, "ranks": (2, 2),
                                             "hand": 1, "options": (("justice", 2),)}),
}


def test_library_size():
    assert len(FILES) >= 40


def test_every_choice_point_has_a_contrast():
    covered = {p for name in CONTRASTED
               for p in tomllib.loads((LIBRARY / name).read_text())["contrast"]}
    assert covered | set(NO_ROUND_DIFFERENCE) == set(CHOICE_POINTS)


@pytest.mark.parametrize("point", sorted(NO_ROUND_DIFFERENCE))
def test_points_without_a_difference_are_searched_exhaustively(point):
    from tools.contrast import divergence
    _, (a, b), table = NO_ROUND_DIFFERENCE[point]
    div = divergence("official", point, a, b, table, max_nodes=100_000)
    assert div.kind == "none" and div.detail["exhausted"], div.detail


def test_game_end_has_a_whole_game_contrast():
    """game.end acts between rounds: its scenario is a whole game, and the
    game-scope search finds it again, as short as the library's."""
    from tools.contrast import divergence
    sc = scenario("reading-game-end.toml")
    assert sc.scope == "game" and sc.contrast == {"game.end": "threshold"}
    assert "game.end" not in NO_ROUND_DIFFERENCE
    table = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1, "options": ()}
    div = divergence("official", "game.end", "rounds", "threshold", table, scope="game")
    assert div.kind == "facts" and div.detail["phase"] == ("GAME_OVER", "DEAL")
    assert len(div.actions) == len(sc.moves) + 1  # the first deal, then the moves
    one_round = divergence("official", "game.end", "rounds", "threshold", table,
                           max_nodes=100_000)
    assert one_round.kind == "none" and one_round.detail["exhausted"]


@pytest.mark.parametrize("name", CONTRASTED)
def test_contrast_changes_the_outcome(name):
    sc = scenario(name)
    (point, other), = sc.contrast.items()
    assert sc.readings.get(point) not in (None, other), "the file names both readings"
    res = replay(sc)
    assert res.ok, res.message
    differs, what = under_contrast(sc)
    assert differs, f"under {point} = {other} the outcome is the same: {what}"


def _data():
    return {p.name: tomllib.loads(p.read_text()) for p in FILES}


def test_every_option_card_is_played():
    names = {k.replace("_", " ").title(): k for k in OPTION_VALUES}  # "Pride Cycle"
    played = {names.get(mv["card"].split("#")[0]) for d in _data().values()
              for mv in d.get("move", []) if mv["action"] in ("discard", "answer")}
    assert set(OPTION_VALUES) <= played


def test_every_official_contradiction_is_shown():
    literal = {n: d for n, d in _data().items()
               if d["variant"] == "official" and not d.get("readings")
               and d["expect"].get("verdict", "violated") == "violated"}
    shown = {d["expect"].get("property") for d in literal.values()}
    assert {"FROZEN", "NO_DEADLOCK", "ROUND_ENDS"} <= shown
    with_secret = {d["expect"].get("property") for d in literal.values()
                   if any("secret" in str(o).lower() for o in d["config"]["options"])}
    assert {"FROZEN"} <= with_secret
    # the round that never ends needs the set-aside seat to leave the turn order,
    # which the literal text (secret.seat = both_seats) does not do
    loop = _data()["secret-round-never-ends.toml"]
    assert loop["readings"]["secret.seat"] == "leaves"
    assert loop["expect"]["property"] == "ROUND_ENDS"
    for name in literal:  # and each replays to its violation
        if literal[name]["expect"].get("property"):
            assert replay(scenario(name)).ok


#: every eighth file: each file is replayed in-process on its own
#: (tests/test_scenarios.py::test_library_scenario_passes); this is the command's path
SOME = FILES[::8]


@pytest.mark.slow
def test_replay_library_subprocess():
    p = subprocess.run([str(EXE), "replay", *map(str, SOME)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"all {len(SOME)} scenarios pass" in p.stdout


@pytest.mark.parametrize("old,new,needle,step", [
    ('card = "Pride Cycle"', 'card = "Pride Cycel"', "Pride Cycel", 3),      # a wrong card
    ('player = 0\naction = "draw_pile"', 'player = 0\naction = "skip_discard"',
     "skip_discard", 2),                                                      # illegal
    ('action = "give"', 'actoin = "give"', "actoin", 4),                      # a typo
])
def test_corrupted_copy_fails_with_file_line_step(tmp_path, old, new, needle, step):
    text = (LIBRARY / "frozen-pride-cycle.toml").read_text()
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1))
    p = subprocess.run([str(EXE), "replay", str(bad)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2, p.stdout + p.stderr
    lines = bad.read_text().splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if needle in ln)
    assert f"{bad}:{line}: step {step}:" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


def test_a_contrast_is_judged_by_replaying_the_moves():
    """A scenario expecting an illegal move names the rule that refuses it; that rule
    belongs to the scenario's own reading.  Under the contrast the moves must be
    replayed (the contrast once 'differed' merely because the rule's name was
    unknown there, so five contrasts could never fail), and a contrast that
    changes nothing must say so."""
    import copy
    sc = scenario("reading-pass-multiple.toml")
    differs, what = under_contrast(sc)
    assert differs and "no rule" not in what, what
    same = copy.copy(sc)
    same.contrast = {"charity.scope": "numbers_only"}  # irrelevant at this deal
    differs, what = under_contrast(same)
    assert not differs, what
