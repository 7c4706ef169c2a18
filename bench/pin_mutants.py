"""For each surviving mutant of the spec, a round it plays differently, as a scenario.

    python bench/pin_mutants.py --survivors-of RESULTS [--out scenarios/pinned]

A mutant survives when no check sees it (``bench/mutate_spec.py``).  This looks
for a round that tells it from the spec: at small tables (1 suit, ranks 2..3,
hands of 2, 2 and 3 players, random sets of option cards, under ``official`` with
the mutated rule's reading), random rounds are played on the spec and on the
mutant side by side, the same moves on both, until the two disagree:

* a move the spec allows is refused by the mutant: the scenario plays it, and
  expects the spec's state after it;
* the mutant allows a move the spec refuses: the scenario ends with it and
  expects it refused (``illegal_at``);
* the state's facts differ (turn, actor, phase, how the round ended, passers,
  pile, deck, hands, scores): the scenario expects the spec's.

Each trace is written as a scenario (``scenarios/format.py``'s ``from_trace``)
named after the mutant, never over an existing file.  The scenario is made from
the spec itself: it *pins* the rule as the spec states it (a later change of
that rule fails it), it does not judge whether the rule reads the rulebook
right; that is what the library's hand-written scenarios do.  A mutant for
which no round is found within ``--rounds`` per table is not shown to be
equivalent: the search is random and the tables small.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

from itcp.checks.mutants import mutant_spec, mutants_of
from itcp.model.engine import Game, build_spec
from itcp.scenarios.format import from_trace, to_toml
from itcp.scenarios.replay import facts
from itcp.spec.config import OPTION_VALUES
from itcp.spec.errors import InputError
from itcp.spec.lang import SpecError
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import load_variant

REPO = Path(__file__).resolve().parent.parent
OPTIONS = tuple(OPTION_VALUES)  # the option cards, as the spec's configuration names them
#: moves per round at most (a round that runs longer is dropped)
MAX_MOVES = 40


def tables(rng: random.Random, per_size: int):
    """Small tables, two and three players, with random sets of option cards."""
    for players in (2, 3):
        for k in range(1, 5):
            for _ in range(per_size):
                yield {"players": players, "suits": 1, "ranks": (2, 3), "hand": 2,
                       "options": tuple(rng.sample(OPTIONS, k))}


def difference(g: Game, gm: Game, rng: random.Random, rounds: int):
    """(kind, states, actions) of the first disagreement met in ``rounds`` random
    rounds, or None.  ``states[i]`` leads by ``actions[i]`` to ``states[i + 1]``
    on the spec (the last action, for kind "illegal", is the mutant's)."""
    for _ in range(rounds):
        s0 = g.initial_state()
        deal = g.sample_chance(s0, rng)
        s, sm = g.apply(s0, deal, validate=False), gm.apply(s0, deal, validate=False)
        states, acts = [s0, s], [deal]
        for _ in range(MAX_MOVES):
            if facts(g, s) != facts(gm, sm):
                return "facts", states, acts
            if g.is_terminal(s):
                break
            legal, theirs = g.legal_actions(s), gm.legal_actions(sm)
            extra = [a for a in theirs if a not in legal]
            if extra:
                return "illegal", states, acts + [extra[0]]
            missing = [a for a in legal if a not in theirs]
            if missing:
                return "refused", states + [g.apply(s, missing[0], validate=False)], \
                    acts + [missing[0]]
            if not legal:
                break
            a = g.sample_chance(s, rng) if g.is_chance(s) else rng.choice(legal)
            s, sm = g.apply(s, a, validate=False), gm.apply(sm, a, validate=False)
            states.append(s)
            acts.append(a)
    return None


WHAT = {"facts": "the state's facts differ from the spec's after the last move",
        "illegal": "its last move, refused by the spec, is allowed by the mutant",
        "refused": "its last move, allowed by the spec, is refused by the mutant"}


def scenario(v, g: Game, mutant_id: str, kind: str, states, acts) -> str:
    expect = {"illegal_at": len(acts) - 1} if kind == "illegal" else facts(g, states[-1])
    rule = mutant_id.split()[1]
    sc = from_trace("official", v.config, g, states, acts, expect,
                    title=f"Pins {rule}: a round where it decides the outcome",
                    question=f"Generated from the spec (bench/pin_mutants.py) for the "
                             f"mutant `{mutant_id}`: {WHAT[kind]}.")
    return to_toml(sc)


def slug(mutant_id: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", mutant_id.lower()).strip("-")[:120]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--survivors-of", required=True, metavar="RESULTS",
                    help="a results file of bench/mutate_spec.py")
    ap.add_argument("--out", default=str(REPO / "scenarios" / "pinned"))
    ap.add_argument("--rounds", type=int, default=300, help="random rounds per table")
    ap.add_argument("--tables", type=int, default=2, help="tables per player count and size")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    rows = [json.loads(x) for x in Path(a.survivors_of).read_text().splitlines() if x.strip()]
    want = {r["id"] for r in rows if r.get("status") in ("survived", "timeout")}
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(a.seed)
    found: set[str] = set()
    for table in tables(rng, a.tables):
        if found == want:
            break
        try:
            v = load_variant("official", table)
        except InputError:  # too few cards for the hands (three players, one option)
            continue
        rs = build_ruleset(v.config)
        by_id = {m.id: m for m in mutants_of(rs)}
        for mid in sorted(want - found):
            m = by_id.get(mid)
            if m is None:
                continue
            rule = next(r for r in rs.rules if r.id == m.rule)
            readings = dict(v.readings)
            if rule.choice:
                readings[rule.choice] = rule.reading
            base = build_spec(v.config, readings)
            try:
                ms = mutant_spec(base, rs, m)
            except SpecError:
                continue
            if ms is None:
                continue
            g = Game(base)
            hit = difference(g, Game(ms), rng, a.rounds)
            if hit is None:
                continue
            path = out / f"{slug(mid)}.toml"
            if path.exists():
                print(f"kept {path} (exists)", file=sys.stderr)
                found.add(mid)
                continue
            try:
                text = scenario(v, g, mid, *hit)
            except InputError as e:
                print(f"not saved: {mid}: {e}", file=sys.stderr)
                continue
            path.write_text(text, encoding="utf-8")
            found.add(mid)
            print(f"{hit[0]:<8} {len(hit[2]):3d} moves  {mid}", file=sys.stderr, flush=True)
    print(f"{len(found)} of {len(want)} survivors pinned in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
