"""The reference evaluator: walks the AST directly, slowly and obviously.

It is the second executable reading of the spec.  Tests run every reachable
state of small tables through both it and the generated engine and require
identical legal actions and successors, so a bug in the code generator cannot
hide.  It offers the same entry points as a generated engine module.
"""
from __future__ import annotations

from itcp.spec import ast as A
from itcp.spec.ast import Bound, Call, Const, Ite, Let, Op, Param, Primed, Quant, Var
from itcp.spec.errors import SpecError
from itcp.spec.lang import Inliner, Spec

from . import runtime
from .codegen import CHANCE, TERMINAL


class Evaluator:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.n = spec.config.players
        self.next_table = runtime.next_in_table(self.n)
        self.vars = [v.name for v in spec.variables]
        self.inline = Inliner(spec.definitions)

    def eval(self, node, env: dict):
        kind = type(node)
        if kind is Const:
            return node.value
        if kind is Var:
            return env["state"][node.name]
        if kind is Primed:
            return env["next"][node.name]
        if kind in (Param, Bound):
            return env[node.name]
        if kind is Ite:
            return self.eval(node.then if self.eval(node.cond, env) else node.else_, env)
        if kind is Let:
            inner = dict(env)
            inner[node.var.name] = self.eval(node.value, env)
            return self.eval(node.body, inner)
        if kind is Quant:
            return self.quant(node, env)
        if kind is Op:
            return self.op(node, env)
        if kind is Call:
            raise SpecError(f"{node.name} not inlined")
        raise SpecError(f"cannot evaluate {node!r}")

    def quant(self, n: Quant, env):
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

    def op(self, n: Op, env):
        o = n.op
        if o == "and":
            return all(self.eval(a, env) for a in n.args)
        if o == "or":
            return any(self.eval(a, env) for a in n.args)
        v = [self.eval(a, env) for a in n.args]
        if o == "not":
            return not v[0]
        if o == "eq":
            return v[0] == v[1]
        if o == "add":
            return v[0] + v[1]
        if o == "sub":
            return v[0] - v[1]
        if o == "mul":
            return v[0] * v[1]
        if o == "lt":
            return v[0] < v[1]
        if o == "le":
            return v[0] <= v[1]
        if o == "union":
            return v[0] | v[1]
        if o == "inter":
            return v[0] & v[1]
        if o == "diff":
            return v[0] & ~v[1]
        if o == "member":
            return v[0] >= 0 and bool(v[1] >> v[0] & 1)
        if o == "with":
            return v[0] | (1 << v[1]) if v[1] >= 0 else v[0]
        if o == "without":
            return v[0] & ~(1 << v[1]) if v[1] >= 0 else v[0]
        if o == "is_empty":
            return v[0] == 0
        if o == "count":
            return bin(v[0]).count("1")
        if o == "subset":
            return v[0] & ~v[1] == 0
        if o == "tsum":
            return sum(v[1][i] for i in runtime.bits(v[0]))
        if o == "attr":
            return v[1][v[0]]
        if o == "step":
            return (v[0] + v[1]) % self.n if v[0] >= 0 else -1
        if o == "next_in":
            p, d, s = v
            if p < 0:
                return -1
            for k in range(1, self.n + 1):
                q = (p + k * d) % self.n
                if s >> q & 1:
                    return q
            return -1
        if o == "top":
            return v[0][-1] if v[0] else -1
        if o == "pile_len":
            return len(v[0])
        if o == "push":
            return v[0] + (v[1],)
        if o == "pop":
            return v[0][:-1]
        if o == "pile_cards":
            return runtime.pile_mask(v[0])
        if o == "pile_of":
            return (v[0],) if v[0] >= 0 else ()
        if o == "get":
            return v[0][v[1]] if v[1] >= 0 else runtime.zero_of(n.type)
        if o == "put":
            m, k, x = v
            return m[:k] + (x,) + m[k + 1:] if k >= 0 else m
        raise SpecError(f"the reference evaluator has no rule for {o!r}")


class ReferenceModule:
    """Duck-types a generated engine module, evaluating the AST instead."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.ev = Evaluator(spec)
        self.actions = {a.name: a for a in spec.actions}
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
                out.append(chosen)
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
            return tuple(a) in self._enum(act)(s)
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
        env = self._env(s)
        out = []
        for p in range(self.ev.n):
            call = Call("score", (A.Var("hands", "map[cards]"), A.Var("hand_of", "map[player]"),
                                  A.Var("passers", A.PLAYERS), Const(p, A.PLAYER)), A.INT)
            out.append(self.ev.eval(self.ev.inline(call), env))
        return tuple(out)
