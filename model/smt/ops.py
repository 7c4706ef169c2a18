"""The operators of the spec language (``spec.ast.OPS``) on Z3 terms.

Part of the SMT backend (``model/smt/encoding.py`` assembles it).  One encoder per
operator, each with the value semantics of ``spec.semantics.apply_op``
(NOCARD/NOBODY (-1) cases included); apart from the walk over expressions
(``translate.py``) because an encoder reads only already-encoded arguments
and the representation of values (``values.py``), so it can be checked
operator by operator (tests/test_smt.py does, against ``apply_op``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MethodType, SimpleNamespace
from typing import Any

import z3

from itcp.spec import ast as A
from itcp.spec.walk import OperatorTable, handles

from .values import (
    ELEM_WIDTH,
    TRUE,
    Pile,
    Values,
    mk_and,
    mk_if,
    mk_not,
    mk_or,
    slit,
)

#: an encoder: (the encoded arguments, the Op node: its ``op``, ``type`` and
#: the ``type`` of each of its ``args``) -> the encoded result
Encoder = Callable[[Sequence[Any], Any], Any]


class Operators(OperatorTable):
    """One encoder per entry of ``spec.ast.OPS`` (``op_<name>``, marked
    ``@handles``: a missing one fails when the class is defined); ``table``
    maps each operator name to its encoder bound to these values."""

    def __init__(self, values: Values):
        self.values = values
        self.n, self.n_cards, self.iw = values.n, values.n_cards, values.iw
        self._attr: dict[tuple[int, tuple], tuple[Any, Any]] = {}
        self.table: dict[str, Encoder] = {name: MethodType(case, self)
                                          for name, case in self.op_cases.items()}

    def encode_op(self, name: str, args: list, arg_types: list, rtype: str) -> Any:
        """Operator ``name`` on already-encoded arguments (used by tests)."""
        node = SimpleNamespace(op=name, type=rtype,
                               args=tuple(SimpleNamespace(type=t) for t in arg_types))
        return self.table[name](args, node)

    @handles("and")
    def op_and(self, v: Sequence[Any], n: Any) -> Any:
        return mk_and(*v)

    @handles("or")
    def op_or(self, v: Sequence[Any], n: Any) -> Any:
        return mk_or(*v)

    @handles("not")
    def op_not(self, v: Sequence[Any], n: Any) -> Any:
        return mk_not(v[0])

    @handles("eq")
    def op_eq(self, v: Sequence[Any], n: Any) -> Any:
        return self.values.eq(v[0], v[1], n.args[0].type)

    @handles("add")
    def op_add(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] + v[1]

    @handles("sub")
    def op_sub(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] - v[1]

    @handles("mul")
    def op_mul(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] * v[1]

    @handles("lt")
    def op_lt(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] < v[1]

    @handles("le")
    def op_le(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] <= v[1]

    @handles("union")
    def op_union(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] | v[1]

    @handles("inter")
    def op_inter(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] & v[1]

    @handles("diff")
    def op_diff(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] & ~v[1]

    @handles("member")
    def op_member(self, v: Sequence[Any], n: Any) -> Any:
        return self.values.has(v[1], v[0], self.values.set_width(n.args[1].type))

    @handles("with")
    def op_with(self, v: Sequence[Any], n: Any) -> Any:
        w = self.values.set_width(n.args[0].type)
        return mk_if(self.values.in_range(v[1], w), v[0] | self.values.single(v[1], w), v[0])

    @handles("without")
    def op_without(self, v: Sequence[Any], n: Any) -> Any:
        w = self.values.set_width(n.args[0].type)
        return mk_if(self.values.in_range(v[1], w), v[0] & ~self.values.single(v[1], w), v[0])

    @handles("is_empty")
    def op_is_empty(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] == 0

    @handles("count")
    def op_count(self, v: Sequence[Any], n: Any) -> Any:
        width = self.values.set_width(n.args[0].type)
        return self.values.aggregate(self.values.popcount(v[0], width), ("count", width), v[0])

    @handles("subset")
    def op_subset(self, v: Sequence[Any], n: Any) -> Any:
        return v[0] & ~v[1] == 0

    @handles("tsum")
    def op_tsum(self, v: Sequence[Any], n: Any) -> Any:
        S, tab = v
        zero = z3.BitVecVal(0, self.iw)
        terms = [mk_if(z3.Extract(i, i, S) == 1, z3.BitVecVal(tab[i], self.iw), zero)
                 for i in range(self.n_cards) if tab[i] != 0]
        return self.values.aggregate(z3.Sum(terms), ("tsum", tuple(tab)), S) if terms else zero

    @handles("attr")
    def op_attr(self, v: Sequence[Any], n: Any) -> Any:
        c, tab = v
        bv = self.values.bv
        # Python indexing: -1 is the last entry (NOCARD's); other numbers their own
        i = slit(c)
        if i is not None:
            return bv(tab[i] if -len(tab) <= i < len(tab) else tab[-1], self.iw)
        key = (c.get_id(), tab)
        hit = self._attr.get(key)
        if hit is not None:
            return hit[1]
        groups: dict[int, list[int]] = {}
        for i, x in enumerate(tab[:-1]):
            if x != tab[-1]:
                groups.setdefault(x, []).append(i)
        out = bv(tab[-1], self.iw)
        for x, idx in groups.items():
            out = mk_if(mk_or(*[c == i for i in idx]), bv(x, self.iw), out)
        self._attr[key] = (c, out)
        return out

    @handles("step")
    def op_step(self, v: Sequence[Any], n: Any) -> Any:
        p, d = v
        q = (self.values.to_int(p) + d) % z3.BitVecVal(self.n, self.iw)
        return mk_if(p >= 0, self.values.to_elem(q), z3.BitVecVal(-1, ELEM_WIDTH))

    @handles("next_in")
    def op_next_in(self, v: Sequence[Any], n: Any) -> Any:
        p, d, S = v
        nobody = z3.BitVecVal(-1, ELEM_WIDTH)
        pi = self.values.to_int(p)
        out = nobody
        for k in reversed(range(1, self.n + 1)):
            q = self.values.to_elem((pi + d * k) % z3.BitVecVal(self.n, self.iw))
            out = mk_if(self.values.has(S, q, self.n), q, out)
        return mk_if(mk_or(p < 0, d == 0), nobody, out)

    @handles("top")
    def op_top(self, v: Sequence[Any], n: Any) -> Any:
        return v[0].top

    @handles("pile_len")
    def op_pile_len(self, v: Sequence[Any], n: Any) -> Any:
        return z3.ZeroExt(self.iw - ELEM_WIDTH, v[0].length)

    @handles("push")
    def op_push(self, v: Sequence[Any], n: Any) -> Pile:
        pile, c = v
        bit = self.values.card_bit(c)
        return Pile(pile.length + 1,
                    tuple(mk_if(pile.length == i, c, x) for i, x in enumerate(pile.slots)),
                    pile.cards | bit,
                    mk_and(pile.distinct, (pile.cards & bit) == 0), c)

    @handles("pop")
    def op_pop(self, v: Sequence[Any], n: Any) -> Pile:
        # the top card leaves the set unless it lies lower in the pile too, which
        # only a pile with a card twice allows: one comparison per slot, not a new
        # union over them, and none read when the pile is known distinct.  A
        # distinct pile stays distinct; another one may become distinct (its top
        # card was the one twice), which only the ladder over the slots left says
        pile = v[0]
        w = self.n_cards
        length = mk_if(pile.length == 0, pile.length, pile.length - 1)
        slots = tuple(mk_if(pile.length == i + 1, z3.BitVecVal(-1, ELEM_WIDTH), x)
                      for i, x in enumerate(pile.slots))
        top = pile.top
        lower = mk_or(*[mk_and(z3.ULT(i, pile.length - 1), x == top)
                        for i, x in enumerate(pile.slots[:-1])])
        stays = mk_or(pile.length == 0, mk_not(self.values.in_range(top, w)),
                      mk_and(mk_not(pile.distinct), lower))
        return Pile(length, slots,
                    mk_if(stays, pile.cards, pile.cards & ~self.values.single(top, w)),
                    mk_or(pile.distinct, self.values.ladder(slots)),
                    mk_if(z3.ULE(pile.length, 1), z3.BitVecVal(-1, ELEM_WIDTH),
                          self.values.slot(pile, pile.length - 2)))

    @handles("pile_cards")
    def op_pile_cards(self, v: Sequence[Any], n: Any) -> Any:
        return v[0].cards

    @handles("pile_distinct")
    def op_pile_distinct(self, v: Sequence[Any], n: Any) -> Any:
        return v[0].distinct

    @handles("pile_of")
    def op_pile_of(self, v: Sequence[Any], n: Any) -> Pile:
        c = v[0]
        w = self.n_cards
        neg = z3.BitVecVal(-1, ELEM_WIDTH)
        return Pile(mk_if(c >= 0, z3.BitVecVal(1, ELEM_WIDTH), z3.BitVecVal(0, ELEM_WIDTH)),
                    tuple([mk_if(c >= 0, c, neg)] + [neg] * (w - 1)),
                    self.values.card_bit(c), TRUE, mk_if(c >= 0, c, neg))

    @handles("get")
    def op_get(self, v: Sequence[Any], n: Any) -> Any:
        m, k = v
        out = self.values.zero(n.type)
        for i in reversed(range(self.n)):
            out = self.values.cond(self.values.eqi(k, i), m[i], out, n.type)
        return out

    @handles("put")
    def op_put(self, v: Sequence[Any], n: Any) -> tuple:
        m, k, x = v
        vt = A.map_value_type(n.type)
        return tuple(self.values.cond(self.values.eqi(k, i), x, m[i], vt) for i in range(self.n))
