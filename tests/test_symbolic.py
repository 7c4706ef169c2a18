"""Symbolic checks (checks/symbolic/checker.py over model/smt/queries.py).

* BMC finds the official variant's FROZEN violation at the default small table,
  and the engine replays the decoded trace to the same violation.
* k-induction proves FROZEN for the clarified variant at the small table, with
  a non-empty (minimised) rule core and the strengthening invariants it used.
* DETERMINED is proved per action (same state and arguments, two successors:
  unsat) with the rules of the minimised cores.
* Emitted SMT-LIB2 proof queries, read by a fresh z3 process (the ``z3`` command
  the z3-solver package installs, else a separate Python process), answer unsat
  as the in-process solver did.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from itcp.checks.results import (
    Bracket,
    DeadlockCandidate,
    DeadlockProof,
    Exhaustive,
    Inductive,
    Proof,
    Replayed,
    Verdict,
)
from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game
from itcp.scenarios.story import itf
from itcp.spec.variants import DEFAULT_TABLE

#: the candidate invariants the full candidate list proves at the default table
#: (Houdini's fixpoint there); starting from them keeps the test fast
FROZEN_INVARIANTS = (
    "DEAL_IS_INITIAL", "PHASE_DECLARED", "FIRST_PASSER_IFF_PASSERS", "FIRST_PASSER_IN_PASSERS",
    "AT_MOST_ONE_PASSER", "PRIDE_LEFT_NOT_PASSERS", "PRIDE_LEFT_ONLY_IN_PRIDE", "SOMEONE_SEATED",
    "ACTOR_IN_RING", "ACTOR_IS_TURN_DRAWING", "DIR_UNIT", "PASSER_HAND_EXCLUSIVE",
    "PASSERS_IN_RING", "NOT_OWN_MEANS_ASIDE", "ACTOR_SEATED", "ACTOR_NOT_PASSER",
    "DRAW_ACTOR_NOT_PASSER", "TURN_NOT_PASSER_MIDTURN", "HAND_OF_SEAT", "HAND_OF_ROOT",
    "PASSERS_OWN_HAND", "PASSERS_NOT_ASIDE", "ASIDE_NOT_OWN", "PASSER_NO_GIFT",
    "GIFTS_ONLY_IN_PRIDE", "GIFT_ONLY_FROM_GIVEN", "DUTY_NOT_ON_PASSER", "LIVE_UNTIL_OVER",
    "OVER_HAS_REASON", "NO_ZERO_MID_ROUND", "PILE_NONEMPTY_IN_PLAY", "CONST_DIR", "CONST_DUTY",
    "CONST_DUTY_ON", "CONST_RACING", "CONST_PARTNER", "CONST_HAND_OF", "CONST_ASIDE",
    "CONST_DEALER", "NEVER_REVEAL", "NEVER_RACE", "NEVER_SECRET", "ZERO_STOPS", "SCORE_DEFINED",
    "NOT_DEALING")

#: a table small enough for per-action proofs in a few seconds
TINY = {"players": 2, "suits": 1, "ranks": (2, 3), "hand": 1, "options": ()}


def fresh_z3(path: Path) -> str:
    """The answer of a separate z3 process to an SMT-LIB2 file."""
    exe = shutil.which("z3", path=str(Path(sys.executable).parent)) or shutil.which("z3")
    if exe:
        cmd = [exe, str(path)]
    else:
        code = ("import sys, z3\n"
                "s = z3.Solver(); s.from_file(sys.argv[1]); print(s.check())")
        cmd = [sys.executable, "-c", code, str(path)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr


@cache
def game(variant: str) -> Game:
    return Game.from_variant(load_with(variant, dict(DEFAULT_TABLE)))


def test_bmc_finds_official_frozen_violation_and_engine_replays_it():
    g = game("official")
    ch = SymbolicChecker(g, depth=6)
    v = ch.bmc("FROZEN", 6)
    assert v is not None and v.verdict is Verdict.VIOLATED, v and v.evidence
    ev = v.evidence
    assert isinstance(ev, Replayed) and ev.kind == "bmc" and v.trace.length >= 1
    assert any("pride" in r for r in ev.as_json()["rules"])
    # replay independently: the ITF states are the engine's; re-apply the actions
    steps = v.trace.steps
    assert len(steps) == ev.as_json()["length"] == ev.as_json()["depth"]
    assert "FROZEN violated" in v.trace.ending
    # the last step of the told trace breaks FROZEN in the engine
    states = itf(g, v.trace)["states"]
    assert len(states) == v.trace.length + 1
    s, s2 = v.trace.states[-2:]
    assert g.apply(s, v.trace.actions[-1]) == s2 and not g.check_property("FROZEN", s, s2)


def test_induction_proves_frozen_for_clarified(tmp_path, dir_sink):
    g = game("clarified")
    ch = SymbolicChecker(g, depth=1, emit=dir_sink(tmp_path),
                         candidate_names=set(FROZEN_INVARIANTS))
    v = ch.check("FROZEN")
    assert v.verdict is Verdict.HOLDS, v.evidence
    ev = v.evidence
    assert isinstance(ev, Inductive) and ev.kind == "inductive" and ev.k == 1
    assert ev.support.rules, "the proof names the rules its core used"
    assert all(r in {x.id for x in g.spec.rules} for r in ev.support.rules)
    assert "2 players" in ev.support.scope
    # the per-action proof queries were written as SMT-LIB2; a fresh z3 agrees on one
    # one proof query per action, except those whose frame alone preserves FROZEN
    proofs = sorted(tmp_path.glob("*proof-FROZEN-*.smt2"))
    assert ev.by_frame and "pass" in ev.by_frame  # pass changes no hand
    assert len(proofs) + len(ev.by_frame) == len(g.spec.actions)
    f = next(p for p in proofs if p.name.endswith("-discard.smt2"))
    text = f.read_text()
    assert text.startswith("; itcp:") and "unsat proves" in text
    assert fresh_z3(f) == "unsat"


def test_determined_is_proved_per_action_and_fresh_z3_agrees(tmp_path, dir_sink):
    g = Game.from_variant(load_with("clarified", dict(TINY)))
    ch = SymbolicChecker(g, emit=dir_sink(tmp_path))
    v = ch.check("DETERMINED")
    assert v.verdict is Verdict.HOLDS, v.evidence
    ev = v.evidence
    assert isinstance(ev, Proof) and ev.kind == "proof"
    rule_ids = {r.id for r in g.spec.rules}
    assert ev.support.rules and set(ev.support.rules) <= rule_ids
    # the deal's successor is fixed by the deal rule; a draw's by the draw rules
    assert "setup.deal" in ev.support.rules
    files = sorted(tmp_path.glob("*determined-*.smt2"))
    assert len(files) == len(g.spec.actions)
    for f in files[::4]:  # a sample, each answered by a separate process
        assert "unsat proves" in f.read_text().splitlines()[1]
        assert fresh_z3(f) == "unsat", f.name


def test_hand_bounds_bracket_contains_the_exhausted_range():
    # the symbolic HAND_BOUNDS is a proved bracket: sound, so it holds the exact
    # range the explicit search finds, and at this table tighter than the card count
    from itcp.checks.run import Check
    g = game("clarified")
    v = SymbolicChecker(g, depth=0).check("HAND_BOUNDS")
    ev = v.evidence
    assert v.verdict is Verdict.HOLDS and isinstance(ev, Bracket) and ev.kind == "inductive", ev
    lo, hi = ev.lo, ev.hi
    (exact,) = Check(load_with("clarified", dict(DEFAULT_TABLE)), ("HAND_BOUNDS",),
                     game=g).run().results
    assert isinstance(exact.evidence, Exhaustive) and exact.evidence.reported is not None
    assert lo <= exact.evidence.reported[0] <= exact.evidence.reported[1] <= hi
    assert hi < g.config.n_cards


@pytest.mark.slow
def test_official_deadlock_found_symbolically_and_replayed():
    # the official text leaves a turn with no legal discard: Z3 finds a candidate, no
    # proved invariant excludes it, BMC reaches one and the engine confirms it is stuck
    v = SymbolicChecker(game("official"), depth=3).check("NO_DEADLOCK")
    assert v.verdict is Verdict.VIOLATED, v.evidence
    assert isinstance(v.evidence, Replayed) and v.evidence.reproduced and v.trace.replayed
    assert v.trace.ending.startswith("no legal move")


def test_clarified_tiny_table_has_no_deadlock_symbolically():
    g = Game.from_variant(load_with("clarified", dict(TINY)))
    v = SymbolicChecker(g, depth=2).check("NO_DEADLOCK")
    assert v.verdict in (Verdict.HOLDS, Verdict.UNKNOWN), v.evidence
    if v.verdict is Verdict.HOLDS:
        assert isinstance(v.evidence, DeadlockProof) and v.evidence.support.rules
    else:  # never a silent pass: the candidate and the searched depth are named
        assert isinstance(v.evidence, DeadlockCandidate) and v.evidence.candidate


@pytest.mark.slow
def test_cli_symbolic_official_frozen(cli):
    import json
    r = cli("check", "official", "--engine", "symbolic", "--property", "FROZEN", "--json")
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    (p,) = out["properties"]
    assert p["verdict"] == "VIOLATED" and p["evidence"]["kind"] == "bmc"


@pytest.mark.slow
def test_abstracted_proof_steps_are_written_out_and_a_fresh_z3_agrees(tmp_path, monkeypatch,
                                                                       sums_game, dir_sink):
    """A scouted step proved with its sums as free values, or as functions of the
    sets summed, is written as SMT-LIB2 like any proof query (its header says
    which), and a separate z3 process answers it the same."""
    from itcp.model.smt import queries as smt_checks
    g = sums_game
    plain = tmp_path / "free"
    out = SymbolicChecker(g, emit=dir_sink(plain)).reproof.prove("FROZEN")
    assert out is not None and out.proved
    free = [f for f in sorted(plain.glob("*.smt2")) if "a free value" in f.read_text()[:600]]
    # the free-value form made useless (sat): the function form is asked, and written
    original = smt_checks.Symbolic.abstracted

    def functions_only(self, q, congruent=False):
        light = original(self, q, congruent)
        return light if congruent or light is None else smt_checks.Query("nothing", "")
    monkeypatch.setattr(smt_checks.Symbolic, "abstracted", functions_only)
    funcs = tmp_path / "functions"
    out = SymbolicChecker(g, emit=dir_sink(funcs)).reproof.prove("FROZEN")
    assert out is not None and out.proved
    congruent = [f for f in sorted(funcs.glob("*.smt2"))
                 if "a function of its set" in f.read_text()[:600]]
    assert free and congruent
    for f in free[::8] + congruent[::8]:
        assert fresh_z3(f) == "unsat", f.name
