"""The induction's shortcuts are sound (checks/symbolic/induction.py, model/smt/queries.py).

* Frame skipping: a formula broken only by the one action that writes its
  variable is still found broken, by a query about that action; the other
  actions are skipped without a query.
* Cone-of-influence slicing: per action and formula, the sliced step query and
  the whole one give the same answer on a tiny table.
* Candidates refuted by random rounds of the engine are never assumed.
* End to end (slow): the full-deck, eight-player FROZEN check through the CLI
  gives a proof or UNKNOWN naming its time limit, never an unproved HOLDS.
"""
from __future__ import annotations

import json
from functools import cache

import pytest

from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.checks.symbolic.induction import Inductor
from itcp.checks.symbolic.sampled import refuted_by_playouts
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game
from itcp.model.smt.queries import Query
from itcp.spec.invariants import candidates

TINY = {"players": 2, "suits": 1, "ranks": (2, 3), "hand": 1, "options": ()}


@cache
def tiny(variant: str = "clarified") -> Game:
    return Game.from_variant(load_with(variant, dict(TINY)))


def test_frame_skipping_still_finds_the_one_breaking_action(tmp_path, dir_sink):
    ch = SymbolicChecker(tiny(), emit=dir_sink(tmp_path))
    pool = candidates(ch.spec)
    # nobody has passed at the deal; only `pass` writes `passers`
    ind = Inductor(ch, {n: pool[n] for n in ("NOT_DEALING", "CONST_PASSERS")})
    writers = [a for a in ch.sym.actions if "passers" in ch.sym.writes(a)]
    assert writers == ["pass"]
    assert [a for a in ch.sym.actions if ind.affects(a, "CONST_PASSERS")] == ["pass"]
    ind.houdini(["NOT_DEALING", "CONST_PASSERS"])
    assert ind.dropped["CONST_PASSERS"] == "not preserved by pass"
    assert "NOT_DEALING" in ind.proven and "CONST_PASSERS" not in ind.proven
    # the one query about CONST_PASSERS is the one for `pass`
    asked = sorted(p.name.split("-", 1)[1] for p in tmp_path.glob("*step-CONST_PASSERS-*"))
    assert asked == ["step-CONST_PASSERS-pass.smt2"]


def test_a_step_property_is_skipped_only_where_its_next_state_is_kept():
    ch = SymbolicChecker(tiny())
    ind = ch.inductor
    _, post = ind._read("FROZEN")
    assert post == {"hands", "hand_of"}
    for a in ch.sym.actions:
        assert ind.affects(a, "FROZEN") == bool(ch.sym.writes(a) & post), a


@pytest.mark.parametrize("name", ["ACTOR_NOT_PASSER", "PASSERS_OWN_HAND", "ZERO_STOPS",
                                  "FROZEN"])
def test_sliced_query_answers_like_the_whole_one(name):
    ch = SymbolicChecker(tiny())
    sym, ind = ch.sym, ch.inductor
    for a in sym.actions:
        answers = []
        for whole in (True, False):
            q = Query("slice", "same answer")
            q.add("wf", sym.wf(sym.A0))
            if not ind.is_step(name):
                q.add("pre", ind._f(name, 0))
            q.extend(sym.template(a)[1] if whole else sym.sliced(a, ind._post(name)))
            q.add("goal", sym.Not(ind.after(name)))
            answers.append(sym.ask(q, "slice", solver="qf_bv").result)
        assert answers[0] == answers[1] and answers[0] in ("sat", "unsat"), (a, answers)


def test_candidates_refuted_by_playouts_are_false_in_a_reached_state():
    g = tiny()
    pool = candidates(g.spec)
    out = refuted_by_playouts(g, pool, rounds=5)
    assert "CONST_TURN" in out or "CONST_HANDS" in out  # the first moves change them
    assert "NOT_DEALING" not in out and "CONSERVATION" not in out
    ch = SymbolicChecker(g)
    assert set(out) <= set(ch.inductor.dropped)


def test_compiled_candidates_say_what_the_reference_evaluator_says():
    """The playout filter runs the candidates as compiled code: in every state of
    a few random rounds each says what the spec interpreted directly says."""
    import random

    from itcp.model.engine.codegen import compile_state_formulas
    from itcp.model.engine.reference import Evaluator
    from itcp.model.engine.simulate import random_states
    g = tiny()
    pool = candidates(g.spec)
    compiled = compile_state_formulas(g.spec, {n: f for n, (_, f) in pool.items()})
    ev = Evaluator(g.spec)
    rng, seen = random.Random(7), set()
    for _ in range(4):
        for s in random_states(g, rng, 200):
            env = {"state": dict(zip(ev.vars, s))}
            for n, (_, f) in pool.items():
                want = bool(ev.eval(ev.inline(f), env))
                assert bool(compiled[n](s)) == want, (n, s)
                seen.add((n, want))
    assert {w for _, w in seen} == {True, False}  # both answers were compared


@pytest.mark.slow
def test_cli_full_deck_eight_players_frozen_is_honest_within_its_timeout(cli):
    """At the full deck with eight players the proof does not yet finish in the
    suite's budget: within --timeout the verdict is a proof (HOLDS, inductive, with
    its core) or UNKNOWN naming the limit, never an unproved HOLDS."""
    r = cli("check", "clarified", "--engine", "symbolic", "--full-deck", "--players", "8",
            "--property", "FROZEN", "--json", "--timeout", "8")
    assert r.exit_code in (0, 3), r.output
    data = json.loads(r.output)
    assert data["config"]["players"] == 8 and data["config"]["cards"] == 72
    v = next(p for p in data["properties"] if p["id"] == "FROZEN")
    if v["verdict"] == "HOLDS":
        assert v["evidence"]["kind"] == "inductive" and v["evidence"]["rules"]
    else:
        assert v["verdict"] == "UNKNOWN" and r.exit_code == 3
        assert "--timeout 8" in v["evidence"]["limit"]


@pytest.mark.slow
def test_cli_full_deck_two_players_frozen_is_proved_inductively(cli):
    """The real game at two players: FROZEN holds by 1-induction, every invariant
    proved at 72 cards (the queries cut to the cores a scout table found)."""
    r = cli("check", "clarified", "--engine", "symbolic", "--full-deck", "--players", "2",
            "--property", "FROZEN", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["config"]["players"] == 2 and data["config"]["cards"] == 72
    ev = next(p for p in data["properties"] if p["id"] == "FROZEN")["evidence"]
    assert ev["kind"] == "inductive" and ev["scouted"]
    assert {"play.discard", "play.draw_pile"} <= set(ev["rules"])
    assert set(ev["invariants"]) <= set(data["stats"]["invariants"])
