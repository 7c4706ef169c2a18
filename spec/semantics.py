"""What each core operator means, on concrete values: the language's semantics.

One case per operator, on the value representation every backend shares
(bitmasks for sets, tuples for the pile and per-player maps, -1 for NOCARD and
NOBODY): ``Semantics`` is an operator table (``spec/walk.py``), so an operator
of ``OPS`` without a case fails when this module is imported.  The reference
evaluator evaluates with it (``apply_op``), the simplifier folds constants
with it, and the generated engine is tested against it.
"""
from __future__ import annotations

from itertools import combinations

from .walk import OperatorTable, handles


def bits(mask: int) -> list[int]:
    """The element numbers of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def pile_mask(pile: tuple) -> int:
    m = 0
    for c in pile:
        m |= 1 << c
    return m


def subsets(mask: int, k: int) -> list[int]:
    """Every k-element subset of a bitmask, as bitmasks, in a fixed order."""
    out = []
    for comb in combinations(bits(mask), k):
        m = 0
        for i in comb:
            m |= 1 << i
        out.append(m)
    return out


def zero_of(t: str):
    """The value ``get`` returns for NOBODY: the type's empty value."""
    if t in ("card", "player"):
        return -1
    if t == "bool":
        return False
    return 0


def next_in(p: int, d: int, s: int, n: int) -> int:
    """The first seat p + k*d (k = 1..n) in set s, else NOBODY."""
    if p < 0 or d == 0:
        return -1
    for k in range(1, n + 1):
        q = (p + k * d) % n
        if s >> q & 1:
            return q
    return -1


class Semantics(OperatorTable):
    """Each operator of ``OPS`` on concrete values: a case per operator, each
    ``(self, v, rtype, n)`` with the argument values ``v``, the result type
    ``rtype`` and the number of players ``n``."""

    @handles("and")
    def and_(self, v, rtype, n): return all(v)

    @handles("or")
    def or_(self, v, rtype, n): return any(v)

    @handles("not")
    def not_(self, v, rtype, n): return not v[0]

    @handles("eq")
    def eq(self, v, rtype, n): return v[0] == v[1]

    @handles("add")
    def add(self, v, rtype, n): return v[0] + v[1]

    @handles("sub")
    def sub(self, v, rtype, n): return v[0] - v[1]

    @handles("mul")
    def mul(self, v, rtype, n): return v[0] * v[1]

    @handles("lt")
    def lt(self, v, rtype, n): return v[0] < v[1]

    @handles("le")
    def le(self, v, rtype, n): return v[0] <= v[1]

    @handles("union")
    def union(self, v, rtype, n): return v[0] | v[1]

    @handles("inter")
    def inter(self, v, rtype, n): return v[0] & v[1]

    @handles("diff")
    def diff(self, v, rtype, n): return v[0] & ~v[1]

    @handles("member")
    def member(self, v, rtype, n): return v[0] >= 0 and bool(v[1] >> v[0] & 1)

    @handles("with")
    def with_(self, v, rtype, n): return v[0] | (1 << v[1]) if v[1] >= 0 else v[0]

    @handles("without")
    def without(self, v, rtype, n): return v[0] & ~(1 << v[1]) if v[1] >= 0 else v[0]

    @handles("is_empty")
    def is_empty(self, v, rtype, n): return v[0] == 0

    @handles("count")
    def count(self, v, rtype, n): return bin(v[0]).count("1")

    @handles("subset")
    def subset(self, v, rtype, n): return v[0] & ~v[1] == 0

    @handles("tsum")
    def tsum(self, v, rtype, n): return sum(v[1][i] for i in bits(v[0]))

    @handles("attr")
    def attr(self, v, rtype, n): return v[1][v[0]]

    @handles("step")
    def step(self, v, rtype, n): return (v[0] + v[1]) % n if v[0] >= 0 else -1

    @handles("next_in")
    def next_in(self, v, rtype, n): return next_in(v[0], v[1], v[2], n)

    @handles("top")
    def top(self, v, rtype, n): return v[0][-1] if v[0] else -1

    @handles("pile_len")
    def pile_len(self, v, rtype, n): return len(v[0])

    @handles("push")
    def push(self, v, rtype, n): return v[0] + (v[1],)

    @handles("pop")
    def pop(self, v, rtype, n): return v[0][:-1]

    @handles("pile_cards")
    def pile_cards(self, v, rtype, n): return pile_mask(v[0])

    @handles("pile_distinct")
    def pile_distinct(self, v, rtype, n): return len(set(v[0])) == len(v[0])

    @handles("pile_of")
    def pile_of(self, v, rtype, n): return (v[0],) if v[0] >= 0 else ()

    @handles("get")
    def get(self, v, rtype, n): return v[0][v[1]] if v[1] >= 0 else zero_of(rtype)

    @handles("put")
    def put(self, v, rtype, n):
        m, k, x = v
        return m[:k] + (x,) + m[k + 1:] if k >= 0 else m


_SEMANTICS = Semantics()
_CASES = Semantics.op_cases


def apply_op(o: str, rtype: str, v: list, n: int):
    """The value of operator ``o`` (result type ``rtype``) on argument values
    (a KeyError for a name that is no operator)."""
    return _CASES[o](_SEMANTICS, v, rtype, n)
