"""Point sums and card counts as free values, or as functions of the set summed
(``Symbolic.abstracted``).

Either abstraction over-approximates a query: every model of the query is one
of the abstraction (give each free value, or function, its sum), so only an
unsat answer of the abstraction proves anything.  These tests pin that down on concrete sums, and
that the same sum is one free value wherever it occurs.  How the re-proof of a
scouted plan uses it is tested in tests/test_scout.py.
"""
from __future__ import annotations

from functools import cache

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from itcp.model.engine.engine import build_spec
from itcp.model.smt import queries as S
from itcp.spec.config import Config

CONFIG = Config(players=2, suits=1, ranks=(2, 4), hand=1)


@cache
def _setup():
    """The encoding of the table (built once: a hypothesis example asks new queries of it)."""
    sym = S.Symbolic(build_spec(CONFIG), timeout=30)
    smt = sym.smt
    hand = z3.BitVec("hand", smt.n_cards)
    table = tuple(2 + i for i in range(smt.n_cards)) + (0,)   # each card's points, NOCARD's
    total = smt.encode_op("tsum", [hand, smt.const(table, "cardmap")], ["cards", "cardmap"], "int")
    size = smt.encode_op("count", [hand], ["cards"], "int")
    return sym, hand, total, size


def _query(*parts):
    q = S.Query("q", "unsat proves it")
    for lab, e in parts:
        q.add(lab, e)
    return q


def _result(sym, q):
    return sym.ask(q, "q", solver="qf_bv").result


def test_a_query_without_sums_or_counts_has_no_abstraction():
    sym, hand, _, _ = _setup()
    assert sym.abstracted(_query(("a", hand == 0))) is None


def test_a_sum_whose_value_matters_is_unsat_only_with_its_value():
    sym, hand, total, size = _setup()
    # an empty hand has no points: unsat, but nothing in the abstraction says so
    q = _query(("empty", hand == 0), ("points", total == 5))
    assert _result(sym, q) == S.SolverResult.unsat
    light = sym.abstracted(q)
    assert light is not None and _result(sym, light) == S.SolverResult.sat
    assert [lab for lab, _ in light.parts] == ["empty", "points"]
    assert "free value" in light.title
    q = _query(("empty", hand == 0), ("cards", size == 1))
    assert _result(sym, q) == S.SolverResult.unsat and _result(sym, sym.abstracted(q)) == S.SolverResult.sat


def test_unsat_without_the_values_stays_unsat_and_one_sum_is_one_value():
    sym, hand, total, size = _setup()
    q = _query(("a", hand == 1), ("b", hand == 2), ("points", total == 5))
    assert _result(sym, sym.abstracted(q)) == S.SolverResult.unsat
    # the same sum in two parts is the same free value
    q = _query(("x", total == 3), ("y", total == 4), ("z", size + total == 9))
    light = sym.abstracted(q)
    assert _result(sym, light) == S.SolverResult.unsat
    assert len({str(c) for _, e in light.parts for c in _free(e)}) == 2


def test_as_functions_of_their_sets_equal_sets_have_equal_sums():
    sym, hand, total, size = _setup()
    other = z3.BitVec("other", sym.smt.n_cards)
    table = tuple(2 + i for i in range(sym.smt.n_cards)) + (0,)
    total2 = sym.smt.encode_op("tsum", [other, sym.smt.const(table, "cardmap")],
                               ["cards", "cardmap"], "int")
    q = _query(("same", hand == other), ("differ", total != total2))
    assert _result(sym, q) == S.SolverResult.unsat
    assert _result(sym, sym.abstracted(q)) == S.SolverResult.sat            # two free values
    congruent = sym.abstracted(q, congruent=True)
    assert _result(sym, congruent) == S.SolverResult.unsat                   # one function of equal sets
    assert "function of its set" in congruent.title
    # but still nothing about what a sum is worth
    q = _query(("empty", hand == 0), ("points", total == 5))
    assert _result(sym, sym.abstracted(q, congruent=True)) == S.SolverResult.sat


def _free(e):
    out, stack, seen = [], [e], set()
    while stack:
        x = stack.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_const(x) and str(x).startswith("free_"):
            out.append(x)
        stack.extend(x.children())
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 7), st.integers(-2, 12), st.integers(-1, 4))
def test_every_model_of_the_query_is_one_of_the_abstraction(h, points, cards):
    """Over-approximation: sat with the true sums is sat with free values and
    with functions of the sets (so unsat with either is unsat with the true sums)."""
    sym, hand, total, size = _setup()
    q = _query(("hand", hand == h), ("points", total == points), ("cards", size == cards))
    if _result(sym, q) == S.SolverResult.sat:
        assert _result(sym, sym.abstracted(q)) == S.SolverResult.sat
        assert _result(sym, sym.abstracted(q, congruent=True)) == S.SolverResult.sat
