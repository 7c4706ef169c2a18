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
  formulas (below) and proved first: the largest subset that holds after every
  deal and is preserved by every action, each assuming the others (Houdini).
  A proof reports the minimised unsat cores' rule ids and the invariants used.

No z3 here: every solver interaction is in ``model/smt_checks.py``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from itcp.model.engine import Game
from itcp.spec import ast as A
from itcp.model.smt_checks import SAT, UNSAT, Query, Symbolic
from itcp.spec.lang import And, Exists, ForAll, Implies, Not, Or
from itcp.spec.rules.table import (DISCARD, DRAW, LIVE, OVER, PRIDE, RACE, REVEAL, SECRET, DECK,
                                   Table)

from . import story as S
from .verdicts import HOLDS, UNKNOWN, VIOLATED, Verdict

DEFAULT_DEPTH = 6
MAX_K = 1
#: on small tables (<= 16 cards) BMC runs to this depth before induction is tried
QUICK_DEPTH = 4


# -- candidate strengthening invariants (spec-level state formulas) -------------------

def candidates(spec) -> dict:
    """name -> (statement, formula): simple structural facts the induction may use.

    Only those proved (hold after every deal, preserved by every action given
    the others) are ever assumed."""
    t = Table(spec.config)
    phases = [p.value for p in spec.phases]
    player_phases = [p for p in (REVEAL, DRAW, DISCARD, PRIDE, SECRET) if p in phases]
    in_play = Or(*[t.phase.eq(p) for p in player_phases])
    mid_round = Or(*[t.phase.eq(p) for p in (REVEAL, DRAW, DECK, DISCARD, RACE, PRIDE, SECRET)
                     if p in phases])
    no_passer = t.passers.is_empty()
    deal_phase = next((p.value for p in spec.phases if p.name == "DEAL"), 0)
    initial = And(*[A.Var(v.name, v.type).eq(spec.initial[v.name]) for v in spec.variables])
    c = {
        "DEAL_IS_INITIAL": ("before the deal the state is the initial one",
                            Implies(t.phase.eq(deal_phase), initial)),
        "PHASE_DECLARED": ("the phase is one of the declared phases",
                           Or(*[t.phase.eq(v) for v in phases])),
        "FIRST_PASSER_IFF_PASSERS": ("first_passer is nobody exactly when nobody has passed",
                                     Or(And(t.first_passer.eq(t.NOBODY), no_passer),
                                        And(Not(t.first_passer.eq(t.NOBODY)), Not(no_passer)))),
        "FIRST_PASSER_IN_PASSERS": ("the first passer is a passer",
                                    Implies(Not(t.first_passer.eq(t.NOBODY)),
                                            t.first_passer.in_(t.passers))),
        "AT_MOST_ONE_PASSER": ("at most one player has passed", t.passers.count() <= 1),
        "PRIDE_LEFT_NOT_PASSERS": ("no passer is among the Pride Cycle givers still to choose",
                                   (t.pride_left & t.passers).is_empty()),
        "PRIDE_LEFT_ONLY_IN_PRIDE": ("mid-round, Pride Cycle givers are pending only in the "
                                     "PRIDE phase",
                                     Implies(And(mid_round, Not(t.phase.eq(PRIDE))),
                                             t.pride_left.is_empty())),
        "SOMEONE_SEATED": ("not every seat is set aside", Not((t.ALLP - t.aside).is_empty())),
        "ACTOR_IN_RING": ("in a player phase the actor is seated and plays their own hand",
                          Implies(in_play, And(Not(t.actor.in_(t.aside)),
                                               t.hand_of[t.actor].eq(t.actor)))),
        "ACTOR_IS_TURN_DRAWING": ("while drawing, the actor is the turn player",
                                  Implies(Or(t.phase.eq(DRAW), t.phase.eq(DECK)),
                                          t.actor.eq(t.turn))),
        "DIR_UNIT": ("the direction of play is +1 or -1", Or(t.dir.eq(1), t.dir.eq(-1))),
        "PASSER_HAND_EXCLUSIVE": ("no seated player other than a passer plays the passer's hand",
                                  ForAll(t.passers, lambda p: ForAll(
                                      t.ALLP - t.aside, lambda q: Or(q.eq(p), Not(
                                          t.hand_of[q].eq(t.hand_of[p]))), hint="d"), hint="c")),
        "PASSERS_IN_RING": ("a passer is seated and plays their own hand",
                            ForAll(t.passers, lambda p: And(t.hand_of[p].eq(p),
                                                            Not(p.in_(t.aside))), hint="c")),
        "NOT_OWN_MEANS_ASIDE": ("a player who plays another seat's hand is set aside",
                                ForAll(t.ALLP, lambda p: Or(t.hand_of[p].eq(p), p.in_(t.aside)),
                                       hint="c")),
        "ACTOR_SET": ("in a player phase someone is to act",
                      Implies(in_play, Not(t.actor.eq(t.NOBODY)))),
        "ACTOR_SEATED": ("in a player phase the actor is not set aside",
                         Implies(in_play, Not(t.actor.in_(t.aside)))),
        "ACTOR_NOT_PASSER": ("a passer never has to discard, give or choose a team hand",
                             Implies(Or(t.phase.eq(DISCARD), t.phase.eq(PRIDE),
                                        t.phase.eq(SECRET)),
                                     Not(t.actor.in_(t.passers)))),
        "DRAW_ACTOR_NOT_PASSER": ("a passer is never asked to draw while the round is live",
                                  Implies(t.phase.eq(DRAW), Not(t.actor.in_(t.passers)))),
        "TURN_NOT_PASSER_MIDTURN": ("a passer is not the turn player in the middle of a turn",
                                    Implies(Or(t.phase.eq(DECK), t.phase.eq(DISCARD)),
                                            Not(t.turn.in_(t.passers)))),
        "HAND_OF_SEAT": ("every player plays some seat's hand",
                         ForAll(t.ALLP, lambda p: Not(t.hand_of[p].eq(t.NOBODY)), hint="c")),
        "HAND_OF_ROOT": ("the seat whose hand a player plays plays its own hand",
                         ForAll(t.ALLP, lambda p: t.hand_of[t.hand_of[p]].eq(t.hand_of[p]),
                                hint="c")),
        "PASSERS_OWN_HAND": ("a passer plays their own hand, and nobody else plays it",
                             ForAll(t.ALLP, lambda p: Implies(
                                 Or(p.in_(t.passers), t.hand_of[p].in_(t.passers)),
                                 t.hand_of[p].eq(p)), hint="c")),
        "PASSERS_NOT_ASIDE": ("no passer is set aside", (t.passers & t.aside).is_empty()),
        "ASIDE_NOT_OWN": ("a set-aside seat plays another seat's hand",
                          ForAll(t.aside, lambda p: Not(t.hand_of[p].eq(p)), hint="c")),
        "PASSER_NO_GIFT": ("a passer has no Pride Cycle gift pending",
                           ForAll(t.passers, lambda p: t.gifts[p].eq(t.NOCARD), hint="c")),
        "GIFTS_ONLY_IN_PRIDE": ("mid-round, gifts are pending only in the PRIDE phase",
                                Implies(And(mid_round, Not(t.phase.eq(PRIDE))), ForAll(
                                    t.ALLP, lambda p: t.gifts[p].eq(t.NOCARD), hint="c"))),
        "GIFT_ONLY_FROM_GIVEN": ("only a giver who has chosen holds a pending gift",
                                 ForAll(t.ALLP, lambda p: Implies(
                                     Not(t.gifts[p].eq(t.NOCARD)),
                                     Not(p.in_(t.pride_left))), hint="c")),
        "DUTY_NOT_ON_PASSER": ("the Justice duty never falls on a passer",
                               Not(t.duty_on.in_(t.passers))),
        "LIVE_UNTIL_OVER": ("the round has an end reason only once it is over",
                            Implies(mid_round, t.ended.eq(LIVE))),
        "OVER_HAS_REASON": ("a round that is over says why",
                            Implies(t.phase.eq(OVER), Not(t.ended.eq(LIVE)))),
        "NO_ZERO_MID_ROUND": ("no player is at zero points in the middle of a round",
                              Implies(mid_round, Not(t.any_zero(t.hands, t.hand_of)))),
        "PILE_NONEMPTY_IN_PLAY": ("after the deal the discard pile or a hand holds a card",
                                  Implies(in_play, Exists(t.ALLP, lambda p: Not(
                                      t.hands[p].is_empty()), hint="c"))),
    }
    # generic facts: a variable that never leaves its initial value, a phase never entered
    for v in spec.variables:
        if v.name != "phase":
            c[f"CONST_{v.name.upper()}"] = (f"{v.name} keeps its initial value",
                                            A.Var(v.name, v.type).eq(spec.initial[v.name]))
    for ph in spec.phases:
        if ph.name not in ("DEAL", "OVER"):
            c[f"NEVER_{ph.name}"] = (f"the phase is never {ph.name}", Not(t.phase.eq(ph.value)))
    # the state properties themselves are candidates too: a proved one can help another
    for p in spec.properties:
        if p.kind == "state" and p.formula is not None:
            c.setdefault(p.id, (p.statement, p.formula))
    return c


# -- results -------------------------------------------------------------------------

@dataclass
class Stats:
    queries: int = 0
    solver_seconds: float = 0.0
    seconds: float = 0.0
    bmc_depth: int = 0
    invariants: list = field(default_factory=list)
    dropped: dict = field(default_factory=dict)
    smt2_files: int = 0

    def as_json(self) -> dict:
        return {"queries": self.queries, "solver_seconds": round(self.solver_seconds, 3),
                "seconds": round(self.seconds, 3), "bmc_depth": self.bmc_depth,
                "invariants": self.invariants, "smt2_files": self.smt2_files}


class _Out(Exception):
    """The time budget ran out."""


class SymbolicChecker:
    def __init__(self, game: Game, depth: int | None = None, timeout: float | None = None,
                 emit_dir: str | None = None, max_k: int = MAX_K, progress=None,
                 candidate_names=None):
        self.game, self.spec = game, game.spec
        self.depth = DEFAULT_DEPTH if depth is None else depth
        self.timeout = timeout
        self.max_k = max_k
        self.start = time.monotonic()
        self.deadline = None if timeout is None else self.start + timeout
        self.sym = Symbolic(self.spec, None, emit_dir)
        self.props = {p.id: p for p in self.spec.properties}
        self.rule_ids = {r.id for r in self.spec.rules}
        self.scope = (f"every state satisfying the invariants, at this table "
                      f"({self.spec.config.describe()})")
        self._inv: dict | None = None
        self._dropped: dict = {}
        self._bmc_done: dict = {}  # pid -> depth checked without violation
        self.progress = progress or (lambda msg: None)
        self.candidate_names = candidate_names
        # BMC depth tried before induction: only where the table is small
        self.quick_depth = QUICK_DEPTH if self.spec.config.n_cards <= 16 else 0

    # -- budget -------------------------------------------------------------------
    def budget(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _Out()
        return left

    def ask(self, q: Query, slug: str, core: bool = False):
        ans = self.sym.ask(q, slug, core, self.budget())
        if ans.result not in (SAT, UNSAT) and self.deadline is not None \
                and time.monotonic() >= self.deadline:
            raise _Out()
        return ans

    # -- the initial states: Init then one deal -----------------------------------
    def _dealt(self, q: Query):
        sym = self.sym
        x0, x1 = sym.state("x0"), sym.state("x1")
        q.add("init", sym.init(x0))
        params, frags = sym.next(x0, "deal", x1, "deal_")
        q.extend(frags)
        return x0, x1, params

    # -- BMC ------------------------------------------------------------------------
    def bmc(self, pid: str, upto: int):
        """Look for a violation of ``pid`` within ``upto`` moves after the deal.
        Returns a Verdict for a violation (or conformance bug), else None."""
        prop = self.props[pid]
        sym = self.sym
        d0 = self._bmc_done.get(pid, -1) + 1
        for d in range(d0, upto + 1):
            if prop.kind == "step" and d == 0:
                self._bmc_done[pid] = 0
                continue
            self.progress(f"{pid}: BMC depth {d}")
            q = Query(f"BMC: a violation of {pid} exactly {d} move(s) after the deal",
                      f"unsat proves no violation of {pid} at depth {d} (every deal); "
                      "sat gives a counterexample trace")
            x0, x1, dparams = self._dealt(q)
            states, steps = [x1], []
            for i in range(d):
                nxt = sym.state(f"x{i + 2}")
                choices, parts = sym.step_any(states[-1], nxt, f"s{i + 1}")
                q.extend(parts)
                steps.append(choices)
                states.append(nxt)
            if prop.kind == "step":
                q.add("goal", sym.Not(sym.prop(pid, states[-2], states[-1])))
            else:
                q.add("goal", sym.Not(sym.prop(pid, states[-1])))
            ans = self.ask(q, f"bmc-{pid}-d{d}")
            if ans.result == SAT:
                return self._replay(pid, ans.model, x0, x1, dparams, states, steps)
            if ans.result != UNSAT:
                return Verdict(pid, UNKNOWN, "symbolic", prop.statement, {
                    "kind": "bounded", "limit": f"Z3 answered unknown ({ans.note})",
                    "depth": d - 1})
            self._bmc_done[pid] = d
        return None

    def _replay(self, pid, model, x0, x1, dparams, states, steps) -> Verdict:
        game, sym = self.game, self.sym
        prop = self.props[pid]
        pre = sym.decode(model, x0)
        deal = sym.decode_action(model, "deal", dparams)
        decoded = [sym.decode(model, s) for s in states]
        actions = [sym.decode_step(model, ch) for ch in steps]
        problem, eng = None, []
        try:
            if pre != game.initial_state():
                problem = "the decoded pre-deal state is not the engine's initial state"
            s = game.apply(game.initial_state(), deal)
            if s != decoded[0]:
                problem = problem or "the engine deals a different state than Z3"
            eng = [decoded[0]]
            s = decoded[0]
            for i, a in enumerate(actions):
                s = game.apply(s, a)
                eng.append(s)
                if s != decoded[i + 1] and problem is None:
                    problem = (f"step {i + 1} ({game.action_str(a)}): the engine's successor "
                               "differs from Z3's")
        except Exception as e:  # an action Z3 allows that the engine refuses
            problem = f"the engine refused a step of Z3's trace: {e}"
        if problem is None:
            if prop.kind == "step":
                ok = game.check_property(pid, eng[-2], eng[-1])
            else:
                ok = game.check_property(pid, eng[-1])
            if ok:
                problem = "the engine's replay does not violate the property"
        if problem is not None:
            return Verdict(pid, UNKNOWN, "symbolic", prop.statement, {
                "kind": "conformance_bug", "note": problem,
                "deal": list(deal[1]), "actions": [[a[0], list(a[1])] for a in actions],
                "z3_states": decoded})
        from .verdicts import _frozen_ending, _state_ending

        class _G:  # the endings only read .game
            pass
        shim = _G()
        shim.game = game
        if prop.kind == "step":
            ending = (_frozen_ending(shim, eng[-2], actions[-1], eng[-1]) if pid == "FROZEN"
                      else f"{pid} violated")
        else:
            ending = _state_ending(shim, pid, eng[-1])
        full = [(eng[i], actions[i], eng[i + 1]) for i in range(len(actions))]
        told = S.story(game, eng[0], full, ending)
        told["length"] = len(actions)
        told["itf"] = S.itf(game, eng, actions, ending)
        told["replayed"] = True
        ev = {"kind": "bmc", "length": len(actions), "depth": len(actions),
              "replayed": "the engine reproduces the violation",
              "rules": sorted({r for st in told["steps"] for r in st["rules"]}),
              "readings": {k: v for st in told["steps"] for k, v in st["readings"].items()},
              "story": told["story"]}
        return Verdict(pid, VIOLATED, "symbolic", prop.statement, ev, told)

    # -- induction --------------------------------------------------------------------
    def _step_query(self, title, meaning, assume, k: int, action: str, goal_fn,
                    assume_prop=None):
        """States y0..yk, wf + ``assume`` (label -> formula fn) on all, k-1 arbitrary
        steps then ``action``; ``assume_prop`` on the first k states/steps; goal on the last."""
        sym = self.sym
        q = Query(title, meaning)
        ys = [sym.state(f"y{i}") for i in range(k + 1)]
        for i, y in enumerate(ys[:-1]):
            q.add("wf", sym.wf(y))
            for lab, fn in assume:
                q.add(lab, fn(y))
        for i in range(k - 1):
            _, parts = sym.step_any(ys[i], ys[i + 1], f"k{i}")
            q.extend(parts)
        _, frags = sym.next(ys[-2], action, ys[-1], "last_")
        q.extend(frags)
        if assume_prop is not None:
            lab, fn, kind = assume_prop
            if kind == "step":
                for i in range(k - 1):
                    q.add(lab, fn(ys[i], ys[i + 1]))
            else:
                for i in range(k):
                    q.add(lab, fn(ys[i]))
        q.add("goal", goal_fn(ys[-2], ys[-1]))
        return q, ys

    def invariants(self) -> dict:
        """The proved candidate invariants: name -> (statement, formula)."""
        if self._inv is not None:
            return self._inv
        sym = self.sym
        cand = dict(candidates(self.spec))
        if self.candidate_names is not None:
            cand = {n: x for n, x in cand.items() if n in self.candidate_names}
        dropped = self._dropped
        # base: each holds in every state right after the deal
        while cand:
            self.progress(f"invariants: base case ({len(cand)} candidates)")
            q = Query("Houdini base: some candidate invariant fails right after a deal",
                      "unsat proves every remaining candidate holds after every deal")
            x0, x1, _ = self._dealt(q)
            vals = {n: sym.formula(f, x1) for n, (_, f) in cand.items()}
            q.add("goal", sym.Not(sym.And(*vals.values())))
            ans = self.ask(q, "houdini-base")
            if ans.result == UNSAT:
                break
            if ans.result != SAT:
                raise _Out()
            bad = [n for n, v in vals.items() if not sym.holds(ans.model, v)]
            for n in bad:
                dropped[n] = "fails after a deal"
                cand.pop(n)
        # step: preserved by every action given all the others
        changed = True
        while changed and cand:
            changed = False
            for a in self.sym.actions:
                while cand:
                    self.progress(f"invariants: step {a} ({len(cand)} candidates)")
                    names = list(cand)
                    fns = [(f"inv:{n}", (lambda f: lambda y: sym.formula(f, y))(cand[n][1]))
                           for n in names]
                    post = {}

                    def goal(y0, y1, names=names, post=post):
                        for n in names:
                            post[n] = sym.formula(cand[n][1], y1)
                        return sym.Not(sym.And(*post.values()))
                    q, ys = self._step_query(
                        f"Houdini step: action {a} breaks a candidate invariant",
                        "unsat proves the candidates are preserved by this action", fns, 1, a,
                        goal)
                    ans = self.ask(q, f"houdini-{a}")
                    if ans.result == UNSAT:
                        break
                    if ans.result != SAT:
                        raise _Out()
                    bad = [n for n in names if not sym.holds(ans.model, post[n])]
                    for n in bad:
                        dropped[n] = f"not preserved by {a}"
                        cand.pop(n)
                    changed = True
        self._inv = cand
        return cand

    def induct(self, pid: str):
        """A k-induction proof of ``pid`` (Verdict HOLDS) or None."""
        prop = self.props[pid]
        sym = self.sym
        inv = {n: v for n, v in self.invariants().items() if n != pid}
        assume = [(f"inv:{n}", (lambda f: lambda y: sym.formula(f, y))(f))
                  for n, (_, f) in inv.items()]
        for k in range(1, self.max_k + 1):
            # base case: BMC to depth k
            v = self.bmc(pid, k)
            if v is not None:
                return v
            rules, invs, other, ok, secs = [], [], [], True, 0.0
            core_missing = []
            for a in sym.actions:
                self.progress(f"{pid}: induction k={k}, last action {a}")
                if prop.kind == "step":
                    goal = lambda y0, y1: sym.Not(sym.prop(pid, y0, y1))
                    ap = (f"assume:{pid}", lambda y0, y1: sym.prop(pid, y0, y1), "step")
                else:
                    goal = lambda y0, y1: sym.Not(sym.prop(pid, y1))
                    ap = (f"assume:{pid}", lambda y: sym.prop(pid, y), "state")
                q, _ = self._step_query(
                    f"{k}-induction step for {pid}: from any well-formed state satisfying the "
                    f"invariants, {k} step(s) ending with action {a} violate {pid}",
                    f"unsat proves no {a} step can break {pid} (given the invariants)",
                    assume, k, a, goal, ap)
                ans = self.ask(q, f"induct-{pid}-k{k}-{a}", core=True)
                secs += ans.seconds
                if ans.result != UNSAT:
                    ok = False
                    break
                if ans.core is None:
                    core_missing.append(a)
                for lab in ans.core or []:
                    if lab.startswith("inv:"):
                        if lab[4:] not in invs:
                            invs.append(lab[4:])
                    elif lab in self.rule_ids:
                        if lab not in rules:
                            rules.append(lab)
                    elif lab not in other:
                        other.append(lab)
            if ok:
                ev = {"kind": "inductive", "k": k, "rules": rules, "invariants": invs,
                      "structure": other, "scope": self.scope,
                      "invariant_statements": {n: inv[n][0] for n in invs},
                      "note": "the invariants are proved together: each holds after every "
                              "deal and every action preserves it given the others"}
                if core_missing:
                    ev["core_note"] = ("Z3 proved unsat but gave no core for "
                                       + ", ".join(core_missing) + " within the time limit")
                return Verdict(pid, HOLDS, "symbolic", prop.statement, ev)
        return None

    # -- all of it ------------------------------------------------------------------
    def check(self, pid: str) -> Verdict:
        prop = self.props[pid]
        if prop.formula is None or prop.kind == "graph":
            return Verdict(pid, UNKNOWN, "symbolic", prop.statement, {
                "kind": "not_checked",
                "note": "a graph property: the symbolic engine does not decide it yet "
                        "(use --engine explicit or all)"})
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
            return Verdict(pid, UNKNOWN, "symbolic", prop.statement, {
                "kind": "bounded", "depth": d, "limit": f"--depth {self.depth}",
                "note": f"no violation within {d} moves after any deal; not provable by "
                        f"k-induction up to k={self.max_k} with the proved invariants",
                "invariants": list(self.invariants())})
        except _Out:
            d = self._bmc_done.get(pid, -1)
            return Verdict(pid, UNKNOWN, "symbolic", prop.statement, {
                "kind": "bounded", "depth": d, "limit": f"--timeout {self.timeout}",
                "note": f"time ran out; no violation within {d} moves after any deal"})

    def stats(self) -> Stats:
        st = Stats(self.sym.queries, self.sym.solver_seconds, time.monotonic() - self.start,
                   max(self._bmc_done.values(), default=-1),
                   list(self._inv or {}), dict(self._dropped), len(self.sym.emitted))
        return st


def symbolic_verdicts(game: Game, wanted=None, depth=None, timeout=None, emit_dir=None,
                      progress=None):
    """(verdicts, stats) for the properties ``wanted`` (all by default)."""
    ch = SymbolicChecker(game, depth, timeout, emit_dir, progress=progress)
    out = [ch.check(p.id) for p in game.spec.properties if not wanted or p.id in wanted]
    return out, ch.stats()


__all__ = ["symbolic_verdicts", "SymbolicChecker", "candidates", "DEFAULT_DEPTH"]
