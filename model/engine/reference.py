"""The reference evaluator: walks the AST directly, slowly and obviously.

It is the second executable reading of the spec.  Tests run every reachable
state of small tables through both it and the generated engine and require
identical legal actions and successors, so a bug in the code generator cannot
hide.  It offers the same entry points as a generated engine module.
"""
from __future__ import annotations

from itcp.spec.ast import Bound, Call, Const, Ite, Let, Op, Param, Primed, Quant, Var
from itcp.spec.errors import SpecError
from itcp.spec.lang import Spec
from itcp.spec.properties import observations
from itcp.spec.rules.vocabulary import score_of
from itcp.spec.semantics import apply_op
from itcp.spec.walk import OperatorTable, Walker, all_but, handles

from . import runtime
from .codegen import CHANCE, TERMINAL


class Evaluator(Walker, OperatorTable):
    """The value of an expression in an environment: ``env["state"]`` (and
    ``env["next"]``) map variable names to values, and every other key is a
    parameter's or a bound name's value."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.n = spec.config.players
        self.vars = [v.name for v in spec.variables]
        self.inline = spec.inliner()

    def eval(self, node, env: dict):
        return self.node_cases[type(node)](self, node, env)

    def on_Const(self, n: Const, env: dict):
        return n.value

    def on_Var(self, n: Var, env: dict):
        return env["state"][n.name]

    def on_Primed(self, n: Primed, env: dict):
        return env["next"][n.name]

    def on_Param(self, n: Param | Bound, env: dict):
        return env[n.name]

    on_Bound = on_Param

    def on_Ite(self, n: Ite, env: dict):
        return self.eval(n.then if self.eval(n.cond, env) else n.else_, env)

    def on_Let(self, n: Let, env: dict):
        inner = dict(env)
        inner[n.var.name] = self.eval(n.value, env)
        return self.eval(n.body, inner)

    def on_Call(self, n: Call, env: dict):
        raise SpecError(f"{n.name} not inlined")

    def on_Quant(self, n: Quant, env: dict):
        elems = runtime.bits(self.eval(n.domain, env))
        def body(x):
            inner = dict(env)
            inner[n.var.name] = x
            return self.eval(n.body, inner)
        if n.kind == "forall":
            return all(body(x) for x in elems)
        if n.kind == "exists":
            return any(body(x) for x in elems)
        if n.kind == "sum":
            return sum(body(x) for x in elems)
        if n.kind == "setof":
            return sum(1 << x for x in elems if body(x))
        if n.kind == "mapof":
            return tuple(body(x) for x in range(self.n))
        raise SpecError(n.kind)

    def on_Op(self, n: Op, env: dict):
        return self.op_cases[n.op](self, n, env)

    @handles("and")
    def and_(self, n: Op, env: dict):
        return all(self.eval(a, env) for a in n.args)

    @handles("or")
    def or_(self, n: Op, env: dict):
        return any(self.eval(a, env) for a in n.args)

    @handles(*all_but("and", "or"))
    def strict(self, n: Op, env: dict):
        """Every argument evaluated, then the operator's semantics."""
        return apply_op(n.op, n.type, [self.eval(a, env) for a in n.args], self.n)


class ReferenceModule:
    """Duck-types a generated engine module, evaluating the AST instead."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.ev = Evaluator(spec)
        self.actions = {a.name: a for a in spec.actions}
        self._score_formulas: list | None = None
        for a in spec.actions:
            setattr(self, f"enum_{a.name}", self._enum(a))
            setattr(self, f"apply_{a.name}", self._apply(a))
            setattr(self, f"allowed_{a.name}", self._allowed(a))
        for prop in spec.properties:
            if prop.formula is not None:
                setattr(self, f"prop_{prop.id}", self._prop(prop))

    def _env(self, s, s2=None):
        env = {"state": dict(zip(self.ev.vars, s))}
        if s2 is not None:
            env["next"] = dict(zip(self.ev.vars, s2))
        return env

    def _enum(self, act):
        def enum(s):
            env = self._env(s)
            if env["state"]["phase"] != act.phase.value:
                return []
            out = []
            self._params(act, list(act.decl.params), env, (), out)
            return out
        return enum

    def _params(self, act, params, env, chosen, out):
        if not params:
            if self.ev.eval(act.guard, env):
                out.append((act.name, chosen))
            return
        prm, rest = params[0], params[1:]
        dom = self.ev.eval(self.ev.inline(prm.domain), env)
        values = runtime.subsets(dom, prm.size) if prm.size is not None else runtime.bits(dom)
        for x in values:
            inner = dict(env)
            inner[prm.name] = x
            self._params(act, rest, inner, chosen + (x,), out)

    def _allowed(self, act):
        def allowed(s, a):
            env = self._env(s)
            if env["state"]["phase"] != act.phase.value or len(a) != len(act.decl.params):
                return False
            for prm, x in zip(act.decl.params, a):
                dom = self.ev.eval(self.ev.inline(prm.domain), env)
                if prm.size is None:
                    if not (x >= 0 and dom >> x & 1):
                        return False
                elif x & ~dom or bin(x).count("1") != prm.size:
                    return False
                env = dict(env)
                env[prm.name] = x
            return bool(self.ev.eval(act.guard, env))
        return allowed

    def _apply(self, act):
        def apply(s, a):
            env = self._env(s)
            env.update({p.name: x for p, x in zip(act.decl.params, a)})
            new = dict(env["state"])
            env["next"] = new
            for var in act.order:
                new[var] = self.ev.eval(act.values[var], env)
            return tuple(new[v] for v in self.ev.vars)
        return apply

    def _prop(self, prop):
        f = self.ev.inline(prop.formula)
        if prop.kind == "step":
            return lambda s, s2: self.ev.eval(f, self._env(s, s2))
        return lambda s: self.ev.eval(f, self._env(s))

    def state_ok(self, s):
        return all(getattr(self, f"prop_{p.id}")(s) for p in self.spec.properties
                   if p.kind == "state" and p.formula is not None)

    def hand_range(self, s):
        env, obs = self._env(s), observations(self.spec.properties)
        sizes = [bin(self.ev.eval(self.ev.inline(hand), env)).count("1")
                 for live, hand in zip(obs.get("live_hand", ()), obs.get("hand", ()))
                 if self.ev.eval(self.ev.inline(live), env)]
        return (min(sizes), max(sizes)) if sizes else (999, -1)

    def legal(self, s):
        out = []
        for a in self.spec.actions:
            out.extend(getattr(self, f"enum_{a.name}")(s))
        return out

    def current(self, s):
        env = self._env(s)
        ph = env["state"]["phase"]
        for p in self.spec.phases:
            if p.value == ph:
                if p.terminal:
                    return TERMINAL
                if p.actor is None:
                    return CHANCE
                return self.ev.eval(self.ev.inline(p.actor), env)
        return TERMINAL

    def scores(self, s):
        if self._score_formulas is None:  # each seat's score, inlined once
            self._score_formulas = [self.ev.inline(score_of(p)) for p in range(self.ev.n)]
        env = self._env(s)
        return tuple(self.ev.eval(f, env) for f in self._score_formulas)
