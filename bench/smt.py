"""The symbolic engine's speed, three figures (medians of --runs runs, wall-clock).

  induction  seconds for ``check clarified --engine symbolic --full-deck
             --players N --property P`` (N = 2, 4, 8; P = FROZEN, or each
             --property given): building the encoding, finding and proving the
             strengthening invariants, the minimised cores.  A run that does not
             end with HOLDS within --timeout is printed as such.
  bmc        the deepest BMC depth after the deal proved free of FROZEN violations
             within 60 s on the default small table (the one bare ``itcp-check``
             uses), for the clarified variant (where FROZEN holds, so BMC goes deep).
  conform    queries per second of the engine/Z3 conformance check on every
             reachable state of a tiny table (2 players, 1 suit, ranks 2..3, hand 1).

    python -m bench.smt [--runs 3] [--timeout 600] [--players 2,4,8] [--only induction]
                        [--property FROZEN]...
"""
from __future__ import annotations

import argparse
import statistics
import time

from itcp.checks.symbolic.checker import SymbolicChecker
from itcp.checks.symbolic.conformance import conformance, explored_states
from itcp.checks.symbolic.deadline import OutOfTime
from itcp.checks.symbolic.scout import forget_plans
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import DEFAULT_TABLE, overrides


def induction(players: int, timeout: float, pid: str = "FROZEN") -> tuple[float, str]:
    forget_plans()   # every run a cold proof, as one itcp-check command is
    start = time.monotonic()
    v = load_with("clarified", overrides({"full_deck": True, "players": players}))
    ch = SymbolicChecker(Game.from_variant(v), depth=0, timeout=timeout)
    verdict = ch.check(pid)
    return time.monotonic() - start, verdict.verdict


def bmc_depth(seconds: float) -> int:
    game = Game.from_variant(load_with("clarified", dict(DEFAULT_TABLE)))
    ch = SymbolicChecker(game, timeout=seconds)
    try:
        ch.bmc("FROZEN", 1000)
    except OutOfTime:
        pass
    return ch._bmc_done.get("FROZEN", -1)


def conform_rate() -> tuple[float, int]:
    game = Game.make(Config(players=2, suits=1, ranks=(2, 3), hand=1))
    states = list(explored_states(game))
    report = conformance(game, states)
    assert report.agree, "engine and Z3 disagree"
    return report.queries_per_second, report.queries


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--players", default="2,4,8")
    ap.add_argument("--only", choices=["induction", "bmc", "conform"], default=None)
    ap.add_argument("--property", action="append", default=None,
                    choices=["FROZEN", "CONSERVATION", "ZERO_STOPS", "TURN_DEFINED",
                             "SCORE_DEFINED"],
                    help="the property the induction figure proves (repeatable; "
                         "default FROZEN)")
    args = ap.parse_args()
    print(f"medians of {args.runs} run(s)")
    if args.only in (None, "induction"):
        for pid in args.property or ["FROZEN"]:
            for n in [int(x) for x in args.players.split(",")]:
                runs = [induction(n, args.timeout, pid) for _ in range(args.runs)]
                verdicts = sorted({v for _, v in runs})
                print(f"induction  {pid}, clarified, full deck, {n} players: "
                      f"{statistics.median(s for s, _ in runs):7.1f} s  "
                      f"({'/'.join(verdicts)}; runs: "
                      f"{', '.join(f'{s:.1f}' for s, _ in runs)})", flush=True)
    if args.only in (None, "bmc"):
        depths = [bmc_depth(60.0) for _ in range(args.runs)]
        print(f"bmc        FROZEN, clarified, default table, 60 s: depth "
              f"{statistics.median(depths):.0f}  (runs: {depths})", flush=True)
    if args.only in (None, "conform"):
        rates = [conform_rate() for _ in range(args.runs)]
        print(f"conform    tiny table, every reachable state: "
              f"{statistics.median(r for r, _ in rates):7.1f} queries/s  "
              f"({rates[0][1]} queries per run)", flush=True)


if __name__ == "__main__":
    main()
