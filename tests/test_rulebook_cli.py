"""``itcp-check rulebook`` as a user runs it: the text, the Markdown (docs/rulebook.md
is its output, tested fresh), the JSON, the HTML page written through the output
rules, and bad input answered with exit 2 and a message, never a traceback."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from itcp.report.rulebook_text import MARKDOWN_FILE, REGENERATE
from itcp.spec.rulebook import SENTENCES

EXE = Path(sys.executable).with_name("itcp-check")


def run(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), "rulebook", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_one_sentence_at_the_terminal():
    """A sentence with its rules (the variant's starred, each in English, fired or not,
    its scenarios and mutants) and its choice points (the variant's reading marked,
    why the literal one is literal, the scenario telling them apart)."""
    r = run("official", "--sentence", "pride.1")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert '[pride.1] "Pride Cycle (20 pts.): When a player discards a Pride Cycle card' in out
    assert "explicit search at 2 players, 2 suits, ranks 2-2, hand 1, Unbelief, Pride Cycle" in out
    assert "  * pride.timing.simultaneous  reading pride.timing = simultaneous  [fired]" in out
    assert "    pride.timing.in_turn  reading pride.timing = in_turn  [not in this variant]" in out
    assert "When a giver chooses a card to give" in out
    assert "    > simultaneous  simultaneously: everyone chooses before receiving (literal; " \
           "official's)" in out
    assert "Told apart by: reading-pride-timing.toml (simultaneous vs in_turn)" in out
    assert re.search(r"\n      Mutants: \d+ killed of \d+ mutants", out)
    assert re.search(r"\n      Scenarios: [\w-]+\.toml", out)
    assert "[pass.1]" not in out            # only the sentence asked for


def test_the_markdown_rulebook_is_fresh(repo):
    """docs/rulebook.md is generated; if this fails, run
    itcp-check rulebook --markdown > docs/rulebook.md"""
    r = run("--markdown")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[3] == f"     {REGENERATE}"
    doc = (repo / MARKDOWN_FILE).read_text(encoding="utf-8")
    assert r.stdout == doc, f"{MARKDOWN_FILE} is stale: run `{REGENERATE}`"
    for sid in SENTENCES:
        assert f"\n## {sid}\n" in doc


def test_json_names_every_sentence():
    r = run("clarified", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [s["id"] for s in data["sentences"]] == list(SENTENCES)
    assert data["search"]["complete"] is True and data["search"]["states"] > 0
    pride2 = next(s for s in data["sentences"] if s["id"] == "pride.2")
    passer = next(c for c in pride2["choice_points"] if c["id"] == "pride.passer")
    assert [x["id"] for x in passer["readings"] if x["chosen"]] == ["skipped"]
    assert data["uncited_sentences"] == [] and data["rules_citing_no_sentence"] == []


def test_the_html_page_is_written_and_an_existing_file_kept(tmp_path):
    r = run("--html", "rulebook.html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "HTML rulebook written to rulebook.html" in r.stdout
    page = (tmp_path / "rulebook.html").read_text(encoding="utf-8")
    assert page.count('<section class="sentence"') == len(SENTENCES)
    before = page
    again = run("--html", "rulebook.html", cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr
    assert (tmp_path / "rulebook.html").read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir()] == ["rulebook.html"]


@pytest.mark.parametrize("args,needle", [
    (("--sentence", "pirde.1"), "did you mean 'pride.1'?"),
    (("offical",), "did you mean 'official'?"),
    (("--markdown", "--json"), "choose at most one of --markdown, --json"),
    (("--markdown", "--sentence", "pride.1"), "--sentence picks sentences"),
    (("--players", "1"), "players"),
])
def test_bad_input_exits_2_with_the_fix(args, needle):
    r = run(*args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert needle in r.stderr
    assert "Traceback" not in r.stderr


def test_a_table_too_big_to_search_is_told_where_it_stopped():
    """The full deck's search (its compile included) stops at --timeout; the rulebook
    says so and claims no rule never fires."""
    r = run("--full-deck", "--timeout", "2", "--sentence", "pass.2")
    assert r.returncode == 0, r.stderr
    assert "stopped by --timeout 2 before the search began" in " ".join(r.stdout.split())
    assert "  * pass.say  [not seen firing]" in r.stdout
    assert "never fired" not in r.stdout
    r = run("--max-states", "1000", "--sentence", "pass.2")
    assert r.returncode == 0, r.stderr
    assert "stopped by --max-states 1000: rules that fired later are not seen" in \
        " ".join(r.stdout.split())
    assert "never fired" not in r.stdout


def test_a_bad_html_path_fails_before_the_search(tmp_path):
    (tmp_path / "file").write_text("x")
    r = run("--html", str(tmp_path / "file" / "page.html"))
    assert r.returncode == 2 and "--html" in r.stderr and "Traceback" not in r.stderr
