"""Drop candidate invariants that a random playout of the engine already refutes.

Why: at the full deck a satisfiable query (a counterexample to induction, or a
candidate failing after a deal) costs Z3 tens of seconds, an unsatisfiable one
a fraction of a second.  A candidate false in some reachable state is no
invariant, so the induction should never spend a satisfiable query learning
that.  A few seeded random rounds of the engine visit hundreds of reachable
states in a second or two; every candidate false in one of them is dropped
before the first query.

Sound by construction: dropping a candidate only removes a possible lemma (a
proof may then be missed, never wrongly found), and every candidate that
survives is still proved by Z3 before it is assumed.  The formulas are the ones
the solver is given, compiled by the engine's code generator
(``compile_state_formulas``: what the reference evaluator would say, faster).
"""
from __future__ import annotations

import random

from itcp.model.engine.codegen import compile_state_formulas
from itcp.model.engine.simulate import random_states

#: seeded random rounds played (the seed makes the filter, and so the proofs, repeatable)
ROUNDS = 30
SEED = 20261130
#: moves per round at most (a round that goes on longer is cut off there)
MAX_STEPS = 400


def refuted_by_playouts(game, pool: dict, rounds: int = ROUNDS, seed: int = SEED,
                        max_steps: int = MAX_STEPS) -> dict:
    """name -> why, for the candidates of ``pool`` (name -> (statement, formula)) that
    are false in a state some random round reaches after its deal."""
    alive = compile_state_formulas(game.spec, {n: f for n, (_, f) in pool.items()})
    rng = random.Random(seed)
    out: dict = {}
    for r in range(rounds):
        for step, s in enumerate(random_states(game, rng, max_steps)):
            for n in list(alive):
                if not alive[n](s):
                    del alive[n]
                    out[n] = f"false in a reachable state (random round {r + 1}, move {step})"
            if not alive:
                break
        if not alive:
            break
    return out


__all__ = ["refuted_by_playouts", "ROUNDS", "SEED"]
