"""Write the rule evidence the literate rulebook ships with: per rule, its mutants'
counts and the library scenarios that fire it.

    python -m tools.rule_evidence            # rewrite report/rule-evidence.json
    python -m tools.rule_evidence --check    # write nothing; exit 1 if it is stale

``itcp-check rulebook`` shows both beside each rulebook sentence, but the mutation
analysis is a development tool (``tools/mutation/``, not installed) and a replay
of the whole library takes a quarter of a minute, so they are kept as data in the
package (``report/evidence.py`` reads it).  The mutants are those of the last run's
summary (``docs/mutation/spec-mutants.jsonl``), each counted by the status
docs/mutation.md gives it (the equivalence notes of ``docs/mutation-notes.toml``
applied: ``tools/mutation/report.py``'s ``status``).  The scenarios are the
library's, each replayed on its own game: a rule fires in a scenario when it
decides one of its steps (the deal included) or refuses the illegal move the
scenario expects.  Rerun it after changing a rule, a scenario or the mutation
summary; the tests fail while it is stale.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from itcp.report.evidence import EVIDENCE_FILE, Evidence, Mutants, evidence_text
from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay
from tools.mutation.report import NOTES, load_notes, status
from tools.mutation.summary import REPO, SUMMARY, read_summary

OUT = REPO / "report" / EVIDENCE_FILE
LIBRARY = REPO / "scenarios" / "library"


def mutation_by_rule(summary: Path = SUMMARY, notes: Path = NOTES) -> tuple[str, dict[str, Mutants]]:
    """The run's command, and each rule's mutants counted by status."""
    run, lines = read_summary(summary)
    noted = load_notes(notes)
    counts: dict[str, Counter] = {}
    for line in lines:
        counts.setdefault(line["rule"], Counter())[status(line, noted)] += 1
    return run.get("command", ""), {r: Mutants(**c) for r, c in counts.items()}


def fired_in(path: Path) -> set[str]:
    """The rules that decide a step of the scenario (the deal too) or refuse the
    illegal move it expects."""
    sc = load_scenario(path)
    res = replay(sc)
    if not res.ok:
        raise SystemExit(f"{path}: the scenario fails: {res.message}")
    game = sc.played
    fired = set(game.decided(game.initial_state(), sc.deal_action, res.states[0]))
    for s, a, s2 in res.steps:
        fired.update(game.decided(s, a, s2))
    if res.refusal is not None:
        fired.update(res.refusal.rules)
    return fired


def scenarios_by_rule(library: Path = LIBRARY) -> tuple[int, dict[str, tuple[str, ...]]]:
    """The number of library scenarios, and rule -> the scenarios that fire it."""
    files = sorted(library.glob("*.toml"))
    out: dict[str, list[str]] = {}
    for path in files:
        for rid in fired_in(path):
            out.setdefault(rid, []).append(path.name)
    return len(files), {r: tuple(f) for r, f in out.items()}


def build() -> Evidence:
    run, mutation = mutation_by_rule()
    library, scenarios = scenarios_by_rule()
    return Evidence(mutation, scenarios, run, library)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.rule_evidence",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if the shipped file is stale")
    a = ap.parse_args(argv)
    text = evidence_text(build())
    shown = OUT.relative_to(REPO)
    if a.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{shown} is stale: run python -m tools.rule_evidence", file=sys.stderr)
            return 1
        return 0
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(OUT)
    print(f"wrote {shown}", file=sys.stderr)
    return 0


__all__ = ["build", "mutation_by_rule", "scenarios_by_rule", "fired_in", "main", "OUT"]

if __name__ == "__main__":
    sys.exit(main())
