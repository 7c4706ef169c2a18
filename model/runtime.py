"""Value-level semantics shared by the generated engine and the reference evaluator.

The few operators that are not one Python expression (the first seat in a set
going round the table, the cards of a pile, subsets of a card set) live here,
so both executable backends compute them identically.  State values: booleans
and integers as themselves, card and player sets as integer bitmasks, the pile
as a tuple of card numbers (top last), a per-player map as a tuple.
"""
from __future__ import annotations

from itertools import combinations

NOCARD = -1
NOBODY = -1


def bits(mask: int) -> list[int]:
    """The element numbers of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def next_in_table(n: int) -> tuple:
    """NEXT[d + 1][p + 1][s]: the first seat p + k*d (k = 1..n) in set s, else NOBODY."""
    def first(p, d, s):
        if p < 0:
            return NOBODY
        for k in range(1, n + 1):
            q = (p + k * d) % n
            if s >> q & 1:
                return q
        return NOBODY
    rows = []
    for d in (-1, 0, 1):
        rows.append(tuple(tuple(first(p, d, s) if d else NOBODY for s in range(1 << n))
                          for p in range(-1, n)))
    return tuple(rows)


def next_in(table, p: int, d: int, s: int) -> int:
    if p < -1 or d not in (-1, 0, 1):
        return NOBODY
    return table[d + 1][p + 1][s]


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
