"""The generated parts of the docs are fresh: each is rendered again from its
source and compared with the page.

- docs/mutation.md's score tables, from the summary of the last mutation run
  (docs/mutation/spec-mutants.jsonl) and the notes (docs/mutation-notes.toml):
  ``python -m tools.mutation.report`` writes them again.
"""
from __future__ import annotations

from pathlib import Path

from tools.mutation import report
from tools.mutation.summary import SUMMARY, read_summary

REPO = Path(__file__).resolve().parent.parent


def test_the_mutation_page_is_rendered_from_the_summary_and_the_notes(capsys):
    assert report.main(["--check"]) == 0, (
        "docs/mutation.md is stale: run python -m tools.mutation.report")


def test_the_mutation_summary_is_one_line_per_mutant_of_the_run():
    run, lines = read_summary(SUMMARY)
    assert run["mutants"] == len(lines) == len({x["id"] for x in lines})
    assert all(x["status"] in ("killed", "survived", "timeout", "stillborn") for x in lines)
    assert all(x.get("by") for x in lines if x["status"] == "killed")
    assert all("proof" in x for x in lines if x["status"] in ("survived", "timeout"))
