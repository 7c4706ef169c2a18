"""Random rounds at scale: the engine never raises, and agrees with the reference.

    python -m tools.fuzz --rounds 1000000 --workers 2 --seed 1

Plays seeded random rounds across every shipped variant, 2 to 8 players and
random tables (suits, ranks, hand size, a random subset of the option cards
with one or two copies each), in parallel worker processes.  In every state it
checks every state property of the spec, on every move every step property; a
sample of the rounds (``--sample``) is replayed move by move by the reference
evaluator (``model/engine/reference.py``), which must give the same legal moves, the
same successors, the same property verdicts and the same scores.

Round ``r`` is a function of ``(seed, r)`` alone, whatever the number of
workers: ``--round R`` replays one round and prints it.  The tables are drawn
from a pool of ``--tables`` random tables per seed (each compiled once per
worker); a round picks its table, its random player's Pass rate and its moves
from its own random stream.

Property violations are findings about a variant's readings, not failures of
the program: they are counted per variant and property, each with the first
round that shows it.  An exception, or a difference between the engine and the
reference, is a failure: the exit code is then 1 (else 0).  The report gives
rounds/s and moves/s (wall clock, the whole run).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time
import traceback
from collections import Counter

from itcp.model.engine.engine import Game
from itcp.spec.config import MAX_RANK, MIN_RANK, OPTION_VALUES, Config
from itcp.spec.errors import ConfigError
from itcp.spec.variants import list_variants, load_variant

#: moves after which a round counts as "step cap" (and ends)
MAX_STEPS = 300
#: the most rounds a worker takes at a time
CHUNK = 2000
#: exceptions and mismatches kept in full per chunk
KEEP = 5


def _stream(seed: int, *keys) -> random.Random:
    """A random stream that depends on ``seed`` and ``keys`` only."""
    return random.Random(f"itcp-fuzz/{seed}/" + "/".join(map(str, keys)))


def table(seed: int, k: int) -> tuple[str, dict]:
    """Table ``k`` of the pool for ``seed``: (variant, config overrides)."""
    rng = _stream(seed, "table", k)
    variants = list_variants()
    variant = variants[k % len(variants)]
    while True:
        players = rng.randint(2, 8)
        suits = rng.randint(1, 6)
        lo = rng.randint(MIN_RANK, MAX_RANK)
        hi = rng.randint(lo, MAX_RANK)
        options = tuple((name, rng.choice((1, 1, 2))) for name in OPTION_VALUES
                        if rng.random() < 0.5)
        over = {"players": players, "suits": suits, "ranks": (lo, hi), "options": options}
        try:
            cards = Config(**{**over, "hand": 1}).n_cards
        except ConfigError:
            continue
        most = (cards - 1) // players
        if most < 1:
            continue
        over["hand"] = rng.randint(1, min(most, 6))
        return variant, over


class Worker:
    """One process's games, compiled on first use."""

    def __init__(self, seed: int, tables: int):
        self.seed, self.tables = seed, tables
        self.games: dict = {}

    def game(self, k: int, backend: str = "generated") -> Game:
        key = (k, backend)
        if key not in self.games:
            variant, over = table(self.seed, k)
            self.games[key] = Game.from_variant(load_variant(variant, over), backend=backend)
        return self.games[key]

    def round(self, r: int, sample: float, record: bool = False):
        """Play round ``r``: (moves, ending, violations {prop: True}, mismatch or None,
        and with ``record`` the moves made)."""
        rng = _stream(self.seed, "round", r)
        k = rng.randrange(self.tables)
        pass_rate = rng.choice((0.0, 0.05, 0.3))
        check_ref = rng.random() < sample
        game = self.game(k)
        impl = game.impl
        state_props = [p.id for p in game.spec.properties
                       if p.kind == "state" and p.formula is not None]
        step_props = [p.id for p in game.spec.properties
                      if p.kind == "step" and p.formula is not None]
        state_fn = [(p, getattr(impl, f"prop_{p}")) for p in state_props]
        step_fn = [(p, getattr(impl, f"prop_{p}")) for p in step_props]
        bad: dict = {}
        s = game.deal(rng)
        states, actions = [s], []
        ending = "step cap"
        for _ in range(MAX_STEPS):
            outside = game.outside_bounds(s)
            if outside is not None:   # the search could not store the state: a spec error
                name, value, (lo, hi) = outside
                raise ValueError(f"after move {len(actions)}, {name} = {value} is outside "
                                 f"the bounds {lo}..{hi} the spec declares for it")
            if not impl.state_ok(s):
                for p, fn in state_fn:
                    if not fn(s):
                        bad[p] = True
            if game.is_terminal(s):
                ending = "ended"
                break
            if game.is_chance(s):
                a = game.sample_chance(s, rng)
            else:
                legal = game.legal_actions(s)
                if not legal:
                    ending = "stuck"
                    break
                no_pass = [x for x in legal if x[0] != "pass"]
                if no_pass and len(no_pass) < len(legal) and rng.random() >= pass_rate:
                    legal = no_pass
                a = rng.choice(legal)
            s2 = game.apply(s, a, validate=False)
            for p, fn in step_fn:
                if not fn(s, s2):
                    bad[p] = True
            actions.append(a)
            states.append(s2)
            s = s2
        mismatch = self.compare(k, states, actions) if check_ref else None
        return (len(actions), ending, bad, mismatch, check_ref,
                (k, states, actions) if record else None)

    def compare(self, k: int, states, actions) -> str | None:
        """The reference evaluator on the same round: None, or the first difference."""
        gen, ref = self.game(k), self.game(k, "reference")
        props = [p for p in gen.spec.properties if p.formula is not None]
        for i, (s, a) in enumerate(zip(states, actions)):
            if gen.is_terminal(s) != ref.is_terminal(s):
                return f"move {i}: terminal {gen.is_terminal(s)} vs {ref.is_terminal(s)}"
            for p in props:
                if p.kind == "state" and gen.check_property(p.id, s) != ref.check_property(p.id, s):
                    return f"move {i}: state property {p.id} differs"
            if not gen.is_chance(s) and sorted(gen.legal_actions(s)) != sorted(ref.legal_actions(s)):
                return f"move {i}: legal moves differ"
            s2 = ref.apply(s, a, validate=False)
            if s2 != states[i + 1]:
                return f"move {i}: {gen.action_str(a)} leads to different states"
            for p in props:
                if p.kind == "step" and \
                        gen.check_property(p.id, s, s2) != ref.check_property(p.id, s, s2):
                    return f"move {i}: step property {p.id} differs"
        last = states[-1]
        if gen.is_terminal(last) and gen.scores(last) != ref.scores(last):
            return "the scores differ"
        return None


_worker: Worker | None = None


def _init(seed: int, tables: int):
    global _worker
    _worker = Worker(seed, tables)


def _chunk(args) -> dict:
    lo, hi, sample = args
    out = {"rounds": 0, "moves": 0, "endings": Counter(), "violations": {}, "exceptions": 0,
           "errors": [], "compared": 0, "mismatches": 0, "mismatch_examples": [],
           "variants": Counter()}
    for r in range(lo, hi):
        k = _stream(_worker.seed, "round", r).randrange(_worker.tables)
        out["variants"][table(_worker.seed, k)[0]] += 1
        try:
            moves, ending, bad, mismatch, compared, _ = _worker.round(r, sample)
        except Exception:  # noqa: BLE001 - every exception is the finding here
            out["exceptions"] += 1
            if len(out["errors"]) < KEEP:
                out["errors"].append({"round": r, "table": table(_worker.seed, _stream(
                    _worker.seed, "round", r).randrange(_worker.tables)),
                    "traceback": traceback.format_exc(limit=6)})
            out["rounds"] += 1
            continue
        out["rounds"] += 1
        out["moves"] += moves
        out["endings"][ending] += 1
        out["compared"] += compared
        if mismatch is not None:
            out["mismatches"] += 1
            if len(out["mismatch_examples"]) < KEEP:
                out["mismatch_examples"].append({"round": r, "difference": mismatch})
        if bad:
            variant = table(_worker.seed, k)[0]
            for p in bad:
                key = f"{variant} {p}"
                if key not in out["violations"]:
                    out["violations"][key] = {"rounds": 0, "first": r}
                out["violations"][key]["rounds"] += 1
    return out


def _merge(total: dict, part: dict):
    for key in ("rounds", "moves", "exceptions", "compared", "mismatches"):
        total[key] += part[key]
    total["endings"].update(part["endings"])
    total["variants"].update(part["variants"])
    total["errors"] += part["errors"][:max(0, KEEP - len(total["errors"]))]
    total["mismatch_examples"] += part["mismatch_examples"][
        :max(0, KEEP - len(total["mismatch_examples"]))]
    for key, v in part["violations"].items():
        t = total["violations"].setdefault(key, {"rounds": 0, "first": v["first"]})
        t["rounds"] += v["rounds"]
        t["first"] = min(t["first"], v["first"])


def run(rounds: int, workers: int, seed: int, tables: int, sample: float,
        progress=None) -> dict:
    total = {"rounds": 0, "moves": 0, "endings": Counter(), "violations": {}, "exceptions": 0,
             "errors": [], "compared": 0, "mismatches": 0, "mismatch_examples": [],
             "variants": Counter()}
    size = max(50, min(CHUNK, rounds // (4 * workers) or 1))
    chunks = [(lo, min(rounds, lo + size), sample) for lo in range(0, rounds, size)]
    start = time.monotonic()
    if workers <= 1:
        _init(seed, tables)
        results = map(_chunk, chunks)
        pool = None
    else:
        pool = mp.get_context("fork").Pool(workers, _init, (seed, tables))
        results = pool.imap_unordered(_chunk, chunks)
    try:
        for part in results:
            _merge(total, part)
            if progress:
                progress(total, time.monotonic() - start)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    seconds = time.monotonic() - start
    total.update(seed=seed, workers=workers, tables=tables, sample=sample,
                 seconds=round(seconds, 1),
                 rounds_per_second=round(total["rounds"] / seconds, 1) if seconds else 0.0,
                 moves_per_second=round(total["moves"] / seconds, 1) if seconds else 0.0,
                 endings=dict(total["endings"]), variants=dict(total["variants"]),
                 violations=dict(sorted(total["violations"].items())))
    return total


def show_round(seed: int, tables: int, r: int):
    w = Worker(seed, tables)
    moves, ending, bad, mismatch, compared, (k, states, actions) = w.round(r, 1.0, record=True)
    game = w.game(k)
    variant, over = table(seed, k)
    print(f"round {r} (seed {seed}): variant {variant}, {game.config.describe()}")
    for s, a in zip(states, actions):
        print(f"  {game.describe(s)['phase']:<8} {game.action_str(a)}")
    print(f"{moves} moves, {ending}; properties violated: {', '.join(bad) or 'none'}; "
          f"reference: {mismatch or 'the same'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tables", type=int, default=48,
                    help="random tables in the pool (each compiled once per worker)")
    ap.add_argument("--sample", type=float, default=0.002,
                    help="the share of rounds replayed by the reference evaluator")
    ap.add_argument("--round", type=int, default=None, help="replay one round and print it")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.rounds < 1 or a.workers < 1 or a.tables < 1 or not 0 <= a.sample <= 1:
        ap.error("--rounds, --workers and --tables must be at least 1; --sample within 0..1")
    if a.round is not None:
        show_round(a.seed, a.tables, a.round)
        return 0

    def progress(t, seconds):
        if sys.stderr.isatty():
            print(f"\r  {t['rounds']:,} rounds, {t['rounds'] / seconds:,.0f}/s, "
                  f"{t['exceptions']} exceptions", end="", file=sys.stderr)
    out = run(a.rounds, a.workers, a.seed, a.tables, a.sample, progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"python -m tools.fuzz --rounds {a.rounds} --workers {a.workers} --seed {a.seed} "
              f"--tables {a.tables} --sample {a.sample}")
        print(f"  {out['rounds']:,} rounds, {out['moves']:,} moves in {out['seconds']} s: "
              f"{out['rounds_per_second']:,} rounds/s, {out['moves_per_second']:,} moves/s "
              f"(wall, whole run, {a.workers} worker(s), compiling included)")
        print(f"  endings: {out['endings']}; rounds per variant: {out['variants']}")
        print(f"  exceptions: {out['exceptions']}")
        print(f"  replayed by the reference evaluator: {out['compared']:,} rounds, "
              f"{out['mismatches']} different")
        for e in out["errors"] + out["mismatch_examples"]:
            print("  ", json.dumps(e)[:2000])
        print("  property violations (findings about the readings; variant property: rounds, "
              "first round): " + ("none" if not out["violations"] else ""))
        for key, v in out["violations"].items():
            print(f"    {key}: {v['rounds']:,} (first: round {v['first']})")
    return 1 if out["exceptions"] or out["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
