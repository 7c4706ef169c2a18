"""Scenario generation by coverage: events from the engine's fired record, the
pairs, the shortest traces, the coverage table, and the CLI."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from itcp.cli.main import main
from itcp.model.engine.engine import Game
from itcp.scenarios import generate as G
from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay
from itcp.spec.variants import load_variant

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"
TINY = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1}


def _events_along(path):
    sc = load_scenario(path)
    res = replay(sc)
    ev = G.Events(sc.game)
    return [ev.of(s, a, s2) for s, a, s2 in res.steps]


def test_events_come_from_the_fired_record():
    # P1 passes, P0 takes Pride Cycle from the pile, discards it, gives a card
    steps = _events_along(LIBRARY / "frozen-pride-cycle.toml")
    assert "pass" in steps[0]
    assert "pride" in steps[2] and "pride" not in steps[1] and "pass" not in steps[2]
    # Repentance's effect is a rule that applied; Unbelief's is carried by a
    # definition, detected through the card put on the pile
    assert any("repentance" in e for e in _events_along(LIBRARY / "repentance-reverses.toml"))
    assert any("unbelief" in e for e in _events_along(LIBRARY / "unbelief-loop-after-pass.toml"))
    assert any("zero" in e for e in _events_along(LIBRARY / "charity-zero-ends-round.toml"))


def test_pairs_cover_every_family():
    topics = {"mercy": "mercy", "justice": "justice", "pride_cycle": "pride"}
    pairs = G.all_pairs(topics)
    names = {p.name for p in pairs}
    assert {"pass x mercy", "mercy x justice", "justice x pride", "deck x pass", "zero x deck",
            "zero x pride", "2p x justice", "8p x deck"} <= names
    assert len(pairs) == 3 + 3 + 4 + 5 + 4 + 5


def test_search_finds_a_shortest_trace_and_knows_when_it_is_exhausted():
    game = Game.from_variant(load_variant("official", dict(TINY, options=(("pride_cycle", 1),))))
    want = frozenset({"pass", "pride"})
    res = G.search(game, [want], 100_000, 40)
    states, actions = res.found[want]
    assert actions[0][0] == "deal" and len(actions) - 1 == 3  # pass, draw_pile, discard
    # Mercy is not in this deck: the search runs out, and says it was exhaustive
    none = G.search(game, [frozenset({"pass", "mercy"})], 100_000, 40)
    assert not none.found and none.complete and none.limit is None
    capped = G.search(game, [frozenset({"pass", "mercy"})], 50, 40)
    assert not capped.complete and capped.limit == "--max-states 50"


def test_generate_cli_writes_scenarios_and_coverage(tmp_path):
    out = tmp_path / "gen"
    r = CliRunner().invoke(main, ["scenarios", "generate", "official", "--out", str(out),
                                  "--only", "pass x pride", "--only", "zero × justice"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == [
        "coverage.json", "coverage.md", "pass-x-pride.toml", "zero-x-justice.toml"]
    cov = json.loads((out / "coverage.json").read_text())
    assert [p["status"] for p in cov["pairs"]] == ["found", "found"]
    assert "| pass x pride | pass x option | [pass-x-pride.toml]" in (out / "coverage.md").read_text()
    for f in ("pass-x-pride.toml", "zero-x-justice.toml"):
        sc = load_scenario(out / f)
        assert replay(sc).ok
        ev = G.Events(sc.game)
        seen = set().union(*(ev.of(s, a, s2) for s, a, s2 in replay(sc).steps))
        assert set(f[:-5].split("-x-")) <= seen


def test_generate_reports_pairs_not_found_within_the_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(G, "LADDER", G.LADDER[:1])  # one table is enough to show it
    r = CliRunner().invoke(main, ["scenarios", "generate", "--out", str(tmp_path / "g"),
                                  "--only", "mercy x secret", "--max-states", "20", "--json"])
    assert r.exit_code == 3, r.output
    (pair,) = json.loads(r.output)["pairs"]
    assert pair["status"] == "not found within bound" and "--max-states 20" in pair["reason"]


def test_generate_bad_pair_is_bad_input(tmp_path):
    r = CliRunner().invoke(main, ["scenarios", "generate", "--out", str(tmp_path / "g"),
                                  "--only", "pass x prid"])
    assert r.exit_code == 2 and "did you mean 'pass x pride'" in r.output
    assert not (tmp_path / "g").exists()


def test_scenarios_list():
    r = CliRunner().invoke(main, ["scenarios", "list"])
    assert r.exit_code == 0 and "frozen-pride-cycle.toml" in r.output


@pytest.mark.slow
def test_generate_subprocess(tmp_path):
    exe = Path(sys.executable).parent / "itcp-check"
    out = tmp_path / "gen"
    p = subprocess.run([str(exe), "scenarios", "generate", "official", "--out", str(out),
                        "--only", "8p x unbelief", "--only", "mercy x pride"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "8 players" in p.stdout and "2 suits" in p.stdout
    r = subprocess.run([str(exe), "replay", *map(str, sorted(out.glob("*.toml")))],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_generate_for_a_variant_file(tmp_path):
    var = tmp_path / "house" / "mine.toml"
    var.parent.mkdir()
    var.write_text('description = "mine"\nextends = "clarified"\n')
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["scenarios", "generate", str(var), "--out", str(out),
                                  "--only", "pass x pride"])
    assert r.exit_code == 0, r.output
    text = (out / "pass-x-pride.toml").read_text()
    assert 'variant = "../house/mine.toml"' in text
    assert replay(load_scenario(out / "pass-x-pride.toml")).ok
