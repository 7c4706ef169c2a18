"""``Symbolic.first_unsat``: equivalent queries raced on separate Z3 contexts.

A race may only ever report unsat when some raced query is unsat (each is a
subset of the first one's conjuncts, so that proves the first unsat too), must
stop on the first query's sat answer, and writes the SMT-LIB2 file of the query
that answered.
"""
from __future__ import annotations

import z3

from itcp.model.engine.engine import build_spec
from itcp.model.smt import queries as S
from itcp.spec.config import Config


class _Sink:
    """Writes each emitted query straight into ``folder``."""

    def __init__(self, folder):
        self.folder = folder

    def write(self, name, text):
        (self.folder / name).write_text(text)
        return str(self.folder / name)


def _sym(tmp_path=None):
    spec = build_spec(Config(players=2, suits=1, ranks=(2, 3), hand=1))
    return S.Symbolic(spec, timeout=30, emit=_Sink(tmp_path) if tmp_path else None)


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
    assert ans.result == S.SolverResult.unsat and won == 0
    ans, won = sym.first_unsat([_query("q", ("a", x)), _query("r")], "sat")
    assert ans.result == S.SolverResult.sat and won is None
    assert len(sym.emitted) == 2


def test_the_race_takes_the_first_unsat_and_emits_that_query(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "RACE_AFTER", 0.0)   # race at once
    sym = _sym(tmp_path)
    x = z3.Bool("x")
    slow = _query("slow", *_hard_pigeonhole())
    quick = _query("quick", ("a", x), ("b", z3.Not(x)))
    ans, won = sym.first_unsat([slow, quick], "race")
    assert ans.result == S.SolverResult.unsat and won == 1
    assert len(sym.emitted) == 1 and "quick" in open(sym.emitted[0]).read().splitlines()[0]
    # nothing unsat among the raced queries: no proof, whatever the first said
    ans, won = sym.first_unsat([_query("s", ("a", x)), _query("t")], "none")
    assert ans.result != S.SolverResult.unsat and won is None


def test_solve_all_answers_in_order_and_emits_only_the_unsat_queries(tmp_path):
    """Queries decided several at a time still answer in the order given, a sat
    answer carries a model of this thread's context, and only the queries that
    proved something (unsat) are written out."""
    sym = _sym(tmp_path)
    x, y = z3.Bool("x"), z3.Bool("y")
    queries = [(_query("first", ("a", x), ("b", z3.Not(x))), "first"),
               (_query("second", ("a", x), ("b", y)), "second"),
               (_query("third", *_hard_pigeonhole(7)), "third"),
               (_query("fourth", ("a", z3.Not(y))), "fourth")]
    asked = []

    def lazily():
        for q in queries:
            asked.append(q[1])
            yield q
    answers = sym.solve_all(lazily(), lambda: None, workers=2)
    assert asked == ["first", "second", "third", "fourth"]
    R = S.SolverResult
    assert [a.result for a in answers] == [R.unsat, R.sat, R.unsat, R.sat]
    assert z3.is_true(answers[1].model.eval(z3.And(x, y)))   # usable here
    assert [open(p).readline().split(": ", 1)[1].strip() for p in sym.emitted] == \
        ["first", "third"]
    assert sym.queries == 4


def test_solve_all_cap_gives_unknown_and_a_raising_budget_stops_everything(tmp_path):
    sym = _sym(tmp_path)
    slow = _query("slow", *_hard_pigeonhole(11))
    [ans] = sym.solve_all([(slow, "slow")], lambda: None, cap=0.2, workers=1)
    assert ans.result == S.SolverResult.unknown and not sym.emitted

    class Stop(Exception):
        pass
    calls = []

    def budget():
        calls.append(1)
        if len(calls) > 1:
            raise Stop
        return None
    try:
        sym.solve_all([(slow, "a"), (slow, "b")], budget, workers=2)
    except Stop:
        pass
    else:
        raise AssertionError("the budget's exception must end solve_all")
    assert not sym.emitted   # the interrupted query proved nothing
