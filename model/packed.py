"""The successor compiler: the elaborated spec compiled to work on packed states.

The explorer stores every state as one packed integer (``model/packing.py``).
The generic path unpacks it to a tuple, asks the engine for the legal actions,
applies each (a new tuple), packs the result and evaluates the step properties
on the two tuples: the tuple round trip dominates the search.  This compiler
reads the same elaborated spec as ``model/codegen.py`` (it reuses that
emitter, so every rule is compiled by the same code) but generates, per phase,
one function ``succ_<PHASE>(k, out, bad)`` that

* reads from ``k`` only the fields the phase's guards and updates use (shift
  and mask), with the discard pile kept packed (``top``, ``push``, ``pop`` are
  shifts, not tuple copies),
* for every legal parameter choice, computes the updated variables and builds
  the successor key by patching only the fields the action writes,
* checks every step property of the spec on the move, each specialised to the
  action (a variable the action does not write is its own next value, so e.g.
  FROZEN folds away for an action that touches no hand), appending
  ``(property id, action)`` to ``bad`` when one fails,

and appends the successor keys (or ``(action, key)`` pairs) to ``out`` in the
order ``legal`` lists the actions, so a search numbers states identically on
both paths.  It also generates ``state_ok(k)`` (all state properties) and
``hand_range(k)`` on keys, and, per state property, the mask of the key bits
its formula reads (``READS``), so a caller can skip re-checking a property on a
successor whose read fields did not change.  Conformance with the generic
engine is tested state by state (tests/test_packed.py).
"""
from __future__ import annotations

import functools
import re
import types

from itcp.spec import ast as A
from itcp.spec.ast import Const, Ite, Op, Primed, Var
from itcp.spec.lang import And, Inliner, Spec, _unprime
from itcp.spec.simplify import simplify

from . import runtime
from .codegen import FunctionEmitter, Module
from .packing import Layout

_VAR_REF = re.compile(r"\bv_([A-Za-z0-9_]+)\b")


class PackedEmitter(FunctionEmitter):
    """The engine emitter with the discard pile as a packed integer.

    A pile value is ``len | (card+1) << (LB + CB*i)`` for its i-th card from
    the bottom: the same encoding the state key uses above its fixed fields,
    so the pile field is read and written with one shift.
    """

    def __init__(self, module: Module, n_players: int, layout: Layout):
        super().__init__(module, n_players)
        self.loop_params: set = set()  # parameters bound by a loop over a set's bits
        self.n_cards = layout.spec.config.n_cards
        self.lb, self.cb = layout.len_bits, layout.card_bits
        self.lm, self.cm = (1 << self.lb) - 1, (1 << self.cb) - 1

    #: a subexpression of at least this many nodes whose only input is one
    #: card set is looked up in a table of its values (decks up to TABLE_CARDS)
    TABLE_NODES = 8
    TABLE_CARDS = 12

    def expr(self, node):
        if (isinstance(node, (Op, Ite)) and node.type in (A.BOOL, A.INT, A.CARDS)
                and self.n_cards <= self.TABLE_CARDS and self.cached(node) is None):
            table = self.tabulate(node)
            if table is not None:
                x, values = table
                name = self.module.const(values, "BY_SET")
                code = f"{name}[{self.expr(x)}]"
                out = self.fresh()
                self.line(f"{out} = {code}")
                self.scopes[-1][node] = out
                return out
        return super().expr(node)

    def on_Quant(self, n):
        if (n.kind in ("forall", "exists") and not isinstance(n.domain, Const)
                and n.domain.type == A.PLAYERS):
            # over an empty set of seats (no passer yet, say) skip the seats
            dom = self.atom(n.domain)
            out = self.fresh()
            self.line(f"{out} = {n.kind == 'forall'}")
            self.line(f"if {dom}:")
            self.push()
            self.line(f"{out} = {super().on_Quant(n)}")
            self.pop()
            return out
        return super().on_Quant(n)

    def tabulate(self, node):
        """(X, values) when ``node`` depends on one card-set subterm X only:
        the smallest X whose replacement by a constant leaves a closed term."""
        memo = self.module.__dict__.setdefault("_tables", {})  # id -> (node, answer)
        hit = memo.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        memo[id(node)] = (node, None)
        nodes = list(A.walk(node))
        if len(nodes) < self.TABLE_NODES or any(isinstance(x, (A.Let, A.Quant)) for x in nodes):
            return None
        candidates = {x for x in nodes if x is not node and x.type == A.CARDS
                      and not isinstance(x, Const)}
        shared = self.module.__dict__.setdefault("_tables_by_term", {})
        if node in shared:  # the same term met again (another action, another scope)
            memo[id(node)] = (node, shared[node])
            return shared[node]
        for x in sorted(candidates, key=lambda c: sum(1 for _ in A.walk(c))):
            probe = _replace(node, x, Const(0, A.CARDS))
            if any(isinstance(y, (Var, Primed, A.Param, A.Bound)) for y in A.walk(probe)):
                continue
            # the values, by the engine compiler's own code for the term
            em = FunctionEmitter(Module(), self.n)
            em.env["_set"] = "x"
            result = em.expr(_replace(node, x, A.Param("_set", A.CARDS)))
            env: dict = {}
            src = "\n".join(em.module.lines + ["def f(x):"] + em.lines + [f"    return {result}"])
            exec(compile(src + "\n", "<itcp-packed-table>", "exec"), runtime.__dict__ | env, env)
            answer = (x, tuple(env["f"](m) for m in range(1 << self.n_cards)))
            memo[id(node)], shared[node] = (node, answer), answer
            return answer
        shared[node] = None
        return None

    def encode_pile(self, cards) -> int:
        k = len(cards)
        for i, c in enumerate(cards):
            k |= (c + 1) << (self.lb + self.cb * i)
        return k

    def on_Const(self, n: Const):
        if n.type == A.PILE:
            return str(self.encode_pile(n.value))
        return super().on_Const(n)

    def on_Op(self, n):
        o, a = n.op, n.args
        lb, cb, lm, cm = self.lb, self.cb, self.lm, self.cm
        if o == "pile_len":
            return f"({self.expr(a[0])} & {lm})"
        if o == "top":
            p = self.atom(a[0])
            return f"(({p} >> ({lb - cb} + {cb} * ({p} & {lm})) & {cm}) - 1 if {p} else -1)"
        if o == "push":
            p, c = self.atom(a[0]), self.atom(a[1])
            return f"({p} + 1 | ({c} + 1) << ({lb} + {cb} * ({p} & {lm})))"
        if o == "pop":
            p = self.atom(a[0])
            return f"(({p} & (1 << ({lb - cb} + {cb} * ({p} & {lm}))) - 1) - 1 if {p} else 0)"
        if o == "pile_of":
            c = self.atom(a[0])
            return f"(1 | ({c} + 1) << {lb} if {c} >= 0 else 0)"
        if self.loop_params and o in ("member", "with", "without", "get") and any(
                isinstance(x, A.Param) and x.name in self.loop_params for x in a):
            # a parameter drawn from a set's bits is never NOBODY/NOCARD: no guard
            if o == "member" and isinstance(a[0], A.Param):
                e = self.env[a[0].name]
                return f"({self.expr(a[1])} >> {e} & 1 == 1)"
            if o in ("with", "without") and isinstance(a[1], A.Param):
                m, e = self.atom(a[0]), self.env[a[1].name]
                return f"({m} | (1 << {e}))" if o == "with" else f"({m} & ~(1 << {e}))"
            if o == "get" and isinstance(a[1], A.Param):
                return f"{self.atom(a[0])}[{self.env[a[1].name]}]"
        if o == "or" and len(a) > 2 and all(
                isinstance(x, Op) and x.op == "eq" and isinstance(x.args[1], Const)
                and x.args[0] == a[0].args[0] for x in a):
            # x == c1 or x == c2 or ...: one membership test
            values = sorted({x.args[1].value for x in a})
            return f"({self.expr(a[0].args[0])} in {self.module.const(frozenset(values), 'ONE_OF')})"
        if o == "put" and not isinstance(a[1], Const) and self.n <= 4:
            # one new tuple, chosen by the seat, instead of three slices joined
            m, key, v = self.atom(a[0]), self.atom(a[1]), self.atom(a[2])
            options = [f"({', '.join(v if j == i else f'{m}[{j}]' for j in range(self.n))},)"
                       for i in range(self.n)]
            chain = options[-1]
            for i in range(self.n - 2, -1, -1):
                chain = f"{options[i]} if {key} == {i} else {chain}"
            return f"(({chain}) if {key} >= 0 else {m})"
        if o == "pile_distinct":
            # distinct exactly when the pile's set of cards is as large as the pile
            p = self.atom(a[0])
            cards = self.on_Op(Op("pile_cards", (a[0],)))
            return f"({cards}.bit_count() == ({p} & {lm}))"
        if o == "pile_cards":
            # a table maps a chunk of a few packed cards to their set of cards
            per = max(1, 12 // cb)
            t = self.module.const(_pile_card_table(cb, per), "PILECARDS")
            p = self.atom(a[0])
            out, r = self.fresh("pm"), self.fresh("r")
            self.line(f"{out} = 0")
            self.line(f"{r} = {p} >> {lb}")
            self.line(f"while {r}:")
            self.line(f"    {out} |= {t}[{r} & {(1 << (cb * per)) - 1}]")
            self.line(f"    {r} >>= {cb * per}")
            return out
        return super().on_Op(n)


class PackedSource:
    """Generated source of the packed successor functions for one spec."""

    def __init__(self, spec: Spec, with_actions: bool = False, store: bool = False,
                 symmetric: bool = False):
        self.spec = spec
        self.with_actions = with_actions
        self.store = store  # successors stored in the search's tables
        self.symmetric = symmetric  # stored keys canonicalised (bind's canon, orbit)
        self.phase_name = None
        from itcp.spec.rules.table import OVER
        self.over = OVER
        self.layout = Layout(spec)
        self.module = Module()
        self.inline = Inliner(spec.definitions)
        self.funcs: list[str] = []
        self.n = spec.config.players
        self.types = {v.name: v.type for v in spec.variables}
        self.fields = {var: fs for var, _, fs in self.layout.fields}
        self.fixed_mask = (1 << self.layout.fixed_bits) - 1
        self.step_props = [p for p in spec.properties if p.kind == "step" and p.formula is not None]
        self.state_props = [p for p in spec.properties
                            if p.kind == "state" and p.formula is not None]

    # -- fields --------------------------------------------------------------
    def field_mask(self, var: str) -> int:
        """The key bits holding ``var`` (the pile: every bit above the fixed fields)."""
        if self.layout.pile is not None and var == self.layout.pile.name:
            return ~self.fixed_mask
        m = 0
        for f in self.fields[var]:
            m |= ((1 << f.width) - 1) << f.offset
        return m

    def read_field(self, var: str) -> str:
        if self.layout.pile is not None and var == self.layout.pile.name:
            return f"k >> {self.layout.fixed_bits}"
        t = self.types[var]
        vt = A.map_value_type(t)
        parts = []
        for f in self.fields[var]:
            raw = f"(k >> {f.offset} & {(1 << f.width) - 1})" if f.offset else \
                f"(k & {(1 << f.width) - 1})"
            parts.append(f"{raw} - {f.bias}" if f.bias else raw)
        return f"({', '.join(parts)},)" if vt else parts[0]

    def write_field(self, var: str, code: str) -> list[str]:
        """Terms OR-ed into a key to store ``code`` as ``var`` (field cleared)."""
        if self.layout.pile is not None and var == self.layout.pile.name:
            return [f"{code} << {self.layout.fixed_bits}"]
        t = self.types[var]
        vt = A.map_value_type(t)
        out = []
        for i, f in enumerate(self.fields[var]):
            ref = f"{code}[{i}]" if vt else code
            val = f"({ref} + {f.bias})" if f.bias else ref
            out.append(f"{val} << {f.offset}" if f.offset else f"{val}")
        return out

    def patch_field(self, var: str) -> list[str]:
        """Statements turning ``k2`` (holding ``v_<var>``) into a key holding ``n_<var>``."""
        n, v = f"n_{var}", f"v_{var}"
        if self.layout.pile is not None and var == self.layout.pile.name:
            return [f"if {n} != {v}:",
                    f"    k2 = k2 & {self.fixed_mask} | {n} << {self.layout.fixed_bits}"]
        vt = A.map_value_type(self.types[var])
        out = []
        for i, f in enumerate(self.fields[var]):
            nn, vv = (f"{n}[{i}]", f"{v}[{i}]") if vt else (n, v)
            delta = f"({nn} + {f.bias}) ^ ({vv} + {f.bias})" if f.bias else f"{nn} ^ {vv}"
            shift = f" << {f.offset}" if f.offset else ""
            out += [f"if {nn} != {vv}:", f"    k2 ^= ({delta}){shift}"]
        return out

    def prelude(self, body: list[str], indent: str = "    ") -> list[str]:
        """Extraction lines for the state variables ``body`` reads, in spec order.

        A scalar read at one place only is read from the key there instead
        (``body`` is rewritten in place), so a rarely taken branch costs
        nothing when it is not taken.
        """
        uses: dict[str, int] = {}
        for line in body:
            for name in _VAR_REF.findall(line):
                uses[name] = uses.get(name, 0) + 1
        once = {v.name for v in self.spec.variables if uses.get(v.name) == 1
                and not A.map_value_type(v.type)}
        if once:
            pattern = re.compile(r"\bv_(" + "|".join(sorted(once)) + r")\b")
            body[:] = [pattern.sub(lambda m: f"({self.read_field(m.group(1))})", line)
                       for line in body]
        return [f"{indent}v_{v.name} = {self.read_field(v.name)}"
                for v in self.spec.variables if v.name in uses and v.name not in once]

    def reads_mask(self, node) -> int:
        m = 0
        for x in A.walk(node):
            if isinstance(x, (Var, Primed)):
                m |= self.field_mask(x.name)
        return m

    def emitter(self) -> PackedEmitter:
        return PackedEmitter(self.module, self.n, self.layout)

    def function(self, header: str, em: FunctionEmitter):
        self.funcs.append("\n".join([header] + self.prelude(em.lines) + em.lines))

    # -- one phase ------------------------------------------------------------
    def emit_moves(self, em: PackedEmitter, act):
        """Every legal parameter choice of ``act``: its successor key and step checks."""
        params = act.decl.params
        if act.guard == Const(False, A.BOOL):
            return  # never legal at this table
        depth, scopes = em.depth, len(em.scopes)
        em.scopes.append({})
        hoisted = self.hoistable(act) if params else []
        invariant = self.invariant_terms(act, hoisted) if params else []
        pushed = False
        if hoisted or invariant:
            # new values, and terms of the guard and of the other new values, that
            # no parameter affects: once per state, not per choice (the generated
            # code is total, so computing a term early is safe)
            dom = em.atom(self.inline(params[0].domain))
            em.line(f"if {dom}:")
            em.push()
            pushed = True
            for var in hoisted:
                self.emit_value(em, act, var)
            for term in invariant:
                em.atom(term)
        for prm in params:
            if em.open_param_loop(prm, em.atom(self.inline(prm.domain))):
                em.loop_params.add(prm.name)
        g = em.expr(act.guard)
        if g != "False":
            if g != "True":
                em.line(f"if {g}:")
                em.push()
            self.emit_apply(em, act)
            if g != "True":
                em.pop()
        for _ in params:
            em.pop()
        em.loop_params.clear()
        if pushed:
            em.pop()
        em.scopes.pop()
        assert em.depth == depth and len(em.scopes) == scopes

    def hoistable(self, act) -> list[str]:
        """The variables whose new values (and update conditions) read no
        parameter, directly or through another such value."""
        names = {p.name for p in act.decl.params}
        out: list[str] = []
        for var in act.order:
            nodes = [act.values[var]] + [w for _, w, _, _ in act.updates.get(var, ())]
            if all(not (isinstance(x, A.Param) and x.name in names)
                   and not (isinstance(x, Primed) and x.name in act.values and x.name not in out)
                   for n in nodes for x in A.walk(n)):
                out.append(var)
        return out

    def invariant_terms(self, act, hoisted) -> list:
        """The largest compound terms of the guard and of the new values left in
        the loop that read no parameter (nor a new value that does)."""
        dependent: dict = {}

        def depends(x) -> bool:
            key = id(x)
            if key not in dependent:
                if isinstance(x, (A.Param, A.Bound)):
                    dependent[key] = True  # a parameter, or bound inside a larger term
                elif isinstance(x, Primed):
                    dependent[key] = x.name in act.values and x.name not in hoisted
                else:
                    dependent[key] = any(depends(c) for c in A.children(x))
            return dependent[key]

        out: list = []
        seen: set = set()

        def collect(x):
            if not depends(x):
                if isinstance(x, (Op, Ite)) and x not in seen:
                    seen.add(x)
                    out.append(x)
                return
            if isinstance(x, (A.Quant, A.Let)):
                return  # its body reads its own bound variable
            for c in A.children(x):
                collect(c)

        collect(act.guard)
        for var in act.order:
            if var not in hoisted:
                collect(act.values[var])
                for _, when, _, _ in act.updates.get(var, ()):
                    collect(when)
        return out

    def emit_value(self, em: PackedEmitter, act, var) -> bool:
        """``n_<var> = <its new value>``; True if it may differ from the old one."""
        for _, when, _, _ in act.updates.get(var, ()):
            em.atom(when)
        code = em.expr(act.values[var])
        em.line(f"n_{var} = {code}")
        em.scopes[-1][Primed(var, act.values[var].type)] = f"n_{var}"
        return code != f"v_{var}"

    def emit_apply(self, em: PackedEmitter, act):
        name, params = act.name, act.decl.params
        hoisted = set(self.hoistable(act)) if params else set()
        written = []
        for var in act.order:
            if var in hoisted:
                if act.values[var] != Var(var, act.values[var].type):
                    written.append(var)
                continue
            if self.emit_value(em, act, var):
                written.append(var)
        # the successor key: the parent's, with each field that changed
        # flipped to its new value (most writes leave most fields as they were)
        em.line("k2 = k")
        for var in written:
            for line in self.patch_field(var):
                em.line(line)
        action = f"({name!r}, (" + "".join(f"p_{p.name}, " for p in params) + "))"
        for prop in self.step_props:
            formula = simplify(_unprime(self.inline(prop.formula), act.values), self.n)
            ok = em.expr(formula)
            if ok == "True":
                continue
            em.line(f"if not {ok}:")
            em.line(f"    bad.append(({prop.id!r}, {action}))")
        if self.store:
            self.emit_store(em, act, written)
        else:
            em.line(f"out.append(({action}, k2))" if self.with_actions else "out.append(k2)")

    def emit_store(self, em: PackedEmitter, act, written):
        """Store a new successor: number, parent, depth; its state properties
        and hand sizes (each only if the action writes a variable it reads: a
        parent satisfies every property not yet violated); its post-Pass edge."""
        if self.symmetric:
            em.line("k2 = canon(k2)")
        em.line("j = get(k2)")
        em.line("if j is None:")
        em.push()
        em.line("j = len(keys)")
        em.line("index[k2] = j")
        em.line("keys_append(k2)")
        em.line("parent_append(i)")
        em.line("depth_append(d1)")
        if self.symmetric:
            em.line("unreduced[0] += orbit(k2)")
        wrote = set(written)
        for n, prop in enumerate(self.state_props):
            formula = self.inline(prop.formula)
            if not wrote & {x.name for x in A.walk(formula) if isinstance(x, Var)}:
                continue
            # next values as the action's own nodes (Primed), so CSE shares them
            ok = em.expr(simplify(_on_successor(formula, set(act.values)), self.n))
            if ok == "True":
                continue
            em.line(f"if not {ok}:")
            em.line(f"    state_bad.append(({n}, j))")
        if self.phase_name == "OVER" or wrote & {"hands", "aside", "hand_of"}:
            name = lambda v: f"n_{v}" if v in wrote else f"v_{v}"
            em.line(f"if {name('phase')} != {self.over}:")
            for p in range(self.n):
                em.line(f"    if not ({name('aside')} >> {p} & 1) and {name('hand_of')}[{p}] == {p}:")
                em.line(f"        x = {name('hands')}[{p}].bit_count()")
                em.line("        if x < bounds[0]: bounds[0] = x")
                em.line("        if x > bounds[1]: bounds[1] = x")
        em.pop()
        both = "v_first_passer >= 0" + (" and n_first_passer >= 0" if "first_passer" in wrote else "")
        em.line(f"if {both}:")
        em.line("    edges_append((i, j))")
        em.line("moves += 1")

    # -- whole spec -------------------------------------------------------------
    def build(self) -> str:
        table = []
        for ph in self.spec.phases:
            acts = [a for a in self.spec.actions if a.phase.name == ph.name]
            if not acts:
                table.append("_no_moves")
                continue
            em = self.emitter()
            self.phase_name = ph.name
            if self.store:
                em.line("moves = 0")
            for a in acts:
                self.emit_moves(em, a)
            em.line("return moves" if self.store else "return")
            args = "k, i, d1" if self.store else "k, out, bad"
            self.function(f"def succ_{ph.name}({args}):", em)
            table.append(f"succ_{ph.name}")
        if self.store:
            # the successor functions bound to one search's tables
            inner = "\n".join(self.funcs).replace("\n", "\n    ")
            self.funcs = [
                "def bind(index, keys, parent, depth_of, edges, bad, state_bad, bounds,\n"
                "         canon=None, orbit=None, unreduced=None):\n"
                "    get, keys_append, parent_append = index.get, keys.append, parent.append\n"
                "    depth_append, edges_append = depth_of.append, edges.append\n"
                "    def _no_moves(k, i, d1):\n"
                "        return 0\n"
                "    " + inner + "\n"
                "    return (" + ", ".join(table) + ",)"]
        else:
            self.funcs.append("def _no_moves(k, out, bad):\n    return")
            self.funcs.append("SUCC = (" + ", ".join(table) + ",)")
        if self.state_props:
            em = self.emitter()
            formula = self.inline(And(*[p.formula for p in self.state_props]))
            em.line(f"return {em.expr(formula)}")
            self.function("def state_ok(k):", em)
        self.funcs.append("READS = {" + ", ".join(
            f"{p.id!r}: {self.reads_mask(self.inline(p.formula))}" for p in self.state_props) + "}")
        for prop in self.state_props:
            em = self.emitter()
            em.line(f"return {em.expr(self.inline(prop.formula))}")
            self.function(f"def prop_{prop.id}(k):", em)
        # the live hand sizes (HAND_BOUNDS), as the engine's hand_range
        em = self.emitter()
        em.line("lo, hi = 999, -1")
        for p in range(self.n):
            em.line(f"if not (v_aside >> {p} & 1) and v_hand_of[{p}] == {p}:")
            em.line(f"    x = v_hands[{p}].bit_count()")
            em.line("    if x < lo: lo = x")
            em.line("    if x > hi: hi = x")
        em.line("return lo, hi")
        self.function("def hand_range(k):", em)
        self.funcs.append(f"HAND_READS = {self.field_mask('aside') | self.field_mask('hand_of') | self.field_mask('hands')}")
        header = [
            f'"""Packed successor functions generated from the itcp spec: '
            f'{self.spec.config.describe()}."""',
            "from itcp.model.runtime import subsets",
            "",
        ]
        return "\n".join(header + self.module.lines + [""] + [f + "\n" for f in self.funcs])


def state_checker(spec: Spec, mod, pending) -> "callable":
    """``check(k, x)``: False when a property of ``pending`` fails on key ``k``.

    ``x`` is ``k`` XOR its parent's key: a property whose read fields are all
    unchanged is not evaluated again (the parent satisfied it).  The
    properties are compiled in line, one guarded block each.
    """
    pending = [p for p in spec.properties if p.id in set(pending)]
    if not pending:
        return lambda k, x: True
    src = PackedSource(spec)
    lines = ["def check(k, x):"]
    for p in pending:
        em = src.emitter()
        em.depth = 2
        ok = em.expr(src.inline(p.formula))
        body = em.lines + [f"        if not {ok}:", "            return False"]
        lines.append(f"    if x & {mod.READS[p.id]}:")
        lines += src.prelude(body, "        ") + body
    lines.append("    return True")
    env: dict = {}
    exec(compile("\n".join(src.module.lines + lines) + "\n", "<itcp-packed-check>", "exec"), env)
    return env["check"]


@functools.lru_cache(maxsize=8)
def _pile_card_table(cb: int, per: int) -> tuple:
    """The set of cards in each chunk of ``per`` packed pile cards."""
    table = []
    for chunk in range(1 << (cb * per)):
        m = 0
        for j in range(per):
            c = chunk >> (cb * j) & ((1 << cb) - 1)
            if c:
                m |= 1 << (c - 1)
        table.append(m)
    return tuple(table)


def _replace(node, old, new):
    """``node`` with every occurrence of the subterm ``old`` replaced by ``new``."""
    if node == old:
        return new
    kids = A.children(node)
    if not kids:
        return node
    out = tuple(_replace(x, old, new) for x in kids)
    return node if all(a is b for a, b in zip(out, kids)) else A.rebuild(node, out)


def _on_successor(node, written: set):
    """A state formula about the successor: a written variable is its next value."""
    if isinstance(node, Var):
        return Primed(node.name, node.type) if node.name in written else node
    kids = A.children(node)
    if not kids:
        return node
    new = tuple(_on_successor(x, written) for x in kids)
    return node if all(a is b for a, b in zip(new, kids)) else A.rebuild(node, new)


def compile_packed(spec: Spec, with_actions: bool = False, store: bool = False,
                   symmetric: bool = False, filename: str = "<itcp-packed>") -> types.ModuleType:
    """Generate, compile and load the packed successor module for ``spec``.

    ``store``: ``bind(...)`` returns, per phase, a function that stores each
    new successor in the search's tables itself (the search without symmetry
    itself (with ``symmetric``, under the canonical key ``canon`` gives,
    adding each new state's ``orbit`` size to ``unreduced[0]``); otherwise
    ``SUCC`` lists into ``out``.
    """
    source = PackedSource(spec, with_actions, store, symmetric).build()
    mod = types.ModuleType("itcp_packed_successors")
    mod.__source__ = source
    import linecache
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), mod.__dict__)
    return mod
