"""The batch successor compiler: the elaborated spec compiled to numpy code.

The explorer expands a breadth-first level a batch at a time.  This compiler
reads the same elaborated spec as the engine compiler (``codegen.py``),
partially evaluated by ``specialise.py`` with the constants of the search
(``liveness.py``), and generates, per *dispatch class* (the values of the
key's dispatch fields: the phase, whose turn, who acts; ``searchkey.py``),
one function over arrays: it takes the words of every state of the class in
the batch and, for every action of the phase,

* draws each parameter from its domain's bits for every state at once (a
  state with four cards in hand makes four rows),
* evaluates the guard on every row and keeps the rows where it holds,
* computes the new value of every variable the key holds and builds the
  successor's words (fields cleared by one mask, new values OR-ed in; a field
  dead at the successor's phase reset to its canonical value),
* evaluates every step property on every move (each specialised to the
  action: a variable the action does not write is its own next value).

Every operator of the spec language becomes numpy operations on whole
columns (an if-then-else evaluates both branches and picks with ``where``; the
language is total, so evaluating a branch not taken is safe); a subterm that
reads only one card set is looked up in a table of its values, as in the
engine; what reads no parameter is computed once per state and gathered per
move.  The module also holds, over a batch of keys of any phase: the state
properties (``state_bad``), the graph observations (``post_pass``, the live
hand sizes), the chance and terminal phases, and the symmetry reduction
(``canon``, ``orbit``).  Each guard and each new value is under a comment naming
the rules that make it (``model/engine/origins.py``).  Conformance with the engine
is tested state by state (``tests/test_vectorized.py``).
"""
from __future__ import annotations

import types
from typing import Any

import numpy as np

from itcp.spec import ast as A
from itcp.spec.ast import Const, Ite, Op, Primed, Var
from itcp.spec.lang import Spec
from itcp.spec.simplify import simplify
from itcp.spec.walk import OperatorTable, Walker, handles

from ..analysis.liveness import Reduction, graph_observations
from ..analysis.specialise import base_action, framed, specialise
from ..engine import runtime
from ..engine.codegen import EngineSource
from ..engine.loader import load_generated
from ..engine.origins import Origins, comment_above
from .packed import PackedEmitter, PackedModule, pile_card_table
from .packing import Layout
from .searchkey import WORD, KeyLayout

_ORDER = {"c": 0, "S": 1, "M": 2}


class Unsupported(Exception):
    """The spec or table uses something the batch compiler does not handle
    (the explorer then takes the generic engine path)."""


class Val:
    """The code of a value and where it lives: ``c`` a Python constant, ``S``
    an array over the batch's states, ``M`` an array over the current moves."""
    __slots__ = ("code", "ctx", "nonneg")

    def __init__(self, code: str, ctx: str, nonneg: bool = False):
        self.code, self.ctx, self.nonneg = code, ctx, nonneg

    def __repr__(self):
        return f"Val({self.code!r}, {self.ctx})"


#: the operators written as one numpy infix operator
_INFIX = {"add": "+", "sub": "-", "mul": "*", "lt": "<", "le": "<=", "union": "|", "inter": "&"}


class VEmitter(Walker, OperatorTable):
    """Compiles expressions into the numpy statements of one generated function:
    a walker whose cases return where a node's value is (a ``Val``)."""

    def __init__(self, src: VectorSource, known: dict, words: list[str]):
        self.src = src
        self.known = known            # variable -> Const (constants, dispatch values)
        self.words = words            # the code of each key word, over the states
        self.lines: list[str] = []
        self.indent = 1
        self.count = 0
        self.memo: dict = {}          # (node, ctx level id) -> Val (or list for maps)
        self.env: dict = {}           # bound or parameter name -> Val
        self.field_cache: dict = {}
        self.gathered: dict = {}      # S code -> M code (per move context)
        self.ix: str | None = None    # the current move context's state index array
        self.mctx = 0                 # the current move context's id
        self.codes: dict = {}         # (code, context) -> the local holding it
        self.values: dict = {}        # variable -> its new-value node (the current action)
        self.primed_const: dict = {}  # variable -> Const kept through the move
        self.prelude: list[str] = []  # lines the function reads its fields with, first

    # -- plumbing -------------------------------------------------------------------
    def line(self, text: str):
        self.lines.append("    " * self.indent + text)

    def fresh(self, hint="t") -> str:
        self.count += 1
        return f"_{hint}{self.count}"

    def assign(self, code: str, ctx: str, hint="t", nonneg=False) -> Val:
        if ctx == "c":
            return Val(code, "c", nonneg)
        # the same code over the same operands is the same value (every
        # operation is pure): one local (a move context's names are its own)
        key = (code, ctx, self.mctx if ctx == "M" else 0)
        hit = self.codes.get(key)
        if hit is not None:
            return Val(hit.code, ctx, hit.nonneg or nonneg)
        name = self.fresh(hint)
        self.line(f"{name} = {code}")
        out = self.codes[key] = Val(name, ctx, nonneg)
        return out

    def enter_moves(self, ix: str):
        """A new move context: arrays over the rows ``ix`` picks from the states."""
        self.ix = ix
        self.mctx += 1
        self.gathered = {}
        self.memo = {k: v for k, v in self.memo.items() if k[1] == 0}

    def leave_moves(self):
        self.ix = None
        self.mctx += 1
        self.gathered = {}
        self.memo = {k: v for k, v in self.memo.items() if k[1] == 0}

    def lift(self, v: Val, ctx: str) -> str:
        """The code of ``v`` in context ``ctx`` (a state array gathered per move)."""
        if v.ctx == "c" or v.ctx == ctx or ctx == "c":
            return v.code
        if v.ctx == "S" and ctx == "M":
            hit = self.gathered.get(v.code)
            if hit is None:
                hit = self.fresh("g")
                self.line(f"{hit} = {v.code}[{self.ix}]")
                self.gathered[v.code] = hit
            return hit
        raise AssertionError((v, ctx))

    @staticmethod
    def top(*vals) -> str:
        return max((v.ctx for v in vals), key=_ORDER.__getitem__)

    # -- expressions ----------------------------------------------------------------
    def expr(self, node) -> Any:  # a Val, or a list of Vals (one per seat) for a map
        level = 0 if _state_only(node, self) else self.mctx
        key = (node, level)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        out = self._expr(node)
        self.memo[key] = out
        return out

    def _expr(self, node):
        if isinstance(node, (Op, Ite)) and node.type in (A.BOOL, A.INT, A.CARDS) \
                and self.src.n_cards <= PackedEmitter.TABLE_CARDS:
            table = self.src.tabulate(node)
            if table is not None:
                x, values = table
                xv = self.expr(x)
                dtype = "bool" if node.type == A.BOOL else "int64"
                name = self.src.const_array(values, dtype, "BY_SET")
                if xv.ctx == "c":
                    return Val(_literal(values[int(xv.code)]), "c")
                return self.assign(f"{name}[{xv.code}]", xv.ctx)
        return self.node_cases[type(node)](self, node)

    def on_Const(self, n: Const):
        if n.type == A.BOOL:
            return Val("True" if n.value else "False", "c")
        if n.type == A.CARDMAP:
            return Val(self.src.const_array(n.value, "int64", "TABLE"), "c")
        if n.type == A.PILE:
            return Val(str(self.src.layout.pile_code(n.value)), "c", True)
        vt = A.map_value_type(n.type)
        if vt:
            return [self.on_Const(Const(x, vt)) for x in n.value]
        return Val(str(n.value) if n.value >= 0 else f"({n.value})", "c", n.value >= 0)

    def field(self, f) -> Val:
        hit = self.field_cache.get(f)
        if hit is not None:
            return hit
        w = self.words[f.word]
        raw = f"(({w} >> {f.offset}) & {f.mask})" if f.offset else f"({w} & {f.mask})"
        if f.kind == A.BOOL:
            code = f"({raw} == 1)"
        elif f.bias:
            code = f"({raw} - {f.bias})"
        else:
            code = raw
        # fields are read into locals in the function's prelude
        name = self.fresh("v_" + f.var + ("" if f.seat is None else f"_{f.seat}"))
        self.src.prelude_line(self, f"{name} = {code}")
        out = Val(name, "S", f.bias == 0 and f.kind != A.BOOL)
        self.field_cache[f] = out
        return out

    def on_Var(self, n: Var):
        c = self.known.get(n.name)
        if c is not None:
            return self.on_Const(c)
        fs = self.src.layout.by_var[n.name]
        if A.map_value_type(n.type):
            return [self.field(f) for f in sorted(fs, key=lambda f: f.seat)]
        return self.field(fs[0])

    def on_Primed(self, n: Primed):
        c = self.primed_const.get(n.name)
        if c is not None:
            return self.on_Const(c)
        node = self.values.get(n.name)
        if node is None:  # not written by this action: the frame
            return self.on_Var(Var(n.name, n.type))
        return self.expr(node)

    def on_Param(self, n):
        return self.env[n.name]

    def on_Bound(self, n):
        return self.env[n.name]

    def on_Let(self, n):
        self.env[n.var.name] = self.expr(n.value)
        return self.expr(n.body)

    def on_Call(self, n):
        raise Unsupported(f"definition {n.name} not inlined")

    def on_Ite(self, n: Ite):
        c = self.expr(n.cond)
        if c.ctx == "c":
            return self.expr(n.then if c.code == "True" else n.else_)
        a, b = self.expr(n.then), self.expr(n.else_)
        if isinstance(a, list):
            return [self.where(c, x, y) for x, y in zip(a, b)]
        return self.where(c, a, b)

    def where(self, c: Val, a: Val, b: Val) -> Val:
        if a.ctx == "c" and b.ctx == "c" and a.code == b.code:
            return a
        ctx = self.top(c, a, b)
        return self.assign(f"np.where({self.lift(c, ctx)}, {self.lift(a, ctx)}, "
                           f"{self.lift(b, ctx)})", ctx, nonneg=a.nonneg and b.nonneg)

    def binop(self, fmt: str, *vals, nonneg=False) -> Val:
        ctx = self.top(*vals)
        code = fmt.format(*[self.lift(v, ctx) for v in vals])
        if ctx == "c":
            return Val(_literal(eval(code, {"np": np, **self.src.env})), "c")
        return self.assign(code, ctx, nonneg=nonneg)

    def logic(self, parts, is_and: bool) -> Val:
        stop, go = ("False", "True") if is_and else ("True", "False")
        vals = []
        for p in parts:
            v = self.expr(p)
            if v.ctx == "c":
                if v.code == stop:
                    return Val(stop, "c")
                continue
            vals.append(v)
        if not vals:
            return Val(go, "c")
        if len(vals) == 1:
            return vals[0]
        ctx = self.top(*vals)
        joiner = " & " if is_and else " | "
        return self.assign(joiner.join(self.lift(v, ctx) for v in vals), ctx)

    def not_(self, v: Val) -> Val:
        if v.ctx == "c":
            return Val("False" if v.code == "True" else "True", "c")
        return self.assign(f"~{v.code}", v.ctx)

    def member(self, e: Val, s: Val) -> Val:
        if e.ctx == "c":
            k = int(e.code.strip("()"))
            if k < 0:
                return Val("False", "c")
            return self.binop("((({0} >> %d) & 1) == 1)" % k, s)
        if e.nonneg:
            return self.binop("((({1} >> {0}) & 1) == 1)", e, s)
        return self.binop("(({0} >= 0) & ((({1} >> np.maximum({0}, 0)) & 1) == 1))", e, s)

    def on_Op(self, n: Op):
        return self.op_cases[n.op](self, n)

    @handles("and")
    def op_and(self, n: Op):
        return self.logic(n.args, True)

    @handles("or")
    def op_or(self, n: Op):
        return self.logic(n.args, False)

    @handles("not")
    def op_not(self, n: Op):
        return self.not_(self.expr(n.args[0]))

    @handles("eq")
    def op_eq(self, n: Op):
        x, y = self.expr(n.args[0]), self.expr(n.args[1])
        if isinstance(x, list):
            return self.logic_vals([self.binop("({0} == {1})", p, q) for p, q in zip(x, y)])
        if x.code == y.code:
            return Val("True", "c")
        return self.binop("({0} == {1})", x, y)

    @handles(*_INFIX)
    def op_infix(self, n: Op):
        o = n.op
        x, y = self.expr(n.args[0]), self.expr(n.args[1])
        return self.binop("({0} %s {1})" % _INFIX[o], x, y,
                          nonneg=o in ("union", "inter") or (o == "add" and x.nonneg
                                                             and y.nonneg))

    @handles("diff")
    def op_diff(self, n: Op):
        return self.binop("({0} & ~{1})", self.expr(n.args[0]), self.expr(n.args[1]), nonneg=True)

    @handles("member")
    def op_member(self, n: Op):
        return self.member(self.expr(n.args[0]), self.expr(n.args[1]))

    def set_edit(self, n: Op, known, core: str) -> Val:
        """A set with one element added or removed: ``known(bit)`` the format
        (of the set) for an element known here, ``core`` for one computed (of
        the set and the element; unchanged for NOBODY/NOCARD)."""
        s, e = self.expr(n.args[0]), self.expr(n.args[1])
        if e.ctx == "c":
            k = int(e.code.strip("()"))
            if k < 0:
                return s
            return self.binop(known(1 << k), s, nonneg=True)
        if e.nonneg:
            return self.binop(core, s, e, nonneg=True)
        safe = core.replace("{1}", "np.maximum({1}, 0)")
        return self.binop(f"np.where({{1}} >= 0, {safe}, {{0}})", s, e, nonneg=True)

    @handles("with")
    def op_with(self, n: Op):
        return self.set_edit(n, lambda bit: "({0} | %d)" % bit, "({0} | (1 << {1}))")

    @handles("without")
    def op_without(self, n: Op):
        return self.set_edit(n, lambda bit: "({0} & %d)" % ~bit, "({0} & ~(1 << {1}))")

    @handles("is_empty")
    def op_is_empty(self, n: Op):
        return self.binop("({0} == 0)", self.expr(n.args[0]))

    @handles("count")
    def op_count(self, n: Op):
        return self.count_of(self.expr(n.args[0]))

    @handles("subset")
    def op_subset(self, n: Op):
        return self.binop("(({0} & ~{1}) == 0)", self.expr(n.args[0]), self.expr(n.args[1]))

    @handles("tsum")
    def op_tsum(self, n: Op):
        return self.tsum(n.args[0], n.args[1])

    @handles("attr")
    def op_attr(self, n: Op):
        a = n.args
        c, t = self.expr(a[0]), self.expr(a[1])
        if c.ctx == "c":
            return Val(_literal(a[1].value[int(c.code.strip("()"))]), "c")
        return self.assign(f"{t.code}[{c.code}]", c.ctx)

    @handles("step")
    def op_step(self, n: Op):
        p, d = self.expr(n.args[0]), self.expr(n.args[1])
        return self.binop("np.where({0} >= 0, ({0} + {1}) %% %d, -1)" % self.src.n, p, d)

    @handles("next_in")
    def op_next_in(self, n: Op):
        src, a = self.src, n.args
        p, d, s = self.expr(a[0]), self.expr(a[1]), self.expr(a[2])
        table = src.next_table()
        return self.binop("%s[((({1} + 1) * %d + ({0} + 1)) << %d) | {2}]"
                          % (table, src.n + 1, src.n), p, d, s)

    @handles("pile_len")
    def op_pile_len(self, n: Op):
        return self.binop("({0} & %d)" % self.src.lm, self.expr(n.args[0]), nonneg=True)

    @handles("top")
    def op_top(self, n: Op):
        src = self.src
        p = self.expr(n.args[0])
        return self.binop("np.where(({0} & %d) > 0, (({0} >> (%d + %d * np.maximum(({0} & %d) "
                          "- 1, 0))) & %d) - 1, -1)" % (src.lm, src.lb, src.cb, src.lm, src.cm),
                          p)

    @handles("push")
    def op_push(self, n: Op):
        src = self.src
        p, c = self.expr(n.args[0]), self.expr(n.args[1])
        return self.binop("(({0} + 1) | (({1} + 1) << (%d + %d * ({0} & %d))))"
                          % (src.lb, src.cb, src.lm), p, c, nonneg=True)

    @handles("pop")
    def op_pop(self, n: Op):
        src = self.src
        p = self.expr(n.args[0])
        return self.binop("np.where({0} != 0, ({0} & ((1 << (%d + %d * np.maximum(({0} & %d) "
                          "- 1, 0))) - 1)) - 1, 0)" % (src.lb, src.cb, src.lm), p,
                          nonneg=True)

    @handles("pile_of")
    def op_pile_of(self, n: Op):
        lb = self.src.lb
        c = self.expr(n.args[0])
        if c.nonneg:
            return self.binop("(1 | (({0} + 1) << %d))" % lb, c, nonneg=True)
        return self.binop("np.where({0} >= 0, 1 | (({0} + 1) << %d), 0)" % lb, c, nonneg=True)

    @handles("pile_cards")
    def op_pile_cards(self, n: Op):
        return self.pile_cards(self.expr(n.args[0]))

    @handles("pile_distinct")
    def op_pile_distinct(self, n: Op):
        p = self.expr(n.args[0])
        cards = self.pile_cards(p)
        return self.eq_vals(self.count_of(cards), self.binop("({0} & %d)" % self.src.lm, p))

    @handles("get")
    def op_get(self, n: Op):
        m, k = self.expr(n.args[0]), self.expr(n.args[1])
        zero = Val(_literal(runtime.zero_of(n.type)), "c")
        if k.ctx == "c":
            i = int(k.code.strip("()"))
            return m[i] if i >= 0 else zero
        out = zero
        for i in range(len(m) - 1, -1, -1):
            out = self.where(self.binop("({0} == %d)" % i, k), m[i], out)
        return out

    @handles("put")
    def op_put(self, n: Op):
        m, k, v = self.expr(n.args[0]), self.expr(n.args[1]), self.expr(n.args[2])
        if k.ctx == "c":
            i = int(k.code.strip("()"))
            if i < 0:
                return m
            return [v if j == i else m[j] for j in range(len(m))]
        return [self.where(self.binop("({0} == %d)" % j, k), v, m[j]) for j in range(len(m))]

    def logic_vals(self, vals) -> Val:
        vals = [v for v in vals if not (v.ctx == "c" and v.code == "True")]
        if any(v.ctx == "c" for v in vals):
            return Val("False", "c")
        if not vals:
            return Val("True", "c")
        if len(vals) == 1:
            return vals[0]
        ctx = self.top(*vals)
        return self.assign(" & ".join(self.lift(v, ctx) for v in vals), ctx)

    def eq_vals(self, x: Val, y: Val) -> Val:
        return self.binop("({0} == {1})", x, y)

    def count_of(self, s: Val) -> Val:
        if s.ctx == "c":
            return Val(str(int(s.code.strip("()")).bit_count()), "c", True)
        return self.assign(f"np.bitwise_count({s.code}).astype(np.int64)", s.ctx, nonneg=True)

    def tsum(self, s_node, table_node) -> Val:
        if not isinstance(table_node, Const):
            raise Unsupported("tsum needs a constant table")
        groups: dict = {}
        for i, v in enumerate(table_node.value[:-1]):
            if v:
                groups[v] = groups.get(v, 0) | (1 << i)
        if not groups:
            return Val("0", "c", True)
        s = self.expr(s_node)
        terms = []
        for v, m in sorted(groups.items()):
            c = self.count_of(self.binop("({0} & %d)" % m, s, nonneg=True))
            terms.append(c.code if v == 1 else f"{v} * {c.code}")
        if s.ctx == "c":
            return Val(_literal(eval(" + ".join(terms))), "c")
        return self.assign("(" + " + ".join(terms) + ")", s.ctx)

    def pile_cards(self, p: Val) -> Val:
        src = self.src
        if p.ctx == "c":
            cards = src.layout.pile_of_code(int(p.code))
            return Val(str(sum(1 << c for c in cards if c >= 0)), "c", True)
        per = max(1, 12 // src.cb)
        table = src.const_array(pile_card_table(src.cb, per), "int64", "PILECARDS")
        chunk = src.cb * per
        out = None
        for j in range(-(-src.n_cards // per)):
            part = f"{table}[({p.code} >> {src.lb + chunk * j}) & {(1 << chunk) - 1}]"
            out = part if out is None else f"{out} | {part}"
        return self.assign(f"({out})", p.ctx, nonneg=True)

    def on_Quant(self, n: A.Quant):
        src = self.src
        if isinstance(n.domain, Const):
            elems = list(runtime.bits(n.domain.value))
            dom = None
        else:
            width = src.n if n.domain.type == A.PLAYERS else src.n_cards
            elems = list(range(width))
            dom = self.expr(n.domain)
        bodies = [simplify(A.substitute(n.body, {n.var.name: Const(i, n.var.type)}), src.n)
                  for i in elems]
        if n.kind == "mapof":
            if dom is not None or elems != list(range(src.n)):
                raise Unsupported("mapof over a set other than every seat")
            return [self.expr(b) for b in bodies]
        terms = []
        for i, b in zip(elems, bodies):
            inside = None if dom is None else self.member(Val(str(i), "c", True), dom)
            v = self.expr(b)
            if n.kind == "forall":
                terms.append(v if inside is None else self.logic_of([self.not_(inside), v], False))
            elif n.kind == "exists":
                terms.append(v if inside is None else self.logic_of([inside, v], True))
            elif n.kind == "sum":
                terms.append(v if inside is None else self.where(inside, v, Val("0", "c", True)))
            else:  # setof
                cond = v if inside is None else self.logic_of([inside, v], True)
                terms.append(self.where(cond, Val(str(1 << i), "c", True), Val("0", "c", True)))
        if n.kind == "forall":
            return self.logic_of(terms, True)
        if n.kind == "exists":
            return self.logic_of(terms, False)
        if not terms:
            return Val("0", "c", True)
        joiner = " + " if n.kind == "sum" else " | "
        ctx = self.top(*terms)
        code = "(" + joiner.join(self.lift(t, ctx) for t in terms) + ")"
        if ctx == "c":
            return Val(_literal(eval(code)), "c")
        return self.assign(code, ctx, nonneg=True)

    def logic_of(self, vals, is_and: bool) -> Val:
        stop, go = ("False", "True") if is_and else ("True", "False")
        keep = []
        for v in vals:
            if v.ctx == "c":
                if v.code == stop:
                    return Val(stop, "c")
                continue
            keep.append(v)
        if not keep:
            return Val(go, "c")
        if len(keep) == 1:
            return keep[0]
        ctx = self.top(*keep)
        return self.assign((" & " if is_and else " | ").join(self.lift(v, ctx) for v in keep), ctx)


def _state_only(node, em: VEmitter) -> bool:
    """``node`` reads no parameter, no next value and no move-level binding:
    its value per state is shared by every move of the state."""
    for x in A.walk(node):
        if isinstance(x, (A.Param, Primed)):
            return False
        if isinstance(x, A.Bound):
            v = em.env.get(x.name)
            if v is not None and not isinstance(v, list) and v.ctx == "M":
                return False
            if isinstance(v, list) and any(p.ctx == "M" for p in v):
                return False
    return True


def _literal(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "True" if x else "False"
    x = int(x)
    return str(x) if x >= 0 else f"({x})"


class VectorSource:
    """The generated numpy source for one spec at one table, per dispatch class."""

    def __init__(self, spec: Spec, red: Reduction, layout: KeyLayout):
        self.spec, self.red, self.layout = spec, red, layout
        self.n, self.n_cards = spec.config.players, spec.config.n_cards
        self.lb, self.cb = layout.len_bits, layout.card_bits
        self.lm, self.cm = (1 << self.lb) - 1, (1 << self.cb) - 1
        if not layout.narrow or self.n_cards > 62:
            raise Unsupported("a field does not fit one word")
        self.inline = spec.inliner()
        self.origins = Origins(spec)
        self.types = {v.name: v.type for v in spec.variables}
        self.arrays: dict = {}      # (hint, values, dtype) -> name
        self.consts: list[str] = []
        self.env: dict = {}         # module constants' values
        self._tab = PackedEmitter(PackedModule(), self.n, Layout(spec))
        self.step_props = [p for p in spec.properties if p.kind == "step" and p.formula is not None]
        self.state_props = [p for p in spec.properties
                            if p.kind == "state" and p.formula is not None]
        self.phases = {p.value: p for p in spec.phases}
        self.max_phase = max(self.phases)
        self.actions = list(spec.actions)
        for act in self.actions:
            for p in act.decl.params:
                if p.type not in (A.CARD, A.PLAYER, A.CARDS):
                    raise Unsupported(f"parameter {p.name} of type {p.type}")
        self._specialised: dict = {}

    # -- module constants --------------------------------------------------------------
    def const_array(self, values, dtype: str, hint: str) -> str:
        key = (hint, tuple(values), dtype)
        name = self.arrays.get(key)
        if name is None:
            name = f"{hint}{len(self.arrays)}"
            self.arrays[key] = name
            self.env[name] = np.array([bool(v) if dtype == "bool" else int(v) for v in values],
                                      dtype=dtype)
        return name

    def next_table(self) -> str:
        t = runtime.next_in_table(self.n)
        flat = [t[d][p][s] for d in range(3) for p in range(self.n + 1) for s in range(1 << self.n)]
        return self.const_array(flat, "int64", "NEXT")

    def tabulate(self, node):
        return self._tab.tabulate(node)

    def prelude_line(self, em: VEmitter, line: str):
        em.prelude.append("    " + line)

    # -- emitters ------------------------------------------------------------------------
    def emitter(self, known: dict) -> VEmitter:
        em = VEmitter(self, known, [f"W{j}" for j in range(self.layout.words)])
        em.prelude = []
        em.primed_const = {v: c for v, c in self.red.invariant.items()}
        return em

    def fixed_values(self, x: int) -> dict:
        out = {}
        for f in self.layout.dispatch:
            out[f.var] = Const((x >> f.offset & f.mask) - f.bias, self.types[f.var])
        return out

    def known_at(self, x: int) -> dict:
        return {**self.red.constants, **self.fixed_values(x)}

    def function(self, name: str, args: str, em: VEmitter, ret: str) -> str:
        body = em.prelude + em.lines
        return "\n".join([f"def {name}({args}):"] + body + [f"    return {ret}"]) + "\n"

    # -- one dispatch class --------------------------------------------------------------
    def class_source(self, x: int, cover: bool = False) -> tuple[str, str]:
        """(name, source) of the function for dispatch index ``x``: over the words
        of the class's states, a list of (action index, state rows, parameter
        values or None, successor words, [(step property index, bad rows)])
        (``cover``: instead, the ids of the rules that took part in some move)."""
        known = self.known_at(x)
        ph = known["phase"].value
        phase = self.phases.get(ph)
        name = ("cover_" if cover else "succ_") + (phase.name if phase else f"phase{ph}") + \
            "".join(f"_{f.var}{(x >> f.offset & f.mask) - f.bias}".replace("-", "_")
                    for f in self.layout.dispatch[1:])
        em = self.emitter(known)
        em.line("out = []")
        if phase is not None and not phase.terminal:
            for ai, act in enumerate(self.actions):
                if act.phase.value != ph:
                    continue
                self.emit_action(em, ai, act, known, cover)
        args = ", ".join(em.words)
        return name, self.function(name, args, em, "out")

    def specialised(self, act, known):
        """(guard, domains, values, step checks) of ``act`` under ``known``."""
        spec = self.spec
        key = (act.name, tuple(sorted((v, c.value) for v, c in known.items())))
        hit = self._specialised.get(key)
        if hit is not None:
            return hit
        primed = {v: c for v, c in self.red.invariant.items() if v in act.values}
        fold = lambda e: specialise(e, known, spec, primed)  # noqa: E731
        base_guard, base_values, base_domains = base_action(spec, act, self.red.invariant)
        guard = fold(base_guard)
        domains = [fold(d) for d in base_domains]
        values = {v: fold(base_values[v]) for v in act.order if v not in self.red.invariant}
        nexts = {**primed, **values}
        updated = set(act.values)
        steps = [(n, specialise(framed(self.inline(p.formula), updated), known, spec, nexts))
                 for n, p in enumerate(self.step_props)]
        hit = self._specialised[key] = (guard, domains, values, steps)
        return hit

    def emit_action(self, em: VEmitter, ai: int, act, known: dict, cover: bool):
        guard, domains, values, steps = self.specialised(act, known)
        if guard == Const(False, A.BOOL):
            return
        params = act.decl.params
        if len(params) > 1 or any(p.size is not None for p in params):
            # drawn outside (legal parameter tuples from the engine): see apply_source
            em.line(f"# {act.name}: parameters given by the caller")
            return
        em.line(f"# {act.name}")
        em.values = {}
        if params:
            prm = params[0]
            dom = em.expr(domains[0])
            width = self.n if prm.type == A.PLAYER else self.n_cards
            ix1, p1 = em.fresh("ix"), em.fresh("p")
            if dom.ctx == "c":
                members = list(runtime.bits(int(dom.code.strip("()"))))
                em.line(f"{ix1}, {p1} = expand_const(len({em.words[0]}), {members!r})")
            else:
                em.line(f"{ix1}, {p1} = expand_bits({dom.code}, {width})")
            em.enter_moves(ix1)
            em.env[prm.name] = Val(p1, "M", True)
            g = self.guard(em, act, guard)
            ix2, p2 = em.fresh("ix"), em.fresh("p")
            if g.ctx == "c":
                if g.code == "False":
                    em.leave_moves()
                    return
                em.line(f"{ix2}, {p2} = {ix1}, {p1}")
            else:
                code = em.lift(g, "M")
                sel = em.fresh("sel")
                em.line(f"{sel} = np.flatnonzero({code})")
                em.line(f"{ix2}, {p2} = {ix1}[{sel}], {p1}[{sel}]")
            em.enter_moves(ix2)
            em.env[prm.name] = Val(p2, "M", True)
            pcode = p2
        else:
            g = self.guard(em, act, guard)
            ix2 = em.fresh("ix")
            if g.ctx == "c":
                em.line(f"{ix2} = np.arange(len({em.words[0]}))")
            else:
                em.line(f"{ix2} = np.flatnonzero({g.code})")
            em.enter_moves(ix2)
            pcode = "None"
        em.values = values
        if cover:
            self.emit_cover(em, act, known)
        else:
            words = self.successor_words(em, act, values)
            bads = []
            for n, formula in steps:
                ok = em.expr(formula)
                if ok.ctx == "c" and ok.code == "True":
                    continue
                bad = em.not_(ok)
                code = em.lift(bad, "M") if bad.ctx != "c" else f"np.full(len({ix2}), {bad.code})"
                bads.append(f"({n}, {code})")
            em.line(f"out.append(({ai}, {ix2}, {pcode}, ({', '.join(words)},), "
                    f"[{', '.join(bads)}]))")
        em.leave_moves()
        em.values = {}

    def guard(self, em: VEmitter, act, guard) -> Val:
        """The guard's value, under a comment naming the rules that make it."""
        at, indent = len(em.lines), "    " * em.indent
        g = em.expr(guard)
        rules = self.origins.guard(act)
        comment_above(em.lines, at, indent, rules and f"guard: {rules}")
        return g

    def emit_cover(self, em: VEmitter, act, known):
        """The rules whose update applied in some move (as ``fired_<a>``)."""
        always = sorted({rid for rid, _ in act.guards} | set(act.used_defs))
        em.line(f"out.append(({act.name!r}, {always!r}, {em.ix}))")
        primed = {v: c for v, c in self.red.invariant.items() if v in act.values}
        for var, ups in act.updates.items():
            for rid, when, _, _ in ups:
                ids = [rid] + sorted(act.update_defs.get((var, rid), ()))
                w = em.expr(specialise(when, known, self.spec, {**primed, **em.values}))
                if w.ctx == "c":
                    if w.code == "True":
                        em.line(f"out.append(({act.name!r}, {ids!r}, {em.ix}))")
                    continue
                em.line(f"out.append(({act.name!r}, {ids!r}, {em.lift(w, 'M')}))")

    def successor_words(self, em: VEmitter, act, values) -> list[str]:
        """The successor's words: the parent's, each written field replaced,
        each field dead at the new phase reset."""
        lay = self.layout
        clear = [0] * lay.words
        const = [0] * lay.words
        terms: list[list[str]] = [[] for _ in range(lay.words)]
        for var in values:
            if var in self.red.constants:
                continue  # not in the key (its new value may still be read: Primed)
            at, indent = len(em.lines), "    " * em.indent
            new = em.expr(Primed(var, self.types[var]))
            rules = self.origins.update(act, var)
            comment_above(em.lines, at, indent, rules and f"{var}': {rules}")
            old = em.on_Var(Var(var, self.types[var]))
            fs = sorted(lay.by_var[var], key=lambda f: (f.seat is not None, f.seat or 0))
            news = new if isinstance(new, list) else [new]
            olds = old if isinstance(old, list) else [old]
            for f, nv, ov in zip(fs, news, olds):
                if nv.code == ov.code:
                    continue
                clear[f.word] |= f.mask << f.offset
                if nv.ctx == "c":
                    v = nv.code.strip("()")
                    val = lay.encode(f, v == "True" if f.kind == A.BOOL else (
                        lay.pile_of_code(int(v)) if f.kind == A.PILE else int(v)))
                    const[f.word] |= val << f.offset
                    continue
                code = em.lift(nv, "M")
                if f.kind == A.BOOL:
                    code = f"{code}.astype(np.int64)"
                elif f.bias:
                    code = f"({code} + {f.bias})"
                terms[f.word].append(f"({code} << {f.offset})" if f.offset else code)
        phase = em.expr(Primed("phase", self.types["phase"])) if "phase" in values else \
            em.on_Var(Var("phase", self.types["phase"]))
        out = []
        full = (1 << WORD) - 1
        for j in range(lay.words):
            base = em.lift(Val(em.words[j], "S"), "M")
            parts = [f"({base} & {full & ~clear[j]})" if clear[j] else base] + terms[j]
            if const[j]:
                parts.append(str(const[j]))
            code = " | ".join(parts)
            if lay.resets:
                if phase.ctx == "c":
                    ph = int(phase.code.strip("()"))
                    keep, canon = lay.keep.get(ph), lay.canon.get(ph)
                    if keep is not None and canon is not None and (keep[j] != full or canon[j]):
                        code = f"(({code}) & {keep[j]}) | {canon[j]}"
                elif any(lay.keep[p][j] != full for p in lay.phases):
                    keep = self.const_array(self.per_phase(lambda p: lay.keep[p][j], full),
                                            "int64", "KEEP")
                    canon = self.const_array(self.per_phase(lambda p: lay.canon[p][j], 0),
                                             "int64", "CANON")
                    pc = em.lift(phase, "M")
                    code = f"(({code}) & {keep}[{pc}]) | {canon}[{pc}]"
            name = em.fresh(f"N{j}_")
            em.line(f"{name} = {code}")
            out.append(name)
        return out

    def per_phase(self, fn, default) -> list:
        return [fn(p) if p in self.layout.keep else default for p in range(self.max_phase + 1)]

    # -- actions whose parameters the caller draws (the deal) ---------------------------
    def apply_source(self, ai: int, x: int, cover: bool = False) -> tuple[str, str]:
        """(name, source): ``apply_<a>(words, ix, *params)``, the successors of the
        states ``ix`` picks by the given (legal) parameter values: (successor
        words, [(step property index, bad rows)]) (``cover``: the rules that
        took part, as ``class_source``'s)."""
        act = self.actions[ai]
        known = self.known_at(x)
        guard, domains, values, steps = self.specialised(act, known)
        em = self.emitter(known)
        params = act.decl.params
        em.line("out = []")
        em.enter_moves("ix")
        for p in params:
            em.env[p.name] = Val(f"p_{p.name}", "M", True)
        em.values = values
        if cover:
            self.emit_cover(em, act, known)
            ret = "out"
        else:
            words = self.successor_words(em, act, values)
            bads = []
            for n, formula in steps:
                ok = em.expr(formula)
                if ok.ctx == "c" and ok.code == "True":
                    continue
                bad = em.not_(ok)
                code = em.lift(bad, "M") if bad.ctx != "c" else f"np.full(len(ix), {bad.code})"
                bads.append(f"({n}, {code})")
            ret = f"({', '.join(words)},), [{', '.join(bads)}]"
        name = f"{'cover' if cover else 'apply'}_{act.name}_{x}"
        args = ", ".join(em.words + ["ix"] + [f"p_{p.name}" for p in params])
        return name, self.function(name, args, em, ret)

    def enum_source(self, ai: int) -> tuple[str, str]:
        """(name, source) of ``enum_<a>(s)``: the legal parameter tuples of the
        action at a state tuple, in the engine's order (the engine's own code:
        for actions whose parameters are drawn outside the batch code)."""
        act = self.actions[ai]
        eng = EngineSource(self.spec)
        em = eng.emitter()
        eng.unpack(em)
        em.line("out = []")
        em.origins = eng.origins.of_actions(act)
        eng.emit_enum(em, act)
        em.line("return out")
        name = f"enum_{act.name}"
        code = "\n".join(eng.module.lines) + f"\ndef {name}(s):\n" + "\n".join(em.lines) + "\n"
        return name, code

    # -- over keys of any phase ----------------------------------------------------------
    def helpers_source(self) -> str:
        """``state_bad``, ``post_pass``, ``hand_range``, and the phase tables."""
        out = []
        em = self.emitter(dict(self.red.constants))
        em.line("out = []")
        for n, p in enumerate(self.state_props):
            ok = em.expr(self.inline(p.formula))
            if ok.ctx == "c":
                if ok.code == "False":
                    em.line(f"out.append(({n}, np.ones(len(W0), dtype=bool)))")
                continue
            em.line(f"out.append(({n}, ~{ok.code}))")
        out.append(self.function("state_bad", ", ".join(em.words), em, "out"))
        obs = graph_observations(self.spec)
        em = self.emitter(dict(self.red.constants))
        pp = em.expr(obs["post_pass"])
        ret = pp.code if pp.ctx != "c" else f"np.full(len(W0), {pp.code})"
        out.append(self.function("post_pass", ", ".join(em.words), em, ret))
        em = self.emitter(dict(self.red.constants))
        terminal = [p.value for p in self.spec.phases if p.terminal]
        ph = em.on_Var(Var("phase", self.types["phase"]))
        live = em.assign(f"~TERMINAL[{ph.code}]" if ph.ctx != "c" else
                         ("False" if int(ph.code) in terminal else "True"), ph.ctx)
        em.line("lo, hi = 999, -1")
        for seat in range(self.n):
            held = em.logic_of([live, em.expr(obs["live_hand"][seat])], True)
            cnt = em.count_of(em.expr(obs["hand"][seat]))
            if held.ctx == "c" and held.code == "False":
                continue
            sel = held.code if held.ctx != "c" else "slice(None)"
            cc = cnt.code if cnt.ctx != "c" else f"np.full(len(W0), {cnt.code})"
            em.line(f"_c = {cc}[{sel}]")
            em.line("if len(_c):")
            em.line("    lo, hi = min(lo, int(_c.min())), max(hi, int(_c.max()))")
        out.append(self.function("hand_range", ", ".join(em.words), em, "lo, hi"))
        self.env["TERMINAL"] = np.array([p in terminal for p in range(self.max_phase + 1)],
                                        dtype=bool)
        chance = [p.value for p in self.spec.phases if p.actor is None and not p.terminal]
        self.env["CHANCE"] = np.array([p in chance for p in range(self.max_phase + 1)],
                                      dtype=bool)
        return "\n".join(out)

    def canon_source(self, perms) -> str:
        """``canon(words)``: the least key over the renamings ``perms`` (and the
        identity), and ``orbit(words)``: how many distinct keys they give."""
        lay = self.layout
        lines = ["def renamed(W):", "    out = []"]
        for i, perm in enumerate(perms):
            words = [[f"W[{j}]"] for j in range(lay.words)]
            clear = [0] * lay.words
            for f in lay.fields:
                if f.kind not in (A.CARDS, A.CARD, A.PILE):
                    continue
                clear[f.word] |= f.mask << f.offset
                raw = f"((W[{f.word}] >> {f.offset}) & {f.mask})"
                if f.kind == A.CARDS:
                    t = self.const_array([sum(1 << perm[c] for c in range(self.n_cards)
                                              if m >> c & 1) for m in range(1 << self.n_cards)],
                                         "int64", f"REN{i}_")
                    words[f.word].append(f"({t}[{raw}] << {f.offset})")
                elif f.kind == A.CARD:
                    t = self.const_array([0] + [perm[c] + 1 for c in range(self.n_cards)]
                                         + [0] * ((1 << self.cb) - self.n_cards - 1),
                                         "int64", f"RENC{i}_")
                    words[f.word].append(f"({t}[{raw}] << {f.offset})")
                else:
                    per = max(1, 12 // self.cb)
                    cards = [0] + [perm[c] + 1 for c in range(self.n_cards)] + \
                        [0] * ((1 << self.cb) - self.n_cards - 1)
                    chunk = [sum(cards[xx >> (self.cb * q) & self.cm] << (self.cb * q)
                                 for q in range(per)) for xx in range(1 << (self.cb * per))]
                    t = self.const_array(chunk, "int64", f"RENP{i}_")
                    parts = [f"({raw} & {self.lm})"]
                    for q in range(-(-self.n_cards // per)):
                        sh = self.lb + self.cb * per * q
                        parts.append(f"({t}[({raw} >> {sh}) & {(1 << (self.cb * per)) - 1}] "
                                     f"<< {sh})")
                    words[f.word].append(f"(({' | '.join(parts)}) << {f.offset})")
            full = (1 << WORD) - 1
            for j in range(lay.words):
                if clear[j]:
                    words[j][0] = f"(W[{j}] & {full & ~clear[j]})"
            lines.append("    out.append((" + ", ".join(" | ".join(w) for w in words) + ",))")
        lines.append("    return out")
        lines += ["", "def canon(W):",
                  "    best = list(W)",
                  "    for R in renamed(W):",
                  "        less = lexless(R, best)",
                  "        best = [np.where(less, r, b) for r, b in zip(R, best)]",
                  "    return tuple(best)",
                  "", "def orbit(W):",
                  "    keys = [tuple(W)] + renamed(W)",
                  "    count = np.ones(len(W[0]), dtype=np.int64)",
                  "    for i in range(1, len(keys)):",
                  "        new = np.ones(len(W[0]), dtype=bool)",
                  "        for k in range(i):",
                  "            same = np.ones(len(W[0]), dtype=bool)",
                  "            for a, b in zip(keys[i], keys[k]):",
                  "                same &= a == b",
                  "            new &= ~same",
                  "        count += new",
                  "    return count"]
        return "\n".join(lines) + "\n"


def lexless(A_, B_) -> np.ndarray:
    """Rows where key A is less than key B (words compared from the last)."""
    less = A_[-1] < B_[-1]
    eq = A_[-1] == B_[-1]
    for j in range(len(A_) - 2, -1, -1):
        less |= eq & (A_[j] < B_[j])
        eq &= A_[j] == B_[j]
    return less


def expand_bits(dom: np.ndarray, width: int):
    """(rows, elements): one row per element of each state's set ``dom``,
    state by state, elements ascending."""
    if width <= 16:
        b = dom.astype("<u2").view(np.uint8)
        bits = np.unpackbits(b, bitorder="little").reshape(len(dom), 16)[:, :width]
    else:
        b = dom.astype("<u8").view(np.uint8)
        bits = np.unpackbits(b, bitorder="little").reshape(len(dom), 64)[:, :width]
    rows, cols = np.nonzero(bits)
    return rows.astype(np.int64), cols.astype(np.int64)


def expand_const(n: int, members: list):
    """(rows, elements) for a set every state shares."""
    m = len(members)
    rows = np.repeat(np.arange(n, dtype=np.int64), m)
    cols = np.tile(np.array(members, dtype=np.int64), n)
    return rows, cols


class BatchModule:
    """The compiled batch functions of one spec at one table; a class's
    function is compiled on first use (``succ(x)``)."""

    def __init__(self, spec: Spec, red: Reduction, layout: KeyLayout, symmetry: bool,
                 filename: str = "<itcp-batch>"):
        self.src = VectorSource(spec, red, layout)
        self.layout = layout
        self.spec = spec
        self.filename = filename
        self.mod = types.ModuleType("itcp_batch_successors")
        self.mod.__dict__.update({"np": np, "expand_bits": expand_bits,
                                  "expand_const": expand_const, "lexless": lexless})
        helpers = self.src.helpers_source()
        self.perms = layout.renamings(symmetry)
        if self.perms:
            helpers += "\n" + self.src.canon_source(self.perms)
        self.source = helpers
        self._load(helpers, filename)
        self.state_bad = self.mod.state_bad
        self.post_pass = self.mod.post_pass
        self.hand_range = self.mod.hand_range
        self.canon = getattr(self.mod, "canon", None)
        self.orbit = getattr(self.mod, "orbit", None)
        self.terminal = self.mod.TERMINAL
        self.chance = self.mod.CHANCE
        self._succ: dict = {}
        self._cover: dict = {}
        self._apply: dict = {}
        self._enum: dict = {}
        self._classes: dict = {}

    def _load(self, code: str, where: str):
        self.mod.__dict__.update(self.src.env)
        load_generated(code, where, self.mod.__dict__)

    def class_of(self, x: int) -> tuple:
        cls = self._classes.get(x)
        if cls is None:
            cls = self._classes[x] = tuple(c.value for c in self.src.fixed_values(x).values())
        return cls

    def succ(self, x: int):
        fn = self._succ.get(x)
        if fn is None:
            cls = self.class_of(x)
            for y, f in list(self._succ.items()):
                if self.class_of(y) == cls:
                    self._succ[x] = f
                    return f
            name, code = self.src.class_source(x)
            self.source += "\n" + code
            self._load(code, f"{self.filename[:-1]}:{name}>")
            fn = self._succ[x] = self.mod.__dict__[name]
        return fn

    def cover(self, x: int):
        fn = self._cover.get(x)
        if fn is None:
            name, code = self.src.class_source(x, cover=True)
            self._load(code, f"{self.filename[:-1]}:{name}>")
            fn = self._cover[x] = self.mod.__dict__[name]
        return fn

    def apply(self, ai: int, x: int, cover: bool = False):
        fn = self._apply.get((ai, x, cover))
        if fn is None:
            name, code = self.src.apply_source(ai, x, cover)
            self.source += "\n" + code
            self._load(code, f"{self.filename[:-1]}:{name}>")
            fn = self._apply[(ai, x, cover)] = self.mod.__dict__[name]
        return fn

    def enum(self, ai: int):
        fn = self._enum.get(ai)
        if fn is None:
            name, code = self.src.enum_source(ai)
            env = {"subsets": runtime.subsets, "bits": runtime.bits,
                   "pile_mask": runtime.pile_mask}
            load_generated(code, f"{self.filename[:-1]}:{name}>", env)
            fn = self._enum[ai] = env[name]
        return fn

    def legal(self, s) -> list:
        """The legal actions at the state tuple ``s``, as the engine lists them."""
        out = []
        for ai, act in enumerate(self.src.actions):
            if act.phase.value == s[0]:
                out += self.enum(ai)(s)
        return out

    def given_params(self, ai: int) -> bool:
        """The action's parameters are drawn by the caller (several, or a set of a size)."""
        ps = self.src.actions[ai].decl.params
        return len(ps) > 1 or any(p.size is not None for p in ps)


def compile_batch(spec: Spec, red: Reduction, layout: KeyLayout, symmetry: bool) -> BatchModule:
    return BatchModule(spec, red, layout, symmetry)


__all__ = ["BatchModule", "Unsupported", "compile_batch", "expand_bits", "lexless"]
