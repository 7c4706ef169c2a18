"""Random-playout speed of the engine: generated code vs the reference evaluator.

Plays random rounds of the official variant's full game (4 players, six suits,
ranks 2-10, every option card): chance nodes sampled uniformly, player nodes a
uniformly random legal action.  Prints steps per second for the generated
engine and for the AST-walking reference evaluator (each the median of
several timed runs on one core), and their ratio.

    python -m bench.engine [--players 4] [--runs 5] [--seconds 2]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from itcp.model.engine.engine import Game
from itcp.model.engine.simulate import random_states
from itcp.spec.variants import load_variant


def playout_rate(game: Game, seconds: float, seed: int) -> float:
    """Steps per second over whole random rounds played for about ``seconds``."""
    rng = random.Random(seed)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        # moves made: one fewer than the states of the round
        steps += sum(1 for _ in random_states(game, rng, 2000)) - 1
    return steps / (time.process_time() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="official")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    variant = load_variant(args.variant, {"players": args.players})
    print(f"variant {variant.name}: {variant.config.describe()}")
    results = {}
    for backend, secs in (("generated", args.seconds), ("reference", args.seconds)):
        game = Game.from_variant(variant, backend=backend)
        rates = [playout_rate(game, secs, seed) for seed in range(args.runs)]
        results[backend] = statistics.median(rates)
        print(f"{backend:>9}: median {results[backend]:>10,.0f} steps/s "
              f"(min {min(rates):,.0f}, max {max(rates):,.0f}, {args.runs} runs)")
    print(f"    ratio: generated / reference = {results['generated'] / results['reference']:.1f}x")


if __name__ == "__main__":
    main()
