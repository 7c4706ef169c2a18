"""How a value of each spec type is a Z3 term, and the term-level helpers.

Part of the SMT backend (``model/smt/encoding.py`` assembles it).  Apart from the
translation of expressions (``translate.py``) and the operator encoders
(``ops.py``) because every one of those, the transition assembly and the
state codec (``codec.py``) reads values the same way: one place says what a
value of each type is, how two are compared, chosen between and bounded.

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
               it, so what a move does to it never reads the slots.  ``top``
               (a BitVec(8), -1 for an empty pile) is the top card, kept the
               same way: a state's pile ties it to the slot under the length
               (the "top" part of ``SmtSpec.wf_parts``), push makes it the
               card pushed, pop the slot below, so a push's top card is the
               card pushed without a lookup over the slots (a push onto a pile
               of every card, which no play reaches, keeps the engine's top
               card where the slots have no room for it: the step proofs that
               a discard leaves a card on the pile no longer count the pile's
               cards to exclude it); tests/test_smt.py proves all of it exact
``map[T]``     a tuple of n_players values of type T
``cardmap``    the constant Python tuple (card maps are always constants)
=============  ==============================================================
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from itcp.spec import ast as A
from itcp.spec.ast import BOOL, CARD, CARDMAP, CARDS, INT, PILE, PLAYER, PLAYERS
from itcp.spec.errors import SpecError
from itcp.spec.semantics import zero_of

# -- fast term constructors ---------------------------------------------------------
# z3py's And/Or/If check and coerce every argument in Python, which dominates the
# time to encode the full deck (tens of thousands of quantifier instances).  The
# encoder only ever passes well-sorted z3 terms, so these call the C API directly.

CTX = z3.main_ctx()
TRUE, FALSE = z3.BoolVal(True), z3.BoolVal(False)


def _arr(xs: Sequence[z3.ExprRef]) -> Any:
    arr = (z3.Ast * len(xs))()
    for i, x in enumerate(xs):
        arr[i] = x.ast
    return arr


def is_true(x: object) -> bool:
    """``x`` is the literal true (the encoder makes every Boolean literal ``TRUE``)."""
    return x is TRUE


def is_false(x: object) -> bool:
    return x is FALSE


def boolval(b: object) -> z3.BoolRef:
    return TRUE if b else FALSE


_LITS: dict[int, tuple[z3.BitVecNumRef, int, int]] = {}


def lit(x: object) -> int | None:
    """The value (unsigned) of a bit-vector literal, else None; cached per object,
    since reading a numeral through the API costs more than building a term."""
    if not isinstance(x, z3.BitVecNumRef):
        return None
    hit = _LITS.get(id(x))
    if hit is None or hit[0] is not x:
        hit = _LITS[id(x)] = (x, x.as_long(), x.size())
    return hit[1]


def slit(x: object) -> int | None:
    """The signed value of a bit-vector literal, else None."""
    v = lit(x)
    if v is None:
        return None
    w = _LITS[id(x)][2]
    return v - (1 << w) if v >> (w - 1) else v


def mk_and(*xs: Any) -> Any:
    xs = tuple(x for x in xs if not is_true(x))
    if any(is_false(x) for x in xs):
        return FALSE
    if not xs:
        return TRUE
    if len(xs) == 1:
        return xs[0]
    return z3.BoolRef(z3.Z3_mk_and(CTX.ref(), len(xs), _arr(xs)), CTX)


def mk_or(*xs: Any) -> Any:
    xs = tuple(x for x in xs if not is_false(x))
    if any(is_true(x) for x in xs):
        return TRUE
    if not xs:
        return FALSE
    if len(xs) == 1:
        return xs[0]
    return z3.BoolRef(z3.Z3_mk_or(CTX.ref(), len(xs), _arr(xs)), CTX)


def mk_not(x: Any) -> Any:
    if is_true(x):
        return FALSE
    if is_false(x):
        return TRUE
    return z3.BoolRef(z3.Z3_mk_not(CTX.ref(), x.ast), CTX)


def mk_if(c: Any, a: Any, b: Any) -> Any:
    if is_true(c):
        return a
    if is_false(c):
        return b
    if a.get_id() == b.get_id():
        return a
    cls = z3.BoolRef if isinstance(a, z3.BoolRef) else z3.BitVecRef
    return cls(z3.Z3_mk_ite(CTX.ref(), c.ast, a.ast, b.ast), CTX)


def mk_eq(a: Any, b: Any) -> Any:
    if a.get_id() == b.get_id():
        return TRUE
    return z3.BoolRef(z3.Z3_mk_eq(CTX.ref(), a.ast, b.ast), CTX)


#: width of a player or card number (signed; -1 = NOBODY / NOCARD)
ELEM_WIDTH = 8
DEFAULT_INT_WIDTH = 16


def needed_int_width(variables: Sequence[Any]) -> int:
    """The width of an ``int``: 16 bits unless a variable's declared bounds need more."""
    width = DEFAULT_INT_WIDTH
    for v in variables:
        if v.bounds:
            lo, hi = v.bounds
            need = max((lo).bit_length(), (hi).bit_length()) + 1
            width = max(width, need)
    return width


@dataclass(frozen=True)
class Pile:
    length: z3.BitVecRef
    slots: tuple
    cards: z3.BitVecRef   # the set of the cards in slots 0 .. length-1
    distinct: z3.BoolRef  # no card occurs twice in slots 0 .. length-1
    top: z3.BitVecRef     # the top card (slot length-1), -1 for an empty pile


#: an aggregate's record: (its term, which sum, the set summed)
Aggregate = tuple[Any, tuple, Any]


class Values:
    """The representation of values at one table (``n`` seats, ``n_cards`` cards,
    ``iw``-bit ints): fresh and constant values of each type, equality and choice
    between values, sets as bit-vectors, piles, and each type's well-formedness."""

    def __init__(self, n: int, n_cards: int, iw: int):
        self.n, self.n_cards, self.iw = n, n_cards, iw
        self._consts: dict[tuple[int, int], Any] = {}
        self._bits: dict[tuple[int, int], tuple[Any, Any]] = {}
        #: the point sums and card counts built so far: term id -> (term, which
        #: sum, the set summed), which ``Symbolic.abstracted`` may abstract and
        #: ``eq`` states at zero as a mask
        self.aggregates: dict[int, Aggregate] = {}

    def set_width(self, t: str) -> int:
        return self.n_cards if t == CARDS else self.n

    def fresh(self, t: str, name: str) -> Any:
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
                        z3.Bool(f"{name}_distinct"),
                        z3.BitVec(f"{name}_top", ELEM_WIDTH))
        raise SpecError(f"no Z3 sort for type {t}")

    def const(self, value: Any, t: str) -> Any:
        """A concrete engine value of type ``t`` as Z3 term(s)."""
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self.const(x, vt) for x in value)
        if t == CARDMAP:
            return tuple(value)
        if t == BOOL:
            return boolval(bool(value))
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
                        self.bv(self.card_set(value), self.n_cards),
                        boolval(self.distinct(value)),
                        self.bv(value[-1] if value else -1, ELEM_WIDTH))
        raise SpecError(f"no Z3 constant for type {t}")

    def card_set(self, pile: Sequence[int]) -> int:
        """The set of a concrete pile's cards (as ``pile_cards``: cards outside the
        deck, such as NOCARD, are no card)."""
        return sum({1 << c for c in pile if 0 <= c < self.n_cards})

    def distinct(self, pile: Sequence[int]) -> bool:
        """A concrete pile's ``distinct`` (as the ladder reads the slots: only
        cards of the deck count, so NOCARD is no card)."""
        cards = [c for c in pile if 0 <= c < self.n_cards]
        return len(set(cards)) == len(cards)

    def zero(self, t: str) -> Any:
        return self.const(zero_of(t), t)

    def ite(self, c: Any, a: Any, b: Any, t: str) -> Any:
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self.ite(c, x, y, vt) for x, y in zip(a, b))
        if t == PILE:
            return Pile(mk_if(c, a.length, b.length),
                        tuple(mk_if(c, x, y) for x, y in zip(a.slots, b.slots)),
                        mk_if(c, a.cards, b.cards), mk_if(c, a.distinct, b.distinct),
                        mk_if(c, a.top, b.top))
        if t == CARDMAP:
            if a != b:
                raise SpecError("a conditional choice between two cardmaps")
            return a
        return mk_if(c, a, b)

    def eq(self, a: Any, b: Any, t: str) -> Any:
        vt = A.map_value_type(t)
        if vt is not None:
            return mk_and(*[self.eq(x, y, vt) for x, y in zip(a, b)])
        if t == PILE:
            return mk_and(a.length == b.length,
                          *[x == y for x, y in zip(a.slots, b.slots)], a.cards == b.cards,
                          mk_eq(a.distinct, b.distinct), a.top == b.top)
        if t == CARDMAP:
            return boolval(tuple(a) == tuple(b))
        if t == INT:
            empty = self.none_counted(a) if slit(b) == 0 else \
                self.none_counted(b) if slit(a) == 0 else None
            if empty is not None:
                return empty
        return mk_eq(a, b)

    def none_counted(self, term: Any) -> Any:
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
        values: tuple
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

    def aggregate(self, term: Any, kind: tuple, S: Any) -> Any:
        """``term``, the sum ``kind`` over the set ``S``, recorded as an aggregate."""
        if not z3.is_bv_value(term):
            self.aggregates.setdefault(term.get_id(), (term, kind, S))
        return term

    def bv(self, value: int, width: int) -> Any:
        """A cached bit-vector constant."""
        key = (value, width)
        hit = self._consts.get(key)
        if hit is None:
            hit = self._consts[key] = z3.BitVecVal(value, width)
        return hit

    @staticmethod
    def eqi(x: Any, i: int) -> Any:
        """``x == i`` for a bit-vector term and a Python int, folded if ``x`` is a value."""
        v = slit(x)
        if v is not None:
            return boolval(v == i)
        return x == i

    def cond(self, c: Any, a: Any, b: Any, t: str | None = None) -> Any:
        """If-then-else folded when the condition is a literal."""
        if is_true(c):
            return a
        if is_false(c):
            return b
        return self.ite(c, a, b, t) if t is not None else mk_if(c, a, b)

    def to_int(self, x: Any) -> Any:
        """A player or card number (8 bits) as an int."""
        return z3.SignExt(self.iw - ELEM_WIDTH, x)

    @staticmethod
    def to_elem(x: Any) -> Any:
        """An int as a player or card number (values in range)."""
        return z3.Extract(ELEM_WIDTH - 1, 0, x)

    @staticmethod
    def index(e: Any, width: int) -> Any:
        """Element number ``e`` (8 bits) resized to a shift amount of ``width`` bits."""
        if width > ELEM_WIDTH:
            return z3.ZeroExt(width - ELEM_WIDTH, e)
        if width < ELEM_WIDTH:
            return z3.Extract(width - 1, 0, e)
        return e

    @staticmethod
    def in_range(e: Any, width: int) -> Any:
        v = slit(e)
        if v is not None:
            return boolval(0 <= v < width)
        return mk_and(e >= 0, e < width)

    def bit(self, S: Any, i: int) -> Any:
        """Bit ``i`` of set ``S`` as a Bool (cached per set term)."""
        key = (S.get_id(), i)
        hit = self._bits.get(key)
        if hit is None or hit[0] is not S:
            v = lit(S)
            if v is not None:
                b = boolval(v >> i & 1)
            else:
                b = z3.Extract(i, i, S) == 1
            hit = self._bits[key] = (S, b)
        return hit[1]

    def has(self, S: Any, e: Any, width: int) -> Any:
        """Element ``e`` is in set ``S`` (false for -1 and out-of-range numbers)."""
        i = slit(e)
        if i is not None:  # a literal element: one bit of S
            return self.bit(S, i) if 0 <= i < width else boolval(False)
        bit = z3.Extract(0, 0, z3.LShR(S, self.index(e, width))) == 1
        return mk_and(self.in_range(e, width), bit)

    def single(self, e: Any, width: int) -> Any:
        i = slit(e)
        if i is not None:
            return self.bv(1 << i if 0 <= i < width else 0, width)
        return z3.BitVecVal(1, width) << self.index(e, width)

    def popcount(self, S: Any, width: int) -> Any:
        return z3.Sum([z3.ZeroExt(self.iw - 1, z3.Extract(i, i, S)) for i in range(width)]) \
            if width > 1 else z3.ZeroExt(self.iw - 1, S)

    # -- piles

    def slot(self, pile: Pile, idx: Any) -> Any:
        """The pile's slot ``idx`` (a symbolic 8-bit position), -1 outside."""
        out = z3.BitVecVal(-1, ELEM_WIDTH)
        for i in reversed(range(len(pile.slots))):
            out = self.cond(self.eqi(idx, i), pile.slots[i], out)
        return out

    def card_bit(self, c: Any) -> Any:
        """The set holding card ``c``, or no card when ``c`` is none (NOCARD)."""
        w = self.n_cards
        return mk_if(self.in_range(c, w), self.single(c, w), z3.BitVecVal(0, w))

    def slot_union(self, length: Any, slots: Sequence[Any]) -> Any:
        """The set of the cards in ``slots`` below ``length``."""
        zero = z3.BitVecVal(0, self.n_cards)
        out = zero
        for i, x in enumerate(slots):
            out = out | mk_if(z3.ULT(i, length), self.card_bit(x), zero)
        return out

    def ladder(self, slots: Sequence[Any]) -> Any:
        """No card in two of ``slots``: per card a ladder over the slots ("seen
        before" and "here" never both), no arithmetic.  A slot past the length is
        -1 (the layout every pile term keeps), so it never holds a card.  Why a
        ladder: at 72 cards Z3 proves it preserved by pop in seconds, where
        pairwise slot comparisons (2,556 of them) did not finish in a minute; and
        why only in a state's tie (``SmtSpec.wf_parts``): at 72 cards even the
        ladder is 5,184 comparisons a query pays for in every step it asks"""
        out = []
        for c in range(self.n_cards):
            seen = FALSE
            for x in slots:
                here = self.eqi(x, c)
                if is_false(here):
                    continue
                out.append(mk_not(mk_and(seen, here)))
                seen = mk_or(seen, here)
        return mk_and(*out)

    def top(self, pile: Pile) -> Any:
        """The pile's top card as its slots say, -1 for an empty pile (what a
        state's tie equates ``pile.top`` with; a move reads ``pile.top``)."""
        return mk_if(pile.length == 0, z3.BitVecVal(-1, ELEM_WIDTH),
                     self.slot(pile, pile.length - 1))

    def well_formed(self, x: Any, t: str, bounds: tuple[int, int] | None = None) -> list:
        """Constraints: ``x`` is a value of type ``t`` (within ``bounds`` for an
        int); for a pile, its layout and its set of cards tied to the slots."""
        vt = A.map_value_type(t)
        if vt is not None:
            return [c for y in x for c in self.well_formed(y, vt, bounds)]
        if t == PLAYER:
            return [x >= -1, x < self.n]
        if t == CARD:
            return [x >= -1, x < self.n_cards]
        if t == INT and bounds is not None:
            return [x >= bounds[0], x <= bounds[1]]
        if t == PILE:
            out = [z3.ULE(x.length, self.n_cards)]
            for i, c in enumerate(x.slots):
                out.append(mk_if(z3.ULT(i, x.length), mk_and(c >= 0, c < self.n_cards), c == -1))
            out.append(x.cards == self.slot_union(x.length, x.slots))
            return out
        return []
