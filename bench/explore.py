"""Explicit-state exploration speed and memory, up to 10 million states and more.

Each measurement runs in a fresh process (so nothing compiled before helps):
one search, its CPU time from the start of ``explore`` (the spec's reduction
and the successor code's compilation included) to its end, the distinct
states per CPU second, the bytes per stored state (``Exploration.memory``:
the keys, the visited set's table, the parent links, the post-Pass edges, the
chance outcomes waiting for a later level at their peak, the deals), and the
process's peak resident size.  Medians over ``--runs`` runs.

  BIG      2 players, 1 suit, ranks 2..3, hand 2, every option card, official
           readings: explored to ``--budget`` states (default 10,500,000).
  R1       2 players, 2 suits, ranks 2..4, hand 3, no option cards, official
           readings: explored to the end, with and without symmetry reduction.

The last lines compare the batch successor code with the generic engine path
on the first states of R1 (without symmetry) and print the ratio.

    python -m bench.explore [--runs 3] [--budget 10500000]
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

from bench.common import REPO
from itcp.checks.explicit.explore import Limits, explore
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

ALL = tuple((o, 1) for o in ("mercy", "justice", "repentance", "unbelief", "pride_cycle",
                             "secret_combination"))
TABLES = {
    "BIG": dict(players=2, suits=1, ranks=(2, 3), hand=2, options=ALL),
    "R1": dict(players=2, suits=2, ranks=(2, 4), hand=3),
}


def one(table: str, budget: int | None, symmetry: bool, fast: bool) -> dict:
    """One search in this process: its figures."""
    game = Game.make(Config(**TABLES[table]), dict(load_variant("official").readings))
    start = time.process_time()
    ex = explore(game, Limits(max_states=budget), symmetry=symmetry, track_rules=False,
                 fast=fast)
    secs = time.process_time() - start
    return {"states": ex.states, "terminal": ex.terminal, "transitions": ex.transitions,
            "complete": ex.complete, "cpu": secs, "rate": ex.states / secs,
            "bytes": ex.bytes_per_state(),
            "parts": {k: v / ex.states for k, v in ex.memory().items()},
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def measure(table, budget, symmetry, fast, runs) -> list[dict]:
    out = []
    for _ in range(runs):
        args = [sys.executable, "-m", "bench.explore", "--one", table, "--budget", str(budget or 0)]
        args += ["--symmetry"] if symmetry else []
        args += [] if fast else ["--generic"]
        r = subprocess.run(args, capture_output=True, text=True, check=True, cwd=REPO)
        out.append(json.loads(r.stdout))
    return out


def show(name, rows):
    med = lambda k: statistics.median(r[k] for r in rows)  # noqa: E731
    r0 = rows[0]
    print(f"{name:<22} {r0['states']:>11,} {'yes' if r0['complete'] else 'no':>8} "
          f"{med('cpu'):>8.1f} {med('rate'):>11,.0f} {med('bytes'):>11.1f} {med('peak_mb'):>9,.0f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", type=int, default=10_500_000,
                    help="states to explore of BIG (0: to the end)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--symmetry", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--generic", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.budget or None, args.symmetry, not args.generic)))
        return
    print(f"medians of {args.runs} runs, each in a fresh process (CPU seconds of the search, "
          "reduction and compilation included)")
    print(f"{'search':<22} {'states':>11} {'complete':>8} {'CPU s':>8} {'states/s':>11} "
          f"{'bytes/state':>11} {'peak MB':>9}")
    big = measure("BIG", args.budget or None, False, True, args.runs)
    show("BIG", big)
    for sym in (False, True):
        show(f"R1 {'symmetry' if sym else 'no symmetry'}", measure("R1", None, sym, True, args.runs))
    print("\nbytes per state by structure, BIG (first run):")
    for part, size in big[0]["parts"].items():
        print(f"  {part:<18} {size:>6.1f}")
    print("\nbatch code vs generic engine path, the first 50,000 states of R1 (no symmetry):")
    fast = measure("R1", 50_000, False, True, args.runs)
    slow = measure("R1", 50_000, False, False, args.runs)
    rf = statistics.median(r["rate"] for r in fast)
    rs = statistics.median(r["rate"] for r in slow)
    print(f"  batch   {rf:>10,.0f} states/s\n  generic {rs:>10,.0f} states/s\n  ratio   {rf / rs:>10.1f}x")


if __name__ == "__main__":
    main()
