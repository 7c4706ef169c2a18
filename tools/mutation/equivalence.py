"""The proof, at one table, that a changed spec (a mutant) plays the same game as the spec.

Why: a mutant no check kills either describes the same game or plays some round
differently that no check happens to play.  ``tools/mutation/distinguish.py`` tells the
two apart, or shows them alike, by exhausting the pairs of states they reach:
that is possible at tables of a few cards only.  At larger tables (the full
deck) the states are far too many, and this module decides the question by
induction instead, as ``checks/symbolic/induction.py`` proves a property:

1. **Invariants of the spec.**  The candidates of ``spec/invariants.py`` that
   random rounds do not refute and that are not arithmetic on card sets, with
   its per-phase ones ("in phase P, v has its initial value": a reset a mutant
   drops is harmless exactly where the value is reset already), cut to the
   largest subset that holds after every deal and that every action preserves
   given the others (Houdini, ``Inductor.houdini``).  Every state a round
   reaches is the state before the deal or satisfies all of them.
2. **One step, per action the mutant changes.**  From a well-formed state that
   is the pre-deal state or satisfies the invariants, with the same arguments
   and chance outcome: is the move legal in one and not the other, or legal in
   both and leading to different states?  Unsat for every changed action
   (``Symbolic.step_mismatch``) proves it.

Two strengthenings, both sound because every state a round reaches has them:
``history=K`` asks that the state before the step was reached by K moves from
states the invariants allow (or is the pre-deal state): an allowed state that
no move leads to is dropped (k-induction's stronger hypothesis); ``heavy``
proves the candidates that count cards too (CONSERVATION: a state where two
hands share a card is dropped), at several times the cost.  A mutant that
changes a seat's score or a state property's formula is compared on those as
well: every score and every state property takes the same value in both, in
every state a round reaches (a scenario may state scores anywhere).

By induction on the moves the mutant then reaches exactly the spec's states by
exactly its moves, so every scenario's facts and moves and every property's
verdict come out the same, at this table and these readings.  The states after
the step are compared on the variables live at their phase (``live_in_both``:
liveness over both games' actions, everything a check observes counted as a
read): states that differ only in dead ones are one game position, as the
explorer stores them, and the induction relates each mutant state to the spec
state that agrees with it on the live variables.  A mutant that
changes a step property's formula is not taken.  A sat answer names a state the invariants
allow where the two differ; it may be a state no round reaches (the invariants
are too weak to exclude it): no conclusion either way.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.checks.symbolic.deadline import OutOfTime
from itcp.checks.symbolic.induction import Undecided
from itcp.checks.symbolic.sampled import refuted_by_playouts
from itcp.model.analysis.liveness import liveness
from itcp.model.analysis.liveness import observed_formulas as graph_observed
from itcp.model.engine.engine import Game
from itcp.model.smt.queries import Query, SolverResult
from itcp.spec.invariants import per_phase_candidates
from itcp.spec.lang import Spec
from tools.mutation.distinguish import observed_formulas
from tools.mutation.mutants import compiled_elsewhere


@dataclass(frozen=True)
class Proved:
    """Every changed action is legal in the same states and leads to the same state."""
    actions: tuple            # the actions compared
    invariants: int           # how many proved invariants the steps assumed
    seconds: float


@dataclass(frozen=True)
class NotProved:
    """No proof: the first action where one could not be found, and why."""
    action: str
    why: str


class StepProver:
    """The proved invariants of one spec at one table, and the one-step
    comparisons of its mutants against it (``same_game``).

    Proving the invariants is the costly part (seconds at a few cards, minutes
    at the full deck); it is done once, on construction, and every mutant
    compared at this table and readings reuses it.  ``only``: the candidates
    to try (e.g. those proved by an earlier run at this table and readings:
    proving them again costs a fraction of finding them; still a proof)."""

    def __init__(self, game: Game, seconds: float | None = None, only=None,
                 heavy: bool = False):
        start = time.monotonic()
        self.checker = SymbolicChecker(game, timeout=seconds)
        ind = self.checker.inductor
        self.sym = self.checker.sym
        extra = {n: x for n, x in per_phase_candidates(game.spec).items()
                 if only is None or n in only}
        refuted = refuted_by_playouts(game, extra)
        ind.pool.update({n: x for n, x in extra.items() if n not in refuted})
        try:
            ind.houdini([n for n in ind.pool if (heavy or not ind.heavy(n)) and not ind.refuted(n)
                         and (only is None or n in only)])
        except OutOfTime:
            ind.proven.clear()
        self.invariants = dict(ind.proven)
        self.solver = ind.solver
        sym, s = self.sym, self.sym.A0
        proved = sym.And(*[sym.on(n, f, 0) for n, (_, f) in self.invariants.items()])
        #: every state a round reaches: the pre-deal state, or one the invariants allow
        #: (Houdini's base case is the deal from the pre-deal state: no other move
        #: may start there, which ``moves_before_deal`` checks)
        self.reached = sym.Or(sym.init(s), proved)
        self.moves_before_deal = self._moves_before_deal()
        self._histories: dict = {}
        self.seconds = time.monotonic() - start

    def history(self, k: int) -> list:
        """Labelled fragments saying that A0 is reached by the last of ``k`` moves
        from states the invariants allow (or is the pre-deal state before that).

        Why: an invariant that holds of every reached state still allows states
        no round reaches; a state with no predecessor among the allowed states is
        one of them.  Every reached state other than the pre-deal one is the
        successor of a reached state by some action (the deal's from the pre-deal
        state), so demanding ``k`` such predecessors keeps every reached state and
        drops the states the invariants allow only without a history (k-induction's
        strengthening of the hypothesis)."""
        if k <= 0:
            return []
        if k in self._histories:
            return self._histories[k]
        sym = self.sym
        proved = [f for _, f in self.invariants.values()]
        later, steps = sym.A0, []
        for i in range(1, k + 1):
            pre = sym.state(f"H{i}")
            _, moves = sym.step_any(pre, later, f"h{i}")
            allowed = sym.Or(sym.init(pre), sym.And(*[sym.formula(f, pre) for f in proved]))
            # the state at this point of the history is the pre-deal one (no move
            # before it), or it was reached by a move from an allowed state
            step = sym.And(*[e for _, e in moves])
            steps.append((sym.init(later), sym.And(sym.wf(pre), allowed, step)))
            later = pre
        # nest from the oldest: "init(later) or (pre allowed, a move to later, and so on)"
        tail = sym.And()
        for at_start, moved in reversed(steps):
            tail = sym.Or(at_start, sym.And(moved, tail))
        self._histories[k] = [("history", tail)]
        return self._histories[k]

    def _moves_before_deal(self) -> list:
        """The actions other than the deal that the pre-deal state allows (none in a
        sound setup: otherwise "reached" above would miss their successors)."""
        sym, out = self.sym, []
        for action in sym.actions:
            if action == "deal":
                continue
            can, _ = sym.can_move(action)
            q = Query(f"can {action} be played before the deal?", "unsat: no")
            q.add("init", sym.init(sym.A0))
            q.add("legal", can if can is not None else sym.And())
            if sym.ask(q, f"before-deal-{action}", None, self.solver).result != SolverResult.unsat:
                out.append(action)
        return out

    def _from_reached(self, title: str, expect: str, differ, history: int) -> Query:
        """A query: a well-formed state a round may reach (with ``history`` moves
        before it) where ``differ`` holds."""
        sym = self.sym
        q = Query(title, expect)
        q.add("wf", sym.wf(sym.A0))
        q.add("reached", self.reached)
        q.add("differ", differ)
        q.extend(self.history(history))
        return q

    def _same_observed(self, mutant: Spec, history: int, seconds: float) -> NotProved | None:
        """For a mutant that changes a property's formula or a seat's score: None
        when every state property and every seat's score has the same value in
        both, in every state a round reaches (a step property changed: not
        proved).  Scores are compared in every state, not only at a round's end:
        a scenario may state them anywhere."""
        spec, sym = self.sym.spec, self.sym
        if any(p.kind == "step" and p.formula is not None
               and not _inlined_alike(spec, mutant, p.formula) for p in spec.properties):
            return NotProved("", "it changes a step property's formula")
        steps = {id(p.formula) for p in spec.properties if p.kind == "step"}
        exprs = [e for e in compiled_elsewhere(spec)
                 if id(e) not in steps and not _inlined_alike(spec, mutant, e)]
        q = self._from_reached("does the mutant score or judge a state otherwise than the "
                               "spec?", "unsat: in every state a round reaches, every seat's "
                               "score and every state property has the same value in both",
                               sym.observed_mismatch(mutant, exprs), history)
        try:
            ans = sym.ask(q, "same-observed", seconds, self.solver)
        except (OutOfTime, Undecided) as e:
            return NotProved("", f"scores or properties undecided ({type(e).__name__})")
        if ans.result == SolverResult.sat:
            phase = sym.mismatch_phase(ans.model)
            return NotProved("", "a seat's score or a state property differs in a state the "
                                 f"proved invariants allow (phase {phase}; perhaps one no "
                                 "round reaches)")
        if ans.result != SolverResult.unsat:
            return NotProved("", f"scores or properties undecided within {seconds:g} s "
                                 f"({ans.note})")
        return None

    def same_game(self, mutant: Spec, actions, elsewhere: bool = False,
                  seconds: float = 60.0, history: int = 0) -> Proved | NotProved:
        """Does ``mutant`` (at this prover's table and readings, the same variables)
        make exactly the moves of the spec, to the same states?  ``actions``: the
        actions whose guards or new values it changes (``mutants.Change``);
        ``elsewhere``: it changes a property's formula or a seat's score."""
        start = time.monotonic()
        if self.moves_before_deal:
            return NotProved(self.moves_before_deal[0], "the spec allows it before the deal: "
                                                         "the invariants do not cover its result")
        sym = self.sym
        if elsewhere:
            seen = self._same_observed(mutant, history, seconds)
            if seen is not None:
                return seen
        live = live_in_both(sym.spec, mutant, actions)
        for action in sorted(actions):
            legality, results, after = sym.step_mismatch(mutant, action, live)
            q = self._from_reached(f"does the mutant differ from the spec at {action}?",
                                   "unsat: from every state a round reaches, the same moves "
                                   "of this action are legal and lead to the same states",
                                   sym.Or(legality, results), history)
            try:
                ans = sym.ask(q, f"same-{action}", seconds, self.solver)
            except (OutOfTime, Undecided) as e:
                return NotProved(action, f"undecided ({type(e).__name__})")
            if ans.result == SolverResult.sat:
                phase, changed = sym.mismatch_seen(ans.model, after)
                if sym.evaluate(ans.model, legality):
                    what = "its legality differs"
                else:
                    what = f"the state it leads to differs ({', '.join(changed)})"
                return NotProved(action, f"{what} from a state the proved invariants allow "
                                         f"(phase {phase}; perhaps one no round reaches)")
            if ans.result != SolverResult.unsat:
                return NotProved(action, f"undecided within {seconds:g} s ({ans.note})")
        return Proved(tuple(sorted(actions)), len(self.invariants),
                      round(time.monotonic() - start, 3))


def _inlined_alike(spec: Spec, mutant: Spec, expr) -> bool:
    return spec.inliner()(expr) == mutant.inliner()(expr)


def live_in_both(spec: Spec, mutant: Spec, actions) -> dict:
    """Phase value -> the variables that the future of a state at that phase may
    read, in the spec or in the mutant (``model/analysis/liveness.py``'s analysis over both
    games' actions at once, ``actions`` the mutant's changed ones, with what a
    scenario observes, the properties and the graph observations counted as
    reads, nothing assumed constant).  Actions hold their definitions inlined,
    and a mutant that changes a property or a score is never compared, so the
    spec's properties are the mutant's.

    Why: two states that differ only in variables dead at their phase play the
    same from there on, in both games (every read of such a variable comes after
    a write that does not read it), and look the same to every check.  So a step
    may lead the two games to states that differ in dead variables only: that is
    still the same game (the explorer stores such states as one)."""
    theirs = tuple(replace(a, decl=replace(a.decl, name=f"{a.name}~mutant"))
                   for a in mutant.actions if a.name in actions)
    both = replace(spec, actions=spec.actions + theirs)
    return liveness(both, {}, observed_formulas(spec) + graph_observed(spec), {})


__all__ = ["NotProved", "Proved", "StepProver", "live_in_both"]
