"""discard.lower: "discard any card from their hand to lower their points".

Under ``constraint`` a discard may not leave the hand's points above what they
were before the turn's first draw (in Mercy's race, above the racer's points
before the discard).  The record is one number, kept only by that reading:
under the literal reading it never changes and the explorer's code drops it."""
from __future__ import annotations

import pytest

from itcp.checks.explicit.explore import explore, state
from itcp.model.analysis.specialise import constant_fields
from itcp.model.engine.engine import Game
from itcp.model.engine.reference import Evaluator
from itcp.spec.ast import CARDS, INT, Call, Const
from itcp.spec.config import Config
from itcp.spec.rules.vocabulary import DISCARD
from itcp.spec.variants import load_variant

CFG = Config(players=2, suits=1, ranks=(2, 3), hand=1, desolation=False,
             options=(("mercy", 1), ("justice", 1)))
CONSTRAINT = {"discard.lower": "constraint", "justice.duty": "play_or_extra"}


def game(**readings):
    r = dict(load_variant("official").readings) | CONSTRAINT
    return Game.make(CFG, r | {k.replace("_", ".", 1): v for k, v in readings.items()})


@pytest.fixture(scope="module")
def constrained():
    g = game(discard_none="skip_discard")
    ex = explore(g, symmetry=False, track_rules=False)
    assert ex.complete
    return g, [state(ex, i) for i in range(len(ex.keys))]


def test_the_record_costs_the_literal_reading_nothing():
    official = load_variant("official")
    literal = Game.make(CFG, dict(official.readings)).spec
    assert constant_fields(literal)["before_draw"] == Const(0, INT)
    assert "before_draw" not in constant_fields(game().spec)


def test_constraint_refuses_exactly_the_discards_that_raise_points(constrained):
    g, states = constrained
    free = game(discard_lower="purpose", discard_none="skip_discard")
    ev = Evaluator(g.spec)
    points = lambda mask: ev.eval(ev.inline(Call("points_of", (
        Const(mask, CARDS), Const(mask, CARDS), Const(0, CARDS)), INT)), {})
    refused = allowed = racing = 0
    for s in states:
        if g.get(s, "phase") != DISCARD:
            continue
        seat = g.get(s, "hand_of")[g.get(s, "actor")]
        hand = g.get(s, "hands")[seat]
        if g.get(s, "racing"):
            limit, racing = points(hand), racing + 1
        else:
            assert g.get(s, "drew") and g.get(s, "before_draw") > 0
            limit = g.get(s, "before_draw") - 1
        mine = {a for a in g.legal_actions(s) if a[0] == "discard"}
        for a in (a for a in free.legal_actions(s) if a[0] == "discard"):
            lowers = points(hand & ~(1 << a[1][0])) <= limit
            assert (a in mine) == lowers, g.describe(s)
            refused += not lowers
            allowed += lowers
    assert refused and allowed and racing


def test_with_no_card_that_meets_it_discard_none_decides(constrained):
    """A Justice duty's extra draw can leave no card that brings the hand back
    down: then the turn ends without a discard (skip_discard), or no move is
    left (stuck, the literal reading of discard.none)."""
    g, states = constrained
    stuck = game(discard_none="stuck")
    skips = [s for s in states if ("skip_discard", ()) in g.legal_actions(s)]
    assert skips
    assert any(not stuck.legal_actions(s) for s in skips)
