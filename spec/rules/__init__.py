"""The whole rulebook in the spec language, bound to one configuration.

``build_ruleset(config)`` returns every rule of every reading;
``itcp.spec.lang.elaborate`` then keeps the rules of a variant's readings.
"""
from __future__ import annotations

from functools import lru_cache

from ..config import Config
from ..lang import RuleSet
from . import game, options, turn
from .table import VARIABLES, Table


@lru_cache(maxsize=32)
def build_ruleset(config: Config) -> RuleSet:
    t = Table(config)
    from .. import properties
    rules = tuple(turn.rules(t) + options.rules(t) + game.rules(t))
    return RuleSet(config, VARIABLES, t.phases, t.actions, rules, t.signatures,
                   properties.build(t), t.initial)


def table(config: Config) -> Table:
    return Table(config)
