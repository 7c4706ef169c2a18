"""``itcp-check sweep``: the check at many tables as one job, cached, resumable."""
from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from itcp.cli.sweep_cmd import copies_of, int_range, option_subsets, rank_list
from itcp.spec.errors import InputError

#: the small sweep most tests share: 2 players, 1 suit, ranks 2..2, hand 1, and
#: three option subsets (no card; Unbelief with Pride Cycle, which breaks
#: FROZEN and ROUND_ENDS; Mercy), plus hand 2, which the bare deck cannot deal
TABLE = ["--players", "2", "--suits", "1", "--ranks", "2..2", "--hand", "1..2"]
SUBSETS = ["--options-subsets", "none;unbelief,pride_cycle;mercy"]


def _sweep(cli, tmp, *args, cache="cache"):
    r = cli("sweep", *TABLE, *SUBSETS, "--jobs", "2", "--cache", str(tmp / cache), *args)
    return r


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The small sweep, run once in-process: (result, its JSON, its folder)."""
    from click.testing import CliRunner

    from itcp.cli.main import main
    tmp = tmp_path_factory.mktemp("sweep")
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    r = runner.invoke(main, ["sweep", *TABLE, *SUBSETS, "--jobs", "2",
                             "--cache", str(tmp / "cache"), "--json", str(tmp / "m.json"),
                             "--csv", str(tmp / "m.csv"),
                             "--save-scenarios", str(tmp / "sc")])
    return r, json.loads((tmp / "m.json").read_text()), tmp


# -- reading the flags ------------------------------------------------------------

def test_ranges_and_subsets():
    assert int_range("2..4", "--players", 2, 8, "2") == [2, 3, 4]
    assert int_range("3", "--players", 2, 8, "2") == [3]
    assert rank_list("2..2,2..3") == [(2, 2), (2, 3)]
    every = option_subsets("all", {})
    assert len(every) == 64 and len(set(every)) == 64 and every[0] == ()
    assert len(option_subsets("2", {})) == 15
    assert len(option_subsets("5..6", {})) == 7
    assert option_subsets("none;mercy,justice", {"justice": 2}) == [
        (), (("mercy", 1), ("justice", 2))]
    assert copies_of(["justice=2", "mercy=3"]) == {"justice": 2, "mercy": 3}
    for bad in ("7", "x..y", "mercy;mercy", "bogus"):
        with pytest.raises(InputError):
            option_subsets(bad, {})
    with pytest.raises(InputError):
        int_range("4..2", "--players", 2, 8, "2")


@pytest.mark.parametrize("args, needle", [
    (["--players", "1..3"], "--players 1..3: must be within 2..8"),
    (["--suits", "x"], "--suits: cannot read 'x'"),
    (["--ranks", "2..11"], "--ranks: ranks 2..11 are out of range"),
    (["--hand", "0"], "--hand 0: must be within"),
    (["--options-subsets", "mercy;bogus"], "unknown option card 'bogus'"),
    (["--options-subsets", "none;none"], "listed twice"),
    (["--copies", "justice"], "--copies 'justice': give CARD=N"),
    (["--copies", "justice=9"], "copies of justice must be a whole number 1..8"),
    (["--property", "FROZE"], "unknown property 'FROZE'"),
    (["--players", "4", "--hand", "2", "--options-subsets", "none"],
     "no table of this sweep can be dealt"),
    (["no-such-variant"], "no variant named"),
])
def test_bad_input_exits_2(cli, tmp_path, args, needle):
    r = cli("sweep", *args, "--cache", str(tmp_path / "c"))
    assert r.exit_code == 2, r.output + r.stderr
    assert needle in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "c").exists()


def test_bad_output_paths_exit_2_before_any_job(cli, tmp_path):
    (tmp_path / "taken.json").write_text("mine")
    (tmp_path / "file").write_text("x")
    for args, needle in ((["--json", str(tmp_path / "taken.json")], "the file exists"),
                         (["--csv", str(tmp_path / "file" / "m.csv")], "a part of this path is a file"),
                         (["--cache", str(tmp_path / "file")], "is not a folder"),
                         (["--save-scenarios", str(tmp_path / "file")], "is not a folder")):
        t = time.monotonic()
        r = _sweep(cli, tmp_path, *args)
        assert r.exit_code == 2 and needle in r.stderr, r.stderr
        assert time.monotonic() - t < 10  # refused before the jobs
    assert (tmp_path / "taken.json").read_text() == "mine"
    assert not (tmp_path / "cache").exists()


# -- the matrix -----------------------------------------------------------------------

def test_matrix_text_json_csv(swept):
    r, m, tmp = swept
    assert r.exit_code == 1, r.output + r.stderr  # Pride Cycle with Unbelief breaks FROZEN
    assert "6 tables: 4 checked (4 run, 0 from the cache), 2 skipped" in r.output
    lines = r.output.splitlines()
    row = next(x for x in lines if x.rstrip().endswith("Unbelief, Pride Cycle")
               and "hand 1" in x)
    header = next(x for x in lines if x.split()[:1] == [m["properties"][0]]).split()
    cells = dict(zip(header, row.replace("VIOLATED ", "VIOLATED_").split()))
    assert (cells["FROZEN"], cells["NO_DEADLOCK"], cells["ROUND_ENDS"]) == (
        "VIOLATED_4", "HOLDS", "VIOLATED_3")
    assert "skipped: 2 hands of 2 plus a face-up card need 5 cards, but the deck has 3" \
        in r.output
    # JSON: one entry per table, a cell per property
    assert [t["status"] for t in m["tables"]] == ["checked"] * 3 + ["skipped", "checked", "skipped"]
    assert m["summary"]["cells"] == {"HOLDS": 32, "VIOLATED": 4, "UNKNOWN": 0, "skipped": 18}
    for t in m["tables"]:
        assert set(t["cells"]) == set(m["properties"]) and len(m["properties"]) == 9
    up = m["tables"][1]
    assert up["options"] == {"unbelief": 1, "pride_cycle": 1}
    assert up["cells"]["FROZEN"] == {"verdict": "VIOLATED", "length": 4}
    assert up["cells"]["ROUND_ENDS"]["lasso"] is True
    assert m["tables"][3]["cells"]["FROZEN"]["verdict"] == "skipped"
    # CSV: a row per table and property
    rows = list(csv.DictReader((tmp / "m.csv").open()))
    assert len(rows) == 6 * 9
    assert {r["verdict"] for r in rows} == {"HOLDS", "VIOLATED", "skipped"}
    frozen = [r for r in rows if r["property"] == "FROZEN" and r["verdict"] == "VIOLATED"]
    assert {(r["options"], r["hand"], r["trace_length"]) for r in frozen} == {
        ("unbelief,pride_cycle", "1", "4"), ("unbelief,pride_cycle", "2", "4")}


def test_cells_equal_check_at_that_table(swept, cli):
    """Every cell of a column is what ``check`` gives at that table."""
    _, m, _ = swept
    for t in (m["tables"][1], m["tables"][4]):
        opts = ",".join(t["options"]) or "none"
        r = cli("check", "official", "--players", "2", "--suits", "1", "--ranks", "2..2",
                "--hand", str(t["hand"]), "--options", opts, "--json")
        got = json.loads(r.output)
        assert got["stats"]["states"] == t["stats"]["states"]
        for p in got["properties"]:
            cell = t["cells"][p["id"]]
            assert cell["verdict"] == p["verdict"], (t["label"], p["id"])
            if p["verdict"] == "VIOLATED":
                assert cell["length"] == p["evidence"]["length"]


def test_scenarios_saved_replay(swept, cli):
    _, m, tmp = swept
    files = sorted((tmp / "sc").iterdir())
    assert [f.name for f in files] == [
        "official-2p-1s-r2-2-h1-unbelief-pridecycle-FROZEN.toml",
        "official-2p-1s-r2-2-h1-unbelief-pridecycle-ROUND_ENDS.toml",
        "official-2p-1s-r2-2-h2-unbelief-pridecycle-FROZEN.toml",
        "official-2p-1s-r2-2-h2-unbelief-pridecycle-ROUND_ENDS.toml"]
    r = cli("replay", *map(str, files))
    assert r.exit_code == 0 and "all 4 scenarios pass" in r.output, r.output


def test_second_run_runs_no_job(swept, cli):
    """The cache: the same sweep again reads every job, writes no entry, and gives
    the same matrix."""
    r0, m, tmp = swept
    entries = sorted((tmp / "cache").glob("job-*.json"))
    assert len(entries) == 4
    stamps = [e.stat().st_mtime_ns for e in entries]
    r = _sweep(cli, tmp, "--json", str(tmp / "again.json"), "--save-scenarios",
               str(tmp / "sc2"))
    assert r.exit_code == 1
    assert "4 checked (0 run, 4 from the cache)" in r.output
    again = json.loads((tmp / "again.json").read_text())
    assert [t["cells"] for t in again["tables"]] == [t["cells"] for t in m["tables"]]
    assert all(t.get("cached") for t in again["tables"] if t["status"] == "checked")
    assert [e.stat().st_mtime_ns for e in sorted((tmp / "cache").glob("job-*.json"))] == stamps
    assert len(list((tmp / "sc2").iterdir())) == 4  # the scenarios come from the cache too
    # another limit is another job
    r = _sweep(cli, tmp, "--options-subsets", "none", "--hand", "1", "--max-states", "5")
    assert "1 checked (1 run, 0 from the cache)" in r.output, r.output


def test_limits_give_unknown_with_the_limit(cli, tmp_path):
    r = cli("sweep", *TABLE, "--hand", "1", "--options-subsets", "unbelief,pride_cycle;mercy",
            "--max-states", "40", "--jobs", "1", "--cache", str(tmp_path / "c"),
            "--property", "CONSERVATION", "--property", "HAND_BOUNDS",
            "--json", str(tmp_path / "m.json"))
    assert r.exit_code == 3, r.output + r.stderr
    m = json.loads((tmp_path / "m.json").read_text())
    assert m["properties"] == ["CONSERVATION", "HAND_BOUNDS"]
    for t in m["tables"]:
        assert t["cells"] == {p: {"verdict": "UNKNOWN", "limit": "--max-states 40"}
                              for p in ("CONSERVATION", "HAND_BOUNDS")}
    assert "[a] --max-states 40" in r.output
    r = cli("sweep", *TABLE, "--hand", "1", "--options-subsets", "mercy", "--timeout", "0.01",
            "--cache", str(tmp_path / "c"), "--json", str(tmp_path / "t.json"))
    assert r.exit_code == 3
    cells = json.loads((tmp_path / "t.json").read_text())["tables"][0]["cells"]
    assert {c["limit"] for c in cells.values()} == {"--timeout 0.01"}


def test_html_page(swept, cli):
    _, _, tmp = swept
    r = _sweep(cli, tmp, "--html", str(tmp / "m.html"))
    page = (tmp / "m.html").read_text()
    assert r.exit_code == 1 and "from the cache" in r.output
    assert page.count('data-verdict="VIOLATED"') == 4 and page.count('class="stepper"') == 4
    assert "skipped: 2 hands of 2" in page


# -- end to end: killed midway, resumed ------------------------------------------------

def _exe():
    beside = Path(sys.executable).parent / "itcp-check"
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "itcp.cli.main"]


def test_killed_midway_resumes_to_the_same_matrix(swept, tmp_path):
    _, m, _ = swept
    cache = tmp_path / "cache"
    cmd = _exe() + ["sweep", *TABLE, *SUBSETS, "--jobs", "1", "--cache", str(cache)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(cache.glob("job-*.json")) and p.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    done = len(list(cache.glob("job-*.json")))
    assert p.returncode in (1, 3), err  # a report, not a crash
    assert "Traceback" not in err and not list(cache.glob(".*itcp-tmp*"))
    if done < 4:
        assert "STOPPED (interrupted (SIGTERM))" in out
    r = subprocess.run(cmd + ["--json", str(tmp_path / "m.json")], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert f"({4 - done} run, {done} from the cache)" in r.stdout
    resumed = json.loads((tmp_path / "m.json").read_text())
    assert [t["cells"] for t in resumed["tables"]] == [t["cells"] for t in m["tables"]]
    assert r.stderr == ""  # no progress bar on a pipe


# -- a sweep over option subsets by size -------------------------------------------------

@pytest.mark.slow
def test_option_subsets_of_at_most_one_card(cli, tmp_path):
    """2 players, 1 suit, ranks 2..2, hand 1, no option card or one of the six (7
    tables; ``all`` gives 64, test_ranges_and_subsets).  Every job compiles the rules
    at its table (a few seconds), so the suite runs these 7 and docs/sweep.md the 64
    (the subsets of five and six cards alone take minutes exhaustively); each job
    stops at 500 states and checks two properties: the tables it exhausts are
    decided, the others UNKNOWN naming the limit."""
    r = cli("sweep", "--players", "2", "--suits", "1", "--ranks", "2..2", "--hand", "1",
            "--options-subsets", "0..1", "--max-states", "500", "--property", "FROZEN",
            "--property", "ZERO_STOPS", "--cache", str(tmp_path / "c"),
            "--json", str(tmp_path / "m.json"))
    assert r.exit_code == 1, r.output + r.stderr
    m = json.loads((tmp_path / "m.json").read_text())
    assert len(m["tables"]) == 7 and m["summary"]["checked"] == 7
    opts = [tuple(t["options"]) for t in m["tables"]]
    assert len(set(opts)) == 7 and opts[0] == () and max(map(len, opts)) == 1
    for t in m["tables"]:
        assert set(t["cells"]) == {"FROZEN", "ZERO_STOPS"}
        complete = t["stats"]["complete"]
        for cell in t["cells"].values():
            if cell["verdict"] == "UNKNOWN":
                assert not complete and cell["limit"] == "--max-states 500"
            elif cell["verdict"] == "HOLDS":
                assert complete
    bare = m["tables"][0]
    assert bare["stats"]["complete"] and all(c["verdict"] == "HOLDS"
                                             for c in bare["cells"].values())
    up = next(t for t in m["tables"] if t["options"] == {"pride_cycle": 1})
    assert up["cells"]["FROZEN"] == {"verdict": "VIOLATED", "length": 4}
