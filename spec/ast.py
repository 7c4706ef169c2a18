"""The expression AST every rule is written in.

Nodes are immutable, validated when built (types checked, arity checked), print
as s-expressions, and remember the line of spec code that made them
(``src_loc``), so an error in a rule points at the rule.  ``__bool__`` raises:
a symbolic comparison can never be used as a Python truth value by mistake.

The language is small on purpose; both backends (the generated Python engine
and the Z3 encoding) and the reference evaluator read only these node types:

    Const  Var  Primed  Param  Bound  Op  Ite  Let  Quant  Call

``Op`` covers the core operators listed once, with their types, in ``OPS``.
Every backend walks them as a ``Walker`` (``spec/walk.py``): a case per node
type and per operator, checked when the backend's class is defined.

Types are plain strings: ``bool int player card cards players pile``,
``map[T]`` (a value of type T per player) and ``cardmap`` (a constant int per
card, read by ``attr`` and summed by ``tsum``).  Sets of cards and of players are
finite sets (bitmasks to the engine, bit-vectors to Z3); the discard pile is a
sequence of cards, top last.  ``NOCARD`` and ``NOBODY`` (both -1) make every
operator total, so evaluation never fails.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field, fields
from types import FrameType
from typing import Any, TypeVar, dataclass_transform

from .errors import SpecError

BOOL, INT, PLAYER, CARD, CARDS, PLAYERS, PILE = (
    "bool", "int", "player", "card", "cards", "players", "pile")
#: a constant per-card map (a card's value, its suit): one int per card of the
#: deck, then NOCARD's entry; read by ``attr`` and summed by ``tsum``
CARDMAP = "cardmap"
SET_TYPES = {CARDS: CARD, PLAYERS: PLAYER}
NOCARD = -1
NOBODY = -1


def map_of(t: str) -> str:
    return f"map[{t}]"


def map_value_type(t: str) -> str | None:
    return t[4:-1] if t.startswith("map[") else None


_HERE = __file__


#: where a node was written: (file, line)
SrcLoc = tuple[str, int]


def _src_loc() -> SrcLoc:
    """The first frame outside this module: where the node was written (a node's
    ``src_loc`` when none is given)."""
    f: FrameType | None = sys._getframe(1)
    # Skip this module, lang.py's builders, and the dataclass-generated
    # ``__init__`` (compiled from "<string>" but run in this module's globals).
    while f is not None and (f.f_code.co_filename in _LANG_FILE
                             or f.f_globals is _GLOBALS):
        f = f.f_back
    if f is None:
        return ("?", 0)
    return (f.f_code.co_filename, f.f_lineno)


_LANG_FILE = [_HERE]  # lang.py registers itself so builders there are skipped too
_GLOBALS = globals()


class Node:
    """Base of every expression node."""

    __slots__ = ()
    type: str
    src_loc: SrcLoc

    def __bool__(self):
        raise SpecError(
            f"a spec expression {self} was used as a Python truth value; "
            "use And/Or/Ite to combine expressions")

    # -- sugar: operators build nodes, type-directed --------------------
    def __and__(self, other):
        return op("inter" if self.type in SET_TYPES else "and", self, lift(other, self.type))

    def __or__(self, other):
        return op("union" if self.type in SET_TYPES else "or", self, lift(other, self.type))

    def __invert__(self):
        return op("not", self)

    def __add__(self, other):
        return op("add", self, lift(other, INT))

    def __sub__(self, other):
        if self.type in SET_TYPES:
            return op("diff", self, lift(other, self.type))
        return op("sub", self, lift(other, INT))

    def __lt__(self, other):
        return op("lt", self, lift(other, INT))

    def __le__(self, other):
        return op("le", self, lift(other, INT))

    def __gt__(self, other):
        return op("lt", lift(other, INT), self)

    def __ge__(self, other):
        return op("le", lift(other, INT), self)

    def eq(self, other):
        return op("eq", self, lift(other, self.type))

    def ne(self, other):
        return op("not", op("eq", self, lift(other, self.type)))

    def in_(self, s):
        return op("member", self, s)

    def is_empty(self):
        return op("is_empty", self)

    def plus(self, x):
        return op("with", self, lift(x, SET_TYPES[self.type]))

    def minus(self, x):
        return op("without", self, lift(x, SET_TYPES[self.type]))

    def count(self):
        return op("count", self)

    def put(self, key, value):
        return op("put", self, lift(key, PLAYER), lift(value, map_value_type(self.type)))

    def __getitem__(self, key):
        return op("get", self, lift(key, PLAYER))

    def __repr__(self):
        return self.sexpr()


def lift(x, t: str) -> Node:
    """A Python value as a constant of type ``t``; nodes pass through."""
    if isinstance(x, Node):
        return x
    if isinstance(x, bool):
        return Const(x, BOOL)
    if isinstance(x, int):
        return Const(x, t if t in (INT, PLAYER, CARD, CARDS, PLAYERS) else INT)
    raise SpecError(f"cannot use {x!r} in a spec expression")


def _guarded_eq(structural):
    """``==`` between two nodes is structural equality (nodes are dict keys); between
    a node and a Python value it is the classic slip ``t.phase == 2``, which would
    quietly be ``False``: an error naming the fix instead."""
    def eq(self, other):
        if isinstance(other, (bool, int, str)):
            raise SpecError(
                f"`{self} == {other!r}` compares a spec expression with a Python value, "
                f"which is never true; build the formula with `.eq({other!r})` "
                f"(or `.ne(...)` for !=)")
        return structural(self, other)

    def ne(self, other):
        result = eq(self, other)
        return result if result is NotImplemented else not result
    return eq, ne


_N = TypeVar("_N", bound=type)


@dataclass_transform(eq_default=True, frozen_default=True, field_specifiers=(field,))
def _node(cls: _N) -> _N:
    """Make a frozen, slotted dataclass node with a src_loc and a memoised hash.

    ``dataclass_transform`` tells type checkers that the decorated class is such
    a dataclass, so they see every node's constructor (its fields in order).

    Why memoised: nodes are dict keys all through elaboration, simplification and
    the compilers, and a dataclass hash walks the whole subtree every time."""
    c: Any = cls  # rebuilt attribute by attribute (methods too): no static type fits
    if not any("_hash" in getattr(b, "__dataclass_fields__", {}) for b in c.__mro__[1:]):
        c.__annotations__ = {**c.__dict__.get("__annotations__", {}), "_hash": int,
                             "_free": frozenset}
        c._hash = field(default=None, init=False, compare=False, repr=False)
        c._free = field(default=None, init=False, compare=False, repr=False)
    c.__hash__ = _memo_hash
    c = dataclass(frozen=True, slots=True, eq=True, repr=False)(c)
    c.__eq__, c.__ne__ = _guarded_eq(c.__eq__)
    c._hashed = tuple(f.name for f in fields(c) if f.compare)
    c.__getstate__ = _state_without_hash
    return c


def _memo_hash(self) -> int:
    h = self._hash
    if h is None:
        h = hash(tuple(getattr(self, n) for n in self._hashed))
        object.__setattr__(self, "_hash", h)
    return h


def _state_without_hash(self):
    """Pickled state: string hashes differ between processes, so no cached hash
    (nor cached free names: they are recomputed as cheaply)."""
    return [None if f.name in ("_hash", "_free") else getattr(self, f.name) for f in fields(self)]


@_node
class Const(Node):
    value: Any
    type: str
    src_loc: SrcLoc = field(default_factory=_src_loc, compare=False)

    def __post_init__(self):
        if self.type == BOOL and not isinstance(self.value, bool):
            raise SpecError(f"bool constant {self.value!r}")
        if self.type in (INT, PLAYER, CARD, CARDS, PLAYERS) and (
                isinstance(self.value, bool) or not isinstance(self.value, int)):
            raise SpecError(f"{self.type} constant must be an int, got {self.value!r}")
        if self.type == PILE and not isinstance(self.value, tuple):
            raise SpecError("pile constant must be a tuple")
        if self.type == CARDMAP and not isinstance(self.value, tuple):
            raise SpecError("cardmap constant must be a tuple")

    def sexpr(self):
        if self.type in (CARDS, PLAYERS):
            return f"#{self.type}{{{','.join(str(i) for i in bits(self.value))}}}"
        if self.type == CARDMAP:
            return f"#cardmap[{len(self.value)}]"
        return str(self.value).lower() if self.type == BOOL else str(self.value)


@_node
class _Named(Node):
    """A leaf that names a value: a state variable, a parameter, a bound name."""
    name: str
    type: str
    src_loc: SrcLoc = field(default_factory=_src_loc, compare=False)
    _prefix = ""
    _suffix = ""

    def sexpr(self):
        return self._prefix + self.name + self._suffix


@_node
class Var(_Named):
    """A state variable's value in the current state."""


@_node
class Primed(_Named):
    """A state variable's value in the next state (only inside updates)."""
    _suffix = "'"


@_node
class Param(_Named):
    """An action parameter."""
    _prefix = "$"


@_node
class Bound(_Named):
    """A variable bound by Let, a quantifier or a definition's parameter."""


def _same(t1, t2, what):
    if t1 != t2:
        raise SpecError(f"{what}: {t1} vs {t2}")


def _check_op(name, args):
    if name not in OPS:
        raise SpecError(f"unknown operator {name!r}")
    sig = OPS[name]
    return sig.check(name, [a.type for a in args])


@_node
class Op(Node):
    op: str
    args: tuple
    type: str = field(default="", init=False)
    src_loc: SrcLoc = field(default_factory=_src_loc, compare=False)

    def __post_init__(self):
        for a in self.args:
            if not isinstance(a, Node):
                raise SpecError(f"{self.op}: argument {a!r} is not an expression")
        t = _check_op(self.op, self.args)
        object.__setattr__(self, "type", t)

    def sexpr(self):
        return "(" + " ".join([self.op] + [a.sexpr() for a in self.args]) + ")"


@_node
class Ite(Node):
    cond: Node
    then: Node
    else_: Node
    type: str = field(default="", init=False)
    src_loc: SrcLoc = field(default_factory=_src_loc, compare=False)

    def __post_init__(self):
        _same(self.cond.type, BOOL, "if condition")
        _same(self.then.type, self.else_.type, "if branches")
        object.__setattr__(self, "type", self.then.type)

    def sexpr(self):
        return f"(if {self.cond.sexpr()} {self.then.sexpr()} {self.else_.sexpr()})"


@_node
class Let(Node):
    var: Bound
    value: Node
    body: Node
    type: str = field(default="", init=False)
    src_loc: SrcLoc = field(default_factory=_src_loc, compare=False)

    def __post_init__(self):
        _same(self.var.type, self.value.type, f"let {self.var.name}")
        object.__setattr__(self, "type", self.body.type)

    def sexpr(self):
        return f"(let ({self.var.name} {self.value.sexpr()}) {self.body.sexpr()})"


QUANTS = {"forall": BOOL, "exists": BOOL, "sum": INT, "setof": None, "mapof": None}


@_node
class Quant(Node):
    """A finite quantifier: ``kind`` var in domain . body.

    The domain is a set expression (cards or players); ``mapof`` ranges over
    all players and builds a map.  ``setof`` builds the subset satisfying body.
    """
    kind: str
    var: Bound
    domain: Node
    body: Node
    type: str = field(default="", init=False)
    src_loc: SrcLoc = field(default_factory=_src_loc, compare=False)

    def __post_init__(self):
        if self.kind not in QUANTS:
            raise SpecError(f"unknown quantifier {self.kind}")
        if self.domain.type not in SET_TYPES:
            raise SpecError(f"{self.kind} domain must be a set, got {self.domain.type}")
        _same(self.var.type, SET_TYPES[self.domain.type], f"{self.kind} variable")
        if self.kind in ("forall", "exists", "setof"):
            _same(self.body.type, BOOL, f"{self.kind} body")
        if self.kind == "sum":
            _same(self.body.type, INT, "sum body")
        t = {"setof": self.domain.type, "mapof": map_of(self.body.type)}.get(
            self.kind, QUANTS[self.kind])
        if self.kind == "mapof" and self.domain.type != PLAYERS:
            raise SpecError("mapof ranges over players")
        object.__setattr__(self, "type", t)

    def sexpr(self):
        return (f"({self.kind} ({self.var.name} {self.domain.sexpr()}) "
                f"{self.body.sexpr()})")


@_node
class Call(Node):
    """A use of a definition; inlined at elaboration."""
    name: str
    args: tuple
    type: str
    src_loc: SrcLoc = field(default_factory=_src_loc, compare=False)

    def sexpr(self):
        return "(" + " ".join([self.name] + [a.sexpr() for a in self.args]) + ")"


# ---------------------------------------------------------------------------
# The core operators, documented once.


class Sig:
    """An operator's signature: argument types (or rules) and result type."""

    def __init__(self, args, result, doc, variadic=False):
        self.args, self.result, self.doc, self.variadic = args, result, doc, variadic

    def check(self, name, types):
        if self.variadic:
            if len(types) < 1 or any(t != self.args[0] for t in types):
                raise SpecError(f"{name} takes one or more {self.args[0]}, got {types}")
            return self.result
        if len(types) != len(self.args):
            raise SpecError(f"{name} takes {len(self.args)} arguments, got {len(types)}")
        env = {}
        for want, got in zip(self.args, types):
            if want in ("S", "E", "T", "M"):
                if want in env and env[want] != got:
                    raise SpecError(f"{name}: mismatched types {types}")
                env[want] = got
            elif want == CARDMAP:
                if got != CARDMAP:
                    raise SpecError(f"{name}: expected a cardmap, got {got}")
            elif want != got:
                raise SpecError(f"{name}: expected {self.args}, got {types}")
        if "S" in env:
            if env["S"] not in SET_TYPES:
                raise SpecError(f"{name}: {env['S']} is not a set type")
            if "E" in env and SET_TYPES[env["S"]] != env["E"]:
                raise SpecError(f"{name}: element {env['E']} not in {env['S']}")
        if "M" in env:
            vt = map_value_type(env["M"])
            if vt is None:
                raise SpecError(f"{name}: {env['M']} is not a map")
            if "T" in env and env["T"] != vt:
                raise SpecError(f"{name}: value {env['T']} for {env['M']}")
            if self.result == "T":
                return vt
        r = self.result
        return env.get(r, r)


OPS: dict[str, Sig] = {
    "and": Sig([BOOL], BOOL, "conjunction", variadic=True),
    "or": Sig([BOOL], BOOL, "disjunction", variadic=True),
    "not": Sig([BOOL], BOOL, "negation"),
    "eq": Sig(["T", "T"], BOOL, "equality of two values of one type"),
    "add": Sig([INT, INT], INT, "integer sum"),
    "sub": Sig([INT, INT], INT, "integer difference"),
    "mul": Sig([INT, INT], INT, "integer product"),
    "lt": Sig([INT, INT], BOOL, "less than"),
    "le": Sig([INT, INT], BOOL, "less or equal"),
    "union": Sig(["S", "S"], "S", "set union"),
    "inter": Sig(["S", "S"], "S", "set intersection"),
    "diff": Sig(["S", "S"], "S", "set difference"),
    "member": Sig(["E", "S"], BOOL, "element of a set (false for NOCARD/NOBODY)"),
    "with": Sig(["S", "E"], "S", "the set plus one element (unchanged for NOCARD/NOBODY)"),
    "without": Sig(["S", "E"], "S", "the set minus one element"),
    "is_empty": Sig(["S"], BOOL, "the set is empty"),
    "count": Sig(["S"], INT, "the number of elements"),
    "subset": Sig(["S", "S"], BOOL, "the first set is contained in the second"),
    "tsum": Sig([CARDS, CARDMAP], INT, "sum of a card map over a card set"),
    "attr": Sig([CARD, CARDMAP], INT, "a card map's entry for a card (last entry: NOCARD)"),
    "step": Sig([PLAYER, INT], PLAYER, "the seat dir places away, modulo players"),
    "next_in": Sig([PLAYER, INT, PLAYERS], PLAYER,
                   "first seat p+k*dir (k = 1..n) in the set, else NOBODY"),
    "top": Sig([PILE], CARD, "the pile's top card, NOCARD if empty"),
    "pile_len": Sig([PILE], INT, "number of cards in the pile"),
    "push": Sig([PILE, CARD], PILE, "the pile with a card put on top"),
    "pop": Sig([PILE], PILE, "the pile without its top card"),
    "pile_cards": Sig([PILE], CARDS, "the set of cards in the pile"),
    "pile_distinct": Sig([PILE], BOOL, "no card occurs twice in the pile"),
    "pile_of": Sig([CARD], PILE, "a pile of one card (empty for NOCARD)"),
    "get": Sig(["M", PLAYER], "T", "a map's value at a player"),
    "put": Sig(["M", PLAYER, "T"], "M", "the map with one player's value replaced"),
}


def op(name: str, *args) -> Op:
    return Op(name, tuple(args))


def bits(mask: int):
    """The set bits of ``mask``, lowest first (a set of cards or seats as its members)."""
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1


# ---------------------------------------------------------------------------
# Generic traversal helpers used by elaboration and backends.


def children(n: Node) -> tuple:
    if isinstance(n, Op):
        return n.args
    if isinstance(n, Ite):
        return (n.cond, n.then, n.else_)
    if isinstance(n, Let):
        return (n.value, n.body)
    if isinstance(n, Quant):
        return (n.domain, n.body)
    if isinstance(n, Call):
        return n.args
    return ()


def rebuild(n: Node, kids: tuple) -> Node:
    if isinstance(n, Op):
        return Op(n.op, tuple(kids), src_loc=n.src_loc)
    if isinstance(n, Ite):
        return Ite(kids[0], kids[1], kids[2], src_loc=n.src_loc)
    if isinstance(n, Let):
        return Let(n.var, kids[0], kids[1], src_loc=n.src_loc)
    if isinstance(n, Quant):
        return Quant(n.kind, n.var, kids[0], kids[1], src_loc=n.src_loc)
    if isinstance(n, Call):
        return Call(n.name, tuple(kids), n.type, src_loc=n.src_loc)
    return n


def walk(n: Node):
    """Every node of the tree, pre-order, without recursion."""
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children(x)))


def free_names(n: Node) -> frozenset[str]:
    """The names of the Bound and Param nodes in ``n`` (bound inside it or not),
    remembered by each node: ``substitute`` leaves a subtree that names none of
    its variables as it is, without walking it."""
    got = n._free  # type: ignore[attr-defined]  # every node class has the slot
    if got is None:
        if isinstance(n, (Bound, Param)):
            got = frozenset((n.name,))
        else:
            kids = children(n)
            got = _NO_NAMES.union(*(free_names(k) for k in kids)) if kids else _NO_NAMES
        object.__setattr__(n, "_free", got)
    return got


_NO_NAMES: frozenset[str] = frozenset()


def substitute(n: Node, env: dict) -> Node:
    """Replace Bound/Param nodes by name (capture-free: bound names are fresh).

    A tree shares subtrees (a definition inlined at several places of a formula):
    each shared subtree is rewritten once, and a subtree that names none of
    ``env``'s variables is not walked at all."""
    memo: dict[int, Node] = {}
    names = env.keys()

    def go(x: Node) -> Node:
        hit = memo.get(id(x))
        if hit is not None:
            return hit
        if names.isdisjoint(free_names(x)):
            y = x
        elif isinstance(x, (Bound, Param)) and x.name in env:
            y = env[x.name]
        else:
            kids = children(x)
            new = tuple(go(k) for k in kids)
            y = x if all(a is b for a, b in zip(new, kids)) else rebuild(x, new)
        memo[id(x)] = y
        return y

    return go(n)
