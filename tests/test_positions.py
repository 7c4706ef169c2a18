"""One stored state per game position, held to a brute force of the rulebook.

The explorer forgets what a state's future never reads and folds a deck draw
into the move that makes it (``model/analysis/liveness.py``, ``checks/explicit/explore.py``).
If it forgot too little, two states would stand for one position; too much,
and two positions would share a state.  Here a brute force written from the
rulebook alone (no spec code: cards, hands and the pile as plain Python
values) lists every position of the basic game, where a player is to draw
or to discard, under the official variant's literal readings; the explorer's
non-terminal states without symmetry reduction must be exactly as many, and
its moves as many as the brute force's.  (bench/baseline_bfs.py does the
same at 2 suits, ranks 2..4, hands of 3: 685,608 positions.)
"""
from __future__ import annotations

from itertools import combinations

import pytest

from itcp.checks.explicit.explore import explore
from itcp.checks.explicit.verdicts import verdicts
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant


def positions(suits: int, ranks: range, hand: int, players: int = 2) -> tuple[int, int]:
    """(positions, moves) of the basic game, by breadth-first search.

    The rulebook: each player is dealt ``hand`` cards and one card is turned
    face up to start the pile; the player left of the dealer begins.  A turn:
    draw the pile's top card or the deck's (any card of the deck: it is
    unordered), then discard a card; a Desolation only on a card of its own
    suit.  Instead of drawing a player may say Pass, and so may a second player
    (pass.1 sets no limit): the round ends when play reaches the first passer
    again.  At two players a second Pass hands the turn straight to the first
    passer, so it ends the round; nothing here follows a frozen second passer
    at a bigger table.  A hand worth zero points
    (a suit's Charity cancels that suit in its holder's hand) ends the round
    at once, the deal included."""
    assert players == 2, "a second passer is followed at two players only"
    cards = [(s, r) for s in range(suits) for r in ranks]
    cards += [(s, "charity") for s in range(suits)] + [(s, "desolation") for s in range(suits)]

    def value(c):
        return 25 if c[1] == "desolation" else 0 if c[1] == "charity" else c[1]

    def points(h):
        cancelled = {c[0] for c in h if c[1] == "charity"}
        return sum(value(c) for c in h if c[0] not in cancelled)

    def may_discard(c, pile):
        return c[1] != "desolation" or (bool(pile) and pile[-1][0] == c[0])

    # a position: (turn, to_discard, hands, deck, pile, passer)
    seen, frontier, moves = set(), [], 0
    everything = frozenset(cards)
    for h0 in combinations(sorted(everything, key=repr), hand):
        rest = everything - set(h0)
        for h1 in combinations(sorted(rest, key=repr), hand):
            for up in sorted(rest - set(h1), key=repr):
                hands = (frozenset(h0), frozenset(h1))
                if any(points(h) == 0 for h in hands):
                    continue  # the round is over at the deal
                p = (1, False, hands, rest - set(h1) - {up}, (up,), None)
                if p not in seen:
                    seen.add(p)
                    frontier.append(p)
    while frontier:
        nxt = []
        for turn, discarding, hands, deck, pile, passer in frontier:
            succ = []
            mine = hands[turn]
            if not discarding:
                draws = [(c, deck - {c}, pile) for c in deck]
                if pile:
                    draws.insert(0, (pile[-1], deck, pile[:-1]))
                for c, deck2, pile2 in draws:
                    h = mine | {c}
                    hs = tuple(h if i == turn else x for i, x in enumerate(hands))
                    succ.append(None if points(h) == 0 else (turn, True, hs, deck2, pile2, passer))
                if passer is None:
                    succ.append(((turn + 1) % players, False, hands, deck, pile, turn))
                else:  # a second Pass: at two players the first passer is next
                    succ.append(None)
            else:
                following = (turn + 1) % players
                for c in mine:
                    if not may_discard(c, pile):
                        continue
                    h = mine - {c}
                    hs = tuple(h if i == turn else x for i, x in enumerate(hands))
                    over = points(h) == 0 or following == passer
                    succ.append(None if over else (following, False, hs, deck, pile + (c,), passer))
            moves += len(succ)
            for p in succ:
                if p is not None and p not in seen:
                    seen.add(p)
                    nxt.append(p)
        frontier = nxt
    return len(seen), moves


def test_one_stored_state_per_position():
    cfg = Config(players=2, suits=2, ranks=(2, 3), hand=2)
    game = Game.make(cfg, dict(load_variant("official").readings))
    ex = explore(game, symmetry=False, track_rules=False)
    assert ex.complete
    expect, moves = positions(2, range(2, 4), 2)
    assert ex.states - ex.terminal == expect
    assert ex.transitions == moves


REDUCED_VS_FULL = [  # (variant, table): small enough to search twice
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                        options=(("unbelief", 1), ("pride_cycle", 1)))),
    ("clarified", Config(players=2, suits=1, ranks=(2, 2), hand=1,
                         options=(("mercy", 1), ("justice", 1), ("repentance", 1)))),
    ("published", Config(players=3, suits=1, ranks=(2, 2), hand=1,
                         options=(("secret_combination", 1), ("pride_cycle", 1)))),
]


@pytest.mark.parametrize("variant,cfg", REDUCED_VS_FULL, ids=["official", "clarified", "3p"])
def test_forgetting_and_folding_change_no_verdict(variant, cfg):
    """The search that forgets unread variables and folds chance nodes gives
    every property the verdict, and every violation the trace length, of the
    search that stores every reachable state and every chance node."""
    game = Game.make(cfg, dict(load_variant(variant).readings))
    small = explore(game, symmetry=False, track_rules=False)
    full = explore(game, symmetry=False, track_rules=False, fold=False, reduce=False)
    assert small.complete and full.complete and small.states < full.states
    a = {v.id: (v.verdict, v.trace and v.trace.length) for v in verdicts(small)}
    b = {v.id: (v.verdict, v.trace and v.trace.length) for v in verdicts(full)}
    lasso = [p for p, (verdict, _) in a.items() if p == "ROUND_ENDS" and verdict == "VIOLATED"]
    for p in lasso:  # a lasso's loop closes on a position: it may be shorter
        assert a.pop(p)[0] == b.pop(p)[0]
    assert a == b
    assert (small.hand_min, small.hand_max) == (full.hand_min, full.hand_max)
    assert bool(small.deadlocks) == bool(full.deadlocks)
