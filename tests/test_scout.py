"""Scouting a proof at a small table (checks/symbolic/scout.py) and re-proving it at the
real one (checks/symbolic/reproof.py ``Reproof.prove``).

The scout only guesses; these tests pin down that a guess is never trusted:
every scouted invariant is proved again at the real table, a scouted invariant
the real table refutes sends the proof back to the ordinary search, and a core
too small for the real table falls back to the whole step query, and a step
asked first with its point sums as free values (which proves something only
when unsat) is asked again exactly when that abstraction is not unsat.
"""
from __future__ import annotations

from functools import cache

import pytest

from itcp.checks.symbolic import scout as S
from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game
from itcp.spec.config import FULL_DECK, Config

#: a table a little bigger than its scout table (12 cards against 8)
REAL = {"players": 2, "suits": 2, "ranks": (2, 4), "hand": 2,
        "options": (("unbelief", 1), ("pride_cycle", 1))}


@cache
def real(variant: str = "clarified") -> Game:
    return Game.from_variant(load_with(variant, dict(REAL)))


def test_scout_table_keeps_players_readings_and_option_kinds():
    full = Config(players=8, **FULL_DECK)
    small = S.scout_config(full)
    assert small.players == S.SCOUT_PLAYERS and small.hand == 1
    assert [n for n, _ in small.options] == [n for n, _ in full.options]
    assert all(k == 1 for _, k in small.options)
    assert small.n_cards < full.n_cards
    two = S.scout_config(Config(players=2, **FULL_DECK))
    assert two.players == 2
    # a table no bigger than its scout has none
    assert S.scout_config(Config(players=2, suits=1, ranks=(2, 2), hand=1)) is None


@pytest.mark.slow
def test_a_scouted_proof_is_proved_again_at_the_real_table():
    ch = SymbolicChecker(real())
    ind = ch.inductor
    out = ch.reproof.prove("FROZEN")
    assert out is not None and out.proved
    assert out.scouted.startswith("2 players, 2 suits, ranks 2-2, hand 1")
    assert out.rules and set(out.rules) <= ind.rule_ids
    # every invariant the proof used is proved at this table, not merely scouted
    assert set(out.used) <= set(ind.proven)


@pytest.mark.slow
def test_the_re_proof_says_the_same_one_query_at_a_time_and_several_at_once(monkeypatch):
    """Deciding the re-proof's step queries on worker threads changes how long it
    takes, never what it proves or which rules and invariants it names."""
    from itcp.model.smt import queries as smt_checks
    outs = []
    for workers in (1, 3):
        monkeypatch.setattr(smt_checks, "WORKERS", workers)
        ch = SymbolicChecker(real())
        ind = ch.inductor
        out = ch.reproof.prove("FROZEN")
        assert out is not None and out.proved
        outs.append((sorted(out.rules), sorted(out.used), sorted(ind.proven),
                     out.by_frame, out.cores_complete))
    assert outs[0] == outs[1]


@pytest.mark.slow
def test_the_re_proof_says_the_same_with_free_sums_and_without(monkeypatch, sums_game):
    """The scouted re-proof asks each cut with free sums first: that changes how
    long it takes, never what it proves or which rules and invariants it names."""
    from itcp.model.smt import queries as smt_checks
    used, outs = [], []
    original = smt_checks.Symbolic.abstracted

    def counted(self, q, congruent=False):
        light = original(self, q, congruent)
        used.append(light is not None)
        return light
    for abstract in (counted, lambda self, q, congruent=False: None):
        monkeypatch.setattr(smt_checks.Symbolic, "abstracted", abstract)
        ch = SymbolicChecker(sums_game)
        ind = ch.inductor
        out = ch.reproof.prove("FROZEN")
        assert out is not None and out.proved
        outs.append((sorted(out.rules), sorted(out.used), sorted(ind.proven),
                     out.by_frame, out.cores_complete))
    assert any(used)   # the table's steps do read point sums
    assert outs[0] == outs[1]


@pytest.mark.slow
def test_an_abstraction_that_proves_nothing_sends_the_step_back_to_its_cut(monkeypatch):
    """Every abstraction made satisfiable (no conjunct at all): the re-proof
    must still prove FROZEN, each step by its exact cut, with the same cores."""
    from itcp.model.smt import queries as smt_checks
    asked = []

    def nothing(self, q, congruent=False):
        asked.append(congruent)
        return smt_checks.Query("nothing", "")
    monkeypatch.setattr(smt_checks.Symbolic, "abstracted", nothing)
    out = SymbolicChecker(real()).reproof.prove("FROZEN")
    assert out is not None and out.proved and out.cores_complete
    assert False in asked and True in asked   # both abstractions were tried first


@pytest.mark.slow
def test_a_step_asked_one_card_played_at_a_time_proves_the_same(monkeypatch):
    """A step whose first form is not decided in time, and whose action takes a
    card, is asked once per card played: the re-proof still proves FROZEN, with
    the same rules and invariants as when every step is decided whole."""
    from itcp.checks.symbolic import reproof
    from itcp.model.smt import queries as smt_checks
    outs, split = [], []
    original = smt_checks.Symbolic.choice_cases

    def counted(self, action):
        cases = original(self, action)
        split.append(cases is not None)
        return cases
    monkeypatch.setattr(smt_checks.Symbolic, "choice_cases", counted)
    for after in (reproof.SPLIT_AFTER, 1e-6):   # then no first form is decided in time
        monkeypatch.setattr(reproof, "SPLIT_AFTER", after)
        msgs: list = []
        ch = SymbolicChecker(real(), progress=msgs.append)
        out = ch.reproof.prove("FROZEN")
        assert out is not None and out.proved
        outs.append((sorted(out.rules), sorted(out.used), sorted(ch.inductor.proven)))
    assert any(split)
    assert any("one card played at a time" in m for m in msgs)
    assert outs[0] == outs[1]


def test_a_scouted_invariant_refuted_here_sends_the_proof_back_to_the_search(monkeypatch):
    ch = SymbolicChecker(real())
    ind = ch.inductor
    assert "CONST_TURN" in ind.dropped          # random rounds refute it at this table
    bogus = S.Plan("made up", ["CONST_TURN"], {})
    monkeypatch.setattr(S.Scout, "plan", lambda self, pid: bogus)
    assert ch.reproof.prove("FROZEN") is None
    assert "CONST_TURN" not in ind.proven


@pytest.mark.slow
def test_a_core_too_small_here_falls_back_to_the_whole_query(monkeypatch):
    ch = SymbolicChecker(real())
    # the right invariants, but every step's core empty: each cut query is
    # satisfiable (no guard, no invariant), so each is asked again whole
    plan = S.Scout(ch.spec, lambda m: None, None, SymbolicChecker).plan("FROZEN")
    assert plan is not None
    empty = S.Plan(plan.table, plan.members, {k: [] for k in plan.steps})
    monkeypatch.setattr(S.Scout, "plan", lambda self, pid: empty)
    out = ch.reproof.prove("FROZEN")
    assert out is not None and out.proved and not out.cores_complete


def test_a_question_is_scouted_at_the_scout_table_too():
    """A question's property is restated at the scout table (it names the seats and
    cards of one table), so ``ask`` gets the same scouted proofs as FROZEN; a
    question the scout table cannot state leaves the proof to the ordinary search."""
    from functools import partial

    from itcp.checks.questions.ask import _question_goal
    from itcp.checks.questions.language import parse
    spec = real().spec
    q = parse("can the passer's hand change")
    asked = spec.with_properties(_question_goal(q, spec), partial(_question_goal, q))
    plan = S.Scout(asked, lambda _: None, None, SymbolicChecker).plan("QUESTION")
    assert plan is not None and plan.table.startswith("2 players, 2 suits, ranks 2-2")
    assert plan.steps and all(name in plan.members + ["QUESTION"] for name, _ in plan.steps)
    # another table with the same scout table reuses the plan, with no scout search
    other = Game.from_variant(load_with("clarified", dict(REAL, hand=3))).spec
    again = S.Scout(other.with_properties(_question_goal(q, other), partial(_question_goal, q)),
                    lambda _: None, None, SymbolicChecker)
    assert again.plan("QUESTION") is plan and again.ch is None
    # without a way to restate it, the scout table has no such property
    plain = spec.with_properties(_question_goal(q, spec))
    assert S.Scout(plain, lambda _: None, None, SymbolicChecker).plan("QUESTION") is None
    # a seat the scout table does not have: no scout, no error
    big = Game.from_variant(load_with("clarified", dict(REAL, players=4))).spec
    q4 = parse("can P3's hand change while P3 has passed")
    asked4 = big.with_properties(_question_goal(q4, big), partial(_question_goal, q4))
    assert S.Scout(asked4, lambda _: None, None, SymbolicChecker).failed


@pytest.mark.slow
def test_no_deadlock_on_a_big_table_rests_on_the_invariants_the_scout_table_needed(monkeypatch):
    """On a big table NO_DEADLOCK first proves the invariants the scout table's
    proof used, each by the re-proof of its own scouted plan, and asks the
    deadlock query assuming those alone: no plain Houdini over every candidate."""
    from itcp.checks.results import Verdict

    def no_houdini(names):
        raise AssertionError("the plain Houdini was asked at the real table")
    # ranks 2..3 (10 cards against the scout table's 8): the deadlock proof at REAL's
    # ranks 2..4 takes many minutes, and the test is about which invariants it rests on
    ch = SymbolicChecker(Game.from_variant(load_with("clarified", dict(REAL, ranks=(2, 3)))),
                         depth=1)
    ch.inductor.big = True   # this table counts as big (its solver stays the small one's)
    monkeypatch.setattr(ch.inductor, "houdini", no_houdini)   # the scout's may use it
    support = S.Scout(ch.spec, lambda m: None, None, SymbolicChecker).graph_support("NO_DEADLOCK")
    assert support
    v = ch.check("NO_DEADLOCK")
    assert v.verdict is Verdict.HOLDS and v.evidence.as_json()["kind"] == "inductive", v.evidence
    assert set(v.evidence.as_json()["invariants"]) <= set(support) <= set(ch.inductor.proven)


def _determined(ch):
    v = ch.check("DETERMINED")
    return v.verdict, v.evidence.as_json()


def test_determined_on_a_big_table_asks_each_action_cut_to_the_scout_tables_core(monkeypatch):
    """On a big table DETERMINED asks each action's query cut to the core the
    scout table's proof found: unsat there is unsat whole, so the verdict and
    the rules are those of the cut (no minimising at the real table)."""
    from itcp.checks.results import Verdict
    from itcp.model.smt import queries as smt_checks
    minimised: list = []
    original = smt_checks.Symbolic.minimise

    def counted(self, q, *args, **kw):
        minimised.append(q.title)
        return original(self, q, *args, **kw)
    monkeypatch.setattr(smt_checks.Symbolic, "minimise", counted)
    small = SymbolicChecker(real())   # the whole queries, minimised here
    verdict, whole = _determined(small)
    assert verdict is Verdict.HOLDS and minimised
    big = SymbolicChecker(real())
    big.inductor.big = True   # this table counts as big (its solver stays the small one's)
    scout = big.reproof.scout()
    cores = scout.determined_cores("DETERMINED")
    assert cores and set(cores) == set(big.sym.actions)
    minimised.clear()
    verdict, cut = _determined(big)
    assert verdict is Verdict.HOLDS, cut
    # every action settled by its scouted cut: nothing minimised at this table
    assert not [d for d in minimised if "DETERMINED" in d]
    assert "scout table" in cut["core_note"]
    assert set(cut["rules"]) <= big.rule_ids
    assert big.cores["DETERMINED"] == cores


def test_determined_falls_back_to_the_whole_query_where_a_scouted_core_is_too_small(
        monkeypatch):
    """Every scouted core empty (each cut query satisfiable): each action is asked
    whole and its core minimised here, as on a small table, with the same rules."""
    from itcp.checks.results import Verdict
    _, whole = _determined(SymbolicChecker(real()))
    big = SymbolicChecker(real())
    big.inductor.big = True
    monkeypatch.setattr(S.Scout, "determined_cores",
                        lambda self, pid: {a: [] for a in big.sym.actions})
    verdict, ev = _determined(big)
    assert verdict is Verdict.HOLDS
    assert sorted(ev["rules"]) == sorted(whole["rules"])
    assert "scout table" not in ev.get("core_note", "")


@pytest.mark.slow
def test_a_step_whose_formula_splits_by_card_is_split_before_its_slower_forms(monkeypatch):
    """No first form decided in time: CONSERVATION's own steps (its formula splits by
    card) are asked one card at a time before any other form (a form closer to the
    sums' values, or one case per card played), and the re-proof proves what it
    proves when every step is decided whole."""
    from itcp.checks.symbolic import reproof
    outs, logs = [], []
    for after in ((reproof.CARD_SPLIT_AFTER, reproof.SPLIT_AFTER), (1e-6, 1e-6)):
        monkeypatch.setattr(reproof, "CARD_SPLIT_AFTER", after[0])
        monkeypatch.setattr(reproof, "SPLIT_AFTER", after[1])
        msgs: list = []
        ch = SymbolicChecker(real(), progress=msgs.append)
        out = ch.reproof.prove("CONSERVATION")
        assert out is not None and out.proved
        outs.append((sorted(out.rules), sorted(out.used), sorted(ch.inductor.proven)))
        logs.append(msgs)
    split = [i for i, m in enumerate(logs[1]) if "asked again one card at a time" in m]
    later = [i for i, m in enumerate(logs[1]) if "closer to their sums' values" in m
             or "one card played at a time" in m]
    assert split and later and split[0] < later[0]
    assert outs[0] == outs[1]


@pytest.mark.slow
def test_no_deadlock_on_a_big_table_without_a_scouted_proof_goes_straight_to_bmc(monkeypatch):
    """``official`` has a dead end at the scout table, so the scout has no proof:
    on a big table NO_DEADLOCK then looks for a reachable dead end at once (no
    plain Houdini over every candidate, which takes Z3 many minutes at the full
    deck), and the engine replays the one it finds."""
    from itcp.checks.results import Verdict

    def no_houdini(names):
        raise AssertionError("the plain Houdini was asked at the real table")
    # ranks 2..3, hands of 1: a little bigger than the scout table, with the
    # default table's dead end (one move after the deal)
    ch = SymbolicChecker(Game.from_variant(load_with("official", dict(REAL, ranks=(2, 3),
                                                                      hand=1))))
    ch.inductor.big = True   # this table counts as big (its solver stays the small one's)
    monkeypatch.setattr(ch.inductor, "houdini", no_houdini)
    assert ch.reproof.scout().graph_support("NO_DEADLOCK") is None
    v = ch.check("NO_DEADLOCK")
    assert v.verdict is Verdict.VIOLATED and v.evidence.as_json()["kind"] == "bmc", v.evidence
