"""itcp-check ask, diff and disputes end to end: answers, witnesses that replay, proofs,
errors with positions, the rulings document's freshness."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay

#: a table small enough to exhaust in well under a second
TINY = ["--suits", "1", "--ranks", "2..3", "--options", "pride_cycle"]


def _json(r):
    assert r.exit_code == 0, (r.exit_code, r.output, r.stderr)
    return json.loads(r.output)


def _replays(path):
    res = replay(load_scenario(path))
    assert res.ok, res.message
    return res


def test_passer_hand_changes_under_official(cli, tmp_path):
    r = cli("ask", "can the passer's hand change", "official", *TINY, "--proof-players", "none",
            "--save", str(tmp_path), "--json")
    out = _json(r)
    assert out["answer"] == "yes"
    ev = out["evidence"]
    assert ev["kind"] == "witness" and ev["length"] == 4
    assert "pride.passer.gives_not_receives" in ev["rules"]
    assert "2 players, 1 suit, ranks 2-3" in out["scope"]
    _replays(ev["scenario"])


def test_passer_hand_frozen_under_clarified_exhaustive(cli, tmp_path):
    r = cli("ask", "can the passer's hand change", "clarified", *TINY, "--proof-players", "none",
            "--save", str(tmp_path), "--json")
    out = _json(r)
    assert out["answer"] == "no"
    assert out["evidence"]["kind"] == "exhaustive"
    assert out["evidence"]["exhaustive"]["states"] > 1000
    assert out["scope"].startswith("in every game with 2 players, 1 suit, ranks 2-3")
    assert not list(tmp_path.iterdir())  # no witness, nothing written


@pytest.mark.slow
def test_clarified_inductive_proof_names_rules_sentences_readings(cli, tmp_path):
    r = cli("ask", "can the passer's hand change", "clarified", *TINY, "--proof-players", "2",
            "--proof-at", "table", "--proof-timeout", "300", "--json")
    out = _json(r)
    ev = out["evidence"]
    assert out["answer"] == "no" and ev["kind"] == "inductive", ev
    assert ev["proofs"][0]["verdict"] == "proved" and ev["proofs"][0]["kind"] == "inductive"
    assert ev["rules"] and ev["sentences"] and ev["readings"]
    assert "by induction" in out["scope"]


def test_full_deck_proof_that_runs_out_of_time_is_unknown_by_name(cli, tmp_path):
    r = cli("ask", "can the passer's hand change", "clarified", *TINY, "--proof-players", "2",
            "--proof-timeout", "0.5", "--json")
    out = _json(r)
    p = out["evidence"]["proofs"][0]
    assert out["answer"] == "no" and out["evidence"]["kind"] == "exhaustive"
    assert p["verdict"] == "unknown" and "timeout" in (p.get("limit") or "")
    assert "full deck" not in out["scope"]  # nothing was proved there: not claimed


@pytest.mark.slow
def test_eight_player_full_deck_proof_is_a_proof_or_unknown_by_name(cli, tmp_path):
    """Within 10 s the eight-player full-deck proof either finishes (then it is an
    induction proof with its core) or is UNKNOWN naming the time-out, and the scope
    claims the full deck only when it is proved: never an unproved answer."""
    r = cli("ask", "can the passer's hand change", "clarified", *TINY, "--proof-players", "8",
            "--proof-timeout", "10", "--save", str(tmp_path), "--json")
    out = _json(r)
    p = out["evidence"]["proofs"][0]
    assert out["answer"] == "no" and p["players"] == 8
    if p["verdict"] == "proved":
        assert p["kind"] == "inductive" and p["rules"]
        assert "8 players and the full deck" in out["scope"]
    else:
        assert p["verdict"] == "unknown" and "timeout" in (p.get("limit") or "")
        assert "full deck" not in out["scope"]


def test_liveness_lasso_and_proof(cli, tmp_path):
    table = ["--suits", "1", "--ranks", "2..3", "--options", "unbelief", "--proof-players", "none"]
    out = _json(cli("ask", "after a pass, eventually the round ends", "official", *table,
                    "--save", str(tmp_path), "--json"))
    ev = out["evidence"]
    assert out["answer"] == "no" and ev["kind"] == "witness" and ev["shape"] == "lasso"
    assert 0 < ev["loop_starts_at_step"] < ev["length"]
    _replays(ev["scenario"])
    out = _json(cli("ask", "after a pass, eventually the round ends", "clarified", *table,
                    "--json"))
    assert out["answer"] == "yes" and out["evidence"]["kind"] == "exhaustive"
    assert "no cycle and no dead end" in out["evidence"]["method"]


def test_text_output_tells_the_story(cli, tmp_path):
    r = cli("ask", "can pride_cycle fire while someone has passed", "official", *TINY,
            "--proof-players", "none", "--save", str(tmp_path))
    assert r.exit_code == 0, r.output
    assert r.output.startswith("YES: can pride_cycle fire while someone has passed")
    assert "deal:" in r.output and "pass.say" in r.output and "itcp-check replay" in r.output


def test_limit_gives_unknown(cli, tmp_path):
    r = cli("ask", "can 2 players have passed", "official", *TINY, "--max-states", "50",
            "--proof-players", "none", "--json")
    assert r.exit_code == 3
    out = json.loads(r.output)
    assert out["answer"] == "unknown" and "--max-states 50" in out["evidence"]["limit"]


@pytest.mark.parametrize("question,col,near", [
    ("can the passer's hnd change", 18, "hand"),
    ("differs pride.pasers", 9, "pride.passer"),
])
def test_question_errors_exit_2_with_position(cli, question, col, near):
    r = cli("ask", question, "official")
    assert r.exit_code == 2
    assert "Traceback" not in r.stderr and f"column {col}" in r.stderr
    assert "^" in r.stderr and f"did you mean {near!r}" in r.stderr


def test_bad_flags_exit_2(cli):
    for args in (["--proof-players", "1..9"], ["--proof-players", "x"],
                 ["--proof-timeout", "-1"], ["--players", "9"]):
        r = cli("ask", "can 2 players have passed", "official", *args)
        assert r.exit_code == 2 and "error:" in r.stderr.lower(), (args, r.stderr)
    r = cli("ask", "can the top card be purple 2", "official", *TINY)
    assert r.exit_code == 2 and "no card 'purple 2'" in r.stderr


def test_differs_question(cli, tmp_path):
    out = _json(cli("ask", "differs repentance.two", "official", "--suits", "1", "--ranks",
                    "2..3", "--options", "repentance", "--save", str(tmp_path), "--json"))
    assert out["answer"] == "yes"
    comps = out["evidence"]["comparisons"]
    assert [c["readings"] for c in comps] == [["no_effect", "skip"]]
    for p in comps[0]["scenarios"]:
        _replays(p)


def test_subprocess_ask(tmp_path):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([sys.executable, "-m", "itcp.cli.main", "ask",
                        "can the passer's hand chnge", "official"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert r.returncode == 2 and "column 23" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "itcp.cli.main", "ask",
                        "can the passer's hand change", "official", *TINY,
                        "--proof-players", "none", "--json"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["answer"] == "yes"
    assert (tmp_path / out["evidence"]["scenario"]).exists()  # saved under ./itcp-answers


# -- diff -----------------------------------------------------------------------------------

@pytest.mark.slow
def test_diff_official_published_lists_every_differing_choice_point(cli, tmp_path):
    from itcp.spec.variants import load_variant
    a, b = load_variant("official"), load_variant("published")
    expected = {cp for cp in a.readings if a.readings[cp] != b.readings[cp]}
    out = _json(cli("diff", "official", "published", "--save", str(tmp_path), "--json"))
    got = {c["choice_point"]: c for c in out["choice_points"]}
    assert set(got) == expected
    for c in got.values():
        assert c["result"] in ("differ", "agree")
        for p in c.get("scenarios", []):
            _replays(p)


def test_compare_readings_differ_and_agree(tmp_path, dir_sink):
    from itcp.checks.questions.diff import compare_readings
    from itcp.spec.variants import load_variant
    v = load_variant("official", {"players": 2, "suits": 1, "ranks": (2, 3), "hand": 1,
                                  "options": (("pride_cycle", 1),)})
    c = compare_readings(v, "pride.passer", "gives_not_receives", "skipped", dir_sink(tmp_path),
                         configs=[v.config])
    assert c.result == "differ" and c.difference.kind in ("outcome", "legal", "scores")
    assert len(c.scenarios) == 2
    for p in c.scenarios:
        _replays(p)
    # a choice point about a card that is not at the table: the same game, exhaustively
    c = compare_readings(v, "mercy.race", "not_passer", "anyone", None, configs=[v.config])
    assert c.result == "agree" and c.tables_agreed


def test_diff_bad_variant_exit_2(cli):
    r = cli("diff", "official", "clarifed")
    assert r.exit_code == 2 and "clarified" in r.stderr


# -- disputes -------------------------------------------------------------------------------

def test_catalogue_is_big_and_valid():
    from itcp.checks.questions.disputes import load_catalogue
    ds = load_catalogue()
    assert len(ds) >= 15
    titles = " ".join(d.title.lower() for d in ds)
    for topic in ("pride cycle and the passer", "secret combination with the passer",
                  "justice when the next player passed", "unbelief loops after a pass",
                  "repentance right after a pass", "mercy's race and the passer",
                  "an empty deck", "desolations with no matching pile", "zero hand at the deal",
                  "secret combination with two players", "pass scoring ties"):
        assert topic in titles, topic


def test_catalogue_errors_name_file_and_line(tmp_path):
    from itcp.checks.questions.disputes import load_catalogue
    from itcp.spec.errors import InputError
    bad = tmp_path / "c.toml"
    bad.write_text('[[dispute]]\nid = "x"\ntitle = "t"\nargument = "a"\nsentences = ["pass.1"]\n'
                   'question = "can the pasers hand change"\ntable = { players = 2 }\n'
                   'choice_points = []\n')
    with pytest.raises(InputError) as e:
        load_catalogue(bad)
    assert f"{bad}:6" in e.value.render() and "column" in e.value.render()


def test_disputes_out_must_be_markdown(cli, tmp_path):
    r = cli("disputes", "--out", str(tmp_path / "rulings"))
    assert r.exit_code == 2 and ".md" in r.stderr
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_disputes_list(cli):
    r = cli("disputes", "--list")
    assert r.exit_code == 0 and "pride-passer" in r.output and len(r.output.splitlines()) >= 15


@pytest.mark.slow
def test_rulings_document_is_up_to_date(repo, tmp_path):
    """docs/rulings.md is generated; if this fails run `itcp-check disputes --force`."""
    from itcp.checks.questions.disputes import document, load_catalogue
    from itcp.scenarios.save import Collected
    save = Collected(tmp_path / "rulings")
    doc = document(load_catalogue(), save, tmp_path / "rulings.md")
    want = (repo / "docs" / "rulings.md").read_text(encoding="utf-8")
    assert doc == want, "docs/rulings.md is stale: run itcp-check disputes --force"
    theirs = {p.name: p.read_text(encoding="utf-8") for p in (repo / "docs" / "rulings").glob("*.toml")}
    assert save.files == theirs, "docs/rulings/ is stale: run itcp-check disputes --force"
    assert "seconds" not in want and " s)" not in want  # no timings in the document


@pytest.mark.slow
def test_rulings_scenarios_replay(repo):
    files = sorted((repo / "docs" / "rulings").glob("*.toml"))
    assert len(files) >= 15
    for p in files:
        _replays(p)


def test_scope_is_stated_plainly():
    from itcp.checks.questions.ask import sizes_scope, table_scope
    from itcp.spec.config import Config
    assert sizes_scope(range(2, 9)) == "in every game with 2-8 players and the full deck"
    assert sizes_scope([2, 5]) == "in every game with 2, 5 players and the full deck"
    c = Config(players=3, suits=2, ranks=(2, 4), hand=1, options=())
    assert table_scope(c) == ("in every game with 3 players, 2 suits, ranks 2-4, hand 1, "
                              "no option cards")


def test_variant_file_and_no_symmetry(cli, tmp_path):
    v = tmp_path / "house.toml"
    v.write_text('description = "house"\nextends = "official"\n[readings]\n'
                 '"pride.passer" = "skipped"\n')
    out = _json(cli("ask", "can the passer's hand change", str(v), *TINY, "--no-symmetry",
                    "--proof-players", "none", "--json"))
    assert out["answer"] == "no" and out["evidence"]["exhaustive"]["symmetry"] is False


def test_variant_file_witnesses_replay_from_anywhere(cli, tmp_path, monkeypatch):
    """Saved under a variant file named relative to the working folder, the witness of
    ``ask`` and the scenarios of ``diff`` name the file relative to themselves."""
    (tmp_path / "house.toml").write_text('description = "house"\nextends = "official"\n'
                                         '[readings]\n"pride.passer" = "before_keeps"\n')
    monkeypatch.chdir(tmp_path)
    out = _json(cli("ask", "can pride_cycle fire while someone has passed", "house.toml",
                    *TINY, "--proof-players", "none", "--save", "out", "--json"))
    assert out["answer"] == "yes"
    diff = _json(cli("diff", "house.toml", "official", "--save", "out", "--json"))
    (cmp,) = diff["choice_points"]
    assert cmp["result"] == "differ" and len(cmp["scenarios"]) == 2
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    for p in [out["evidence"]["scenario"], *cmp["scenarios"]]:
        assert load_scenario(tmp_path / p).variant.endswith("../house.toml")
        _replays(tmp_path / p)
