"""checks/results.py: a check's results as types, each evidence saying itself in
one line and as JSON; the trace type of the narrator; one UNKNOWN."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from itcp.checks.results import (
    PROOFS,
    Bounded,
    Bracket,
    ConformanceBug,
    Exhaustive,
    Found,
    Inductive,
    NotChecked,
    Proof,
    PropertyResult,
    Ranking,
    Replayed,
    Shortest,
    Support,
    Unproved,
    Verdict,
    exit_code,
    explicit_result,
)
from itcp.checks.run import Check, Limits
from itcp.report.sweep import cell
from itcp.scenarios.story import Trace
from itcp.spec.variants import load_variant

REPO = Path(__file__).resolve().parent.parent
TINY = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1, "options": (("pride_cycle", 1),)}


@pytest.fixture(scope="module")
def tiny():
    report = Check(load_variant("official", TINY)).run()
    return report.game, {r.id: r for r in report.results}


def test_each_evidence_says_itself_in_a_line():
    support = Support(["a", "b"], "scope", "note", ["I1"], {"I1": "one"})
    assert Exhaustive(1234, 2, 3, True, "s").summary() == "exhaustive over 1,234 states"
    assert Exhaustive(9, 2, 3, True, "s", reported=(1, 2)).summary() == \
        "exhaustive over 9 states: hands hold 1 to 2 cards"
    assert Bounded("--max-states 5", 5, 2, "stopped").summary() == "stopped"
    assert Bounded("--max-states 5").brief() == "stopped by --max-states 5"
    assert Found("SIGTERM").summary().endswith("(stopped by SIGTERM)")
    assert Inductive(1, support, [], [], 3, 4).summary() == "1-inductive; rules: a, b; invariants: I1"
    assert Inductive(1, support, [], [], 3, 4).brief() == "1-inductive (Z3), 2 rules, 1 invariant"
    assert Proof(support).summary() == "proved for every state; rules: a, b"
    assert Ranking(["x", "y"], support).brief() == "ranking function of 2 components (Z3), 2 rules"
    assert Bracket(0, 2, False, support).summary() == \
        "hands hold 0 to 2 cards (a proved bracket: by the card count alone)"
    assert Bracket(0, 2, False, support).kind == "types" and Bracket(0, 2, True, support).kind \
        == "inductive"
    assert Unproved(3, "--depth 3", "n").summary() == "n"
    assert NotChecked("why").as_json() == {"kind": "not_checked", "note": "why"}
    assert ConformanceBug("bug", ([1], [], [])).as_json() == {
        "kind": "conformance_bug", "note": "bug", "deal": [1], "actions": [], "z3_states": []}
    # what a proof rests on: the proofs, and a bracket only when proved
    assert all(cls.rests_on is not NotChecked.rests_on for cls in PROOFS)
    assert Bracket(0, 2, False, support).rests_on() is None


def test_json_keys_in_their_order():
    assert list(Exhaustive(1, 2, 3, True, "s", 4, "m").as_json()) == [
        "kind", "states", "transitions", "depth", "symmetry", "scope", "post_pass_edges",
        "method"]
    assert list(Bounded("L", 1, 2, "n", (1, 2)).as_json()) == [
        "kind", "limit", "states", "depth", "note", "min_hand_seen", "max_hand_seen"]
    assert list(Bounded("L", depth=-1).as_json()) == ["kind", "limit", "depth"]
    assert list(Unproved(2, "L", "n", (None, [])).as_json()) == [
        "kind", "depth", "limit", "note", "cti", "invariants"]


def test_a_violation_carries_its_trace(tiny):
    game, rs = tiny
    frozen = rs["FROZEN"]
    assert frozen.verdict is Verdict.VIOLATED and isinstance(frozen.evidence, Shortest)
    t = frozen.trace
    assert t is frozen.evidence.trace and t.length == len(t.actions) == len(t.states) - 1
    assert frozen.as_json()["evidence"] == {"kind": "trace", "length": t.length,
                                            "story": list(t.story)}
    assert frozen.as_json()["trace"] == t.as_json()
    assert t.story[-1] == f"  -> {t.ending}" and t.rules == sorted(
        {r for st in t.steps for r in st.rules})
    lasso = rs["ROUND_ENDS"]
    if lasso.verdict is Verdict.VIOLATED:
        assert list(lasso.evidence.as_json())[:2] == ["kind", "lasso"]
        assert lasso.trace.loop_from is not None


def test_an_explicit_result_reads_back_from_its_json(tiny):
    """A sweep keeps its jobs' results as JSON: each reads back to the same result."""
    _, rs = tiny
    stopped = Check(load_variant("official", TINY), limits=Limits(max_states=50),
                    game=tiny[0]).run().results
    for r in [*rs.values(), *stopped]:
        d = json.loads(json.dumps(r.as_json()))
        t = r.trace
        trace = None if t is None else Trace.from_json(d["trace"], t.states, t.actions)
        back = explicit_result(d, trace)
        assert back == r and back.as_json() == r.as_json()
        assert cell(back) == cell(r)


def test_a_result_beside_the_other_engines():
    mine = PropertyResult("P", Verdict.HOLDS, "explicit", "s", Exhaustive(1, 2, 3, True, "s"))
    other = PropertyResult("P", Verdict.UNKNOWN, "symbolic", "s", Bounded("L"))
    both = mine.beside(other)
    assert both.as_json()["evidence"]["other_engine"] == {
        "engine": "symbolic", "verdict": "UNKNOWN", "kind": "bounded"}
    assert mine.other is None   # results are values: the first is unchanged


def test_exit_code():
    ok = PropertyResult("P", Verdict.HOLDS, "e", "s", Exhaustive(1, 2, 3, True, "s"))
    unknown = PropertyResult("Q", Verdict.UNKNOWN, "e", "s", Bounded("L"))
    bad = PropertyResult("R", Verdict.VIOLATED, "e", "s", Found("L"))
    assert (exit_code([ok]), exit_code([ok, unknown]), exit_code([unknown, bad])) == (0, 3, 1)


def test_replayed_json_lists_the_rules_and_readings_on_its_path(tiny):
    game, rs = tiny
    t = rs["FROZEN"].trace
    ev = Replayed(t, "reproduced").as_json()
    assert ev["rules"] == t.rules and ev["readings"] == t.readings
    assert ev["length"] == ev["depth"] == t.length and "lasso" not in ev


def _constants(path: Path):
    """(name, value, line, class) of each assignment at a module's or a class's top."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = [(None, tree.body)] + [(n.name, n.body) for n in ast.walk(tree)
                                    if isinstance(n, ast.ClassDef)]
    for cls, body in bodies:
        for node in body:
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, ast.AnnAssign) else [])
            value = getattr(node, "value", None)
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        yield n.id, value, n.lineno, cls


def test_there_is_one_unknown():
    """One UNKNOWN in the program, the verdict's: no other constant named or
    valued "unknown" (Z3's own answer is a ``SolverResult``, named as Z3 names it;
    yes/no/unknown and differ/agree/unknown are how a verdict reads)."""
    found = []
    for folder in ("spec", "model", "scenarios", "checks", "report", "cli"):
        for path in (REPO / folder).rglob("*.py"):
            for name, value, line, cls in _constants(path):
                valued = (isinstance(value, ast.Constant)
                          and str(value.value).lower() == "unknown")
                if (name == "UNKNOWN" or valued) and cls != "SolverResult":
                    found.append(f"{path.relative_to(REPO).as_posix()}:{line}")
    assert found == [f"checks/results.py:{_line_of_unknown()}"], found
    assert [v.name for v in Verdict] == ["HOLDS", "VIOLATED", "UNKNOWN"]


def _line_of_unknown() -> int:
    text = (REPO / "checks" / "results.py").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(text, 1) if line.strip().startswith("UNKNOWN ="))
