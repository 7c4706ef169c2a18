"""The spec as Z3 constraints: Init(s), Next(s, a, params, s'), properties.

The only module of the project that imports z3.  ``SmtSpec`` is compiled from
an elaborated ``Spec`` (one configuration, one reading per choice point), from
the same AST the engine is generated from, and walks it the way the reference
evaluator (``model/reference.py``) does, one method per node type and one
encoder per operator of ``spec.ast.OPS``; the value semantics are exactly
``spec.semantics.apply_op``'s, NOCARD/NOBODY (-1) cases included.

Representation of a value of each type:

=============  ==============================================================
``bool``       z3 Bool
``int``        BitVec(INT_WIDTH) (signed, two's complement; 16 bits unless a
               variable's declared bounds need more)
``player``     BitVec(8), signed; -1 is NOBODY
``card``       BitVec(8), signed; -1 is NOCARD
``cards``      BitVec(n_cards): bit i = card i
``players``    BitVec(n_players)
``pile``       ``Pile(length, slots, cards, distinct)``: length a BitVec(8), slots
               a tuple of n_cards BitVec(8); slots at or beyond the length are
               -1, so two piles are equal exactly when their terms are.  ``cards``
               is the pile's set of cards, BitVec(n_cards), kept beside the
               slots: a state's well-formedness ties it to the slots, push adds
               the card, pop takes the top card out unless it lies lower too, so
               the set after a move is ``cards | {c}`` or ``cards - {top}`` and
               not a new union over every slot (the term every disjointness test
               with the pile reads).  ``distinct`` (a Bool: no card twice) is
               kept the same way: a state's pile ties it to a ladder over its
               slots (``SmtSpec.wf_parts``, apart from the rest of the
               well-formedness), push keeps it while the card is new, pop keeps
               it, so what a move does to it never reads the slots;
               tests/test_smt.py proves all of it exact
``map[T]``     a tuple of n_players values of type T
``table``      the constant Python tuple (tables are always constants)
=============  ==============================================================

Every fragment of ``Next`` is labelled (a rule id, "phase", "domain", "frame"),
and ``track`` asserts each under its own Boolean, so an unsat core is a list of
rule ids.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import z3

from itcp.spec import ast as A
from itcp.spec.ast import (
    BOOL,
    CARD,
    CARDS,
    INT,
    PILE,
    PLAYER,
    PLAYERS,
    Bound,
    Call,
    Const,
    Ite,
    Let,
    Op,
    Param,
    Primed,
    Quant,
    Var,
)
from itcp.spec.errors import SpecError
from itcp.spec.lang import Inliner, Spec
from itcp.spec.semantics import apply_op, zero_of

_NOT_LITERAL = object()


# -- fast term constructors ---------------------------------------------------------
# z3py's And/Or/If check and coerce every argument in Python, which dominates the
# time to encode the full deck (tens of thousands of quantifier instances).  The
# encoder only ever passes well-sorted z3 terms, so these call the C API directly.

_CTX = z3.main_ctx()
_TRUE, _FALSE = z3.BoolVal(True), z3.BoolVal(False)


def _arr(xs):
    arr = (z3.Ast * len(xs))()
    for i, x in enumerate(xs):
        arr[i] = x.ast
    return arr


def _is_true(x) -> bool:
    """``x`` is the literal true (the encoder makes every Boolean literal ``_TRUE``)."""
    return x is _TRUE


def _is_false(x) -> bool:
    return x is _FALSE


def _B(b) -> z3.BoolRef:
    return _TRUE if b else _FALSE


_LITS: dict = {}


def _lit(x):
    """The value (unsigned) of a bit-vector literal, else None; cached per object,
    since reading a numeral through the API costs more than building a term."""
    if not isinstance(x, z3.BitVecNumRef):
        return None
    hit = _LITS.get(id(x))
    if hit is None or hit[0] is not x:
        hit = _LITS[id(x)] = (x, x.as_long(), x.size())
    return hit[1]


def _slit(x):
    """The signed value of a bit-vector literal, else None."""
    v = _lit(x)
    if v is None:
        return None
    w = _LITS[id(x)][2]
    return v - (1 << w) if v >> (w - 1) else v


def _And(*xs):
    xs = [x for x in xs if not _is_true(x)]
    if any(_is_false(x) for x in xs):
        return _FALSE
    if not xs:
        return _TRUE
    if len(xs) == 1:
        return xs[0]
    return z3.BoolRef(z3.Z3_mk_and(_CTX.ref(), len(xs), _arr(xs)), _CTX)


def _Or(*xs):
    xs = [x for x in xs if not _is_false(x)]
    if any(_is_true(x) for x in xs):
        return _TRUE
    if not xs:
        return _FALSE
    if len(xs) == 1:
        return xs[0]
    return z3.BoolRef(z3.Z3_mk_or(_CTX.ref(), len(xs), _arr(xs)), _CTX)


def _Not(x):
    if _is_true(x):
        return _FALSE
    if _is_false(x):
        return _TRUE
    return z3.BoolRef(z3.Z3_mk_not(_CTX.ref(), x.ast), _CTX)


def _If(c, a, b):
    if _is_true(c):
        return a
    if _is_false(c):
        return b
    if a.get_id() == b.get_id():
        return a
    cls = z3.BoolRef if isinstance(a, z3.BoolRef) else z3.BitVecRef
    return cls(z3.Z3_mk_ite(_CTX.ref(), c.ast, a.ast, b.ast), _CTX)


def _Eq(a, b):
    if a.get_id() == b.get_id():
        return _TRUE
    return z3.BoolRef(z3.Z3_mk_eq(_CTX.ref(), a.ast, b.ast), _CTX)


#: width of a player or card number (signed; -1 = NOBODY / NOCARD)
ELEM_WIDTH = 8
DEFAULT_INT_WIDTH = 16


@dataclass(frozen=True)
class Pile:
    length: z3.BitVecRef
    slots: tuple
    cards: z3.BitVecRef   # the set of the cards in slots 0 .. length-1
    distinct: z3.BoolRef  # no card occurs twice in slots 0 .. length-1


class Env:
    """Bound names -> z3 values, and each value's term id (for memoisation, computed
    once per binding: a pile's id reads every slot)."""

    __slots__ = ("vals", "ids")

    def __init__(self, vals: dict, ids=()):
        self.vals, self.ids = vals, dict(ids)

    def bind(self, name, value):
        vals = dict(self.vals)
        vals[name] = value
        ids = dict(self.ids)
        ids[name] = _term_id(value)
        return Env(vals, ids)


def _term_id(v):
    if isinstance(v, z3.ExprRef):
        return v.get_id()
    if isinstance(v, Pile):
        return ("pile", v.length.get_id(), tuple(x.get_id() for x in v.slots),
                v.cards.get_id(), v.distinct.get_id())
    if isinstance(v, tuple):
        return tuple(_term_id(x) for x in v)
    return ("py", v)


class SmtSpec:
    """An elaborated spec compiled to Z3 terms."""

    def __init__(self, spec: Spec, int_width: int | None = None):
        self.spec = spec
        self.n = spec.config.players
        self.n_cards = spec.config.n_cards
        self.var_names = [v.name for v in spec.variables]
        self.var_types = {v.name: v.type for v in spec.variables}
        if int_width is None:
            int_width = DEFAULT_INT_WIDTH
            for v in spec.variables:
                if v.bounds:
                    lo, hi = v.bounds
                    need = max((lo).bit_length(), (hi).bit_length()) + 1
                    int_width = max(int_width, need)
        self.iw = int_width
        self.inline = Inliner(spec.definitions)
        self.actions = {a.name: a for a in spec.actions}
        self._fresh = itertools.count()
        self._memo: dict = {}
        self._free: dict = {}
        self._consts: dict = {}
        self._attr: dict = {}
        self._inlined: dict = {}
        self._bits: dict = {}
        self._update_labels: dict = {}
        #: the point sums and card counts built so far: term id -> (term, which
        #: sum, the set summed), which ``Symbolic.abstracted`` may abstract
        self.aggregates: dict = {}
        missing = [name for name in A.OPS if not hasattr(self, "op_" + name)]
        if missing:
            raise SpecError(f"the Z3 encoding has no case for operator(s) {', '.join(missing)}")
        self._ops = {name: getattr(self, "op_" + name) for name in A.OPS}

    # ------------------------------------------------------------------
    # sorts, constants, structural helpers

    def set_width(self, t: str) -> int:
        return self.n_cards if t == CARDS else self.n

    def fresh(self, t: str, name: str):
        """A fresh symbolic value of type ``t``."""
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self.fresh(vt, f"{name}_{i}") for i in range(self.n))
        if t == BOOL:
            return z3.Bool(name)
        if t == INT:
            return z3.BitVec(name, self.iw)
        if t in (PLAYER, CARD):
            return z3.BitVec(name, ELEM_WIDTH)
        if t in (CARDS, PLAYERS):
            return z3.BitVec(name, self.set_width(t))
        if t == PILE:
            return Pile(z3.BitVec(f"{name}_len", ELEM_WIDTH),
                        tuple(z3.BitVec(f"{name}_{i}", ELEM_WIDTH)
                              for i in range(self.n_cards)),
                        z3.BitVec(f"{name}_cards", self.n_cards),
                        z3.Bool(f"{name}_distinct"))
        raise SpecError(f"no Z3 sort for type {t}")

    def const(self, value, t: str):
        """A concrete engine value of type ``t`` as Z3 term(s)."""
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self.const(x, vt) for x in value)
        if t.startswith("table"):
            return tuple(value)
        if t == BOOL:
            return _B(bool(value))
        if t == INT:
            return self.bv(value, self.iw)
        if t in (PLAYER, CARD):
            return self.bv(value, ELEM_WIDTH)
        if t in (CARDS, PLAYERS):
            return self.bv(value, self.set_width(t))
        if t == PILE:
            value = tuple(value)
            if len(value) > self.n_cards:
                raise SpecError(f"a pile of {len(value)} cards exceeds the capacity {self.n_cards}")
            return Pile(self.bv(len(value), ELEM_WIDTH),
                        tuple(self.bv(value[i] if i < len(value) else -1, ELEM_WIDTH)
                              for i in range(self.n_cards)),
                        self.bv(self._card_set(value), self.n_cards),
                        _B(self._distinct(value)))
        raise SpecError(f"no Z3 constant for type {t}")

    def _card_set(self, pile) -> int:
        """The set of a concrete pile's cards (as ``pile_cards``: cards outside the
        deck, such as NOCARD, are no card)."""
        return sum({1 << c for c in pile if 0 <= c < self.n_cards})

    def _distinct(self, pile) -> bool:
        """A concrete pile's ``distinct`` (as the ladder reads the slots: only
        cards of the deck count, so NOCARD is no card)."""
        cards = [c for c in pile if 0 <= c < self.n_cards]
        return len(set(cards)) == len(cards)

    def zero(self, t: str):
        return self.const(zero_of(t), t)

    def ite(self, c, a, b, t: str):
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self.ite(c, x, y, vt) for x, y in zip(a, b))
        if t == PILE:
            return Pile(_If(c, a.length, b.length),
                        tuple(_If(c, x, y) for x, y in zip(a.slots, b.slots)),
                        _If(c, a.cards, b.cards), _If(c, a.distinct, b.distinct))
        if t.startswith("table"):
            if a != b:
                raise SpecError("a conditional choice between two tables")
            return a
        return _If(c, a, b)

    def eq(self, a, b, t: str):
        vt = A.map_value_type(t)
        if vt is not None:
            return _And(*[self.eq(x, y, vt) for x, y in zip(a, b)])
        if t == PILE:
            return _And(a.length == b.length,
                          *[x == y for x, y in zip(a.slots, b.slots)], a.cards == b.cards,
                          _Eq(a.distinct, b.distinct))
        if t.startswith("table"):
            return _B(tuple(a) == tuple(b))
        if t == INT:
            empty = self._none_counted(a) if _slit(b) == 0 else \
                self._none_counted(b) if _slit(a) == 0 else None
            if empty is not None:
                return empty
        return _Eq(a, b)

    def _none_counted(self, term):
        """``term == 0`` for a point sum or card count ``term``, as "the set holds
        no card that counts": ``S & mask == 0``; None for any other term.

        Exact, not an approximation: every summand is a non-negative value and
        the largest sum fits in the width without wrapping, so the sum is zero
        exactly when no card with a non-zero value is in the set.  Why: "a
        player is at zero points" is asked after every change of a hand; as a
        sum it is a chain of adders over the whole deck once bit-blasted, one
        per hand, and at eight players with the full deck Z3 took minutes on a
        step that reads it, where the mask is one AND."""
        hit = self.aggregates.get(term.get_id())
        if hit is None:
            return None
        _, kind, S = hit
        width = S.size()
        if kind[0] == "count":
            values = (1,) * width
        elif kind[0] == "tsum":
            values = kind[1][:width]
        else:
            return None
        if min(values) < 0 or sum(values) >= 1 << (self.iw - 1):
            return None
        mask = sum(1 << i for i, x in enumerate(values) if x != 0)
        return (S & self.bv(mask, width)) == 0

    def bv(self, value: int, width: int):
        """A cached bit-vector constant."""
        key = (value, width)
        hit = self._consts.get(key)
        if hit is None:
            hit = self._consts[key] = z3.BitVecVal(value, width)
        return hit

    @staticmethod
    def eqi(x, i: int):
        """``x == i`` for a bit-vector term and a Python int, folded if ``x`` is a value."""
        v = _slit(x)
        if v is not None:
            return _B(v == i)
        return x == i

    def cond(self, c, a, b, t: str | None = None):
        """If-then-else folded when the condition is a literal."""
        if _is_true(c):
            return a
        if _is_false(c):
            return b
        return self.ite(c, a, b, t) if t is not None else _If(c, a, b)

    def to_int(self, x):
        """A player or card number (8 bits) as an int."""
        return z3.SignExt(self.iw - ELEM_WIDTH, x)

    def to_elem(self, x):
        """An int as a player or card number (values in range)."""
        return z3.Extract(ELEM_WIDTH - 1, 0, x)

    def _index(self, e, width: int):
        """Element number ``e`` (8 bits) resized to a shift amount of ``width`` bits."""
        if width > ELEM_WIDTH:
            return z3.ZeroExt(width - ELEM_WIDTH, e)
        if width < ELEM_WIDTH:
            return z3.Extract(width - 1, 0, e)
        return e

    def in_range(self, e, width: int):
        v = _slit(e)
        if v is not None:
            return _B(0 <= v < width)
        return _And(e >= 0, e < width)

    def bit(self, S, i: int):
        """Bit ``i`` of set ``S`` as a Bool (cached per set term)."""
        key = (S.get_id(), i)
        hit = self._bits.get(key)
        if hit is None or hit[0] is not S:
            v = _lit(S)
            if v is not None:
                b = _B(v >> i & 1)
            else:
                b = z3.Extract(i, i, S) == 1
            hit = self._bits[key] = (S, b)
        return hit[1]

    def has(self, S, e, width: int):
        """Element ``e`` is in set ``S`` (false for -1 and out-of-range numbers)."""
        i = _slit(e)
        if i is not None:  # a literal element: one bit of S
            return self.bit(S, i) if 0 <= i < width else _B(False)
        bit = z3.Extract(0, 0, z3.LShR(S, self._index(e, width))) == 1
        return _And(self.in_range(e, width), bit)

    def single(self, e, width: int):
        i = _slit(e)
        if i is not None:
            return self.bv(1 << i if 0 <= i < width else 0, width)
        return z3.BitVecVal(1, width) << self._index(e, width)

    def popcount(self, S, width: int):
        return z3.Sum([z3.ZeroExt(self.iw - 1, z3.Extract(i, i, S)) for i in range(width)]) \
            if width > 1 else z3.ZeroExt(self.iw - 1, S)

    # ------------------------------------------------------------------
    # the translator: one method per node type

    def free(self, node) -> frozenset:
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

    def tr(self, node, state: dict, env: Env, nxt: dict | None = None):
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
        kind = type(node)
        meth = self._nodes.get(kind)
        if meth is None:
            raise SpecError(f"the Z3 encoding has no case for node type {kind.__name__}")
        out = meth(self, node, state, env, nxt)
        self._memo[key] = (node, out)
        return out

    def n_const(self, node: Const, state, env, nxt):
        return self.const(node.value, node.type)

    def n_var(self, node: Var, state, env, nxt):
        return state[node.name]

    def n_primed(self, node: Primed, state, env, nxt):
        if nxt is None or node.name not in nxt:
            raise SpecError(f"{node.name}' read outside a step")
        return nxt[node.name]

    def n_bound(self, node, state, env, nxt):
        if node.name not in env.vals:
            raise SpecError(f"unbound name {node.name}")
        return env.vals[node.name]

    def n_ite(self, node: Ite, state, env, nxt):
        c = self.tr(node.cond, state, env, nxt)
        if _is_true(c):
            return self.tr(node.then, state, env, nxt)
        if _is_false(c):
            return self.tr(node.else_, state, env, nxt)
        return self.ite(c, self.tr(node.then, state, env, nxt),
                        self.tr(node.else_, state, env, nxt), node.type)

    def n_let(self, node: Let, state, env, nxt):
        v = self.tr(node.value, state, env, nxt)
        return self.tr(node.body, state, env.bind(node.var.name, v), nxt)

    def n_quant(self, node: Quant, state, env, nxt):
        kind = node.kind
        if kind == "mapof":  # over every seat, as the reference evaluator does
            return tuple(self.tr(node.body, state,
                                 env.bind(node.var.name, self.bv(i, ELEM_WIDTH)), nxt)
                         for i in range(self.n))
        width = self.set_width(node.domain.type)
        D = z3.simplify(self.tr(node.domain, state, env, nxt))
        dv = _lit(D)
        if dv is not None:
            elems = [(i, None) for i in range(width) if dv >> i & 1]
        else:
            elems = [(i, self.bit(D, i)) for i in range(width)]

        def body(i):
            return self.tr(node.body, state,
                           env.bind(node.var.name, self.bv(i, ELEM_WIDTH)), nxt)

        # m is None where the domain is a constant holding element i
        if kind == "forall":
            return _And(*[body(i) if m is None else _Or(_Not(m), body(i))
                            for i, m in elems]) if elems else _B(True)
        if kind == "exists":
            return _Or(*[body(i) if m is None else _And(m, body(i))
                           for i, m in elems]) if elems else _B(False)
        if kind == "sum":
            zero = self.bv(0, self.iw)
            return z3.Sum([body(i) if m is None else _If(m, body(i), zero)
                           for i, m in elems]) if elems else zero
        if kind == "setof":
            zero = self.bv(0, width)
            out = zero
            for i, m in elems:
                c = body(i) if m is None else _And(m, body(i))
                out = out | self.cond(c, self.bv(1 << i, width), zero)
            return out
        raise SpecError(f"the Z3 encoding has no case for quantifier {kind}")

    def n_op(self, node: Op, state, env, nxt):
        fn = self._ops.get(node.op)
        if fn is None:
            raise SpecError(f"the Z3 encoding has no case for operator {node.op}")
        o = node.op
        if o == "and" or o == "or":  # short-circuit on literal arguments
            stop, skip = (z3.is_false, z3.is_true) if o == "and" else (z3.is_true, z3.is_false)
            args = []
            for a in node.args:
                x = self.tr(a, state, env, nxt)
                if stop(x):
                    return x
                if not skip(x):
                    args.append(x)
            if not args:
                return _B(o == "and")
            return args[0] if len(args) == 1 else fn(args, node)
        args = [self.tr(a, state, env, nxt) for a in node.args]
        folded = self._fold(node, args)
        return fn(args, node) if folded is None else folded

    def _fold(self, node: Op, args: list):
        """Constant folding: an operator on literal arguments is computed in Python
        with the language's semantics (``spec.semantics.apply_op``), so the solver
        and the Python side never see terms like ``member(3, {1, 3})``."""
        vals = []
        for a, x in zip(node.args, args):
            v = self._literal(x, a.type)
            if v is _NOT_LITERAL:
                return None
            vals.append(v)
        try:
            out = apply_op(node.op, node.type, vals, self.n)
        except (ValueError, IndexError, KeyError):
            return None  # undefined on these values: leave it to the encoder
        if node.type == PILE and len(out) > self.n_cards:
            return None
        return self.const(out, node.type)

    def _literal(self, x, t: str):
        """The Python value of an encoded literal of type ``t``, else _NOT_LITERAL."""
        if t.startswith("table"):
            return tuple(x)
        vt = A.map_value_type(t)
        if vt is not None:
            out = tuple(self._literal(y, vt) for y in x)
            return _NOT_LITERAL if _NOT_LITERAL in out else out
        if t == PILE:
            k = _lit(x.length)
            slots = [_slit(c) for c in x.slots]
            if k is None or None in slots:
                return _NOT_LITERAL
            return tuple(slots[:k])
        if t == BOOL:
            return True if _is_true(x) else False if _is_false(x) else _NOT_LITERAL
        v = _lit(x) if t in (CARDS, PLAYERS) else _slit(x)
        return _NOT_LITERAL if v is None else v

    def n_call(self, node: Call, state, env, nxt):
        # one expansion per call site, so a quantifier body's call is expanded once
        # and the memo shares its parts across the bound variable's values
        hit = self._inlined.get(id(node))
        if hit is None or hit[0] is not node:
            hit = self._inlined[id(node)] = (node, self.inline(node))
        return self.tr(hit[1], state, env, nxt)

    def n_param(self, node: Param, state, env, nxt):
        return self.n_bound(node, state, env, nxt)

    _nodes = {Const: n_const, Var: n_var, Primed: n_primed, Param: n_param, Bound: n_bound,
              Op: n_op, Ite: n_ite, Let: n_let, Quant: n_quant, Call: n_call}

    # ------------------------------------------------------------------
    # operators: one method per entry of spec.ast.OPS

    def encode_op(self, name: str, args: list, arg_types: list, rtype: str):
        """Operator ``name`` on already-encoded arguments (used by tests)."""
        class _N:  # the bits of an Op node the encoders read
            pass
        n = _N()
        n.op, n.type = name, rtype
        n.args = tuple(type("T", (), {"type": t})() for t in arg_types)
        return self._ops[name](args, n)

    def op_and(self, v, n):
        return _And(*v)

    def op_or(self, v, n):
        return _Or(*v)

    def op_not(self, v, n):
        return _Not(v[0])

    def op_eq(self, v, n):
        return self.eq(v[0], v[1], n.args[0].type)

    def op_add(self, v, n):
        return v[0] + v[1]

    def op_sub(self, v, n):
        return v[0] - v[1]

    def op_mul(self, v, n):
        return v[0] * v[1]

    def op_lt(self, v, n):
        return v[0] < v[1]

    def op_le(self, v, n):
        return v[0] <= v[1]

    def op_union(self, v, n):
        return v[0] | v[1]

    def op_inter(self, v, n):
        return v[0] & v[1]

    def op_diff(self, v, n):
        return v[0] & ~v[1]

    def op_member(self, v, n):
        return self.has(v[1], v[0], self.set_width(n.args[1].type))

    def op_with(self, v, n):
        w = self.set_width(n.args[0].type)
        return _If(self.in_range(v[1], w), v[0] | self.single(v[1], w), v[0])

    def op_without(self, v, n):
        w = self.set_width(n.args[0].type)
        return _If(self.in_range(v[1], w), v[0] & ~self.single(v[1], w), v[0])

    def op_is_empty(self, v, n):
        return v[0] == 0

    def op_count(self, v, n):
        width = self.set_width(n.args[0].type)
        return self._aggregate(self.popcount(v[0], width), ("count", width), v[0])

    def _aggregate(self, term, kind: tuple, S):
        """``term``, the sum ``kind`` over the set ``S``, recorded as an aggregate."""
        if not z3.is_bv_value(term):
            self.aggregates.setdefault(term.get_id(), (term, kind, S))
        return term

    def op_subset(self, v, n):
        return v[0] & ~v[1] == 0

    def op_tsum(self, v, n):
        S, tab = v
        zero = z3.BitVecVal(0, self.iw)
        terms = [_If(z3.Extract(i, i, S) == 1, z3.BitVecVal(tab[i], self.iw), zero)
                 for i in range(self.n_cards) if tab[i] != 0]
        return self._aggregate(z3.Sum(terms), ("tsum", tuple(tab)), S) if terms else zero

    def op_attr(self, v, n):
        c, tab = v
        # Python indexing: -1 is the last entry (NOCARD's); other numbers their own
        i = _slit(c)
        if i is not None:
            return self.bv(tab[i] if -len(tab) <= i < len(tab) else tab[-1], self.iw)
        key = (c.get_id(), tab)
        hit = self._attr.get(key)
        if hit is not None:
            return hit[1]
        groups: dict = {}
        for i, x in enumerate(tab[:-1]):
            if x != tab[-1]:
                groups.setdefault(x, []).append(i)
        out = self.bv(tab[-1], self.iw)
        for x, idx in groups.items():
            out = _If(_Or(*[c == i for i in idx]), self.bv(x, self.iw), out)
        self._attr[key] = (c, out)
        return out

    def op_step(self, v, n):
        p, d = v
        q = (self.to_int(p) + d) % z3.BitVecVal(self.n, self.iw)
        return _If(p >= 0, self.to_elem(q), z3.BitVecVal(-1, ELEM_WIDTH))

    def op_next_in(self, v, n):
        p, d, S = v
        nobody = z3.BitVecVal(-1, ELEM_WIDTH)
        pi = self.to_int(p)
        out = nobody
        for k in reversed(range(1, self.n + 1)):
            q = self.to_elem((pi + d * k) % z3.BitVecVal(self.n, self.iw))
            out = _If(self.has(S, q, self.n), q, out)
        return _If(_Or(p < 0, d == 0), nobody, out)

    def _slot(self, pile: Pile, idx):
        """The pile's slot ``idx`` (a symbolic 8-bit position), -1 outside."""
        out = z3.BitVecVal(-1, ELEM_WIDTH)
        for i in reversed(range(len(pile.slots))):
            out = self.cond(self.eqi(idx, i), pile.slots[i], out)
        return out

    def op_top(self, v, n):
        pile = v[0]
        return _If(pile.length == 0, z3.BitVecVal(-1, ELEM_WIDTH),
                     self._slot(pile, pile.length - 1))

    def op_pile_len(self, v, n):
        return z3.ZeroExt(self.iw - ELEM_WIDTH, v[0].length)

    def op_push(self, v, n):
        pile, c = v
        bit = self._card_bit(c)
        return Pile(pile.length + 1,
                    tuple(_If(pile.length == i, c, x) for i, x in enumerate(pile.slots)),
                    pile.cards | bit,
                    _And(pile.distinct, (pile.cards & bit) == 0))

    def op_pop(self, v, n):
        # the top card leaves the set unless it lies lower in the pile too, which
        # only a pile with a card twice allows: one comparison per slot, not a new
        # union over them, and none read when the pile is known distinct.  A
        # distinct pile stays distinct; another one may become distinct (its top
        # card was the one twice), which only the ladder over the slots left says
        pile = v[0]
        w = self.n_cards
        length = _If(pile.length == 0, pile.length, pile.length - 1)
        slots = tuple(_If(pile.length == i + 1, z3.BitVecVal(-1, ELEM_WIDTH), x)
                      for i, x in enumerate(pile.slots))
        top = self._slot(pile, pile.length - 1)
        lower = _Or(*[_And(z3.ULT(i, pile.length - 1), x == top)
                      for i, x in enumerate(pile.slots[:-1])])
        stays = _Or(pile.length == 0, _Not(self.in_range(top, w)),
                    _And(_Not(pile.distinct), lower))
        return Pile(length, slots, _If(stays, pile.cards, pile.cards & ~self.single(top, w)),
                    _Or(pile.distinct, self._ladder(slots)))

    def _slot_union(self, length, slots):
        """The set of the cards in ``slots`` below ``length``."""
        zero = z3.BitVecVal(0, self.n_cards)
        out = zero
        for i, x in enumerate(slots):
            out = out | _If(z3.ULT(i, length), self._card_bit(x), zero)
        return out

    def _card_bit(self, c):
        """The set holding card ``c``, or no card when ``c`` is none (NOCARD)."""
        w = self.n_cards
        return _If(self.in_range(c, w), self.single(c, w), z3.BitVecVal(0, w))

    def op_pile_cards(self, v, n):
        return v[0].cards

    def op_pile_distinct(self, v, n):
        return v[0].distinct

    def _ladder(self, slots):
        """No card in two of ``slots``: per card a ladder over the slots ("seen
        before" and "here" never both), no arithmetic.  A slot past the length is
        -1 (the layout every pile term keeps), so it never holds a card.  Why a
        ladder: at 72 cards Z3 proves it preserved by pop in seconds, where
        pairwise slot comparisons (2,556 of them) did not finish in a minute; and
        why only in a state's tie (``wf_parts``): at 72 cards even the ladder is
        5,184 comparisons a query pays for in every step it asks"""
        out = []
        for c in range(self.n_cards):
            seen = _FALSE
            for x in slots:
                here = self.eqi(x, c)
                if _is_false(here):
                    continue
                out.append(_Not(_And(seen, here)))
                seen = _Or(seen, here)
        return _And(*out)

    def op_pile_of(self, v, n):
        c = v[0]
        w = self.n_cards
        neg = z3.BitVecVal(-1, ELEM_WIDTH)
        return Pile(_If(c >= 0, z3.BitVecVal(1, ELEM_WIDTH), z3.BitVecVal(0, ELEM_WIDTH)),
                    tuple([_If(c >= 0, c, neg)] + [neg] * (w - 1)),
                    self._card_bit(c), _TRUE)

    def op_get(self, v, n):
        m, k = v
        out = self.zero(n.type)
        for i in reversed(range(self.n)):
            out = self.cond(self.eqi(k, i), m[i], out, n.type)
        return out

    def op_put(self, v, n):
        m, k, x = v
        vt = A.map_value_type(n.type)
        return tuple(self.cond(self.eqi(k, i), x, m[i], vt) for i in range(self.n))

    # ------------------------------------------------------------------
    # states, Init, Next, properties

    def state(self, prefix: str = "s") -> dict:
        """A fresh symbolic state: variable name -> z3 value."""
        return {v: self.fresh(t, f"{prefix}_{v}") for v, t in self.var_types.items()}

    def wf(self, s: dict) -> list:
        """Well-formedness of a symbolic state: every part of ``wf_parts``."""
        return [c for part in self.wf_parts(s).values() for c in part]

    def wf_parts(self, s: dict) -> dict:
        """The well-formedness of ``s`` in four parts: "ranges" (each value in
        its type's range), "layout" (each pile's slots, and its set of cards
        tied to them), "ties" (each pile's ``distinct`` tied to a ladder over its
        slots) and "top" (a pile's top card is a card of its set: implied by
        "layout", and all a move taking the top card needs of it).

        Apart because a query may go without the last three and stay sound:
        without them every state is still a model (its set and ``distinct``
        what the slots say), so unsat still proves; only a sat answer may then
        be no state at all.  At 72 cards "layout" and "ties" are most of a
        one-step query, "top" is one slot lookup."""
        out: dict = {"ranges": [], "layout": [], "ties": [], "top": []}
        for v in self.spec.variables:
            x, vt = s[v.name], A.map_value_type(v.type)
            piles = [x] if v.type == PILE else list(x) if vt == PILE else []
            if not piles:
                out["ranges"].extend(self._wf(x, v.type, v.bounds))
            for p in piles:
                out["layout"].extend(self._wf(p, PILE))
                out["ties"].append(_Eq(p.distinct, self._ladder(p.slots)))
                out["top"].append(z3.Implies(p.length != 0, self.has(
                    p.cards, self.op_top((p,), None), self.n_cards)))
        return out

    def _wf(self, x, t, bounds=None):
        vt = A.map_value_type(t)
        if vt is not None:
            return [c for y in x for c in self._wf(y, vt, bounds)]
        if t == PLAYER:
            return [x >= -1, x < self.n]
        if t == CARD:
            return [x >= -1, x < self.n_cards]
        if t == INT and bounds is not None:
            return [x >= bounds[0], x <= bounds[1]]
        if t == PILE:
            out = [z3.ULE(x.length, self.n_cards)]
            for i, c in enumerate(x.slots):
                out.append(_If(z3.ULT(i, x.length), _And(c >= 0, c < self.n_cards), c == -1))
            out.append(x.cards == self._slot_union(x.length, x.slots))
            return out
        return []

    def init(self, s: dict) -> list:
        """Constraints: ``s`` is the initial (pre-deal) state."""
        self._memo = {}
        e = Env({}, ())
        return [self.eq(s[v], self.tr(self.inline(self.spec.initial[v]), s, e), self.var_types[v])
                for v in self.var_names]

    def params(self, action: str, prefix: str = "p") -> dict:
        act = self.actions[action]
        return {p.name: self.fresh(p.type, f"{prefix}_{action}_{p.name}") for p in act.decl.params}

    def next(self, s: dict, action: str, params: dict, s2: dict) -> list:
        """Next(s, action, params, s2) as labelled fragments [(label, z3 Bool)].

        Labels: "phase" (the action belongs to the state's phase), "domain"
        (each parameter is drawn from its domain), the rule id of each guard
        fragment, for each updated variable the ids of the rules updating it
        (joined by "+"), and "frame" for the variables the action leaves alone.
        """
        guards, defs = self.next_parts(s, action, params, s2)
        return guards + [defs[v] for v in self.var_names]

    def next_parts(self, s: dict, action: str, params: dict, s2: dict):
        """Next as (guard fragments, {variable: the one fragment defining it in s2}).

        Each update or frame fragment is ``s2[v] == (a term over s and the
        parameters)`` and is the only fragment that reads ``s2[v]``: a query may
        drop those of the variables its goal does not read (cone of influence)
        and stays equisatisfiable."""
        act = self.actions[action]
        frags, env = self._guarded(s, act, params)
        new = dict(s)
        for var in act.order:
            new[var] = self.tr(act.values[var], s, env, new)
        defs = {}
        for var in self.var_names:
            t = self.var_types[var]
            if var in act.values:
                defs[var] = ("+".join(self._update_rules(act, var)) or "update",
                             self.eq(s2[var], new[var], t))
            else:
                defs[var] = ("frame", self.eq(s2[var], s[var], t))
        return frags, defs

    def _update_rules(self, act, var: str) -> list:
        """The ids of the rules that shape ``var``'s new value in ``act``: those
        updating it, then those updating each variable whose new value it reads
        (``x'`` in a value is that variable's new value, built into this term).

        Why: a core naming this fragment depends on all of them.  E.g. a round
        ends (``phase' = OVER``) when ``ended'`` is set, and ``ended'`` is set
        by the zero rule: the phase fragment holds the zero rule's condition."""
        key = (act.name, var)
        hit = self._update_labels.get(key)
        if hit is None:
            hit, seen, todo = [], set(), [var]
            while todo:
                v = todo.pop(0)
                if v in seen or v not in act.values:
                    continue
                seen.add(v)
                for rid, *_ in act.updates.get(v, ()):
                    if rid not in hit:
                        hit.append(rid)
                todo.extend(sorted({n.name for n in A.walk(act.values[v])
                                    if isinstance(n, Primed)}))
            self._update_labels[key] = hit
        return hit

    def writes(self, action: str) -> frozenset:
        """The variables ``action`` may change (all others are kept by its frame)."""
        return frozenset(self.actions[action].values)

    def enabled(self, s: dict, action: str, params: dict) -> list:
        """The guard part of Next(s, action, params, _): labelled fragments ("phase",
        "domain", one per guard rule) whose conjunction says the move is legal."""
        return self._guarded(s, self.actions[action], params)[0]

    def _guarded(self, s: dict, act, params: dict):
        """(the guard fragments of ``act`` at ``s``, the environment binding its parameters)."""
        self._memo = {}
        env = Env({}, ())
        frags = [("phase", s["phase"] == self.const(act.phase.value, INT))]
        for prm in act.decl.params:
            x = params[prm.name]
            dom = self.tr(self.inline(prm.domain), s, env)
            width = self.set_width(prm.domain.type)
            if prm.size is None:
                frags.append(("domain", self.has(dom, x, width)))
            else:
                frags.append(("domain", _And(self.popcount(x, width) == prm.size,
                                             x & ~dom == 0)))
            env = env.bind(prm.name, x)
        for rid, g in act.guards:
            frags.append((rid, self.tr(g, s, env)))
        return frags, env

    def prop(self, pid: str, s: dict, s2: dict | None = None):
        """Property ``pid``'s formula on ``s`` (and ``s2`` for a step property)."""
        p = next((p for p in self.spec.properties if p.id == pid), None)
        if p is None or p.formula is None:
            raise SpecError(f"property {pid} has no formula")
        if p.kind == "step" and s2 is None:
            raise SpecError(f"{pid} is a step property: give the next state")
        self._memo = {}
        return self.tr(self.inline(p.formula), s, Env({}, ()), s2)

    # ------------------------------------------------------------------
    # concrete <-> symbolic

    def fix(self, s: dict, state_tuple) -> list:
        """Constraints: symbolic state ``s`` equals the engine state ``state_tuple``."""
        return [self.eq(s[v], self.const(x, self.var_types[v]), self.var_types[v])
                for v, x in zip(self.var_names, state_tuple)]

    value_of = fix

    # -- flat forms: a whole state (or parameter tuple) as one bit-vector, so a
    # conformance query fixes a state with one equation and reads a successor
    # with one model evaluation

    def _width(self, t: str) -> int:
        if t == BOOL:
            return 1
        if t == INT:
            return self.iw
        if t in (PLAYER, CARD):
            return ELEM_WIDTH
        if t in (CARDS, PLAYERS):
            return self.set_width(t)
        raise SpecError(f"no flat form for type {t}")

    def _atoms(self, x, t: str, out: list):
        vt = A.map_value_type(t)
        if vt is not None:
            for y in x:
                self._atoms(y, vt, out)
        elif t == PILE:
            out.append(x.length)
            out.extend(x.slots)
            out.append(x.cards)
            out.append(_If(x.distinct, self.bv(1, 1), self.bv(0, 1)))
        elif t == BOOL:
            out.append(_If(x, self.bv(1, 1), self.bv(0, 1)))
        else:
            out.append(x)

    def _pack(self, value, t: str, out: list):
        vt = A.map_value_type(t)
        if vt is not None:
            for y in value:
                self._pack(y, vt, out)
        elif t == PILE:
            value = tuple(value)
            out.append((len(value), ELEM_WIDTH))
            out.extend((value[i] if i < len(value) else -1, ELEM_WIDTH)
                       for i in range(self.n_cards))
            out.append((self._card_set(value), self.n_cards))
            out.append((int(self._distinct(value)), 1))
        else:
            out.append((int(value), self._width(t)))

    def _unpack(self, bits: int, t: str, pos: list):
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self._unpack(bits, vt, pos) for _ in range(self.n))
        if t == PILE:
            k = self._unpack(bits, PLAYER, pos)
            slots = [self._unpack(bits, CARD, pos) for _ in range(self.n_cards)]
            pos[0] += self.n_cards + 1   # the set of cards and ``distinct``: the slots say both
            return tuple(slots[:k])
        w = self._width(t)
        x = bits >> pos[0] & ((1 << w) - 1)
        pos[0] += w
        if t == BOOL:
            return x == 1
        if t in (INT, PLAYER, CARD) and x >> (w - 1):
            x -= 1 << w
        return x

    @staticmethod
    def _concat(atoms: list):
        return atoms[0] if len(atoms) == 1 else z3.Concat(*reversed(atoms))

    @staticmethod
    def _join(parts: list) -> int:
        out, off = 0, 0
        for v, w in parts:
            out |= (v & ((1 << w) - 1)) << off
            off += w
        return out

    def flat_state(self, s: dict):
        """The whole symbolic state as one bit-vector (first variable lowest)."""
        atoms: list = []
        for v in self.var_names:
            self._atoms(s[v], self.var_types[v], atoms)
        return self._concat(atoms)

    def pack_state(self, state_tuple) -> int:
        parts: list = []
        for v, x in zip(self.var_names, state_tuple):
            self._pack(x, self.var_types[v], parts)
        return self._join(parts)

    def unpack_state(self, bits: int) -> tuple:
        pos = [0]
        return tuple(self._unpack(bits, self.var_types[v], pos) for v in self.var_names)

    def flat_params(self, action: str, params: dict):
        """An action's parameters as one bit-vector (None if it has none)."""
        atoms: list = []
        for p in self.actions[action].decl.params:
            self._atoms(params[p.name], p.type, atoms)
        return self._concat(atoms) if atoms else None

    def unpack_params(self, action: str, bits: int) -> tuple:
        pos = [0]
        return tuple(self._unpack(bits, p.type, pos) for p in self.actions[action].decl.params)

    def decode_value(self, model: z3.ModelRef, x, t: str):
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self.decode_value(model, y, vt) for y in x)
        if t == PILE:
            k = model.eval(x.length, model_completion=True).as_long()
            return tuple(model.eval(c, model_completion=True).as_signed_long()
                         for c in x.slots[:k])
        val = model.eval(x, model_completion=True)
        if t == BOOL:
            return z3.is_true(val)
        if t in (CARDS, PLAYERS):
            return val.as_long()
        return val.as_signed_long()

    def decode(self, model: z3.ModelRef, s: dict) -> tuple:
        """The engine state tuple a model gives the symbolic state ``s``."""
        return tuple(self.decode_value(model, s[v], self.var_types[v]) for v in self.var_names)

    def decode_params(self, model, action: str, params: dict) -> tuple:
        act = self.actions[action]
        return tuple(self.decode_value(model, params[p.name], p.type) for p in act.decl.params)


def track(solver: z3.Solver, fragments, tag: str = "") -> dict:
    """Assert each labelled fragment under its own tracking Boolean.

    Returns tracking-name -> label, so ``core_labels`` can turn an unsat core
    back into rule ids.
    """
    names = {}
    for k, (label, expr) in enumerate(fragments):
        name = f"{tag}{label}#{k}"
        solver.assert_and_track(expr, z3.Bool(name))
        names[name] = label
    return names


def core_labels(solver: z3.Solver, names: dict) -> list:
    """The labels (rule ids, ...) of the last unsat core, each once, in order."""
    out = []
    for b in solver.unsat_core():
        label = names.get(str(b))
        if label is not None:
            for part in label.split("+"):
                if part not in out:
                    out.append(part)
    return out


def block(params: dict, values: dict) -> z3.BoolRef:
    """A clause excluding one assignment (``values``: name -> z3 constant term)."""
    return _Or(*[params[k] != values[k] for k in params]) if params else _B(False)


__all__ = ["SmtSpec", "Pile", "track", "core_labels", "block", "ELEM_WIDTH"]


class SuccessorQuery:
    """All solutions of Next(s, action, params, s') for a fixed concrete s.

    One incremental solver per action holds Next; each call fixes the state by
    one equation on its flat bit-vector form inside a push/pop scope, reads a
    solution's parameters and successor from the model, blocks the parameters
    (the successor is a function of the state and the parameters) and asks
    again until unsat.
    """

    def __init__(self, smt: SmtSpec, action: str):
        self.smt, self.action = smt, action
        s, s2 = smt.state("s"), smt.state("t")
        params = smt.params(action, "p")
        self.solver = z3.SimpleSolver()  # fastest for these small incremental queries
        for _, f in smt.next(s, action, params, s2):
            self.solver.add(f)
        self.S, self.P, self.S2 = (smt.flat_state(s), smt.flat_params(action, params),
                                   smt.flat_state(s2))

    def solutions(self, state: tuple, max_solutions: int):
        """(set of (args, successor) or None if the solver gave up, truncated, queries)."""
        smt, solver = self.smt, self.solver
        out, queries = set(), 0
        solver.push()
        try:
            solver.add(self.S == z3.BitVecVal(smt.pack_state(state), self.S.size()))
            while True:
                queries += 1
                r = solver.check()
                if r == z3.unsat:
                    return out, False, queries
                if r != z3.sat:
                    return None, False, queries
                m = solver.model()
                succ = smt.unpack_state(m.eval(self.S2, model_completion=True).as_long())
                if self.P is None:
                    out.add(((), succ))
                    solver.add(_B(False))
                else:
                    pv = m.eval(self.P, model_completion=True)
                    out.add((smt.unpack_params(self.action, pv.as_long()), succ))
                    solver.add(self.P != pv)
                if len(out) >= max_solutions:
                    return out, True, queries
        finally:
            solver.pop()
