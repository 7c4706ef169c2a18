"""What backends derive from a spec or a game is kept beside it, one typed
record per kind (``spec/derived.py``), with ``Spec``'s sharing rules: a
question's spec (more properties) shares its variant's, any other change
starts afresh."""
from __future__ import annotations

import dataclasses

from itcp.model.analysis.liveness import LivenessResults, reduction
from itcp.model.analysis.specialise import Specialisations, reachable_values, specialisations
from itcp.model.engine.engine import Game, build_spec
from itcp.model.search.searchkey import SearchKeys, search_keys
from itcp.spec.config import Config
from itcp.spec.derived import Derived

CFG = Config(players=2, suits=1, ranks=(2, 3), hand=1)


def test_a_record_is_made_once_per_owner_and_kind():
    d = Derived()
    kept = d.record(Specialisations)
    assert d.record(Specialisations) is kept and kept.reachable_values is None
    assert d.record(LivenessResults) is not kept
    assert Derived().record(Specialisations) is not kept
    assert repr(d) == "Derived(Specialisations, LivenessResults)"


def test_a_spec_keeps_what_its_rules_give_and_a_question_shares_it():
    spec = build_spec(CFG)
    first = reachable_values(spec)
    kept = specialisations(spec)
    assert kept.reachable_values == {v: (None if x is None else frozenset(x))
                                     for v, x in first.items()}
    assert reachable_values(spec) == first
    red = reduction(spec)
    assert reduction(spec) is red
    question = spec.with_properties(())
    assert question.derived is spec.derived and specialisations(question) is kept
    other = dataclasses.replace(spec, readings=dict(spec.readings))
    assert other.derived is not spec.derived
    assert specialisations(other).reachable_values is None


def test_a_game_keeps_its_search_keys():
    game = Game.make(CFG)
    red, layout, key_of, n = search_keys(game, symmetry=True)
    assert search_keys(game, symmetry=True) == (red, layout, key_of, n)
    assert search_keys(game, symmetry=False)[1] is layout  # one layout per reduction
    kept = game.derived.record(SearchKeys)
    assert set(kept.layouts) == {True} and set(kept.key_functions) == {(True, True), (False, True)}
    assert Game.make(CFG).derived.record(SearchKeys).layouts == {}
