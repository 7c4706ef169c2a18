"""``simulate --plot DIR`` / ``--html FILE``: the numbers behind each plot, the files,
and the command without matplotlib."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from itcp.cli.common import load
from itcp.model.engine.engine import Game
from itcp.model.engine.simulate import ENDINGS, simulate
from itcp.report import plots

EXE = Path(sys.executable).with_name("itcp-check")
#: config flags as the command line gives them to ``load``
SMALL = {"players": 3, "suits": 2, "ranks": "2..5", "hand": 2,
         "options": "unbelief,pride_cycle"}


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def data():
    runs = {}
    for n in (2, 3):
        v = load("official", dict(SMALL, players=n))
        game = Game.from_variant(v)
        recs = []
        rep = simulate(game, 300, 7, max_steps=300, track_rules=(n == 3), records=recs)
        runs[n] = plots.Run(n, rep, recs)
        if n == 3:
            main_game, main_v = game, v
    d = plots.SimulationData(main_v.name, main_v.config.describe(), runs[3], runs)
    return d, main_game


def test_records_are_the_same_rounds(data):
    """Asking for the per-round records does not change the rounds played."""
    d, game = data
    again = simulate(game, 300, 7, max_steps=300)
    for key in ("endings", "steps", "rule_firings", "max_round_length"):
        assert again[key] == d.main.report[key]
    assert len(d.main.records) == 300
    assert sum(r["steps"] for r in d.main.records) == d.main.report["steps"]


def test_csvs_count_what_was_played(data):
    d, game = data
    figs = {f.name: f for f in plots.figures(d, game.spec, draw=False)}
    assert set(figs) == set(plots.FIGURES)
    seats = rows(figs["scores-per-seat"].csv)
    assert [r["seat"] for r in seats] == ["P0", "P1", "P2"]
    scored = [r for r in d.main.records if r["ending"] in ("pass reached", "zero",
                                                           "deck exhausted")]
    assert {int(r["rounds_scored"]) for r in seats} == {len(scored)}
    for p, r in enumerate(seats):
        mean = sum(x["scores"][p] for x in scored) / len(scored)
        assert float(r["mean_score"]) == pytest.approx(mean, abs=1e-3)
    assert sorted(int(r["order_of_play"]) for r in seats) == [1, 2, 3]
    # every round has a lowest score, shared or not
    assert sum(int(r["lowest_alone"]) for r in seats) <= len(scored)
    lengths = rows(figs["round-length"].csv)
    assert sum(int(r["rounds"]) for r in lengths) == 300
    endings = rows(figs["endings-by-players"].csv)
    for n in (2, 3):
        mine = [r for r in endings if r["players"] == str(n)]
        assert [r["ending"] for r in mine] == list(ENDINGS)
        assert sum(int(r["rounds"]) for r in mine) == 300
    wins = rows(figs["pass-wins"].csv)
    for r in wins:
        assert int(r["rounds_with_pass"]) == sum(int(r[k]) for k in (
            "passer_lowest_alone", "passer_lowest_tied", "passer_not_lowest"))
    fired = rows(figs["rule-firings"].csv)
    assert {r["rule"]: int(r["steps"]) for r in fired} == d.main.report["rule_firings"]
    for r in fired:
        assert r["choice_point"] == (game.spec.rule(r["rule"]).choice or "")


def test_plot_and_html_end_to_end(tmp_path):
    out, html = tmp_path / "plots", tmp_path / "sim.html"
    flags = [x for k, v in SMALL.items() for x in (f"--{k}", str(v))]
    r = subprocess.run([str(EXE), "simulate", "official", "-n", "150", "--seed", "3",
                        "--max-steps", "300", *flags, "--plot", str(out), "--plot-players",
                        "2..3", "--html", str(html), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert sorted(p.name for p in out.iterdir()) == sorted(plots.file_names())
    assert rep["plot"]["files"] == sorted(plots.file_names()) and rep["html"] == str(html)
    page = html.read_text()
    assert page.count("data:image/png;base64,") == len(plots.FIGURES)
    assert "<script" not in page and 'src="http' not in page     # nothing fetched
    for name in plots.FIGURES:
        png = (out / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000, name
    endings = rows((out / "endings-by-players.csv").read_text())
    assert {r["players"] for r in endings} == {"2", "3"}
    # the same command again: the folder's files are there, so --force is needed
    again = subprocess.run([str(EXE), "simulate", "official", "-n", "5", *flags, "--plot",
                            str(out)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "--force" in again.stderr
    assert "Traceback" not in again.stderr


def test_plot_to_a_file_exits_2(cli, tmp_path):
    f = tmp_path / "plots"
    f.write_text("mine")
    r = cli("simulate", "-n", "5", "--plot", str(f))
    assert r.exit_code == 2 and "is not a folder" in r.stderr and "--plot" in r.stderr
    assert f.read_text() == "mine"


def test_player_counts_that_do_not_fit_are_skipped(tmp_path):
    """A table too small for 8 players: that count is skipped and the page says why."""
    v = load("official", dict(SMALL, players=2))
    from itcp.cli import simulate_cmd
    rep = simulate(Game.from_variant(v), 20, 1, max_steps=100, records=(recs := []))
    d = simulate_cmd.by_players(v, "official", dict(SMALL, players=2), "generated", rep,
                                 recs, (2, 8), 20, 1, 100, True)
    assert set(d.by_players) == {2} and 8 in d.skipped
    assert "8 players" in plots.simulation_page(d, plots.figures(d, Game.from_variant(v).spec,
                                                                 draw=False))


BLOCK = ("import sys; sys.modules['matplotlib'] = None; sys.modules['playwright'] = None; "
         "from itcp.cli.main import main; sys.argv = ['itcp-check'] + sys.argv[1:]; main()")


def test_without_matplotlib_plot_exits_2_naming_the_extra(tmp_path):
    r = subprocess.run([sys.executable, "-c", BLOCK, "simulate", "-n", "5", "--plot",
                        str(tmp_path / "p")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "matplotlib" in r.stderr and "itcp[plot]" in r.stderr
    assert "Traceback" not in r.stderr and list(tmp_path.iterdir()) == []


def test_commands_work_without_matplotlib_or_playwright():
    """The Quick start's install has neither: with both made unimportable, a check
    runs (any import of either would fail it)."""
    r = subprocess.run([sys.executable, "-c", BLOCK, "check", "--suits", "1", "--options",
                        "pride_cycle"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "FROZEN" in r.stdout, r.stderr
