"""Normalise an inlined expression: fold constants, prune dead branches.

After elaboration every reading is a constant (``race_effects()`` is just
``false`` under one reading), so much of an assembled action is decidable at
compile time.  Folding here, once, means both backends read the same smaller
core.  Folding uses the operators' own semantics (``semantics.apply_op``), so
it cannot disagree with evaluation.
"""
from __future__ import annotations

from typing import TypeGuard

from . import ast as A
from .ast import BOOL, Const, Ite, Let, Node, Op
from .semantics import apply_op

_TRUE = Const(True, BOOL, src_loc=("<fold>", 0))
_FALSE = Const(False, BOOL, src_loc=("<fold>", 0))
_FOLDABLE_TYPES = {"bool", "int", "player", "card", "cards", "players", "pile"}


def simplify(node: Node, n_players: int, memo: dict | None = None) -> Node:
    memo = {} if memo is None else memo
    return _simp(node, n_players, memo)


def _const(x: Node) -> TypeGuard[Const]:
    return isinstance(x, Const)


def _simp(n: Node, np: int, memo: dict) -> Node:
    key = id(n)
    hit = memo.get(key)
    if hit is not None and hit[0] is n:
        return hit[1]
    out = _simp1(n, np, memo)
    memo[key] = (n, out)
    return out


def _simp1(n: Node, np: int, memo) -> Node:
    kids = A.children(n)
    if not kids:
        return n
    new = tuple(_simp(k, np, memo) for k in kids)
    if isinstance(n, Op):
        return _op(n, new, np)
    if isinstance(n, Ite):
        c, a, b = new
        if _const(c):
            return a if c.value else b
        if a == b:
            return a
        if a.type == BOOL and _const(a) and _const(b):
            return c if a.value else Op("not", (c,), src_loc=n.src_loc)
    if isinstance(n, A.Quant) and n.kind in ("forall", "exists") and _const(new[1]) \
            and new[1].value == (n.kind == "forall"):
        return new[1]  # forall x: true / exists x: false, whatever the domain
    if isinstance(n, Let) and _const(new[0]):
        return _simp(A.substitute(new[1], {n.var.name: new[0]}), np, memo)
    if all(x is y for x, y in zip(new, kids)):
        return n
    return A.rebuild(n, new)


def _op(n: Op, args: tuple, np: int) -> Node:
    o = n.op
    if o in ("and", "or"):
        unit, zero = (True, False) if o == "and" else (False, True)
        flat = []
        for a in args:
            if _const(a):
                if a.value == zero:
                    return _TRUE if zero else _FALSE
                continue
            # nested conjunctions are kept whole (not flattened): a shared
            # sub-conjunction is then one node, computed once by the engine
            if a not in flat:
                flat.append(a)
        if not flat:
            return _TRUE if unit else _FALSE
        return flat[0] if len(flat) == 1 else Op(o, tuple(flat), src_loc=n.src_loc)
    if o == "not":
        a = args[0]
        if _const(a):
            return _FALSE if a.value else _TRUE
        if isinstance(a, Op) and a.op == "not":
            return a.args[0]
    if o == "eq" and args[0] == args[1]:
        return _TRUE
    if all(_const(a) for a in args) and n.type in _FOLDABLE_TYPES:
        value = apply_op(o, n.type, [a.value for a in args], np)
        return Const(value, n.type, src_loc=n.src_loc)
    if o == "union" and _const(args[0]) and args[0].value == 0:
        return args[1]
    if o in ("union", "diff") and _const(args[1]) and args[1].value == 0:
        return args[0]  # the empty set
    if o in ("with", "without") and _const(args[1]) and args[1].value == -1:
        return args[0]  # NOBODY / NOCARD: the set is unchanged (seat or card 0 is not)
    if o == "member" and _const(args[1]) and args[1].value == 0:
        return _FALSE  # nothing is in the empty set (a card kind absent from this table)
    if o == "inter" and any(_const(a) and a.value == 0 for a in args):
        return Const(0, n.type, src_loc=n.src_loc)
    if all(x is y for x, y in zip(args, n.args)):
        return n
    return Op(o, args, src_loc=n.src_loc)
