"""1-induction with strengthening invariants chosen on demand (Houdini with expansion).

Why: at the full deck with eight players a satisfiable query costs Z3 seconds
to tens of seconds and an unsatisfiable one a fraction of a second, so the
search is built to ask few queries, small ones, and almost only unsatisfiable
ones:

* **The pool** (``spec/invariants.py::candidates``) is first cut by random
  rounds of the engine (``checks/symbolic/sampled.py``): a candidate false in a reached
  state is no invariant and never costs a query.
* **Frame skipping.**  An action that writes none of the variables a member
  reads preserves it by its frame (the member is assumed before the step): no
  query.  For a step property the same holds for the actions that write none
  of the variables it reads in the next state, once one query has shown that
  the property holds for a step that changes nothing.
* **Cone of influence.**  A query about one member keeps every guard of the
  action but only the update/frame fragments of the variables the member reads
  after the step (``Symbolic.sliced``); the dropped fragments each define a
  variable nothing else reads, so the query is equisatisfiable.
* **One member per query.**  Each step query asks whether one action breaks
  one member, assuming every member and every proved invariant before the
  step; an unsat answer is remembered with the set assumed, and is not asked
  again while that set only grows (more assumptions keep it unsat).  Sets
  proved for one property are kept and assumed for the next one.

The search starts from the property (and the seed) alone:

1. New members must hold right after every deal (one batched query on Init
   and the deal; members failing it are dropped).
2. Per action and member (the property first) the step query.  If sat, the
   model's pre-state is a counterexample to induction (CTI): the candidates
   false in it would exclude it; a few are added, light ones first (those on
   the broken formula's variables, then the smallest).  A member that breaks
   again after getting supporters once, or with none to offer, is dropped
   (Houdini); if the property breaks and no candidate helps, it is not
   inductive with these candidates: UNKNOWN, never HOLDS.
3. When a pass over every action asks nothing new, every member is proved:
   each holds after every deal and each action preserves each member given all.

The proof's cores come from the final per-action queries of the property
(sliced, frame-skipped actions contribute no rules), minimised by deletion.
No z3 here: the queries are built and asked through ``model/smt/queries.py``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from itcp.model.smt.queries import Query, SolverResult
from itcp.spec import ast as A
from itcp.spec.properties import Kind

#: at most this many candidates are added per counterexample to induction
EXPAND = 2
#: supporters of supporters are sought, no deeper: a deeper member that breaks is dropped
SUPPORT_DEPTH = 2
#: operators that make a candidate invariant "heavy" (see Inductor.heavy)
HEAVY_OPS = ("tsum", "count", "pile_cards", "pile_len")
#: candidates every proof starts from: the induction is over the states after the deal
SEED = ("NOT_DEALING",)
#: the solver of the one-step and base queries (see model/smt/queries.py SOLVERS): on
#: tables of at least BIG_TABLE cards Z3's QF_BV solver (full deck, measured: several
#: times faster, and it answers base queries the pipeline gives up on), below it the
#: bit-blasting pipeline (default check table, measured: about three times faster)
BIG_SOLVER, SMALL_SOLVER, BIG_TABLE = "qf_bv", "pipeline", 40
#: labels of query parts that are structure, never reported as rules
STRUCTURE = ("wf", "phase", "domain", "frame", "goal", "init", "update")
#: the labels of a step query's pile well-formedness (``SmtSpec.wf_parts``: the
#: slots and set of cards, the ``distinct`` ties, the top card in the set), apart
#: from the rest of it so a core says whether a step needs them: at 72 cards the
#: first two are most of a query that has them, and most steps do without (a push
#: keeps the set and ``distinct`` in step with the slots, a pop too, without
#: reading them; a move taking the top card needs only the third)
PILE_WF = {"layout": "wf:pile", "ties": "wf:distinct", "top": "wf:top"}


@dataclass
class Outcome:
    """What the induction found for one property."""
    proved: bool
    invariants: dict = field(default_factory=dict)   # name -> statement, all proved
    rules: list = field(default_factory=list)        # rule ids of the minimised cores
    used: list = field(default_factory=list)         # invariants the cores used
    structure: list = field(default_factory=list)
    by_frame: list = field(default_factory=list)     # actions that preserve it by their frame
    cores_complete: bool = True
    queries: int = 0
    cti: dict | None = None                          # when not proved: where it broke
    note: str = ""
    scouted: str = ""    # the scout table whose cores cut the proof queries


class Undecided(Exception):
    """Z3 gave up on a query."""


def subset_query(q: Query, keep, what: str) -> Query:
    """``q`` with only the conjuncts whose label ``keep`` accepts: unsat proves
    ``q`` unsat.  ``what`` is added to the title."""
    out = Query(f"{q.title} ({what})", q.meaning)
    out.parts = [(lab, e) for lab, e in q.parts if keep(lab)]
    return out


class Inductor:
    """Proves state and step properties of one spec by 1-induction (see module doc).

    ``checker`` is the symbolic checker of the run (``symbolic.SymbolicChecker``):
    its queries, budget and progress.  The re-proof of a scouted plan
    (``checks/symbolic/reproof.py``) uses the public methods below to build and record its
    step queries: ``is_step``, ``after``, ``step_query``, ``ask_base``, ``known``,
    ``credit``."""

    def __init__(self, checker, pool: dict, refuted: dict | None = None):
        self.ch = checker
        self.sym = checker.sym
        self.pool = dict(pool)        # candidate name -> (statement, formula)
        self.proven: dict = {}        # name -> (statement, formula), an inductive set
        self.dropped: dict = dict(refuted or {})   # name -> why
        self.rule_ids = checker.rule_ids
        self._sizes: dict = {}
        self._reads: dict = {}
        self._heavies: dict = {}
        self.known: dict = {}         # (name, action) -> assumptions under which it is unsat
        self._identity: dict = {}     # step property -> it holds for a step changing nothing
        self._goals: dict = {}
        self._houdini_done = False
        self.big = checker.spec.config.n_cards >= BIG_TABLE
        self.solver = BIG_SOLVER if self.big else SMALL_SOLVER

    # -- what a formula reads ---------------------------------------------------------
    def _formula(self, name: str):
        if name in self.pool:
            return self.pool[name][1]
        return self.ch.props[name].formula

    def is_step(self, name: str) -> bool:
        return name not in self.pool and self.ch.props[name].kind is Kind.STEP

    def _nodes(self, name: str):
        seen, stack = {}, [self.sym.smt.inline(self._formula(name))]
        while stack:
            n = stack.pop()
            if id(n) not in seen:
                seen[id(n)] = n
                stack.extend(A.children(n))
        return seen.values()

    def _read(self, name: str):
        """(variables read in the state before, variables read primed)."""
        hit = self._reads.get(name)
        if hit is None:
            pre, post = set(), set()
            for n in self._nodes(name):
                if isinstance(n, A.Var):
                    pre.add(n.name)
                elif isinstance(n, A.Primed):
                    post.add(n.name)
            hit = self._reads[name] = (frozenset(pre), frozenset(post))
        return hit

    def _vars(self, name: str) -> frozenset:
        pre, post = self._read(name)
        return pre | post

    def _post(self, name: str) -> frozenset:
        """The variables a step query about ``name`` reads after the step."""
        pre, post = self._read(name)
        return post if self.is_step(name) else pre

    def heavy(self, name: str) -> bool:
        """The formula does arithmetic on card sets (counts, point sums): such
        invariants make slow queries, so they are sought last."""
        hit = self._heavies.get(name)
        if hit is None:
            hit = self._heavies[name] = any(
                (isinstance(n, A.Op) and n.op in HEAVY_OPS)
                or (isinstance(n, A.Quant) and n.kind == "sum") for n in self._nodes(name))
        return hit

    def _size(self, name: str) -> int:
        """The candidate's formula size (nodes after inlining definitions)."""
        hit = self._sizes.get(name)
        if hit is None:
            hit = self._sizes[name] = len(list(self._nodes(name)))
        return hit

    # -- formulas on the template states --------------------------------------------
    def _f(self, name: str, which: int):
        if name in self.ch.props and self.ch.props[name].kind is Kind.STATE \
                and name not in self.pool:
            return self.sym.on(name, self.ch.props[name].formula, which)
        return self.sym.on(name, self.pool[name][1], which)

    def after(self, name: str):
        """``name`` after the step: a state formula on A1, a step property on (A0, A1)."""
        if not self.is_step(name):
            return self._f(name, 1)
        hit = self._goals.get(name)
        if hit is None:
            hit = self._goals[name] = self.sym.prop(name, self.sym.A0, self.sym.A1)
        return hit

    def affects(self, action: str, name: str) -> bool:
        """False when ``action`` preserves ``name`` by its frame alone."""
        if self.sym.writes(action) & self._post(name):
            return True
        return self.is_step(name) and not self._holds_unchanged(name)

    def _holds_unchanged(self, pid: str) -> bool:
        """A step property holds for every step that changes nothing (one query)."""
        hit = self._identity.get(pid)
        if hit is None:
            sym = self.sym
            q = Query(f"{pid} on a step that changes nothing",
                      f"unsat proves {pid} holds whenever the variables it reads are kept, "
                      "so an action that writes none of them preserves it by its frame")
            q.add("wf", sym.wf(sym.A0))
            q.add("goal", sym.Not(sym.prop(pid, sym.A0, sym.A0)))
            ans = self.ch.ask(q, f"unchanged-{pid}")
            hit = self._identity[pid] = ans.result == SolverResult.unsat
        return hit

    def step_query(self, action: str, assume, name: str, title: str, meaning: str) -> Query:
        sym = self.sym
        q = Query(title, meaning)
        q.add("wf", sym.wf(sym.A0, "ranges"))
        for part, label in PILE_WF.items():
            q.add(label, sym.wf(sym.A0, part))
        for n in assume:
            q.add(f"inv:{n}", self._f(n, 0))
        q.extend(sym.sliced(action, self._post(name)))
        q.add("goal", sym.Not(self.after(name)))
        return q

    def _base(self, names) -> Query:
        sym = self.sym
        q = Query("Invariants: some candidate fails right after a deal",
                  "unsat proves every listed candidate holds in every state after the deal")
        q.add("init", sym.init_template())
        _, frags = sym.template("deal")
        q.extend(frags)
        q.add("goal", sym.Not(sym.And(*[self._f(n, 1) for n in names])))
        return q

    # -- the search ----------------------------------------------------------------
    def prove(self, pid: str) -> Outcome:
        """Search on demand; if that finds no support, prove every light candidate
        that can be proved (plain Houdini) and search once more from there.  (On a
        big table the checker first re-proves what a scout table found:
        ``checks/symbolic/reproof.py``.)"""
        out = self._search(pid)
        if out.proved or out.cti is None or self._houdini_done:
            return out
        self.ch.progress(f"{pid}: no support found on demand; proving every light candidate")
        self.houdini([n for n in self.pool if not self.heavy(n) and n != pid
                      and not self.refuted(n)])
        again = self._search(pid)
        again.queries += out.queries
        return again

    def houdini(self, names) -> None:
        """The largest subset of ``names`` that holds after every deal and that every
        action preserves (each assuming all of it and the proved ones): proved."""
        self._houdini_done = True
        members = [n for n in names if n not in self.proven and not self.refuted(n)]
        for n in members:
            self.dropped.pop(n, None)
        try:
            self._fixpoint(None, members, lambda *_: [])
        except Undecided:
            return
        for m in members:
            self.proven[m] = self.pool[m]

    def exclude(self, model) -> bool:
        """Prove the candidates false in ``model``'s state A0 (a counterexample a
        graph property's query found), with every other unproved candidate as
        possible support: an invariant that excludes the state may be preserved
        only given others it satisfies (the pile holds a card at a turn's start only
        because no card is in two places).  True when one of them got proved, so
        the query is worth asking again."""
        new = [n for n in self.pool if n not in self.proven and not self.refuted(n)
               and not self.sym.evaluate(model, self._f(n, 0))]
        if not new:
            return False
        before = len(self.proven)
        support = [n for n in self.pool if n not in self.proven and n not in new
                   and self.dropped.get(n) != "fails after a deal"]
        self.houdini(new + support)
        return any(n in self.proven for n in new) and len(self.proven) > before

    def refuted(self, name: str) -> bool:
        """Known false in some reachable state (not merely unproved so far)."""
        why = self.dropped.get(name, "")
        return why.startswith("fails after a deal") or why.startswith("false in a reachable")

    def ask_base(self, fresh: list, tag: str) -> list:
        """Drop from ``fresh`` the members failing right after some deal; returns them."""
        sym = self.sym
        failed: list = []
        while fresh:
            self.ch.progress(f"{tag}: {len(fresh)} invariant(s) after the deal")
            ans = self.ch.ask(self._base(fresh), f"base-{tag}", solver=self.solver)
            if ans.result == SolverResult.unsat:
                return failed
            if ans.result != SolverResult.sat:
                raise Undecided(ans.note)
            bad = [m for m in fresh if not sym.evaluate(ans.model, self._f(m, 1))]
            for m in bad:
                fresh.remove(m)
                failed.append(m)
        return failed

    def _fixpoint(self, pid, members: list, expand):
        """Grow/shrink ``members`` until every action preserves each of them (and the
        step property ``pid``, if given) assuming all of them and the proved sets.

        ``expand(model, broken)`` returns the candidates it added for a CTI.
        Returns None when done, else (action, broken name) for ``pid`` broken with
        no help."""
        ch, sym = self.ch, self.sym
        based: set = set()
        helped: set = set()
        tag = pid or "invariants"
        while True:
            fresh = [m for m in members if m not in based]
            if fresh:
                for m in self.ask_base(list(fresh), tag):
                    if m == pid:
                        return ("deal", pid)
                    members.remove(m)
                    self.dropped[m] = "fails after a deal"
                based |= set(members)
            asked = False
            for a in sym.actions:
                targets = ([pid] if pid is not None and self.is_step(pid) else []) + \
                    [m for m in members if m not in self.proven]
                for t in targets:
                    if t != pid and t not in members:  # dropped during this pass
                        continue
                    if not self.affects(a, t):
                        continue
                    assume = list(self.proven) + [m for m in members if m not in self.proven]
                    have = frozenset(assume)
                    known = self.known.get((t, a))
                    if known is not None and known <= have:
                        continue
                    asked = True
                    q = self.step_query(a, assume, t, f"{a} breaks {t}",
                                   f"unsat proves {a} preserves {t} given the invariants")
                    ch.progress(f"{tag}: does {a} break {t}? ({len(assume)} assumed)")
                    ans = ch.ask(q, f"step-{t}-{a}", solver=self.solver)
                    if ans.result == SolverResult.unsat:
                        self.known[(t, a)] = have
                        continue
                    if ans.result != SolverResult.sat:
                        raise Undecided(ans.note)
                    if (t == pid or t not in helped) and expand(ans.model, [t]):
                        helped.add(t)
                        continue
                    if t == pid:
                        return (a, pid)
                    members.remove(t)
                    self.dropped[t] = f"not preserved by {a}"
            if not asked and all(m in based for m in members):
                return None

    def _search(self, pid: str) -> Outcome:
        ch, sym = self.ch, self.sym
        state_prop = not self.is_step(pid)
        start_q = sym.queries
        members: list = [pid] if state_prop else []   # new members of T, in order
        members += [n for n in SEED if n in self.pool and n not in self.proven
                    and n not in self.dropped and n != pid]
        tried = set(self.proven) | set(self.dropped) | {pid} | set(members)
        depth = {pid: 0}   # 1: added for the property's CTI, 2: for a supporter's

        def expand(model, broken):
            """A few candidates false in the CTI pre-state (each alone excludes it),
            added to the members: first those reading the variables of the broken
            formulas (their cone), the smallest first (small formulas, cheap queries)."""
            level = min(depth.get(b, 0) for b in broken) + 1
            if level > SUPPORT_DEPTH:
                return []
            cone = set()
            for b in broken:
                cone |= self._vars(b)
            blockers = [n for n in sorted(self.pool, key=lambda n: (
                            not (self._vars(n) & cone), self._size(n)))
                        if n not in tried and n not in members
                        and not sym.evaluate(model, self._f(n, 0))]
            light = [n for n in blockers if not self.heavy(n)]
            # a heavy one only for the property itself, and only if nothing lighter helps
            new = light[:EXPAND] if light else blockers[:1] if pid in broken else []
            for n in new:
                tried.add(n)
                members.append(n)
                depth[n] = level
            ch.progress(f"{pid}: a step breaks {', '.join(broken)}; added "
                        f"{', '.join(new) or 'none'}; {len(members)} in use")
            return new

        try:
            broke = self._fixpoint(pid, members, expand)
        except Undecided as e:
            return Outcome(False, note=f"Z3 answered unknown ({e})",
                           queries=sym.queries - start_q)
        if broke is not None:
            a = broke[0]
            note = (f"{pid} fails right after a deal" if a == "deal" else
                    f"not inductive: from a state satisfying every proved invariant, {a} "
                    f"breaks {pid} and no candidate invariant excludes that state")
            return Outcome(False, queries=sym.queries - start_q, note=note,
                           cti={"after": "deal"} if a == "deal"
                           else {"action": a, "breaks": [pid]})
        # every member is proved together with the earlier sets
        for m in members:
            if m != pid:
                self.proven[m] = self.pool[m]
        out = Outcome(True, invariants={n: self.proven[n][0] for n in self.proven})
        self._cores(pid, state_prop, out)
        out.queries = sym.queries - start_q
        if not out.proved:
            out.cti = None  # not a counterexample: the solver gave up
        return out

    def _cores(self, pid: str, state_prop: bool, out: Outcome) -> None:
        """The final proof queries, one per action the frame does not settle, with
        minimised cores (a share of the core budget each)."""
        ch, sym = self.ch, self.sym
        assume = list(self.proven) + ([pid] if state_prop else [])
        acting = [a for a in sym.actions if self.affects(a, pid)]
        out.by_frame = [a for a in sym.actions if a not in acting]

        def removable(lab: str) -> bool:
            return lab not in STRUCTURE

        total, began = ch.core_budget(), time.monotonic()
        for i, a in enumerate(acting):
            q = self.step_query(a, assume, pid,
                           f"1-induction step for {pid}: from any well-formed state "
                           "satisfying the invariants" + (f" and {pid}" if state_prop else "")
                           + f", action {a} breaks {pid} (Next cut to the variables {pid} "
                           "reads after the step)",
                           f"unsat proves no {a} step can break {pid}")
            ch.progress(f"{pid}: proof query and core for {a}")
            ans = ch.ask(q, f"proof-{pid}-{a}", solver=self.solver)
            if ans.result != SolverResult.unsat:  # unsat after the fixpoint unless Z3 gave up
                out.proved = False
                out.note = f"the final proof query for {a} answered {ans.result} ({ans.note})"
                return
            budget = max(0.3, (total - (time.monotonic() - began)) / (len(acting) - i))
            labels, complete = sym.minimise(q, removable, budget, self.solver)
            out.cores_complete &= complete
            self.credit(out, pid, labels)

    def credit(self, out: Outcome, pid: str, labels) -> None:
        """Record the invariants, rules and structure a core's labels name."""
        for lab in labels:
            if lab.startswith("inv:"):
                if lab[4:] != pid and lab[4:] not in out.used:
                    out.used.append(lab[4:])
                continue
            for part in lab.split("+"):
                if part in self.rule_ids:
                    if part not in out.rules:
                        out.rules.append(part)
                elif part not in out.structure:
                    out.structure.append(part)


__all__ = ["Inductor", "Outcome", "Undecided", "STRUCTURE", "subset_query"]
