"""ROUND_ENDS through Z3: a ranking function's proof, or a lasso found by BMC.

ROUND_ENDS says there is no cycle among the states after a Pass; the game has
finitely many states, so that is "every path after a Pass ends".  A liveness
property has no state formula to induct on: what the spec states instead is a
**ranking function** (``Property.ranking``, ``spec/properties.py``), a tuple of
integers over one state.  If every step from a post-Pass state to a post-Pass
state makes the tuple lexicographically smaller, and no component is negative
in a post-Pass state, no such cycle exists: around a cycle the tuple would be
smaller than itself.

1. On a big table (the full deck), first the invariants the scout table's
   ranking proof used (``Reproof.support``), each proved here by the re-proof
   of its own scouted plan; then the queries below assume those alone.  Where
   the scout table has no such proof, none is sought at the big table: step 4.
2. One query per action: a well-formed state satisfying the proved invariants,
   after a Pass, the action's step to a state after a Pass, and the tuple not
   smaller; and one query for a negative component.  Unsat for all proves it.
3. Sat gives a counterexample to the ranking, maybe unreachable: the candidate
   invariants false in its state are proved if they can be (Houdini, every
   other unproved candidate as possible support), and step 2 is asked again.
4. Otherwise bounded model checking looks for a **lasso**: a deal and ``k``
   moves, every state from move ``j`` on after a Pass, and the state after move
   ``k`` equal to the one after move ``j`` (the loop-closing condition).  The
   engine replays Z3's trace and must reach the same state twice before it is
   VIOLATED; else UNKNOWN, with the counterexample shown.

No z3 here: every solver interaction is in ``model/smt/queries.py``.
"""
from __future__ import annotations

from itcp.model.analysis.liveness import compile_observations
from itcp.model.smt.queries import Query, SolverResult
from itcp.spec.properties import Violation

from ..results import (
    Bounded,
    ConformanceBug,
    NotChecked,
    PropertyResult,
    Ranking,
    RankingCounterexample,
    Support,
    Verdict,
)
from .induction import PILE_WF, STRUCTURE
from .replayed import engine_replay, replayed_violation

#: rounds of "strengthen the invariants, ask again"
ROUNDS = 6


def region_of(prop):
    """Where a ranked property's ranking must fall: the one formula it observes
    (ROUND_ENDS: ``post_pass``, someone has passed this round)."""
    (_, region), = prop.observes
    return region


class RankingQueries:
    """The ranking queries of one property (``pid``) in one symbolic run ``ch``."""

    def __init__(self, ch, pid: str):
        self.ch, self.pid, self.sym = ch, pid, ch.sym
        self.prop = ch.props[pid]
        self.names = [n for n, _ in self.prop.ranking]
        exprs = [e for _, e in self.prop.ranking]
        sym = self.sym
        self.m0, self.m1 = sym.values(exprs, sym.A0), sym.values(exprs, sym.A1)
        region = region_of(self.prop)
        self.post0, self.post1 = sym.formula(region, sym.A0), sym.formula(region, sym.A1)
        self.region = region

    def _assumed(self, q: Query, invariants) -> None:
        sym, ind = self.sym, self.ch.inductor
        q.add("wf", sym.wf(sym.A0, "ranges"))
        for part, label in PILE_WF.items():
            q.add(label, sym.wf(sym.A0, part))
        for n in invariants:
            q.add(f"inv:{n}", ind._f(n, 0))
        q.add("post_pass", self.post0)

    def step_query(self, action: str, invariants) -> Query:
        sym = self.sym
        q = Query(f"{self.pid}: from a state after a Pass, {action} leads to a state after a "
                  "Pass without lowering the ranking function",
                  f"unsat proves every {action} step after a Pass lowers the ranking; sat "
                  "gives a counterexample to the ranking (maybe unreachable)")
        self._assumed(q, invariants)
        _, frags = sym.template(action)
        q.extend(frags)
        q.add("post_pass'", self.post1)
        q.add("goal", sym.Not(sym.lex_less(self.m1, self.m0)))
        return q

    def bound_query(self, invariants) -> Query:
        q = Query(f"{self.pid}: a state after a Pass where a component of the ranking is "
                  "negative", "unsat proves the ranking is bounded below by 0 after a Pass")
        self._assumed(q, invariants)
        q.add("goal", self.sym.Not(self.sym.all_at_least(self.m0, 0)))
        return q

    def ask(self, invariants):
        """(the answers, one per action then the bound, in ``labels`` order; labels)."""
        ch, sym, ind = self.ch, self.sym, self.ch.inductor
        labels = list(sym.actions) + ["bound"]
        queries = [(self.step_query(a, invariants), f"ranking-{self.pid}-{a}")
                   for a in sym.actions]
        queries.append((self.bound_query(invariants), f"ranking-{self.pid}-bound"))
        ch.progress(f"{self.pid}: the ranking function on every action "
                    f"({len(invariants)} invariants)")
        answers = ch.solve_all(iter(queries), ind.solver,
                               tracked=lambda lab: lab not in STRUCTURE)
        return answers, labels


def ranked(ch, pid: str, reachability: bool = True) -> PropertyResult:
    """A ranked property's verdict (ROUND_ENDS's) (see module doc); without ``reachability`` a
    counterexample no invariant excludes is not looked for as a lasso (a scout
    table wants a proof or nothing)."""
    prop, ind = ch.props[pid], ch.inductor
    if not prop.ranking:
        return ch.unknown(pid, NotChecked("the spec states no ranking function for it"))
    rk = RankingQueries(ch, pid)
    scouted = ch.reproof.support(pid)
    cti = None
    # on a big table whose scout table has no ranking proof, none is sought here
    # (the plain Houdini over every candidate takes Z3 many minutes at the full
    # deck): straight to the lasso
    rounds = 0 if ind.big and scouted is None else ROUNDS
    for _ in range(rounds):
        assumed = list(ind.proven) if scouted is None else scouted
        answers, labels = rk.ask(assumed)
        bad = [(lab, ans) for lab, ans in zip(labels, answers) if ans.result != SolverResult.unsat]
        if not bad:
            return _proved(ch, rk, assumed, answers, labels)
        if scouted is not None:   # not enough here: every proved invariant next
            scouted = None
            continue
        sat = [(lab, ans) for lab, ans in bad if ans.result == SolverResult.sat]
        if not sat:
            lab, ans = bad[0]
            return ch.unknown(pid, Bounded(f"Z3 answered unknown ({ans.note}) on {lab}"))
        lab, ans = sat[0]
        cti = _counterexample(rk, lab, ans.model)
        if not ind.exclude(ans.model):
            break
    v = lasso(ch, pid, ch.lasso_depth) if reachability else None
    if v is not None:
        return v
    why = ("the scout table has no proof by the ranking function, " if not rounds else
           "a step after a Pass that does not lower the ranking function satisfies every "
           "proved invariant, ")
    return ch.unknown(pid, RankingCounterexample(
        ch._bmc_done.get(pid, -1), rk.names, cti,
        why + "but " + (f"no lasso is reachable within {ch.lasso_depth} moves after any deal"
                        if reachability else "no lasso was looked for")))


def _counterexample(rk: RankingQueries, label: str, model) -> dict:
    """What a sat ranking query shows: the action, the state, the ranking before and after."""
    sym, game = rk.sym, rk.ch.game
    out = {"action": label, "state": game.describe(sym.decode(model, sym.A0)),
           "ranking_before": dict(zip(rk.names, sym.evaluated(model, rk.m0)))}
    if label != "bound":
        out["after"] = game.describe(sym.decode(model, sym.A1))
        out["ranking_after"] = dict(zip(rk.names, sym.evaluated(model, rk.m1)))
    return out


def _proved(ch, rk: RankingQueries, assumed, answers, labels) -> PropertyResult:
    """HOLDS from unsat ranking queries: the rules and invariants of their cores."""
    rules, used = [], []
    for ans in answers:
        for lab in ans.core or ():
            for part in lab.split("+"):
                if part.startswith("inv:"):
                    if part[4:] not in used:
                        used.append(part[4:])
                elif part in ch.rule_ids and part not in rules:
                    rules.append(part)
    ind = ch.inductor
    return ch.result(rk.pid, Verdict.HOLDS, Ranking(rk.names, Support(
        rules, ch.scope,
        "every step between two states after a Pass makes the ranking function "
        "(a tuple of integers, compared first component first) smaller, and no "
        "component is negative after a Pass, so no cycle of post-Pass states "
        "exists; the rules and invariants are those of Z3's cores (not minimised)",
        used, {n: ind.proven[n][0] for n in used if n in ind.proven})))


def lasso(ch, pid: str, depth: int) -> PropertyResult | None:
    """A lasso within ``depth`` moves after the deal, replayed by the engine, or None."""
    sym = ch.sym
    region = region_of(ch.props[pid])
    start = max(ch._bmc_done.get(pid, 0), 1)
    for d in range(start, depth + 1):
        ch.progress(f"{pid}: a lasso of {d} moves")
        q = Query(f"BMC: a deal and {d} moves whose last state repeats an earlier one, "
                  "every state in between after a Pass",
                  f"unsat proves no lasso of {d} moves (every deal); sat gives one")
        x0, dparams, states, steps = ch.unrolled(q, d)
        post = [sym.formula(region, s) for s in states]
        # loop from state j: post-Pass from j to d, and state d equal to state j
        q.add("goal", sym.Or(*[sym.And(*post[j:], sym.same(states[j], states[d]))
                               for j in range(d)]))
        ans = ch.ask(q, f"lasso-{pid}-d{d}")
        if ans.result == SolverResult.unsat:
            ch._bmc_done[pid] = d
            continue
        if ans.result != SolverResult.sat:
            return None
        return _replayed(ch, pid, ans.model, dparams, states, steps)
    return None


def _replayed(ch, pid, model, dparams, states, steps) -> PropertyResult:
    game, sym = ch.game, ch.sym
    prop = ch.props[pid]
    deal = sym.decode_action(model, "deal", dparams)
    actions = [sym.decode_step(model, c) for c in steps]
    replayed = engine_replay(game, deal, actions, what="lasso")
    if replayed.problem is not None:
        return ch.unknown(pid, ConformanceBug(replayed.problem))
    eng = replayed.states
    d = len(actions)
    entry = next((j for j in range(d) if eng[j] == eng[d]), None)
    post = compile_observations(game.spec)[0]
    if entry is None or not all(post(x) for x in eng[entry:]):
        return ch.unknown(pid, ConformanceBug(
            "the engine's replay of Z3's lasso does not come back to an earlier state"))
    ending = prop.tell(Violation(game, eng[d], loop_entry=entry))
    return replayed_violation(game, prop, eng, actions, ending,
                              "the engine reproduces the lasso: the state after the last "
                              f"move is the one after move {entry}", loop_from=entry + 1)


__all__ = ["ranked", "lasso", "RankingQueries", "region_of"]
