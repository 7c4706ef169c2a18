"""Replaying a scenario on the engine, and telling it as a story (in the words of
the one narrator, ``story.py``).

``replay`` deals the scenario's hands, applies each move with validation, and
checks the expectation.  A move the game refuses is explained by the rules
that refuse it: the wrong moment (phase), a choice outside what the action
allows (a card not in hand), or the guard fragments that are false, each
evaluated alone by the reference evaluator.  An illegal move the scenario did
not expect is a bad file (``ScenarioError`` naming file, line and step); an
expectation that does not come out is a failed ``Result``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from itcp.model.engine import runtime
from itcp.model.engine.engine import CHANCE, TERMINAL
from itcp.model.engine.reference import Evaluator
from itcp.spec import ast as A
from itcp.spec.ast import Call
from itcp.spec.errors import IllegalAction, ScenarioError
from itcp.spec.lang import Guard
from itcp.spec.rules.vocabulary import END_NAMES, PHASE_NAMES

from .format import Scenario, load_scenario
from .story import changes, describe_deal, rule_lines, say, who
from .watch import property_verdict


@dataclass
class Refusal:
    """Why a move is illegal: (rule id or None, plain words) per reason."""
    reasons: list[tuple[str | None, str]]

    @property
    def rules(self) -> list[str]:
        return [r for r, _ in self.reasons if r]

    def text(self) -> str:
        return "; ".join(f"{why} [{r}]" if r else why for r, why in self.reasons)


@dataclass
class Result:
    scenario: Scenario
    ok: bool
    message: str
    states: list = field(default_factory=list)  # the dealt state, then one per legal move
    refusal: Refusal | None = None
    failures: list = field(default_factory=list)
    checks: list = field(default_factory=list)  # (what, expected, actual, ok)

    @property
    def steps(self) -> list[tuple]:
        acts = self.scenario.actions
        return [(self.states[i], acts[i], self.states[i + 1]) for i in range(len(self.states) - 1)]

    def as_json(self) -> dict:
        sc = self.scenario
        return {"file": sc.path, "title": sc.title, "ok": self.ok, "message": self.message,
                "steps": len(self.states) - 1,
                "refused_by": self.refusal.rules if self.refusal else None,
                "checks": [{"what": w, "expected": e, "actual": a, "ok": o}
                           for w, e, a, o in self.checks]}


def explain_refusal(game, s, action, mover) -> Refusal:
    """The reasons ``action`` by ``mover`` (a seat, or None for chance) is illegal in ``s``."""
    name, args = action
    act = game.spec.action(name)
    st = dict(zip(game.var_names, s))
    current = game.current_player(s)
    if current == TERMINAL:
        return Refusal([(None, f"the round is over ({END_NAMES[st['ended']]})")])
    if st["phase"] != act.phase.value:
        legal = sorted({a for a, _ in game.legal_actions(s)})
        return Refusal([(None, f"it is not the moment to {name}: the game waits for "
                               f"{who(game, s)} to {' or '.join(legal) or 'act'} "
                               f"(phase {PHASE_NAMES[st['phase']]})")])
    reasons: list[tuple[str | None, str]] = []
    if mover is not None and current != mover:
        reasons.append((None, f"it is {who(game, s)}'s move, not P{mover}'s"))
    ev = Evaluator(game.spec)
    env = {"state": st}
    for prm, x in zip(act.decl.params, args):
        dom = ev.eval(ev.inline(prm.domain), env)
        if prm.size is None and not (x >= 0 and dom >> x & 1):
            shown = game.card_name(x) if prm.type == "card" else f"P{x}"
            allowed = game.cards_str(dom) if prm.type == "card" else \
                ", ".join(f"P{p}" for p in runtime.bits(dom))
            where = "in the mover's hand" if prm.type == "card" else "allowed"
            reasons.append((None, f"{shown} is not {where} (choices: {allowed or 'none'})"))
        env = dict(env)
        env[prm.name] = x
    blame = _Blame(game.spec)
    for rid, expr in act.guards:
        try:
            ok = ev.eval(expr, env)
        except Exception:  # a guard over a parameter that is out of range
            ok = False
        if not ok:
            reasons.append((rid, game.spec.rule(rid).doc))
            # which definitions (rules of their own, often readings) made it false
            blame.false_defs = []
            for f in game.spec.rule(rid).fragments:
                if isinstance(f, Guard) and name in f.actions:
                    try:
                        blame.eval(f.expr, env)
                    except Exception:
                        pass
            for d in blame.false_defs:
                if d not in [r for r, _ in reasons]:
                    reasons.append((d, game.spec.rule(d).doc))
    if not reasons:
        reasons.append((None, "refused by the engine"))
    return Refusal(reasons)


class _Blame(Evaluator):
    """Evaluates a rule's own (un-inlined) expression, calling definitions, and
    records the rules whose boolean definitions came out false, innermost first."""

    def __init__(self, spec) -> None:
        super().__init__(spec)
        self.false_defs: list[str] = []

    def on_Call(self, node: Call, env: dict):
        rid, d = self.spec.definitions[node.name]
        inner = {"state": env["state"]}
        inner.update({p.name: self.eval(a, env) for p, a in zip(d.params, node.args)})
        value = self.eval(d.body, inner)
        if node.type == A.BOOL and not value and rid not in self.false_defs:
            self.false_defs.append(rid)
        return value


def replay(scenario) -> Result:
    """Play the scenario on its game; check its expectation."""
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    game, e = sc.played, sc.expect
    assert sc.deal_action is not None   # resolved with the game
    try:
        s = game.apply(game.initial_state(), sc.deal_action)
    except IllegalAction as err:
        raise sc.error(f"the deal is not a legal deal: {err}", "deal", step=0) from None
    states = [s]
    refusal = None
    illegal_at = e.get("illegal_at")
    for mv in sc.moves:
        a = mv.resolved
        current = game.current_player(s)
        right_mover = current == (CHANCE if mv.chance else mv.player)
        legal = right_mover and a in game.legal_actions(s)
        if not legal:
            refusal = explain_refusal(game, s, a, mv.player)
            if illegal_at == mv.step:
                break
            raise sc.move_error(
                mv, f"{'chance' if mv.chance else f'P{mv.player}'} {game.action_str(a)} is "
                    f"illegal here: {refusal.text()}", "action",
                hint=_legal_hint(game, s))
        if illegal_at == mv.step:
            return _fail(sc, states, None, f"step {mv.step}: {game.action_str(a)} was expected "
                                           f"to be illegal, but the game allows it",
                         [("illegal_at", illegal_at, "legal", False)])
        s = game.apply(s, a)
        states.append(s)
        outside = game.outside_bounds(s)
        if outside is not None:
            name, value, (lo, hi) = outside
            return _fail(sc, states, None,
                         f"step {mv.step}: after {game.action_str(a)}, {name} = {value} is "
                         f"outside the bounds {lo}..{hi} the spec declares for it",
                         [(name, f"{lo}..{hi}", value, False)])
    return _check(sc, states, refusal)


def _legal_hint(game, s) -> str:
    legal = game.legal_actions(s)
    if not legal:
        return f"no move is legal here ({who(game, s)} to act)"
    shown = [game.action_str(a) for a in legal[:8]]
    return f"{who(game, s)} may: " + ", ".join(shown) + (", ..." if len(legal) > 8 else "")


def _fail(sc, states, refusal, message, checks) -> Result:
    return Result(sc, False, message, states, refusal, [message], checks)


def facts(game, s) -> dict:
    """The final state's facts, as a scenario's [expect] writes them."""
    g = lambda v: game.get(s, v)  # noqa: E731
    out = {"turn": g("turn"), "actor": g("actor"), "phase": PHASE_NAMES[g("phase")],
           "ended": END_NAMES[g("ended")], "dir": g("dir"),
           "passers": runtime.bits(g("passers")),
           "pile": [game.card_name(c) for c in g("pile")],
           "top": game.card_name(g("pile")[-1]) if g("pile") else "none",
           "deck": len(runtime.bits(g("deck")))}
    for p in range(game.config.players):
        out[f"hand.{p}"] = sorted(game.card_name(c) for c in runtime.bits(g("hands")[p]))
    out["scores"] = list(game.scores(s))
    if game.spec.scope == "game":  # a whole game: rounds completed and running totals
        out["round"] = g("round_no")
        out["totals"] = list(g("totals"))
    return out


def _check(sc: Scenario, states, refusal) -> Result:
    game, e = sc.played, sc.expect
    checks = []
    if "illegal_at" in e:
        want = e.get("rule")
        ok = want is None or want in refusal.rules
        checks.append(("illegal_at", e["illegal_at"], f"illegal ({refusal.text()})", ok))
        if want is not None:
            checks.append(("rule", want, refusal.rules, ok))
    if "property" in e:
        pid, verdict = e["property"], e["verdict"]
        actual = property_verdict(game, pid, states)
        checks.append((f"property {pid}", verdict, actual, actual == verdict))
    last = states[-1]
    have = facts(game, last)
    for key, want in e.items():
        base = key.split(".")[0]
        if base in ("property", "verdict", "illegal_at", "rule"):
            continue
        got = have[key]
        if key.startswith("hand.") or key == "passers":
            ok = sorted(want) == sorted(got)
        elif key in ("turn", "actor") and want == "nobody":
            ok = got == -1
        else:
            ok = want == got
        checks.append((key, want, got, ok))
    bad = [c for c in checks if not c[3]]
    if bad:
        msg = "; ".join(f"expected {w} = {_fmt(x)}, got {_fmt(a)}" for w, x, a, _ in bad)
        return Result(sc, False, f"{sc.path}: {msg}", states, refusal,
                      [msg], checks)
    what = ", ".join(f"{w} = {_fmt(x)}" for w, x, _, _ in checks)
    return Result(sc, True, f"{sc.path}: ok ({what})", states, refusal, [], checks)


def _fmt(v) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return str(v)


def narrate(scenario) -> list[str]:
    """The scenario told as a story: the deal, each move with the rule that
    allowed it and what changed, the ending and the scores."""
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    game = sc.played
    try:
        res = replay(sc)
    except ScenarioError:
        raise
    lines = [sc.title]
    if sc.question:
        lines.append(f"Question: {sc.question}")
    v = sc.variant_obj
    assert v is not None   # resolved with the game
    readings = ", ".join(f"{k} = {r}" for k, r in v.explicit.items())
    lines.append(f"Table: {game.config.describe()}; variant {sc.variant}"
                 + (f" (readings: {readings})" if readings else " (the literal text)"))
    lines += describe_deal(game, res.states[0])
    for n, (s, a, s2) in enumerate(res.steps, 1):
        lines.append(f"{n:>3}. {say(game, s, a)}.")
        lines += ["       " + x for x in rule_lines(game, game.decided(s, a, s2))]
        ch = changes(game, s, s2)
        if ch:
            lines.append("       -> " + "; ".join(ch))
    if res.refusal is not None:
        mv = sc.moves[len(res.states) - 1]
        lines.append(f"{mv.step:>3}. {say(game, res.states[-1], mv.resolved)}? Not allowed: "
                     f"{res.refusal.text()}")
    last = res.states[-1]
    if game.spec.scope == "game" and game.is_terminal(last):
        lines.append(f"The game is over after {game.get(last, 'round_no')} round(s). Totals: "
                     + ", ".join(f"P{p} {x}" for p, x in enumerate(game.get(last, "totals")))
                     + ".")
    elif game.is_terminal(last):
        d = game.describe(last)
        scores = game.scores(last)
        lines.append(f"The round ends ({d['ended']}). Scores: "
                     + ", ".join(f"P{p} {x}" for p, x in enumerate(scores)) + ".")
    elif not game.legal_actions(last):
        lines.append(f"{who(game, last)} must act but has no legal move: the game is stuck.")
    if "property" in sc.expect:
        pid = sc.expect["property"]
        stmt = next(p.statement for p in game.spec.properties if p.id == pid)
        got = property_verdict(game, pid, res.states)
        lines.append(f"{pid} ({stmt}): {got}.")
    lines.append(("PASS: " if res.ok else "FAIL: ") + res.message.split(": ", 1)[-1])
    return lines


__all__ = ["replay", "narrate", "Result", "Refusal", "explain_refusal", "facts"]
