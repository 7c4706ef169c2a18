"""tools/mutation/distinguish.py: the pair search finds the shortest round two games play
differently, and says Same only after every pair the two reach was seen."""
from __future__ import annotations

import random
from collections import deque

from itcp.model.engine.engine import Game, build_spec
from itcp.scenarios.replay import facts
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import load_variant
from tools.mutation.distinguish import (
    PlayedDifferently,
    Same,
    StoppedAtLimit,
    Unseen,
    first_difference,
    sampled_difference,
)
from tools.mutation.mutants import Mutant, mutant_spec

TABLE = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1, "options": ("mercy",)}


def _games(mutant: Mutant):
    v = load_variant("official", TABLE)
    base = build_spec(v.config, dict(v.readings))
    ms = mutant_spec(base, build_ruleset(v.config), mutant)
    assert ms is not None
    return Game(base), Game(ms)


def _reachable(g: Game) -> int:
    """Every state from the state before the deal, counted by a plain search."""
    s0 = g.initial_state()
    seen, todo = {s0}, deque([s0])
    while todo:
        s = todo.popleft()
        if g.is_terminal(s):
            continue
        for a in g.legal_actions(s):
            t = g.apply(s, a, validate=False)
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return len(seen)


def test_a_game_and_itself_are_the_same_over_every_state():
    g = Game.make(load_variant("official", TABLE).config)
    got = first_difference(g, g)
    assert isinstance(got, Same)
    assert got.pairs == _reachable(g)


def test_a_pair_limit_leaves_it_undecided():
    g = Game.make(load_variant("official", TABLE).config)
    assert first_difference(g, g, max_pairs=10) == StoppedAtLimit(10, 10)


def test_a_dropped_guard_is_told_apart_by_a_move_the_spec_refuses():
    g, gm = _games(Mutant("drop_guard", "play.discard", "guard[discard]"))
    got = first_difference(g, gm)
    assert isinstance(got, PlayedDifferently) and got.kind == "illegal"
    *moves, extra = got.actions
    s = g.initial_state()
    for a, want in zip(moves, got.states[1:]):  # the path is the spec's own
        s = g.apply(s, a)
        assert s == want
    assert extra not in g.legal_actions(s) and extra in gm.legal_actions(got.states[-1])


def test_a_dropped_update_is_told_apart_by_what_a_scenario_observes():
    g, gm = _games(Mutant("drop_update", "turn.advance", "update[pass].actor@0"))
    got = first_difference(g, gm)
    assert isinstance(got, PlayedDifferently) and got.kind == "facts"
    sm = gm.initial_state()
    for a in got.actions:
        sm = gm.apply(sm, a)
    assert facts(g, got.states[-1]) != facts(gm, sm)
    # breadth first: no shorter prefix of the round already differs
    sm, s = gm.initial_state(), g.initial_state()
    for a in got.actions[:-1]:
        s, sm = g.apply(s, a), gm.apply(sm, a)
        assert facts(g, s) == facts(gm, sm)


def _spec(**readings):
    v = load_variant("official", TABLE)
    return build_spec(v.config, {**dict(v.readings), **readings})


def test_a_value_nothing_reads_is_unread_and_the_pair_search_agrees():
    from tools.mutation.distinguish import unread_write
    # had_turn is read only by pass.when = after_first_circuit's guard
    assert unread_write(_spec(), "had_turn", ("discard",))
    assert not unread_write(_spec(**{"pass.when": "after_first_circuit"}), "had_turn",
                            ("discard",))
    # what a scenario observes is read at every phase
    assert not unread_write(_spec(), "turn", ("discard",))
    # the two methods agree on a mutant that changes only that value
    g, gm = _games(Mutant("drop_update", "turn.advance", "update[discard].had_turn@0"))
    assert isinstance(first_difference(g, gm), Same)
    v = load_variant("official", TABLE)
    rs = build_ruleset(v.config)
    spec = _spec(**{"pass.when": "after_first_circuit"})
    ms = mutant_spec(spec, rs, Mutant("drop_update", "turn.advance", "update[discard].had_turn@0"))
    assert isinstance(first_difference(Game(spec), Game(ms)), PlayedDifferently)


def test_what_the_search_observes_is_what_a_scenario_states():
    from itcp.spec.rules.vocabulary import SCENARIO_FACTS
    g = Game.make(load_variant("official", TABLE).config)
    keys = {k.split(".")[0] for k in facts(g, g.deal(__import__("random").Random(1)))}
    assert keys == {"hand" if n == "hands" else n for n in SCENARIO_FACTS} | {"top", "scores"}


def test_random_rounds_side_by_side_find_a_real_round_the_two_play_differently():
    g, gm = _games(Mutant("drop_update", "turn.advance", "update[pass].actor@0"))
    got = sampled_difference(g, gm, random.Random(3), rounds=2000)
    assert isinstance(got, PlayedDifferently) and got.kind == "facts"
    s, sm = g.initial_state(), gm.initial_state()
    for a, want in zip(got.actions, got.states[1:]):  # the spec's own round, move by move
        s, sm = g.apply(s, a), gm.apply(sm, a)
        assert s == want
    assert facts(g, s) != facts(gm, sm)


def test_random_rounds_tell_a_dropped_guard_by_a_move_the_spec_refuses():
    g, gm = _games(Mutant("drop_guard", "play.discard", "guard[discard]"))
    got = sampled_difference(g, gm, random.Random(3), rounds=2000)
    assert isinstance(got, PlayedDifferently) and got.kind == "illegal"
    *moves, extra = got.actions
    s = g.initial_state()
    for a in moves:
        s = g.apply(s, a)
    assert extra not in g.legal_actions(s) and extra in gm.legal_actions(got.states[-1])


def test_random_rounds_of_a_game_and_itself_show_nothing_and_count_what_they_played():
    g = Game.make(load_variant("official", TABLE).config)
    got = sampled_difference(g, g, random.Random(3), rounds=50)
    assert isinstance(got, Unseen) and got.rounds == 50 and got.states > 50
    assert sampled_difference(g, g, random.Random(3), rounds=50, deadline=0.0) == Unseen(0, 0)


def test_random_rounds_play_the_chosen_moves_and_show_every_pair_of_states():
    g, gm = _games(Mutant("drop_update", "turn.advance", "update[pass].actor@0"))
    seen: list = []
    chosen: list = []

    def never_pass(state, legal, rng):
        chosen.append(legal)
        return next((a for a in legal if a[0] != "pass"), legal[0])

    got = sampled_difference(g, gm, random.Random(3), rounds=200, choose=never_pass,
                             watch=lambda a, sa, sb: seen.append((a, sa == sb)))
    # the mutant differs only after a Pass: a chooser that never passes while it
    # can do anything else never shows it, and the watcher saw every step alike
    assert isinstance(got, Unseen) and chosen and len(seen) == got.states
    assert all(same for _, same in seen) and not any(a[0] == "pass" for a, _ in seen)


def test_random_rounds_see_a_mutant_leave_a_bound_the_spec_declares():
    """A mutant that plays every move alike but drives ``owed`` below its
    declared range (a turn ended by a single Pride Cycle gift no longer resets
    it) is told apart by the bounds, which the spec's state keeps."""
    table = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1,
             "options": ("pride_cycle", "secret_combination")}
    v = load_variant("official", table)
    base = build_spec(v.config, dict(v.readings))
    ms = mutant_spec(base, build_ruleset(v.config),
                     Mutant("negate_when", "turn.advance", "update[give].owed@0"))
    g, gm = Game(base), Game(ms)
    got = sampled_difference(g, gm, random.Random(3), rounds=20000)
    assert isinstance(got, PlayedDifferently) and got.kind == "bounds"
    sm = gm.initial_state()
    for a in got.actions:
        sm = gm.apply(sm, a)
    assert gm.outside_bounds(sm)[0] == "owed" and g.outside_bounds(got.states[-1]) is None
    s0 = g.initial_state()
    assert g.outside_bounds(s0) is None
    assert g.outside_bounds((s0[0], *[-1 if n == "owed" else x for n, x in
                                      zip(g.var_names[1:], s0[1:])])) == ("owed", -1, (0, 31))
