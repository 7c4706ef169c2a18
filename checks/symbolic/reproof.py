"""Re-proving at the real table the proof a scout table found (``checks/symbolic/scout.py``).

Why: at the full deck a step query Z3 can satisfy costs seconds to minutes and
most unsatisfiable ones a fraction of a second.  The scout's plan names the
invariants a proof rests on and, per step, the labels of its unsat core; here
every one of those invariants is proved again (after every deal, then each
step), each step query cut to its scouted core (a subset of the conjuncts:
unsat there is unsat for the whole query).  A cut with point sums is asked
first with the sums as free values (an abstraction proves something only when
unsat).  A first form that takes too long is asked again: one card at a time
where the formula splits by card (each case briefly), then once per card played
where the action takes a card, then with the sums as functions of their sets,
then as it is, and at the end one card at a time without the brief limit; a cut
that is not unsat here is raced against itself without the state's
well-formedness, then the whole step query is asked.  A plan that fails here
gives None, and the caller searches on its own (``Inductor.prove``): nothing
proved at the scout table is ever reported as a proof.
"""
from __future__ import annotations

from dataclasses import replace

from itcp.model.smt.queries import Query, SolverAnswer, SolverResult

from .induction import STRUCTURE, Inductor, Outcome, Undecided, subset_query
from .scout import Plan, cut_to_core

#: seconds one scouted step query may take while the re-proof decides several at
#: once; one that takes longer is then raced alone (``Symbolic.first_unsat``)
PARALLEL_CAP = 30.0
#: seconds a scouted step query whose formula splits by card (``Symbolic.card_cases``)
#: may take as a whole before it is asked one card at a time (at eight players, full
#: deck: about 0.05 s per card, where CONSERVATION under a Pride Cycle's give as a
#: whole was not decided in 60 s)
CARD_SPLIT_AFTER = 4.0
#: seconds a scouted step query whose action takes a card (``Symbolic.choice_cases``)
#: may take as a whole before it is asked once per card played (at eight players,
#: full deck: FROZEN under a Pride Cycle's give is unsat whole in about 6 s, and
#: slower card by card)
SPLIT_AFTER = 7.0
#: seconds one case of a step asked once per card played (``Symbolic.choice_cases``)
#: may take; the first case not unsat in time ends the split (at eight players,
#: full deck: "a discard opening Mercy's race leaves nobody to race" was not
#: decided in 30 s in any form and took 154 s as it is; as cases, 0.05-0.5 s each,
#: where a Pride Cycle's give is slower card by card than whole)
CHOICE_CASE = 3.0


def ill_formed(q: Query) -> Query:
    """``q`` without the state's well-formedness (value ranges, pile layout).
    Raced against ``q`` itself: Z3 is sometimes ten times faster on one than on
    the other."""
    return subset_query(q, lambda lab: lab != "wf", "without the well-formedness of the state")


class Reproof:
    """Re-proves the scout's plans at the table of ``inductor`` (only on a big
    table: ``inductor.big``), proving into the inductor's sets.

    The scout comes from ``inductor.ch.new_scout()`` (the symbolic checker makes
    it, so this module imports neither), on first need."""

    def __init__(self, inductor: Inductor):
        self.ind = inductor
        self.ch = inductor.ch
        self.sym = inductor.sym
        self._scout = None
        self._split: dict = {}        # name -> its card cases after the step, or None

    def scout(self):
        if self._scout is None:
            self._scout = self.ch.new_scout()
        return self._scout

    def prove(self, pid: str) -> Outcome | None:
        """Prove ``pid`` with the invariants a scout table found, every one proved
        again here; None when the plan is missing or fails here."""
        ind, sym = self.ind, self.sym
        start_q = sym.queries
        plan = self.scout().plan(pid)
        if plan is None:
            return None
        members = self._members(pid, plan)
        if members is None:
            return None
        state_prop = not ind.is_step(pid)
        assume = list(ind.proven) + members + ([pid] if state_prop else [])
        out = _Attempt(self, pid, plan, members, assume).run()
        if out is None:
            return None
        for m in members + ([pid] if pid in ind.pool else []):
            ind.proven[m] = ind.pool[m]
        out.invariants = {n: ind.proven[n][0] for n in ind.proven}
        out.queries = sym.queries - start_q
        out.scouted = plan.table
        return out

    def _members(self, pid: str, plan: Plan) -> list | None:
        """The plan's invariants not proved yet, once each (and ``pid``, a state
        property) holds after every deal here; None when one does not apply here."""
        ind, ch = self.ind, self.ch
        members = [m for m in plan.members if m not in ind.proven]
        if any(m not in ind.pool or ind.refuted(m) for m in members):
            ch.progress(f"{pid}: the scouted invariants do not all apply here")
            return None
        fresh = members + ([pid] if not ind.is_step(pid) else [])
        if fresh:
            try:
                if ind.ask_base(list(fresh), f"replay-{pid}"):
                    ch.progress(f"{pid}: a scouted invariant fails after a deal here")
                    return None
            except Undecided:
                return None
        return members

    def support(self, pid: str) -> list | None:
        """The invariants the scout table's NO_DEADLOCK or ranking proof (``pid``) rests on,
        each proved here by the re-proof of its own scouted plan (so with the
        invariants it rests on); None when there is no such plan or one fails
        here (the caller then proves invariants its own way).

        Why: the plain Houdini over every candidate asks whole step queries with
        every member assumed, some of which Z3 does not decide in minutes at the
        full deck; the re-proof asks only cut ones."""
        ind = self.ind
        if not ind.big:
            return None
        names = self.scout().graph_support(pid)
        if names is None:
            return None
        for n in names:
            if n in ind.proven:
                continue
            if n not in ind.pool or ind.refuted(n):
                return None
            self.ch.progress(f"{pid}: proving {n}, which the scouted proof uses")
            if self.prove(n) is None:
                return None
        return names

    def cases(self, name: str):
        """``name`` after the step, split by card (``Symbolic.card_cases``), or None."""
        if name not in self._split:
            self._split[name] = self.sym.card_cases(self.ind.after(name))
        return self._split[name]

    def by_card(self, pid: str, answers: dict, cuts: dict, done: set,
                quick: bool = False) -> None:
        """Each scouted step still unknown whose formula splits by card
        (``Symbolic.card_cases``) asked again one card at a time, every case of
        every such step decided several at once: unsat when every case is.
        A step in ``done`` was split already; each one split here is added.
        ``quick``: each case within CHOICE_CASE seconds, the first case not unsat
        ending the split, and a step whose split ended so not added to ``done``
        (it may be split again later, without that limit)."""
        ch, sym = self.ch, self.sym
        n_cards = ch.spec.config.n_cards
        split: list = []   # ((formula, action), its case queries)
        for ta, ans in answers.items():
            if ans.result != SolverResult.unknown or ta in done:
                continue
            cases = self.cases(ta[0])
            if cases is None:
                continue
            cut = cuts[ta]
            qs = []
            for i, case in enumerate(cases):
                by = f"card {i}" if i < n_cards else "apart from single cards"
                cq = subset_query(cut, lambda lab: lab != "goal", f"case {by}")
                cq.meaning = (f"unsat proves no {ta[1]} step breaks {ta[0]} {by}; "
                              f"with every case unsat, no {ta[1]} step breaks {ta[0]}")
                cq.add("goal", sym.Not(case))
                qs.append(cq)
            split.append((ta, qs))
        if not split:
            return
        ch.progress(f"{pid}: {len(split)} scouted core(s) asked again one card at a time "
                    f"({sum(len(qs) for _, qs in split)} queries)")
        # quick: step by step, each stopping at its first case not unsat; else all at once
        for group in ([[x] for x in split] if quick else [split]):
            flat = [(cq, f"proof-{ta[0]}-{ta[1]}-case{i}")
                    for ta, qs in group for i, cq in enumerate(qs)]
            got = iter(ch.solve_all(iter(flat), self.ind.solver,
                                    cap=CHOICE_CASE if quick else PARALLEL_CAP,
                                    stop=(lambda x: x.result != SolverResult.unsat) if quick else None))
            for ta, qs in group:
                mine = [x for x in (next(got, None) for _ in qs) if x is not None]
                secs = sum(x.seconds for x in mine)
                if len(mine) == len(qs) and all(x.result == SolverResult.unsat for x in mine):
                    answers[ta] = SolverAnswer(SolverResult.unsat, secs)
                elif any(x.result == SolverResult.sat for x in mine):   # the cut itself is sat then
                    answers[ta] = SolverAnswer(SolverResult.sat, secs)
                elif quick:
                    continue
                done.add(ta)


class _Attempt:
    """One re-proof of one plan: every step query of ``pid`` and of the plan's
    members built (``_cut_forms``), those with a scouted core decided cut to it
    (``_decide_cuts``), then each settled or asked whole (``_settle``)."""

    def __init__(self, rp: Reproof, pid: str, plan: Plan, members: list, assume: list):
        self.rp, self.ind, self.ch, self.sym = rp, rp.ind, rp.ch, rp.sym
        self.pid, self.plan, self.members = pid, plan, members
        self.assume, self.have = assume, frozenset(assume)
        self.out = Outcome(True)
        self.jobs: list = []   # (formula, action, the step query, its scouted core or None)
        self.cut_jobs: list = []
        self.cuts: dict = {}   # (formula, action) -> its step query cut to the scouted core
        #: (formula, action) -> its cut's forms still to ask if need be, each made on
        #: demand (None: that abstraction does not exist)
        self.later: dict = {}
        #: the steps already asked one card at a time (``Reproof.by_card``)
        self.split: set = set()

    def run(self) -> Outcome | None:
        answers = self._decide_cuts()
        self.rp.by_card(self.pid, answers, self.cuts, self.split)
        return self.out if self._settle(answers) else None

    def _cut_forms(self):
        """Each step query, built as it is needed; those with a scouted core
        are handed on, cut to it, to be decided several at a time."""
        ind, pid = self.ind, self.pid
        for t in self.members + [pid]:
            for a in self.sym.actions:
                if not ind.affects(a, t):
                    if t == pid:
                        self.out.by_frame.append(a)
                    continue
                known = ind.known.get((t, a))
                if t != pid and known is not None and known <= self.have:
                    continue
                q = ind.step_query(a, self.assume, t, f"1-induction step for {t}: from any "
                                   "well-formed state satisfying the invariants, action "
                                   f"{a} breaks {t} (Next cut to the variables {t} reads "
                                   "after the step)", f"unsat proves no {a} step can break {t}")
                labels = self.plan.steps.get((t, a))
                self.jobs.append((t, a, q, labels))
                if labels is not None:
                    self.ch.progress(f"{pid}: does {a} break {t}? (scouted core)")
                    self.cut_jobs.append((t, a))
                    self.cuts[t, a] = cut_to_core(q, labels)
                    form = self._first_form(self.cuts[t, a], (t, a))
                    # a copy: the cut is asked again, split, if this takes long
                    if self.rp.cases(t) is not None:
                        form = replace(form, cap=CARD_SPLIT_AFTER)
                    elif self.sym.choice_cases(a) is not None:
                        form = replace(form, cap=SPLIT_AFTER)
                    yield form, f"proof-{t}-{a}"

    def _first_form(self, cut: Query, ta) -> Query:
        """The cut with its sums as free values if it has sums (then, if need
        be, as functions of their sets, then as it is), else as it is."""
        sym = self.sym
        light = sym.abstracted(cut)
        self.later[ta] = [] if light is None else [
            lambda: sym.abstracted(cut, congruent=True), lambda: cut]
        return light or cut

    def _next_form(self, ta) -> Query:
        while True:
            x = self.later[ta].pop(0)()
            if x is not None:
                return x

    def _decide_cuts(self) -> dict:
        """(formula, action) -> the answer about its cut, each abstraction that is
        not unsat followed by the next form (an abstraction proves nothing then)."""
        ch, pid, solver, later = self.ch, self.pid, self.ind.solver, self.later
        answers = dict(zip(self.cut_jobs, ch.solve_all(self._cut_forms(), solver,
                                                       cap=PARALLEL_CAP)))
        # a step still undecided whose formula splits by card: one card at a time
        # before its slower forms (at eight players, full deck, CONSERVATION under
        # a Pride Cycle's give: 30 s unknown twice as sums, then 3 s by card);
        # then one whose action takes a card, once per card played
        self.rp.by_card(self.pid, answers, self.cuts, self.split, quick=True)
        self._by_choice(answers)
        for ta in self.split:
            if answers[ta].result == SolverResult.sat:   # the exact cut is sat: no form is unsat
                later[ta] = []
        while True:
            again = [ta for ta in self.cut_jobs if answers[ta].result != SolverResult.unsat and later[ta]]
            if not again:
                return answers
            if len(again) == 1:
                # one left: its exact cut raced against its other abstraction, so
                # no core waits for the next round (a sat cut still ends the race)
                ta = again[0]
                ch.progress(f"{pid}: does {ta[1]} break {ta[0]}? (scouted core, raced "
                            "with its sums as functions of their sets)")
                forms = [f() for f in later[ta]][::-1]
                later[ta] = []
                answers[ta], _ = ch.first_unsat([f for f in forms if f is not None],
                                                f"proof-{ta[0]}-{ta[1]}", solver=solver)
                continue
            ch.progress(f"{pid}: {len(again)} scouted core(s) asked again, closer to "
                        "their sums' values")
            answers.update(zip(again, ch.solve_all(
                ((self._next_form(ta), f"proof-{ta[0]}-{ta[1]}") for ta in again),
                solver, cap=PARALLEL_CAP)))

    def _by_choice(self, answers: dict) -> None:
        """Each scouted step whose first form was not decided in time, and whose
        action takes a card (``Symbolic.choice_cases``), asked again as its exact
        cut once per value of that card: unsat when every case is (then no other
        form is asked), sat when one is (the cut is sat: the whole query is asked
        next).  The cases go option cards first (the last cards: the ones whose
        effects make a step hard), each within CHOICE_CASE seconds, and the
        first case not unsat ends the split: the step goes on to its other forms
        (some steps, such as a Pride Cycle's give, are slow card by card)."""
        ch, sym, pid = self.ch, self.sym, self.pid
        for ta in self.cut_jobs:
            conds = sym.choice_cases(ta[1])
            if answers[ta].result != SolverResult.unknown or conds is None:
                continue
            qs = []
            for i in reversed(range(len(conds))):
                cq = subset_query(self.cuts[ta], lambda lab: True,
                                  f"case {i} of the card {ta[1]} takes")
                cq.meaning = (f"unsat proves no {ta[1]} step with this card breaks {ta[0]}; "
                              f"with every case unsat, no {ta[1]} step breaks {ta[0]}")
                cq.add("case", conds[i])
                qs.append((cq, f"proof-{ta[0]}-{ta[1]}-choice{i}"))
            ch.progress(f"{pid}: does {ta[1]} break {ta[0]}? (scouted core, one card "
                        f"played at a time: {len(qs)} queries)")
            mine = ch.solve_all(iter(qs), self.ind.solver, cap=CHOICE_CASE,
                                stop=lambda x: x.result != SolverResult.unsat)
            secs = sum(x.seconds for x in mine)
            if len(mine) == len(qs) and all(x.result == SolverResult.unsat for x in mine):
                answers[ta] = SolverAnswer(SolverResult.unsat, secs)
                self.later[ta] = []
            elif any(x.result == SolverResult.sat for x in mine):   # the exact cut is sat
                answers[ta] = SolverAnswer(SolverResult.sat, secs)
                self.later[ta] = []

    def _settle(self, answers: dict) -> bool:
        """Every step unsat, by its cut or else whole, and the property's cores
        credited; False at the first step that is not."""
        ind, ch, pid, out, solver = self.ind, self.ch, self.pid, self.out, self.ind.solver
        for t, a, q, labels in self.jobs:
            ans = answers.get((t, a))
            if ans is not None and ans.result == SolverResult.unknown:
                # not settled on its own in time: raced with the cut without the
                # state's well-formedness, as a single query is (a sat cut is
                # too small here: the whole query is asked next)
                ch.progress(f"{pid}: does {a} break {t}? (scouted core, raced)")
                cut = self.cuts[t, a]
                ans, _ = ch.first_unsat([cut, ill_formed(cut)], f"proof-{t}-{a}",
                                        solver=solver)
            if ans is None or ans.result != SolverResult.unsat:
                ch.progress(f"{pid}: does {a} break {t}? ({len(self.assume)} assumed)")
                labels = None
                ans, _ = ch.first_unsat([q, ill_formed(q)], f"proof-{t}-{a}",
                                        solver=solver)
            if ans.result != SolverResult.unsat:
                ch.progress(f"{pid}: the scouted proof fails here ({a} on {t}: "
                            f"{ans.result})")
                return False
            ind.known[(t, a)] = self.have
            if t != pid:
                continue
            if labels is None:   # no core: every conjunct of the query counts
                labels = [lab for lab, _ in q.parts if lab not in STRUCTURE]
                out.cores_complete = False
            ind.credit(out, pid, labels)
        return True


__all__ = ["Reproof", "PARALLEL_CAP", "CARD_SPLIT_AFTER", "SPLIT_AFTER", "CHOICE_CASE"]
