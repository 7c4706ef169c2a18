"""A trace Z3 found, played again by the engine: only what the engine reproduces
is called a violation.

Bounded model checking (a state or step property's counterexample, a reachable
deadlock, a lasso) ends with a deal and moves decoded from Z3's model.  The
engine takes them one by one with its own validation (``Game.apply``): a move
it refuses (``IllegalAction``) or, where Z3's states are given, a state it
reaches that Z3 did not, is a conformance bug between the two backends, never
a verdict.  The checks then ask the engine's own states whether the property
fails there.
"""
from __future__ import annotations

from dataclasses import dataclass

from itcp.scenarios.story import story
from itcp.spec.errors import IllegalAction

from ..results import PropertyResult, Replayed, Verdict

ENGINE = "symbolic"


@dataclass(frozen=True)
class EngineReplay:
    """The engine's states (after the deal, then one per move it took) and why
    it does not reproduce Z3's trace (None: it does); ``refused``: the engine
    refused a move."""
    states: list
    problem: str | None = None
    refused: bool = False


def engine_replay(game, deal, actions, z3_states=None, what: str = "trace") -> EngineReplay:
    """Play ``deal`` then ``actions`` on the engine.  With ``z3_states`` (Z3's
    state after the deal, then after each move) the first state the engine
    reaches differently is the problem, and the engine goes on from Z3's dealt
    state; a move the engine refuses is the problem whatever came before
    (``what`` names Z3's trace in it: a "trace", a "lasso")."""
    problem, refused = None, False
    states: list = []
    try:
        s = game.apply(game.initial_state(), deal)
        if z3_states is not None:
            if s != z3_states[0]:
                problem = "the engine deals a different state than Z3"
            s = z3_states[0]
        states.append(s)
        for i, a in enumerate(actions):
            s = game.apply(s, a)
            states.append(s)
            if z3_states is not None and problem is None and s != z3_states[i + 1]:
                problem = (f"step {i + 1} ({game.action_str(a)}): the engine's successor "
                           "differs from Z3's")
    except IllegalAction as e:  # a move Z3 allows that the engine refuses
        problem, refused = f"the engine refused a step of Z3's {what}: {e}", True
    return EngineReplay(states, problem, refused)


def replayed_violation(game, prop, states, actions, ending: str, reproduced: str,
                       loop_from: int | None = None) -> PropertyResult:
    """VIOLATED with a BMC trace the engine has replayed (``states`` are the
    engine's, one more than ``actions``; a lasso's loop starts after step
    ``loop_from``): its story, and the rules and readings on its path."""
    trace = story(game, states, actions, ending, loop_from, replayed=True)
    return PropertyResult(prop.id, Verdict.VIOLATED, ENGINE, prop.statement,
                          Replayed(trace, reproduced))


__all__ = ["EngineReplay", "engine_replay", "replayed_violation", "ENGINE"]
