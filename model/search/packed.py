"""The successor compiler: the elaborated spec compiled to work on packed states.

The explorer stores every state as one packed integer (``model/search/packing.py``).
The generic path unpacks it to a tuple, asks the engine for the legal actions,
applies each (a new tuple), packs the result and evaluates the step properties
on the two tuples: the tuple round trip dominates the search.  This compiler
reads the same elaborated spec as ``model/engine/codegen.py`` (it reuses that
emitter, so every rule is compiled by the same code), first partially
evaluated (``model/analysis/specialise.py``): the variables proved constant at this
table become constants, and each generated function is specialised to one
*dispatch class*, the values of the key's lowest small fields (the phase,
whose turn it is, who acts), so a hand indexed by the actor is a fixed field
and a rotation from a known seat a table row.  Per class, compiled on first
use and reached through ``table[k & DISPATCH]``, one function that

* reads each field it needs from ``k`` where first needed (shift and mask),
  each seat of a map as its own local, the discard pile kept packed
  (``top``, ``push``, ``pop`` are shifts, not tuple copies),
* for every legal parameter choice, computes the updated variables and builds
  the successor key in one expression (the written fields cleared by a mask,
  the new values OR-ed in); what no parameter affects (new values, the key
  bits they set, terms of the guard and of the properties over the parent's
  fields) is computed once per state, before the choices are tried,
* checks every step property of the spec on the move, each specialised to the
  action (a variable the action does not write is its own next value, so e.g.
  FROZEN folds away for an action that touches no hand), appending
  ``(property id, action)`` to ``bad`` when one fails,

and appends the successor keys (or ``(action, key)`` pairs) to ``out`` in the
order ``legal`` lists the actions, so a search numbers states identically on
both paths (``store``: stores each new one in the search's tables itself).
Each guard and each new value is under a comment naming the rules that make it
(``model/engine/origins.py``).  The generated statements are then tidied on their
syntax tree (``model/search/tidy.py``: a value-picking branch becomes an
expression, a local read once folds into its reader, a dead one goes; a comment
stays above what its statement became).  It
also generates ``state_ok(k)`` (all state properties), ``prop_<ID>(k)`` and
``hand_range(k)`` on keys.  Conformance with the generic engine is tested
state by state (tests/test_packed.py).
"""
from __future__ import annotations

import ast
import functools
import types
from dataclasses import dataclass, fields

from itcp.spec import ast as A
from itcp.spec.ast import Const, Ite, Op, Primed, Var
from itcp.spec.lang import And, Spec, unprime
from itcp.spec.properties import observations
from itcp.spec.simplify import simplify

from ..analysis.specialise import constant_fields, reachable_values, reads_move, specialise
from ..engine import runtime
from ..engine.codegen import FunctionEmitter, Module
from ..engine.loader import load_generated
from ..engine.origins import Origins, comment_above
from . import tidy
from .packing import Layout


def _action_formulas(act, skip=()):
    """Every formula a generated action evaluates: its guard, the new value of each
    variable it writes (but those in ``skip``), its step and state checks."""
    yield act.guard
    for var in act.order:
        if var not in skip:
            yield act.values[var]
    for _, formula in act.step_checks:
        yield formula
    for _, _, formula in act.state_checks:
        yield formula


class PackedModule(Module):
    """The module constants of packed code, and the card-set terms tabulated for
    it (``PackedEmitter.tabulate``), shared by every function of the module."""

    def __init__(self):
        super().__init__()
        #: id(node) -> (the node, its (card-set subterm, values) or None)
        self.tables: dict[int, tuple[A.Node, tuple | None]] = {}
        #: the same by the term (met again in another action or scope)
        self.tables_by_term: dict[A.Node, tuple | None] = {}


class PackedEmitter(FunctionEmitter):
    """The engine emitter with the discard pile as a packed integer.

    A pile value is ``len | (card+1) << (LB + CB*i)`` for its i-th card from
    the bottom: the same encoding the state key uses above its fixed fields,
    so the pile field is read and written with one shift.
    """

    module: PackedModule

    def __init__(self, module: PackedModule, n_players: int, layout: Layout):
        super().__init__(module, n_players)
        self.loop_params: set = set()  # parameters bound by a loop over a set's bits
        self.values: dict = {}  # variable -> the code of its new value (n_<var>, a literal)
        #: (the key with the hoisted fields patched, those fields)
        self.key_base: tuple[str, set] = ("k", set())
        self.pile_push: tuple | None = None  # (the pushed pile, the bit offset of its new card)
        self.n_cards = layout.spec.config.n_cards
        self.lb, self.cb = layout.len_bits, layout.card_bits
        self.lm, self.cm = (1 << self.lb) - 1, (1 << self.cb) - 1

    def open_param_loop(self, prm, dom: str) -> bool:
        """A parameter drawn from a small set's members loops over a table of
        each set's member list (no bit arithmetic per member)."""
        width = {A.CARD: self.n_cards, A.PLAYER: self.n}.get(prm.type)
        if prm.size is None and width is not None and width <= self.TABLE_CARDS:
            var = f"p_{prm.name}"
            self.env[prm.name] = var
            table = self.module.const(_members_table(width), "MEMBERS")
            self.line(f"for {var} in {table}[{dom}]:")
            self.push()
            return True
        return super().open_param_loop(prm, dom)

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
                # the same lookup reached through another term (a next value
                # written out, say) is the same value: one lookup
                out = self.cached(code)
                if out is None:
                    out = self.fresh()
                    self.line(f"{out} = {code}")
                    self.scopes[-1][code] = out
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
        memo = self.module.tables
        hit = memo.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        memo[id(node)] = (node, None)
        nodes = list(A.walk(node))
        if len(nodes) < self.TABLE_NODES or any(isinstance(x, (A.Let, A.Quant)) for x in nodes):
            return None
        candidates = {x for x in nodes if x is not node and x.type == A.CARDS
                      and not isinstance(x, Const)}
        shared = self.module.tables_by_term
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
            src = "\n".join(em.module.lines + ["def f(x):"] + em.lines + [f"    return {result}"])
            f = load_generated(src + "\n", "<itcp-packed-table>", dict(runtime.__dict__))["f"]
            answer = (x, tuple(f(m) for m in range(1 << self.n_cards)))
            memo[id(node)], shared[node] = (node, answer), answer
            return answer
        shared[node] = None
        return None

    # -- maps as one local per seat ---------------------------------------------
    def on_Var(self, n: Var):
        if A.map_value_type(n.type):
            return "(" + ", ".join(f"v_{n.name}_{i}" for i in range(self.n)) + ",)"
        return super().on_Var(n)

    def on_Primed(self, n: Primed):
        parts = self.values.get(n.name)
        if A.map_value_type(n.type) and isinstance(parts, list):
            return "(" + ", ".join(parts) + ",)"
        return super().on_Primed(n)

    def map_parts(self, node):
        """The code of each seat's value of a map term, or None (no cheap split)."""
        if isinstance(node, Var):
            return [f"v_{node.name}_{i}" for i in range(self.n)]
        if isinstance(node, Const):
            return [self.expr(Const(v, A.map_value_type(node.type))) for v in node.value]
        if isinstance(node, Primed):
            parts = self.values.get(node.name)
            return list(parts) if isinstance(parts, list) else None
        if isinstance(node, Op) and node.op == "put" and isinstance(node.args[1], Const):
            parts = self.map_parts(node.args[0])
            if parts is not None and node.args[1].value >= 0:
                parts[node.args[1].value] = self.atom(node.args[2])
            return parts
        if (isinstance(node, A.Quant) and node.kind == "mapof" and isinstance(node.domain, Const)
                and list(runtime.bits(node.domain.value)) == list(range(self.n))):
            return [self.atom(simplify(A.substitute(node.body, {node.var.name: Const(i, node.var.type)}),
                                       self.n)) for i in range(self.n)]
        return None

    def pushed_card(self, node):
        """(the old pile, the card's code) when ``node`` is a pile with a card
        drawn from a set's bits (never NOCARD) pushed on it: the new pile of
        such a move, or a push term."""
        if isinstance(node, Primed) and node.type == A.PILE and self.pile_push is not None:
            node = self.pile_push[0]  # the one pile (model/search/packing.py packs one)
        if not (isinstance(node, Op) and node.op == "push"):
            return None
        card = node.args[1]
        if not (isinstance(card, A.Param) and card.name in self.loop_params):
            return None
        return node.args[0], self.env[card.name]

    def encode_pile(self, cards) -> int:
        k = len(cards)
        for i, c in enumerate(cards):
            k |= (c + 1) << (self.lb + self.cb * i)
        return k

    def on_Const(self, n: Const):
        if n.type == A.PILE:
            return str(self.encode_pile(n.value))
        return super().on_Const(n)

    # -- the operators on packed piles, and on parameters that are never NOBODY --
    def op_pile_len(self, n: Op):
        return f"({self.expr(n.args[0])} & {self.lm})"

    def op_next_in(self, n: Op):
        a = n.args
        d, seat = self.expr(a[1]), self.expr(a[0])
        if _literal(d) and _literal(seat):
            # direction and seat known here: the row of the table for them
            row = runtime.next_in_table(self.n)[_int(d) + 1][_int(seat) + 1]
            return f"{self.module.const(row, 'NEXT_FROM')}[{self.expr(a[2])}]"
        return super().op_next_in(n)

    def op_top(self, n: Op):
        lb, cb, lm, cm = self.lb, self.cb, self.lm, self.cm
        p = self.atom(n.args[0])
        if lb == cb:  # an empty pile reads its own zero length: NOCARD
            return f"(({p} >> {cb} * ({p} & {lm}) & {cm}) - 1)"
        return f"(({p} >> ({lb - cb} + {cb} * ({p} & {lm})) & {cm}) - 1 if {p} else -1)"

    def op_push(self, n: Op):
        p, c = self.atom(n.args[0]), self.atom(n.args[1])
        return f"({p} + 1 | ({c} + 1) << ({self.lb} + {self.cb} * ({p} & {self.lm})))"

    def op_pop(self, n: Op):
        lb, cb, lm = self.lb, self.cb, self.lm
        p = self.atom(n.args[0])
        shift = f"{cb} * ({p} & {lm})" if lb == cb else f"({lb - cb} + {cb} * ({p} & {lm}))"
        return f"(({p} & (1 << {shift}) - 1) - 1 if {p} else 0)"

    def never_absent(self, x) -> bool:
        """A parameter drawn from a set's bits is never NOBODY/NOCARD."""
        return isinstance(x, A.Param) and x.name in self.loop_params

    def op_pile_of(self, n: Op):
        a = n.args
        c = self.atom(a[0])
        if self.never_absent(a[0]):
            return f"(1 | ({c} + 1) << {self.lb})"  # a card drawn from a set's bits
        return f"(1 | ({c} + 1) << {self.lb} if {c} >= 0 else 0)"

    def op_get(self, n: Op):
        a = n.args
        if isinstance(a[1], Const) and a[1].value >= 0:
            parts = self.map_parts(a[0])
            if parts is not None:
                return parts[a[1].value]
        return super().op_get(n)

    def op_or(self, n: Op):
        a = n.args
        if len(a) > 2 and all(
                isinstance(x, Op) and x.op == "eq" and isinstance(x.args[1], Const)
                and x.args[0] == a[0].args[0] for x in a):
            # x == c1 or x == c2 or ...: one membership test
            values = sorted({x.args[1].value for x in a})
            return f"({self.expr(a[0].args[0])} in {self.module.const(frozenset(values), 'ONE_OF')})"
        return super().op_or(n)

    def op_put(self, n: Op):
        a = n.args
        if isinstance(a[1], Const) or self.n > 4:
            return super().op_put(n)
        # one new tuple, chosen by the seat, instead of three slices joined
        m, key, v = self.atom(a[0]), self.atom(a[1]), self.atom(a[2])
        options = [f"({', '.join(v if j == i else f'{m}[{j}]' for j in range(self.n))},)"
                   for i in range(self.n)]
        chain = options[-1]
        for i in range(self.n - 2, -1, -1):
            chain = f"{options[i]} if {key} == {i} else {chain}"
        return f"(({chain}) if {key} >= 0 else {m})"

    def op_pile_cards(self, n: Op):
        pushed = self.pushed_card(n.args[0])
        if pushed is not None:
            # the new pile is the old one with a card drawn from a set's bits on
            # top: its cards are the old pile's (computed once per state) and that card
            old, c = pushed
            cards = self.atom(Op("pile_cards", (old,), src_loc=n.src_loc))
            return f"({cards} | (1 << {c}))"
        # a table maps a chunk of a few packed cards to their set of cards
        lb, cb = self.lb, self.cb
        per = max(1, 12 // cb)
        t = self.module.const(pile_card_table(cb, per), "PILECARDS")
        p = self.atom(n.args[0])
        out, r = self.fresh("pm"), self.fresh("r")
        self.line(f"{out} = 0")
        self.line(f"{r} = {p} >> {lb}")
        self.line(f"while {r}:")
        self.line(f"    {out} |= {t}[{r} & {(1 << (cb * per)) - 1}]")
        self.line(f"    {r} >>= {cb * per}")
        return out

    def op_pile_distinct(self, n: Op):
        pushed = self.pushed_card(n.args[0])
        if pushed is not None:
            # distinct when the old pile was and lacked the card pushed on it
            old, c = pushed
            cards = self.atom(Op("pile_cards", (old,), src_loc=n.src_loc))
            distinct = self.atom(Op("pile_distinct", (old,), src_loc=n.src_loc))
            return f"({distinct} and not ({cards} >> {c} & 1))"
        # distinct exactly when the pile's set of cards is as large as the pile
        p = self.atom(n.args[0])
        cards = self.atom(Op("pile_cards", (n.args[0],), src_loc=n.src_loc))
        return f"({cards}.bit_count() == ({p} & {self.lm}))"


class SpecialisedAction:
    """One action as the code for one dispatch class sees it: every variable
    known there (constant at this table, or fixed by the dispatch) replaced by
    its value and folded, the constant variables' updates dropped."""

    def __init__(self, src: PackedSource, act, known: dict):
        spec = src.spec
        self.act, self.name, self.decl = act, act.name, act.decl
        self.params = act.decl.params
        primed = {v: c for v, c in src.constants.items() if v in act.values}
        fold = lambda e: specialise(e, known, spec, primed)
        self.domains = {p.name: fold(src.inline(p.domain)) for p in self.params}
        self.guard = fold(act.guard)
        # the constant variables keep their value (constant_fields proved it)
        self.order = [v for v in act.order if v not in src.constants]
        self.values = {v: fold(act.values[v]) for v in self.order}
        self.updated = set(act.values)  # every variable the action assigns
        self.fold = fold
        # the properties on the move, with each next value written out (so a
        # term over the parent's fields, e.g. the cards of the pile pushed
        # on, can be computed once per state, before the moves are tried)
        nexts = {**primed, **self.values}
        on_move = lambda e: specialise(e, known, spec, nexts)
        self.step_checks = [
            (p, on_move(unprime(src.inline(p.formula), self.updated))) for p in src.step_props]
        self.state_checks = []
        for n, p in enumerate(src.state_props):
            formula = _on_successor(src.inline(p.formula), self.updated)
            if any(isinstance(x, Primed) for x in A.walk(fold(formula))):
                self.state_checks.append((n, p, on_move(formula)))
            # else it reads only what the parent had: the parent satisfied it


class PackedSource:
    """Generated source of the packed successor functions for one spec.

    The code is specialised twice over: to the table (the variables
    ``constant_fields`` proves constant are constants) and, per function, to
    the values of the key's lowest small fields (``phase``, whose turn it is,
    who acts: ``DISPATCH`` masks them), so the function reached through
    ``table[k & DISPATCH]`` knows them as constants: a hand indexed by the
    actor is a fixed field, a rotation from a known seat a constant.
    """

    #: the dispatch fields fit in this many low key bits (a table of 2**bits)
    DISPATCH_BITS = 12

    def __init__(self, spec: Spec, with_actions: bool = False, store: bool = False,
                 symmetric: bool = False):
        self.spec = spec
        self.with_actions = with_actions
        self.store = store  # successors stored in the search's tables
        self.symmetric = symmetric  # stored keys canonicalised (bind's canon, orbit)
        self.phase_name: str | None = None
        #: phases where a stored state's hands are not counted (the round is over)
        self.terminal = sorted(p.value for p in spec.phases if p.terminal)
        self.layout = Layout(spec)
        self.origins = Origins(spec)
        self.module = PackedModule()
        self.inline = spec.inliner()
        self.funcs: list[str] = []
        self.n = spec.config.players
        self.types = {v.name: v.type for v in spec.variables}
        self.bounds = {v.name: v.bounds for v in spec.variables if v.bounds is not None}
        self.fields = {var: fs for var, _, fs in self.layout.fields}
        self.fixed_mask = (1 << self.layout.fixed_bits) - 1
        self.step_props = [p for p in spec.properties if p.kind == "step" and p.formula is not None]
        self.state_props = [p for p in spec.properties
                            if p.kind == "state" and p.formula is not None]
        # the graph properties' observations of a state (spec/properties.py)
        obs = observations(spec.properties)
        self.post_pass = self.inline(obs.get("post_pass", Const(False, A.BOOL)))
        self.live_hands = [(self.inline(live), self.inline(hand))
                           for live, hand in zip(obs.get("live_hand", ()), obs.get("hand", ()))]
        self.reachable = reachable_values(spec)
        self.constants = constant_fields(spec, self.reachable)
        self.dispatch = self._dispatch_fields()
        self.dispatch_mask = 0
        for _, f in self.dispatch:
            self.dispatch_mask |= ((1 << f.width) - 1) << f.offset
        self.dispatch_size = self.dispatch_mask.bit_length()
        self._sources: dict = {}  # dispatch class -> (function name, source)
        self._consts_done = 0  # module constant lines already handed out

    def _dispatch_fields(self) -> list:
        """The scalar fields at the bottom of the key the functions are
        specialised on: ``phase`` (always first) and the variables after it
        that are not constant, while they fit in DISPATCH_BITS."""
        out = []
        for var, t, fs in self.layout.fields:
            if A.map_value_type(t) or t not in (A.INT, A.PLAYER, A.BOOL, A.CARD):
                break
            if fs[0].offset + fs[0].width > self.DISPATCH_BITS:
                break
            if var not in self.constants:
                out.append((var, fs[0]))
        assert out and out[0][0] == "phase" and out[0][1].offset == 0
        return out

    def fixed_values(self, x: int) -> dict:
        """The values dispatch index ``x`` fixes (var -> constant node)."""
        return {var: Const((x >> f.offset & ((1 << f.width) - 1)) - f.bias, self.types[var])
                for var, f in self.dispatch}

    def dispatch_class(self, x: int) -> tuple:
        return tuple(c.value for c in self.fixed_values(x).values())

    # -- fields --------------------------------------------------------------
    def read_field(self, var: str) -> str:
        """The code reading ``var`` from the key ``k`` (a tuple of seats for a map)."""
        if self.layout.pile is not None and var == self.layout.pile.name:
            return f"k >> {self.layout.fixed_bits}"
        parts = self.field_parts(var)
        return f"({', '.join(parts)},)" if A.map_value_type(self.types[var]) else parts[0]

    def field_parts(self, var: str) -> list[str]:
        """The code reading each field of ``var`` (each seat of a map) from ``k``."""
        parts = []
        for f in self.fields[var]:
            raw = f"(k >> {f.offset} & {(1 << f.width) - 1})" if f.offset else \
                f"(k & {(1 << f.width) - 1})"
            parts.append(f"{raw} - {f.bias}" if f.bias else raw)
        return parts

    def reads(self) -> dict:
        """Local name (after ``v_``) -> the key expression it is read from: each
        scalar variable, each seat of a map (``hands_0``), the pile."""
        out = {}
        for v in self.spec.variables:
            if A.map_value_type(v.type):
                for i, part in enumerate(self.field_parts(v.name)):
                    out[f"{v.name}_{i}"] = part
            else:
                out[v.name] = self.read_field(v.name)
        return out

    def emitter(self) -> PackedEmitter:
        return PackedEmitter(self.module, self.n, self.layout)

    def function(self, header: str, em: FunctionEmitter):
        body = tidy.prelude(tidy.parse_body(em.lines), self.reads())
        self.funcs.append("\n".join([header] + tidy.render(body, "    ")))

    def old_value(self, var: str, known: dict) -> str | list[str]:
        """The parent's value of ``var`` as code: a constant where known (a map's:
        one code per seat)."""
        c = known.get(var)
        if A.map_value_type(self.types[var]):
            if c is None:
                return [f"v_{var}_{i}" for i in range(self.n)]
            return [str(int(x)) for x in c.value]
        if c is None:
            return f"v_{var}"
        return str(int(c.value))

    # -- one phase ------------------------------------------------------------
    def emit_moves(self, em: PackedEmitter, act: SpecialisedAction, known: dict):
        """Every legal parameter choice of ``act``: its successor key and step checks."""
        params = act.params
        if act.guard == Const(False, A.BOOL):
            return  # never legal here
        depth, scopes = em.depth, len(em.scopes)
        em.scopes.append({})
        hoisted = self.hoistable(act) if params else []
        invariant = self.invariant_terms(act, hoisted) if params else []
        pushed = False
        if hoisted or invariant:
            # new values, and terms of the guard and of the other new values, that
            # no parameter affects: once per state, not per choice (the generated
            # code is total, so computing a term early is safe)
            dom = em.atom(act.domains[params[0].name])
            if dom != "0":
                em.line(f"if {dom}:")
                em.push()
                pushed = True
            for var in hoisted:
                self.emit_value(em, act, var, known)
            for term in invariant:
                em.atom(term)
            # the fields the hoisted values change are patched once per state;
            # so is a pile a card is pushed on: its new length and old cards
            pile = self.pushed_pile(act, hoisted)
            extra: list[tuple[str, str]] = []
            if pile is not None:
                p = em.atom(pile.args[0])
                lb, cb, fixed = self.layout.len_bits, self.layout.card_bits, self.layout.fixed_bits
                shift = em.fresh("ps")
                em.line(f"{shift} = {lb + fixed} + {cb} * ({p} & {(1 << lb) - 1})")
                assert self.layout.pile is not None  # a pushed pile is the pile variable
                extra = [(self.layout.pile.name, f"({p} + 1) << {fixed}")]
                em.pile_push = (pile, shift)
            code, done = self.key_expr(em, "k", hoisted, known, extra)
            base = "k"
            if done:
                base = em.fresh("kb")
                em.line(f"{base} = {code}")
            em.key_base = (base, done)
        for prm in params:
            if em.open_param_loop(prm, em.atom(act.domains[prm.name])):
                em.loop_params.add(prm.name)
        at, indent = len(em.lines), "    " * em.depth
        g = em.expr(act.guard)
        rules = self.origins.guard(act.act)
        comment_above(em.lines, at, indent, rules and f"{act.name}: {rules}")
        if g != "False":
            if g != "True":
                em.line(f"if {g}:")
                em.push()
            self.emit_apply(em, act, known)
            if g != "True":
                em.pop()
        for _ in params:
            em.pop()
        em.loop_params.clear()
        if pushed:
            em.pop()
        em.key_base = ("k", set())
        em.pile_push = None
        em.scopes.pop()
        assert em.depth == depth and len(em.scopes) == scopes

    def shared_terms(self, acts) -> list:
        """Compound terms over the parent's fields alone that two or more of
        the phase's actions compute (a zero-hand test, say): computed once,
        before the actions (the generated code is total, so early is safe)."""
        def state_terms(act) -> dict:
            # a dict, not a set: the terms in the order met, so the generated
            # code is the same in every process (a set's order follows string hashes)
            found: dict = {}

            def collect(x):
                if isinstance(x, (Op, Ite)) and not reads_move(x):
                    found[x] = None
                    return
                if isinstance(x, (A.Quant, A.Let)):
                    return
                for c in A.children(x):
                    collect(c)
            for f in _action_formulas(act):
                collect(f)
            return found

        if len(acts) < 2:
            return []
        seen: dict = {}
        for act in acts:
            if act.guard == Const(False, A.BOOL):
                continue
            for t in state_terms(act):
                seen[t] = seen.get(t, 0) + 1
        return [t for t, n in seen.items() if n >= 2]

    def hoistable(self, act) -> list[str]:
        """The variables whose new values read no parameter, directly or
        through another such value."""
        names = {p.name for p in act.params}
        out: list[str] = []
        for var in act.order:
            if all(not (isinstance(x, A.Param) and x.name in names)
                   and not (isinstance(x, Primed) and x.name in act.values and x.name not in out)
                   for x in A.walk(act.values[var])):
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

        for f in _action_formulas(act, skip=hoisted):
            collect(f)
        return out

    def emit_value(self, em: PackedEmitter, act, var, known) -> str:
        """``n_<var> = <its new value>`` under a comment naming the rules that
        make it; the code of the new value (of each seat's, for a map: a seat
        the action leaves alone costs nothing)."""
        at, indent = len(em.lines), "    " * em.depth
        code = self._emit_value(em, act, var, known)
        rules = self.origins.update(act.act, var)
        comment_above(em.lines, at, indent, rules and f"{var}': {rules}")
        return code

    def _emit_value(self, em: PackedEmitter, act, var, known) -> str:
        node = act.values[var]
        if A.map_value_type(node.type):
            parts = em.map_parts(node)
            if parts is None:
                code = em.atom(node)
                names = [f"n_{var}_{i}" for i in range(self.n)]
                em.line(f"({', '.join(names)},) = {code}")
                parts = names
            em.values[var] = parts
            return parts
        code = em.expr(node)
        if _literal(code) or code.isidentifier():
            # a constant, a local already holding it (a temporary, the old
            # value, a parameter): no copy
            code = str(_int(code)) if _literal(code) else code
            em.scopes[-1][Primed(var, act.values[var].type)] = code
            em.values[var] = code
            return code
        em.line(f"n_{var} = {code}")
        em.scopes[-1][Primed(var, act.values[var].type)] = f"n_{var}"
        em.values[var] = f"n_{var}"
        return code

    def emit_apply(self, em: PackedEmitter, act, known):
        name, params = act.name, act.params
        hoisted = set(self.hoistable(act)) if params else set()
        written = []
        for var in act.order:
            if var not in hoisted:
                self.emit_value(em, act, var, known)
            if em.values[var] != self.old_value(var, known):
                written.append(var)
        # the successor key: the parent's, with each field that changed
        # flipped to its new value (most writes leave most fields as they were)
        base, done = em.key_base
        code = self.key_expr(em, base, [v for v in written if v not in done], known)[0]
        if em.loop_params and base != "k" and code.startswith(f"{base} & "):
            # the per-state base key: its fields the moves write are cleared
            # once, where it is made, not on every move
            head, _, tail = code.partition(" | ")
            at = max(x for x, line in enumerate(em.lines)
                     if line.lstrip().startswith(f"{base} = "))
            line = em.lines[at]
            lead = line[:len(line) - len(line.lstrip())]
            em.lines[at] = f"{lead}{base} = ({line.lstrip()[len(base) + 3:]}) & {head[len(base) + 3:]}"
            code = f"{base} | {tail}" if tail else base
        if em.pile_push is not None:  # the pushed card, above the old ones
            pile, shift = em.pile_push
            code += f" | ({em.atom(pile.args[1])} + 1) << {shift}"
        em.line("k2 = " + code)
        action = f"({name!r}, (" + "".join(f"p_{p.name}, " for p in params) + "))"
        for prop, formula in act.step_checks:
            ok = em.expr(formula)
            if ok == "True":
                continue
            em.line(f"if not {ok}:")
            em.line(f"    bad.append(({prop.id!r}, {action}))")
        if self.store:
            self.emit_store(em, act, written, known)
        else:
            em.line(f"out.append(({action}, k2))" if self.with_actions else "out.append(k2)")

    def pushed_pile(self, act, hoisted):
        """The new pile, when the action pushes a parameter's card on a pile
        no parameter affects (a discard): its patch splits into a part per
        state and a card per move."""
        pile = self.layout.pile.name if self.layout.pile is not None else None
        value = act.values.get(pile)
        if pile is None or pile in hoisted or not isinstance(value, Op) or value.op != "push":
            return None
        if any(isinstance(x, (A.Param, A.Bound, Primed)) for x in A.walk(value.args[0])):
            return None
        return value

    def key_expr(self, em: PackedEmitter, src: str, names, known,
                 extra=()) -> tuple[str, set]:
        """The key ``src`` with each of ``names`` whose new value may differ
        from the parent's stored instead: one expression (the written fields
        cleared by one mask, the new values OR-ed in, known ones as one
        constant), so the parent's value of a field is never needed to write
        it.  Also the set of the variables written."""
        clear, const, terms, done = 0, 0, [], set()
        pile = self.layout.pile.name if self.layout.pile is not None else None
        for var, term in extra:  # (variable, its field's new bits), already placed
            done.add(var)
            terms.append(term)
        for var in names:
            new, old = em.values[var], self.old_value(var, known)
            if new == old:
                continue
            done.add(var)
            if var == pile:
                terms.append(f"{new} << {self.layout.fixed_bits}")
                continue
            vt = A.map_value_type(self.types[var])
            for i, f in enumerate(self.fields[var]):
                nn, vv = (new[i], old[i]) if vt else (new, old)
                if nn == vv:
                    continue
                clear |= ((1 << f.width) - 1) << f.offset
                if _literal(nn):
                    const |= (_int(nn) + f.bias) << f.offset
                    continue
                val = f"({nn} + {f.bias})" if f.bias else nn
                terms.append(f"{val} << {f.offset}" if f.offset else val)
        if not done:
            return src, done
        keep = (self.fixed_mask & ~clear) if pile in done else ~clear
        parts = [f"{src} & {keep}"] + terms + ([str(const)] if const else [])
        return " | ".join(parts), done

    def emit_store(self, em: PackedEmitter, act, written, known):
        """Store a new successor: key (in ``keys`` and the visited set ``seen``)
        and parent (its number is its place in ``keys``; its depth is its
        level's, which the search records per level); its state properties
        and hand sizes (each only if the action writes a variable it reads: a
        parent satisfies every property not yet violated); its post-Pass edge.
        The visited set keeps no state numbers: a post-Pass edge to a state
        seen before records the target's key (``pending``, fixed width) and
        a -1 the search turns into the number when the level is done."""
        wrote = set(written)
        # a formula over the successor: a variable the move wrote is its new value
        after = lambda f: act.fold(_on_successor(f, wrote))
        pp_before, pp_after = act.fold(self.post_pass), after(self.post_pass)
        tests = [em.expr(pp_before)]
        if pp_after != pp_before:
            tests.append(em.expr(pp_after))
        both = "False" if "False" in tests else " and ".join(
            x for x in tests if x != "True") or "True"
        if self.symmetric:
            em.line("k2 = canon(k2)")
        em.line("if k2 in seen:")
        em.line(f"    if {both}:")
        em.line("        pending_extend(k2.to_bytes(KEY_BYTES, 'little'))")
        em.line("        edge_src(i)")
        em.line("        edge_dst(-1)")
        em.line("else:")
        em.push()
        em.line("j = len(keys)")
        em.line("keys_append(k2)")
        em.line("parent_append(i)")
        em.line("seen_add(k2)")
        if self.symmetric:
            em.line("unreduced[0] += orbit(k2)")
        for n, _prop, formula in act.state_checks:
            ok = em.expr(formula)
            if ok == "True":
                continue
            em.line(f"if not {ok}:")
            em.line(f"    state_bad.append(({n}, j))")
        # the live hand sizes: only a seat whose hand or liveness the move
        # changed can widen them (the parent, stored, had every other one)
        seats = []
        for live, hand in self.live_hands:
            live_b, hand_b, live_a, hand_a = act.fold(live), act.fold(hand), after(live), after(hand)
            if live_a == Const(False, A.BOOL) or (live_a == live_b and hand_a == hand_b):
                continue
            code = em.expr(hand_a)
            if live_a == live_b and code == em.expr(hand_b):
                continue
            seats.append((live_a, code))
        val = lambda v: em.values[v] if v in wrote else self.old_value(v, known)
        phase = val("phase")
        assert isinstance(phase, str)  # a scalar's code
        if seats and not (_literal(phase) and _int(phase) in self.terminal):
            depth = em.depth
            if not _literal(phase):
                over = (f"!= {self.terminal[0]}" if len(self.terminal) == 1
                        else f"not in {tuple(self.terminal)}")
                em.line(f"if {phase} {over}:")
                em.push()
            for live, code in seats:
                cond = em.expr(live)
                if cond != "True":
                    em.line(f"if {cond}:")
                    em.push()
                em.line(f"x = {_count_of(code)}")
                em.line("if x < bounds[0]: bounds[0] = x")
                em.line("if x > bounds[1]: bounds[1] = x")
                if cond != "True":
                    em.pop()
            while em.depth > depth:
                em.pop()
        em.line(f"if {both}:")
        em.line("    edge_src(i)")
        em.line("    edge_dst(j)")
        em.pop()
        em.line("moves += 1")

    # -- one dispatch class ------------------------------------------------------
    def phase_source(self, x: int) -> tuple[str, str]:
        """(name, source) of the factory of the function for dispatch index ``x``:
        ``_make_<name>(<the search's tables>)`` returns ``<name>``."""
        cls = self.dispatch_class(x)
        if cls in self._sources:
            return self._sources[cls]
        fixed = self.fixed_values(x)
        ph = fixed["phase"].value
        phase = next((p for p in self.spec.phases if p.value == ph), None)
        acts = [a for a in self.spec.actions if phase is not None and a.phase.name == phase.name]
        name = "succ_" + (phase.name if phase else f"phase{ph}") + "".join(
            f"_{var}{'_' if c.value < 0 else ''}{abs(c.value)}"
            for (var, _), c in zip(self.dispatch[1:], list(fixed.values())[1:]))
        known = {**self.constants, **fixed}
        em = self.emitter()
        em.depth = 2
        self.phase_name = phase.name if phase else None
        if self.store:
            em.line("moves = 0")
        if self.store and phase is not None and phase.terminal:
            em.line("return -1")  # the search counts a terminal state, not a deadlock
            acts = []
        specialised = [SpecialisedAction(self, a, known) for a in acts]
        for term in self.shared_terms(specialised):
            em.atom(term)
        for a in specialised:
            self.emit_moves(em, a, known)
        em.line("return moves" if self.store else "return")
        args = "k, i" if self.store else "k, out, bad"
        bound = ", ".join(_BOUND) if self.store else ""
        head = [f"def _make_{name}({bound}):", f"    def {name}({args}):"]
        stmts = tidy.place_reads(tidy.peephole(tidy.parse_body(em.lines)), self.reads())
        body = tidy.render(stmts, "        ")
        src = "\n".join(head + body + [f"    return {name}"])
        self._sources[cls] = (name, src)
        return name, src

    def new_constants(self) -> str:
        """The module constants generated since the last call."""
        lines = self.module.lines[self._consts_done:]
        self._consts_done = len(self.module.lines)
        return "\n".join(lines)

    def all_indices(self):
        """Every dispatch index a reachable state may have (for the dump)."""
        phases = {p.value for p in self.spec.phases if not p.terminal}
        if self.reachable.get("phase") is not None:
            phases &= self.reachable["phase"]
        seen = set()
        for x in range(1 << self.dispatch_size):
            if x & ~self.dispatch_mask:
                continue
            fixed = self.fixed_values(x)
            if fixed["phase"].value not in phases:
                continue
            if not all(self._may_hold(v, c.value) for v, c in fixed.items()):
                continue
            cls = self.dispatch_class(x)
            if cls not in seen:
                seen.add(cls)
                yield x

    def _may_hold(self, var: str, value: int) -> bool:
        """Whether a reachable state may have ``value`` in the dispatch field of
        ``var``: a field's bits can hold values no state has (``dir``, bounds
        -1..1, takes two bits: 2 too), and a function specialised to such a
        value need not exist (its code may not even be well-defined: a rotation
        in direction 2 has no row in the ``next_in`` table)."""
        if self.types[var] == A.PLAYER and not -1 <= value < self.n:
            return False
        bounds = self.bounds.get(var)
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            return False
        known = self.reachable.get(var)
        return known is None or value in known

    # -- whole spec -------------------------------------------------------------
    def helpers(self) -> list[str]:
        """state_ok, prop_<ID> and hand_range on keys."""
        funcs, self.funcs = self.funcs, []
        if self.state_props:
            em = self.emitter()
            formula = self.inline(And(*[p.formula for p in self.state_props]))
            em.line(f"return {em.expr(formula)}")
            self.function("def state_ok(k):", em)
        for prop in self.state_props:
            em = self.emitter()
            em.line(f"return {em.expr(self.inline(prop.formula))}")
            self.function(f"def prop_{prop.id}(k):", em)
        # the live hand sizes (HAND_BOUNDS), as the engine's hand_range
        em = self.emitter()
        em.line("lo, hi = 999, -1")
        for live, hand in self.live_hands:
            em.line(f"if {em.expr(live)}:")
            em.push()
            em.line(f"x = {_count_of(em.expr(hand))}")
            em.line("if x < lo: lo = x")
            em.line("if x > hi: hi = x")
            em.pop()
        em.line("return lo, hi")
        self.function("def hand_range(k):", em)
        self.funcs.append(f"DISPATCH = {self.dispatch_mask}")
        out, self.funcs = self.funcs, funcs
        return out

    def header(self) -> list[str]:
        return [f'"""Packed successor functions generated from the itcp spec: '
                f'{self.spec.config.describe()}.',
                "",
                "Constant at this table: " + (", ".join(
                    f"{v}={c.value!r}" for v, c in self.constants.items()) or "nothing"),
                "Dispatch: table[k & DISPATCH] on " + ", ".join(v for v, _ in self.dispatch)
                + '."""',
                "from itcp.model.engine.runtime import subsets",
                "",
                "#: bytes of the widest key (a pending post-Pass edge target's width)",
                f"KEY_BYTES = {(self.layout.max_bits() + 7) // 8}",
                ""]

    def build(self) -> str:
        """The whole module as one source (for reading: ``--dump-successors``),
        with every dispatch class a reachable state may fall in."""
        helpers = self.helpers()
        factories = []
        table = {}
        for x in self.all_indices():
            name, src = self.phase_source(x)
            factories.append(src)
            table[x] = name
        consts = self.new_constants()
        if self.store:
            make = [f"    table[{x}] = _make_{n}({', '.join(_BOUND)})" for x, n in table.items()]
            names = [f.name for f in fields(SearchArrays)]
            bind = ("def bind(tables):\n"
                    "    \"\"\"The functions bound to one search's tables (a SearchArrays), by "
                    "dispatch index.\"\"\"\n"
                    + "".join(f"    {n} = tables.{n}\n" for n in names)
                    + "    seen_add, keys_append, parent_append = seen.add, keys.append, parent.append\n"
                    "    edge_src, edge_dst = edge_src.append, edge_dst.append\n"
                    "    pending_extend = pending.extend\n"
                    f"    table = [None] * {1 << self.dispatch_size}\n"
                    + "\n".join(make) + "\n    return table")
        else:
            bind = "TABLE = [None] * " + str(1 << self.dispatch_size) + "\n" + "\n".join(
                f"TABLE[{x}] = _make_{n}()" for x, n in table.items())
        return "\n".join(self.header() + [consts, ""] + [f + "\n" for f in factories]
                         + [bind, ""] + [f + "\n" for f in helpers])


@dataclass
class SearchArrays:
    """What a stored-mode successor function writes to and reads from: the
    tables of the search that runs it (``compile_packed(store=True)``: the
    module's ``bind(tables)`` gives the functions bound to them).  The one
    interface between a search and the generated code: the code names only
    these fields."""
    seen: set                # keys stored so far
    keys: list               # key of each stored state, by index
    parent: list             # index of the state each one was first reached from
    edge_src: list           # post-Pass edges (for ROUND_ENDS): source index ...
    edge_dst: list           # ... and target index (-1: seen before, its key in pending)
    pending: bytearray       # post-Pass edge targets' keys, KEY_BYTES each
    bad: list                # (property id, action) of each step violation met
    state_bad: list          # (property id, state index) of state violations
    bounds: list             # [lo, hi] of the live hands' sizes met
    canon: object = None     # key -> its canonical key (with symmetry)
    orbit: object = None     # key -> how many keys its renamings give
    unreduced: object = None  # [states counted before the symmetry reduction]


#: the names the generated functions read, bound once per search by ``bind``
_BOUND = ("seen", "seen_add", "keys", "keys_append", "parent_append", "edge_src", "edge_dst",
          "pending_extend", "bad", "state_bad", "bounds", "canon", "orbit", "unreduced")


def _literal(code: str) -> bool:
    return code.lstrip("-").isdigit() or (code.startswith("(-") and code[2:-1].isdigit())


def _count_of(code: str) -> str:
    """The number of members of the set ``code`` (a literal too)."""
    return f"({code}).bit_count()"


def _int(code: str) -> int:
    return int(code.replace("(", "").replace(")", ""))


def _item(code, i: int) -> str:
    """Element ``i`` of a map value given as code (a tuple literal is indexed now)."""
    if isinstance(code, list):
        return code[i]
    if code.startswith("("):
        try:
            return str(ast.literal_eval(code)[i])
        except (ValueError, SyntaxError, TypeError, IndexError):
            pass
    return f"{code}[{i}]"


@functools.lru_cache(maxsize=8)
def _members_table(width: int) -> tuple:
    """For each set of ``width`` bits, the tuple of its members, lowest first."""
    return tuple(tuple(i for i in range(width) if m >> i & 1) for m in range(1 << width))


@functools.lru_cache(maxsize=8)
def pile_card_table(cb: int, per: int) -> tuple:
    """The set of cards in each chunk of ``per`` packed pile cards (``cb`` bits a
    card, 0 for none): the packed and the batch successor code both read it."""
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

    The successor functions are compiled on first use, one per dispatch class
    a search meets (``k & DISPATCH``: the phase, whose turn, who acts), so a
    table with many seats pays only for the classes its states fall in.
    ``store``: ``bind(tables)`` (a ``SearchArrays``) returns the dispatch table of
    functions that store each new successor in the search's tables themselves
    (with ``symmetric``, under the canonical key ``canon`` gives, adding each new
    state's ``orbit`` size to ``unreduced[0]``); otherwise ``TABLE`` (and ``SUCC``, by phase)
    list successors into ``out``.
    """
    src = PackedSource(spec, with_actions, store, symmetric)
    helpers = src.helpers()
    text = "\n".join(src.header() + [src.new_constants(), ""] + [f + "\n" for f in helpers])
    mod = types.ModuleType("itcp_packed_successors")
    mod.__dict__["__source__"] = text  # the generated module's own globals
    load_generated(text, filename, mod.__dict__)
    factories: dict = {}

    def factory(x: int):
        cls = src.dispatch_class(x)
        made = factories.get(cls)
        if made is None:
            name, code = src.phase_source(x)
            code = src.new_constants() + "\n" + code + "\n"
            load_generated(code, f"{filename[:-1]}:{name}>", mod.__dict__)
            made = factories[cls] = mod.__dict__[f"_make_{name}"]
            mod.__dict__["__source__"] += "\n" + code
        return made

    size = 1 << src.dispatch_size
    if store:
        def bind(tables: SearchArrays):
            t = tables
            bound = (t.seen, t.seen.add, t.keys, t.keys.append, t.parent.append,
                     t.edge_src.append, t.edge_dst.append, t.pending.extend, t.bad, t.state_bad,
                     t.bounds, t.canon, t.orbit, t.unreduced)
            table = [None] * size

            def first_use(x):
                def succ(k, i):
                    fn = table[x] = factory(x)(*bound)
                    return fn(k, i)
                return succ
            table[:] = [first_use(x) for x in range(size)]
            return table
        mod.__dict__["bind"] = bind
    else:
        table = [None] * size

        def first_use(x):
            def succ(k, out, bad):
                fn = table[x] = factory(x)()
                return fn(k, out, bad)
            return succ
        table[:] = [first_use(x) for x in range(size)]
        mask = src.dispatch_mask

        def by_phase(k, out, bad):
            return table[k & mask](k, out, bad)
        mod.__dict__["TABLE"] = table
        mod.__dict__["SUCC"] = (by_phase,) * len(spec.phases)
    return mod
