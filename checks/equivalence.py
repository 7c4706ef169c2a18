"""The proof, at one table, that a changed spec (a mutant) plays the same game as the spec.

Why: a mutant no check kills either describes the same game or plays some round
differently that no check happens to play.  ``checks/distinguish.py`` tells the
two apart, or shows them alike, by exhausting the pairs of states they reach:
that is possible at tables of a few cards only.  At larger tables (the full
deck) the states are far too many, and this module decides the question by
induction instead, as ``checks/induction.py`` proves a property:

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

By induction on the moves the mutant then reaches exactly the spec's states by
exactly its moves, so every scenario's facts and moves and every property's
verdict come out the same, at this table and these readings.  The states after
the step are compared on the variables live at their phase (``live_in_both``:
liveness over both games' actions, everything a check observes counted as a
read): states that differ only in dead ones are one game position, as the
explorer stores them, and the induction relates each mutant state to the spec
state that agrees with it on the live variables.  A mutant that
changes a property's formula or a seat's score is not taken (the graph is the
same, what is read of it is not).  A sat answer names a state the invariants
allow where the two differ; it may be a state no round reaches (the invariants
are too weak to exclude it): no conclusion either way.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from itcp.model.engine import Game
from itcp.model.liveness import liveness
from itcp.model.liveness import observed_formulas as graph_observed
from itcp.model.smt_checks import SAT, UNSAT, Query
from itcp.spec.invariants import per_phase_candidates
from itcp.spec.lang import Spec

from .deadline import OutOfTime
from .distinguish import observed_formulas
from .induction import Undecided
from .sampled import refuted_by_playouts
from .symbolic import SymbolicChecker


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

    def __init__(self, game: Game, seconds: float | None = None, only=None):
        start = time.monotonic()
        self.checker = SymbolicChecker(game, timeout=seconds)
        ind = self.checker.inductor
        self.sym = self.checker.sym
        extra = {n: x for n, x in per_phase_candidates(game.spec).items()
                 if only is None or n in only}
        refuted = refuted_by_playouts(game, extra)
        ind.pool.update({n: x for n, x in extra.items() if n not in refuted})
        try:
            ind.houdini([n for n in ind.pool if not ind.heavy(n) and not ind.refuted(n)
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
        self.seconds = time.monotonic() - start

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
            if sym.ask(q, f"before-deal-{action}", None, self.solver).result != UNSAT:
                out.append(action)
        return out

    def same_game(self, mutant: Spec, actions, elsewhere: bool = False,
                  seconds: float = 60.0) -> Proved | NotProved:
        """Does ``mutant`` (at this prover's table and readings, the same variables)
        make exactly the moves of the spec, to the same states?  ``actions``: the
        actions whose guards or new values it changes (``mutants.Change``);
        ``elsewhere``: it changes a property's formula or a seat's score."""
        start = time.monotonic()
        if elsewhere:
            return NotProved("", "it changes a property's formula or a seat's score")
        if self.moves_before_deal:
            return NotProved(self.moves_before_deal[0], "the spec allows it before the deal: "
                                                         "the invariants do not cover its result")
        sym = self.sym
        live = live_in_both(sym.spec, mutant, actions)
        for action in sorted(actions):
            legality, results, after = sym.step_mismatch(mutant, action, live)
            q = Query(f"does the mutant differ from the spec at {action}?",
                      "unsat: from every state a round reaches, the same moves of this "
                      "action are legal and lead to the same states")
            q.add("wf", sym.wf(sym.A0))
            q.add("reached", self.reached)
            q.add("differ", sym.Or(legality, results))
            try:
                ans = sym.ask(q, f"same-{action}", seconds, self.solver)
            except (OutOfTime, Undecided) as e:
                return NotProved(action, f"undecided ({type(e).__name__})")
            if ans.result == SAT:
                phase, changed = sym.mismatch_seen(ans.model, after)
                if sym.evaluate(ans.model, legality):
                    what = "its legality differs"
                else:
                    what = f"the state it leads to differs ({', '.join(changed)})"
                return NotProved(action, f"{what} from a state the proved invariants allow "
                                         f"(phase {phase}; perhaps one no round reaches)")
            if ans.result != UNSAT:
                return NotProved(action, f"undecided within {seconds:g} s ({ans.note})")
        return Proved(tuple(sorted(actions)), len(self.invariants),
                      round(time.monotonic() - start, 3))


def live_in_both(spec: Spec, mutant: Spec, actions) -> dict:
    """Phase value -> the variables that the future of a state at that phase may
    read, in the spec or in the mutant (``model/liveness.py``'s analysis over both
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
