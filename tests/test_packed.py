"""The packed successor functions agree with the engine, and so do the searches.

``model/search/packed.py`` is a second compiler of the spec (one state at a time, on
packed keys; ``itcp-check rules --dump-successors``).  Here it is held to the
engine state by state: on every state a search of small tables stores
(between them every option card), on the first states of a table with every
option card, and on states Hypothesis draws from random playouts of a bigger
table, the packed successors must be exactly the packed engine successors,
in the same order, with the same step-property verdicts; the packed state
properties and hand sizes must match the engine's.  Then whole searches on
the batch path (``model/search/vectorized.py``) and the generic engine path must
agree on everything they report (tests/test_vectorized.py holds the batch
code to the engine state by state).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from itcp.checks.explicit.explore import Limits, explore, packed_successors, state, stored_successors
from itcp.checks.explicit.verdicts import verdicts
from itcp.model.engine.engine import Game
from itcp.model.search.packing import compile_packer
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

ALL = (("mercy", 1), ("justice", 1), ("repentance", 1), ("unbelief", 1), ("pride_cycle", 1),
       ("secret_combination", 1))
EXHAUSTED = [  # (variant, table): every reachable state is compared
    ("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                        charity=False)),
    ("published", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[3:],
                         charity=False)),
    ("clarified", Config(players=3, suits=1, ranks=(2, 2), hand=1,
                         options=(("justice", 1), ("secret_combination", 1)))),
    # no option cards: their bookkeeping is constant, so the generated code
    # is specialised hardest (constant fields, seats as locals, folded phases)
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1)),
]
EVERY_OPTION = Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL)
BIGGER = Config(players=3, suits=2, ranks=(2, 3), hand=2, options=ALL)


def _game(variant, cfg):
    return Game.make(cfg, dict(load_variant(variant).readings))


def assert_agrees(game, mod, pack, unpack, s):
    """The packed functions give exactly the engine's answers at state ``s``."""
    k = pack(s)
    out, bad = [], []
    mod.SUCC[s[0]](k, out, bad)
    moves = list(game.successors(s))
    assert out == [(a, pack(s2)) for a, s2 in moves], game.describe(s)
    step = [p.id for p in game.spec.properties if p.kind == "step" and p.formula is not None]
    expect_bad = [(p, a) for a, s2 in moves for p in step if not game.check_property(p, s, s2)]
    assert sorted(bad) == sorted(expect_bad)
    for p in game.spec.properties:
        if p.kind == "state" and p.formula is not None:
            assert getattr(mod, f"prop_{p.id}")(k) == game.check_property(p.id, s), p.id
    assert mod.state_ok(k) == game.impl.state_ok(s)
    assert mod.hand_range(k) == game.impl.hand_range(s)
    return [s2 for _, s2 in moves]


@pytest.mark.parametrize("variant,cfg", EXHAUSTED, ids=lambda x: getattr(x, "players", x))
def test_packed_successors_match_the_engine_on_every_reachable_state(variant, cfg):
    game = _game(variant, cfg)
    mod = packed_successors(game, with_actions=True)
    pack, unpack = compile_packer(game.spec)
    ex = explore(game, symmetry=False, track_rules=False, fast=False)
    assert ex.complete
    for i in range(ex.states):
        assert_agrees(game, mod, pack, unpack, state(ex, i))


#: readings with a memory (discard.lower's points before the draw) or a check of
#: their own (zero.when after each whole move), and the scoring readings
MEMORY_READINGS = {"discard.lower": "constraint", "zero.when": "after_move",
                   "secret.score": "own_hand", "pass.team": "team",
                   "pass.zero": "reached_only", "pass.fail": "penalty",
                   "discard.none": "skip_discard"}


def test_packed_successors_match_under_readings_with_memory():
    cfg = Config(players=2, suits=1, ranks=(2, 2), hand=1, desolation=False,
                 options=(("mercy", 1), ("secret_combination", 1)))
    game = Game.make(cfg, dict(load_variant("official").readings) | MEMORY_READINGS)
    mod = packed_successors(game, with_actions=True)
    pack, unpack = compile_packer(game.spec)
    ex = explore(game, symmetry=False, track_rules=False, fast=False)
    assert ex.complete
    before = [v.name for v in game.spec.variables].index("before_draw")
    stored = [state(ex, i) for i in range(ex.states)]
    assert any(s[before] for s in stored)  # the memory is kept
    for s in stored:
        assert_agrees(game, mod, pack, unpack, s)


def test_packed_successors_match_with_every_option_card():
    game = _game("official", EVERY_OPTION)
    mod = packed_successors(game, with_actions=True)
    pack, unpack = compile_packer(game.spec)
    ex = explore(game, Limits(max_states=2500), symmetry=False, track_rules=False, fast=False)
    for i in range(ex.states):
        assert_agrees(game, mod, pack, unpack, state(ex, i))


@pytest.fixture(scope="module")
def bigger():
    game = _game("published", BIGGER)
    pack, unpack = compile_packer(game.spec)
    return game, packed_successors(game, with_actions=True), pack, unpack


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_packed_successors_match_on_random_playouts(bigger, seed, steps):
    game, mod, pack, unpack = bigger
    rng = random.Random(seed)
    s = game.deal(rng)
    for _ in range(steps):
        nexts = assert_agrees(game, mod, pack, unpack, s)
        if not nexts:
            break
        s = rng.choice(nexts)


def _report(ex):
    return {
        "keys": list(ex.keys), "parent": list(ex.parent), "depth": list(ex.depth_of),
        "transitions": ex.transitions, "terminal": ex.terminal, "initial": ex.initial,
        "deadlocks": ex.deadlocks, "violations": ex.violations,
        "edges": ex.post_pass_edges, "hands": (ex.hand_min, ex.hand_max),
        "fired": ex.fired, "complete": ex.complete, "limit": ex.limit,
        "unreduced": ex.unreduced_states, "sampled": ex.coverage_sampled,
        "verdicts": [(v.id, v.verdict) for v in verdicts(ex)],
    }


@pytest.mark.parametrize("variant,cfg,symmetry,limits", [
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                        options=(("pride_cycle", 1), ("unbelief", 1))), True, Limits(max_states=3000)),
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                        options=(("pride_cycle", 1),)), False, Limits(max_states=4000)),
    EXHAUSTED[1] + (False, Limits()),
    EXHAUSTED[2] + (True, Limits(max_depth=6)),
    EXHAUSTED[3] + (False, Limits()),
], ids=["budget-sym", "budget", "exhausted", "depth-sym", "no-options"])
def test_fast_and_generic_searches_agree(variant, cfg, symmetry, limits):
    game = _game(variant, cfg)
    for track in (True, False):
        fast = explore(game, limits, symmetry=symmetry, track_rules=track)
        slow = explore(game, limits, symmetry=symmetry, track_rules=track, fast=False)
        assert _report(fast) == _report(slow)


def test_ctrl_c_mid_batch_leaves_consistent_tables(monkeypatch):
    """Ctrl-C while a batch is stored: the search goes back to the last batch it
    finished, and what it reports is a search of fewer states."""
    import itcp.checks.explicit.explore as E
    game = _game("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                                    options=(("pride_cycle", 1),)))
    monkeypatch.setattr(E, "CHUNK_STATES", 64)
    real = E.Search.store_batch
    calls = []

    def store_batch(self, *args, **kw):
        calls.append(1)
        if len(calls) == 40:
            self.store.insert(args[0])  # half done: keys in the table, nothing else
            raise KeyboardInterrupt
        return real(self, *args, **kw)
    monkeypatch.setattr(E.Search, "store_batch", store_batch)
    ex = explore(game, symmetry=False, track_rules=False)
    assert ex.interrupted and not ex.complete
    n = ex.states
    assert len(ex.parent) == n == len(ex.depth_of) and len(ex.keys) == n
    assert all(0 <= j < n and 0 <= i < n for i, j in ex.post_pass_edges)
    assert all(ex.parent[i] < i for i in range(n))
    assert [ex.number_of(k) for k in ex.keys] == list(range(n))


@pytest.mark.parametrize("fast,symmetry", [(True, False), (False, False), (True, True)],
                         ids=["fast", "generic", "fast-sym"])
def test_post_pass_edges_are_the_post_pass_transitions(fast, symmetry):
    """The edges among post-Pass states are the search's edges (a move, or a
    move and the chance node's outcome it opens) between post-Pass states,
    every state on the way post-Pass.  Held against the edges listed from
    scratch with the engine."""
    game = _game("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                                    options=(("pride_cycle", 1),)))
    ex = explore(game, Limits(), symmetry=symmetry, track_rules=False, fast=fast)
    assert ex.complete
    fp = game.index["first_passer"]
    expect = []
    for i in range(ex.states):
        s = state(ex, i)
        if s[fp] < 0 or game.is_terminal(s):
            continue
        for acts, s2, j in stored_successors(ex, s):
            states = s2 if len(acts) == 2 else (s2,)
            if all(x[fp] >= 0 for x in states):
                expect.append((i, j))
    assert sorted(ex.post_pass_edges) == sorted(expect)
    assert any(ex.parent[j] != i for i, j in expect)  # some lead to states seen before


def test_the_dump_covers_every_dispatch_class_a_search_meets():
    """``rules --dump-successors`` builds a function for each dispatch class a
    reachable state may have.  With Repentance at 2-4 players the direction of
    play is a dispatch field whose two bits also hold 2, a value no state has:
    the dump used to generate a function for it and fail (IndexError in the
    ``next_in`` table); the search never met that class, so no verdict was
    affected.  The dump must compile, skip only classes no state has, and
    cover every class the search meets."""
    from itcp.model.engine.engine import build_spec
    from itcp.model.search.packed import PackedSource
    cfg = Config(players=2, suits=1, ranks=(2, 2), hand=1, options=(("repentance", 1),))
    v = load_variant("official")
    src = PackedSource(build_spec(cfg, dict(v.readings)), store=True)
    compile(src.build(), "<dump>", "exec")
    dumped = {src.dispatch_class(x) for x in src.all_indices()}
    assert all(dict(zip([n for n, _ in src.dispatch], c))["dir"] in (-1, 0, 1) for c in dumped)
    g = _game("official", cfg)
    ex = explore(g, symmetry=False, track_rules=False, fold=False, reduce=False)
    assert ex.complete
    over = {p.value for p in src.spec.phases if p.terminal}  # no function: -1
    fields = [n for n, _ in src.dispatch]
    met = {tuple(state(ex, i)[g.index[f]] for f in fields) for i in range(ex.states)}
    met = {c for c in met if c[0] not in over}
    assert met <= dumped
    assert any(dict(zip([n for n, _ in src.dispatch], c))["dir"] == -1 for c in met)


@pytest.mark.slow
def test_the_generated_code_is_the_same_in_every_process(tmp_path):
    """Two processes with different string hashes generate the same successor code
    and the same engine: no step of the compilers follows the order of a set of
    nodes or names (the shared-terms pass did, so the dump changed run to run)."""
    import os
    import subprocess
    import sys
    table = ["--players", "2", "--suits", "1", "--ranks", "2..3", "--hand", "1",
             "--options", "mercy,justice,pride-cycle"]
    launch = "import sys; from itcp.cli.entry import main; sys.exit(main())"
    for dump in ("--dump-successors", "--dump-engine"):
        outs = {subprocess.run([sys.executable, "-c", launch, "rules", "clarified", *table, dump],
                               capture_output=True, text=True, check=True,
                               env=dict(os.environ, PYTHONHASHSEED=seed)).stdout
                for seed in ("1", "2")}
        assert len(outs) == 1 and "def " in next(iter(outs)), dump
