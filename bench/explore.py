"""Explicit-state exploration speed and memory, on three tables of growing size.

For each table, with and without symmetry reduction, explores breadth-first
from every deal up to a state budget and prints the distinct states per second
(the median of several runs, CPU time of this process) and the bytes per stored
state (packed key, visited-set entry, parent link and depth), then how the cost
grows with the state count (rate at a quarter, a half and all of the budget).

  R1       2 players, 2 suits, ranks 2..4, hand 3, no option cards, literal readings
           (deck.exhausted = nothing, zero checked after every change and at the deal,
           one passer, a Desolation needs a same-suit top card): every deal an initial
           state, deck unordered, pile ordered.
  R2       3 players, 2 suits, ranks 2..2, hand 1, Unbelief and Pride Cycle.
  default  the table bare `itcp-check` checks (2 players, 2 suits, ranks 2..2, hand 1,
           Unbelief and Pride Cycle), official readings, explored to the end.

Every search takes the explorer's fast path (the packed successor functions of
model/packed.py); the last lines compare it with the generic engine path on R1
without symmetry and print the ratio.

    python bench/explore.py [--runs 3] [--budget 200000]
"""
from __future__ import annotations

import argparse
import statistics
import time

from itcp.checks.explore import Limits, explore
from itcp.model.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

TABLES = {
    "R1": Config(players=2, suits=2, ranks=(2, 4), hand=3),
    "R2": Config(players=3, suits=2, ranks=(2, 2), hand=1,
                 options=(("unbelief", 1), ("pride_cycle", 1))),
    "default": Config(players=2, suits=2, ranks=(2, 2), hand=1,
                      options=(("unbelief", 1), ("pride_cycle", 1))),
}


def measure(game: Game, budget: int | None, symmetry: bool, fast: bool = True):
    start = time.process_time()
    ex = explore(game, Limits(max_states=budget), symmetry=symmetry, track_rules=False,
                 fast=fast)
    secs = time.process_time() - start
    return ex.states, ex.states / secs, ex.bytes_per_state(), ex.complete


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", type=int, default=200_000,
                    help="distinct states per run for R1 and R2 (the default table runs to the end)")
    args = ap.parse_args()
    readings = dict(load_variant("official").readings)
    print(f"{'table':<8} {'symmetry':<8} {'states':>9} {'states/s':>10} {'bytes/state':>11}  complete")
    for name, cfg in TABLES.items():
        game = Game.make(cfg, readings)
        budget = None if name == "default" else args.budget
        for sym in (False, True):
            runs = [measure(game, budget, sym) for _ in range(args.runs)]
            states = runs[0][0]
            rate = statistics.median(r[1] for r in runs)
            size = statistics.median(r[2] for r in runs)
            print(f"{name:<8} {'on' if sym else 'off':<8} {states:>9,} {rate:>10,.0f} {size:>11.0f}  "
                  f"{'yes' if runs[0][3] else 'no (budget)'}")
    print("\ncost growth, R1 without symmetry (median of runs):")
    game = Game.make(TABLES["R1"], readings)
    for frac in (4, 2, 1):
        budget = args.budget // frac
        rate = statistics.median(measure(game, budget, False)[1] for _ in range(args.runs))
        print(f"  {budget:>9,} states: {rate:>10,.0f} states/s")
    print("\nfast path vs generic engine path, R1 without symmetry (median of runs):")
    rates = {}
    for fast in (True, False):
        rates[fast] = statistics.median(measure(game, args.budget, False, fast)[1]
                                        for _ in range(args.runs))
        print(f"  {'fast' if fast else 'generic':<8} {rates[fast]:>10,.0f} states/s")
    print(f"  ratio    {rates[True] / rates[False]:>10.2f}x")


if __name__ == "__main__":
    main()
