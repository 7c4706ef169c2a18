"""The engine compiler: an elaborated spec in, Python source out.

Every expression becomes straight-line statements over local variables
(``v_x`` for a state variable, ``n_x`` for its next value, ``p_x`` for a
parameter), with short-circuit evaluation kept by ``if`` blocks, quantifiers
over constant sets unrolled and over variable sets turned into bit loops, and
identical subexpressions computed once per block.  The source is readable and
inspectable (``itcp-check rules --dump-engine``), each fragment of a rule under a
comment naming it (``origins.py``); ``compile_spec`` turns it
into a module object with, per action, ``enum_<a>(s)`` (the legal parameter
tuples), ``apply_<a>(s, args)`` (the next state) and ``fired_<a>(s, args, s2)``
(the rules that took part), plus ``current(s)``, ``scores(s)`` and one
function per state or step property.
"""
from __future__ import annotations

import types

from itcp.spec import ast as A
from itcp.spec.ast import Bound, Call, Const, Ite, Let, Op, Param, Primed, Quant, Var
from itcp.spec.errors import SpecError
from itcp.spec.lang import And, Spec
from itcp.spec.properties import observations
from itcp.spec.rules.vocabulary import score_of
from itcp.spec.walk import OperatorTable, Walker, handles

from . import runtime
from .loader import load_generated
from .origins import Origins, comment_above

CHANCE = -1
TERMINAL = -4

_SIMPLE = str.isidentifier


#: the import every generated module starts with (the helpers its code calls)
RUNTIME_IMPORT = "from itcp.model.engine.runtime import bits, pile_mask, subsets"


def is_atom(code: str) -> bool:
    """``code`` (generated Python) needs no parentheses around it: a name, a
    number, a literal."""
    return _SIMPLE(code) or code.lstrip("-").isdigit() or code in ("True", "False", "()")


class Module:
    """Module-level constants of the generated source (tables, masks)."""

    def __init__(self):
        self.consts: dict = {}
        self.lines: list[str] = []

    def const(self, value, hint="K") -> str:
        key = (hint, value)
        if key not in self.consts:
            name = f"{hint}{len(self.consts)}"
            self.consts[key] = name
            self.lines.append(f"{name} = {value!r}")
        return self.consts[key]


#: the operators written as one Python infix operator (on ints and bitmasks alike)
_INFIX = {"add": "+", "sub": "-", "mul": "*", "lt": "<", "le": "<=", "union": "|", "inter": "&"}


class FunctionEmitter(Walker, OperatorTable):
    """Compiles expressions into the statements of one generated function: a
    walker whose cases return the code of a node's value (``expr``), writing
    the statements it needs first."""

    def __init__(self, module: Module, n_players: int, indent: int = 1):
        self.module, self.n = module, n_players
        self.lines: list[str] = []
        self.depth = indent
        self.count = 0
        self.env: dict[str, str] = {}
        self.scopes: list[dict] = [{}]
        #: fragment node -> the rules it comes from: a comment above its code
        self.origins: dict = {}

    # -- plumbing ---------------------------------------------------------
    def line(self, text: str):
        self.lines.append("    " * self.depth + text)

    def fresh(self, hint="t") -> str:
        self.count += 1
        return f"_{hint}{self.count}"

    def push(self):
        self.scopes.append({})
        self.depth += 1

    def pop(self):
        self.scopes.pop()
        self.depth -= 1

    def open_param_loop(self, prm, dom: str) -> bool:
        """Open a loop binding parameter ``prm`` to each value of the set ``dom``
        (each subset of its size, or each member's index); True for a loop over
        the set's bits (the parameter is then a valid index, never NOBODY/NOCARD)."""
        var = f"p_{prm.name}"
        self.env[prm.name] = var
        if prm.size is not None:
            self.line(f"for {var} in subsets({dom}, {prm.size}):")
            self.push()
            return False
        m, low = self.fresh("m"), self.fresh("low")
        self.line(f"{m} = {dom}")
        self.line(f"while {m}:")
        self.push()
        self.line(f"{low} = {m} & -{m}")
        self.line(f"{var} = {low}.bit_length() - 1")
        self.line(f"{m} ^= {low}")
        return True

    def cached(self, node):
        for scope in reversed(self.scopes):
            if node in scope:
                return scope[node]
        return None

    def atom(self, node) -> str:
        code = self.expr(node)
        if is_atom(code):
            return code
        name = self.fresh()
        self.line(f"{name} = {code}")
        self.scopes[-1][node] = name
        return name

    # -- expressions ----------------------------------------------------
    def expr(self, node) -> str:
        hit = self.cached(node)
        if hit is not None:
            return hit
        at, depth = len(self.lines), self.depth
        code = self.node_cases[type(node)](self, node)
        if type(node) in (Op, Ite, Quant):
            # every compound result is computed once per block (CSE)
            if not is_atom(code):
                name = self.fresh()
                self.line(f"{name} = {code}")
                code = name
            if code.isidentifier():
                self.scopes[-1][node] = code
        if self.origins:
            comment_above(self.lines, at, "    " * depth, self.origins.get(node, ""))
        return code

    def on_Const(self, n: Const):
        if n.type == A.BOOL:
            return "True" if n.value else "False"
        if n.type == A.CARDMAP:
            return self.module.const(n.value, "TABLE")
        if n.type == A.PILE or A.map_value_type(n.type):
            return repr(tuple(n.value))
        return str(n.value) if n.value >= 0 else f"({n.value})"

    def on_Var(self, n: Var):
        return f"v_{n.name}"

    def on_Primed(self, n: Primed):
        return f"n_{n.name}"

    def on_Param(self, n: Param):
        return self.env[n.name]

    def on_Bound(self, n: Bound):
        return self.env[n.name]

    def on_Call(self, n: Call):
        raise SpecError(f"definition {n.name} was not inlined before code generation")

    def on_Let(self, n: Let):
        self.env[n.var.name] = self.atom(n.value)
        return self.expr(n.body)

    def on_Ite(self, n: Ite):
        if (isinstance(n.cond, Op) and n.cond.op == "member" and isinstance(n.cond.args[0], Const)
                and n.cond.args[0].value >= 0 and isinstance(n.then, Const)
                and isinstance(n.else_, Const) and n.else_.value == 0
                and n.then.type in (A.CARDS, A.PLAYERS, A.INT)):
            # if i in X then M else 0  ->  branch-free ((X >> i & 1) * M)
            x = self.expr(n.cond.args[1])
            return f"(({x} >> {n.cond.args[0].value} & 1) * {n.then.value})"
        c = self.expr(n.cond)
        if c == "True":
            return self.expr(n.then)
        if c == "False":
            return self.expr(n.else_)
        out = self.fresh()
        self.line(f"if {c}:")
        self.push()
        self.line(f"{out} = {self.expr(n.then)}")
        self.pop()
        self.line("else:")
        self.push()
        self.line(f"{out} = {self.expr(n.else_)}")
        self.pop()
        return out

    def _chain(self, parts, is_and: bool) -> str:
        """Short-circuit and/or.  Operands before the first ``if`` block always
        run, so they are cached in the enclosing scope; each later block runs
        only if every earlier one ran, so the blocks share one CSE scope."""
        stop, go = ("False", "True") if is_and else ("True", "False")
        out = None
        pushed = False
        try:
            for part in parts:
                if out is None:
                    code = part() if callable(part) else self.expr(part)
                    if code == stop:
                        return stop
                    if code == go:
                        continue
                    out = self.fresh()
                    self.line(f"{out} = {code}")
                    continue
                if not pushed:
                    self.scopes.append({})
                    pushed = True
                self.line(f"if {'' if is_and else 'not '}{out}:")
                self.depth += 1
                code = part() if callable(part) else self.expr(part)
                self.line(f"{out} = {code}")
                self.depth -= 1
            return go if out is None else out
        finally:
            if pushed:
                self.scopes.pop()

    def on_Op(self, n: Op):
        return self.op_cases[n.op](self, n)

    @handles("and")
    def op_and(self, n: Op):
        return self._chain(n.args, True)

    @handles("or")
    def op_or(self, n: Op):
        return self._chain(n.args, False)

    @handles("not")
    def op_not(self, n: Op):
        x = self.expr(n.args[0])
        return {"True": "False", "False": "True"}.get(x, f"(not {x})")

    @handles("eq")
    def op_eq(self, n: Op):
        a = n.args
        if _is_zero_sum(a):
            # points == 0 iff no card of non-zero value remains: one mask test
            mask = sum(1 << i for i, v in enumerate(a[0].args[1].value[:-1]) if v)
            return f"({self.expr(a[0].args[0])} & {mask} == 0)"
        x, y = self.expr(a[0]), self.expr(a[1])
        return "True" if x == y else f"({x} == {y})"

    @handles(*_INFIX)
    def op_infix(self, n: Op):
        return f"({self.expr(n.args[0])} {_INFIX[n.op]} {self.expr(n.args[1])})"

    @handles("diff")
    def op_diff(self, n: Op):
        return f"({self.expr(n.args[0])} & ~{self.expr(n.args[1])})"

    def never_absent(self, x) -> bool:
        """``x`` is never NOBODY/NOCARD where its code runs, so no test for
        them (none known here; the packed emitter knows some)."""
        return False

    @handles("member")
    def op_member(self, n: Op):
        a = n.args
        s = self.expr(a[1])
        if isinstance(a[0], Const):
            return "False" if a[0].value < 0 else f"({s} >> {a[0].value} & 1 == 1)"
        e = self.atom(a[0])
        if self.never_absent(a[0]):
            return f"({s} >> {e} & 1 == 1)"
        return f"({e} >= 0 and {s} >> {e} & 1 == 1)"

    def _set_edit(self, n: Op, known, code) -> str:
        """A set with one element added or removed: ``known(set, bit)`` for an
        element known here, ``code(set, element)`` for one computed (the set
        unchanged for NOBODY/NOCARD)."""
        a = n.args
        s = self.atom(a[0])
        if isinstance(a[1], Const):
            return s if a[1].value < 0 else known(s, 1 << a[1].value)
        e = self.atom(a[1])
        if self.never_absent(a[1]):
            return f"({code(s, e)})"
        return f"(({code(s, e)}) if {e} >= 0 else {s})"

    @handles("with")
    def op_with(self, n: Op):
        return self._set_edit(n, lambda s, bit: f"({s} | {bit})", lambda s, e: f"{s} | (1 << {e})")

    @handles("without")
    def op_without(self, n: Op):
        return self._set_edit(n, lambda s, bit: f"({s} & {~bit})", lambda s, e: f"{s} & ~(1 << {e})")

    @handles("is_empty")
    def op_is_empty(self, n: Op):
        return f"({self.expr(n.args[0])} == 0)"

    @handles("count")
    def op_count(self, n: Op):
        return f"({self.expr(n.args[0])}).bit_count()"

    @handles("subset")
    def op_subset(self, n: Op):
        return f"({self.expr(n.args[0])} & ~{self.expr(n.args[1])} == 0)"

    @handles("tsum")
    def op_tsum(self, n: Op):
        return self._tsum(n.args[0], n.args[1])

    @handles("attr")
    def op_attr(self, n: Op):
        return f"{self.expr(n.args[1])}[{self.expr(n.args[0])}]"

    @handles("step")
    def op_step(self, n: Op):
        p = self.atom(n.args[0])
        return f"(({p} + {self.expr(n.args[1])}) % {self.n} if {p} >= 0 else -1)"

    @handles("next_in")
    def op_next_in(self, n: Op):
        a = n.args
        nxt = self.module.const(runtime.next_in_table(self.n), "NEXT")
        return f"{nxt}[{self.expr(a[1])} + 1][{self.expr(a[0])} + 1][{self.expr(a[2])}]"

    @handles("top")
    def op_top(self, n: Op):
        p = self.atom(n.args[0])
        return f"({p}[-1] if {p} else -1)"

    @handles("pile_len")
    def op_pile_len(self, n: Op):
        return f"len({self.expr(n.args[0])})"

    @handles("push")
    def op_push(self, n: Op):
        return f"({self.expr(n.args[0])} + ({self.expr(n.args[1])},))"

    @handles("pop")
    def op_pop(self, n: Op):
        return f"{self.expr(n.args[0])}[:-1]"

    @handles("pile_cards")
    def op_pile_cards(self, n: Op):
        return f"pile_mask({self.expr(n.args[0])})"

    @handles("pile_distinct")
    def op_pile_distinct(self, n: Op):
        p = self.atom(n.args[0])
        return f"(len(set({p})) == len({p}))"

    @handles("pile_of")
    def op_pile_of(self, n: Op):
        c = self.atom(n.args[0])
        return f"(({c},) if {c} >= 0 else ())"

    @handles("get")
    def op_get(self, n: Op):
        a = n.args
        m = self.atom(a[0])
        if isinstance(a[1], Const):
            return f"{m}[{a[1].value}]" if a[1].value >= 0 else repr(runtime.zero_of(n.type))
        k = self.atom(a[1])
        if self.never_absent(a[1]):
            return f"{m}[{k}]"
        return f"({m}[{k}] if {k} >= 0 else {runtime.zero_of(n.type)!r})"

    @handles("put")
    def op_put(self, n: Op):
        a = n.args
        m, v = self.atom(a[0]), self.atom(a[2])
        if isinstance(a[1], Const):
            k = a[1].value
            return m if k < 0 else f"({m}[:{k}] + ({v},) + {m}[{k + 1}:])"
        k = self.atom(a[1])
        return f"(({m}[:{k}] + ({v},) + {m}[{k} + 1:]) if {k} >= 0 else {m})"

    def _tsum(self, s_node, table_node):
        if not isinstance(table_node, Const):
            raise SpecError("tsum needs a constant table")
        groups: dict[int, int] = {}
        for i, v in enumerate(table_node.value[:-1]):
            if v:
                groups[v] = groups.get(v, 0) | (1 << i)
        if not groups:
            return "0"
        s = self.atom(s_node)
        terms = [f"{v} * ({s} & {m}).bit_count()" if v != 1 else f"({s} & {m}).bit_count()"
                 for v, m in sorted(groups.items())]
        return "(" + " + ".join(terms) + ")"

    def _unrolled_players(self, n: Quant) -> str:
        """A quantifier over a variable set of players: at most 8 seats, so
        each seat is tested in line rather than looped over."""
        dom = self.atom(n.domain)
        bodies = [A.substitute(n.body, {n.var.name: Const(i, n.var.type)}) for i in range(self.n)]
        if n.kind in ("forall", "exists"):
            if n.kind == "forall":  # forall x in D: b  ==  not exists x in D: not b
                bodies = [Op("not", (b,)) for b in bodies]
            found = self._chain([lambda i=i, b=b: self._chain(
                [lambda: _member_of(i, dom), b], True) for i, b in enumerate(bodies)], False)
            if n.kind == "exists":
                return found
            return {"True": "False", "False": "True"}.get(found, f"(not {found})")
        out = self.fresh()
        self.line(f"{out} = 0")
        for i, b in enumerate(bodies):
            self.line(f"if {_member_of(i, dom)}:")
            self.depth += 1
            self.scopes.append({})
            code = self.expr(b)
            if n.kind == "sum":
                self.line(f"{out} += {code}")
            elif code == "True":
                self.line(f"{out} |= {1 << i}")
            elif code != "False":
                self.line(f"if {code}:")
                self.line(f"    {out} |= {1 << i}")
            else:
                self.line("pass")
            self.scopes.pop()
            self.depth -= 1
        return out

    def on_Quant(self, n: Quant):
        if isinstance(n.domain, Const):
            elems = list(runtime.bits(n.domain.value))
            bodies = [A.substitute(n.body, {n.var.name: Const(i, n.var.type)}) for i in elems]
            if n.kind == "forall":
                return self._chain(bodies, True)
            if n.kind == "exists":
                return self._chain(bodies, False)
            if n.kind == "mapof":
                if elems != list(range(self.n)):
                    raise SpecError("mapof must range over all players")
                parts = [self.atom(b) for b in bodies]
                return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            out = self.fresh()
            self.line(f"{out} = 0")
            for i, b in zip(elems, bodies):
                if n.kind == "sum":
                    self.line(f"{out} += {self.expr(b)}")
                else:  # setof
                    c = self.expr(b)
                    if c == "True":
                        self.line(f"{out} |= {1 << i}")
                    elif c != "False":
                        self.line(f"if {c}:")
                        self.line(f"    {out} |= {1 << i}")
            return out
        if n.kind == "mapof":
            raise SpecError("mapof must range over all players")
        if n.domain.type == A.PLAYERS:
            return self._unrolled_players(n)
        dom = self.atom(n.domain)
        out, m, elem = self.fresh(), self.fresh("m"), self.fresh("x")
        self.line(f"{out} = {dict(forall='True', exists='False').get(n.kind, '0')}")
        self.line(f"{m} = {dom}")
        self.line(f"while {m}:")
        self.push()
        low = self.fresh("low")
        self.line(f"{low} = {m} & -{m}")
        self.line(f"{elem} = {low}.bit_length() - 1")
        self.line(f"{m} ^= {low}")
        self.env[n.var.name] = elem
        code = self.expr(n.body)
        if n.kind == "forall":
            self.line(f"if not {code}:")
            self.line(f"    {out} = False")
            self.line("    break")
        elif n.kind == "exists":
            self.line(f"if {code}:")
            self.line(f"    {out} = True")
            self.line("    break")
        elif n.kind == "sum":
            self.line(f"{out} += {code}")
        else:
            self.line(f"if {code}:")
            self.line(f"    {out} |= {low}")
        self.pop()
        return out


def _member_of(i, dom_atom):
    return f"({dom_atom} >> {i} & 1 == 1)"


def _is_zero_sum(args) -> bool:
    """eq(tsum(X, T), 0) with a constant, non-negative table T."""
    x, z = args
    return (isinstance(z, Const) and z.value == 0 and isinstance(x, Op) and x.op == "tsum"
            and isinstance(x.args[1], Const) and min(x.args[1].value) >= 0)


def _ident(name: str) -> str:
    return name.replace(".", "_")


class EngineSource:
    """The generated source for one elaborated spec, with its entry points."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.n = spec.config.players
        self.module = Module()
        self.vars = [v.name for v in spec.variables]
        self.funcs: list[str] = []
        self.inline = spec.inliner()
        self.origins = Origins(spec)
        #: the fragments of the action (or phase) being compiled -> their rules
        self.labels: dict = {}

    def unpack(self, em: FunctionEmitter, src="s", prefix="v_"):
        names = ", ".join(prefix + v for v in self.vars)
        em.line(f"({names},) = {src}")

    def function(self, header: str, em: FunctionEmitter):
        self.funcs.append(header + "\n" + "\n".join(em.lines))

    def emitter(self):
        em = FunctionEmitter(self.module, self.n)
        em.origins = self.labels
        return em

    # -- per action --------------------------------------------------------
    def emit_enum(self, em: FunctionEmitter, act):
        """Append the legal actions of ``act`` to ``out`` (the phase is checked)."""
        name, params = act.name, act.decl.params
        depth, scopes = em.depth, len(em.scopes)
        em.scopes.append({})
        for prm in params:
            em.open_param_loop(prm, em.atom(self.inline(prm.domain)))
        g = em.expr(act.guard)
        args = f"({name!r}, (" + "".join(f"p_{p.name}, " for p in params) + "))"
        if g == "True":
            em.line(f"out.append({args})")
        elif g != "False":
            em.line(f"if {g}:")
            em.line(f"    out.append({args})")
        for _ in params:
            em.pop()
        em.scopes.pop()
        assert em.depth == depth and len(em.scopes) == scopes

    def action(self, act):
        """The generated functions of one action, in this order, each fragment
        of a rule under a comment naming it."""
        self.labels = self.origins.of_actions(act)
        self.enum_function(act)
        self.apply_function(act)
        self.allowed_function(act)
        self.sample_function(act)
        self.fired_function(act)
        self.labels = {}

    def bind_params(self, em, params):
        """Unpack the parameter tuple ``a`` into ``p_<name>`` locals."""
        if params:
            em.line("(" + "".join(f"p_{p.name}, " for p in params) + ") = a")
            for p in params:
                em.env[p.name] = f"p_{p.name}"

    def enum_function(self, act):
        """``enum_<action>(s)``: the legal parameter tuples."""
        em = self.emitter()
        self.unpack(em)
        em.line(f"if v_phase != {act.phase.value}:")
        em.line("    return []")
        em.line("out = []")
        self.emit_enum(em, act)
        em.line("return out")
        self.function(f"def enum_{act.name}(s):", em)

    def apply_function(self, act):
        """``apply_<action>(s, a)``: the next state."""
        em = self.emitter()
        self.unpack(em)
        self.bind_params(em, act.decl.params)
        done: set = set()
        for var in act.order:
            for _, when, _, _ in act.updates.get(var, ()):
                # every condition once, at the top level, for all to share; not one
                # reading a new value not yet computed (a condition the value folded
                # away, e.g. below an update that always applies, is not in the order)
                if {n.name for n in A.walk(when) if isinstance(n, A.Primed)} <= done:
                    em.atom(when)
            done.add(var)
            code = em.expr(act.values[var])
            em.line(f"n_{var} = {code}")
            em.scopes[0][A.Primed(var, act.values[var].type)] = f"n_{var}"
        new = ", ".join(f"n_{v}" if v in act.values else f"v_{v}" for v in self.vars)
        em.line(f"return ({new},)")
        self.function(f"def apply_{act.name}(s, a):", em)

    def allowed_function(self, act):
        """``allowed_<action>(s, a)``: the guard check of one parameter tuple (validation)."""
        params = act.decl.params
        em = self.emitter()
        self.unpack(em)
        em.line(f"if v_phase != {act.phase.value}:")
        em.line("    return False")
        if params:
            em.line("(" + "".join(f"p_{p.name}, " for p in params) + ") = a")
            for p in params:
                em.env[p.name] = f"p_{p.name}"
                dom = em.atom(self.inline(p.domain))
                if p.size is None:
                    em.line(f"if not (p_{p.name} >= 0 and {dom} >> p_{p.name} & 1):")
                else:
                    em.line(f"if p_{p.name} & ~{dom} or p_{p.name}.bit_count() != {p.size}:")
                em.line("    return False")
        em.line(f"return {em.expr(act.guard)}")
        self.function(f"def allowed_{act.name}(s, a):", em)

    def sample_function(self, act):
        """``sample_<action>(s, randrange)``: one outcome of a chance action over
        one element domain (only such an action has one)."""
        params = act.decl.params
        if not (act.phase.actor is None and len(params) == 1 and params[0].size is None
                and act.guard == A.Const(True, A.BOOL)):
            return
        em = self.emitter()
        self.unpack(em)
        dom = em.atom(self.inline(params[0].domain))
        em.line(f"m = {dom}")
        em.line("if not m:")
        em.line("    return None")
        em.line("k = randrange(m.bit_count())")
        em.line("while k:")
        em.line("    m &= m - 1")
        em.line("    k -= 1")
        em.line(f"return ({act.name!r}, ((m & -m).bit_length() - 1,))")
        self.function(f"def sample_{act.name}(s, randrange):", em)

    def fired_function(self, act):
        """``fired_<action>(s, a, s2)``: which rules took part in this step."""
        em = self.emitter()
        self.unpack(em)
        self.unpack(em, "s2", "n_")
        self.bind_params(em, act.decl.params)
        always = sorted({rid for rid, _ in act.guards} | set(act.used_defs))
        em.line(f"out = {always!r}")
        seen = set(always)
        for var, ups in act.updates.items():
            for rid, when, _, _ in ups:
                # a rule took part when its update applied; so did the
                # definitions (and their readings) that update used
                ids = [rid] + sorted(act.update_defs.get((var, rid), ()))
                c = em.expr(when)
                if c == "True":
                    for x in ids:
                        if x not in seen:
                            em.line(f"out.append({x!r})")
                            seen.add(x)
                elif c != "False":
                    em.line(f"if {c}:")
                    for x in ids:
                        em.line(f"    if {x!r} not in out:")
                        em.line(f"        out.append({x!r})")
        em.line("return out")
        self.function(f"def fired_{act.name}(s, a, s2):", em)

    # -- whole spec --------------------------------------------------------
    def build(self) -> str:
        """The whole engine module as one source."""
        for act in self.spec.actions:
            self.action(act)
        self.legal_functions()
        self.current_function()
        self.scores_function()
        self.property_functions()
        header = [
            f'"""Engine generated from the itcp spec: {self.spec.config.describe()}.',
            "",
            "Readings: " + ", ".join(f"{k}={v}" for k, v in sorted(self.spec.readings.items())),
            'Do not edit: regenerate with `itcp-check rules --dump-engine`."""',
            RUNTIME_IMPORT,
            "",
        ]
        return "\n".join(header + self.module.lines + [""] + [f + "\n" for f in self.funcs])

    def legal_functions(self):
        """Legal actions: one function per phase (one unpacking, shared
        subexpressions across the phase's actions), dispatched on the phase."""
        table = []
        for ph in self.spec.phases:
            acts = [a for a in self.spec.actions if a.phase.name == ph.name]
            if not acts:
                table.append("_no_moves")
                continue
            self.labels = self.origins.of_actions(*acts)
            em = self.emitter()
            self.labels = {}
            self.unpack(em)
            em.line("out = []")
            for a in acts:
                self.emit_enum(em, a)
            em.line("return out")
            self.function(f"def legal_{ph.name}(s):", em)
            table.append(f"legal_{ph.name}")
        self.funcs.append("def _no_moves(s):\n    return []")
        self.funcs.append("LEGAL = (" + ", ".join(table) + ",)")
        self.funcs.append("def legal(s):\n    return LEGAL[s[0]](s)")

    def current_function(self):
        """``current(s)``: whose move it is (TERMINAL, CHANCE or a seat)."""
        em = self.emitter()
        self.unpack(em)
        for ph in self.spec.phases:
            em.line(f"if v_phase == {ph.value}:")
            em.push()
            if ph.terminal:
                em.line(f"return {TERMINAL}")
            elif ph.actor is None:
                em.line(f"return {CHANCE}")
            else:
                em.line(f"return {em.expr(self.inline(ph.actor))}")
            em.pop()
        em.line(f"return {TERMINAL}")
        self.function("def current(s):", em)

    def scores_function(self):
        """``scores(s)``: each seat's score as the spec computes it."""
        em = self.emitter()
        self.unpack(em)
        parts = []
        for p in range(self.n):
            parts.append(em.atom(self.inline(score_of(p))))
        em.line("return (" + ", ".join(parts) + ",)")
        self.function("def scores(s):", em)

    def property_functions(self):
        """``prop_<ID>`` per property with a formula, ``state_ok`` (all state
        properties at once: the explorer's fast path) and ``hand_range`` (the
        live hand sizes, HAND_BOUNDS), each with one unpacking."""
        for prop in self.spec.properties:
            if prop.formula is None:
                continue
            em = self.emitter()
            self.unpack(em)
            if prop.kind == "step":
                self.unpack(em, "s2", "n_")
            em.line(f"return {em.expr(self.inline(prop.formula))}")
            args = "s, s2" if prop.kind == "step" else "s"
            self.function(f"def prop_{prop.id}({args}):", em)
        state_props = [p for p in self.spec.properties if p.kind == "state" and p.formula is not None]
        if state_props:
            em = self.emitter()
            self.unpack(em)
            em.line(f"return {em.expr(self.inline(And(*[p.formula for p in state_props])))}")
            self.function("def state_ok(s):", em)
        em = self.emitter()
        self.unpack(em)
        em.line("lo, hi = 999, -1")
        obs = observations(self.spec.properties)
        for live, hand in zip(obs.get("live_hand", ()), obs.get("hand", ())):
            em.line(f"if {em.expr(self.inline(live))}:")
            em.push()
            em.line(f"k = ({em.expr(self.inline(hand))}).bit_count()")
            em.line("if k < lo: lo = k")
            em.line("if k > hi: hi = k")
            em.pop()
        em.line("return lo, hi")
        self.function("def hand_range(s):", em)


def generate(spec: Spec) -> str:
    return EngineSource(spec).build()


def compile_state_formulas(spec: Spec, formulas: dict) -> dict:
    """name -> a compiled test of the state formula ``formulas[name]`` (a spec
    node over the state variables): a function of an engine state that gives
    the formula's truth there.  The code is the engine's (the same emitter as
    ``prop_<ID>``), so it says what the reference evaluator says, many times
    faster: for filters that evaluate many formulas in many states."""
    src = EngineSource(spec)
    names = {}
    for i, (name, node) in enumerate(formulas.items()):
        em = src.emitter()
        src.unpack(em)
        em.line(f"return {em.expr(src.inline(node))}")
        src.function(f"def f_{i}(s):", em)
        names[name] = f"f_{i}"
    source = "\n".join([RUNTIME_IMPORT, ""]
                       + src.module.lines + [""] + [f + "\n" for f in src.funcs])
    scope = load_generated(source, "<itcp-formulas>")
    return {name: scope[f] for name, f in names.items()}


def compile_spec(spec: Spec, filename: str = "<itcp-engine>") -> types.ModuleType:
    """Generate, compile and load the engine module for ``spec``."""
    source = generate(spec)
    mod = types.ModuleType("itcp_generated_engine")
    mod.__dict__["__source__"] = source  # the generated module's own globals
    load_generated(source, filename, mod.__dict__)
    return mod
