"""Packing states into single integers, for compact visited sets.

A state tuple of an elaborated spec packs into one Python int: each variable
gets a fixed-width field (a card set is one bit per card; a player or card is
its number plus one; an int variable its declared range), with the discard
pile, the only variable-length value, stored last as a length and its cards.
``pack`` and ``unpack`` are generated as straight-line code for speed, and are
exact inverses on every state within the declared bounds (tested).
"""
from __future__ import annotations

from dataclasses import dataclass

from itcp.spec import ast as A
from itcp.spec.lang import Spec

from ..engine.loader import load_generated


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    width: int
    bias: int  # stored value = value + bias


def _scalar_width(t: str, spec: Spec, bounds) -> tuple[int, int]:
    n, c = spec.config.players, spec.config.n_cards
    if t == A.BOOL:
        return 1, 0
    if t == A.PLAYER:
        return (n + 1).bit_length(), 1
    if t == A.CARD:
        return (c + 1).bit_length(), 1
    if t == A.CARDS:
        return c, 0
    if t == A.PLAYERS:
        return n, 0
    if t == A.INT:
        if bounds is None:
            raise ValueError("an int variable needs bounds to be packed")
        lo, hi = bounds
        return (hi - lo).bit_length(), -lo
    raise ValueError(t)


class Layout:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.fields: list[tuple[str, str, list[Field]]] = []  # (var, type, fields)
        off = 0
        pile = None
        for v in spec.variables:
            if v.type == A.PILE:
                pile = v
                continue
            vt = A.map_value_type(v.type)
            count = spec.config.players if vt else 1
            w, bias = _scalar_width(vt or v.type, spec, v.bounds)
            fs = []
            for _ in range(count):
                fs.append(Field(v.name, off, w, bias))
                off += w
            self.fields.append((v.name, v.type, fs))
        self.fixed_bits = off
        self.pile = pile
        self.card_bits = (spec.config.n_cards + 1).bit_length()
        self.len_bits = (spec.config.n_cards + 1).bit_length()

    def max_bits(self) -> int:
        """The width of the widest key: every fixed field and a full pile."""
        if self.pile is None:
            return self.fixed_bits
        return self.fixed_bits + self.len_bits + self.spec.config.n_cards * self.card_bits

    def source(self) -> str:
        names = [v.name for v in self.spec.variables]
        lines = ["def pack(s):", f"    ({', '.join('v_' + x for x in names)},) = s"]
        terms = []
        for var, t, fs in self.fields:
            vt = A.map_value_type(t)
            for i, f in enumerate(fs):
                ref = f"v_{var}[{i}]" if vt else f"v_{var}"
                val = f"({ref} + {f.bias})" if f.bias else (f"int({ref})" if (vt or t) == A.BOOL else ref)
                terms.append(f"({val} << {f.offset})" if f.offset else val)
        if self.pile is not None:
            p = f"v_{self.pile.name}"
            lines.append("    k = 0")
            lines.append(f"    for c in reversed({p}):")
            lines.append(f"        k = (k << {self.card_bits}) | (c + 1)")
            lines.append(f"    k = (k << {self.len_bits}) | len({p})")
            terms.append(f"(k << {self.fixed_bits})")
        lines.append("    return " + " | ".join(terms or ["0"]))
        lines.append("")
        lines.append("def unpack(k):")
        for var, t, fs in self.fields:
            vt = A.map_value_type(t)
            parts = []
            for f in fs:
                raw = f"(k >> {f.offset} & {(1 << f.width) - 1})"
                if (vt or t) == A.BOOL:
                    raw = f"{raw} == 1"
                elif f.bias:
                    raw = f"{raw} - {f.bias}"
                parts.append(raw)
            if vt:
                lines.append(f"    v_{var} = ({', '.join(parts)},)")
            else:
                lines.append(f"    v_{var} = {parts[0]}")
        if self.pile is not None:
            lines.append(f"    r = k >> {self.fixed_bits}")
            lines.append(f"    n = r & {(1 << self.len_bits) - 1}")
            lines.append(f"    r >>= {self.len_bits}")
            lines.append("    pile = []")
            lines.append("    for _ in range(n):")
            lines.append(f"        pile.append((r & {(1 << self.card_bits) - 1}) - 1)")
            lines.append(f"        r >>= {self.card_bits}")
            lines.append(f"    v_{self.pile.name} = tuple(pile)")
        lines.append(f"    return ({', '.join('v_' + x for x in names)},)")
        return "\n".join(lines) + "\n"


def compile_packer(spec: Spec):
    """(pack, unpack) functions for the states of ``spec``."""
    src = Layout(spec).source()
    env = load_generated(src, "<itcp-packing>")
    return env["pack"], env["unpack"]
