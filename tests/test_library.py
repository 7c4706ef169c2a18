"""The scenario library is the rules' regression suite: every option card, every
contradiction of the official text, and for each choice point a round whose
outcome changes with the reading."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from itcp.scenarios.contrast import under_contrast
from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.config import OPTION_VALUES

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"
FILES = sorted(LIBRARY.glob("*.toml"))
SCENARIOS = {p.name: load_scenario(p) for p in FILES}
CONTRASTED = sorted(n for n, sc in SCENARIOS.items() if sc.contrast)
EXE = Path(sys.executable).parent / "itcp-check"

#: choice points no one-round scenario separates at the tables searched, why, and
#: a table where the side-by-side search of the two readings is exhausted
NO_ROUND_DIFFERENCE = {
    "game.end": ("its rules act between rounds (scope 'game'); a scenario is one round",
                 ("rounds", "threshold"), {"players": 2, "suits": 2, "ranks": (2, 2),
                                           "hand": 1, "options": ()}),
    "justice.passer": ("the duty goes to the next seat that takes turns; the only passer "
                       "among those is the first one, and reaching them ends the round",
                       ("stands", "skips"), {"players": 3, "suits": 1, "ranks": (2, 3),
                                             "hand": 1, "options": (("justice", 2),)}),
}


def test_library_size():
    assert len(FILES) >= 40


def test_every_choice_point_has_a_contrast():
    covered = {p for sc in SCENARIOS.values() for p in sc.contrast}
    assert covered | set(NO_ROUND_DIFFERENCE) == set(CHOICE_POINTS)


@pytest.mark.parametrize("point", sorted(NO_ROUND_DIFFERENCE))
def test_points_without_a_difference_are_searched_exhaustively(point):
    from itcp.scenarios.contrast import divergence
    _, (a, b), table = NO_ROUND_DIFFERENCE[point]
    div = divergence("official", point, a, b, table, max_nodes=100_000)
    assert div.kind == "none" and div.detail["exhausted"], div.detail


@pytest.mark.parametrize("name", CONTRASTED)
def test_contrast_changes_the_outcome(name):
    sc = SCENARIOS[name]
    (point, other), = sc.contrast.items()
    assert sc.readings.get(point) not in (None, other), "the file names both readings"
    res = replay(sc)
    assert res.ok, res.message
    differs, what = under_contrast(sc)
    assert differs, f"under {point} = {other} the outcome is the same: {what}"


def test_every_option_card_is_played():
    played = set()
    for sc in SCENARIOS.values():
        cards = {c.index: c.kind for c in sc.game.config.cards}
        for mv in sc.moves:
            if mv.resolved[0] in ("discard", "answer"):
                played.add(cards[mv.resolved[1][0]])
    assert set(OPTION_VALUES) <= played


def test_every_official_contradiction_is_shown():
    shown = {sc.expect["property"] for sc in SCENARIOS.values()
             if sc.variant == "official" and not sc.readings and "property" in sc.expect
             and sc.expect["verdict"] == "violated"}
    assert {"FROZEN", "NO_DEADLOCK", "ROUND_ENDS"} <= shown
    secret = [sc for sc in SCENARIOS.values() if sc.variant == "official" and not sc.readings
              and sc.expect.get("property") in ("FROZEN", "ROUND_ENDS")
              and any(c.kind == "secret_combination" for c in sc.game.config.cards)]
    assert {sc.expect["property"] for sc in secret} == {"FROZEN", "ROUND_ENDS"}


def test_replay_whole_library_subprocess():
    p = subprocess.run([str(EXE), "replay", *map(str, FILES)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"all {len(FILES)} scenarios pass" in p.stdout


@pytest.mark.parametrize("old,new,needle,step", [
    ('card = "Pride Cycle"', 'card = "Pride Cycel"', "Pride Cycel", 3),      # a wrong card
    ('player = 0\naction = "draw_pile"', 'player = 0\naction = "pass"', None, 2),  # illegal
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
    if needle is None:
        line = [i for i, ln in enumerate(lines, 1) if ln == 'action = "pass"'][1]
    else:
        line = next(i for i, ln in enumerate(lines, 1) if needle in ln)
    assert f"{bad}:{line}: step {step}:" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
