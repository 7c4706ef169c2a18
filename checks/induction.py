"""1-induction with strengthening invariants chosen on demand (Houdini with expansion).

Why: at the full deck with eight players a satisfiable query costs Z3 seconds
to tens of seconds and an unsatisfiable one a fraction of a second, so the
search is built to ask few queries, small ones, and almost only unsatisfiable
ones:

* **The pool** (``spec/invariants.py::candidates``) is first cut by random
  rounds of the engine (``checks/sampled.py``): a candidate false in a reached
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
No z3 here: the queries are built and asked through ``model/smt_checks.py``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from itcp.model.smt_checks import SAT, UNKNOWN, UNSAT, Answer, Query
from itcp.spec import ast as A

#: at most this many candidates are added per counterexample to induction
EXPAND = 2
#: supporters of supporters are sought, no deeper: a deeper member that breaks is dropped
SUPPORT_DEPTH = 2
#: operators that make a candidate invariant "heavy" (see Inductor._heavy)
HEAVY_OPS = ("tsum", "count", "pile_cards", "pile_len")
#: candidates every proof starts from: the induction is over the states after the deal
SEED = ("NOT_DEALING",)
#: the solver of the one-step and base queries (see model/smt_checks.py SOLVERS): on
#: tables of at least BIG_TABLE cards Z3's QF_BV solver (full deck, measured: several
#: times faster, and it answers base queries the pipeline gives up on), below it the
#: bit-blasting pipeline (default check table, measured: about three times faster)
BIG_SOLVER, SMALL_SOLVER, BIG_TABLE = "qf_bv", "pipeline", 40
#: seconds one scouted step query may take while the re-proof decides several at
#: once; one that takes longer is then raced alone (``Symbolic.first_unsat``)
PARALLEL_CAP = 30.0
#: seconds a scouted step query whose formula splits by card (``Symbolic.card_cases``)
#: may take as a whole before it is asked one card at a time (at eight players, full
#: deck: about 0.2 s per card, where a Pride Cycle's delivery as a whole took over 60 s)
SPLIT_AFTER = 10.0
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


class _Unknown(Exception):
    """Z3 gave up on a query."""


def _subset(q: Query, keep, what: str) -> Query:
    """``q`` with only the conjuncts whose label ``keep`` accepts: unsat proves
    ``q`` unsat.  ``what`` is added to the title."""
    out = Query(f"{q.title} ({what})", q.meaning)
    out.parts = [(lab, e) for lab, e in q.parts if keep(lab)]
    return out


def _ill_formed(q: Query) -> Query:
    """``q`` without the state's well-formedness (value ranges, pile layout).
    Raced against ``q`` itself: Z3 is sometimes ten times faster on one than on
    the other."""
    return _subset(q, lambda lab: lab != "wf", "without the well-formedness of the state")


class Inductor:
    """Proves state and step properties of one spec by 1-induction (see module doc).

    ``checker`` is the symbolic checker of the run (``symbolic.SymbolicChecker``):
    its queries, budget and progress, and ``new_scout()``, the scout whose plans
    are re-proved here (handed in by the checker, so this module imports neither)."""

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
        self._split: dict = {}        # name -> its card cases after the step, or None
        self._known: dict = {}        # (name, action) -> assumptions under which it is unsat
        self._identity: dict = {}     # step property -> it holds for a step changing nothing
        self._goals: dict = {}
        self._houdini_done = False
        self.big = checker.spec.config.n_cards >= BIG_TABLE
        self.solver = BIG_SOLVER if self.big else SMALL_SOLVER
        self._scout = None

    # -- what a formula reads ---------------------------------------------------------
    def _formula(self, name: str):
        if name in self.pool:
            return self.pool[name][1]
        return self.ch.props[name].formula

    def _is_step(self, name: str) -> bool:
        return name not in self.pool and self.ch.props[name].kind == "step"

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
        return post if self._is_step(name) else pre

    def _heavy(self, name: str) -> bool:
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
        if name in self.ch.props and self.ch.props[name].kind == "state" \
                and name not in self.pool:
            return self.sym.on(name, self.ch.props[name].formula, which)
        return self.sym.on(name, self.pool[name][1], which)

    def _after(self, name: str):
        """``name`` after the step: a state formula on A1, a step property on (A0, A1)."""
        if not self._is_step(name):
            return self._f(name, 1)
        hit = self._goals.get(name)
        if hit is None:
            hit = self._goals[name] = self.sym.prop(name, self.sym.A0, self.sym.A1)
        return hit

    def affects(self, action: str, name: str) -> bool:
        """False when ``action`` preserves ``name`` by its frame alone."""
        if self.sym.writes(action) & self._post(name):
            return True
        return self._is_step(name) and not self._holds_unchanged(name)

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
            hit = self._identity[pid] = ans.result == UNSAT
        return hit

    def _step(self, action: str, assume, name: str, title: str, meaning: str) -> Query:
        sym = self.sym
        q = Query(title, meaning)
        q.add("wf", sym.wf(sym.A0, "ranges"))
        for part, label in PILE_WF.items():
            q.add(label, sym.wf(sym.A0, part))
        for n in assume:
            q.add(f"inv:{n}", self._f(n, 0))
        q.extend(sym.sliced(action, self._post(name)))
        q.add("goal", sym.Not(self._after(name)))
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
        """On a big table, first re-prove what a scout table found (``checks/scout.py``);
        else, or if that fails here, search on demand; if that finds no support,
        prove every light candidate that can be proved (plain Houdini) and search
        once more from there."""
        if self.big and pid in self.ch.props:
            out = self._replay(pid)
            if out is not None:
                return out
        out = self._search(pid)
        if out.proved or out.cti is None or self._houdini_done:
            return out
        self.ch.progress(f"{pid}: no support found on demand; proving every light candidate")
        self.houdini([n for n in self.pool if not self._heavy(n) and n != pid
                      and not self._refuted(n)])
        again = self._search(pid)
        again.queries += out.queries
        return again

    # -- re-proving a scouted proof -------------------------------------------------
    def _restricted(self, q: Query, labels) -> Query:
        """``q`` cut to its structure and the conjuncts labelled ``labels``."""
        keep = set(labels)
        return _subset(q, lambda lab: lab in STRUCTURE or lab in keep,
                       "cut to the core found at the scout table")

    def _replay(self, pid: str) -> Outcome | None:
        """Prove ``pid`` with the invariants a scout table found, every one proved
        again here; None when the plan is missing or fails here."""
        ch, sym = self.ch, self.sym
        if self._scout is None:
            self._scout = ch.new_scout()
        start_q = sym.queries
        plan = self._scout.plan(pid)
        if plan is None:
            return None
        members = [m for m in plan.members if m not in self.proven]
        if any(m not in self.pool or self._refuted(m) for m in members):
            ch.progress(f"{pid}: the scouted invariants do not all apply here")
            return None
        state_prop = not self._is_step(pid)
        fresh = members + ([pid] if state_prop else [])
        if fresh:
            try:
                if self._ask_base(list(fresh), f"replay-{pid}"):
                    ch.progress(f"{pid}: a scouted invariant fails after a deal here")
                    return None
            except _Unknown:
                return None
        assume = list(self.proven) + members + ([pid] if state_prop else [])
        have = frozenset(assume)
        out = Outcome(True)
        jobs: list = []   # (formula, action, the step query, its scouted core or None)
        cut_jobs: list = []
        cuts: dict = {}   # (formula, action) -> its step query cut to the scouted core

        def scouted_cuts():
            """Each step query, built as it is needed; those with a scouted core
            are handed on, cut to it, to be decided several at a time."""
            for t in members + [pid]:
                for a in sym.actions:
                    if not self.affects(a, t):
                        if t == pid:
                            out.by_frame.append(a)
                        continue
                    known = self._known.get((t, a))
                    if t != pid and known is not None and known <= have:
                        continue
                    q = self._step(a, assume, t, f"1-induction step for {t}: from any "
                                   "well-formed state satisfying the invariants, action "
                                   f"{a} breaks {t} (Next cut to the variables {t} reads "
                                   "after the step)", f"unsat proves no {a} step can break {t}")
                    labels = plan.steps.get((t, a))
                    jobs.append((t, a, q, labels))
                    if labels is not None:
                        ch.progress(f"{pid}: does {a} break {t}? (scouted core)")
                        cut_jobs.append((t, a))
                        cuts[t, a] = self._restricted(q, labels)
                        form = first_form(cuts[t, a], (t, a))
                        if self._cases(t) is not None:   # a copy: the cut is asked again
                            form = replace(form, cap=SPLIT_AFTER)
                        yield form, f"proof-{t}-{a}"

        #: (formula, action) -> its cut's forms still to ask if need be, each made on
        #: demand (None: that abstraction does not exist)
        later: dict = {}

        def first_form(cut, ta):
            """The cut with its sums as free values if it has sums (then, if need
            be, as functions of their sets, then as it is), else as it is."""
            light = sym.abstracted(cut)
            later[ta] = [] if light is None else [
                lambda: sym.abstracted(cut, congruent=True), lambda: cut]
            return light or cut

        def next_form(ta):
            while True:
                x = later[ta].pop(0)()
                if x is not None:
                    return x

        answers = dict(zip(cut_jobs, ch.solve_all(scouted_cuts(), self.solver,
                                                  cap=PARALLEL_CAP)))
        # an abstraction that is not unsat proves nothing: the next form is asked
        while True:
            again = [ta for ta in cut_jobs if answers[ta].result != UNSAT and later[ta]]
            if not again:
                break
            if len(again) == 1:
                # one left: its exact cut raced against its other abstraction, so
                # no core waits for the next round (a sat cut still ends the race)
                ta = again[0]
                ch.progress(f"{pid}: does {ta[1]} break {ta[0]}? (scouted core, raced "
                            "with its sums as functions of their sets)")
                forms = [f() for f in later[ta]][::-1]
                later[ta] = []
                answers[ta], _ = ch.first_unsat([f for f in forms if f is not None],
                                                f"proof-{ta[0]}-{ta[1]}", solver=self.solver)
                continue
            ch.progress(f"{pid}: {len(again)} scouted core(s) asked again, closer to "
                        "their sums' values")
            answers.update(zip(again, ch.solve_all(
                ((next_form(ta), f"proof-{ta[0]}-{ta[1]}") for ta in again),
                self.solver, cap=PARALLEL_CAP)))
        self._by_card(pid, answers, cuts)
        for t, a, q, labels in jobs:
            ans = answers.get((t, a))
            if ans is not None and ans.result == UNKNOWN:
                # not settled on its own in time: raced with the cut without the
                # state's well-formedness, as a single query is (a sat cut is
                # too small here: the whole query is asked next)
                ch.progress(f"{pid}: does {a} break {t}? (scouted core, raced)")
                cut = cuts[t, a]
                ans, _ = ch.first_unsat([cut, _ill_formed(cut)], f"proof-{t}-{a}",
                                        solver=self.solver)
            if ans is None or ans.result != UNSAT:
                ch.progress(f"{pid}: does {a} break {t}? ({len(assume)} assumed)")
                labels = None
                ans, _ = ch.first_unsat([q, _ill_formed(q)], f"proof-{t}-{a}",
                                        solver=self.solver)
            if ans.result != UNSAT:
                ch.progress(f"{pid}: the scouted proof fails here ({a} on {t}: "
                            f"{ans.result})")
                return None
            self._known[(t, a)] = have
            if t != pid:
                continue
            if labels is None:   # no core: every conjunct of the query counts
                labels = [lab for lab, _ in q.parts if lab not in STRUCTURE]
                out.cores_complete = False
            self._credit(out, pid, labels)
        for m in members + ([pid] if pid in self.pool else []):
            self.proven[m] = self.pool[m]
        out.invariants = {n: self.proven[n][0] for n in self.proven}
        out.queries = sym.queries - start_q
        out.scouted = plan.table
        return out

    def scouted_support(self, pid: str) -> list | None:
        """The invariants the scout table's NO_DEADLOCK proof (``pid``) rests on,
        each proved here by the re-proof of its own scouted plan (so with the
        invariants it rests on); None when there is no such plan or one fails
        here (the caller then proves invariants its own way).

        Why: the plain Houdini over every candidate asks whole step queries with
        every member assumed, some of which Z3 does not decide in minutes at the
        full deck; the re-proof asks only cut ones."""
        if not self.big:
            return None
        if self._scout is None:
            self._scout = self.ch.new_scout()
        names = self._scout.deadlock_support(pid)
        if names is None:
            return None
        for n in names:
            if n in self.proven:
                continue
            if n not in self.pool or self._refuted(n):
                return None
            self.ch.progress(f"{pid}: proving {n}, which the scouted proof uses")
            if self._replay(n) is None:
                return None
        return names

    def _cases(self, name: str):
        """``name`` after the step, split by card (``Symbolic.card_cases``), or None."""
        if name not in self._split:
            self._split[name] = self.sym.card_cases(self._after(name))
        return self._split[name]

    def _by_card(self, pid: str, answers: dict, cuts: dict) -> None:
        """Each scouted step still unknown whose formula splits by card
        (``Symbolic.card_cases``) asked again one card at a time, every case of
        every such step decided several at once: unsat when every case is."""
        ch, sym = self.ch, self.sym
        n_cards = ch.spec.config.n_cards
        split: list = []   # ((formula, action), its case queries)
        for ta, ans in answers.items():
            if ans.result != UNKNOWN:
                continue
            cases = self._cases(ta[0])
            if cases is None:
                continue
            cut = cuts[ta]
            qs = []
            for i, case in enumerate(cases):
                by = f"card {i}" if i < n_cards else "apart from single cards"
                cq = _subset(cut, lambda lab: lab != "goal", f"case {by}")
                cq.meaning = (f"unsat proves no {ta[1]} step breaks {ta[0]} {by}; "
                              f"with every case unsat, no {ta[1]} step breaks {ta[0]}")
                cq.add("goal", sym.Not(case))
                qs.append(cq)
            split.append((ta, qs))
        if not split:
            return
        ch.progress(f"{pid}: {len(split)} scouted core(s) asked again one card at a time "
                    f"({sum(len(qs) for _, qs in split)} queries)")
        flat = [(cq, f"proof-{ta[0]}-{ta[1]}-case{i}")
                for ta, qs in split for i, cq in enumerate(qs)]
        got = iter(ch.solve_all(iter(flat), self.solver, cap=PARALLEL_CAP))
        for ta, qs in split:
            mine = [next(got) for _ in qs]
            secs = sum(x.seconds for x in mine)
            if all(x.result == UNSAT for x in mine):
                answers[ta] = Answer(UNSAT, secs)
            elif any(x.result == SAT for x in mine):   # the cut itself is sat then
                answers[ta] = Answer(SAT, secs)

    def houdini(self, names) -> None:
        """The largest subset of ``names`` that holds after every deal and that every
        action preserves (each assuming all of it and the proved ones): proved."""
        self._houdini_done = True
        members = [n for n in names if n not in self.proven and not self._refuted(n)]
        for n in members:
            self.dropped.pop(n, None)
        try:
            self._fixpoint(None, members, lambda *_: [])
        except _Unknown:
            return
        for m in members:
            self.proven[m] = self.pool[m]

    def _refuted(self, name: str) -> bool:
        """Known false in some reachable state (not merely unproved so far)."""
        why = self.dropped.get(name, "")
        return why.startswith("fails after a deal") or why.startswith("false in a reachable")

    def _ask_base(self, fresh: list, tag: str) -> list:
        """Drop from ``fresh`` the members failing right after some deal; returns them."""
        sym, failed = self.sym, []
        while fresh:
            self.ch.progress(f"{tag}: {len(fresh)} invariant(s) after the deal")
            ans = self.ch.ask(self._base(fresh), f"base-{tag}", solver=self.solver)
            if ans.result == UNSAT:
                return failed
            if ans.result != SAT:
                raise _Unknown(ans.note)
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
                for m in self._ask_base(list(fresh), tag):
                    if m == pid:
                        return ("deal", pid)
                    members.remove(m)
                    self.dropped[m] = "fails after a deal"
                based |= set(members)
            asked = False
            for a in sym.actions:
                targets = ([pid] if pid is not None and self._is_step(pid) else []) + \
                    [m for m in members if m not in self.proven]
                for t in targets:
                    if t != pid and t not in members:  # dropped during this pass
                        continue
                    if not self.affects(a, t):
                        continue
                    assume = list(self.proven) + [m for m in members if m not in self.proven]
                    have = frozenset(assume)
                    known = self._known.get((t, a))
                    if known is not None and known <= have:
                        continue
                    asked = True
                    q = self._step(a, assume, t, f"{a} breaks {t}",
                                   f"unsat proves {a} preserves {t} given the invariants")
                    ch.progress(f"{tag}: does {a} break {t}? ({len(assume)} assumed)")
                    ans = ch.ask(q, f"step-{t}-{a}", solver=self.solver)
                    if ans.result == UNSAT:
                        self._known[(t, a)] = have
                        continue
                    if ans.result != SAT:
                        raise _Unknown(ans.note)
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
        state_prop = not self._is_step(pid)
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
            light = [n for n in blockers if not self._heavy(n)]
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
        except _Unknown as e:
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
            q = self._step(a, assume, pid,
                           f"1-induction step for {pid}: from any well-formed state "
                           "satisfying the invariants" + (f" and {pid}" if state_prop else "")
                           + f", action {a} breaks {pid} (Next cut to the variables {pid} "
                           "reads after the step)",
                           f"unsat proves no {a} step can break {pid}")
            ch.progress(f"{pid}: proof query and core for {a}")
            ans = ch.ask(q, f"proof-{pid}-{a}", solver=self.solver)
            if ans.result != UNSAT:  # unsat after the fixpoint unless Z3 gave up
                out.proved = False
                out.note = f"the final proof query for {a} answered {ans.result} ({ans.note})"
                return
            budget = max(0.3, (total - (time.monotonic() - began)) / (len(acting) - i))
            labels, complete = sym.minimise(q, removable, budget, self.solver)
            out.cores_complete &= complete
            self._credit(out, pid, labels)

    def _credit(self, out: Outcome, pid: str, labels) -> None:
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


__all__ = ["Inductor", "Outcome"]
