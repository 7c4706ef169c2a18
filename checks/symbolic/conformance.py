"""Conformance: the generated engine and the Z3 encoding agree, state by state.

For a given engine state ``s`` and each action of its phase, the engine's set
of ``(arguments, successor)`` pairs (``legal_actions`` then ``apply``) must be
exactly the set of solutions of ``Next(s, a, params, s')`` with ``s`` fixed:
Z3 is asked for a solution, the solution is blocked, and so on until unsat.
A disagreement is reported as the state, the action, and the successors only
one side produced.  States come from an explicit-state exploration (every
reachable state of a tiny table) or from random playouts of a large one.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from itcp.model.engine.engine import Game
from itcp.model.engine.simulate import random_states
from itcp.model.smt.encoding import SmtSpec, SuccessorQuery

from ..explicit.explore import Limits, explore, state


@dataclass
class Disagreement:
    state: tuple
    action: str
    engine_only: list  # [(args, successor)]
    z3_only: list
    note: str = ""

    def to_json(self, game: Game | None = None) -> dict:
        out: dict[str, Any] = {"state": self.state, "action": self.action,
               "engine_only": [{"args": a, "successor": s} for a, s in self.engine_only],
               "z3_only": [{"args": a, "successor": s} for a, s in self.z3_only]}
        if self.note:
            out["note"] = self.note
        if game is not None:
            out["described"] = game.describe(self.state)
        return out


@dataclass
class Report:
    states: int = 0
    queries: int = 0          # solver check() calls
    pairs: int = 0            # (state, action) pairs compared
    solutions: int = 0        # successors both sides agreed on
    seconds: float = 0.0
    disagreements: list = field(default_factory=list)
    truncated: int = 0        # pairs whose enumeration hit max_solutions
    unknown: int = 0          # pairs where Z3 answered unknown

    @property
    def agree(self) -> bool:
        """Agreement, over at least one (state, action) pair: over nothing it is none."""
        return bool(self.pairs) and not self.disagreements and not self.unknown

    @property
    def queries_per_second(self) -> float:
        return self.queries / self.seconds if self.seconds else 0.0

    def to_json(self, game: Game | None = None) -> dict:
        return {"agree": self.agree, "states": self.states, "pairs": self.pairs,
                "queries": self.queries, "solutions": self.solutions,
                "seconds": round(self.seconds, 3),
                "queries_per_second": round(self.queries_per_second, 1),
                "truncated": self.truncated, "unknown": self.unknown,
                "disagreements": [d.to_json(game) for d in self.disagreements]}


class Checker:
    """One successor query per action (model/smt/encoding.py), reused across states."""

    def __init__(self, game: Game, smt=None):
        self.game = game
        self.smt = smt or SmtSpec(game.spec)
        self._query_class = SuccessorQuery
        self.by_phase: dict[int, list[str]] = {}
        for a in game.spec.actions:
            self.by_phase.setdefault(a.phase.value, []).append(a.name)
        self._queries: dict = {}

    def solutions(self, state: tuple, action: str, max_solutions: int, report: Report):
        """Z3's set of (args, successor) for ``action`` at ``state`` (None if unknown),
        and whether the enumeration was cut at ``max_solutions``."""
        q = self._queries.get(action)
        if q is None:
            q = self._queries[action] = self._query_class(self.smt, action)
        out, truncated, queries = q.solutions(state, max_solutions)
        report.queries += queries
        return out, truncated

    def engine(self, state: tuple, action: str) -> set:
        g = self.game
        return {(tuple(a[1]), g.apply(state, a, validate=False))
                for a in g.legal_actions(state) if a[0] == action}

    def check_state(self, state: tuple, report: Report, max_solutions: int = 1000,
                    all_actions: bool = False):
        report.states += 1
        names = ([a.name for a in self.game.spec.actions] if all_actions
                 else self.by_phase.get(state[self.game.index["phase"]], []))
        for action in names:
            report.pairs += 1
            eng = self.engine(state, action)
            z, truncated = self.solutions(state, action, max_solutions, report)
            if z is None:
                report.unknown += 1
                continue
            if truncated:
                report.truncated += 1
                missing = {x for x in z if x not in eng}
                if missing:
                    report.disagreements.append(Disagreement(
                        state, action, [], sorted(missing), "enumeration truncated"))
                continue
            if z != eng:
                report.disagreements.append(Disagreement(
                    state, action, sorted(eng - z), sorted(z - eng)))
            report.solutions += len(z & eng)


def conformance(game: Game, states, max_solutions: int = 1000, all_actions: bool = False,
                progress=None, checker: Checker | None = None) -> Report:
    """Compare engine and Z3 successors at every state of ``states``."""
    checker = checker or Checker(game)
    report = Report()
    start = time.monotonic()
    for i, st in enumerate(states):
        checker.check_state(tuple(st), report, max_solutions, all_actions)
        if progress is not None:
            progress(i + 1, report)
    report.seconds = time.monotonic() - start
    return report


def explored_states(game: Game, max_states: int | None = None, symmetry: bool = True):
    """The initial state, then every state an exploration of ``game`` reached
    (every reachable state: chance nodes and variables no move reads again
    included, as the engine has them)."""
    ex = explore(game, Limits(max_states=max_states), symmetry=symmetry, track_rules=False,
                 fold=False, reduce=False)
    yield game.initial_state()
    for i in range(ex.states):
        yield state(ex, i)


def playout_states(game: Game, rounds: int, seed: int = 0, max_steps: int = 400,
                   every: int = 1):
    """States along random playouts (deal, then uniformly random moves)."""
    rng = random.Random(seed)
    for _ in range(rounds):
        for step, s in enumerate(random_states(game, rng, max_steps)):
            if step % every == 0:
                yield s


__all__ = ["conformance", "Checker", "Report", "Disagreement", "explored_states",
           "playout_states"]
