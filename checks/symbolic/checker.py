"""Symbolic checks: bounded model checking and k-induction through Z3.

The initial states are the states after the deal: Init(s0) (the pre-deal state
of the spec) and one ``deal`` transition, so the solver chooses the deal.

* **BMC** looks for a violation of each state/step property within ``depth``
  moves after the deal.  A violation's model is decoded to engine states and
  actions and *replayed through the engine* (``Game.apply`` with validation);
  only if the engine reproduces the violation is it VIOLATED (evidence kind
  "bmc"); otherwise it is reported as a conformance bug between the backends.
* **k-induction** proves a property from an arbitrary well-formed state that
  satisfies the proven invariants: k consecutive steps with the property on
  the first k, then the property on the last step/state, one query per action
  of the last step.  Strengthening invariants are candidates written as spec
  formulas (``spec/invariants.py``) and proved first: the largest subset that holds after every
  deal and is preserved by every action, each assuming the others (Houdini).
  A proof reports the minimised unsat cores' rule ids and the invariants used.

No z3 here: every solver interaction is in ``model/smt/queries.py``.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from itcp.model.engine.engine import Game
from itcp.model.smt.queries import Query, SolverResult, Symbolic
from itcp.spec.invariants import candidates
from itcp.spec.properties import Kind, Violation

from ..results import (
    Bounded,
    ConformanceBug,
    Evidence,
    Inductive,
    NotChecked,
    Proof,
    PropertyResult,
    Support,
    SymbolicStats,
    TwoSuccessors,
    Unproved,
    Verdict,
)
from .bracket import hand_bounds
from .deadline import OutOfTime, seconds_left
from .deadlock import no_deadlock
from .induction import STRUCTURE, Inductor
from .ranking import ranked
from .replayed import ENGINE, engine_replay, replayed_violation
from .reproof import Reproof
from .sampled import ROUNDS, refuted_by_playouts
from .scout import MINIMISE_SECONDS, Scout, cut_to_core

DEFAULT_DEPTH = 6
#: the lasso search's depth when none is given (``SymbolicChecker.lasso_depth``):
#: ``official``'s loops at the full deck have 7 moves at four players (an Unbelief
#: round the passers) and 9 at eight (a Repentance taken back and replayed by two
#: players after a Pass, 9 moves at any table size)
LASSO_DEPTH = 9
MAX_K = 1
#: seconds the core minimisation of one proof (all its per-action queries) may take
CORE_SECONDS = 20.0
#: queries slower than this are named in the progress messages
SLOW_QUERY = 3.0
#: on small tables (<= 16 cards) BMC runs to this depth before induction is tried
QUICK_DEPTH = 4


class SymbolicChecker:
    def __init__(self, game: Game, depth: int | None = None, timeout: float | None = None,
                 emit=None, max_k: int = MAX_K, progress=None,
                 candidate_names=None, rounds: int = ROUNDS, timeout_name: str | None = None):
        self.game, self.spec = game, game.spec
        self.depth = DEFAULT_DEPTH if depth is None else depth
        #: how deep the lasso search goes: a lasso is a Pass and then a loop back to
        #: an earlier state, longer than a safety violation (``official`` at the
        #: full deck with four players: 7 moves), so without a ``depth`` it goes
        #: deeper than the other searches
        self.lasso_depth = max(self.depth, LASSO_DEPTH) if depth is None else depth
        self.timeout = timeout
        #: the time limit as a result names it: as the user set it, if said
        self.timeout_text = timeout_name or f"--timeout {timeout}"
        self.max_k = max_k
        self.start = time.monotonic()
        self.deadline = None if timeout is None else self.start + timeout
        self.sym = Symbolic(self.spec, None, emit)
        self.props = {p.id: p for p in self.spec.properties}
        self.rule_ids = {r.id for r in self.spec.rules}
        self.scope = (f"every state satisfying the invariants, at this table "
                      f"({self.spec.config.describe()})")
        pool = candidates(self.spec)
        if candidate_names is not None:
            pool = {n: x for n, x in pool.items() if n in candidate_names}
        self.inductor = Inductor(self, pool, refuted_by_playouts(game, pool, rounds))
        #: on a big table, the proofs a scout table found re-proved here first
        self.reproof = Reproof(self.inductor)
        self._why: dict = {}
        self._dropped: dict = {}
        self._bmc_done: dict = {}  # pid -> depth checked without violation
        #: pid -> action -> the labels of its proof's core (DETERMINED's, once proved)
        self.cores: dict = {}
        self.progress = progress or (lambda msg: None)
        self.candidate_names = candidate_names
        # BMC depth tried before induction: only where the table is small
        self.quick_depth = QUICK_DEPTH if self.spec.config.n_cards <= 16 else 0

    # -- budget -------------------------------------------------------------------
    def budget(self) -> float | None:
        """Seconds left of the run (None: no limit); ``OutOfTime`` when none are."""
        return seconds_left(self.deadline)

    def new_scout(self) -> Scout:
        """A scout for this run (``scout.py``): its table's proofs are re-proved
        here (``reproof.py``); it runs a checker like this one at its small table."""
        return Scout(self.spec, self.progress, self.deadline, SymbolicChecker)

    def ask(self, q: Query, slug: str, solver: str = "pipeline"):
        return self._settled(self.sym.ask(q, slug, self.budget(), solver), slug)

    def first_unsat(self, variants, slug: str, solver: str = "pipeline"):
        """``Symbolic.first_unsat`` within this run's deadline: (answer, winner)."""
        ans, won = self.sym.first_unsat(variants, slug, self.budget(), solver)
        return self._settled(ans, slug), won

    def solve_all(self, queries, solver: str = "pipeline", cap: float | None = None,
                  tracked=None, stop=None):
        """``Symbolic.solve_all`` within this run's deadline: the answers, in order
        (``queries``: (query, slug) pairs, taken lazily; ``tracked``: labels whose
        part in an unsat answer's core is reported; ``stop``: an answer after
        which no further query is taken)."""
        slugs: list = []

        def taken():
            for q, slug in queries:
                slugs.append(slug)
                yield q, slug
        answers = self.sym.solve_all(taken(), self.budget, solver, cap, tracked=tracked,
                                     stop=stop)
        return [self._settled(ans, slug) for ans, slug in zip(answers, slugs)]

    def _settled(self, ans, slug: str):
        """``ans``, after saying it was slow; an answer cut short by the run's
        deadline ends the run."""
        if ans.seconds > SLOW_QUERY:
            self.progress(f"slow query {slug}: {ans.result} in {ans.seconds:.1f} s")
        if ans.result not in (SolverResult.sat, SolverResult.unsat) and self.deadline is not None \
                and time.monotonic() >= self.deadline:
            raise OutOfTime()
        return ans

    # -- the initial states: Init then one deal -----------------------------------
    def unrolled(self, q, d: int):
        """Add to ``q`` a deal and ``d`` moves after it: (the state before the deal,
        the deal's parameters, the d + 1 states from the deal on, each move's choices)."""
        sym = self.sym
        x0, x1, dparams = self._dealt(q)
        states, steps = [x1], []
        for i in range(d):
            nxt = sym.state(f"x{i + 2}")
            choices, parts = sym.step_any(states[-1], nxt, f"s{i + 1}")
            q.extend(parts)
            steps.append(choices)
            states.append(nxt)
        return x0, dparams, states, steps

    def _dealt(self, q: Query):
        sym = self.sym
        x0, x1 = sym.state("x0"), sym.state("x1")
        q.add("init", sym.init(x0))
        params, frags = sym.next(x0, "deal", x1, "deal_")
        q.extend(frags)
        return x0, x1, params

    # -- BMC ------------------------------------------------------------------------
    def result(self, pid: str, verdict: Verdict, evidence: Evidence) -> PropertyResult:
        """``pid``'s result, decided by this engine."""
        return PropertyResult(pid, verdict, ENGINE, self.props[pid].statement, evidence)

    def unknown(self, pid: str, evidence: Evidence) -> PropertyResult:
        return self.result(pid, Verdict.UNKNOWN, evidence)

    def bmc(self, pid: str, upto: int):
        """Look for a violation of ``pid`` within ``upto`` moves after the deal.
        Returns a result for a violation (or conformance bug), else None."""
        prop = self.props[pid]
        sym = self.sym
        d0 = self._bmc_done.get(pid, -1) + 1
        for d in range(d0, upto + 1):
            if prop.kind is Kind.STEP and d == 0:
                self._bmc_done[pid] = 0
                continue
            self.progress(f"{pid}: BMC depth {d}")
            q = Query(f"BMC: a violation of {pid} exactly {d} move(s) after the deal",
                      f"unsat proves no violation of {pid} at depth {d} (every deal); "
                      "sat gives a counterexample trace")
            x0, dparams, states, steps = self.unrolled(q, d)
            if prop.kind is Kind.STEP:
                q.add("goal", sym.Not(sym.prop(pid, states[-2], states[-1])))
            else:
                q.add("goal", sym.Not(sym.prop(pid, states[-1])))
            ans = self.ask(q, f"bmc-{pid}-d{d}")
            if ans.result == SolverResult.sat:
                return self._replay(pid, ans.model, x0, states[0], dparams, states, steps)
            if ans.result != SolverResult.unsat:
                return self.unknown(pid, Bounded(f"Z3 answered unknown ({ans.note})",
                                                 depth=d - 1))
            self._bmc_done[pid] = d
        return None

    def _replay(self, pid, model, x0, x1, dparams, states, steps) -> PropertyResult:
        game, sym = self.game, self.sym
        prop = self.props[pid]
        pre = sym.decode(model, x0)
        deal = sym.decode_action(model, "deal", dparams)
        decoded = [sym.decode(model, s) for s in states]
        actions = [sym.decode_step(model, ch) for ch in steps]
        replayed = engine_replay(game, deal, actions, decoded)
        eng, problem = replayed.states, replayed.problem
        if pre != game.initial_state() and not replayed.refused:
            problem = "the decoded pre-deal state is not the engine's initial state"
        if problem is None:
            if prop.kind is Kind.STEP:
                ok = game.check_property(pid, eng[-2], eng[-1])
            else:
                ok = game.check_property(pid, eng[-1])
            if ok:
                problem = "the engine's replay does not violate the property"
        if problem is not None:
            return self.unknown(pid, ConformanceBug(problem, (
                list(deal[1]), [[a[0], list(a[1])] for a in actions], decoded)))
        ending = prop.tell(Violation(game, eng[-2], eng[-1]) if prop.kind is Kind.STEP
                           else Violation(game, eng[-1]))
        return replayed_violation(game, prop, eng, actions, ending,
                                  "the engine reproduces the violation")

    # -- induction ------------------------------------------------------------------
    def core_budget(self) -> float:
        """Seconds the core minimisation of one proof may take (all its queries)."""
        if self.deadline is None:
            return CORE_SECONDS
        return max(0.5, min(CORE_SECONDS, (self.deadline - time.monotonic()) / 4))

    def induct(self, pid: str) -> PropertyResult | None:
        """A 1-induction proof of ``pid`` (HOLDS), or None with the reason kept."""
        out = self.reproof.prove(pid) if self.inductor.big else None
        if out is None:
            out = self.inductor.prove(pid)
        self._why[pid] = out
        if not out.proved:
            return None
        core_note = None
        if out.scouted:
            core_note = (f"each proof query was cut to the core Z3 found and "
                         f"minimised (within {MINIMISE_SECONDS:g} s a query) at the scout "
                         f"table ({out.scouted}) and proved "
                         "unsat here as cut: the rules are a core at this table")
        if not out.cores_complete:
            core_note = ("time ran out while minimising a core, or a cut query was "
                         "asked whole: the rule list is a core, possibly not minimal")
        support = Support(out.rules, self.scope, Inductive.NOTE, out.used,
                          {n: self.inductor.proven[n][0] for n in out.used}, core_note)
        return self.result(pid, Verdict.HOLDS, Inductive(
            1, support, out.structure, out.by_frame, len(out.invariants), out.queries,
            out.scouted or None))

    # -- DETERMINED -------------------------------------------------------------------
    def _determined_query(self, a: str):
        """DETERMINED's query for action ``a``: (the query, its parameters, the second
        successor state)."""
        sym = self.sym
        q = Query(f"DETERMINED: from one well-formed state, action {a} with the same "
                  "arguments and chance outcome has two different successors",
                  f"unsat proves {a}'s successor is a function of the state and its "
                  "arguments; sat gives the state and both successors")
        q.add("wf", sym.wf(sym.A0))
        params, fa, fb = sym.twin(a)
        assert sym.B1 is not None   # twin() made the second successor state
        q.extend(fa)
        q.extend(fb)
        q.add("goal", sym.differ(sym.A1, sym.B1))
        return q, params, sym.B1

    def determined(self, pid: str) -> PropertyResult:
        """Per action: one state, the same arguments and chance outcome, two different
        successors?  Unsat for every action proves the rules fix one outcome.

        On a big table each action's query is first asked cut to the core the
        scout table found for it (``Scout.determined_cores``): unsat there is unsat
        for the whole query, and that core is the one reported.  Why: at eight
        players, full deck, each query is answered in 0.1 s but minimising its
        core from the whole query took 62 s for the thirteen actions."""
        sym = self.sym
        scouted = self.reproof.scout().determined_cores(pid) if self.inductor.big else None
        cores: dict = {}
        complete, from_scout = True, 0
        for a in sym.actions:
            q, params, b1 = self._determined_query(a)
            self.progress(f"{pid}: {a}")
            cut = (scouted or {}).get(a)
            if cut is not None and self.ask(cut_to_core(q, cut),
                                            f"determined-{a}-scouted").result == SolverResult.unsat:
                cores[a], from_scout = cut, from_scout + 1
                continue
            ans = self.ask(q, f"determined-{a}")
            if ans.result == SolverResult.sat:
                m = ans.model
                return self.unknown(pid, TwoSuccessors(
                    list(sym.decode_action(m, a, params)), sym.decode(m, sym.A0),
                    [sym.decode(m, sym.A1), sym.decode(m, b1)]))
            if ans.result != SolverResult.unsat:
                return self.unknown(pid, Bounded(f"Z3 answered unknown ({ans.note})"))
            cores[a], done = sym.minimise(q, lambda lab: lab not in STRUCTURE,
                                          self.core_budget())
            complete &= done
        self.cores[pid] = cores
        rules: list[str] = []
        for labels in cores.values():
            for lab in labels:
                for part in lab.split("+"):
                    if part in self.rule_ids and part not in rules:
                        rules.append(part)
        core_note = None
        if from_scout:
            core_note = (f"{from_scout} of the {len(cores)} cores were minimised at the "
                         "scout table and found unsat here as they are")
        if not complete:
            core_note = "time ran out while minimising a core: possibly not minimal"
        return self.result(pid, Verdict.HOLDS, Proof(Support(
            rules, f"every well-formed state at this table ({self.spec.config.describe()})",
            "for every action, the same state, arguments and chance outcome give one "
            "successor; the rules are the union of the minimised cores", core_note=core_note)))

    # -- all of it ------------------------------------------------------------------
    def check(self, pid: str) -> PropertyResult:
        """``pid``'s result, by the decider of its kind (``DECIDERS``)."""
        prop = self.props[pid]
        if prop.kind.has_formula and prop.formula is not None:
            return self.invariant(pid)
        decide = DECIDERS.get(prop.kind)
        if decide is None:
            return self.unknown(pid, NotChecked(
                "a graph property: the symbolic engine does not decide it yet "
                "(use --engine explicit or all)"))
        try:
            return decide(self, pid)
        except OutOfTime:
            return self.unknown(pid, Bounded(self.timeout_text, note="time ran out"))

    def invariant(self, pid: str) -> PropertyResult:
        """A state or step property: a short counterexample, a proof, or the
        bounded search's depth."""
        try:
            # a cheap look for short counterexamples first (small tables), then a proof,
            # then the rest of the bounded search
            if self.quick_depth:
                v = self.bmc(pid, min(self.depth, self.quick_depth))
                if v is not None:
                    return v
            v = self.induct(pid)
            if v is not None:
                return v
            v = self.bmc(pid, self.depth)
            if v is not None:
                return v
            d = self._bmc_done.get(pid, -1)
            why = self._why.get(pid)
            return self.unknown(pid, Unproved(
                d, f"--depth {self.depth}",
                f"no violation within {d} moves after any deal; not proved by "
                f"1-induction: {why.note if why else 'no proof attempted'}",
                (why.cti if why else None, list(self.inductor.proven))))
        except OutOfTime:
            d = self._bmc_done.get(pid, -1)
            searched = (f"no violation within {d} moves after any deal" if d >= 0 else
                        "no bounded search finished")
            return self.unknown(pid, Unproved(
                d, self.timeout_text, f"time ran out before a proof: {searched}; "
                                      f"{len(self.inductor.proven)} invariant(s) proved so far"))

    def stats(self) -> SymbolicStats:
        """The run's figures so far."""
        return SymbolicStats(self.sym.queries, self.sym.solver_seconds,
                             time.monotonic() - self.start,
                             max(self._bmc_done.values(), default=-1),
                             list(self.inductor.proven), dict(self.inductor.dropped),
                             len(self.sym.emitted))


#: one decider per kind of property that is not a formula (``spec/properties.py``
#: ``Kind``); a state or step property is decided by BMC and induction
DECIDERS: dict[Kind, Callable[[SymbolicChecker, str], PropertyResult]] = {
    Kind.NO_DEADLOCK: no_deadlock,
    Kind.ENDS_AFTER: ranked,
    Kind.DETERMINISM: SymbolicChecker.determined,
    Kind.REPORTED_RANGE: hand_bounds,
}


def symbolic_verdicts(game: Game, wanted=None, depth=None, timeout=None, emit=None,
                      progress=None, stopped=None, timeout_name: str | None = None):
    """(results, stats) for the properties ``wanted`` (all by default).

    ``emit``: a sink for the queries as SMT-LIB2 (``Symbolic``).  A
    ``KeyboardInterrupt`` (Ctrl-C, a signal, the command's limits; ``stopped()``
    names it) ends the run: the property being decided and those after it are
    UNKNOWN naming it.  ``timeout_name``: the time limit as the user set it."""
    ch = SymbolicChecker(game, depth, timeout, emit, progress=progress,
                         timeout_name=timeout_name)
    out, reason = [], None
    for p in game.spec.properties:
        if wanted and p.id not in wanted:
            continue
        if reason is None:
            try:
                out.append(ch.check(p.id))
                continue
            except KeyboardInterrupt:
                reason = (stopped() if stopped is not None else None) or "interrupted (Ctrl-C)"
        out.append(ch.unknown(p.id, Bounded(reason, note=f"stopped by {reason}")))
    return out, ch.stats()


__all__ = ["symbolic_verdicts", "SymbolicChecker", "DEFAULT_DEPTH", "LASSO_DEPTH"]
