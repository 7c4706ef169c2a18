"""Partial evaluation of the spec (model/analysis/specialise.py) is sound.

The fields it calls constant, and the value sets it finds, must cover every
state a full search reaches; its folding must agree with evaluation.
"""
from __future__ import annotations

import pytest

from itcp.checks.explicit.explore import explore
from itcp.model.analysis.specialise import constant_fields, reachable_values, specialise
from itcp.model.engine.engine import Game
from itcp.spec import ast as A
from itcp.spec.ast import Const, Op, Var
from itcp.spec.config import Config
from itcp.spec.simplify import simplify
from itcp.spec.variants import load_variant

TABLES = [
    ("official", Config(players=2, suits=1, ranks=(2, 3), hand=1)),
    ("official", Config(players=2, suits=1, ranks=(2, 2), hand=1,
                        options=(("mercy", 1), ("justice", 1), ("repentance", 1)), charity=False)),
    ("published", Config(players=2, suits=1, ranks=(2, 2), hand=1,
                         options=(("unbelief", 1), ("pride_cycle", 1), ("secret_combination", 1)),
                         charity=False)),
]


@pytest.mark.parametrize("variant,cfg", TABLES, ids=["plain", "mercy-justice-rep", "pride-secret"])
def test_reachable_values_cover_every_reachable_state(variant, cfg):
    game = Game.make(cfg, dict(load_variant(variant).readings))
    values = reachable_values(game.spec)
    ex = explore(game, symmetry=False, track_rules=False, fast=False)
    assert ex.complete
    names = [v.name for v in game.spec.variables]
    seen = {name: set() for name in names}
    for k in ex.keys:
        for name, x in zip(names, ex.unpack(k)):
            seen[name].add(x)
    for name in names:
        if values[name] is not None:
            assert seen[name] <= values[name], name
    for name, c in constant_fields(game.spec, values).items():
        assert seen[name] == {c.value}, name


def test_no_option_cards_make_their_bookkeeping_constant():
    game = Game.make(Config(players=2, suits=2, ranks=(2, 4), hand=3),
                     dict(load_variant("official").readings))
    consts = constant_fields(game.spec)
    assert {"gifts", "hand_of", "aside", "racing", "duty"} <= set(consts)
    assert consts["hand_of"].value == (0, 1)
    assert "hands" not in consts and "phase" not in consts


def test_seat_zero_is_an_element_not_nobody():
    s = Var("passers", A.PLAYERS)
    for o in ("with", "without"):
        node = Op(o, (s, Const(0, A.PLAYER)))
        assert simplify(node, 2) == node  # seat 0 is added / removed
        assert simplify(Op(o, (s, Const(-1, A.PLAYER))), 2) == s  # nobody: no change


def test_map_reads_fold():
    spec = Game.make(Config(players=2, suits=1, ranks=(2, 3), hand=1)).spec
    hands = Var("hands", "map[cards]")
    x = Var("deck", A.CARDS)
    put = Op("put", (hands, Const(1, A.PLAYER), x))
    assert specialise(Op("get", (put, Const(1, A.PLAYER))), {}, spec) == x
    assert specialise(Op("get", (put, Const(0, A.PLAYER))), {}, spec) == \
        Op("get", (hands, Const(0, A.PLAYER)))
    ident = Op("get", (Var("hand_of", "map[player]"), Var("actor", A.PLAYER)))
    assert specialise(ident, {"hand_of": Const((0, 1), "map[player]")}, spec) == \
        Var("actor", A.PLAYER)
