"""tools/mutation/equivalence.py: a mutant proved to play the same game is one the exhaustive
pair search cannot tell apart, and a mutant the pair search tells apart is never proved."""
from __future__ import annotations

import pytest

from itcp.model.engine.engine import Game, build_spec
from itcp.model.smt.queries import Query, SolverResult
from itcp.spec.invariants import candidates
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import load_variant
from tools.mutation.distinguish import PlayedDifferently, Same, first_difference
from tools.mutation.equivalence import NotProved, Proved, StepProver, live_in_both
from tools.mutation.mutants import mutant_change, mutants_of

TABLE = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1, "options": ("mercy", "justice")}


@pytest.fixture(scope="module")
def table():
    v = load_variant("official", TABLE)
    base = build_spec(v.config, dict(v.readings))
    rs = build_ruleset(v.config)
    # the plain candidates only: the per-phase ones make the proof of the invariants
    # ten times slower here, and these tests do not need them
    return base, rs, StepProver(Game(base), only=set(candidates(base)))


def _changed(base, rs, ids=None, every=1):
    out = []
    for m in mutants_of(rs)[::every]:
        if ids is not None and m.id not in ids:
            continue
        got = mutant_change(base, rs, m)
        if got is not None:
            out.append((m, *got))
    return out


def test_the_invariants_are_proved_and_only_the_deal_starts_a_round(table):
    _, _, prover = table
    assert len(prover.invariants) > 20
    assert prover.moves_before_deal == []


def test_an_update_that_writes_what_is_there_is_proved_the_same_game(table):
    base, rs, prover = table
    # the reveal's reset of owed: the deal left it at its initial value
    # (docs/mutation-notes.toml argues it by hand)
    (m, ms, change), = _changed(base, rs, {"drop_update turn.advance update[reveal].owed@0"}) \
        or pytest.skip("the mutant compiles to the spec at this table")
    got = prover.same_game(ms, change.actions, change.elsewhere)
    assert isinstance(got, Proved) and got.actions == tuple(sorted(change.actions))
    assert isinstance(first_difference(Game(base), Game(ms)), Same)


def test_a_difference_in_a_dead_variable_only_is_the_same_game(table):
    """Negating when the discard resets since_pass leaves it counting where the
    spec resets it: the states differ, but nothing under official's readings at
    this table reads since_pass before writing it again.  Proved on the live
    variables; compared on every variable, the same step differs."""
    base, rs, prover = table
    (m, ms, change), = _changed(base, rs, {"negate_when turn.advance update[discard].since_pass@0"})
    assert isinstance(prover.same_game(ms, change.actions), Proved)
    sym = prover.sym
    live = live_in_both(base, ms, change.actions)
    assert all("since_pass" not in vs for vs in live.values())
    _, results, _ = sym.step_mismatch(ms, "discard", None)   # every variable compared
    q = Query("differ", "sat: some variable differs")
    q.add("wf", sym.wf(sym.A0))
    q.add("reached", prover.reached)
    q.add("differ", results)
    assert sym.ask(q, "full", 60, prover.solver).result == SolverResult.sat
    assert isinstance(first_difference(Game(base), Game(ms)), Same)


def test_a_dropped_guard_that_matters_is_not_proved(table):
    base, rs, prover = table
    (m, ms, change), = _changed(base, rs, {"drop_guard play.discard guard[discard]"})
    got = prover.same_game(ms, change.actions, change.elsewhere)
    assert isinstance(got, NotProved) and got.action == "discard"
    assert "legality" in got.why


def test_a_changed_score_is_proved_only_where_every_score_is_the_same(table):
    """A mutant of a score's definition is compared on every seat's score and
    every state property in every state a round reaches: a failed Pass scoring
    +20 more is not proved (the pair search tells it apart); the Pass of a team
    counted for every member, at a table where no team can form, is proved
    (and the pair search finds no difference)."""
    base, rs, prover = table
    (_, worse, ch1), = _changed(base, rs, {
        "swap_reading pass.fail.total define.pass_failed from pass.fail.penalty"})
    (_, team, ch2), = _changed(base, rs, {
        "swap_reading pass.team.seat define.pass_for from pass.team.team"})
    assert ch1.elsewhere and ch2.elsewhere
    got = prover.same_game(worse, ch1.actions, True, history=2)
    assert isinstance(got, NotProved) and "score" in got.why
    assert isinstance(first_difference(Game(base), Game(worse)), PlayedDifferently)
    assert isinstance(prover.same_game(team, ch2.actions, True, history=2), Proved)
    assert isinstance(first_difference(Game(base), Game(team)), Same)


def test_a_history_of_moves_drops_states_no_move_reaches(table):
    """The pass's reset of the Justice duty: where the spec resets it at a Pass,
    no round has a duty pending, but the invariants alone allow a state that
    has one.  Asking that the state before the step was reached by two moves
    from allowed states excludes it: proved, and the pair search agrees."""
    base, rs, prover = table
    (m, ms, change), = _changed(base, rs, {"negate_when turn.advance update[pass].duty@0"})
    assert prover.history(0) == []
    assert isinstance(prover.same_game(ms, change.actions), NotProved)
    assert isinstance(prover.same_game(ms, change.actions, history=2), Proved)
    assert isinstance(first_difference(Game(base), Game(ms)), Same)


def test_a_history_never_proves_a_mutant_that_plays_differently(table):
    base, rs, prover = table
    (m, ms, change), = _changed(base, rs, {"drop_guard play.discard guard[discard]"})
    assert isinstance(prover.same_game(ms, change.actions, history=3), NotProved)
    assert isinstance(first_difference(Game(base), Game(ms)), PlayedDifferently)


def test_the_heavy_invariants_prove_conservation():
    """With ``heavy``, the candidates that count cards are proved too: CONSERVATION
    (every card in one place) excludes states whose hands share a card."""
    v = load_variant("official", {**TABLE, "options": ()})
    base = build_spec(v.config, dict(v.readings))
    light = StepProver(Game(base), only=set(candidates(base)))
    heavy = StepProver(Game(base), only=set(candidates(base)), heavy=True)
    assert "CONSERVATION" not in light.invariants
    assert "CONSERVATION" in heavy.invariants


@pytest.mark.slow
@pytest.mark.parametrize("history", [0, 2])
def test_every_proof_agrees_with_the_exhaustive_pair_search(table, history):
    """Soundness against an independent method: at this table the pair search
    exhausts every pair of states, so a mutant proved the same game must show no
    difference there; and the proof must not be vacuous (some mutants proved,
    some told apart and not proved).  With a history of two moves too: it may
    prove more, never one the search tells apart."""
    base, rs, prover = table
    g = Game(base)
    proved = told_apart = 0
    for m, ms, change in _changed(base, rs, every=25):
        got = prover.same_game(ms, change.actions, change.elsewhere, history=history)
        if isinstance(got, Proved):
            proved += 1
            assert isinstance(first_difference(g, Game(ms)), Same), m.id
        elif isinstance(first_difference(g, Game(ms)), PlayedDifferently):
            told_apart += 1
    assert proved >= 10 and told_apart >= 5
