"""Scouting a proof at a small table: which invariants, and which rules, a proof
at the full table needs.

Why: at the full deck with eight players an induction query that Z3 can satisfy
(a counterexample to induction: a candidate invariant is not preserved) costs
seconds to minutes, while most unsatisfiable ones cost a fraction of a second.
Searching for strengthening invariants (Houdini) is mostly satisfiable queries;
checking a known answer is only unsatisfiable ones.  So the search runs at a
*scout table*: the same readings and kinds of option cards, at most three
players, one copy of each option card, one or two suits of one rank, hands of
one card, where every query takes milliseconds.  Its answer is only a guess for
the real table: the invariants are the same formulas (the candidates are stated
over the spec's vocabulary, not over one table), and ``checks/symbolic/reproof.py``
proves every one of them again at the real table, each step query cut to the
scout's core (a subset of the query's conjuncts: unsat there is unsat for the
whole query).  A guess that fails there falls back to the search at the real
table.  Nothing proved at the scout table is ever reported as a proof.

The search is a lazy Houdini from the property (``Scout.plan``), with Z3's
unsat cores recording which invariants each answer rests on, so that dropping
one re-asks only the answers that used it.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from itcp.model.engine.engine import Game, build_spec
from itcp.model.smt.queries import Query, SolverResult
from itcp.spec import ast as A
from itcp.spec.config import Config, ConfigError
from itcp.spec.errors import InputError

from ..results import DeadlockProof, Ranking, Verdict
from .deadline import OutOfTime
from .deadlock import no_deadlock
from .induction import STRUCTURE, subset_query
from .ranking import ranked

#: random rounds of the engine at the scout table that filter the candidates (cheap
#: there, and every candidate they refute is a satisfiable query saved)
SCOUT_ROUNDS = 300
#: seconds to minimise one core at the scout table: past it the core is kept as it
#: is (still a core, so still a valid cut; only possibly not minimal)
MINIMISE_SECONDS = 2.0
#: players at the scout table at most
SCOUT_PLAYERS = 3


@dataclass
class Plan:
    """A proof found at the scout table, to be re-proved at the real one."""
    table: str                                  # the scout table, described
    members: list = field(default_factory=list)  # the invariants the proof rests on
    #: (formula name, action) -> the labels of the step query's core (minimised
    #: for the property's own steps)
    steps: dict = field(default_factory=dict)
    seconds: float = 0.0


def scout_config(cfg: Config) -> Config | None:
    """The smallest table like ``cfg`` (option kinds, deck rules, at most
    SCOUT_PLAYERS players) with one card in hand that deals; None when ``cfg`` is
    no bigger than it."""
    lo, top = cfg.ranks
    for suits, hi in ((min(2, cfg.suits), lo), (min(2, cfg.suits), lo + 1),
                      (cfg.suits, lo + 1), (cfg.suits, lo + 3)):
        try:
            small = Config(players=min(cfg.players, SCOUT_PLAYERS), suits=suits,
                           ranks=(lo, min(hi, top)),
                           hand=1, options=tuple((n, 1) for n, _ in cfg.options),
                           charity=cfg.charity, desolation=cfg.desolation,
                           rounds=cfg.rounds, threshold=cfg.threshold)
        except ConfigError:
            continue
        return small if small.n_cards < cfg.n_cards else None
    return None


#: plans found in this process, by scout table, readings and the property's formula
#: there: every table with the same scout table (e.g. the full deck at 3 to 8
#: players) asks the same search, whose answer is only ever a guess to re-prove
_PLANS: dict = {}


def forget_plans() -> None:
    """Drop the plans kept in this process (a benchmark times cold proofs)."""
    _PLANS.clear()


def _alpha(formula) -> str:
    """The formula as text with its bound names numbered in order of appearance: two
    compilations of one question (fresh names each time) give the same text."""
    names: dict = {}
    for n in A.walk(formula):
        if isinstance(n, A.Bound):
            names.setdefault(n.name, f"_{len(names)}")
    text = repr(formula)
    if names:
        text = re.sub(r"[A-Za-z_][A-Za-z_0-9]*", lambda m: names.get(m[0], m[0]), text)
    return text


def cut_to_core(q: Query, labels) -> Query:
    """``q`` cut to its structure and the conjuncts labelled ``labels`` (a core
    found at the scout table): unsat proves ``q`` unsat."""
    keep = set(labels)
    return subset_query(q, lambda lab: lab in STRUCTURE or lab in keep,
                        "cut to the core found at the scout table")


class Scout:
    """The scout table of one run, and a plan per property; answers found for one
    property are kept for the next, and plans for the next run in this process."""

    def __init__(self, spec, progress, deadline: float | None, checker):
        """``checker(game, timeout=, rounds=)`` makes the symbolic checker run at
        the scout table (``symbolic.SymbolicChecker``, which makes the scouts:
        handed in, so this module sits below it)."""
        self.make_checker = checker
        self.config = scout_config(spec.config)
        self.progress = progress
        self.deadline = deadline
        self.failed = self.config is None
        self.ch = None
        if self.config is None:
            return
        small = build_spec(self.config, dict(spec.readings), spec.scope)
        if spec.restate is not None:
            try:
                small = small.with_properties(spec.restate(small), spec.restate)
            except InputError:   # e.g. a question naming a seat the scout table lacks
                self.failed = True
                return
        self.small = small
        self.props = {p.id: p for p in small.properties}
        #: (name, action) -> labels of the step query's minimised core (kept while
        #: every invariant in it is still believed)
        self.steps: dict = {}
        #: candidates a step or a deal broke at the scout table
        self.broken: set = set()

    @property
    def table(self) -> str:
        """The scout table, described (there is one unless ``failed`` at once)."""
        assert self.config is not None
        return self.config.describe()

    def _checker(self):
        """The symbolic checker at the scout table, made on first need."""
        if self.ch is None:
            left = (None if self.deadline is None
                    else max(1.0, self.deadline - time.monotonic()))
            self.ch = self.make_checker(Game(self.small), timeout=left, rounds=SCOUT_ROUNDS)
            self.ind = self.ch.inductor
        return self.ch

    def _budget(self):
        """Seconds left of the run (the scout checker shares its deadline)."""
        return self.ch.budget()

    def plan(self, pid: str) -> Plan | None:
        """The invariants and cores of a proof of ``pid`` at the scout
        table, or None (the scout table could not prove it, or time ran out).

        Lazy Houdini from the property: every candidate the random rounds leave is
        assumed; the step queries of the property, then of each invariant their
        cores use, are asked in turn.  A candidate some step breaks is dropped and
        the answers whose cores used it are asked again; what is left is closed
        (every core uses only its members), holds after every deal and is preserved
        by every action: an inductive invariant at the scout table."""
        if self.failed:
            return None
        formula = self._formula(pid)
        if formula is None:
            return None
        key = self._key(pid, _alpha(formula))
        if key in _PLANS:
            self.progress(f"{pid}: the plan scouted at {self.table} "
                          "earlier in this run")
            return _PLANS[key]
        start = time.monotonic()
        self._checker()
        ind = self.ind
        state_prop = not ind.is_step(pid)
        self.progress(f"{pid}: scouting at {self.table}")
        # light candidates first (no sums, counts or pile sets: they make slow
        # queries at the real table); the heavy ones too only if that fails (the
        # pile holds a card at a turn's start only because no card is in two
        # places), and then what broke given light ones alone may hold again
        for light in (True, False):
            believed = [n for n in ind.pool if not ind.refuted(n) and n != pid
                        and not (light and (ind.heavy(n) or n in self.broken))]
            try:
                closure = self._inductive(pid, believed, state_prop)
            except (TimeoutError, OutOfTime):
                self.failed = True
                return None
            if closure is not None:
                break
        else:
            return None
        members = [m for m in closure if m != pid]
        plan = Plan(self.table, members,
                    {k: v for k, v in self.steps.items() if k[0] in closure})
        plan.seconds = time.monotonic() - start
        _PLANS[key] = plan
        self.progress(f"{pid}: scouted {len(plan.members)} invariant(s), {len(plan.steps)} "
                      f"step(s) in {plan.seconds:.1f} s")
        return plan

    def _inductive(self, pid, believed, state_prop) -> list | None:
        """The closure of ``pid``'s proof over ``believed`` (pruned as steps and
        deals break members) that holds after every deal; None if ``pid`` breaks."""
        ind = self.ind
        while True:
            closure = self._closure(pid, believed, state_prop)
            if closure is None:
                return None
            members = [m for m in closure if m != pid]
            failed = ind.ask_base(list(members) + ([pid] if state_prop else []),
                                   f"scout-{pid}")
            if pid in failed:
                return None
            if not failed:
                return closure
            for m in failed:
                believed.remove(m)
                self.broken.add(m)

    def _key(self, pid: str, what: str) -> tuple:
        """Where ``_PLANS`` keeps an answer about ``pid`` at this scout table."""
        return (self.config, tuple(sorted(self.small.readings.items())), self.small.scope,
                pid, what)

    def _formula(self, name: str):
        """The formula of a property (with one), or of a candidate invariant (the
        candidates are the same names at every table), at the scout table."""
        if name in self.props:
            return self.props[name].formula
        if self.failed:
            return None
        self._checker()
        hit = self.ind.pool.get(name)
        return None if hit is None else hit[1]

    def graph_support(self, pid: str) -> list | None:
        """The invariants the scout table's proof of NO_DEADLOCK (``pid``), or of
        a ranked property (ROUND_ENDS, ``ranking.py``), rests on; None when the
        scout table does not prove it.

        Why: at the full deck the symbolic NO_DEADLOCK proves its invariants by
        the plain Houdini over every candidate, whole queries with every member
        assumed, and some of those take Z3 minutes; knowing which few invariants
        the deadlock query needs, each can be re-proved from its own plan."""
        def support(ch):
            prover = ranked if self.props[pid].ranking else no_deadlock
            v = prover(ch, pid, reachability=False)
            ev = v.evidence
            if v.verdict is Verdict.HOLDS and isinstance(ev, (DeadlockProof, Ranking)):
                return list(ev.support.invariants)
            return None
        return self._scouted(pid, "support", support)

    def determined_cores(self, pid: str) -> dict | None:
        """Action -> the labels of the minimised core of the scout table's proof of
        DETERMINED (``pid``); None when the scout table does not prove it."""
        return self._scouted(pid, "cores", lambda ch: ch.cores.get(pid)
                             if ch.determined(pid).verdict is Verdict.HOLDS else None)

    def _scouted(self, pid: str, what: str, find):
        """``find(checker)`` at the scout table, kept in ``_PLANS`` under ``what``;
        None when there is no scout table, or its time ran out."""
        if self.failed or pid not in self.props:
            return None
        key = self._key(pid, what)
        if key not in _PLANS:
            ch = self._checker()
            self.progress(f"{pid}: scouting at {self.table}")
            try:
                _PLANS[key] = find(ch)
            except (TimeoutError, OutOfTime):
                self.failed = True
                return None
        return _PLANS[key]

    @staticmethod
    def _still_holds(labels, believed, pid) -> bool:
        """A step's core ``labels`` (None: not asked yet) still proves it: every
        invariant it uses is still believed."""
        return labels is not None and all(lab[4:] in believed or lab[4:] == pid
                                          for lab in labels if lab.startswith("inv:"))

    def _closure(self, pid, believed, state_prop):
        """The formulas the property's proof reaches through the step queries'
        cores, each step unsat; None if a step breaks the property itself."""
        ind, sym = self.ind, self.ind.sym
        while True:
            need, seen = [pid], [pid]
            restart = False
            while need and not restart:
                t = need.pop()
                acts = [a for a in sym.actions if ind.affects(a, t)]
                todo = [a for a in acts if not self._still_holds(self.steps.get((t, a)),
                                                                   believed, pid)]
                assume = [m for m in believed if m != t] + \
                    ([t] if t != pid or state_prop else [])
                queries = [ind.step_query(a, assume, t, f"{a} breaks {t}", "") for a in todo]
                # one target's step queries are independent: decided several at once
                answers = self.ch.solve_all(
                    ((q, f"scout-{t}-{a}") for q, a in zip(queries, todo)), ind.solver,
                    tracked=lambda lab: lab not in STRUCTURE) if todo else []
                for a, q, ans in zip(todo, queries, answers):
                    if ans.result == SolverResult.sat:
                        if t == pid:
                            return None
                        believed.remove(t)
                        self.broken.add(t)
                        restart = True
                        break
                    if ans.result != SolverResult.unsat:
                        raise TimeoutError
                    # the property's own cores are minimised (the rules they name
                    # are what a proof reports); an invariant's are Z3's cores as
                    # they come: minimising them costs more here than it saves at
                    # the real table, where fewer assumptions can even be slower
                    labels = ans.core
                    if t == pid:
                        labels, _ = sym.minimise(
                            cut_to_core(q, ans.core),
                            lambda lab: lab not in STRUCTURE,
                            min(MINIMISE_SECONDS, self._budget() or MINIMISE_SECONDS))
                    self.steps[(t, a)] = labels
                if restart:
                    break
                for a in acts:
                    for lab in self.steps[(t, a)]:
                        if lab.startswith("inv:") and lab[4:] not in seen:
                            seen.append(lab[4:])
                            need.append(lab[4:])
            if not restart:
                return seen


__all__ = ["Scout", "Plan", "scout_config", "forget_plans", "cut_to_core"]
