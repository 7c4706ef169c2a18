"""The batch successor code agrees with the engine, state by state.

``model/search/vectorized.py`` compiles the spec a third way, to numpy code over
batches of keys.  Here its successors are held to the generic engine path's
(unpack, ``legal``, ``apply``, pack with the same reduction) on every state a
search of small tables stores (between them every option card), on the first
states of a table with every option card, and on states Hypothesis draws from
random playouts of a bigger table: the same successor keys, in the same
order, from the same moves, with the same step-property failures; and the same
state-property failures, post-Pass flags, live hand sizes, chance and
terminal phases and, with symmetry reduction, canonical keys and orbit sizes.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from itcp.checks.explicit.explore import BatchBackend, GenericBackend, Limits, explore, search_setup
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

ALL = (("mercy", 1), ("justice", 1), ("repentance", 1), ("unbelief", 1), ("pride_cycle", 1),
       ("secret_combination", 1))
TABLES = [  # (variant, table, symmetry, states searched: None for all)
    ("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                        charity=False), False, None),
    ("published", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[3:],
                         charity=False), False, None),
    ("clarified", Config(players=3, suits=1, ranks=(2, 2), hand=1,
                         options=(("justice", 1), ("secret_combination", 1))), False, None),
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1), True, None),
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                        options=(("unbelief", 1), ("pride_cycle", 2))), True, 3000),
]
BIGGER = Config(players=3, suits=2, ranks=(2, 3), hand=2, options=ALL)


def _backends(game, symmetry):
    red, layout, _, _ = search_setup(game, symmetry)
    return BatchBackend(game, red, layout, symmetry), GenericBackend(game, red, layout, symmetry)


def _bad(d):
    return {k: v.tolist() for k, v in d.items() if v.any()}


def assert_agree(batch, generic, words):
    """Both backends give the same answers on the keys ``words``."""
    a, b = batch.successors(words), generic.successors(words)
    assert a.src.tolist() == b.src.tolist()
    assert a.aid.tolist() == b.aid.tolist()
    assert a.prm.tolist() == b.prm.tolist()
    for x, y in zip(a.words, b.words):
        assert x.tolist() == y.tolist()
    assert _bad(a.bad) == _bad(b.bad)
    sa, sb = batch.state_bad(words), generic.state_bad(words)
    assert _bad(dict(sa)) == _bad(dict(sb))
    assert batch.post_pass(words).tolist() == generic.post_pass(words).tolist()
    assert batch.hand_range(words) == generic.hand_range(words)
    assert batch.chance(words).tolist() == generic.chance(words).tolist()
    assert batch.terminal(words).tolist() == generic.terminal(words).tolist()
    if batch.symmetric:
        assert [w.tolist() for w in batch.canon(words)] == \
            [w.tolist() for w in generic.canon(words)]
        assert batch.orbit(words).tolist() == generic.orbit(words).tolist()
    return a


def _words(ex, lo, hi):
    rows = ex.store.rows(lo, hi)
    return [np.ascontiguousarray(rows[:, j]) for j in range(ex.store.words)]


@pytest.mark.parametrize("variant,cfg,symmetry,budget", TABLES,
                         ids=["mercy-justice-rep", "unbelief-pride-secret", "3p", "plain",
                              "copies"])
def test_batch_successors_match_the_engine_on_every_stored_state(variant, cfg, symmetry,
                                                                   budget):
    game = Game.make(cfg, dict(load_variant(variant).readings))
    batch, generic = _backends(game, symmetry)
    ex = explore(game, Limits(max_states=budget), symmetry=symmetry, track_rules=False,
                 fast=False)
    assert ex.complete or budget
    for lo in range(0, ex.states, 400):
        words = _words(ex, lo, min(ex.states, lo + 400))
        moves = assert_agree(batch, generic, words)
        chance = batch.chance(moves.words)
        if chance.any():  # the chance nodes the search folds: their outcomes too
            assert_agree(batch, generic, [w[chance] for w in moves.words])


def test_batch_successors_match_with_every_option_card():
    game = Game.make(Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL),
                     dict(load_variant("official").readings))
    batch, generic = _backends(game, False)
    ex = explore(game, Limits(max_states=2500), symmetry=False, track_rules=False, fast=False)
    for lo in range(0, ex.states, 500):
        assert_agree(batch, generic, _words(ex, lo, min(ex.states, lo + 500)))


@pytest.fixture(scope="module")
def bigger():
    game = Game.make(BIGGER, dict(load_variant("published").readings))
    batch, generic = _backends(game, True)
    return game, batch, generic


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_batch_successors_match_on_random_playouts(bigger, seed, steps):
    game, batch, generic = bigger
    rng = random.Random(seed)
    s = game.deal(rng)
    states = [s]
    for _ in range(steps):
        nexts = [s2 for _, s2 in game.successors(s)]
        if not nexts:
            break
        s = rng.choice(nexts)
        states.append(s)
    words = batch.words_of([batch.pack(x) for x in states])
    assert_agree(batch, generic, words)
