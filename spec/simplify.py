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
from .walk import OperatorTable, Walker, all_but, handles

_TRUE = Const(True, BOOL, src_loc=("<fold>", 0))
_FALSE = Const(False, BOOL, src_loc=("<fold>", 0))
_FOLDABLE_TYPES = {"bool", "int", "player", "card", "cards", "players", "pile"}


def simplify(node: Node, n_players: int, memo: dict | None = None) -> Node:
    """``node`` folded (``memo``: id -> the node and its result, may be shared
    between calls on one spec's trees)."""
    return Simplifier(n_players, {} if memo is None else memo).simp(node)


def _const(x: Node) -> TypeGuard[Const]:
    return isinstance(x, Const)


def _is(x: Node, value) -> bool:
    """``x`` is the constant ``value``."""
    return isinstance(x, Const) and x.value == value


class Simplifier(Walker, OperatorTable):
    """The folding walk: each node's children first, then the node's own rule
    (an operator's, from its case in the operator table)."""

    def __init__(self, n_players: int, memo: dict):
        self.np, self.memo = n_players, memo

    def simp(self, n: Node) -> Node:
        key = id(n)
        hit = self.memo.get(key)
        if hit is not None and hit[0] is n:
            return hit[1]
        out = self.visit(n)
        self.memo[key] = (n, out)
        return out

    def kids(self, n: Node) -> tuple:
        return tuple(self.simp(k) for k in A.children(n))

    @staticmethod
    def rebuilt(n: Node, new: tuple) -> Node:
        """``n`` with the children ``new`` (``n`` itself when none changed)."""
        return n if all(x is y for x, y in zip(new, A.children(n))) else A.rebuild(n, new)

    # -- nodes ---------------------------------------------------------------
    def leaf(self, n: Node) -> Node:
        return n

    on_Const = on_Var = on_Primed = on_Param = on_Bound = leaf

    def on_Call(self, n: A.Call) -> Node:
        return self.rebuilt(n, self.kids(n))

    def on_Op(self, n: Op) -> Node:
        return self.op_cases[n.op](self, n, self.kids(n))

    def on_Ite(self, n: Ite) -> Node:
        new = self.kids(n)
        c, a, b = new
        if _const(c):
            return a if c.value else b
        if a == b:
            return a
        if a.type == BOOL and _const(a) and _const(b):
            return c if a.value else Op("not", (c,), src_loc=n.src_loc)
        return self.rebuilt(n, new)

    def on_Quant(self, n: A.Quant) -> Node:
        new = self.kids(n)
        if n.kind in ("forall", "exists") and _is(new[1], n.kind == "forall"):
            return new[1]  # forall x: true / exists x: false, whatever the domain
        return self.rebuilt(n, new)

    def on_Let(self, n: Let) -> Node:
        new = self.kids(n)
        if _const(new[0]):
            return self.simp(A.substitute(new[1], {n.var.name: new[0]}))
        return self.rebuilt(n, new)

    # -- operators -------------------------------------------------------------
    def folded(self, n: Op, args: tuple, simpler: Node | None = None) -> Node:
        """The constant ``n`` is when every argument is one (by the operator's
        own semantics); else ``simpler`` (what an identity of the operator
        makes of it), else ``n`` on the folded arguments."""
        if all(_const(a) for a in args) and n.type in _FOLDABLE_TYPES:
            return Const(apply_op(n.op, n.type, [a.value for a in args], self.np), n.type,
                         src_loc=n.src_loc)
        return self.rebuilt(n, args) if simpler is None else simpler

    @handles(*all_but("and", "or", "not", "eq", "union", "diff", "with", "without", "member",
                      "inter"))
    def strict(self, n: Op, args: tuple) -> Node:
        return self.folded(n, args)

    def junction(self, n: Op, args: tuple, unit: bool) -> Node:
        """A conjunction (``unit`` True) or disjunction of the folded arguments."""
        flat: list = []
        for a in args:
            if _const(a):
                if a.value != unit:
                    return _FALSE if unit else _TRUE
                continue
            # nested conjunctions are kept whole (not flattened): a shared
            # sub-conjunction is then one node, computed once by the engine
            if a not in flat:
                flat.append(a)
        if not flat:
            return _TRUE if unit else _FALSE
        return flat[0] if len(flat) == 1 else Op(n.op, tuple(flat), src_loc=n.src_loc)

    @handles("and")
    def and_(self, n: Op, args: tuple) -> Node:
        return self.junction(n, args, True)

    @handles("or")
    def or_(self, n: Op, args: tuple) -> Node:
        return self.junction(n, args, False)

    @handles("not")
    def not_(self, n: Op, args: tuple) -> Node:
        a = args[0]
        if _const(a):
            return _FALSE if a.value else _TRUE
        if isinstance(a, Op) and a.op == "not":
            return a.args[0]
        return self.rebuilt(n, args)

    @handles("eq")
    def eq(self, n: Op, args: tuple) -> Node:
        return _TRUE if args[0] == args[1] else self.folded(n, args)

    @handles("union")
    def union(self, n: Op, args: tuple) -> Node:
        return self.folded(n, args, args[1] if _is(args[0], 0) else
                           args[0] if _is(args[1], 0) else None)  # with the empty set

    @handles("diff")
    def diff(self, n: Op, args: tuple) -> Node:
        return self.folded(n, args, args[0] if _is(args[1], 0) else None)  # the empty set

    @handles("with", "without")
    def with_without(self, n: Op, args: tuple) -> Node:
        # NOBODY / NOCARD: the set is unchanged (seat or card 0 is not)
        return self.folded(n, args, args[0] if _is(args[1], -1) else None)

    @handles("member")
    def member(self, n: Op, args: tuple) -> Node:
        # nothing is in the empty set (a card kind absent from this table)
        return self.folded(n, args, _FALSE if _is(args[1], 0) else None)

    @handles("inter")
    def inter(self, n: Op, args: tuple) -> Node:
        zero = any(_is(a, 0) for a in args)
        return self.folded(n, args, Const(0, n.type, src_loc=n.src_loc) if zero else None)
