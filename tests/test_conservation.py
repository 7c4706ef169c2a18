"""CONSERVATION, TURN_DEFINED and NO_DEADLOCK proved by induction (checks/symbolic/checker.py).

* CONSERVATION is said without counting (``spec.properties.exactly_one_place``):
  Z3 proves it equivalent to the counting form ("the zones' sizes add up to the
  number of cards and together they hold every card") on every well-formed state
  of a tiny table, and every backend (reference evaluator, generated engine,
  packed explorer) says a pile holding a card twice breaks it.
* The candidate invariants added for it are proved (Houdini) at a tiny table.
* CONSERVATION holds with an inductive proof at a tiny table; at the default
  table (slow tests) CONSERVATION, TURN_DEFINED and NO_DEADLOCK do, each naming
  the rules of its minimised cores.
"""
from __future__ import annotations

from functools import cache

import pytest
import z3

from itcp.checks.explicit.explore import packed_successors
from itcp.checks.results import Verdict
from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game
from itcp.model.search.packing import compile_packer
from itcp.model.smt.encoding import SmtSpec
from itcp.spec.ast import op
from itcp.spec.properties import exactly_one_place
from itcp.spec.rules.vocabulary import Vocabulary
from itcp.spec.variants import DEFAULT_TABLE

#: 2 players, 4 cards (a 2, Charity, Desolation, Pride Cycle): every new invariant
#: has something to say and Houdini takes a few seconds
TINY_PRIDE = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1,
              "options": (("pride_cycle", 1),)}

NEW_INVARIANTS = ("TURN_SET", "RESUME_SET", "PRIDE_ACTOR_GIVES", "PILE_SET_UNLESS_TAKEN",
                  "PILE_SET_IN_EFFECTS", "OWED_AT_MOST_ONE", "DRAWING_OWES",
                  "NOTHING_TAKEN_WHILE_DRAWING", "DISCARDER_HOLDS_A_CARD", "ACTOR_SET")

#: Houdini's fixpoint over the light candidates at the default table (clarified);
#: starting from them keeps the proofs below fast
DEFAULT_INVARIANTS = (
    "ACTOR_IN_RING", "ACTOR_IS_TURN_DRAWING", "ACTOR_NOT_PASSER", "ACTOR_SEATED", "ACTOR_SET",
    "ASIDE_NOT_OWN", "AT_MOST_ONE_PASSER", "CONST_ASIDE", "CONST_DEALER", "CONST_DIR",
    "CONST_DUTY", "CONST_DUTY_ON", "CONST_HAND_OF", "CONST_PARTNER", "CONST_RACING",
    "DEAL_IS_INITIAL", "DECK_ACTOR_IN_RING", "DECK_NONEMPTY_WHEN_DRAWING", "DIR_UNIT",
    "DISCARDER_HOLDS_A_CARD", "DRAWING_OWES", "DRAW_ACTOR_NOT_PASSER", "DUTY_NOT_ON_PASSER",
    "FIRST_PASSER_IFF_PASSERS", "FIRST_PASSER_IN_PASSERS", "GIFTS_ONLY_IN_PRIDE",
    "GIFT_IN_GIVER_HAND", "GIFT_ONLY_FROM_GIVEN", "HAND_OF_ROOT", "HAND_OF_SEAT",
    "LIVE_UNTIL_OVER", "NEVER_RACE",
    "NEVER_REVEAL", "NEVER_SECRET", "NOTHING_TAKEN_WHILE_DRAWING", "NOT_DEALING",
    "NOT_OWN_MEANS_ASIDE", "OVER_HAS_REASON", "OWED_AT_MOST_ONE", "PASSERS_IN_RING",
    "PASSERS_NOT_ASIDE", "PASSERS_OWN_HAND", "PASSER_HAND_EXCLUSIVE", "PASSER_NO_GIFT",
    "PHASE_DECLARED", "PILE_NONEMPTY_IN_PLAY", "PILE_SET_IN_EFFECTS", "PILE_SET_UNLESS_TAKEN",
    "PRIDE_ACTOR_GIVES", "PRIDE_LEFT_NOT_PASSERS", "PRIDE_LEFT_ONLY_IN_PRIDE", "RESUME_SET",
    "SOMEONE_SEATED", "TURN_NOT_PASSER_MIDTURN", "TURN_SET")


@cache
def game(table: tuple) -> Game:
    return Game.from_variant(load_with("clarified", dict(table)))


def default_game() -> Game:
    return game(tuple(DEFAULT_TABLE.items()))


def counting_form(t: Vocabulary):
    """CONSERVATION as it was first written: the zones' sizes add up to the number
    of cards (the pile counted by its length) and together they hold every card."""
    zones = t.deck | op("pile_cards", t.pile)
    count = t.deck.count() + op("pile_len", t.pile)
    for p in range(t.n):
        P = t.player_const(p)
        zones = zones | t.hands[P]
        count = count + t.hands[P].count()
    return zones.eq(t.ALL) & count.eq(t.cfg.n_cards)


def test_exactly_one_place_is_the_counting_form():
    g = game(tuple(TINY_PRIDE.items()))
    smt = SmtSpec(g.spec)
    t = Vocabulary(g.spec.config)
    s = smt.state("s")
    new = smt.formula(exactly_one_place(t), s)
    old = smt.formula(counting_form(t), s)
    solver = z3.Solver()
    solver.add(*smt.wf(s))
    solver.add(new != old)
    assert solver.check() == z3.unsat  # equivalent on every well-formed state


def _dealt_with_duplicate(g: Game):
    """A dealt state, and the same state with the pile's top card also in a hand."""
    s = next(iter(g.initial_states()))
    names = g.spec.variables
    i_pile = [v.name for v in names].index("pile")
    i_hands = [v.name for v in names].index("hands")
    top = s[i_pile][-1]
    hands = list(s[i_hands])
    hands[0] |= 1 << top
    bad = list(s)
    bad[i_hands] = tuple(hands)
    pile_twice = list(s)
    pile_twice[i_pile] = s[i_pile] + (top,)
    return s, tuple(bad), tuple(pile_twice)


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_a_card_in_two_places_breaks_conservation(backend):
    g0 = default_game()
    g = Game(g0.spec, backend)
    good, in_hand_too, pile_twice = _dealt_with_duplicate(g)
    assert g.check_property("CONSERVATION", good)
    assert not g.check_property("CONSERVATION", in_hand_too)
    assert not g.check_property("CONSERVATION", pile_twice)


def test_packed_explorer_sees_a_pile_holding_a_card_twice():
    g = default_game()
    mod = packed_successors(g)
    pack, _ = compile_packer(g.spec)
    good, _, pile_twice = _dealt_with_duplicate(g)
    assert mod.prop_CONSERVATION(pack(good))
    assert not mod.prop_CONSERVATION(pack(pile_twice))


def test_new_invariants_are_proved_at_a_tiny_table():
    ch = SymbolicChecker(game(tuple(TINY_PRIDE.items())), depth=0)
    ind = ch.inductor
    ind.houdini(list(ind.pool))  # the pile ones rest on CONSERVATION (a card in one place)
    missing = [n for n in NEW_INVARIANTS if n not in ind.proven]
    assert not missing, {n: ind.dropped.get(n) for n in missing}


def _proved(pid: str, g=None):
    g = g or default_game()
    ch = SymbolicChecker(g, depth=1, candidate_names=set(DEFAULT_INVARIANTS))
    v = ch.check(pid)
    assert v.verdict is Verdict.HOLDS, v.evidence
    ev = v.evidence.as_json()
    assert ev["kind"] == "inductive"
    rule_ids = {r.id for r in g.spec.rules}
    assert ev["rules"] and set(ev["rules"]) <= rule_ids
    return ev


def test_conservation_holds_inductively_at_a_tiny_table():
    ev = _proved("CONSERVATION", game(tuple(TINY_PRIDE.items())))
    assert {"play.discard", "play.draw_pile"} <= set(ev["rules"])


@pytest.mark.slow
def test_conservation_holds_inductively_at_the_default_table():
    ev = _proved("CONSERVATION")
    # the moves that carry a card from one place to another are in the core
    assert {"play.discard", "play.draw_pile", "play.deck_card"} <= set(ev["rules"])


@pytest.mark.slow
def test_turn_defined_holds_inductively_at_the_default_table():
    ev = _proved("TURN_DEFINED")
    assert "turn.advance" in ev["rules"]
    assert {"TURN_SET", "RESUME_SET"} & set(ev["invariants"])


@pytest.mark.slow
def test_no_deadlock_holds_inductively_at_the_default_table():
    g = default_game()
    v = SymbolicChecker(g, depth=1, candidate_names=set(DEFAULT_INVARIANTS) | {
        "CONSERVATION", "ZERO_STOPS", "TURN_DEFINED", "NO_ZERO_MID_ROUND"}).check("NO_DEADLOCK")
    assert v.verdict is Verdict.HOLDS, v.evidence
    ev = v.evidence.as_json()
    assert ev["kind"] == "inductive" and ev["rules"]
    # the candidate stuck state (drawing, deck and pile empty) is excluded by the pile
    # holding a card at the start of a turn
    assert "PILE_SET_UNLESS_TAKEN" in ev["invariants"]
