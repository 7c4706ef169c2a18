"""The symbolic engine at the real table: each property of a variant at the full deck,
timed as the whole command a user runs (medians of --runs runs, wall-clock).

For each player count N and property P it runs

    itcp-check check VARIANT --engine symbolic --full-deck --players N --property P --json

as a subprocess and prints the verdict, the evidence kind (inductive, ranking,
proof, bmc...) and the median wall time; with --together also the one command
with no --property (all nine in one run, what the issue's must-show command is).
The baseline in the same run is ``itcp-check rules --json`` (the program
starting and listing the rules, no solving): each figure is also given as a
multiple of it, so figures from two machines or two days can be compared.

    python -m bench.full_deck [--variant clarified] [--players 2..8] [--runs 3]
                              [--property P ...] [--together | --only-together]
                              [--timeout 900]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from itcp.spec.properties import property_ids

EXE = str(Path(sys.executable).parent / "itcp-check")


def timed(cmd: list[str], timeout: float) -> tuple[float, dict | None]:
    start = time.monotonic()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 120,
                             env=dict(os.environ, PYTHONHASHSEED="0"))
    except subprocess.TimeoutExpired:
        return time.monotonic() - start, None
    secs = time.monotonic() - start
    try:
        return secs, json.loads(out.stdout)
    except json.JSONDecodeError:
        return secs, None


def players_of(text: str) -> list[int]:
    lo, _, hi = text.partition("..")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="clarified")
    ap.add_argument("--players", default="8", help="N or LO..HI")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--property", action="append", default=None, choices=property_ids())
    ap.add_argument("--together", action="store_true",
                    help="also time the command with no --property (all nine at once)")
    ap.add_argument("--only-together", action="store_true",
                    help="time only the command with no --property, at each player count")
    args = ap.parse_args()
    together = 0.0
    base = [timed([EXE, "rules", "--json"], 60)[0] for _ in range(args.runs)]
    b = statistics.median(base)
    print(f"medians of {args.runs} run(s); baseline `itcp-check rules --json` {b:.2f} s")
    print(f"{'players':>7}  {'property':<14} {'verdict':<9} {'evidence':<10} "
          f"{'wall s':>8}  {'x base':>7}  runs")
    for n in players_of(args.players):
        todo = [] if args.only_together else [[p] for p in (args.property or property_ids())]
        if args.together or args.only_together:
            todo.append([])
        for props in todo:
            cmd = [EXE, "check", args.variant, "--engine", "symbolic", "--full-deck",
                   "--players", str(n), "--timeout", str(args.timeout), "--json"]
            for p in props:
                cmd += ["--property", p]
            runs = [timed(cmd, args.timeout) for _ in range(args.runs)]
            secs = statistics.median(s for s, _ in runs)
            last = runs[-1][1]
            if last is None:
                verdict, kind = "(no report)", ""
            elif props:
                v = last["properties"][0]
                verdict, kind = v["verdict"], v["evidence"].get("kind", "")
            else:
                got = [v["verdict"] for v in last["properties"]]
                verdict = f"{got.count('HOLDS')}/{len(got)} HOLDS"
                kind = ""
            name = props[0] if props else "all nine"
            together += 0.0 if props else secs
            print(f"{n:>7}  {name:<14} {verdict:<9} {kind:<10} {secs:8.1f}  {secs / b:7.1f}  "
                  + "/".join(f"{s:.1f}" for s, _ in runs), flush=True)
    if together:
        print(f"all nine at {args.players} players, the medians summed: {together:.1f} s "
              f"({together / 60:.1f} min)")


if __name__ == "__main__":
    main()
