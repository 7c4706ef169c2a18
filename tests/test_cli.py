"""The ``itcp-check`` command line: help, rules, simulate, errors, exit codes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import click
import pytest

from itcp.cli import main as main_mod
from itcp.cli.main import main
from itcp.spec.choices import CHOICE_POINTS

DESIGN_CHOICE_POINTS = {
    "deck.exhausted", "setup.first_card", "setup.zero_deal", "turn.take_back", "pass.when",
    "pass.multiple", "pass.reached", "pass.score", "zero.when", "charity.scope",
    "desolation.target", "discard.none", "mercy.race", "mercy.after", "justice.duty",
    "justice.passer", "repentance.two", "unbelief.pass", "pride.passer", "pride.timing",
    "secret.next", "secret.seat", "secret.best", "secret.two", "game.end",
}
SHIPPED = {"official", "published", "clarified"}


def assert_clean_usage_error(result, *needles: str):
    """Exit 2, a message on stderr, no traceback anywhere."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.stderr)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    text = result.stderr
    assert "Traceback" not in text and "Traceback" not in result.output
    assert "error:" in text.lower(), text
    for needle in needles:
        assert needle in text, (needle, text)


# -- help -------------------------------------------------------------------------

def test_root_help():
    from click.testing import CliRunner
    r = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0
    for name in ("rules", "simulate"):
        assert name in r.output


@pytest.mark.parametrize("command", main.list_commands(None))
def test_every_command_has_help(cli, command):
    r = cli(command, "--help")
    assert r.exit_code == 0, r.output
    assert f"itcp-check {command}" in r.output
    assert "--help" in r.output


def test_version(cli):
    r = cli("--version")
    assert r.exit_code == 0 and "itcp-check" in r.output


# -- a bare itcp-check -----------------------------------------------------------

def test_bare_is_check_official_with_checks_options(cli):
    root = {p.name for p in main.params if p.name != "version"}
    check = {p.name for p in main_mod.CHECK.params if isinstance(p, click.Option)}
    assert root == check
    if "max_states" not in root or "as_json" not in root:
        pytest.skip("check has no --max-states/--json to keep this test fast")
    bare = cli("--max-states", "50", "--json")
    explicit = cli("check", "official", "--max-states", "50", "--json")
    assert bare.exit_code == explicit.exit_code and bare.exit_code in (0, 1, 3)

    def stable(text):
        data = json.loads(text)
        props = [(p.get("id"), p.get("verdict")) for p in data.get("properties", [])]
        return data.get("variant"), data.get("config"), props
    assert stable(bare.stdout) == stable(explicit.stdout)


def test_root_options_do_not_silently_apply_to_a_command(cli):
    r = cli("--players", "3", "rules")
    assert r.exit_code == 2
    assert "after 'rules'" in r.stderr


# -- rules ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rules_json():
    from click.testing import CliRunner
    r = CliRunner().invoke(main, ["rules", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_rules_json_choice_points(rules_json):
    cps = rules_json["choice_points"]
    assert len(cps) >= 24
    ids = {cp["id"] for cp in cps}
    assert DESIGN_CHOICE_POINTS <= ids
    assert ids == set(CHOICE_POINTS)
    for cp in cps:
        assert cp["question"]
        assert len(cp["readings"]) >= 2
        assert all({"id", "text"} <= set(r) for r in cp["readings"])
        assert cp["readings"][0]["id"] == cp["literal"]
        assert set(cp["sentence_texts"]) == set(cp["sentences"])
        assert all(cp["sentence_texts"].values())


def test_rules_json_rules_and_variants(rules_json):
    assert {"rules", "choice_points", "variants"} <= set(rules_json)
    assert SHIPPED <= {v["name"] for v in rules_json["variants"]}
    published = next(v for v in rules_json["variants"] if v["name"] == "published")
    assert published["readings"]["justice.duty"] == "stacking"
    rules = rules_json["rules"]
    assert len({r["id"] for r in rules}) == len(rules)
    for r in rules:
        assert r["id"] and r["sentences"] and r["doc"]
        assert (r["choice"] is None) == (r["reading"] is None)
        if r["choice"]:
            assert r["reading"] in CHOICE_POINTS[r["choice"]].reading_ids
    # every reading of every choice point is implemented by at least one rule
    implemented = {(r["choice"], r["reading"]) for r in rules if r["choice"]}
    missing = [(cp.id, rd) for cp in CHOICE_POINTS.values() for rd in cp.reading_ids
               if (cp.id, rd) not in implemented]
    assert not missing


def test_rules_included_follow_the_variant(cli):
    data = json.loads(cli("rules", "published", "--json").stdout)
    inc = {r["id"]: r["included"] for r in data["rules"]}
    assert inc["justice.duty.stacking"] and not inc["justice.duty.no_force"]
    assert data["variant"]["name"] == "published"


def test_rules_text_table(cli):
    r = cli("rules")
    assert r.exit_code == 0
    out = r.output
    for needle in ("Rules (", "Choice points (", "Variants", "deck.exhausted", "justice.duty",
                   "published", "clarified"):
        assert needle in out
    assert "Traceback" not in out


def test_rules_with_config_flags(cli):
    r = cli("rules", "--players", "2", "--suits", "1", "--ranks", "2..4", "--hand", "2",
            "--options", "mercy,justice=2", "--json")
    assert r.exit_code == 0, r.stderr
    cfg = json.loads(r.stdout)["variant"]["config"]
    assert cfg["players"] == 2 and cfg["suits"] == 1 and cfg["ranks"] == "2..4"
    assert cfg["options"] == {"mercy": 1, "justice": 2}


def test_full_deck_flag(cli):
    small = ["--players", "2", "--suits", "1", "--ranks", "2..4", "--hand", "2",
             "--options", "none"]
    r = cli("rules", "clarified", *small[:2], "--full-deck", "--json")
    cfg = json.loads(r.stdout)["variant"]["config"]
    assert cfg["suits"] == 6 and cfg["ranks"] == "2..10" and len(cfg["options"]) == 6
    assert cfg["players"] == 2
    # explicit flags apply on top of the full deck
    r = cli("rules", *small, "--full-deck", "--json")
    cfg = json.loads(r.stdout)["variant"]["config"]
    assert cfg["suits"] == 1 and cfg["ranks"] == "2..4" and cfg["options"] == {}


def test_dump_engine_is_python(cli):
    r = cli("rules", "--dump-engine", "--players", "2", "--suits", "1", "--ranks", "2..4",
            "--hand", "2", "--options", "none")
    assert r.exit_code == 0, r.stderr
    src = r.output
    assert "def apply_" in src and "Readings:" in src
    compile(src, "<dumped engine>", "exec")


def test_dump_successors_is_python(cli):
    r = cli("rules", "--dump-successors", "--players", "2", "--suits", "1", "--ranks", "2..4",
            "--hand", "2", "--options", "none")
    assert r.exit_code == 0, r.stderr
    assert "def bind(" in r.output and "def succ_DISCARD_turn0_actor0(k, i):" in r.output
    compile(r.output, "<dumped successors>", "exec")
    assert cli("rules", "--dump-successors", "--dump-engine").exit_code == 2


def test_output_modes_are_exclusive(cli):
    r = cli("rules", "--json", "--markdown")
    assert r.exit_code == 2


def test_markdown_catalogue_is_up_to_date(cli, repo):
    """docs/choice-points.md is generated; regenerate it if this fails:
    itcp-check rules --markdown > docs/choice-points.md"""
    r = cli("rules", "--markdown")
    assert r.exit_code == 0
    doc = (repo / "docs" / "choice-points.md").read_text(encoding="utf-8")
    assert r.output == doc, ("docs/choice-points.md is stale: run "
                             "`itcp-check rules --markdown > docs/choice-points.md`")


def test_markdown_catalogue_content(cli):
    md = cli("rules", "--markdown").output
    assert md.startswith("# Choice points")
    assert "itcp-check rules --markdown > docs/choice-points.md" in md.splitlines()[3]
    for cp in CHOICE_POINTS.values():
        assert f"## {cp.id}\n" in md
        for rd in cp.reading_ids:
            assert f"`{cp.id}.{rd}`" in md or f"`{rd}`" in md
    # sentences quoted verbatim
    assert "> **justice.1**: Justice (20 pts.): Next player must draw or play" in md


# -- bad input: exit 2, a clear message, no traceback ---------------------------------

@pytest.mark.parametrize("args, needles", [
    (["rules", "--players", "9"], ["players must be 2..8"]),
    (["simulate", "--players", "9", "-n", "1"], ["players must be 2..8"]),
    (["rules", "--options", "mercy,bogus"], ["bogus"]),
    (["rules", "--options", "mercy=9"], ["mercy"]),
    (["rules", "--ranks", "5..2"], ["5..2"]),
    (["rules", "--ranks", "two"], ["ranks"]),
    (["rules", "offical"], ["offical", "did you mean 'official'"]),
    (["simulate", "no-such-variant", "-n", "1"], ["no-such-variant"]),
    (["rules", "--hand", "40"], ["hand", "cards"]),
    (["rules", "missing/dir/variant.toml"], ["variant.toml"]),
])
def test_bad_input_exits_2(cli, args, needles):
    assert_clean_usage_error(cli(*args), *needles)


@pytest.mark.parametrize("args", [
    ["rules", "--bogus-flag"],
    ["simulate", "-n", "-1"],
    ["simulate", "--max-steps", "0"],
    ["simulate", "--players", "three"],
    ["no-such-command"],
])
def test_click_usage_errors_exit_2(cli, args):
    r = cli(*args)
    assert r.exit_code == 2
    assert "Traceback" not in r.output + r.stderr
    assert "error" in r.stderr.lower()


BAD_VARIANT_FILES = {
    "bad_reading.toml": ('description = "x"\nextends = "official"\n[readings]\n'
                         '"justice.duty" = "stack"\n', ":4:", "stacking"),
    "bad_point.toml": ('[readings]\n"justice.dooty" = "stacking"\n', ":2:", "justice.duty"),
    "bad_toml.toml": ('description = "unterminated\n', ":1:", "TOML"),
    "bad_config.toml": ('[config]\nplayers = 12\n', ":2:", "players"),
    "bad_key.toml": ('descripton = "typo"\n', ":1:", "description"),
}


@pytest.mark.parametrize("name", sorted(BAD_VARIANT_FILES))
@pytest.mark.parametrize("command", ["rules", "simulate"])
def test_bad_variant_file_exits_2_with_file_and_line(cli, tmp_path, name, command):
    text, line, hint = BAD_VARIANT_FILES[name]
    path = tmp_path / name
    path.write_text(text)
    r = cli(command, str(path))
    assert_clean_usage_error(r, f"{path}{line}", hint)


def test_good_variant_file(cli, tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(textwrap.dedent("""
        description = "house rules"
        extends = "published"
        [readings]
        "deck.exhausted" = "reshuffle"
        [config]
        players = 3
    """))
    r = cli("rules", str(path), "--json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["variant"]["name"] == "house"
    assert data["variant"]["readings"]["deck.exhausted"] == "reshuffle"
    assert data["variant"]["readings"]["justice.duty"] == "stacking"
    assert data["variant"]["config"]["players"] == 3


# -- simulate ---------------------------------------------------------------------

def test_simulate_json(cli):
    r = cli("simulate", "-n", "30", "--seed", "3", "--json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert {"rounds", "steps", "steps_per_second", "endings", "rule_firings",
            "mean_round_length", "seconds"} <= set(data)
    assert data["rounds"] == 30
    assert sum(data["endings"].values()) == 30
    assert {"pass reached", "zero", "deck exhausted", "stuck", "step cap"} <= set(data["endings"])
    assert data["rule_firings"]


def test_simulate_deterministic(cli):
    def run():
        data = json.loads(cli("simulate", "-n", "25", "--seed", "7", "--json").stdout)
        for k in ("seconds", "steps_per_second"):
            data.pop(k)
        return data
    assert run() == run()


def test_simulate_eight_players_official(cli):
    r = cli("simulate", "official", "--players", "8", "-n", "100", "--seed", "1", "--json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["config"]["players"] == 8
    assert sum(data["endings"].values()) == 100


def test_simulate_text_report(cli):
    r = cli("simulate", "published", "-n", "40", "--seed", "2", "--players", "3")
    assert r.exit_code == 0, r.stderr
    for needle in ("Simulated 40 random rounds of published", "steps/second",
                   "How rounds ended", "pass reached", "step cap", "Rule firings"):
        assert needle in r.output


def test_simulate_step_cap_example_shown(cli):
    r = cli("simulate", "-n", "3", "--max-steps", "2")
    assert r.exit_code == 0, r.stderr
    assert "A round that hit the step cap" in r.output


# -- the real executable ------------------------------------------------------------

def _env():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def test_module_entry_point_subprocess(tmp_path):
    r = subprocess.run([sys.executable, "-m", "itcp.cli.main", "rules", "--json"],
                       capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)["choice_points"]) >= 24
    r = subprocess.run([sys.executable, "-m", "itcp.cli.main", "rules", "--players", "9"],
                       capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=120)
    assert r.returncode == 2
    assert r.stderr.startswith("error: ") and "Traceback" not in r.stderr


def test_an_explicit_check_never_imports_z3_or_networkx(tmp_path):
    """Start-up is part of every command's time: the Quick start's check (the
    explicit engine, no --graph) runs without importing Z3 or networkx, which
    cost about a third of a second together; --engine symbolic does import Z3."""
    code = ("import sys\nfrom itcp.cli.main import main\n"
            "try:\n    main(sys.argv[1:], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            "print([m for m in ('z3', 'networkx') if m in sys.modules])\n")

    def imported(*args):
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                           cwd=tmp_path, env=_env(), timeout=300)
        assert "Traceback" not in r.stderr, r.stderr
        return r.stdout.strip().splitlines()[-1]

    assert imported("check", "official", "--json") == "[]"
    assert imported("check", "official", "--engine", "symbolic", "--property", "ZERO_STOPS",
                    "--json") == "['z3']"


def _console_script() -> str | None:
    beside = Path(sys.executable).parent / "itcp-check"
    if beside.exists():
        return str(beside)
    return shutil.which("itcp-check")


@pytest.mark.skipif(_console_script() is None, reason="itcp-check is not installed")
def test_console_script_subprocess(tmp_path):
    exe = _console_script()
    r = subprocess.run([exe, "simulate", "-n", "5", "--seed", "1", "--json"],
                       capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert sum(json.loads(r.stdout)["endings"].values()) == 5
    r = subprocess.run([exe, "rules", "--options", "mercy,bogus"],
                       capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=120)
    assert r.returncode == 2 and "bogus" in r.stderr and "Traceback" not in r.stderr


# -- README and CI ----------------------------------------------------------------

QUICK_START = [
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/itcp-check",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest",
]


def test_readme_quick_start(repo):
    text = (repo / "README.md").read_text(encoding="utf-8")
    assert text.startswith("# itcp\n")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = section.split("```")
    assert len(blocks) == 3, "Quick start has exactly one code block"
    lines = [ln for ln in blocks[1].splitlines()[1:] if ln.strip()]
    assert lines == QUICK_START


def test_ci_runs_the_readme_command(repo):
    ci = repo / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    text = ci.read_text()
    assert text.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in text
    assert QUICK_START[1] in text
    assert "-eq 5" in text  # pytest's "no tests collected" is a failure


def test_simulate_reference_backend_agrees(cli):
    small = ["-n", "4", "--seed", "2", "--players", "2", "--suits", "1", "--ranks", "2..5",
             "--hand", "2", "--options", "none", "--json"]
    runs = {}
    for backend in ("generated", "reference"):
        r = cli("simulate", *small, "--backend", backend)
        assert r.exit_code == 0, r.stderr
        runs[backend] = json.loads(r.stdout)
    for key in ("endings", "steps", "mean_round_length"):
        assert runs["generated"][key] == runs["reference"][key]


def test_check_full_deck_starts_from_the_real_deal():
    """`check` and `ask` start from a small default table, but --full-deck means the
    real game: the variant's own deal (players, hand size), not the small table's."""
    from itcp.cli.check_cmd import start_table
    from itcp.cli.common import load_with
    from itcp.spec.variants import DEFAULT_TABLE
    assert start_table({}) == {**DEFAULT_TABLE}
    cfg = load_with("clarified", start_table({"full_deck": True})).config
    assert (cfg.players, cfg.hand, cfg.suits, cfg.n_cards) == (4, 6, 6, 72)
    cfg = load_with("clarified", start_table({"full_deck": True, "players": 8})).config
    assert (cfg.players, cfg.hand) == (8, 6)
    cfg = load_with("clarified", start_table({"full_deck": True, "hand": 2})).config
    assert cfg.hand == 2
