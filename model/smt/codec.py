"""Engine states <-> Z3 terms: fixing a symbolic state to a concrete one, flat
bit-vector forms, and reading states and parameters back from a model.

Part of the SMT backend (``model/smt/encoding.py`` assembles it).  Apart because it is
the one place that knows the engine's state tuple (the spec's variable order)
and the order of an action's parameters, and nothing of expressions.

Flat forms: a whole state (or parameter tuple) as one bit-vector, so a
conformance query fixes a state with one equation and reads a successor with
one model evaluation.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import z3

from itcp.spec import ast as A
from itcp.spec.ast import BOOL, CARD, CARDS, INT, PILE, PLAYER, PLAYERS
from itcp.spec.errors import SpecError

from .values import ELEM_WIDTH, Values, mk_if


class StateCodec:
    """The state tuple of ``var_names`` (types ``var_types``) and each action's
    parameter tuple (``params``: action -> its parameter declarations)."""

    def __init__(self, values: Values, var_names: Sequence[str], var_types: Mapping[str, str],
                 params: Mapping[str, Sequence[Any]]):
        self.values = values
        self.var_names, self.var_types, self.params = var_names, var_types, params
        self.n, self.n_cards = values.n, values.n_cards

    def fix(self, s: dict, state_tuple: Sequence[Any]) -> list:
        """Constraints: symbolic state ``s`` equals the engine state ``state_tuple``."""
        v = self.values
        return [v.eq(s[name], v.const(x, self.var_types[name]), self.var_types[name])
                for name, x in zip(self.var_names, state_tuple)]

    def _width(self, t: str) -> int:
        if t == BOOL:
            return 1
        if t == INT:
            return self.values.iw
        if t in (PLAYER, CARD):
            return ELEM_WIDTH
        if t in (CARDS, PLAYERS):
            return self.values.set_width(t)
        raise SpecError(f"no flat form for type {t}")

    def _atoms(self, x: Any, t: str, out: list) -> None:
        vt = A.map_value_type(t)
        bv = self.values.bv
        if vt is not None:
            for y in x:
                self._atoms(y, vt, out)
        elif t == PILE:
            out.append(x.length)
            out.extend(x.slots)
            out.append(x.cards)
            out.append(mk_if(x.distinct, bv(1, 1), bv(0, 1)))
            out.append(x.top)
        elif t == BOOL:
            out.append(mk_if(x, bv(1, 1), bv(0, 1)))
        else:
            out.append(x)

    def _pack(self, value: Any, t: str, out: list) -> None:
        vt = A.map_value_type(t)
        if vt is not None:
            for y in value:
                self._pack(y, vt, out)
        elif t == PILE:
            value = tuple(value)
            out.append((len(value), ELEM_WIDTH))
            out.extend((value[i] if i < len(value) else -1, ELEM_WIDTH)
                       for i in range(self.n_cards))
            out.append((self.values.card_set(value), self.n_cards))
            out.append((int(self.values.distinct(value)), 1))
            out.append((value[-1] if value else -1, ELEM_WIDTH))
        else:
            out.append((int(value), self._width(t)))

    def _unpack(self, bits: int, t: str, pos: list[int]) -> Any:
        vt = A.map_value_type(t)
        if vt is not None:
            return tuple(self._unpack(bits, vt, pos) for _ in range(self.n))
        if t == PILE:
            k = self._unpack(bits, PLAYER, pos)
            slots = [self._unpack(bits, CARD, pos) for _ in range(self.n_cards)]
            # the set of cards, ``distinct`` and the top card: the slots say all three
            pos[0] += self.n_cards + 1 + ELEM_WIDTH
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
    def _concat(atoms: list) -> Any:
        return atoms[0] if len(atoms) == 1 else z3.Concat(*reversed(atoms))

    @staticmethod
    def _join(parts: list[tuple[int, int]]) -> int:
        out, off = 0, 0
        for v, w in parts:
            out |= (v & ((1 << w) - 1)) << off
            off += w
        return out

    def flat_state(self, s: dict) -> Any:
        """The whole symbolic state as one bit-vector (first variable lowest)."""
        atoms: list = []
        for v in self.var_names:
            self._atoms(s[v], self.var_types[v], atoms)
        return self._concat(atoms)

    def pack_state(self, state_tuple: Sequence[Any]) -> int:
        parts: list = []
        for v, x in zip(self.var_names, state_tuple):
            self._pack(x, self.var_types[v], parts)
        return self._join(parts)

    def unpack_state(self, bits: int) -> tuple:
        pos = [0]
        return tuple(self._unpack(bits, self.var_types[v], pos) for v in self.var_names)

    def flat_params(self, action: str, params: dict) -> Any:
        """An action's parameters as one bit-vector (None if it has none)."""
        atoms: list = []
        for p in self.params[action]:
            self._atoms(params[p.name], p.type, atoms)
        return self._concat(atoms) if atoms else None

    def unpack_params(self, action: str, bits: int) -> tuple:
        pos = [0]
        return tuple(self._unpack(bits, p.type, pos) for p in self.params[action])

    def decode_value(self, model: z3.ModelRef, x: Any, t: str) -> Any:
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

    def decode_params(self, model: z3.ModelRef, action: str, params: dict) -> tuple:
        return tuple(self.decode_value(model, params[p.name], p.type)
                     for p in self.params[action])
