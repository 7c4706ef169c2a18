"""Random playouts: deal, then play uniformly random legal moves until the round ends.

``simulate(game, rounds, seed)`` is a smoke test and a profiler, not a proof:
it shows how rounds tend to end under a variant, which rules fire how often,
how fast the engine runs, and (most usefully) where random play gets stuck or
never ends.  It is deterministic for a given seed: one ``random.Random(seed)``
draws every deal, every chance outcome and every player choice.

A round ends in one of five ways (``ENDINGS``): the three the rules know
(``game.describe(s)["ended"]``: "pass reached", "zero", "deck exhausted"), or
"stuck" (a live state with no legal move at all), or "step cap" (``max_steps``
moves without the round ending: typically a round that can go on forever).
"""
from __future__ import annotations

import random
import time
from collections import Counter

from . import runtime
from .engine import Game

#: Every way a simulated round can end, in report order.
RULE_ENDINGS = ("pass reached", "zero", "deck exhausted")
ENDINGS = RULE_ENDINGS + ("stuck", "step cap")

#: How many stuck / step-capped rounds to keep as examples.
MAX_EXAMPLES = 3


def _example(game: Game, round_no: int, steps: int, s, last) -> dict:
    return {
        "round": round_no,
        "steps": steps,
        "last_action": game.action_str(last) if last is not None else None,
        "state": game.describe(s),
    }


def random_states(game: Game, rng: random.Random, max_steps: int = 2000):
    """The states of one random round, from its deal: each legal move (and chance
    outcome) drawn uniformly by ``rng``, until the round ends, no move is legal, or
    ``max_steps`` moves were made."""
    s = game.deal(rng)
    yield s
    for _ in range(max_steps):
        if game.is_terminal(s):
            return
        if game.is_chance(s):
            a = game.sample_chance(s, rng)
        else:
            acts = game.legal_actions(s)
            if not acts:
                return
            a = rng.choice(acts)
        s = game.apply(s, a, validate=False)
        yield s


def play_round(game: Game, rng: random.Random, max_steps: int = 2000,
               firings: Counter | None = None, record: dict | None = None):
    """One random round: ``(ending, steps, final state, last action)``.

    ``firings`` (if given) counts, per rule id, the steps the rule took part in;
    ``record`` (if given) receives ``first``, the seat to play after the deal.
    """
    s = game.deal(rng)
    if record is not None:
        record["first"] = game.get(s, "turn")
    last = None
    for step in range(max_steps):
        if game.is_terminal(s):
            return game.describe(s)["ended"], step, s, last
        if game.is_chance(s):
            a = game.sample_chance(s, rng)
        else:
            acts = game.legal_actions(s)
            if not acts:
                return "stuck", step, s, last
            a = rng.choice(acts)
        s2 = game.apply(s, a, validate=False)
        if firings is not None:
            firings.update(set(game.fired(s, a, s2)))
        s, last = s2, a
    if game.is_terminal(s):
        return game.describe(s)["ended"], max_steps, s, last
    if not game.is_chance(s) and not game.legal_actions(s):
        return "stuck", max_steps, s, last
    return "step cap", max_steps, s, last


def round_record(game: Game, ending: str, steps: int, s, first: int) -> dict:
    """One round in numbers: how it ended, its length, each seat's score at the end
    (the spec's scoring, as if the round were scored there), who played first and
    who passed (the first passer, or -1)."""
    return {"ending": ending, "steps": steps, "scores": list(game.scores(s)),
            "first": first, "first_passer": game.get(s, "first_passer"),
            "passers": runtime.bits(game.get(s, "passers"))}


def simulate(game: Game, rounds: int, seed: int, max_steps: int = 2000,
             track_rules: bool = True, records: list | None = None) -> dict:
    """Play ``rounds`` random rounds and report how they went (a JSON-able dict).
    ``records`` (if given) receives one ``round_record`` per round: the same
    rounds, the same random draws."""
    if rounds < 0:
        raise ValueError("rounds must be >= 0")
    if max_steps < 1:
        raise ValueError("max_steps must be >= 1")
    rng = random.Random(seed)
    endings: Counter = Counter({e: 0 for e in ENDINGS})
    firings: Counter = Counter()
    examples: dict[str, list] = {"stuck": [], "step cap": []}
    lengths: list[int] = []
    total = 0
    start = time.perf_counter()
    for r in range(rounds):
        rec: dict | None = {} if records is not None else None
        ending, steps, s, last = play_round(game, rng, max_steps,
                                            firings if track_rules else None, rec)
        if records is not None:
            assert rec is not None  # made above for records
            records.append(round_record(game, ending, steps, s, rec["first"]))
        endings[ending] += 1
        lengths.append(steps)
        total += steps
        if ending in examples and len(examples[ending]) < MAX_EXAMPLES:
            examples[ending].append(_example(game, r, steps, s, last))
    seconds = time.perf_counter() - start
    return {
        "config": game.config.as_dict(),
        "readings": dict(sorted(game.spec.readings.items())),
        "seed": seed,
        "max_steps": max_steps,
        "rounds": rounds,
        "steps": total,
        "seconds": round(seconds, 6),
        "steps_per_second": round(total / seconds, 1) if seconds > 0 else 0.0,
        "endings": {e: endings[e] for e in sorted(endings, key=_ending_order)},
        "mean_round_length": round(total / rounds, 3) if rounds else 0.0,
        "max_round_length": max(lengths, default=0),
        "rule_firings": dict(sorted(firings.items(), key=lambda kv: (-kv[1], kv[0]))),
        "stuck_examples": examples["stuck"],
        "step_cap_examples": examples["step cap"],
    }


def _ending_order(e: str):
    return (ENDINGS.index(e) if e in ENDINGS else len(ENDINGS), e)


__all__ = ["simulate", "play_round", "round_record", "ENDINGS", "RULE_ENDINGS"]
