"""The whole `itcp-check check` command in one process and spread over parts.

Times, as subprocesses started the way a user starts them,

    itcp-check check VARIANT TABLE --json --workers N     (N = 1, and each of --workers)

pair by pair in one run (each round runs every side, so the machine's load hits
every side alike): wall-clock and CPU seconds (user + system of the command and
its part processes, start-up and compilation included), the states per wall
second, and the speed-up (one process's wall time / the side's), medians over
the rounds.  Every side must print the same report but for its time: the run
stops if two differ.

With ``--against REV`` every side also runs at that revision (a temporary git
worktree, imported from there as bench/compile.py does), in the same rounds:
on a machine whose speed drifts from minute to minute, a change to the
partitioned search is judged by its times beside the revision's, not beside
figures taken another day.

The default table is clarified's at 2 players, 2 suits, ranks 2..3, hands of one,
Justice and Repentance, searched to depth 18 (11,591,688 states; the same on
every side: a depth limit stops one process and the parts at the same level):

    python -m bench.workers [--runs 3] [--workers 2] [--variant official] [--table "..."]
                            [--against REV]
"""
from __future__ import annotations

import argparse
import json
import shlex
import shutil
import statistics
import sys
from pathlib import Path

from bench.common import revision_tree, run, run_itcp

VARIANT = "clarified"
TABLE = "--players 2 --suits 2 --ranks 2..3 --hand 1 --options justice,repentance --depth 18"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, action="append", default=None,
                    help="part counts to time beside one process (repeatable; default 2)")
    ap.add_argument("--variant", default=VARIANT)
    ap.add_argument("--table", default=TABLE, help=f"the table flags (default: {TABLE!r})")
    ap.add_argument("--against", metavar="REV",
                    help="also time every side at this git revision, in the same rounds")
    args = ap.parse_args(argv)
    if args.against is None:
        return _time(args, {"": None})
    with revision_tree(args.against) as tree:
        return _time(args, {"this tree": None, args.against[:10]: tree})


def _time(args, trees: dict) -> int:
    """Time every part count at every tree (None: this one, as installed; else
    the folder to import ``itcp`` from), round by round."""
    exe = shutil.which("itcp-check") or str(Path(sys.executable).with_name("itcp-check"))
    counts = [1] + (args.workers or [2])
    flags = ["check", args.variant, *shlex.split(args.table), "--json"]
    print(f"command: {' '.join(flags)} --workers N")
    sides = [(tree, n) for tree in trees for n in counts]
    rows: dict[tuple, list] = {side: [] for side in sides}
    report = None
    for r in range(args.runs):
        for tree, n in sides:
            path = trees[tree]
            if path is None:
                cpu, wall, out = run([exe, *flags, "--workers", str(n)])
            else:
                cpu, wall, out = run_itcp(flags + ["--workers", str(n)], path)
            d = json.loads(out)
            states = d["stats"]["states"]
            d["stats"].pop("seconds")
            if report is None:
                report = d
            elif d != report:
                sys.exit(f"{tree} --workers {n} printed another report than the first side")
            rows[tree, n].append((cpu, wall, states))
            print(f"  round {r + 1}, {tree + ' ' if tree else ''}--workers {n}: {wall:.2f} s wall, "
                  f"{cpu:.2f} s CPU, {states:,} states", flush=True)
    assert report is not None
    print(f"\nmedians of {args.runs} ({report['stats']['states']:,} states, complete: "
          f"{report['stats']['complete']}):")
    for tree in trees:
        base = statistics.median(w for _, w, _ in rows[tree, 1])
        for n in counts:
            wall = statistics.median(w for _, w, _ in rows[tree, n])
            cpu = statistics.median(c for c, _, _ in rows[tree, n])
            states = rows[tree, n][0][2]
            print(f"  {tree + ' ' if tree else ''}--workers {n}: {wall:7.2f} s wall  "
                  f"{cpu:7.2f} s CPU  {states / wall:12,.0f} states/s  "
                  f"speed-up {base / wall:.2f}x")
    if len(trees) > 1:
        mine, other = list(trees)
        for n in counts:
            ratio = statistics.median(a[1] / b[1] for a, b in zip(rows[mine, n], rows[other, n]))
            print(f"  --workers {n}: this tree's wall time / {other}'s, pair by pair: "
                  f"{ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
