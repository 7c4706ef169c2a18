"""The four rules that once did what their docstrings said they don't.

Each test walks every reachable state of a small table through the public
``Game`` API and checks the rule against bookkeeping the test keeps itself,
from the moves alone (never from the spec's own variables): what the turn
player drew and took from the pile this turn.  Each failed on the old rule:

* A. Pass is said instead of drawing: never after a draw of the same turn
  (it was legal after a deck draw under a Justice duty);
* B. under ``pride.timing = simultaneous`` no hand changes until every card
  moves (choosing a gift took it out of the hand, and the zero rule ended the
  round with the gifts in transit);
* C. ``turn.take_back = not_allowed`` bans every card taken from the pile this
  turn (a second pile draw made the first card discardable again);
* D. whoever may win Mercy's race has a legal discard once they have won it
  (eligibility ignored the take-back ban the race discard obeys).

The library scenarios ``pass-only-before-drawing``,
``pride-simultaneous-zero-after-exchange``, ``take-back-every-card-taken`` and
``mercy-race-needs-a-legal-discard`` show one play of each.
"""
from __future__ import annotations

from collections import deque

from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.rules.vocabulary import DRAW, PRIDE, RACE
from itcp.spec.variants import parse_options

DRAWS = ("draw_pile", "draw_deck", "deck_card")


def game(options, players=2, ranks=(2, 3), suits=1, hand=1, **readings) -> Game:
    cfg = Config(players=players, suits=suits, ranks=ranks, hand=hand,
                 options=parse_options(options))
    return Game.make(cfg, readings)


def walk(g: Game, limit: int = 150_000):
    """Every reachable (state, what the turn player drew and took this turn),
    with each transition: yields ``(s, drew, taken, action, s2)``."""
    ix = g.index
    start = [(s, False, 0) for s in g.initial_states()]
    seen = set(start)
    queue = deque(start)
    while queue and len(seen) < limit:
        s, drew, taken = node = queue.popleft()
        for a, s2 in g.successors(s):
            yield s, drew, taken, a, s2
            if a[0] == "draw_pile":
                d2, t2 = True, taken | 1 << s[ix["pile"]][-1]
            elif a[0] in DRAWS:
                d2, t2 = a[0] == "deck_card" or drew, taken
            else:
                d2, t2 = drew, taken
            if a[0] not in DRAWS and s2[0] == DRAW:  # a new turn begins
                d2, t2 = False, 0
            nxt = (s2, d2, t2)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen, node


def test_a_pass_is_never_legal_after_a_draw_of_the_same_turn():
    for duty in ("play_or_extra", "stacking", "until"):
        g = game("justice=2", **{"justice.duty": duty})
        for s, drew, _, a, _ in walk(g):
            assert not (a[0] == "pass" and drew), (duty, g.describe(s))


def test_a_simultaneous_pride_cycle_changes_no_hand_before_every_card_moves():
    for players, suits, ranks, hand in ((2, 2, (2, 2), 2), (3, 1, (2, 3), 1)):
        g = game("pride_cycle", players=players, ranks=ranks, suits=suits, hand=hand,
                 **{"pride.timing": "simultaneous", "zero.when": "every_change"})
        hands = g.index["hands"]
        exchanges = 0
        for s, _, _, a, s2 in walk(g):
            if a[0] in ("give", "give_nothing") and s2[0] == PRIDE:
                assert s2[hands] == s[hands], (g.describe(s), a)
            if a[0] == "give" and s2[0] != PRIDE:
                exchanges += 1
        assert exchanges, "no exchange completed: the test checked nothing"


def test_no_card_taken_from_the_pile_this_turn_is_discarded_under_the_ban():
    g = game("justice=2", **{"turn.take_back": "not_allowed",
                             "justice.duty": "play_or_extra"})
    second_takes = 0
    for s, _, taken, a, _ in walk(g):
        if a[0] == "discard" and s[g.index["actor"]] == s[g.index["turn"]]:
            assert not taken >> a[1][0] & 1, (g.describe(s), a)
        if a[0] == "draw_pile" and taken:
            second_takes += 1
    assert second_takes, "no second pile draw in a turn: the test checked nothing"


def test_a_mercy_race_winner_always_has_a_legal_discard():
    for take_back in ("allowed", "not_allowed"):
        g = game("mercy,justice", suits=1, **{"turn.take_back": take_back})
        races = 0
        for s, _, _, a, s2 in walk(g):
            if s[0] == RACE:
                races += 1
                assert g.legal_actions(s2), (take_back, g.describe(s), a)
        assert races, "no race reached: the test checked nothing"
