"""NO_DEADLOCK through Z3: a live state with no legal move, or a proof there is none.

Why a separate step: a deadlock is not a state property the spec can write (it
quantifies over every action and its arguments), so the query is assembled here
from each action's guards (``Symbolic.can_move``, arguments enumerated):

0. On a big table (the full deck), first the invariants a scout table's proof
   of NO_DEADLOCK used (``Reproof.support``): each is proved here by
   the re-proof of its own scouted plan, and step 1 assumes those alone; if
   step 1 is not unsat with them, on as below.  If the scout table has no
   proof, straight to step 3.
1. Ask for a well-formed state satisfying the proved invariants, not terminal,
   where no action can move.  Unsat proves that every reachable live state has a
   legal move (the invariants cover every reachable state).
2. Sat gives a candidate.  If candidate invariants are false in it, they are
   proved (Houdini, with every other unproved candidate as possible support)
   and the question asked again: the candidate may be unreachable.
3. Otherwise the candidate is only a candidate: bounded model checking looks for
   a reachable deadlock from the deal; the engine replays any it finds and must
   agree that no move is legal before it is called VIOLATED.  Else UNKNOWN,
   with the candidate state shown.

No z3 here: every solver interaction is in ``model/smt/queries.py``.
"""
from __future__ import annotations

from itcp.model.smt.queries import Query, SolverResult

from ..results import (
    Bounded,
    ConformanceBug,
    DeadlockCandidate,
    DeadlockProof,
    PropertyResult,
    Support,
    Verdict,
)
from .induction import subset_query
from .replayed import engine_replay, replayed_violation

#: rounds of "strengthen the invariants, ask again"
ROUNDS = 4


def _stuck(sym, actions, s=None):
    """Labelled parts: no action can move in ``s`` (A0 if None); and the actions
    whose arguments could not be enumerated (treated as unable to move)."""
    parts, skipped = [], []
    for a in actions:
        can, _ = sym.can_move(a)
        if can is None:
            skipped.append(a)
            continue
        parts.append((f"stuck:{a}", sym.Not(can if s is None else sym.at(can, s))))
    return parts, skipped


def no_deadlock(ch, pid: str, reachability: bool = True) -> PropertyResult:
    """NO_DEADLOCK's verdict (see module doc); without ``reachability`` a candidate
    no invariant excludes is not looked for by BMC (UNKNOWN at once: a scout
    table wants a proof or nothing)."""
    sym, spec, game = ch.sym, ch.spec, ch.game
    terminal = [p.value for p in spec.phases if p.terminal]
    ind = ch.inductor
    stuck, skipped = _stuck(sym, sym.actions)
    witness = None
    # on a big table, first the invariants a scout table's proof used (each proved
    # here), and only those assumed: unsat with fewer assumptions is unsat with all
    scouted = ch.reproof.support(pid)
    # on a big table whose scout table has no proof (there it has a dead end, or
    # its invariants fail here), none is sought here: the plain Houdini over
    # every candidate takes Z3 many minutes at the full deck (``official`` at four
    # players: UNKNOWN after 480 s). Straight to the bounded search, as ROUND_ENDS
    # goes straight to its lasso
    rounds = 0 if ind.big and scouted is None and reachability else ROUNDS
    for _ in range(rounds):
        assumed = list(ind.proven) if scouted is None else scouted
        q = Query(f"{pid}: a well-formed state satisfying the proved invariants, not terminal, "
                  "in which no action can move",
                  "unsat proves every reachable live state has a legal move; sat gives a "
                  "candidate deadlock, then checked for reachability")
        q.add("wf", sym.wf(sym.A0))
        for n in assumed:
            q.add(f"inv:{n}", ind._f(n, 0))
        q.add("live", sym.Not(sym.phase_in(sym.A0, terminal)))
        q.extend(stuck)
        ch.progress(f"{pid}: a live state without a move ({len(ind.proven)} invariants)")
        ans = ch.ask(q, f"deadlock-{pid}")
        if ans.result == SolverResult.unsat:
            return _proved(ch, pid, q, skipped, scouted is not None)
        if scouted is not None:   # not enough here: every proved invariant next
            scouted = None
            continue
        if ans.result != SolverResult.sat:
            return ch.unknown(pid, Bounded(f"Z3 answered unknown ({ans.note})"))
        witness = sym.decode(ans.model, sym.A0)
        if not ind.exclude(ans.model):
            break
    # a candidate no proved invariant excludes: is a deadlock reachable?
    v = _bmc(ch, pid, terminal, ch.depth) if reachability else None
    if v is not None:
        return v
    return ch.unknown(pid, DeadlockCandidate(
        ch._bmc_done.get(pid, -1), game.describe(witness) if witness is not None else None,
        ("the scout table has no proof of it, and no " if not rounds else
         "a live state without a legal move satisfies every proved invariant, but no ")
        + (f"deadlock is reachable within {ch.depth} moves after any deal; whether one "
           "is reachable later is not known" if reachability else
           "search for a reachable one was made")))


def _proved(ch, pid: str, q: Query, skipped: list, scouted: bool = False) -> PropertyResult:
    """HOLDS from the unsat deadlock query ``q``: its invariants minimised (with
    ``scouted``, those of the scout table's proof, minimised there: kept as they
    are, each re-proved here), the rules every action's guards."""
    sym, ind = ch.sym, ch.inductor
    if scouted:
        labels = [lab for lab, _ in q.parts if lab.startswith("inv:")]
        return _holds(ch, pid, [lab[4:] for lab in labels], skipped,
                      "minimised at the scout table, each proved again here",
                      "the invariants are those the scout table's proof used, minimised "
                      "there (not again here); the query here is unsat with them alone")
    # each heavy invariant (point sums, counts) dropped first if the query stays
    # unsat without it: a light one that does as well is what is kept, and what a
    # big table proves again (``Reproof.support``) stays cheap
    for heavy in [lab for lab, _ in q.parts if lab.startswith("inv:") and ind.heavy(lab[4:])]:
        light = subset_query(q, lambda lab, h=heavy: lab != h, f"without {heavy}")
        if ch.ask(light, f"deadlock-{pid}-without-{heavy[4:]}").result == SolverResult.unsat:
            q = light
    labels, done = sym.minimise(q, lambda lab: lab.startswith("inv:"), ch.core_budget())
    core_note = None if done else "time ran out while minimising the invariants"
    return _holds(ch, pid, [lab[4:] for lab in labels], skipped, "minimised", core_note)


def _holds(ch, pid: str, used: list, skipped: list, minimised: str,
           core_note: str | None) -> PropertyResult:
    """The HOLDS verdict of a deadlock query unsat with the invariants ``used``."""
    sym, ind = ch.sym, ch.inductor
    rules = []
    for a in sym.actions:
        for r in sym.can_move(a)[1]:
            if r in ch.rule_ids and r not in rules:
                rules.append(r)
    note = ("no state satisfying the proved invariants is live without a legal "
            "move; the rules are the guards of every action (the invariants are "
            f"{minimised})")
    if skipped:
        note += (f"; {', '.join(skipped)} counted as unable to move (its "
                 "arguments are not enumerated), which only makes the proof harder")
    return ch.result(pid, Verdict.HOLDS, DeadlockProof(Support(
        rules, ch.scope, note, used, {n: ind.proven[n][0] for n in used}, core_note)))


def _bmc(ch, pid, terminal, depth):
    sym, game = ch.sym, ch.game
    for d in range(0, depth + 1):
        ch.progress(f"{pid}: BMC depth {d}")
        q = Query(f"BMC: a reachable live state without a legal move, {d} move(s) after the deal",
                  f"unsat proves no deadlock at depth {d} (every deal); sat gives a trace")
        x0, dparams, states, steps = ch.unrolled(q, d)
        q.add("live", sym.Not(sym.phase_in(states[-1], terminal)))
        parts, _ = _stuck(sym, sym.actions, states[-1])
        q.extend(parts)
        ans = ch.ask(q, f"bmc-{pid}-d{d}")
        ch._bmc_done[pid] = d if ans.result == SolverResult.unsat else d - 1
        if ans.result != SolverResult.sat:
            if ans.result != SolverResult.unsat:
                return None
            continue
        m = ans.model
        deal = sym.decode_action(m, "deal", dparams)
        actions = [sym.decode_step(m, c) for c in steps]
        replayed = engine_replay(game, deal, actions)
        eng, problem = replayed.states, replayed.problem
        if problem is None and (game.legal_actions(eng[-1]) or game.is_terminal(eng[-1])):
            problem = "the engine has a legal move where Z3 found none"
        if problem:
            return ch.unknown(pid, ConformanceBug(problem))
        return replayed_violation(game, ch.props[pid], eng, actions,
                                  "no legal move: the round is stuck",
                                  "the engine reproduces the deadlock")
    return None


__all__ = ["no_deadlock"]
