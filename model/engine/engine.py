"""The executable game: an OpenSpiel-style API over a compiled spec.

``Game`` wraps either the generated engine (fast) or the reference evaluator
(slow, obviously right); both come from the same elaborated spec.  States are
plain tuples of variable values, immutable and hashable: the tuple is its own
canonical key.  An action is ``(name, args)``.  Public methods validate, then
call the compiled functions.
"""
from __future__ import annotations

import functools
import random
from functools import lru_cache

from itcp.spec.choices import default_readings
from itcp.spec.config import Config
from itcp.spec.derived import Derived
from itcp.spec.errors import IllegalAction
from itcp.spec.lang import Spec, elaborate
from itcp.spec.rules import build_ruleset
from itcp.spec.rules.vocabulary import END_NAMES, PHASE_NAMES

from . import runtime
from .codegen import CHANCE, TERMINAL, compile_spec, generate
from .reference import Evaluator, ReferenceModule
from .steprules import StepRules

Action = tuple  # (name, args)


def build_spec(config: Config, readings: dict | None = None, scope: str = "round",
               extra_properties=()) -> Spec:
    """The elaborated spec; ``extra_properties`` (e.g. a question's formulas) are
    checked beside the built-in ones by every backend."""
    merged = default_readings()
    merged.update(readings or {})
    spec = _elaborated(config, tuple(sorted(merged.items())), scope)
    return spec.with_properties(extra_properties) if extra_properties else spec


@lru_cache(maxsize=64)
def _elaborated(config: Config, readings: tuple, scope: str) -> Spec:
    """The spec elaborated once per table, readings and scope (and shared: what
    backends derive from it is cached on it, ``Spec.derived``)."""
    return elaborate(build_ruleset(config), dict(readings), scope)


@lru_cache(maxsize=64)
def _compiled(config: Config, readings: tuple, scope: str):
    spec = _elaborated(config, readings, scope)
    return spec, compile_spec(spec)


class Game:
    """One variant at one table, ready to play.

    The engine is compiled on first use (``impl``): a search on the batch
    successor code may never need it."""

    def __init__(self, spec: Spec, backend: str = "generated"):
        self.spec = spec
        self.config = spec.config
        self.backend = backend
        if backend not in ("generated", "reference"):
            raise ValueError(f"unknown backend {backend!r}")
        self._impl = ReferenceModule(spec) if backend == "reference" else None
        self.var_names = [v.name for v in spec.variables]
        self.index = {v: i for i, v in enumerate(self.var_names)}
        self.actions = {a.name: a for a in spec.actions}
        self._chance_phase = {p.value for p in spec.phases if p.actor is None and not p.terminal}
        self._terminal_phase = {p.value for p in spec.phases if p.terminal}
        self._step_rules = None
        #: what the layers above derive from this game (its search keys, its
        #: compiled successor code), one typed record per kind (``spec/derived.py``)
        self.derived = Derived()
        ev = Evaluator(spec)
        self._initial = tuple(ev.eval(spec.initial[v], {"state": {}}) for v in self.var_names)
        self._phase_i = self.index["phase"]
        assert self._phase_i == 0, "the generated dispatch reads the phase at index 0"
        if backend == "generated":
            phases = [p.value for p in spec.phases]
            assert phases == list(range(len(phases))), "phases are numbered 0..k in order"

    @property
    def impl(self):
        """The compiled engine (or the reference evaluator)."""
        if self._impl is None:
            spec = self.spec
            key = tuple(sorted(spec.readings.items()))
            if _elaborated(spec.config, key, spec.scope) is spec or (
                    spec.properties == build_ruleset(spec.config).properties):
                cached_spec, mod = _compiled(spec.config, key, spec.scope)
                self._impl = mod if cached_spec.rules == spec.rules else compile_spec(spec)
            else:  # extra properties (a question): compiled for this spec alone
                self._impl = compile_spec(spec)
        return self._impl

    @functools.cached_property
    def _by_phase(self) -> dict:
        by_phase: dict[int, list] = {}
        for a in self.spec.actions:
            by_phase.setdefault(a.phase.value, []).append(
                (a.name, getattr(self.impl, f"enum_{a.name}")))
        return by_phase

    @functools.cached_property
    def _apply(self) -> dict:
        return {a.name: getattr(self.impl, f"apply_{a.name}") for a in self.spec.actions}

    @functools.cached_property
    def _allowed(self) -> dict:
        return {a.name: getattr(self.impl, f"allowed_{a.name}") for a in self.spec.actions}

    @functools.cached_property
    def _legal(self):
        return self.impl.legal

    @classmethod
    def from_variant(cls, variant, scope: str = "round", backend: str = "generated"):
        return cls.make(variant.config, dict(variant.readings), scope, backend)

    @classmethod
    def make(cls, config: Config, readings: dict | None = None, scope="round",
             backend="generated"):
        merged = default_readings()
        merged.update(readings or {})
        # the spec elaborated once per table and readings (the engine's cache key)
        return cls(_elaborated(config, tuple(sorted(merged.items())), scope), backend)

    # -- the API --------------------------------------------------------
    def initial_state(self) -> tuple:
        """The state before the deal: a chance node whose outcomes are the deals."""
        return self._initial

    def current_player(self, s) -> int:
        """The seat to act, or CHANCE (-1), or TERMINAL (-4)."""
        return self.impl.current(s)

    def is_terminal(self, s) -> bool:
        return s[0] in self._terminal_phase

    def is_chance(self, s) -> bool:
        return s[self._phase_i] in self._chance_phase

    def legal_actions(self, s) -> list[Action]:
        return self._legal(s)

    def chance_outcomes(self, s) -> list[tuple[Action, float]]:
        """Every chance outcome with its probability (uniform over the legal ones)."""
        if not self.is_chance(s):
            raise IllegalAction("not a chance node")
        acts = self.legal_actions(s)
        return [(a, 1.0 / len(acts)) for a in acts] if acts else []

    def sample_chance(self, s, rng: random.Random) -> Action:
        """One chance outcome drawn uniformly, without enumerating deals."""
        names = self._by_phase[s[self._phase_i]]
        if len(names) == 1:
            name = names[0][0]
            fast = getattr(self.impl, f"sample_{name}", None)
            if fast is not None:
                return fast(s, rng.randrange)
            act = self.actions[name]
            if any(p.size is not None for p in act.decl.params):
                return self._sample_params(s, act, rng)
        return rng.choice(self.legal_actions(s))

    def _sample_params(self, s, act, rng):
        deck = s[self.index["deck"]]
        for _ in range(1000):
            pool, args = runtime.bits(deck), []
            rng.shuffle(pool)
            for p in act.decl.params:
                k = 1 if p.size is None else p.size
                take, pool = pool[:k], pool[k:]
                if p.size is None:
                    args.append(take[0])
                else:
                    args.append(sum(1 << i for i in take))
            a = (act.name, tuple(args))
            if self._allowed[act.name](s, a[1]):
                return a
        raise IllegalAction("no legal deal could be drawn")

    def apply(self, s, action: Action, validate: bool = True):
        name, args = action
        if validate:
            if name not in self._apply:
                raise IllegalAction(f"unknown action {name!r}")
            if not self._allowed[name](s, tuple(args)):
                raise IllegalAction(f"{self.action_str(action)} is not legal here")
        return self._apply[name](s, tuple(args))

    def successors(self, s):
        for a in self.legal_actions(s):
            yield a, self._apply[a[0]](s, a[1])

    def outside_bounds(self, s) -> tuple[str, int, tuple[int, int]] | None:
        """The first variable whose value leaves the bounds the spec declares for
        it (``StateVar.bounds``, what the search packs a state in): (name, value,
        bounds), or None.  Why: a rule that drives a counter out of its range is
        broken even where no fact a scenario states shows it yet, and the search
        could not store the state; a replay and the side-by-side rounds check it."""
        for i, v in enumerate(self.spec.variables):
            if v.bounds is None:
                continue
            lo, hi = v.bounds
            values = s[i] if isinstance(s[i], tuple) else (s[i],)   # a map: each seat's
            bad = next((x for x in values if not lo <= x <= hi), None)
            if bad is not None:
                return v.name, bad, v.bounds
        return None

    def scores(self, s) -> tuple[int, ...]:
        return self.impl.scores(s)

    def fired(self, s, action: Action, s2) -> list[str]:
        """The rules the step ``s --action--> s2`` could have consulted (fast;
        what coverage counts): see ``decided`` for the ones it went through."""
        if hasattr(self.impl, f"fired_{action[0]}"):
            return getattr(self.impl, f"fired_{action[0]}")(s, action[1], s2)
        return []

    def decided(self, s, action: Action, s2) -> list[str]:
        """The rules that decided the step (``model/engine/steprules.py``): what a story
        names."""
        return self.step_rules().rules(s, action, s2)

    def step_rules(self):
        if self._step_rules is None:
            self._step_rules = StepRules(self.spec)
        return self._step_rules

    @staticmethod
    def key(s):
        return s

    def initial_states(self):
        """Every dealt state (the deal's chance outcomes applied)."""
        s0 = self.initial_state()
        for a in self.legal_actions(s0):
            yield self._apply[a[0]](s0, a[1])

    def deal(self, rng: random.Random):
        s0 = self.initial_state()
        return self.apply(s0, self.sample_chance(s0, rng), validate=False)

    def check_property(self, pid: str, s, s2=None) -> bool:
        fn = getattr(self.impl, f"prop_{pid}")
        return fn(s, s2) if s2 is not None else fn(s)

    # -- reading states ---------------------------------------------------
    def get(self, s, var: str):
        return s[self.index[var]]

    def card_name(self, c: int) -> str:
        return "none" if c < 0 else self.config.cards[c].name

    def cards_str(self, mask: int) -> str:
        return ", ".join(self.card_name(c) for c in runtime.bits(mask)) or "nothing"

    def action_str(self, action: Action) -> str:
        name, args = action
        act = self.actions.get(name)
        if act is None:
            return f"{name}{args}"
        parts = []
        for p, v in zip(act.decl.params, args):
            if p.type == "card":
                parts.append(self.card_name(v))
            elif p.type == "cards":
                parts.append("[" + self.cards_str(v) + "]")
            elif p.type == "player":
                parts.append(f"P{v}")
            else:
                parts.append(str(v))
        return name + ("(" + ", ".join(parts) + ")" if parts else "")

    def describe(self, s) -> dict:
        """The state as a player sees it; a value outside its names (a symbolic
        counterexample's state need not be reachable) is shown as a number."""
        g = lambda v: s[self.index[v]]
        named = lambda names, i: names[i] if 0 <= i < len(names) else str(i)
        return {
            "phase": named(PHASE_NAMES, g("phase")),
            "turn": g("turn"), "actor": g("actor"), "dir": g("dir"),
            "hands": [self.cards_str(h) for h in g("hands")],
            "deck": len(runtime.bits(g("deck"))),
            "pile": [self.card_name(c) for c in g("pile")],
            "passers": runtime.bits(g("passers")),
            "ended": named(END_NAMES, g("ended")),
        }


def generated_source(config: Config, readings: dict | None = None, scope="round") -> str:
    return generate(build_spec(config, readings, scope))


__all__ = ["Game", "CHANCE", "TERMINAL", "build_spec", "generated_source"]
