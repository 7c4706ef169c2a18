"""Properties watched along one trace of the engine: what a scenario's
``[expect] property`` checks, and what random play (``stateful.py``) looks for.

One trace decides a property of some kinds (``spec/properties.py`` ``Kind``):
a state or step property fails at a state or on a step; no deadlock fails at
a live state without a legal move; a round that ends after an observed event
fails where a state the property observes (after a Pass) comes back.  The
other kinds (determinism, a reported range) are about every state at once:
no trace decides them.  Each kind a trace decides has one watcher here, and
nothing here looks at a property's id.
"""
from __future__ import annotations

from itcp.model.analysis.liveness import compile_observations
from itcp.spec.properties import Kind, Property


class Watch:
    """One property watched along a trace: ``see(before, state)`` is told each
    state in turn (``before``: the state it was reached from, None for the
    first) and returns why the property fails there, or None."""

    def __init__(self, game, prop: Property):
        self.game, self.prop = game, prop

    def see(self, before, state) -> str | None:  # pragma: no cover - every kind overrides it
        raise NotImplementedError


class _StateWatch(Watch):
    def see(self, before, state):
        return None if self.game.check_property(self.prop.id, state) else "after the last move"


class _StepWatch(Watch):
    def see(self, before, state):
        if before is None or self.game.check_property(self.prop.id, before, state):
            return None
        return "on the last move"


class _DeadlockWatch(Watch):
    def see(self, before, state):
        stuck = not self.game.is_terminal(state) and not self.game.legal_actions(state)
        return "no legal move in a live state" if stuck else None


class _RecurrenceWatch(Watch):
    """A state the property observes (the one formula of its ``observes``: after
    a Pass, for ROUND_ENDS) met a second time: play can go round that loop."""

    def __init__(self, game, prop: Property):
        super().__init__(game, prop)
        self.observed = compile_observations(game.spec)[0]
        self.seen: set = set()

    def see(self, before, state):
        if not self.observed(state):
            return None
        if state in self.seen:
            return "an observed state recurs"
        self.seen.add(state)
        return None


#: the watcher of each kind one trace decides
WATCHES: dict[Kind, type[Watch]] = {
    Kind.STATE: _StateWatch,
    Kind.STEP: _StepWatch,
    Kind.NO_DEADLOCK: _DeadlockWatch,
    Kind.ENDS_AFTER: _RecurrenceWatch,
}


def on_a_trace(prop: Property) -> bool:
    """Whether one trace can decide ``prop``."""
    return prop.kind in WATCHES


def watch(game, prop: Property) -> Watch:
    """A fresh watcher of ``prop`` (one a trace decides: ``on_a_trace``)."""
    return WATCHES[prop.kind](game, prop)


def property_verdict(game, pid: str, states) -> str:
    """"violated" if the property fails at the trace's end (its last step or
    state), "holds" if it holds all along, "violated earlier" otherwise."""
    w = watch(game, next(p for p in game.spec.properties if p.id == pid))
    bad = [w.see(states[i - 1] if i else None, s) is not None for i, s in enumerate(states)]
    if bad[-1]:
        return "violated"
    return "holds" if not any(bad) else "violated earlier"


__all__ = ["Watch", "WATCHES", "on_a_trace", "watch", "property_verdict"]
