"""A table's breadth-first levels: how many states each adds, how fast the
levels still grow, and the memory in use at the top of each.

What it is for: telling how big a table is before trying to exhaust it.  The
last levels printed (the growth factor still above or already below 1, the
bytes of memory per stored state) say whether the whole table can fit this
machine.  It runs the search the `itcp-check check` command runs (one process,
or ``--workers N`` parts), from the library, printing a line per level:

    depth  states in the level  states in all  growth  seconds  memory in use  peak

where the memory is the process's and its parts', each page they share counted
once (``cli.limits.in_use``): at the level's top, and the most seen while the
level was searched (sampled twice a second).  It stops at ``--max-memory`` (default: 80% of
the memory available when it starts; watched as the command watches it, so a
level is stopped midway) or ``--max-states``.

    python -m bench.levels --players 3 --suits 1 --ranks 2..3 --hand 2 --options all --workers 2
"""
from __future__ import annotations

import argparse
import threading
import time

from itcp.checks.explicit.explore import Limits
from itcp.checks.explicit.partitioned import search
from itcp.cli.check_cmd import start_table
from itcp.cli.common import load_with
from itcp.cli.limits import Budget, available_memory, in_use, parse_size, show_size
from itcp.model.engine.engine import Game
from tools.tableflags import add_table_arguments, table_flags


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="official")
    add_table_arguments(ap)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-states", type=int)
    ap.add_argument("--max-memory", type=parse_size, help="e.g. 18G (default: 80%% of what is free)")
    args = ap.parse_args(argv)
    flags = table_flags(args)
    cap = args.max_memory or int(0.8 * (available_memory() or 1 << 34))
    game = Game.from_variant(load_with(args.variant, start_table(flags)))
    print(f"{args.variant} {' '.join(f'--{k} {v}' for k, v in flags.items() if v is not None)} "
          f"--workers {args.workers}; memory cap {show_size(cap)}")
    print(f"{'depth':>5} {'level':>13} {'states':>14} {'growth':>7} {'seconds':>8} {'memory':>9}"
          f" {'B/state':>8} {'peak':>9}")
    seen = {"states": 0, "level": 0, "peak": 0}
    done = threading.Event()

    def sample():
        while not done.wait(0.5):
            seen["peak"] = max(seen["peak"], in_use())

    def level(states, depth, seconds):
        new = states - seen["states"]
        growth = f"{new / seen['level']:.2f}" if seen["level"] else "-"
        used = in_use()
        peak = max(seen["peak"], used)
        print(f"{depth:>5} {new:>13,} {states:>14,} {growth:>7} {seconds:>8.1f} "
              f"{show_size(used):>9} {used / max(states, 1):>8.0f} {show_size(peak):>9}", flush=True)
        seen.update(states=states, level=new, peak=0)

    start = time.monotonic()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with Budget(max_memory=cap) as budget:
        with budget.interruptible():
            ex = search(game, Limits(args.max_states), workers=args.workers, progress=level)
    done.set()
    why = budget.reason or ex.limit
    print(f"{'complete' if ex.complete else f'stopped ({why})'}: {ex.states:,} states, "
          f"depth {ex.depth}, {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
