"""Solver queries for the symbolic checks: BMC, k-induction, Houdini strengthening.

Part of the SMT backend (with ``model/smt/encoding.py``, the only other module that
imports z3).  ``checks/symbolic/checker.py`` decides what to ask; this module builds
the formulas from ``SmtSpec``, asks Z3, and hands back plain Python values: a
``SolverResult`` (sat, unsat or unknown, as Z3 names them), decoded engine states
and actions, core labels.

Speed: Next of one action is translated once, on template states, and copied to
each step of an unrolling by substitution.  Satisfiability is decided by a
bit-blasting tactic pipeline or Z3's QF_BV solver (``SOLVERS``).  The rules a
proof used are a core minimised by deletion (``minimise``: far faster here than
Z3's own core minimisation); ``solve_all(..., tracked=...)`` gives Z3's cheap,
unminimised cores.
Hard queries can race equivalent forms on several cores (``first_unsat``).
Every query can be written as a self-contained SMT-LIB2 file.
"""
from __future__ import annotations

import itertools
import os
import re
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from enum import StrEnum

import z3

from itcp.spec import ast as A
from itcp.spec.lang import Spec

from .encoding import SmtSpec
from .values import Pile


class SolverResult(StrEnum):
    """What Z3 answers a query, named as Z3 names it.  Not a verdict: unsat is a
    proof only of what a query asks, and unknown says Z3 gave up (a time limit,
    an interrupt), which a check turns into its own verdict."""
    sat = "sat"
    unsat = "unsat"
    unknown = "unknown"


def _result(r) -> SolverResult:
    """Z3's check result as a ``SolverResult``."""
    return SolverResult.sat if r == z3.sat else (SolverResult.unsat if r == z3.unsat
                                                 else SolverResult.unknown)


def _leaves(x, out: list) -> list:
    if isinstance(x, Pile):
        out.append(x.length)
        out.extend(x.slots)
        out.append(x.cards)
        out.append(x.distinct)
        out.append(x.top)
    elif isinstance(x, (tuple, list)):
        for y in x:
            _leaves(y, out)
    elif isinstance(x, dict):
        for k in x:
            _leaves(x[k], out)
    else:
        out.append(x)
    return out


class Substitution:
    """``z3.substitute(e, *pairs)`` for many ``e`` with the same pairs.

    Why: z3's wrapper rebuilds its two C arrays and, in a debug build of
    Python (the default: ``__debug__``), compares the sorts of every pair on
    every call; an unrolling copies each fragment of Next with the same
    hundred pairs, and that was most of a step query's build time.  Here the
    arrays are built and the sorts checked once."""

    def __init__(self, pairs):
        pairs = list(pairs)
        for a, b in pairs:
            if not a.sort().eq(b.sort()):
                raise ValueError(f"substitution of {a} ({a.sort()}) by {b} ({b.sort()})")
        self.n = len(pairs)
        self.ctx = pairs[0][0].ctx if pairs else None
        self.src = (z3.Ast * self.n)(*[a.as_ast() for a, _ in pairs])
        self.dst = (z3.Ast * self.n)(*[b.as_ast() for _, b in pairs])

    def __call__(self, e):
        if not self.n:
            return e
        if e.ctx is not self.ctx:
            raise ValueError("substitution into a formula of another Z3 context")
        # the result has e's sort, hence e's class (BoolRef, BitVecRef, ...)
        return type(e)(z3.Z3_substitute(self.ctx.ref(), e.as_ast(), self.n, self.src, self.dst),
                       self.ctx)


@dataclass
class SolverAnswer:
    result: SolverResult
    seconds: float
    model: object = None        # z3 model when sat
    core: list | None = None    # tracked labels of the core when unsat (solve_all)
    note: str = ""


@dataclass
class Query:
    """A list of named formulas whose conjunction is asked for satisfiability."""
    title: str                  # what it asks
    meaning: str                # which answer proves what
    parts: list = field(default_factory=list)  # (label, z3 Bool)
    #: seconds it may take at most when decided with others (``solve_all``), if
    #: less than the batch's cap
    cap: float | None = None

    def add(self, label: str, expr):
        if isinstance(expr, (list, tuple)):
            expr = z3.And(*expr) if expr else z3.BoolVal(True)
        self.parts.append((label, expr))

    def extend(self, labelled):
        for label, expr in labelled:
            self.add(label, expr)

    def smt2(self) -> str:
        s = z3.Solver()
        for _, e in self.parts:
            s.add(e)
        head = [f"; itcp: {self.title}", f"; {self.meaning}",
                "; labels of the conjuncts, in order: "
                + ", ".join(sorted({lab for lab, _ in self.parts}))]
        return "\n".join(head) + "\n" + s.to_smt2()


def _fast_solver(ctx=None):
    return z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify",
                   "bit-blast", "sat", ctx=ctx).solver()


def _qfbv_solver(ctx=None):
    return z3.SolverFor("QF_BV", ctx=ctx)


#: seconds the first of the raced queries (``Symbolic.first_unsat``) runs alone, in
#: this thread's context, before all of them race
RACE_AFTER = 1.0

#: queries ``Symbolic.solve_all`` decides at once: one per core (Z3 releases the
#: GIL while it solves, and this thread builds and translates the next queries
#: meanwhile)
WORKERS = max(1, os.cpu_count() or 1)

#: "pipeline": the bit-blasting tactic pipeline, best on deep unrollings (BMC);
#: "qf_bv": Z3's QF_BV solver, several times faster on one-step induction queries
#: at the full deck (its preprocessing keeps the big card-set terms shared)
SOLVERS = {"pipeline": _fast_solver, "qf_bv": _qfbv_solver}


def _tightest(*limits):
    """The smallest of the time limits given, None (no limit) if none is."""
    return min((x for x in limits if x is not None), default=None)


def _stop(ctxs, running) -> None:
    """Interrupt the checks in ``ctxs`` until ``running()`` says none still runs:
    again and again, since a check that had not begun yet misses an interrupt."""
    while running():
        for ctx in ctxs:
            ctx.interrupt()
        time.sleep(0.02)


class Symbolic:
    """The SMT side of the symbolic checks for one elaborated spec."""

    def __init__(self, spec: Spec, timeout: float | None = None, emit=None):
        self.spec = spec
        self.smt = SmtSpec(spec)
        self.timeout = timeout
        #: where queries are written as SMT-LIB2: a sink (``write(name, text) ->
        #: path``; the CLI's output module writes it all or nothing), or None
        self.emit = emit
        self.emitted: list[str] = []
        self.actions = [a.name for a in spec.actions]
        self.A0, self.A1 = self.smt.state("A0"), self.smt.state("A1")
        self._tmpl: dict = {}
        self._count = 0
        self.queries = 0
        self.solver_seconds = 0.0
        self._on: dict = {}
        self.B1: dict | None = None
        self._can: dict = {}
        self._init = None
        #: per kind of abstraction (congruent or not): aggregate term id -> (term,
        #: what replaces it)
        self._free_values: dict = {False: {}, True: {}}
        self._abstract: dict = {}      # (formula id, kind) -> (formula, its abstraction)
        self._wf: dict = {}            # id(state) -> (state, its well-formedness)
        self._sum_functions: dict = {}  # kind of sum -> its uninterpreted function

    # -- building blocks ----------------------------------------------------
    def state(self, prefix: str) -> dict:
        return self.smt.state(prefix)

    def template(self, action: str):
        """(params, Next_action(A0, A1) as labelled fragments), built once per run."""
        params, guards, defs = self._parts(action)
        return params, guards + [defs[v] for v in self.smt.var_names]

    def _parts(self, action: str):
        hit = self._tmpl.get(action)
        if hit is None:
            params = self.smt.params(action, "AP")
            guards, defs = self.smt.next_parts(self.A0, action, params, self.A1)
            hit = self._tmpl[action] = (params, guards, defs)
        return hit

    def sliced(self, action: str, keep) -> list:
        """Next_action(A0, A1) cut to its cone of influence: every guard, but only
        the update/frame fragments of the variables in ``keep`` (those the goal
        reads in A1).  Equisatisfiable with the whole relation for a goal that
        reads no other A1 variable: each dropped fragment alone defines an A1
        variable nothing else reads."""
        _, guards, defs = self._parts(action)
        return guards + [defs[v] for v in self.smt.var_names if v in keep]

    def choice_cases(self, action: str) -> list | None:
        """Conditions on ``action``'s card argument (its first) that together
        cover every value it can take: one per card, and one for any other
        value; None when the action takes no card.  A step query with each
        condition added is one case, and the step is unsat exactly when every
        case is.

        Why: with the card fixed, what its kind decides (does a Mercy open a
        race, does a Secret Combination form a team and reseat the hands) folds
        away before bit-blasting, so the state after the step is built from
        the same terms as the state the rules read while the card acts.  At
        eight players "a discard opening Mercy's race leaves nobody to race"
        took Z3 154 s as one query, and about 0.5 s for the Mercy and 0.05 s
        for any other card as cases."""
        decl = self.smt.actions[action].decl
        names = [prm.name for prm in decl.params if prm.type == A.CARD]
        if not names:
            return None
        c = self._parts(action)[0][names[0]]
        w = self.smt.n_cards
        return [c == i for i in range(w)] + [z3.Or(c < 0, c >= w)]

    def card_cases(self, formula) -> list | None:
        """``formula`` as cases whose conjunction it is: one per card, and one for
        what is not about single cards; None when it has no part to split.

        A conjunct that equates two card sets (``X & Y == 0``, ``U == ALL``)
        holds exactly when it holds at every card's bit; the cases are those
        bits, each case all such conjuncts at one card, and the last case the
        other conjuncts as they are.  So a step breaks ``formula`` exactly when
        it breaks one case.

        Why: a step query that a property such as CONSERVATION survives a move
        asks the solver to refute a broken card anywhere, and bit-blasted, the
        clauses it learns for one card teach it nothing about the next.  At
        eight players a Pride Cycle's delivery was not refuted in 60 s as one
        query and is refuted in about 0.3 s per card."""
        w = self.smt.n_cards
        kids = formula.children() if z3.is_and(formula) else [formula]
        wide, rest = [], []
        for k in kids:
            if z3.is_eq(k) and z3.is_bv(k.arg(0)) and k.arg(0).size() == w:
                wide.append(k)
            else:
                rest.append(k)
        if not wide:
            return None
        cases = [z3.And(*[z3.Extract(c, c, k.arg(0)) == z3.Extract(c, c, k.arg(1))
                          for k in wide]) for c in range(w)]
        return cases + ([z3.And(*rest)] if rest else [])

    def abstracted(self, q: Query, congruent: bool = False) -> Query | None:
        """``q`` with every point sum and card count in it (``SmtSpec.aggregates``)
        a free value of its own, or with ``congruent`` an uninterpreted function of
        the set summed (one function per kind of sum); None when ``q`` has no sum
        or count.

        Sound for unsat only: any model of ``q`` is one of the abstraction (give
        each free value, or function, its sum), so unsat here proves ``q`` unsat;
        sat proves nothing.  ``congruent`` keeps a little more at some cost: equal
        sets have equal sums (a hand a step keeps has the points it had).  Why: a
        sum over a 72-card hand is a chain of 72 adders once bit-blasted, nine
        hands of them in one step at eight players, and most one-step proofs
        (turn order, who may act) never need their values; Z3 decides such a
        query several times faster without them."""
        aggs = self.smt.aggregates
        frees = self._free_values[congruent]
        if len(frees) != len(aggs):
            for i, (term, kind, S) in aggs.items():
                if i in frees:
                    continue
                if congruent:
                    f = self._sum_functions.get(kind)
                    if f is None:
                        f = self._sum_functions[kind] = z3.Function(
                            f"{kind[0]}_{len(self._sum_functions)}", S.sort(), term.sort())
                    frees[i] = (term, f(S))
                else:
                    frees[i] = (term, z3.Const(f"free_{kind[0]}_{len(frees)}", term.sort()))
        pairs = list(frees.values())
        if not pairs:
            return None
        parts, changed, memo = [], False, self._abstract
        if len(memo) > 4096:   # a long run's formulas: keep the recent ones only
            memo.clear()
        sub = None
        for lab, e in q.parts:
            key = (e.get_id(), congruent)
            hit = memo.get(key)
            if hit is None or len(pairs) != hit[2]:
                sub = sub or Substitution(pairs)
                hit = memo[key] = (e, sub(e), len(pairs))
            changed = changed or not hit[1].eq(e)
            parts.append((lab, hit[1]))
        if not changed:
            return None
        what = ("a function of its set alone" if congruent else "a free value")
        out = Query(f"{q.title} (every point sum and card count {what}: unsat here is "
                    "unsat with their true values)", q.meaning)
        out.parts = parts
        return out

    def writes(self, action: str) -> frozenset:
        return self.smt.writes(action)

    def next(self, s: dict, action: str, s2: dict, tag: str):
        """Next_action(s, s2) as labelled fragments, and its parameters."""
        params, frags = self.template(action)
        fresh = self.smt.params(action, f"{tag}p")
        pairs = (list(zip(_leaves(self.A0, []), _leaves(s, [])))
                 + list(zip(_leaves(self.A1, []), _leaves(s2, [])))
                 + list(zip(_leaves(params, []), _leaves(fresh, []))))
        sub = Substitution(pairs)
        return fresh, [(lab, sub(e)) for lab, e in frags]

    def step_any(self, s: dict, s2: dict, tag: str):
        """Some action's Next(s, s2): ((action, selector, params) list, labelled fragments)."""
        choices, parts = [], []
        for a in self.actions:
            sel = z3.Bool(f"{tag}_{a}")
            params, frags = self.next(s, a, s2, f"{tag}_{a}_")
            choices.append((a, sel, params))
            parts += [(lab, z3.Implies(sel, e)) for lab, e in frags]
        parts.append(("step", z3.Or(*[c[1] for c in choices])))
        return choices, parts

    def on(self, name: str, node, which: int):
        """Spec state formula ``node`` (named ``name``) on template state A0 or A1,
        built once."""
        key = (name, which)
        hit = self._on.get(key)
        if hit is None:
            hit = self._on[key] = self.formula(node, self.A1 if which else self.A0)
        return hit

    def twin(self, action: str):
        """Next_action twice from A0 with the same arguments and chance outcome: into
        A1 and into B1.  Returns (params, fragments into A1, fragments into B1)."""
        params, frags = self.template(action)
        if self.B1 is None:
            self.B1 = self.smt.state("B1")
        sub = Substitution(zip(_leaves(self.A1, []), _leaves(self.B1, [])))
        return params, frags, [(lab, sub(e)) for lab, e in frags]

    def differ(self, s: dict, t: dict):
        """The two symbolic states differ in some variable."""
        smt = self.smt
        return z3.Not(z3.And(*[smt.eq(s[v], t[v], smt.var_types[v]) for v in smt.var_names]))

    def step_mismatch(self, other: Spec, action: str, live: dict | None = None) -> tuple:
        """Where ``other`` (a spec over the same variables, e.g. a mutant) and this
        one disagree on ``action`` from A0, with the same arguments and chance
        outcome: (its legality differs, both allow it and the states it leads to
        differ), two formulas on A0 and the parameters, and the two next states
        (for ``mismatch_seen``).  With ``live`` (phase
        value -> variable names), the states differ when their phases do or, at
        the phase they lead to, a variable live there does.

        The two specs' states are the same z3 constants (the same names and
        sorts), and their terms are functions of them: nothing else is shared."""
        theirs = SmtSpec(other, self.smt.iw)
        params = self.smt.params(action, "MM")
        mine_ok = z3.And(*[e for _, e in self.smt.enabled(self.A0, action, params)])
        their_ok = z3.And(*[e for _, e in theirs.enabled(self.A0, action, params)])
        b, c = self.smt.state("MB"), self.smt.state("MC")
        _, mine = self.smt.next_parts(self.A0, action, params, b)
        _, their = theirs.next_parts(self.A0, action, params, c)
        if live is None:
            differ = self.differ(b, c)
        else:
            smt = self.smt
            differ = z3.Or(b["phase"] != c["phase"], *[
                z3.And(b["phase"] == smt.const(ph, "int"),
                       z3.Or(*[z3.Not(smt.eq(b[v], c[v], smt.var_types[v]))
                               for v in sorted(vs)]))
                for ph, vs in live.items() if vs])
        results = z3.And(mine_ok, *[e for _, e in mine.values()],
                         *[e for _, e in their.values()], differ)
        return mine_ok != their_ok, results, (b, c)

    def observed_mismatch(self, other: Spec, exprs) -> z3.BoolRef:
        """On A0: some expression of ``exprs`` (state formulas, scores: spec
        expressions over the current state) has another value in ``other`` (a
        spec over the same variables, its definitions its own) than in this one."""
        theirs = SmtSpec(other, self.smt.iw)
        return z3.Or(*[self.smt.formula(e, self.A0) != theirs.formula(e, self.A0)
                       for e in exprs]) if exprs else z3.BoolVal(False)

    def mismatch_phase(self, model) -> str:
        """The name of A0's phase in ``model``."""
        before = dict(zip(self.smt.var_names, self.smt.decode(model, self.A0)))
        return next((p.name for p in self.spec.phases if p.value == before["phase"]), "?")

    def mismatch_seen(self, model, after: tuple) -> tuple[str, list]:
        """For a model of ``step_mismatch``'s formulas and its two next states
        ``after``: the phase of the state before the step, and the variables whose
        new values differ between the two specs (none when only the legality differs)."""
        b, c = after
        smt = self.smt
        phase = self.mismatch_phase(model)
        after_b, after_c = smt.decode(model, b), smt.decode(model, c)
        return phase, [v for v, x, y in zip(smt.var_names, after_b, after_c) if x != y]

    def can_move(self, action: str):
        """(formula on A0: some arguments make ``action`` legal, rule ids of its guards),
        or (None, ids) when its arguments cannot be enumerated (a set-valued chance
        choice such as the deal)."""
        hit = self._can.get(action)
        if hit is not None:
            return hit
        act = self.smt.actions[action]
        params = self.smt.params(action, "EN")
        frags = self.smt.enabled(self.A0, action, params)
        rules = [lab for lab, _ in frags if lab not in ("phase", "domain")]
        guard = z3.And(*[e for _, e in frags])
        values = []
        for prm in act.decl.params:
            if prm.size is not None:
                self._can[action] = (None, rules)
                return self._can[action]
            width = self.smt.set_width(prm.domain.type)
            values.append([(params[prm.name], z3.BitVecVal(i, params[prm.name].size()))
                           for i in range(width)])
        if not values:
            out = guard
        else:
            out = z3.Or(*[z3.substitute(guard, *combo)
                          for combo in itertools.product(*values)])
        self._can[action] = (out, rules)
        return self._can[action]

    def at(self, expr, s: dict):
        """A formula on A0 moved to state ``s``."""
        pairs = list(zip(_leaves(self.A0, []), _leaves(s, [])))
        return z3.substitute(expr, *pairs)

    def phase_in(self, s: dict, values):
        return z3.Or(*[s["phase"] == self.smt.const(v, "int") for v in values]) \
            if values else z3.BoolVal(False)

    def init_template(self):
        """Init(A0): the pre-deal state, as one formula (built once)."""
        if self._init is None:
            self._init = self.init(self.A0)
        return self._init

    def evaluate(self, model, expr) -> bool:
        return z3.is_true(model.eval(expr, model_completion=True))

    def formula(self, node, s: dict, s2: dict | None = None):
        """A spec expression (Bool) on state ``s`` (and ``s2`` for primed names)."""
        return self.smt.formula(node, s, s2)

    def prop(self, pid: str, s: dict, s2: dict | None = None):
        return self.smt.prop(pid, s, s2)

    def wf(self, s: dict, part: str | None = None):
        """The well-formedness of ``s``, or one part of it (``SmtSpec.wf_parts``),
        as one term; built once per state: every step query of an induction asks
        it of the same template state."""
        key = (id(s), part)
        hit = self._wf.get(key)
        if hit is None or hit[0] is not s:
            if part is None:
                xs = self.smt.wf(s)
            else:
                xs = self.smt.wf_parts(s)[part]
            hit = self._wf[key] = (s, z3.And(*xs) if xs else z3.BoolVal(True))
        return hit[1]

    def init(self, s: dict):
        return z3.And(*self.smt.init(s))

    # -- asking ---------------------------------------------------------------
    def _emit(self, q: Query, slug: str):
        if self.emit is None:
            return
        self._count += 1
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{self._count:03d}-{slug}")[:200]
        self.emitted.append(self.emit.write(f"{name}.smt2", q.smt2()))

    def _ms(self, budget: float | None):
        return None if budget is None else max(1, int(budget * 1000))

    def ask(self, q: Query, slug: str, budget: float | None = None,
            solver: str = "pipeline") -> SolverAnswer:
        """Decide ``q`` with the solver named in SOLVERS."""
        self._emit(q, slug)
        return self._decide(q, budget, solver)

    def _check(self, parts, budget: float | None, solver: str):
        """Z3's answer to the conjunction of ``parts``: (result, solver, seconds)."""
        start = time.monotonic()
        s = SOLVERS[solver]()
        if budget is not None:
            s.set("timeout", self._ms(budget))
        for _, e in parts:
            s.add(e)
        r = s.check()
        secs = time.monotonic() - start
        self.queries += 1
        self.solver_seconds += secs
        return r, s, secs

    def _decide(self, q: Query, budget: float | None, solver: str) -> SolverAnswer:
        r, s, secs = self._check(q.parts, self.timeout if budget is None else budget, solver)
        if r == z3.sat:
            return SolverAnswer(SolverResult.sat, secs, s.model())
        if r != z3.unsat:
            return SolverAnswer(SolverResult.unknown, secs, note=s.reason_unknown())
        return SolverAnswer(SolverResult.unsat, secs)

    def first_unsat(self, variants, slug: str, budget: float | None = None,
                    solver: str = "pipeline") -> tuple[SolverAnswer, int | None]:
        """Decide queries that each prove the same thing when unsat (``variants``:
        the first, then subsets of its conjuncts).  The first is asked alone for
        RACE_AFTER seconds, as ``ask`` would; if that does not settle it, all of
        them race, one thread, one Z3 context and one random seed each, and the
        first unsat answer wins (the others are interrupted).  Sat from the first
        query ends it (its subsets are sat then).  Returns (answer, index of the
        winner), or (the first query's answer, None) when none is unsat.

        Why: on the big one-step queries Z3's running time has a heavy tail: an
        equivalent query (a conjunct fewer, another term order, another seed) is
        sometimes ten times faster, and the fastest of several is far steadier.
        Z3 releases the GIL while it solves, so the threads run on separate
        cores.  Every context is translated to and dropped from this thread."""
        budget = self.timeout if budget is None else budget
        start = time.monotonic()
        quick = RACE_AFTER if budget is None else min(RACE_AFTER, budget)
        first = self._decide(variants[0], quick, solver)
        left = None if budget is None else budget - (time.monotonic() - start)
        if first.result != SolverResult.unknown or (left is not None and left <= 0.05):
            self._emit(variants[0], slug)
            return SolverAnswer(first.result, time.monotonic() - start, note=first.note), (
                0 if first.result == SolverResult.unsat else None)
        ctxs = [z3.Context() for _ in variants]
        solvers = [self._solver_in(ctx, q, solver, left, seed)
                   for seed, (ctx, q) in enumerate(zip(ctxs, variants), start=1)]
        results: list = [None] * len(variants)
        won = threading.Event()

        def run(i):
            try:
                r = solvers[i].check()
            except z3.Z3Exception as e:    # interrupted while starting up
                results[i] = (SolverResult.unknown, str(e))
                return
            results[i] = (_result(r), solvers[i].reason_unknown() if r == z3.unknown else "")
            if r == z3.unsat or (i == 0 and r == z3.sat) or all(
                    x is not None for x in results):
                won.set()

        threads = [threading.Thread(target=run, args=(i,), daemon=True)
                   for i in range(len(variants))]
        try:
            for t in threads:
                t.start()
            while not won.wait(0.05):
                if all(not t.is_alive() for t in threads):
                    break
        finally:
            _stop(ctxs, lambda: any(t.is_alive() for t in threads))
            for t in threads:
                t.join()
        secs = time.monotonic() - start
        self.queries += len(variants)
        self.solver_seconds += secs - first.seconds
        winner = next((i for i, r in enumerate(results)
                       if r and r[0] == SolverResult.unsat), None)
        if winner is not None:
            self._emit(variants[winner], slug)
            return SolverAnswer(SolverResult.unsat, secs), winner
        r0 = results[0] or (SolverResult.unknown, "interrupted")
        return SolverAnswer(r0[0], secs, note=r0[1]), None

    def _solver_in(self, ctx, q: Query, solver: str, budget: float | None, seed=None):
        """A solver in ``ctx`` (a context of its own, made in this thread) holding
        ``q`` translated there, with the time limit and, if given, the seed."""
        sv = SOLVERS[solver](ctx)
        if seed is not None:
            try:
                sv.set("random_seed", seed)
            except z3.Z3Exception:   # a tactic pipeline without the parameter
                pass
        if budget is not None:
            sv.set("timeout", self._ms(budget))
        for _, e in q.parts:
            sv.add(e.translate(ctx))
        return sv

    def solve_all(self, queries, budget_of, solver: str = "pipeline", cap: float | None = None,
                  workers: int | None = None, tracked=None, stop=None) -> list[SolverAnswer]:
        """Decide independent ``queries`` ((query, slug) pairs, taken lazily), up to
        ``workers`` at a time: the answers, in the order given.

        Each query is translated into a context of its own and solved on a
        worker thread while this thread builds and translates the next ones (at
        most one waits ahead of the workers, so memory stays a few contexts).
        ``budget_of()`` gives the seconds left when a query starts (it may raise
        to end the run); ``cap`` bounds each query further, and an answer cut
        short by it is unknown, for the caller to ask again its own way.  Only
        unsat answers are emitted (their queries prove something); a caller
        asks the others again, and that emits them.  With ``tracked`` (labels),
        each query is decided as ``tracked`` decides one, and an unsat answer
        carries the tracked labels of Z3's core.  With ``stop`` (an answer ->
        bool), no further query is taken once it holds for an answer: the
        answers then stop short of the queries (those already running are
        still decided).

        Why: the re-proof of a scouted plan is hundreds of independent one-step
        queries; one at a time they leave all but one core idle."""
        workers = WORKERS if workers is None else workers
        asked: list = []
        answers: dict = {}
        running: dict = {}   # future -> (index, context, solver, core literal names)
        halted = [False]

        def check(sv, lits):
            """On a worker: the answer and the seconds Z3 took (not the wait for a
            worker, nor the wait for this thread to collect it)."""
            start = time.monotonic()
            try:
                return sv.check(*lits), "", time.monotonic() - start
            except z3.Z3Exception as e:   # interrupted
                return z3.unknown, str(e), time.monotonic() - start

        def reap(done):
            for f in done:
                i, ctx, sv, names = running.pop(f)
                r, note, secs = f.result()
                self.queries += 1
                self.solver_seconds += secs
                if r == z3.sat:
                    answers[i] = SolverAnswer(SolverResult.sat, secs,
                                              sv.model().translate(z3.main_ctx()))
                elif r == z3.unsat:
                    answers[i] = SolverAnswer(SolverResult.unsat, secs, core=None if names is None
                                              else sorted({names[str(b)] for b in sv.unsat_core()}))
                else:
                    answers[i] = SolverAnswer(SolverResult.unknown, secs,
                                              note=note or sv.reason_unknown())
                del sv, ctx   # dropped in this thread, as they were made here
                if stop is not None and stop(answers[i]):
                    halted[0] = True

        pool = ThreadPoolExecutor(max_workers=workers)
        try:
            for q, slug in queries:
                while len(running) >= workers + 1:
                    reap(wait(list(running), return_when=FIRST_COMPLETED)[0])
                if halted[0]:
                    break
                i = len(asked)
                asked.append((q, slug))
                left = budget_of()
                limit = _tightest(left, cap, q.cap)
                ctx = z3.Context()
                if tracked is None:
                    sv, lits, names = self._solver_in(ctx, q, solver, limit), (), None
                else:
                    sv, lits, names = self._tracking_solver(q, tracked, limit, ctx)
                running[pool.submit(check, sv, lits)] = (i, ctx, sv, names)
                del sv, ctx, lits
            while running:
                reap(wait(list(running), return_when=FIRST_COMPLETED)[0])
        finally:
            _stop([ctx for _, ctx, _, _ in running.values()],
                  lambda: not all(f.done() for f in running))
            pool.shutdown(wait=True)
            running.clear()
        for i, (q, slug) in enumerate(asked):
            if answers[i].result == SolverResult.unsat:
                self._emit(q, slug)
        return [answers[i] for i in range(len(asked))]

    def _unsat(self, parts, budget: float | None, solver: str = "pipeline") -> bool | None:
        r = self._check(parts, budget, solver)[0]
        return True if r == z3.unsat else False if r == z3.sat else None

    def _tracking_solver(self, q: Query, tracked, budget: float | None, ctx=None):
        """Z3's QF_BV solver holding ``q`` (translated into ``ctx`` if given), each
        part labelled in ``tracked`` behind an assumption literal: (solver, the
        literals, literal name -> label).  ``tracked``: labels, or a test of one.
        Its unsat cores are Z3's (unminimised, cheap): for searches where many
        queries share assumptions and only which of them an answer rests on
        matters (the scout table's, ``checks/symbolic/scout.py``).  Always QF_BV: the
        bit-blasting pipeline answers with an empty core."""
        s = _qfbv_solver(ctx)
        if budget is not None:
            s.set("timeout", self._ms(budget))
        lits, names = [], {}
        keep = tracked if callable(tracked) else tracked.__contains__
        for k, (lab, e) in enumerate(q.parts):
            if ctx is not None:
                e = e.translate(ctx)
            if keep(lab):
                name = f"track#{k}"  # the literal's name (str() of it would print it: slow)
                b = z3.Bool(name, ctx)
                s.add(z3.Implies(b, e))
                lits.append(b)
                names[name] = lab
            else:
                s.add(e)
        return s, lits, names

    def minimise(self, q: Query, removable, budget: float | None, solver: str = "pipeline"):
        """A minimal set of the labels ``removable`` (the rest of ``q`` always kept)
        whose fragments, with the rest, are still unsat: deletion of ever smaller
        chunks, each trial decided by the fast bit-blasting solver (Z3's own core
        minimisation is far slower on these queries).  Returns (labels, complete):
        complete is False when the time ran out before the set was minimal."""
        deadline = None if budget is None else time.monotonic() + budget
        labels = []
        for lab, _ in q.parts:
            if removable(lab) and lab not in labels:
                labels.append(lab)
        fixed = [(lab, e) for lab, e in q.parts if not removable(lab)]
        by = {lab: [(l2, e) for l2, e in q.parts if l2 == lab] for lab in labels}

        def unsat(keep):
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            return self._unsat(fixed + [x for lab in keep for x in by[lab]], left, solver)

        core = list(labels)
        try:
            if unsat([]):
                return [], True
            chunk = max(1, len(core) // 2)
            while True:
                i = 0
                while i < len(core):
                    trial = core[:i] + core[i + chunk:]
                    if unsat(trial):
                        core = trial
                    else:
                        i += chunk
                if chunk == 1:
                    return core, True
                chunk = max(1, chunk // 2)
        except TimeoutError:
            return core, False

    # -- reading models -----------------------------------------------------
    def decode(self, model, s: dict) -> tuple:
        return self.smt.decode(model, s)

    def values(self, exprs, s: dict) -> list:
        """Integer spec expressions ``exprs`` on state ``s`` (z3 terms)."""
        return [self.smt.formula(e, s) for e in exprs]

    @staticmethod
    def lex_less(xs, ys):
        """The tuple ``xs`` is lexicographically smaller than ``ys`` (signed
        integers, the first most significant)."""
        out = z3.BoolVal(False)
        for x, y in reversed(list(zip(xs, ys))):
            out = z3.Or(x < y, z3.And(x == y, out))
        return out

    @staticmethod
    def all_at_least(xs, low: int):
        return z3.And(*[x >= low for x in xs]) if xs else z3.BoolVal(True)

    def same(self, s: dict, t: dict):
        """The two symbolic states are equal in every variable."""
        return z3.Not(self.differ(s, t))

    def evaluated(self, model, exprs) -> list:
        """Integer terms' values in ``model``."""
        return [model.eval(e, model_completion=True).as_signed_long() for e in exprs]

    def decode_step(self, model, choices) -> tuple:
        """The engine action (name, args) a model picks among ``choices``."""
        for a, sel, params in choices:
            if z3.is_true(model.eval(sel, model_completion=True)):
                return (a, self.smt.decode_params(model, a, params))
        raise RuntimeError("no action selected in the model")

    def decode_action(self, model, action: str, params: dict) -> tuple:
        return (action, self.smt.decode_params(model, action, params))

    def holds(self, model, expr) -> bool:
        return z3.is_true(model.eval(expr, model_completion=True))

    @staticmethod
    def Not(e):
        return z3.Not(e)

    @staticmethod
    def And(*es):
        return z3.And(*es) if es else z3.BoolVal(True)

    @staticmethod
    def Or(*es):
        return z3.Or(*es) if es else z3.BoolVal(False)


__all__ = ["Symbolic", "Query", "SolverAnswer", "SolverResult"]
