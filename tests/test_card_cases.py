"""A formula split by card (``Symbolic.card_cases``) and the re-proof's use of it.

A step breaks a formula exactly when it breaks one of its cases, so every case
unsat proves what the whole query would; these tests prove the cases equivalent
to the formula for CONSERVATION itself, and that the re-proof of a scouted plan
proves CONSERVATION one card at a time when the whole step queries are given no
time at all.
"""
from __future__ import annotations

import pytest
import z3

from itcp.checks.symbolic import reproof as R
from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game, build_spec
from itcp.model.smt import queries as S
from itcp.spec.config import Config

CONFIG = Config(players=2, suits=1, ranks=(2, 4), hand=1)


def _valid(claim) -> bool:
    s = z3.Solver()
    s.add(z3.Not(claim))
    return s.check() == z3.unsat


def test_conservation_is_the_conjunction_of_its_cases():
    sym = S.Symbolic(build_spec(CONFIG), timeout=30)
    formula = sym.on("CONSERVATION", next(p for p in sym.spec.properties
                                          if p.id == "CONSERVATION").formula, 0)
    cases = sym.card_cases(formula)
    n = sym.smt.n_cards
    # one case per card, and one for the pile's distinctness (not about one card)
    assert cases is not None and len(cases) == n + 1
    assert _valid(formula == z3.And(*cases))
    # each card's case reads that card's bit only: another card can be anywhere
    hands = sym.A0["hands"]
    both = z3.And(cases[0], z3.Extract(1, 1, hands[0]) == 1, z3.Extract(1, 1, hands[1]) == 1)
    s = z3.Solver()
    s.add(both)
    assert s.check() == z3.sat


def test_a_formula_with_no_card_set_equation_does_not_split():
    sym = S.Symbolic(build_spec(CONFIG), timeout=30)
    x = z3.BitVec("x", 8)
    assert sym.card_cases(z3.And(x == 1, z3.Bool("b"))) is None
    s = z3.BitVec("s", sym.smt.n_cards)
    # an equation between card sets splits even alone; the other conjunct is the last case
    cases = sym.card_cases(z3.And(s == 0, x == 1))
    assert len(cases) == sym.smt.n_cards + 1
    assert _valid(z3.And(s == 0, x == 1) == z3.And(*cases))


REAL = {"players": 2, "suits": 2, "ranks": (2, 4), "hand": 2,
        "options": (("unbelief", 1), ("pride_cycle", 1))}


@pytest.mark.slow
def test_the_re_proof_proves_conservation_one_card_at_a_time(monkeypatch):
    """Every step query that splits by card given no time as a whole: the re-proof
    proves CONSERVATION by the cases alone, naming the rules of a whole proof."""
    game = Game.from_variant(load_with("clarified", dict(REAL)))
    whole = SymbolicChecker(game).reproof.prove("CONSERVATION")
    assert whole is not None and whole.proved
    monkeypatch.setattr(R, "CARD_SPLIT_AFTER", 0.001)
    monkeypatch.setattr(R, "SPLIT_AFTER", 0.001)
    said = []
    ch = SymbolicChecker(game, progress=said.append)
    out = ch.reproof.prove("CONSERVATION")
    assert out is not None and out.proved
    assert any("one card at a time" in m for m in said)
    assert sorted(out.rules) == sorted(whole.rules)
