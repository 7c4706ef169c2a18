"""``check --save-scenarios``: every printed trace becomes a scenario that replays
to the same verdict; a batch is written all or nothing."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from itcp.cli.main import main
from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay
from itcp.scenarios.save import checked_texts
from itcp.spec.errors import InputError

#: 2 players, 1 suit: FROZEN (Pride Cycle) and ROUND_ENDS (an Unbelief lasso)
#: are violated in well under a second
TINY = ["--suits", "1"]


def _check(args):
    return CliRunner().invoke(main, ["check", *TINY, *args])


def test_explicit_traces_replay_to_the_same_verdicts(tmp_path):
    out = tmp_path / "saved"
    r = _check(["--json", "--save-scenarios", str(out)])
    assert r.exit_code == 1, r.output
    report = json.loads(r.output)
    violated = {p["id"] for p in report["properties"] if p["verdict"] == "VIOLATED"}
    assert violated == {"FROZEN", "ROUND_ENDS"}
    assert sorted(p.rsplit("/", 1)[1] for p in report["scenarios"]) == [
        f"official-{pid}.toml" for pid in sorted(violated)]
    for pid in violated:
        sc = load_scenario(out / f"official-{pid}.toml")
        res = replay(sc)
        assert res.ok, res.message
        assert sc.expect == {"property": pid, "verdict": "violated"}
        trace = next(p for p in report["properties"] if p["id"] == pid)["trace"]
        assert len(sc.moves) >= trace["length"]
    # the lasso comes back to a state it has been in: the loop is in the file
    lasso = replay(load_scenario(out / "official-ROUND_ENDS.toml"))
    assert lasso.states[-1] in lasso.states[:-1]
    assert not list(tmp_path.glob(".saved-*")), "no temporary folder is left behind"


def test_text_report_names_the_files(tmp_path):
    r = _check(["--property", "FROZEN", "--save-scenarios", str(tmp_path / "s")])
    assert r.exit_code == 1
    assert "1 scenario file(s) saved:" in r.output and "official-FROZEN.toml" in r.output


def test_variant_file_is_named_relative_to_the_scenario(tmp_path):
    var = tmp_path / "house" / "mine.toml"
    var.parent.mkdir()
    var.write_text('description = "mine"\nextends = "official"\n[readings]\n'
                   '"pass.score" = "always"\n')
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["check", str(var), *TINY, "--property", "FROZEN",
                                  "--save-scenarios", str(out)])
    assert r.exit_code == 1, r.output
    (saved,) = out.glob("*.toml")
    assert 'variant = "../house/mine.toml"' in saved.read_text()
    assert replay(load_scenario(saved)).ok


def test_a_scenario_that_does_not_replay_is_refused_before_anything_is_written(tmp_path):
    r = _check(["--property", "FROZEN", "--save-scenarios", str(tmp_path / "a")])
    assert r.exit_code == 1
    good = (tmp_path / "a" / "official-FROZEN.toml").read_text()
    wrong = good.replace('verdict = "violated"', 'verdict = "holds"')
    out = tmp_path / "b"
    with pytest.raises(InputError, match="does not replay"):
        checked_texts(out, {"one.toml": good, "two.toml": wrong})
    assert checked_texts(out, {"one.toml": good}) == {"one.toml": good}
    assert [p.name for p in tmp_path.iterdir()] == ["a"]


def test_saving_again_needs_force(tmp_path):
    out = tmp_path / "s"
    assert _check(["--property", "FROZEN", "--save-scenarios", str(out)]).exit_code == 1
    mine = out / "mine.txt"
    mine.write_text("the user's")
    r = _check(["--property", "FROZEN", "--save-scenarios", str(out)])
    assert r.exit_code == 2 and "official-FROZEN.toml" in r.output and "--force" in r.output
    r = _check(["--property", "FROZEN", "--save-scenarios", str(out), "--force"])
    assert r.exit_code == 1, r.output
    assert mine.read_text() == "the user's"  # other files in the folder are left alone
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt", "official-FROZEN.toml"]


def test_save_into_a_file_is_bad_input(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    r = _check(["--property", "FROZEN", "--save-scenarios", str(f)])
    assert r.exit_code == 2
    assert "Traceback" not in r.output


@pytest.mark.slow
def test_symbolic_trace_replays(tmp_path):
    out = tmp_path / "sym"
    r = _check(["--engine", "symbolic", "--property", "FROZEN", "--depth", "6",
                "--save-scenarios", str(out)])
    assert r.exit_code == 1, r.output
    sc = load_scenario(out / "official-FROZEN.toml")
    assert "symbolic" in sc.title and replay(sc).ok
