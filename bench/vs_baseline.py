"""The whole `itcp-check check` command against the hand-written baseline.

Times, as subprocesses started the way a user starts them, the command

    itcp-check check official --players 2 --suits 2 --ranks 2..4 --hand 3 --options none
    (with and without --no-symmetry)

and ``python -m bench.baseline_bfs`` (a plain breadth-first search of the same
game written by hand), pair by pair in one run: each round runs the baseline
and then each form of the command, so the machine's load hits every side
alike.  Each side's time is its process's CPU time (user + system, from the
operating system's accounting of the child; start-up, imports and the
compilation of the spec included) and its wall-clock time; the ratios are
command / baseline, medians over the rounds.  The run also checks that the
command without symmetry reduction stores as many non-terminal states as the
baseline finds live positions (``states - terminal`` of ``--json``).

    python -m bench.vs_baseline [--runs 3] [--table "--players 2 --suits 2 --ranks 2..4 --hand 3"]
"""
from __future__ import annotations

import argparse
import json
import shlex
import shutil
import statistics
import sys
from pathlib import Path

from bench.common import run

TABLE = "--players 2 --suits 2 --ranks 2..4 --hand 3"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--table", default=TABLE, help=f"the table flags (default: {TABLE!r})")
    args = ap.parse_args(argv)
    exe = shutil.which("itcp-check") or str(Path(sys.executable).with_name("itcp-check"))
    table = shlex.split(args.table)
    sides = {
        "baseline": [sys.executable, "-m", "bench.baseline_bfs", *table, "--json"],
        "check": [exe, "check", "official", *table, "--options", "none", "--json"],
        "check --no-symmetry": [exe, "check", "official", *table, "--options", "none",
                                "--no-symmetry", "--json"],
    }
    times: dict = {k: [] for k in sides}
    outs: dict = {}
    for r in range(args.runs):
        for name, cmd in sides.items():
            cpu, wall, out = run(cmd)
            times[name].append((cpu, wall))
            outs[name] = out
            print(f"  round {r + 1}: {name:<20} {cpu:7.2f} s CPU {wall:7.2f} s wall", flush=True)
    base = json.loads(outs["baseline"])
    print(f"\n{'side':<22} {'CPU s':>8} {'wall s':>8} {'CPU ratio':>10} {'wall ratio':>11}  "
          f"(medians of {args.runs})")
    med = {k: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v))
           for k, v in times.items()}
    for name in sides:
        ratios = [c / b for (c, _), (b, _) in zip(times[name], times["baseline"])]
        wratios = [w / b for (_, w), (_, b) in zip(times[name], times["baseline"])]
        print(f"{name:<22} {med[name][0]:>8.2f} {med[name][1]:>8.2f} "
              f"{statistics.median(ratios):>10.2f} {statistics.median(wratios):>11.2f}")
    print()
    live = base["live_positions"]
    print(f"baseline: {live:,} live positions, {base['transitions']:,} moves, "
          f"depth {base['depth']} (a deck draw one move), round ends: {base['round_ends']}")
    for name in ("check", "check --no-symmetry"):
        stats = json.loads(outs[name])["stats"]
        nonterminal = stats["states"] - stats["terminal"]
        note = ""
        if name == "check --no-symmetry":
            note = ("  == baseline" if nonterminal == live else
                    f"  != baseline ({live:,}): the positions differ")
        print(f"{name}: {stats['states']:,} states ({stats['terminal']:,} terminal, "
              f"{nonterminal:,} not), {stats['transitions']:,} transitions, depth "
              f"{stats['depth']}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
