"""Readings that reshape a turn: a Justice answer, Mercy's race with every racer.

Each walk checks the rule against bookkeeping the test keeps from the moves
alone (as ``test_fidelity.py`` does), at a small table:

* under every ``justice.duty`` reading, playing a Justice or Mercy against the
  duty (``answer``) is legal only at the start of a turn, with the Justice that
  set the duty on top of the pile (under ``until`` it was once legal for any
  card at any turn);
* under ``justice.answer = draw_only`` the answerer then discards, and the duty
  an answered Justice sets still binds the next player when that turn ends;
* under ``mercy.discards = every_racer`` a race gives each player at most one
  discard, and races where several players discard are reached.
"""
from __future__ import annotations

from collections import deque

from itcp.model.engine.engine import Game
from itcp.scenarios.format import loads
from itcp.scenarios.replay import replay
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.config import Config
from itcp.spec.rules.vocabulary import DISCARD, DRAW, RACE
from itcp.spec.variants import parse_options

DRAWS = ("draw_pile", "draw_deck", "deck_card")


def game(options, players=2, ranks=(2, 3), suits=1, hand=1, **readings) -> Game:
    cfg = Config(players=players, suits=suits, ranks=ranks, hand=hand,
                 options=parse_options(options))
    return Game.make(cfg, readings)


def walk(g: Game, limit: int = 150_000):
    """Every reachable (state, has the turn player drawn this turn) with each
    transition, breadth-first: yields ``(s, drew, action, s2)``."""
    start = [(s, False) for s in g.initial_states()]
    seen = set(start)
    queue = deque(start)
    while queue and len(seen) < limit:
        s, drew = queue.popleft()
        for a, s2 in g.successors(s):
            yield s, drew, a, s2
            d2 = drew or a[0] in DRAWS
            if a[0] not in DRAWS and s2[0] == DRAW:  # a new turn begins
                d2 = False
            if (s2, d2) not in seen:
                seen.add((s2, d2))
                queue.append((s2, d2))


def test_an_answer_needs_the_justice_on_top_at_the_start_of_a_turn():
    for duty in CHOICE_POINTS["justice.duty"].reading_ids:
        g = game("justice=2,mercy", **{"justice.duty": duty})
        pile, justices = g.index["pile"], g.spec.config.mask(lambda c: c.kind == "justice")
        answers = 0
        for s, drew, a, _ in walk(g, limit=20_000):
            if a[0] == "answer":
                answers += 1
                assert not drew and justices >> s[pile][-1] & 1, (duty, g.describe(s), a)
        assert answers, f"{duty}: no answer reached: the test checked nothing"


def test_a_draw_only_answer_is_followed_by_the_answerers_discard():
    g = game("justice=2,mercy", hand=2, **{"justice.answer": "draw_only"})
    actor, seen = g.index["actor"], 0
    for s, _, a, s2 in walk(g, limit=20_000):
        if a[0] == "answer" and s2[0] == DISCARD:
            seen += 1
            assert s2[actor] == s[actor], (g.describe(s), a)
        assert not (a[0] == "answer" and s2[0] == DRAW), (g.describe(s), a)
    assert seen


DUTY_OUTLASTS = """
title = "a duty set by a Justice answer outlasts the answerer's discard"
variant = "official"
[readings]
"justice.answer" = "draw_only"
[config]
players = 2
suits = 2
ranks = "2..2"
hand = 3
options = ["justice=2", "mercy"]
[deal]
hands = [["red 2", "blue 2", "Justice"], ["red Desolation", "blue Desolation", "Mercy"]]
up = "Justice#2"
[[move]]
player = 1
action = "draw_pile"
[[move]]
player = 1
action = "discard"
card = "Justice#2"
[[move]]
player = 0
action = "answer"
card = "Justice"
[[move]]
player = 0
action = "discard"
card = "red 2"
[[move]]
player = 1
action = "pass"
[expect]
illegal_at = 5
rule = "justice.pass.not_allowed"
"""


def test_a_duty_set_by_a_draw_only_answer_binds_the_next_player():
    res = replay(loads(DUTY_OUTLASTS))
    assert res.ok, res.message


def test_every_racer_discards_at_most_once_per_race():
    g = game("mercy", suits=2, ranks=(2, 2), hand=2, **{"mercy.discards": "every_racer"})
    opened = {s2 for s, _, a, s2 in walk(g) if s[0] != RACE and s2[0] == RACE}
    assert opened, "no race reached"
    longest = 0
    for start in opened:
        stack = [(start, frozenset())]
        while stack:
            s, picked = stack.pop()
            for a, s2 in g.successors(s):      # chance picks who discards next
                w = a[1][0]
                assert w not in picked, (g.describe(start), sorted(picked), w)
                now = picked | {w}
                longest = max(longest, len(now))
                for _, s3 in g.successors(s2):  # that racer's discard
                    if s3[0] == RACE:           # the race goes on
                        stack.append((s3, now))
    assert longest >= 2, "no race with two discards: the test checked nothing"
