"""The expression AST: validated, immutable, printable nodes that know where they were made."""
from __future__ import annotations

import dataclasses
import sys

import pytest

from itcp.spec import ast as A
from itcp.spec.ast import (
    BOOL,
    CARD,
    CARDS,
    INT,
    OPS,
    PILE,
    PLAYER,
    PLAYERS,
    Bound,
    Call,
    Const,
    Ite,
    Let,
    Op,
    Param,
    Primed,
    Quant,
    Var,
    lift,
    map_of,
    op,
)
from itcp.spec.errors import SpecError
from itcp.spec.lang import ForAll, If, LetIn, Sum, cards, num, players

HERE = __file__


def line_of(marker: str) -> int:
    """The line of this file holding ``marker`` (so tests need no hard-coded numbers)."""
    with open(HERE, encoding="utf-8") as f:
        for i, text in enumerate(f, 1):
            if marker in text and "line_of(" not in text:
                return i
    raise AssertionError(marker)


# -- construction validates types -----------------------------------------------

@pytest.mark.parametrize("build", [
    lambda: op("add", Const(True, BOOL), Const(1, INT)),
    lambda: op("add", Const(1, INT)),
    lambda: op("and", Const(1, INT), Const(True, BOOL)),
    lambda: op("and"),
    lambda: op("not", Const(1, INT)),
    lambda: op("eq", Const(1, INT), Const(1, CARD)),
    lambda: op("lt", Const(1, PLAYER), Const(2, INT)),
    lambda: op("union", Const(1, CARDS), Const(1, PLAYERS)),
    lambda: op("union", Const(1, INT), Const(1, INT)),
    lambda: op("member", Const(1, CARD), Const(1, PLAYERS)),
    lambda: op("with", Const(1, CARDS), Const(1, PLAYER)),
    lambda: op("count", Const(1, INT)),
    lambda: op("tsum", Const(1, CARDS), Const(1, INT)),
    lambda: op("top", Const(1, CARDS)),
    lambda: op("get", Const((0, 0), map_of(INT)), Const(0, CARD)),
    lambda: op("get", Const(0, CARDS), Const(0, PLAYER)),
    lambda: op("put", Const((0, 0), map_of(INT)), Const(0, PLAYER), Const(True, BOOL)),
    lambda: op("frobnicate", Const(1, INT)),
    lambda: op("add", Const(1, INT), 2),
], ids=lambda f: "")
def test_op_rejects_ill_typed_arguments(build):
    with pytest.raises(SpecError):
        build()


def test_op_computes_result_types():
    assert op("add", num(1), num(2)).type == INT
    assert op("union", cards(1), cards(2)).type == CARDS
    assert op("union", players(1), players(2)).type == PLAYERS
    assert op("get", Const((0, 1), map_of(CARDS)), Const(0, PLAYER)).type == CARDS
    assert op("put", Const((-1, -1), map_of(CARD)), Const(0, PLAYER), Const(3, CARD)).type \
        == map_of(CARD)
    assert op("attr", Const(0, CARD), Const((5, 0), "cardmap")).type == INT
    assert op("and", Const(True, BOOL), Const(False, BOOL), Const(True, BOOL)).type == BOOL


@pytest.mark.parametrize("build", [
    lambda: Const(1, BOOL),
    lambda: Const(True, INT),
    lambda: Const("x", CARDS),
    lambda: Const([1], PILE),
    lambda: Const([1], "cardmap"),
    lambda: Ite(num(1), num(1), num(2)),
    lambda: Ite(Const(True, BOOL), num(1), Const(True, BOOL)),
    lambda: Let(Bound("v", INT), Const(True, BOOL), num(1)),
    lambda: Quant("forall", Bound("x", CARD), num(3), Const(True, BOOL)),
    lambda: Quant("forall", Bound("x", PLAYER), cards(3), Const(True, BOOL)),
    lambda: Quant("exists", Bound("x", CARD), cards(3), num(1)),
    lambda: Quant("sum", Bound("x", CARD), cards(3), Const(True, BOOL)),
    lambda: Quant("mapof", Bound("x", CARD), cards(3), num(1)),
    lambda: Quant("most", Bound("x", CARD), cards(3), Const(True, BOOL)),
    lambda: lift("seven", INT),
], ids=lambda f: "")
def test_other_nodes_reject_ill_typed_parts(build):
    with pytest.raises(SpecError):
        build()


def test_sugar_is_type_directed():
    s, t = Var("s", CARDS), Var("t", CARDS)
    assert (s & t).op == "inter" and (s | t).op == "union" and (s - t).op == "diff"
    a, b = Var("a", BOOL), Var("b", BOOL)
    assert (a & b).op == "and" and (a | b).op == "or" and (~a).op == "not"
    x = Var("x", INT)
    assert (x - 1).op == "sub" and (x + 1).op == "add"
    assert (x > 1).sexpr() == "(lt 1 x)" and (x >= 1).sexpr() == "(le 1 x)"
    assert s.plus(3).sexpr() == "(with s 3)" and s.plus(3).args[1].type == CARD
    assert Var("ps", PLAYERS).minus(0).args[1].type == PLAYER
    m = Var("m", map_of(INT))
    assert m[2].type == INT and m.put(1, 5).type == map_of(INT)
    assert x.ne(3).sexpr() == "(not (eq x 3))"
    with pytest.raises(SpecError):
        s.plus(Const(True, BOOL))


# -- no Python truth values --------------------------------------------------------

def test_comparing_a_node_with_a_python_value_names_eq():
    x = Var("x", INT)
    with pytest.raises(SpecError, match=r"\.eq\(2\)"):
        _ = x == 2
    with pytest.raises(SpecError, match="eq"):
        _ = x != 2
    assert Var("x", INT) == x and not (Var("y", INT) == x)  # nodes: structural


def test_bool_of_a_node_raises():
    x = Var("x", INT)
    with pytest.raises(SpecError, match="truth value"):
        bool(x < 3)
    with pytest.raises(SpecError):
        if x.eq(1):  # the mistake this guards against
            pass
    with pytest.raises(SpecError):
        _ = (x < 3) and (x > 1)
    with pytest.raises(SpecError):
        bool(Const(True, BOOL))


# -- immutability, equality, hashing -----------------------------------------------

def test_nodes_are_frozen_and_structural():
    a = op("add", num(1), Var("x", INT))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.op = "sub"
    # (CPython's frozen+slots dataclasses raise TypeError for an unknown attribute)
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        a.extra = 1
    b = op("add", num(1), Var("x", INT))
    assert a == b and hash(a) == hash(b)  # src_loc does not take part
    assert a.src_loc != b.src_loc
    assert a != op("add", Var("x", INT), num(1))
    assert Const(1, INT) != Const(1, PLAYER)
    assert Const(1, INT) != Const(True, BOOL)
    assert len({a, b, op("sub", num(1), Var("x", INT))}) == 2


# -- printing ------------------------------------------------------------------------

@pytest.mark.parametrize("node, text", [
    (op("add", num(1), num(2)), "(add 1 2)"),
    (op("and", Var("a", BOOL), Const(False, BOOL)), "(and a false)"),
    (Primed("hands", map_of(CARDS)), "hands'"),
    (Param("c", CARD), "$c"),
    (cards(0b1010), "#cards{1,3}"),
    (players(0), "#players{}"),
    (Const((1, 2), "cardmap"), "#cardmap[2]"),
    (Ite(Var("b", BOOL), num(1), num(-1)), "(if b 1 -1)"),
    (Let(Bound("v", INT), num(2), op("mul", Bound("v", INT), Bound("v", INT))),
     "(let (v 2) (mul v v))"),
    (Quant("sum", Bound("x", CARD), cards(3), op("attr", Bound("x", CARD),
                                                 Const((4, 5, 0), "cardmap"))),
     "(sum (x #cards{0,1}) (attr x #cardmap[3]))"),
    (Call("score", (Var("h", CARDS), Const(0, PLAYER)), INT), "(score h 0)"),
    (op("top", Const((), PILE)), "(top ())"),
])
def test_sexpr(node, text):
    assert node.sexpr() == text
    assert repr(node) == text


# -- source locations ----------------------------------------------------------------

def test_src_loc_points_at_the_line_that_built_the_node():
    direct = Const(1, INT)  # LOC-direct
    via_sugar = Var("x", INT) + 1  # LOC-sugar
    via_builder = num(7)  # LOC-builder
    via_if = If(Var("b", BOOL), num(1), num(2))  # LOC-if
    via_quant = ForAll(players(3), lambda p: p.eq(0))  # LOC-quant
    assert direct.src_loc == (HERE, line_of("LOC-direct"))
    assert via_sugar.src_loc == (HERE, line_of("LOC-sugar"))
    assert via_builder.src_loc == (HERE, line_of("LOC-builder"))
    assert via_if.src_loc == (HERE, line_of("LOC-if"))
    assert via_quant.src_loc == (HERE, line_of("LOC-quant"))
    assert via_quant.body.src_loc == (HERE, line_of("LOC-quant"))


def test_src_loc_of_rulebook_rules_points_into_the_rules():
    from itcp.spec.config import Config
    from itcp.spec.lang import Guard
    from itcp.spec.rules import build_ruleset
    rs = build_ruleset(Config(players=2, suits=1, ranks=(2, 4), hand=1))
    say = next(r for r in rs.rules if r.id == "pass.say")
    guard = next(f for f in say.fragments if isinstance(f, Guard))
    assert guard.expr.src_loc[0].endswith("passing.py")


def test_rebuild_and_substitute_keep_src_loc():
    x = Bound("x", INT)
    e = op("add", x, num(1))  # LOC-subst
    e2 = A.substitute(e, {"x": num(5)})
    assert e2.sexpr() == "(add 5 1)"
    assert e2.src_loc == e.src_loc == (HERE, line_of("LOC-subst"))


# -- traversal ----------------------------------------------------------------------

def test_walk_is_preorder_and_covers_every_node_kind():
    v = Bound("v", INT)
    q = Bound("q", CARD)
    total = Quant("sum", q, Param("s", CARDS), op("attr", q, Const((1, 0), "cardmap")))
    e = Let(v, num(1), Ite(Var("b", BOOL), total, Call("f", (v,), INT)))
    seen = [n.sexpr() for n in A.walk(e)]
    assert seen[0] == e.sexpr()
    assert seen[1:4] == ["1", e.body.sexpr(), "b"]
    kinds = {type(n).__name__ for n in A.walk(e)}
    assert kinds == {"Let", "Const", "Ite", "Var", "Quant", "Param", "Op", "Bound", "Call"}
    assert seen[4:] == ["(sum (q $s) (attr q #cardmap[2]))", "$s", "(attr q #cardmap[2])", "q",
                        "#cardmap[2]", "(f v)", "v"]


def test_walk_handles_deep_trees_without_recursion():
    e = num(0)
    for _ in range(sys.getrecursionlimit() * 2):
        e = Op("add", (e, Const(1, INT)), src_loc=("x", 0))
    assert sum(1 for _ in A.walk(e)) == 1 + 2 * sys.getrecursionlimit() * 2


def test_substitute_replaces_bound_and_param_by_name():
    x, p = Bound("x", INT), Param("p", INT)
    e = op("add", op("mul", x, p), Var("x", INT))
    out = A.substitute(e, {"x": num(2), "p": num(3)})
    assert out.sexpr() == "(add (mul 2 3) x)"  # the state variable x is not a Bound
    assert A.substitute(e, {"y": num(1)}) is e  # nothing to replace: the same object
    q = ForAll(players(3), lambda pl: pl.eq(Param("who", PLAYER)))
    assert "0" in A.substitute(q, {"who": Const(0, PLAYER)}).sexpr()


def test_children_and_rebuild_round_trip():
    v = Bound("v", INT)
    nodes = [
        op("add", num(1), num(2)),
        Ite(Const(True, BOOL), num(1), num(2)),
        Let(v, num(1), op("add", v, v)),
        Quant("exists", Bound("c", CARD), cards(3), Const(True, BOOL)),
        Call("f", (num(1),), INT),
        Var("x", INT),
    ]
    for n in nodes:
        assert A.rebuild(n, A.children(n)) == n


# -- the operator table -------------------------------------------------------------

def test_every_operator_is_documented_and_typed():
    for name, sig in OPS.items():
        assert sig.doc, name
        assert isinstance(sig.args, list) and sig.result
    assert {"and", "or", "not", "eq", "member", "next_in", "top", "get", "put"} <= set(OPS)


def test_quantifier_types():
    dom = cards(0b111)
    assert Sum(dom, lambda c: op("attr", c, Const((1, 2, 3, 0), "cardmap"))).type == INT
    assert Quant("setof", Bound("c", CARD), dom, Const(True, BOOL)).type == CARDS
    m = Quant("mapof", Bound("p", PLAYER), players(3), cards(0))
    assert m.type == map_of(CARDS)
    assert LetIn(num(2), lambda v: v + v).type == INT
