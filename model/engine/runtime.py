"""Helpers the generated engine imports at run time.

The value semantics live in ``itcp.spec.semantics``; this adds the lookup
table that makes "the next seat in a set, going round the table" one index.
"""
from __future__ import annotations

from itcp.spec.semantics import bits, pile_mask, subsets, zero_of
from itcp.spec.semantics import next_in as _next_in

NOCARD = -1
NOBODY = -1

__all__ = ["bits", "pile_mask", "subsets", "zero_of", "next_in_table", "NOCARD", "NOBODY"]


def next_in_table(n: int) -> tuple:
    """NEXT[d + 1][p + 1][s]: the first seat p + k*d (k = 1..n) in set s, else NOBODY."""
    return tuple(
        tuple(tuple(_next_in(p, d, s, n) for s in range(1 << n)) for p in range(-1, n))
        for d in (-1, 0, 1))
