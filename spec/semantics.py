"""What each core operator means, on concrete values: the language's semantics.

One function per operator, on the value representation every backend shares
(bitmasks for sets, tuples for the pile and per-player maps, -1 for NOCARD and
NOBODY).  The reference evaluator evaluates with it, the simplifier folds
constants with it, and the generated engine is tested against it.
"""
from __future__ import annotations

from itertools import combinations


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


def apply_op(o: str, rtype: str, v: list, n: int):
    """The value of operator ``o`` (result type ``rtype``) on argument values."""
    if o == "and":
        return all(v)
    if o == "or":
        return any(v)
    if o == "not":
        return not v[0]
    if o == "eq":
        return v[0] == v[1]
    if o == "add":
        return v[0] + v[1]
    if o == "sub":
        return v[0] - v[1]
    if o == "mul":
        return v[0] * v[1]
    if o == "lt":
        return v[0] < v[1]
    if o == "le":
        return v[0] <= v[1]
    if o == "union":
        return v[0] | v[1]
    if o == "inter":
        return v[0] & v[1]
    if o == "diff":
        return v[0] & ~v[1]
    if o == "member":
        return v[0] >= 0 and bool(v[1] >> v[0] & 1)
    if o == "with":
        return v[0] | (1 << v[1]) if v[1] >= 0 else v[0]
    if o == "without":
        return v[0] & ~(1 << v[1]) if v[1] >= 0 else v[0]
    if o == "is_empty":
        return v[0] == 0
    if o == "count":
        return bin(v[0]).count("1")
    if o == "subset":
        return v[0] & ~v[1] == 0
    if o == "tsum":
        return sum(v[1][i] for i in bits(v[0]))
    if o == "attr":
        return v[1][v[0]]
    if o == "step":
        return (v[0] + v[1]) % n if v[0] >= 0 else -1
    if o == "next_in":
        return next_in(v[0], v[1], v[2], n)
    if o == "top":
        return v[0][-1] if v[0] else -1
    if o == "pile_len":
        return len(v[0])
    if o == "push":
        return v[0] + (v[1],)
    if o == "pop":
        return v[0][:-1]
    if o == "pile_cards":
        return pile_mask(v[0])
    if o == "pile_distinct":
        return len(set(v[0])) == len(v[0])
    if o == "pile_of":
        return (v[0],) if v[0] >= 0 else ()
    if o == "get":
        return v[0][v[1]] if v[1] >= 0 else zero_of(rtype)
    if o == "put":
        m, k, x = v
        return m[:k] + (x,) + m[k + 1:] if k >= 0 else m
    raise KeyError(o)
