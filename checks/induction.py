"""1-induction with strengthening invariants chosen on demand (Houdini with expansion).

Why: at the full deck with eight players one query costs seconds, so proving
every candidate invariant of ``checks/invariants.py`` first (plain Houdini)
does not fit in a minute.  Instead the search starts from the property alone
and only pulls in candidates that a counterexample to induction (CTI) shows are
needed:

1. Ask, per action, whether a step from a well-formed state satisfying the set
   ``T`` (the proved invariants so far, the new members, and the property if it
   is a state property) can break a member or the property.
2. If it can, the model's pre-state is a CTI.  Every candidate false in it (not
   yet tried) would exclude it: add them all to ``T``.  If none would, drop the
   members the step breaks (Houdini); if the property itself breaks and no
   candidate helps, it is not inductive with these candidates: UNKNOWN.
3. New members must also hold right after every deal (one query on Init and
   the deal; members failing it are dropped).
4. When a full pass over the actions and the deal finds nothing, every member
   of ``T`` is an invariant (they are proved together, each step assuming all),
   so the property holds.  Sets proved for one property are kept and assumed
   for the next.

Each proof's last queries (one per action: the invariants and the property
before, the property broken after) are the ones whose cores are minimised
(``Symbolic.minimise``) to name the rules the proof needed.

No z3 here: the queries are built and asked through ``model/smt_checks.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from itcp.model.smt_checks import SAT, UNSAT, Query
from itcp.spec import ast as A

#: at most this many candidates are added per counterexample to induction
EXPAND = 2
#: supporters of supporters are sought, no deeper: a deeper member that breaks is dropped
SUPPORT_DEPTH = 2
#: operators that make a candidate invariant "heavy" (see Inductor._heavy)
HEAVY_OPS = ("tsum", "count", "pile_cards", "pile_len")
#: candidates every proof starts from: the induction is over the states after the deal
SEED = ("NOT_DEALING",)
#: labels of query parts that are structure, never reported as rules
STRUCTURE = ("wf", "phase", "domain", "frame", "goal", "init", "update")


@dataclass
class Outcome:
    """What the induction found for one property."""
    proved: bool
    invariants: dict = field(default_factory=dict)   # name -> statement, all proved
    rules: list = field(default_factory=list)        # rule ids of the minimised cores
    used: list = field(default_factory=list)         # invariants the cores used
    structure: list = field(default_factory=list)
    cores_complete: bool = True
    queries: int = 0
    cti: dict | None = None                          # when not proved: where it broke
    note: str = ""


class Inductor:
    """Proves state and step properties of one spec by 1-induction (see module doc)."""

    def __init__(self, checker, pool: dict):
        self.ch = checker
        self.sym = checker.sym
        self.pool = dict(pool)        # candidate name -> (statement, formula)
        self.proven: dict = {}        # name -> (statement, formula), an inductive set
        self.dropped: dict = {}       # name -> why
        self.rule_ids = checker.rule_ids
        self._sizes: dict = {}
        self._varsets: dict = {}
        self._heavies: dict = {}
        self._houdini_done = False

    def _formula(self, name: str):
        if name in self.pool:
            return self.pool[name][1]
        return self.ch.props[name].formula

    def _vars(self, name: str) -> frozenset:
        """The state variables the formula reads (after inlining definitions)."""
        hit = self._varsets.get(name)
        if hit is None:
            seen, out = set(), set()
            stack = [self.sym.smt.inline(self._formula(name))]
            while stack:
                n = stack.pop()
                if id(n) in seen:
                    continue
                seen.add(id(n))
                if isinstance(n, (A.Var, A.Primed)):
                    out.add(n.name)
                stack.extend(A.children(n))
            hit = self._varsets[name] = frozenset(out)
        return hit

    def _heavy(self, name: str) -> bool:
        """The formula does arithmetic on card sets (counts, point sums): such
        invariants make slow queries, so they are sought last."""
        hit = self._heavies.get(name)
        if hit is None:
            seen, hit = set(), False
            stack = [self.sym.smt.inline(self._formula(name))]
            while stack and not hit:
                n = stack.pop()
                if id(n) in seen:
                    continue
                seen.add(id(n))
                hit = (isinstance(n, A.Op) and n.op in HEAVY_OPS) or \
                    (isinstance(n, A.Quant) and n.kind == "sum")
                stack.extend(A.children(n))
            self._heavies[name] = hit
        return hit

    def _size(self, name: str) -> int:
        """The candidate's formula size (nodes after inlining definitions)."""
        hit = self._sizes.get(name)
        if hit is None:
            seen = set()
            stack = [self.sym.smt.inline(self._formula(name))]
            while stack:
                n = stack.pop()
                if id(n) not in seen:
                    seen.add(id(n))
                    stack.extend(A.children(n))
            hit = self._sizes[name] = len(seen)
        return hit

    # -- formulas on the template states --------------------------------------------
    def _f(self, name: str, which: int):
        if name in self.ch.props and self.ch.props[name].kind == "state" \
                and name not in self.pool:
            return self.sym.on(name, self.ch.props[name].formula, which)
        return self.sym.on(name, self.pool[name][1], which)

    def _step(self, action: str, assume, title: str, meaning: str) -> Query:
        sym = self.sym
        q = Query(title, meaning)
        q.add("wf", sym.wf(sym.A0))
        for n in assume:
            q.add(f"inv:{n}", self._f(n, 0))
        _, frags = sym.template(action)
        q.extend(frags)
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
        that can be proved (plain Houdini) and search once more from there."""
        out = self._search(pid)
        if out.proved or out.cti is None or self._houdini_done:
            return out
        self.ch.progress(f"{pid}: no support found on demand; proving every light candidate")
        self.houdini([n for n in self.pool if not self._heavy(n) and n != pid
                      and self.dropped.get(n) != "fails after a deal"])
        again = self._search(pid)
        again.queries += out.queries
        return again

    def houdini(self, names) -> None:
        """The largest subset of ``names`` that holds after every deal and that every
        action preserves (each assuming all of it and the proved ones): proved."""
        ch, sym = self.ch, self.sym
        self._houdini_done = True
        members = [n for n in names if n not in self.proven]
        for n in members:
            self.dropped.pop(n, None)
        while members:
            ch.progress(f"invariants: {len(members)} after the deal")
            ans = ch.ask(self._base(members), "houdini-base")
            if ans.result != SAT:
                if ans.result != UNSAT:
                    return
                break
            bad = [m for m in members if not sym.evaluate(ans.model, self._f(m, 1))]
            for m in bad:
                members.remove(m)
                self.dropped[m] = "fails after a deal"
        changed = True
        while changed and members:
            changed = False
            for a in sym.actions:
                if not members:
                    break
                q = self._step(a, list(self.proven) + members,
                               f"Houdini step: action {a} breaks a candidate invariant",
                               "unsat proves the candidates are preserved by this action")
                post = {m: self._f(m, 1) for m in members}
                q.add("goal", sym.Not(sym.And(*post.values())))
                ch.progress(f"invariants: step {a} ({len(members)} candidates)")
                ans = ch.ask(q, f"houdini-{a}")
                if ans.result == SAT:
                    bad = [m for m in members if not sym.evaluate(ans.model, post[m])]
                    for m in bad:
                        members.remove(m)
                        self.dropped[m] = f"not preserved by {a}"
                    changed = True
                elif ans.result != UNSAT:
                    return
        for m in members:
            self.proven[m] = self.pool[m]

    def _search(self, pid: str) -> Outcome:
        ch, sym = self.ch, self.sym
        prop = ch.props[pid]
        state_prop = prop.kind == "state"
        start_q = sym.queries
        members: list = [pid] if state_prop else []   # new members of T, in order
        members += [n for n in SEED if n in self.pool and n not in self.proven
                    and n not in self.dropped and n != pid]
        based: set = set()                            # members checked after the deal
        tried = set(self.proven) | set(self.dropped) | {pid} | set(members)
        helped: set = set()  # members that were given supporters once
        depth = {pid: 0}   # 1: added for the property's CTI, 2: for a supporter's

        def assume():
            return list(self.proven) + [m for m in members if m not in self.proven]

        def expand(model, why: str, broken):
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
            ch.progress(f"{pid}: {why}; added {', '.join(new) or 'none'}; {len(members)} in use")
            return new

        while True:
            changed = False
            # base: new members hold after every deal
            fresh = [m for m in members if m not in based]
            if fresh:
                ch.progress(f"{pid}: {len(fresh)} invariant(s) after the deal")
                ans = ch.ask(self._base(fresh), f"base-{pid}")
                if ans.result == SAT:
                    bad = [m for m in fresh if not sym.evaluate(ans.model, self._f(m, 1))]
                    if pid in bad:
                        return Outcome(False, note=f"{pid} fails right after a deal",
                                       queries=sym.queries - start_q,
                                       cti={"after": "deal"})
                    for m in bad:
                        members.remove(m)
                        self.dropped[m] = "fails after a deal"
                    continue
                if ans.result != UNSAT:
                    return Outcome(False, note=f"Z3 answered unknown ({ans.note})",
                                   queries=sym.queries - start_q)
                based |= set(fresh)
            for a in sym.actions:
                # the step property itself, then the members
                if not state_prop:
                    q = self._step(a, assume(), f"{pid} step with action {a}",
                                   f"unsat proves no {a} step breaks {pid}")
                    q.add("goal", sym.Not(sym.prop(pid, sym.A0, sym.A1)))
                    ch.progress(f"{pid}: step {a} ({len(members)} invariant(s) in use)")
                    ans = ch.ask(q, f"step-{pid}-{a}")
                    if ans.result == SAT:
                        if expand(ans.model, f"{a} breaks {pid}", [pid]):
                            changed = True
                            continue
                        return Outcome(False, queries=sym.queries - start_q,
                                       cti={"action": a, "breaks": [pid]},
                                       note=f"not inductive: from a state satisfying every "
                                            f"proved invariant, {a} breaks {pid} and no "
                                            "candidate invariant excludes that state")
                    if ans.result != UNSAT:
                        return Outcome(False, note=f"Z3 answered unknown ({ans.note})",
                                       queries=sym.queries - start_q)
                if not members:
                    continue
                q = self._step(a, assume(), f"invariants step with action {a}",
                               f"unsat proves {a} preserves every listed invariant")
                post = {m: self._f(m, 1) for m in members}
                q.add("goal", sym.Not(sym.And(*post.values())))
                ch.progress(f"{pid}: invariants step {a} ({len(members)} in use)")
                ans = ch.ask(q, f"inv-{pid}-{a}")
                if ans.result == SAT:
                    changed = True
                    bad = [m for m in members if not sym.evaluate(ans.model, post[m])]
                    # the property may seek support every time; a supporter once
                    fix = [m for m in bad if m == pid or m not in helped]
                    if fix and expand(ans.model, f"{a} breaks {', '.join(bad)}", fix):
                        helped.update(fix)
                        continue
                    if pid in bad:
                        return Outcome(False, queries=sym.queries - start_q,
                                       cti={"action": a, "breaks": [pid]},
                                       note=f"not inductive: from a state satisfying every "
                                            f"proved invariant, {a} breaks {pid} and no "
                                            "candidate invariant excludes that state")
                    for m in bad:
                        members.remove(m)
                        self.dropped[m] = f"not preserved by {a}"
                elif ans.result != UNSAT:
                    return Outcome(False, note=f"Z3 answered unknown ({ans.note})",
                                   queries=sym.queries - start_q)
            if not changed:
                break
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
        """The final proof queries, one per action, with minimised cores."""
        ch, sym = self.ch, self.sym
        assume = list(self.proven) + ([pid] if state_prop else [])

        def removable(lab: str) -> bool:
            return lab not in STRUCTURE

        for a in sym.actions:
            q = self._step(a, assume, f"1-induction step for {pid}: from any well-formed "
                                      f"state satisfying the invariants"
                                      + (f" and {pid}" if state_prop else "")
                                      + f", action {a} breaks {pid}",
                           f"unsat proves no {a} step can break {pid}")
            goal = (sym.Not(self._f(pid, 1)) if state_prop
                    else sym.Not(sym.prop(pid, sym.A0, sym.A1)))
            q.add("goal", goal)
            ch.progress(f"{pid}: proof query and core for {a}")
            ans = ch.ask(q, f"proof-{pid}-{a}")
            if ans.result != UNSAT:  # unsat after the fixpoint unless Z3 gave up
                out.proved = False
                out.note = f"the final proof query for {a} answered {ans.result} ({ans.note})"
                return
            budget = ch.core_budget()
            labels, complete = sym.minimise(q, removable, budget)
            out.cores_complete &= complete
            for lab in labels:
                if lab.startswith("inv:"):
                    name = lab[4:]
                    if name != pid and name not in out.used:
                        out.used.append(name)
                    continue
                for part in lab.split("+"):
                    if part in self.rule_ids:
                        if part not in out.rules:
                            out.rules.append(part)
                    elif part not in out.structure:
                        out.structure.append(part)


__all__ = ["Inductor", "Outcome"]
