"""ROUND_ENDS through Z3 (checks/symbolic/ranking.py): the spec's ranking function proved to
fall on every step after a Pass, or a lasso found by BMC and replayed by the engine.

The two must agree with the explicit search: a variant whose post-Pass graph has a
cycle is never proved (the ranking cannot fall round a cycle), and a lasso Z3 finds
is a real loop of the engine's states."""
from __future__ import annotations

from functools import cache

import pytest

from itcp.checks.explicit.explore import explore
from itcp.checks.explicit.verdicts import verdicts
from itcp.checks.results import Ranking, RankingCounterexample, Replayed, Shortest, Verdict
from itcp.checks.run import Check
from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game
from itcp.spec.properties import PROPERTIES
from itcp.spec.variants import DEFAULT_TABLE


@cache
def game(variant: str, **table) -> Game:
    return Game.from_variant(load_with(variant, dict(DEFAULT_TABLE, **table)))


def explicit_round_ends(variant: str, **table):
    """ROUND_ENDS's result from the explicit search (``checks/run.py``)."""
    v = load_with(variant, dict(DEFAULT_TABLE, **table))
    (r,) = Check(v, ("ROUND_ENDS",), game=game(variant, **table)).run().results
    return r


def test_round_ends_states_its_ranking_in_the_spec():
    (decl,) = [d for d in PROPERTIES if d.id == "ROUND_ENDS"]
    assert decl.ranking is not None
    prop = {p.id: p for p in game("clarified").spec.properties}["ROUND_ENDS"]
    names = [n for n, _ in prop.ranking]
    assert names[0] == "round still going" and "seats to the passer" in names


def test_clarified_round_ends_proved_by_its_ranking():
    v = SymbolicChecker(game("clarified"), depth=2).check("ROUND_ENDS")
    assert v.verdict is Verdict.HOLDS, v.evidence
    ev = v.evidence
    assert isinstance(ev, Ranking) and ev.kind == "ranking"
    assert ev.components == [n for n, _ in {p.id: p for p in game("clarified").spec.properties}[
        "ROUND_ENDS"].ranking]
    # the proof rests on the rules that move play round to the passer
    assert "turn.advance" in ev.support.rules and ev.support.invariants


def test_official_round_ends_lasso_is_replayed_by_the_engine():
    g = game("official")
    v = SymbolicChecker(g, depth=6).check("ROUND_ENDS")
    assert v.verdict is Verdict.VIOLATED, v.evidence
    ev = v.evidence
    assert isinstance(ev, Replayed) and ev.as_json()["lasso"]
    assert "the state after the last move is the one after move" in ev.reproduced
    entry = ev.as_json()["loop_starts_at_step"] - 1
    assert 1 <= entry < v.trace.length <= 6
    assert "recurs" in v.trace.ending
    # the explicit search agrees that the official text loops after a Pass
    assert explicit_round_ends("official").verdict is Verdict.VIOLATED


def test_the_lasso_search_goes_deeper_than_bmc_unless_a_depth_is_given():
    """A lasso is a Pass and then a loop back: longer than a safety violation, so
    without --depth the lasso search goes to LASSO_DEPTH (``official`` at the full
    deck with four players has one of 7 moves, past BMC's default of 6); a depth
    given bounds both."""
    from itcp.checks.symbolic.checker import DEFAULT_DEPTH, LASSO_DEPTH
    assert LASSO_DEPTH > DEFAULT_DEPTH
    ch = SymbolicChecker(game("clarified"))
    assert (ch.depth, ch.lasso_depth) == (DEFAULT_DEPTH, LASSO_DEPTH)
    ch = SymbolicChecker(game("clarified"), depth=3)
    assert (ch.depth, ch.lasso_depth) == (3, 3)
    # a depth of 1: no lasso of official's is that short, and the note names the depth
    v = SymbolicChecker(game("official"), depth=1).check("ROUND_ENDS")
    assert v.verdict is Verdict.UNKNOWN and "within 1 moves" in v.evidence.summary(), v.evidence


def test_the_default_lasso_search_finds_the_repentance_loop_of_nine_moves():
    """``official``'s loop with a Repentance and no Unbelief: a Pass, then two
    players take the Repentance back from the pile and discard it in turn, each
    reversing the direction, so play never reaches the passer.  It has nine
    moves at every table size (at the full deck with eight players too), so the
    search without --depth looks that far."""
    v = SymbolicChecker(game("official", players=3, suits=1, ranks=(2, 3), hand=1,
                             options="repentance")).check("ROUND_ENDS")
    assert v.verdict is Verdict.VIOLATED and v.evidence.as_json().get("lasso"), v.evidence
    assert v.trace.length == 9 and v.trace.replayed
    loop = v.trace.steps[v.trace.loop_from - 1:]
    assert {s.action for s in loop} == {"draw_pile", "discard(Repentance)"}


def _three_repentances() -> Game:
    v = load_with("clarified", dict(players=3, suits=1, ranks="2..3", hand=1,
                                    options="repentance=3"))
    return Game.make(v.config, dict(v.readings) | {"repentance.pass": "reverses"})


def test_a_variant_with_a_cycle_is_never_proved():
    # three Repentances after a Pass: the explicit search finds a 10-move lasso
    # (scenarios/library/clarified-three-repentances-loop.toml); the ranking cannot
    # fall round it, so the symbolic verdict is a lasso or UNKNOWN, never HOLDS
    g = _three_repentances()
    ex = explore(g)
    (explicit,) = verdicts(ex, ["ROUND_ENDS"])
    assert explicit.verdict is Verdict.VIOLATED
    v = SymbolicChecker(g, depth=3).check("ROUND_ENDS")
    assert v.verdict is Verdict.UNKNOWN, v.evidence
    assert isinstance(v.evidence, RankingCounterexample)
    assert v.evidence.counterexample["ranking_before"]


@pytest.mark.slow
def test_the_lasso_at_three_players_agrees_with_the_explicit_search():
    # official at 3 players with Unbelief: Z3's lasso closes on the whole state, the
    # explicit search's on the variables the game still reads (a record such as
    # who has had a turn is dropped there), so Z3's is as long or a turn longer;
    # with repeated cards the explicit one closes up to a permutation of the copies
    # too (three Repentances: 10 moves against 18, found by BMC in 401 s, too slow
    # for the suite)
    v = load_with("official", dict(players=3, suits=1, ranks="2..2", hand=1,
                                   options="unbelief,pride_cycle"))
    g = Game.from_variant(v)
    (explicit,) = Check(v, ("ROUND_ENDS",), game=g).run().results
    assert explicit.verdict is Verdict.VIOLATED and isinstance(explicit.evidence, Shortest)
    assert explicit.evidence.as_json()["lasso"]
    n = explicit.trace.length
    z = SymbolicChecker(g, depth=n + 3).check("ROUND_ENDS")
    assert z.verdict is Verdict.VIOLATED, z.evidence
    assert z.evidence.as_json()["lasso"] and n <= z.trace.length <= n + 3
