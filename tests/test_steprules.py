"""The rules a story names for a step (model/engine/steprules.py), on random playouts.

``Game.decided`` must name no rule ``Game.fired`` (everything the step could
have consulted) leaves out, must keep every guard rule that interprets no
choice point, and must name a reading exactly where it changed the step.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.rules.vocabulary import RACE
from itcp.spec.variants import load_variant

TABLE = Config(players=2, suits=2, ranks=(2, 3), hand=2,
               options=(("unbelief", 1), ("pride_cycle", 1), ("mercy", 1)))
_GAMES: dict = {}


def game(variant: str) -> Game:
    if variant not in _GAMES:
        _GAMES[variant] = Game.make(TABLE, dict(load_variant(variant).readings))
    return _GAMES[variant]


def playout(g: Game, seed: int, moves: int = 40):
    """(state, action, next state) of one random round."""
    rng = random.Random(seed)
    s = g.deal(rng)
    for _ in range(moves):
        legal = g.legal_actions(s)
        if not legal:
            return
        a = rng.choice(legal)
        s2 = g.apply(s, a)
        yield s, a, s2
        s = s2


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["official", "clarified"]))
def test_decided_is_within_fired_and_keeps_plain_guards(seed, variant):
    """The rules on a step's path are among those it could consult; a reading
    named besides them (one whose fragments are not on the path) is named only
    because another reading of its point would have changed the step."""
    g = game(variant)
    rules = g.step_rules()
    for s, a, s2 in playout(g, seed):
        decided, fired = g.decided(s, a, s2), g.fired(s, a, s2)
        for rid in set(decided) - set(fired):
            choice = g.spec.rule(rid).choice
            assert choice, (a, rid)
            env = rules.env(s, a, s2)
            assert rules.reading_decides(choice, a[0], env), (a, rid)
        plain_guards = {rid for rid, _ in g.actions[a[0]].guards
                        if not g.spec.rule(rid).choice}
        assert plain_guards <= set(decided), (a, plain_guards - set(decided))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_reading_is_named_exactly_where_it_changed_the_step(seed):
    """Under ``official`` a card taken from the pile may be discarded again
    (``turn.take_back = allowed``); the other reading forbids exactly those cards,
    so the reading decides a discard of it, and of another card only where that
    card's own legality rests on the other cards (a discard "to lower their
    points" is measured against the cards the player may discard, and the ban
    takes the taken card out of them).  A Desolation reading decides nothing for
    a card that is no Desolation, except a Mercy (whether its race opens can rest
    on a Desolation discarded on it)."""
    g = game("official")
    taken_i, hands_i, actor_i = g.index["taken"], g.index["hands"], g.index["actor"]
    for s, a, s2 in playout(g, seed):
        if a[0] != "discard":
            continue
        decided = g.decided(s, a, s2)
        card = a[1][0]
        if s2[0] == RACE:
            continue  # the Mercy player's taken cards also decide who may race
        names_take_back = "turn.take_back.allowed" in decided
        if s[taken_i] >> card & 1:
            assert names_take_back, (s, a, decided)
        elif names_take_back:   # another card held was taken, and legality is relative
            others = s[hands_i][s[actor_i]] & s[taken_i] & ~(1 << card)
            assert others and "discard.lower.purpose" in decided, (s, a, decided)
        # a Mercy discard opens a race only if someone may discard, and a Desolation
        # holder's discard on the Mercy is what desolation.target decides (a race that
        # does not open is no RACE state): the Desolation reading can decide it
        if "Desolation" not in g.card_name(card) and g.card_name(card) != "Mercy":
            assert not any(r.startswith("desolation.target") for r in decided), (a, decided)


def test_the_frozen_story_names_the_pride_cycle_reading_not_the_noise():
    """The official FROZEN counterexample at the default table: the Pride Cycle
    steps name the passer reading; the Mercy and Desolation readings the
    discard's formulas mention, but the step never used, are not named."""
    from itcp.checks.run import Check
    from itcp.spec.variants import DEFAULT_TABLE
    (frozen,) = Check(load_variant("official", DEFAULT_TABLE), ("FROZEN",)).run().results
    text = "\n".join(frozen.trace.story)
    assert "pride.passer" in text
    for noise in ("mercy.after", "mercy.effect", "repentance.two", "desolation.target",
                  "discard.none"):
        assert noise not in text, noise
