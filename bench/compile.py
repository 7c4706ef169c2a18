"""Commands that mostly compile the spec or tell stories, against another revision.

Most of a small check's time, and of the test suite's, is spent turning the
spec into code (elaborating a variant, inlining its definitions, generating
the engine, specialising the explorer's successor code) and telling the
shortest traces as stories (naming, per step, the rules and readings that
decided it: ``model/engine/steprules.py``).  This times whole
commands, each started as a user starts it (a fresh process: start-up, imports
and every compilation included), at the working tree and at the revision
``--against`` (checked out into a temporary git worktree and imported from
there), pair by pair in one run so the machine's load hits both sides alike:

    itcp-check rules clarified --full-deck --dump-engine
    itcp-check rules clarified TABLE --dump-successors
    itcp-check check clarified TABLE
    itcp-check                                  (the Quick start: three stories)
    itcp-check ask "can the passer's hand change" official     (a witness told)
    itcp-check disputes --out rulings.md          (every dispute answered and told)

with TABLE = 3 players, 1 suit, rank 2, hands of 1, Mercy, Justice and Pride
Cycle (a search of a few thousand states: the compilation is most of it).
Each side's time is its process's CPU time (user + system, from the operating
system's accounting of the child) and its wall-clock time; the ratios are
this tree / the other revision, medians over the rounds.  The run also checks
that both sides print the same thing (the generated sources, the verdicts),
timings and the generated sources' comments aside; both run with one
string-hash seed (PYTHONHASHSEED=0), since revisions before the fix of the
shared-terms pass generated successor code in an order that followed string
hashes.

    python -m bench.compile --against REV [--runs 3]
"""
from __future__ import annotations

import argparse
import re
import shlex
import statistics
import sys

from bench.common import revision_tree, run_itcp

TABLE = "--players 3 --suits 1 --ranks 2..2 --hand 1 --options mercy,justice,pride-cycle"
COMMANDS = {
    "rules --dump-engine (full deck)": "rules clarified --full-deck --dump-engine",
    "rules --dump-successors": f"rules clarified {TABLE} --dump-successors",
    "check (three option cards)": f"check clarified {TABLE}",
    "itcp-check (Quick start)": "",
    "ask (a witness)": "ask \"can the passer's hand change\" official",
    "disputes (the rulings document)": "disputes --out rulings.md",
}
#: what differs between two runs of one command: timings
TIMING = re.compile(r"\d+(\.\d+)?\s*(s|ms|seconds)\b|\d+:\d\d")
#: what a dump of generated code may differ by between revisions: the comment lines
#: naming each fragment's rule (revisions before them have none)
COMMENT = re.compile(r"^[ \t]*# .*\n", re.M)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="the git revision to compare with")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    with revision_tree(args.against) as tree:
        return _compare(args.against, tree, args.runs)


def _compare(rev: str, other: str, runs: int) -> int:
    sides = {"this tree": None, rev: other}
    times: dict = {(c, s): [] for c in COMMANDS for s in sides}
    outs: dict = {}
    for r in range(runs):
        for cname, cmd in COMMANDS.items():
            for side, path in sides.items():
                cpu, wall, out = run_itcp(shlex.split(cmd), path)
                times[(cname, side)].append((cpu, wall))
                out = COMMENT.sub("", out) if "--dump" in cmd else out
                outs[(cname, side)] = TIMING.sub("<time>", out)
                print(f"  round {r + 1}: {cname:<34} {side:<10} {cpu:7.2f} s CPU "
                      f"{wall:7.2f} s wall", flush=True)
    print(f"\n{'command':<34} {'CPU s':>8} {rev[:10]:>10} {'ratio':>6} {'wall s':>8} "
          f"{rev[:10]:>10} {'ratio':>6}  same output  (medians of {runs})")
    for cname in COMMANDS:
        mine, theirs = times[(cname, "this tree")], times[(cname, rev)]
        cpu = statistics.median(c for c, _ in mine), statistics.median(c for c, _ in theirs)
        wall = statistics.median(w for _, w in mine), statistics.median(w for _, w in theirs)
        ratio = statistics.median(a / b for (a, _), (b, _) in zip(mine, theirs))
        wratio = statistics.median(a / b for (_, a), (_, b) in zip(mine, theirs))
        same = "yes" if outs[(cname, "this tree")] == outs[(cname, rev)] else "NO"
        print(f"{cname:<34} {cpu[0]:>8.2f} {cpu[1]:>10.2f} {ratio:>6.2f} {wall[0]:>8.2f} "
              f"{wall[1]:>10.2f} {wratio:>6.2f}  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
