"""A Hypothesis state machine derived from the spec: random deep rounds that shrink.

``machine_for(game)`` builds a ``RuleBasedStateMachine`` whose parts all come
from the elaborated spec, none written per rule:

* the deal is drawn by Hypothesis, card by card (an index into the cards not
  yet dealt), so it shrinks towards the first cards of the deck;
* one Hypothesis rule per spec action (``discard``, ``pass``, ``race``,
  ``deck_card``...), its precondition being that the engine's
  ``legal_actions`` offers that action (the action's guards), and its
  arguments drawn by Hypothesis among the legal ones (chance outcomes too);
* the checks are the spec's properties that one trace decides, each by the
  watcher of its kind (``watch.py``): every state property after each step,
  every step property on each step, no deadlock (a live state has a legal
  move) and the round ending after an observed event (no state after a Pass
  recurs).

A failure is recorded as the trace of the run that failed (``Machine.found``);
Hypothesis replays the shrunk example last, so after ``hunt`` the record is
the minimal trace, which ``to_scenario`` writes as a scenario file.
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

from itcp.model.engine.engine import Game

from .format import from_trace
from .watch import on_a_trace, watch


@dataclass
class Failure:
    property: str
    states: list  # the state before the deal, then one per move
    actions: list  # the deal, then the moves
    note: str = ""

    @builtins.property   # the field ``property`` shadows the builtin for type checkers
    def moves(self) -> int:
        return len(self.actions) - 1


def machine_for(game: Game, properties=None):
    """The state machine class for ``game`` (checking ``properties``, default all)."""
    spec = game.spec
    wanted = set(properties or [p.id for p in spec.properties])
    watched = [p for p in spec.properties if p.id in wanted and on_a_trace(p)
               and (p.formula is not None or not p.kind.has_formula)]
    cfg = game.config
    n_cards, n, hand = len(cfg.cards), cfg.players, cfg.hand
    deal_params = game.actions["deal"].decl.params

    class Machine(RuleBasedStateMachine):
        found: Failure | None = None

        def __init__(self):
            super().__init__()
            self.s0 = game.initial_state()
            self.states = [self.s0]
            self.actions = []
            self.watches = [watch(game, p) for p in watched]

        @initialize(data=st.data())
        def deal(self, data):
            pool, order = list(range(n_cards)), []
            for _ in range(n * hand + 1):  # each dealt card: an index into what is left
                order.append(pool.pop(data.draw(st.integers(0, len(pool) - 1), label="card")))
            masks = [sum(1 << c for c in order[p * hand:(p + 1) * hand]) for p in range(n)]
            args = tuple(masks) + (order[n * hand],)
            assert len(args) == len(deal_params)
            self._apply(("deal", args))

        # -- checks ---------------------------------------------------------
        def _fail(self, pid: str, note: str):
            type(self).found = Failure(pid, list(self.states), list(self.actions), note)
            raise AssertionError(f"{pid} violated: {note}")

        def _apply(self, a):
            """Take the move ``a``; every watcher sees the state it reaches (the
            deal's first, with nothing before it)."""
            s = self.states[-1]
            s2 = game.apply(s, a)
            self.states.append(s2)
            self.actions.append(a)
            before = s if len(self.states) > 2 else None
            for w in self.watches:
                why = w.see(before, s2)
                if why is not None:
                    self._fail(w.prop.id, f"step {len(self.actions) - 1}: "
                                          f"{game.action_str(a)}: {why}")

    @precondition(lambda self: len(self.states) > 1 and not game.legal_actions(self.states[-1]))
    @rule()
    def round_over(self):
        """Nothing to do: the round has ended (or is stuck, where deadlocks are not watched)."""

    Machine.round_over = round_over
    for act in spec.actions:
        if act.name == "deal":
            continue
        setattr(Machine, f"do_{act.name}", _action_rule(game, act.name))
    Machine.__name__ = Machine.__qualname__ = "SpecMachine"
    return Machine


def _action_rule(game: Game, name: str):
    def legal(self):
        return [a for a in game.legal_actions(self.states[-1]) if a[0] == name]

    def step(self, data):
        choices = legal(self)
        a = choices[data.draw(st.integers(0, len(choices) - 1), label=name)]
        self._apply(a)

    step.__name__ = step.__qualname__ = f"do_{name}"
    return precondition(lambda self: len(self.states) > 1 and bool(legal(self)))(
        rule(data=st.data())(step))


def hunt(game: Game, properties=None, max_examples: int = 200, steps: int = 30,
         seed_derandomize: bool = True) -> Failure | None:
    """Run the machine; the shrunk failure, or None if none was found."""
    Machine = machine_for(game, properties)
    Machine.found = None
    conf = settings(max_examples=max_examples, stateful_step_count=steps,
                    derandomize=seed_derandomize, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)
    try:
        run_state_machine_as_test(Machine, settings=conf)
    except Exception:  # an AssertionError, or a group of distinct ones
        if Machine.found is None:
            raise
        return Machine.found
    return None


def to_scenario(variant_name: str, game: Game, failure: Failure, title: str | None = None):
    """The failure as a scenario expecting the property to be violated."""
    return from_trace(variant_name, game.config, game, failure.states, failure.actions,
                      {"property": failure.property, "verdict": "violated"},
                      title=title or f"{failure.property} violated (found by random play, "
                                     f"shrunk to {failure.moves} moves)")


__all__ = ["machine_for", "hunt", "to_scenario", "Failure"]
