"""Explicit-state exploration speed and memory, on three tables of growing size.

For each table, with and without symmetry reduction, explores breadth-first
from every deal up to a state budget and prints the distinct states per second
(the median of several runs, CPU time of this process) and the bytes per stored
state: everything the search keeps (``Exploration.memory``: the key objects at
their allocated size, the visited set's table, the key list, the parent links,
the post-Pass edges and the pending edge targets at their peak; depths cost
nothing per state), then how the cost grows with the state count (rate at a
quarter, a half and all of the budget) and, for R1, the bytes by structure.
Before the timed runs, one untimed run compiles the successor functions the
search meets (a one-off cost per table, printed on its own).

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
    python bench/explore.py --whole    (R1 to the end, once, in a fresh process:
                                        CPU seconds, compile included, and peak RSS)
"""
from __future__ import annotations

import argparse
import resource
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


def measure(game: Game, budget: int | None, symmetry: bool, fast: bool = True, ex_out=None):
    start = time.process_time()
    ex = explore(game, Limits(max_states=budget), symmetry=symmetry, track_rules=False,
                 fast=fast)
    secs = time.process_time() - start
    if ex_out is not None:
        ex_out.append(ex)
    return ex.states, ex.states / secs, ex.bytes_per_state(), ex.complete


def warm_up(game: Game, budget: int | None, symmetry: bool) -> float:
    """One untimed search (it compiles the successor functions): its CPU seconds."""
    start = time.process_time()
    explore(game, Limits(max_states=budget), symmetry=symmetry, track_rules=False)
    return time.process_time() - start


def by_level(game: Game, budget: int):
    """(depth, new states, CPU seconds) of each level of one search."""
    rows, last = [], [0.0, 0]

    def progress(states, depth, _secs):
        now = time.process_time()
        rows.append((depth, states - last[1], now - last[0]))
        last[:] = [now, states]

    last[0] = time.process_time()
    explore(game, Limits(max_states=budget), symmetry=False, track_rules=False, progress=progress)
    return rows


def whole(game: Game):
    """All of R1 without symmetry, once (compile included): the process's peak
    resident size is the search's, as nothing else ran before it."""
    start = time.process_time()
    ex = explore(game, Limits(), symmetry=False, track_rules=False)
    secs = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"R1 to the end: {ex.states:,} states, {ex.transitions:,} moves, "
          f"{len(ex.post_pass_edges):,} post-Pass edges, complete: {ex.complete}")
    print(f"  {secs:.1f} s CPU (compile included): {ex.states / secs:,.0f} states/s, "
          f"{ex.bytes_per_state():.1f} bytes/state, peak resident size {peak:,.0f} MB")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", type=int, default=200_000,
                    help="distinct states per run for R1 and R2 (the default table runs to the end)")
    ap.add_argument("--whole", action="store_true",
                    help="explore all of R1 once and print its time and peak memory, nothing else")
    args = ap.parse_args()
    readings = dict(load_variant("official").readings)
    if args.whole:
        return whole(Game.make(TABLES["R1"], readings))
    print(f"{'table':<8} {'symmetry':<8} {'states':>9} {'states/s':>10} {'bytes/state':>11}  "
          f"complete     warm-up")
    kept, games = {}, {}
    for name, cfg in TABLES.items():
        game = games[name] = Game.make(cfg, readings)
        budget = None if name == "default" else args.budget
        for sym in (False, True):
            warm = warm_up(game, budget, sym)
            out = []
            runs = [measure(game, budget, sym, ex_out=out) for _ in range(args.runs)]
            if (name, sym) == ("R1", False):
                kept[name, sym] = out[-1]
            states = runs[0][0]
            rate = statistics.median(r[1] for r in runs)
            size = statistics.median(r[2] for r in runs)
            print(f"{name:<8} {'on' if sym else 'off':<8} {states:>9,} {rate:>10,.0f} {size:>11.0f}  "
                  f"{'yes' if runs[0][3] else 'no (budget)':<11}  {warm:.1f} s")
    ex = kept["R1", False]
    print("\nbytes per state by structure, R1 without symmetry:")
    for part, size in ex.memory().items():
        print(f"  {part:<16} {size / ex.states:>6.1f}")
    del kept, ex
    print("\ncost growth, R1 without symmetry (median of runs):")
    game = games["R1"]
    for frac in (4, 2, 1):
        budget = args.budget // frac
        rate = statistics.median(measure(game, budget, False)[1] for _ in range(args.runs))
        print(f"  {budget:>9,} states: {rate:>10,.0f} states/s")
    print("  by breadth-first level (one run; the deals are the first level's):")
    for d, new, secs in by_level(game, args.budget):
        print(f"  level {d:>2}: {new:>8,} new states in {secs * 1e3:>7.1f} ms: "
              f"{new / secs if secs else 0:>10,.0f} states/s")
    print("\nfast path vs generic engine path, R1 without symmetry (median of runs):")
    rates = {}
    for fast in (True, False):
        rates[fast] = statistics.median(measure(game, args.budget, False, fast)[1]
                                        for _ in range(args.runs))
        print(f"  {'fast' if fast else 'generic':<8} {rates[fast]:>10,.0f} states/s")
    print(f"  ratio    {rates[True] / rates[False]:>10.2f}x")


if __name__ == "__main__":
    main()
