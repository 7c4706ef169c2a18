"""The explorer's state keys: only what distinguishes one game position.

A stored state is a tuple of 63-bit words (one Python int to the rest of the
program: word j is bits 63j..63j+62), holding a field for every variable the
reduction (``liveness.py``) keeps: a variable constant in every stored state
has no field at all, and a variable dead at a state's phase holds its
canonical value there.  A card set is one bit per card; a seat or a card its
number plus one; an int variable the bits its reachable values (or declared
bounds) need; the discard pile its length and its cards bottom first, each
plus one (the encoding ``model/search/packing.py`` uses).  No field narrower than a
word straddles two words, so the batch successor code (``vectorized.py``) reads a field with one
shift and mask of one array; the *dispatch* fields (``phase`` and the small
scalars after it: whose turn, who acts) sit at the bottom of word 0.

``pack(s)`` gives a state tuple's key (dead variables reset), ``unpack(k)``
the state tuple a key stands for (constants and canonical values filled in),
and ``key_of`` the key with symmetry reduction (the least key over the suit
and copy renamings, ``symmetry.py``'s renamings applied to these fields).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from itcp.spec import ast as A
from itcp.spec.lang import Spec

from ..analysis.liveness import Reduction, no_reduction, reduction
from ..analysis.specialise import reachable_values
from ..analysis.symmetry import KeyOf, card_permutations
from ..engine.loader import load_generated

WORD = 63          # usable bits of a word (the sign bit of an int64 stays clear)
WORD_STRIDE = 63   # word j of a key as one Python int starts at bit 63 * j
DISPATCH_BITS = 12


@dataclass(frozen=True)
class KeyField:
    var: str
    seat: int | None   # the seat of a map variable's field, else None
    word: int
    offset: int
    width: int
    bias: int          # stored value = value + bias
    kind: str          # the value type: bool, int, player, card, cards, players, pile

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1


class KeyLayout:
    """Where each kept variable lives in a key, and what each phase resets."""

    def __init__(self, spec: Spec, red: Reduction, values: dict | None = None):
        self.spec, self.red = spec, red
        cfg = spec.config
        self.n, self.n_cards = cfg.players, cfg.n_cards
        self.card_bits = (self.n_cards + 1).bit_length()
        self.len_bits = (self.n_cards + 1).bit_length()
        values = reachable_values(spec) if values is None else values
        self.types = {v.name: v.type for v in spec.variables}
        self.names = [v.name for v in spec.variables]
        fields: list[tuple] = []  # (var, seat, width, bias, kind), in key order
        for v in spec.variables:
            if v.name in red.constants:
                continue
            vt = A.map_value_type(v.type)
            kind = vt or v.type
            width, bias = self._width(kind, v, values.get(v.name))
            for seat in (range(self.n) if vt else [None]):
                fields.append((v.name, seat, width, bias, kind))
        # the dispatch fields: phase, then the scalars after it while they fit
        dispatch, used = [], 0
        for f in fields:
            if f[1] is not None or f[4] not in (A.INT, A.PLAYER, A.BOOL, A.CARD):
                break
            if used + f[2] > DISPATCH_BITS:
                break
            dispatch.append(f)
            used += f[2]
        if not dispatch or dispatch[0][0] != "phase":
            raise ValueError("the phase must be the first variable of a key")
        rest = [f for f in fields if f not in dispatch]
        placed: list[KeyField] = []
        free = [WORD]  # free bits left in each word
        for f in dispatch:
            placed.append(KeyField(f[0], f[1], 0, WORD - free[0], f[2], f[3], f[4]))
            free[0] -= f[2]
        # the rest first fit, widest first (the pile and the card sets), so
        # narrow fields fill the gaps; the order is fixed by the spec's order
        wide = [f for f in rest if f[2] > WORD]
        for f in sorted((f for f in rest if f[2] <= WORD), key=lambda f: -f[2]):
            w = next((j for j, left in enumerate(free) if left >= f[2]), None)
            if w is None:
                free.append(WORD)
                w = len(free) - 1
            placed.append(KeyField(f[0], f[1], w, WORD - free[w], f[2], f[3], f[4]))
            free[w] -= f[2]
        # a field wider than a word (a long pile) takes whole words of its own,
        # contiguous in the key as one int; only the generic path handles it
        for f in wide:
            placed.append(KeyField(f[0], f[1], len(free), 0, f[2], f[3], f[4]))
            free += [0] * (-(-f[2] // WORD))
        self.fields = sorted(placed, key=lambda f: (f.word, f.offset))
        self.words = len(free)
        self.narrow = not wide
        self.dispatch = [f for f in self.fields if f.word == 0 and (f.var, f.seat, f.width, f.bias,
                                                                     f.kind) in dispatch]
        self.dispatch_mask = 0
        for kf in self.dispatch:
            self.dispatch_mask |= kf.mask << kf.offset
        self.by_var: dict = {}
        for kf in self.fields:
            self.by_var.setdefault(kf.var, []).append(kf)
        self.phase_field = self.by_var["phase"][0]
        assert self.phase_field.offset == 0 and self.phase_field.bias == 0
        # per phase value: the bits a key keeps and the canonical bits it gets
        self.phases = sorted(red.live)
        self.keep: dict = {}   # phase -> per word, the bits kept
        self.canon: dict = {}  # phase -> per word, the canonical values of the reset fields
        for ph in self.phases:
            keep = (1 << (WORD * self.words)) - 1
            canon = 0
            for var in red.dead(ph):
                c = red.canonical[var].value
                for f in self.by_var.get(var, ()):
                    keep &= ~(f.mask << self.at(f))
                    val = c[f.seat] if f.seat is not None else c
                    canon |= self.encode(f, val) << self.at(f)
            self.keep[ph] = self.split(keep)
            self.canon[ph] = self.split(canon)
        self.resets = any(any(k != (1 << WORD) - 1 for k in keep) for keep in self.keep.values())

    def _width(self, kind, v, vals) -> tuple[int, int]:
        n, c = self.n, self.n_cards
        if kind == A.BOOL:
            return 1, 0
        if kind == A.PLAYER:
            return (n + 1).bit_length(), 1
        if kind == A.CARD:
            return (c + 1).bit_length(), 1
        if kind == A.CARDS:
            return c, 0
        if kind == A.PLAYERS:
            return n, 0
        if kind == A.PILE:
            return self.len_bits + c * self.card_bits, 0
        if kind == A.INT:
            lo, hi = v.bounds if v.bounds is not None else (None, None)
            if vals is not None and all(isinstance(x, int) for x in vals) and not A.map_value_type(
                    v.type):
                lo, hi = min(vals), max(vals)
            if lo is None:
                raise ValueError(f"int variable {v.name} needs bounds to be packed")
            return max(1, (hi - lo).bit_length()), -lo
        raise ValueError(kind)

    # -- values of one field ----------------------------------------------------
    def encode(self, f: KeyField, value) -> int:
        if f.kind == A.PILE:
            k = len(value)
            for i, card in enumerate(value):
                k |= (card + 1) << (self.len_bits + self.card_bits * i)
            return k
        return int(value) + f.bias

    def decode(self, f: KeyField, raw: int):
        if f.kind == A.PILE:
            n = raw & ((1 << self.len_bits) - 1)
            cm = (1 << self.card_bits) - 1
            return tuple((raw >> (self.len_bits + self.card_bits * i) & cm) - 1 for i in range(n))
        if f.kind == A.BOOL:
            return raw == 1
        return raw - f.bias

    def at(self, f: KeyField) -> int:
        """The bit position of a field in a key as one Python int."""
        return WORD_STRIDE * f.word + f.offset

    # -- whole keys -------------------------------------------------------------
    def source(self) -> str:
        """``pack(s)`` and ``unpack(k)`` as straight-line code."""
        idx = {name: i for i, name in enumerate(self.names)}
        lines = ["def pack(s):"]
        terms = []
        for f in self.fields:
            ref = f"s[{idx[f.var]}]" + (f"[{f.seat}]" if f.seat is not None else "")
            if f.kind == A.PILE:
                val = f"pile_code({ref})"
            elif f.kind == A.BOOL:
                val = f"int({ref})"
            else:
                val = f"({ref} + {f.bias})" if f.bias else ref
            terms.append(f"{val} << {self.at(f)}" if self.at(f) else val)
        lines.append("    k = " + (" | ".join(terms) or "0"))
        if self.resets:
            lines.append(f"    ph = s[{idx['phase']}]")
            lines.append("    return k & KEEP[ph] | CANON[ph]")
        else:
            lines.append("    return k")
        lines.append("")
        lines.append("def unpack(k):")
        parts: dict[str, dict] = {}
        for f in self.fields:
            raw = f"(k >> {self.at(f)} & {f.mask})"
            if f.kind == A.PILE:
                code = f"pile_of_code({raw})"
            elif f.kind == A.BOOL:
                code = f"{raw} == 1"
            else:
                code = f"{raw} - {f.bias}" if f.bias else raw
            parts.setdefault(f.var, {})[f.seat] = code
        out = []
        for name in self.names:
            if name in self.red.constants:
                out.append(repr(self.red.constants[name].value))
            elif A.map_value_type(self.types[name]):
                seats = parts[name]
                out.append("(" + ", ".join(seats[p] for p in range(self.n)) + ",)")
            else:
                out.append(parts[name][None])
        lines.append("    return (" + ", ".join(out) + ",)")
        return "\n".join(lines) + "\n"

    def compile(self):
        """(pack, unpack) for this layout."""
        env = {"KEEP": {}, "CANON": {}, "pile_code": self.pile_code,
               "pile_of_code": self.pile_of_code}
        for ph in self.phases:
            env["KEEP"][ph] = self.join(self.keep[ph])
            env["CANON"][ph] = self.join(self.canon[ph])
        load_generated(self.source(), "<itcp-search-key>", env)
        return env["pack"], env["unpack"]

    def pile_code(self, pile) -> int:
        k = len(pile)
        for i, c in enumerate(pile):
            k |= (c + 1) << (self.len_bits + self.card_bits * i)
        return k

    def pile_of_code(self, raw: int) -> tuple:
        n = raw & ((1 << self.len_bits) - 1)
        cm = (1 << self.card_bits) - 1
        return tuple((raw >> (self.len_bits + self.card_bits * i) & cm) - 1 for i in range(n))

    def split(self, key: int) -> tuple:
        """The words of a key."""
        m = (1 << WORD) - 1
        return tuple(key >> (WORD_STRIDE * j) & m for j in range(self.words))

    def join(self, words) -> int:
        k = 0
        for j, w in enumerate(words):
            k |= int(w) << (WORD_STRIDE * j)
        return k

    # -- symmetry ---------------------------------------------------------------
    def renamings(self, enabled: bool = True) -> list:
        """The card renamings other than the identity (symmetry reduction)."""
        if not enabled:
            return []
        ident = tuple(range(self.n_cards))
        return [p for p in card_permutations(self.spec.config) if p != ident]

    def renamed(self, key: int, perm) -> int:
        """A key with every card renamed by ``perm``."""
        out = key
        for f in self.fields:
            if f.kind not in (A.CARDS, A.CARD, A.PILE):
                continue
            at = self.at(f)
            raw = key >> at & f.mask
            if f.kind == A.CARDS:
                new = 0
                for c in range(self.n_cards):
                    if raw >> c & 1:
                        new |= 1 << perm[c]
            elif f.kind == A.CARD:
                new = perm[raw - 1] + 1 if raw else 0
            else:
                n = raw & ((1 << self.len_bits) - 1)
                new = n
                cm = (1 << self.card_bits) - 1
                for i in range(n):
                    sh = self.len_bits + self.card_bits * i
                    code = raw >> sh & cm
                    new |= (perm[code - 1] + 1 if code else 0) << sh
            out = out & ~(f.mask << at) | new << at
        return out

    def key_function(self, symmetry: bool = True):
        """``key_of(state)``: the stored key of a state (its canonical form
        under the renamings when ``symmetry``), with ``key_of.orbit(state)``
        the number of distinct keys the renamings give; and the number of
        renamings counted with the identity."""
        pack, _ = self.compile()
        perms = self.renamings(symmetry)
        if not perms:
            return pack, 1

        def least(s):
            k = pack(s)
            return min([k] + [self.renamed(k, p) for p in perms])
        key_of = cast(KeyOf, least)
        key_of.orbit = lambda s: len({pack(s)} | {self.renamed(pack(s), p) for p in perms})
        return key_of, len(perms) + 1


@dataclass
class SearchKeys:
    """The explorer's keys of one game, kept with it (``Game.derived``: the
    analysis they come from reads the whole spec)."""
    #: reduce -> (the reduction, the key layout)
    layouts: dict[bool, tuple[Reduction, KeyLayout]] = field(default_factory=dict)
    #: (symmetry, reduce) -> (``key_of``, renamings counted with the identity)
    key_functions: dict[tuple[bool, bool], tuple[KeyOf, int]] = field(default_factory=dict)


def search_keys(game, symmetry: bool = True, reduce: bool = True):
    """(reduction, layout, key_of, renamings counted with the identity) of the
    explorer's search of ``game`` (kept with the game: ``SearchKeys``).
    ``key_of(state)`` is the key a search stores the state under.
    ``reduce=False``: nothing is forgotten (every reachable state is stored)."""
    kept = game.derived.record(SearchKeys)
    if reduce not in kept.layouts:
        red = reduction(game.spec) if reduce else no_reduction(game.spec)
        kept.layouts[reduce] = (red, KeyLayout(game.spec, red))
    red, layout = kept.layouts[reduce]
    if (symmetry, reduce) not in kept.key_functions:
        kept.key_functions[symmetry, reduce] = layout.key_function(symmetry)
    key_of, n = kept.key_functions[symmetry, reduce]
    return red, layout, key_of, n
