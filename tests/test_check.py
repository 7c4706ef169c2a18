"""The explicit-state checker and the verdict report, end to end."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from itcp.checks.explicit.explore import concrete_trace, explore, path_to
from itcp.checks.explicit.verdicts import verdicts
from itcp.checks.results import Verdict
from itcp.checks.run import Check
from itcp.cli.main import main
from itcp.model.analysis.symmetry import canonicalizer, card_permutations
from itcp.model.engine.engine import Game
from itcp.model.search.packing import compile_packer
from itcp.spec.config import Config, full_deck_options
from itcp.spec.variants import load_variant

SMALL_TABLE = dict(players=2, suits=2, ranks=(2, 2), hand=1, options=(("pride_cycle", 1),))
SMALL = Config(**SMALL_TABLE)


@pytest.fixture(scope="module")
def official_small():
    return Game.make(SMALL, dict(load_variant("official").readings))


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_bare_itcp_check_reports_the_official_contradictions():
    r = run("--json")
    assert r.exit_code == 1, r.output
    out = json.loads(r.output)
    by_id = {p["id"]: p for p in out["properties"]}
    assert by_id["FROZEN"]["verdict"] == Verdict.VIOLATED
    assert by_id["NO_DEADLOCK"]["verdict"] == Verdict.VIOLATED
    assert by_id["ROUND_ENDS"]["verdict"] == Verdict.VIOLATED
    assert by_id["CONSERVATION"]["verdict"] == Verdict.HOLDS
    assert by_id["CONSERVATION"]["evidence"]["kind"] == "exhaustive"
    assert by_id["FROZEN"]["evidence"]["kind"] == "trace"
    for key in ("states", "transitions", "terminal", "deadlocks", "depth", "seconds"):
        assert key in out["stats"]
    assert out["variant"] == "official" and "config" in out


def test_clarified_holds_everywhere_at_the_default_table():
    r = run("check", "clarified", "--json")
    out = json.loads(r.output)
    assert r.exit_code == 0, [p for p in out["properties"] if p["verdict"] != Verdict.HOLDS]
    assert all(p["verdict"] == Verdict.HOLDS and p["evidence"]["kind"] == "exhaustive"
               for p in out["properties"])


def test_text_report_tells_the_story(tmp_path):
    r = run("check", "--itf", str(tmp_path))
    assert r.exit_code == 1
    assert "FROZEN" in r.output and "VIOLATED" in r.output
    assert "frozen hand changes" in r.output
    assert "pride.passer = gives_not_receives" in r.output
    itf = json.loads((tmp_path / "official-FROZEN.itf.json").read_text())
    assert itf["#meta"]["format"] == "ITF" and len(itf["states"]) >= 2
    assert set(itf["vars"]) <= set(itf["states"][0])


def test_shortest_traces_replay_to_the_same_violation(official_small):
    ex = explore(official_small)
    vs = {v.id: v for v in verdicts(ex)}
    frozen = vs["FROZEN"]
    assert frozen.verdict == Verdict.VIOLATED
    # replay the trace's actions through the validating API from its first state
    i = ex.violations["FROZEN"][1]
    steps, last = concrete_trace(ex, path_to(ex, i))
    s = steps[0][0] if steps else last
    for before, a in steps:
        assert before == s
        s = official_small.apply(s, a)
    assert any(not official_small.check_property("FROZEN", s, s2)
               for _, s2 in official_small.successors(s))
    # no shorter violation exists: every state at a smaller depth was checked first
    assert ex.depth_of[i] == len(steps)


def test_symmetry_reduction_keeps_every_verdict(official_small):
    with_sym = explore(official_small, symmetry=True)
    without = explore(official_small, symmetry=False)
    assert with_sym.states < without.states
    # the reduced search knows exactly how many states the unreduced one stores
    assert with_sym.unreduced_states == without.states == without.unreduced_states
    a = {v.id: v.verdict for v in verdicts(with_sym)}
    b = {v.id: v.verdict for v in verdicts(without)}
    assert a == b
    assert with_sym.hand_min == without.hand_min and with_sym.hand_max == without.hand_max


def test_counts_are_reproducible(official_small):
    a, b = explore(official_small), explore(official_small)
    assert (a.states, a.transitions, a.terminal, a.depth) == (b.states, b.transitions,
                                                              b.terminal, b.depth)


def test_limits_give_unknown_never_holds():
    r = run("check", "clarified", "--max-states", "500", "--json")
    assert r.exit_code == 3
    out = json.loads(r.output)
    assert all(p["verdict"] in (Verdict.UNKNOWN, Verdict.VIOLATED) for p in out["properties"])
    assert any("--max-states" in str(p["evidence"].get("limit")) for p in out["properties"])
    r = run("check", "clarified", "--depth", "2", "--json")
    assert r.exit_code == 3


def test_unknown_property_is_a_usage_error():
    r = run("check", "--property", "FROZN")
    assert r.exit_code == 2
    assert "FROZEN" in r.output


def test_graph_export(tmp_path):
    out = tmp_path / "g.graphml"
    r = run("check", "--graph", str(out), "--property", "FROZEN", "--options", "pride_cycle")
    assert r.exit_code == 1
    import networkx as nx
    g = nx.read_graphml(out)
    assert g.number_of_nodes() > 1000
    dot = tmp_path / "g.dot"
    r = run("check", "--graph", str(dot), "--options", "none", "--property", "FROZEN")
    assert r.exit_code == 0 and dot.read_text().startswith("digraph")


def test_suit_and_copy_permutations():
    cfg = Config(players=2, suits=3, ranks=(2, 2), hand=1, options=(("mercy", 2),))
    perms = card_permutations(cfg)
    assert len(perms) == 6 * 2  # 3! suit orders x 2! copy orders
    for p in perms:
        assert sorted(p) == list(range(cfg.n_cards))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8))
def test_packing_round_trips_on_the_full_game(seed, players):
    g = Game.make(Config(players=players, suits=6, ranks=(2, 10), hand=6,
                         options=full_deck_options()))
    pack, unpack = compile_packer(g.spec)
    key, _ = canonicalizer(g.spec, pack, enabled=False)
    rng = random.Random(seed)
    s = g.deal(rng)
    for _ in range(60):
        assert unpack(pack(s)) == s
        assert key(s) == pack(s)
        if g.is_terminal(s):
            break
        moves = g.legal_actions(s)
        if not moves:
            break
        s = g.apply(s, g.sample_chance(s, rng) if g.is_chance(s) else rng.choice(moves))


def test_canonical_keys_identify_symmetric_states(official_small):
    pack, unpack = compile_packer(official_small.spec)
    key, n = canonicalizer(official_small.spec, pack, enabled=True)
    assert n == 2
    perm = card_permutations(SMALL)[-1]
    for s in list(official_small.initial_states())[:50]:
        hands = tuple(sum(1 << perm[c] for c in range(SMALL.n_cards) if h >> c & 1)
                      for h in s[official_small.index["hands"]])
        t = list(s)
        t[official_small.index["hands"]] = hands
        t[official_small.index["deck"]] = sum(1 << perm[c] for c in range(SMALL.n_cards)
                                              if s[official_small.index["deck"]] >> c & 1)
        t[official_small.index["pile"]] = tuple(perm[c] for c in s[official_small.index["pile"]])
        assert key(tuple(t)) == key(s)


def test_ctrl_c_gives_the_partial_report(official_small):
    def interrupt(states, depth, seconds):
        if depth >= 3:
            raise KeyboardInterrupt
    report = Check(load_variant("official", SMALL_TABLE), progress=interrupt,
                   game=official_small).run()
    st = report.search
    assert st.limit == "interrupted (Ctrl-C)" and not st.complete and st.states > 0
    vs = {v.id: v.verdict for v in report.results}
    assert vs["CONSERVATION"] == Verdict.UNKNOWN and vs["NO_DEADLOCK"] == Verdict.VIOLATED
