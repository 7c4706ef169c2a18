"""The rulebook's parts: one module of spec/rules/ per card and per part of the
turn, each declaring its own pieces, collected by the vocabulary.

* every part module is one of ``PARTS``, and a card's rules are written in its
  module (but for the few listed, with why);
* the vocabulary places the parts' declarations as spec/layout.py says, and
  refuses a name declared twice, one without a place, a place nobody fills, a
  phase numbered otherwise and initial values that are not the part's own;
* ``Words.param`` is the one way to read an action's parameter.
"""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from itcp.spec import layout
from itcp.spec.ast import CARD, CARDS, INT, PLAYER, Param
from itcp.spec.config import Config
from itcp.spec.errors import SpecError
from itcp.spec.lang import ActionDecl, Part, Phase, StateVar, num
from itcp.spec.rules import build_ruleset
from itcp.spec.rules.vocabulary import PARTS, VARIABLES, Vocabulary
from itcp.spec.rules.words import Words

RULES_DIR = Path(importlib.import_module("itcp.spec.rules").__file__).parent
#: the modules of spec/rules/ that are no part: what the parts share
SHARED = {"__init__", "flow", "priorities", "words", "vocabulary"}
CARDS_PARTS = ("charity", "desolation", "mercy", "justice", "repentance", "unbelief", "pride",
               "secret")
#: rules about a card written in another part's module, and why
ELSEWHERE = {
    "justice.pass": ("passing", "whether a player under a duty may pass is a rule of Pass"),
    "secret.score": ("scoring", "what a team scores is one part of the score"),
}
CFG = Config(players=3, suits=2, ranks=(2, 4), hand=2, options=(("mercy", 1), ("pride_cycle", 1)))


def test_every_part_module_is_a_part_of_the_rulebook():
    modules = sorted(p.stem for p in RULES_DIR.glob("*.py") if p.stem not in SHARED)
    assert sorted(p.name for p in PARTS) == modules
    for name in modules:
        assert importlib.import_module(f"itcp.spec.rules.{name}").PART in PARTS, name


def test_a_cards_rules_are_written_in_its_module():
    for r in build_ruleset(CFG).rules:
        family = r.id.split(".")[0]
        module = Path(r.src_loc[0]).stem
        point = ".".join(r.id.split(".")[:2])
        if module in CARDS_PARTS:
            assert family == module, (r.id, r.src_loc)
        if family in CARDS_PARTS:
            assert module == ELSEWHERE.get(point, (family,))[0], (r.id, r.src_loc)


def test_pride_cycle_declares_its_own_pieces():
    pride = next(p for p in PARTS if p.name == "pride")
    t = Vocabulary(CFG)
    assert [v.name for v in pride.variables] == ["pride_left", "gifts"]
    assert [s.name for s in pride.signatures] == ["pride_givers", "pride_to"]
    assert [(ph.name, ph.effect) for ph in pride.phases(t)] == [("PRIDE", True)]
    assert [a.name for a in pride.actions(t)] == ["give", "give_nothing"]
    assert [row[0] for row in pride.endings(t)] == ["give", "give_nothing"]


def test_the_vocabulary_places_every_declaration_as_the_layout_says():
    t = Vocabulary(CFG)
    assert tuple(v.name for v in VARIABLES) == layout.VARIABLE_ORDER
    assert t.variables == VARIABLES
    assert tuple(p.name for p in t.phases) == layout.PHASE_NAMES
    assert [p.value for p in t.phases] == list(range(len(layout.PHASE_NAMES)))
    assert tuple(a.name for a in t.actions) == layout.ACTION_ORDER
    assert tuple(t.initial) == layout.VARIABLE_ORDER
    assert t.round_actions == layout.ACTION_ORDER[:-1]  # all but next_round
    assert [p.name for p in t.phases if p.effect] == ["RACE", "PRIDE", "SECRET"]


# -- what the vocabulary refuses -------------------------------------------------------

def _variable(name):
    return StateVar(name, INT, f"the {name}")


def _parts(*extra: Part) -> tuple[Part, ...]:
    return PARTS + extra


def test_a_variable_declared_twice_is_refused():
    with pytest.raises(SpecError, match="state variable 'gifts' is declared by both pride and "
                                        "copy"):
        Words(CFG, _parts(Part("copy", (_variable("gifts"),))))


def test_a_declaration_without_a_place_in_the_layout_is_refused():
    with pytest.raises(SpecError, match="state variable 'wrath' .declared by new. has no place "
                                        "in spec/layout.py: add it at the end of its list"):
        Words(CFG, _parts(Part("new", (_variable("wrath"),))))
    t = Words(CFG, _parts(Part("new", actions=lambda t: (ActionDecl("smite", "DRAW", (), "x"),))))
    with pytest.raises(SpecError, match="action 'smite' .declared by new. has no place"):
        _ = t.actions


def test_a_place_nobody_fills_is_refused():
    with pytest.raises(SpecError, match=r"state variables \['pride_left', 'gifts'\] are in "
                                        "spec/layout.py but no part declares them"):
        Words(CFG, tuple(p for p in PARTS if p.name != "pride"))


def test_a_phase_numbered_otherwise_is_refused():
    pride = next(p for p in PARTS if p.name == "pride")
    parts = tuple(Part("pride", pride.variables, pride.signatures,
                       phases=lambda t: (Phase("PRIDE", 3, t.actor, "x"),),
                       actions=pride.actions, initial=pride.initial)
                  if p is pride else p for p in PARTS)
    with pytest.raises(SpecError, match="phase PRIDE is declared with the number 3; "
                                        "spec/layout.py numbers it 6"):
        _ = Words(CFG, parts).phases


def test_initial_values_are_a_parts_own():
    pride = next(p for p in PARTS if p.name == "pride")
    parts = tuple(Part("pride", pride.variables, pride.signatures, phases=pride.phases,
                       actions=pride.actions, initial=lambda t: {"pride_left": t.NONEP,
                                                                 "turn": num(0)})
                  if p is pride else p for p in PARTS)
    with pytest.raises(SpecError, match=r"part pride gives initial values to \['pride_left', "
                                        r"'turn'\] but declares the variables \['gifts', "
                                        r"'pride_left'\]"):
        _ = Words(CFG, parts).initial


def test_a_signature_declared_twice_is_refused():
    mercy = next(p for p in PARTS if p.name == "mercy")
    with pytest.raises(SpecError, match="definition race_from is declared by both mercy and "
                                        "copy"):
        _ = Words(CFG, _parts(Part("copy", signatures=mercy.signatures[3:4]))).signatures


# -- one way to read an action's parameter ---------------------------------------------

def test_param_reads_an_actions_parameter():
    t = Vocabulary(CFG)
    assert t.param("discard") == Param("c", CARD)
    assert t.param("race") == Param("w", PLAYER)
    assert t.param("deal", "up") == Param("up", CARD)
    assert t.param("deal", "h1") == Param("h1", CARDS)


def test_param_names_what_is_wrong():
    t = Vocabulary(CFG)
    with pytest.raises(SpecError, match=r"no action is declared as 'discrad' \(did you mean "
                                        r"'discard'\?\)"):
        t.param("discrad")
    with pytest.raises(SpecError, match=r"action deal has the parameters \['h0', 'h1', 'h2', "
                                        r"'up'\]: name one"):
        t.param("deal")
    with pytest.raises(SpecError, match=r"action deal has no parameter 'uo' \(did you mean "
                                        r"'up'\?\)"):
        t.param("deal", "uo")
