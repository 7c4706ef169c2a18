"""The whole `itcp-check check` command in one process and spread over parts.

Times, as subprocesses started the way a user starts them,

    itcp-check check VARIANT TABLE --json --workers N     (N = 1, and each of --workers)

pair by pair in one run (each round runs every side, so the machine's load hits
every side alike): wall-clock and CPU seconds (user + system of the command and
its part processes, start-up and compilation included), the states per wall
second, and the speed-up (one process's wall time / the side's), medians over
the rounds.  Every side must print the same report but for its time: the run
stops if two differ.

The default table is clarified's at 2 players, 2 suits, ranks 2..3, hands of one,
Justice and Repentance, searched to depth 18 (11,591,688 states; the same on
every side: a depth limit stops one process and the parts at the same level):

    python bench/workers.py [--runs 3] [--workers 2] [--variant official] [--table "..."]
"""
from __future__ import annotations

import argparse
import json
import shlex
import shutil
import statistics
import sys
from pathlib import Path

from vs_baseline import run

VARIANT = "clarified"
TABLE = "--players 2 --suits 2 --ranks 2..3 --hand 1 --options justice,repentance --depth 18"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, action="append", default=None,
                    help="part counts to time beside one process (repeatable; default 2)")
    ap.add_argument("--variant", default=VARIANT)
    ap.add_argument("--table", default=TABLE, help=f"the table flags (default: {TABLE!r})")
    args = ap.parse_args(argv)
    exe = shutil.which("itcp-check") or str(Path(sys.executable).with_name("itcp-check"))
    counts = [1] + (args.workers or [2])
    cmd = [exe, "check", args.variant, *shlex.split(args.table), "--json"]
    print(f"command: {' '.join(cmd[1:])} --workers N")
    rows: dict[int, list] = {n: [] for n in counts}
    report = None
    for r in range(args.runs):
        for n in counts:
            cpu, wall, out = run(cmd + ["--workers", str(n)])
            d = json.loads(out)
            states = d["stats"]["states"]
            d["stats"].pop("seconds")
            if report is None:
                report = d
            elif d != report:
                sys.exit(f"--workers {n} printed another report than --workers {counts[0]}")
            rows[n].append((cpu, wall, states))
            print(f"  round {r + 1}, --workers {n}: {wall:.2f} s wall, {cpu:.2f} s CPU, "
                  f"{states:,} states", flush=True)
    assert report is not None
    print(f"\nmedians of {args.runs} ({report['stats']['states']:,} states, complete: "
          f"{report['stats']['complete']}):")
    base = statistics.median(w for _, w, _ in rows[1])
    for n in counts:
        wall = statistics.median(w for _, w, _ in rows[n])
        cpu = statistics.median(c for c, _, _ in rows[n])
        states = rows[n][0][2]
        print(f"  --workers {n}: {wall:7.2f} s wall  {cpu:7.2f} s CPU  "
              f"{states / wall:12,.0f} states/s  speed-up {base / wall:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
