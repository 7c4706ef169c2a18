"""``Symbolic.first_unsat``: equivalent queries raced on separate Z3 contexts.

A race may only ever report unsat when some raced query is unsat (each is a
subset of the first one's conjuncts, so that proves the first unsat too), must
stop on the first query's sat answer, and writes the SMT-LIB2 file of the query
that answered.
"""
from __future__ import annotations

import z3

from itcp.model import smt_checks as S
from itcp.model.engine import build_spec
from itcp.spec.config import Config


def _sym(tmp_path=None):
    spec = build_spec(Config(players=2, suits=1, ranks=(2, 3), hand=1))
    return S.Symbolic(spec, timeout=30, emit_dir=str(tmp_path) if tmp_path else None)


def _query(title, *parts):
    q = S.Query(title, "unsat proves it")
    for lab, e in parts:
        q.add(lab, e)
    return q


def _hard_pigeonhole(n=9):
    """n + 1 pigeons in n holes: unsat, and slow enough that the race starts."""
    v = [[z3.Bool(f"p{i}_{j}") for j in range(n)] for i in range(n + 1)]
    parts = [("pigeon", z3.And(*[z3.Or(*row) for row in v]))]
    parts.append(("hole", z3.And(*[z3.Not(z3.And(v[i][j], v[k][j])) for j in range(n)
                                   for i in range(n + 1) for k in range(i + 1, n + 1)])))
    return parts


def test_quick_answers_never_start_a_race(tmp_path):
    sym = _sym(tmp_path)
    x = z3.Bool("x")
    ans, won = sym.first_unsat([_query("q", ("a", x), ("b", z3.Not(x)))], "quick")
    assert ans.result == S.UNSAT and won == 0
    ans, won = sym.first_unsat([_query("q", ("a", x)), _query("r")], "sat")
    assert ans.result == S.SAT and won is None
    assert len(sym.emitted) == 2


def test_the_race_takes_the_first_unsat_and_emits_that_query(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "RACE_AFTER", 0.0)   # race at once
    sym = _sym(tmp_path)
    x = z3.Bool("x")
    slow = _query("slow", *_hard_pigeonhole())
    quick = _query("quick", ("a", x), ("b", z3.Not(x)))
    ans, won = sym.first_unsat([slow, quick], "race")
    assert ans.result == S.UNSAT and won == 1
    assert len(sym.emitted) == 1 and "quick" in open(sym.emitted[0]).read().splitlines()[0]
    # nothing unsat among the raced queries: no proof, whatever the first said
    ans, won = sym.first_unsat([_query("s", ("a", x)), _query("t")], "none")
    assert ans.result != S.UNSAT and won is None
