"""Spec expressions to Z3 terms: the walk over the AST.

Part of the SMT backend (``model/smt/encoding.py`` assembles it).  Walks an expression
the way the reference evaluator (``model/engine/reference.py``) does, one method per
node type (a ``Walker``, ``spec/walk.py``); operators go to their encoders (``ops.py``).  Apart from them
because this is where the cost is kept down: memoisation on the values of a
node's free names only, one inlining per call site, short-circuits and
constant folding with the language's own semantics.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from itcp.spec import ast as A
from itcp.spec.ast import PILE, Bound, Call, Const, Ite, Let, Op, Param, Primed, Quant, Var
from itcp.spec.errors import SpecError
from itcp.spec.lang import Inliner
from itcp.spec.semantics import apply_op
from itcp.spec.walk import OperatorTable, Walker, all_but, handles

from .ops import Operators
from .values import (
    ELEM_WIDTH,
    Pile,
    Values,
    boolval,
    is_false,
    is_true,
    lit,
    mk_and,
    mk_if,
    mk_not,
    mk_or,
    slit,
)

#: ``literal``'s answer for a term that is not a literal
NOT_LITERAL = object()


def term_id(v: Any) -> Any:
    """A hashable identity of an encoded value (its terms' ids)."""
    if isinstance(v, z3.ExprRef):
        return v.get_id()
    if isinstance(v, Pile):
        return (Pile, v.length.get_id(), tuple(x.get_id() for x in v.slots),
                v.cards.get_id(), v.distinct.get_id(), v.top.get_id())
    if isinstance(v, tuple):
        return tuple(term_id(x) for x in v)
    return ("py", v)


class Env:
    """Bound names -> z3 values, and each value's term id (for memoisation, computed
    once per binding: a pile's id reads every slot)."""

    __slots__ = ("vals", "ids")

    def __init__(self, vals: dict, ids: Mapping[str, Any] | tuple = ()):
        self.vals, self.ids = vals, dict(ids)

    def bind(self, name: str, value: Any) -> Env:
        vals = dict(self.vals)
        vals[name] = value
        ids = dict(self.ids)
        ids[name] = term_id(value)
        return Env(vals, ids)


class Translator(Walker, OperatorTable):
    """The Z3 value of a spec expression over symbolic states: a walker whose
    cases take ``(node, state, env, next state)``; ``and``/``or`` short-circuit,
    any other operator goes to its encoder in ``Operators``' table."""

    def __init__(self, values: Values, ops: Operators, inline: Inliner):
        self.values, self.ops, self.inline = values, ops, inline
        self.n, self.n_cards = values.n, values.n_cards
        self._memo: dict[tuple, tuple[Any, Any]] = {}
        self._free: dict[int, tuple[Any, frozenset]] = {}
        self._inlined: dict[int, tuple[Any, Any]] = {}

    def reset(self) -> None:
        """Forget the memo (its keys hold the ids of state dicts, which a new
        query may reuse)."""
        self._memo = {}

    def formula(self, node: Any, state: dict, nxt: dict | None = None) -> Any:
        """A closed formula (its calls inlined here) on ``state`` (and ``nxt``),
        with a fresh memo."""
        self.reset()
        return self.tr(self.inline(node), state, Env({}, ()), nxt)

    def free(self, node: Any) -> frozenset:
        """The Bound/Param names ``node`` reads freely (cached per node)."""
        hit = self._free.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        if isinstance(node, (Bound, Param)):
            out = frozenset((node.name,))
        elif isinstance(node, Let):
            out = self.free(node.value) | (self.free(node.body) - {node.var.name})
        elif isinstance(node, Quant):
            out = self.free(node.domain) | (self.free(node.body) - {node.var.name})
        else:
            out = frozenset()
            for k in A.children(node):
                out |= self.free(k)
        self._free[id(node)] = (node, out)
        return out

    def tr(self, node: Any, state: dict, env: Env, nxt: dict | None = None) -> Any:
        """The Z3 value of ``node``; memoised on the values of its free names only,
        so a quantifier body's parts that do not read the bound variable are
        encoded once."""
        fv = self.free(node)
        ids = env.ids
        sig = tuple((k, ids[k]) for k in sorted(fv) if k in ids) if fv else ()
        key = (id(node), sig, id(state), id(nxt))
        hit = self._memo.get(key)
        if hit is not None and hit[0] is node:
            return hit[1]
        out = self.node_cases[type(node)](self, node, state, env, nxt)
        self._memo[key] = (node, out)
        return out

    def on_Const(self, node: Const, state: dict, env: Env, nxt: dict | None) -> Any:
        return self.values.const(node.value, node.type)

    def on_Var(self, node: Var, state: dict, env: Env, nxt: dict | None) -> Any:
        return state[node.name]

    def on_Primed(self, node: Primed, state: dict, env: Env, nxt: dict | None) -> Any:
        if nxt is None or node.name not in nxt:
            raise SpecError(f"{node.name}' read outside a step")
        return nxt[node.name]

    def on_Bound(self, node: Bound | Param, state: dict, env: Env, nxt: dict | None) -> Any:
        if node.name not in env.vals:
            raise SpecError(f"unbound name {node.name}")
        return env.vals[node.name]

    def on_Ite(self, node: Ite, state: dict, env: Env, nxt: dict | None) -> Any:
        c = self.tr(node.cond, state, env, nxt)
        if is_true(c):
            return self.tr(node.then, state, env, nxt)
        if is_false(c):
            return self.tr(node.else_, state, env, nxt)
        return self.values.ite(c, self.tr(node.then, state, env, nxt),
                               self.tr(node.else_, state, env, nxt), node.type)

    def on_Let(self, node: Let, state: dict, env: Env, nxt: dict | None) -> Any:
        v = self.tr(node.value, state, env, nxt)
        return self.tr(node.body, state, env.bind(node.var.name, v), nxt)

    def on_Quant(self, node: Quant, state: dict, env: Env, nxt: dict | None) -> Any:
        bv = self.values.bv
        kind = node.kind
        if kind == "mapof":  # over every seat, as the reference evaluator does
            return tuple(self.tr(node.body, state,
                                 env.bind(node.var.name, bv(i, ELEM_WIDTH)), nxt)
                         for i in range(self.n))
        width = self.values.set_width(node.domain.type)
        D = z3.simplify(self.tr(node.domain, state, env, nxt))
        dv = lit(D)
        elems: list[tuple[int, Any]]
        if dv is not None:
            elems = [(i, None) for i in range(width) if dv >> i & 1]
        else:
            elems = [(i, self.values.bit(D, i)) for i in range(width)]

        def body(i: int) -> Any:
            return self.tr(node.body, state, env.bind(node.var.name, bv(i, ELEM_WIDTH)), nxt)

        # m is None where the domain is a constant holding element i
        if kind == "forall":
            return mk_and(*[body(i) if m is None else mk_or(mk_not(m), body(i))
                            for i, m in elems]) if elems else boolval(True)
        if kind == "exists":
            return mk_or(*[body(i) if m is None else mk_and(m, body(i))
                           for i, m in elems]) if elems else boolval(False)
        if kind == "sum":
            zero = bv(0, self.values.iw)
            return z3.Sum([body(i) if m is None else mk_if(m, body(i), zero)
                           for i, m in elems]) if elems else zero
        if kind == "setof":
            zero = bv(0, width)
            out = zero
            for i, m in elems:
                c = body(i) if m is None else mk_and(m, body(i))
                out = out | self.values.cond(c, bv(1 << i, width), zero)
            return out
        raise SpecError(f"the Z3 encoding has no case for quantifier {kind}")

    def on_Op(self, node: Op, state: dict, env: Env, nxt: dict | None) -> Any:
        return self.op_cases[node.op](self, node, state, env, nxt)

    def junction(self, node: Op, state: dict, env: Env, nxt: dict | None, unit: bool) -> Any:
        """A conjunction (``unit`` True) or disjunction, short-circuited on
        literal arguments."""
        stop, skip = (z3.is_false, z3.is_true) if unit else (z3.is_true, z3.is_false)
        args = []
        for a in node.args:
            x = self.tr(a, state, env, nxt)
            if stop(x):
                return x
            if not skip(x):
                args.append(x)
        if not args:
            return boolval(unit)
        return args[0] if len(args) == 1 else self.ops.table[node.op](args, node)

    @handles("and")
    def op_and(self, node: Op, state: dict, env: Env, nxt: dict | None) -> Any:
        return self.junction(node, state, env, nxt, True)

    @handles("or")
    def op_or(self, node: Op, state: dict, env: Env, nxt: dict | None) -> Any:
        return self.junction(node, state, env, nxt, False)

    @handles(*all_but("and", "or"))
    def op_strict(self, node: Op, state: dict, env: Env, nxt: dict | None) -> Any:
        """Every argument encoded, folded when all are literals, else encoded by
        the operator's encoder."""
        args = [self.tr(a, state, env, nxt) for a in node.args]
        folded = self.fold(node, args)
        return self.ops.table[node.op](args, node) if folded is None else folded

    def fold(self, node: Op, args: list) -> Any:
        """Constant folding: an operator on literal arguments is computed in Python
        with the language's semantics (``spec.semantics.apply_op``), so the solver
        and the Python side never see terms like ``member(3, {1, 3})``."""
        vals = []
        for a, x in zip(node.args, args):
            v = self.literal(x, a.type)
            if v is NOT_LITERAL:
                return None
            vals.append(v)
        try:
            out = apply_op(node.op, node.type, vals, self.n)
        except (ValueError, IndexError, KeyError):
            return None  # undefined on these values: leave it to the encoder
        if node.type == PILE and len(out) > self.n_cards:
            return None
        return self.values.const(out, node.type)

    def literal(self, x: Any, t: str) -> Any:
        """The Python value of an encoded literal of type ``t``, else NOT_LITERAL."""
        if t == A.CARDMAP:
            return tuple(x)
        vt = A.map_value_type(t)
        if vt is not None:
            out = tuple(self.literal(y, vt) for y in x)
            return NOT_LITERAL if NOT_LITERAL in out else out
        if t == PILE:
            k = lit(x.length)
            slots = [slit(c) for c in x.slots]
            if k is None or None in slots:
                return NOT_LITERAL
            return tuple(slots[:k])
        if t == A.BOOL:
            return True if is_true(x) else False if is_false(x) else NOT_LITERAL
        v = lit(x) if t in (A.CARDS, A.PLAYERS) else slit(x)
        return NOT_LITERAL if v is None else v

    def on_Call(self, node: Call, state: dict, env: Env, nxt: dict | None) -> Any:
        # one expansion per call site, so a quantifier body's call is expanded once
        # and the memo shares its parts across the bound variable's values
        hit = self._inlined.get(id(node))
        if hit is None or hit[0] is not node:
            hit = self._inlined[id(node)] = (node, self.inline(node))
        return self.tr(hit[1], state, env, nxt)

    def on_Param(self, node: Param, state: dict, env: Env, nxt: dict | None) -> Any:
        return self.on_Bound(node, state, env, nxt)
