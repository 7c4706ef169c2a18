"""The whole rulebook in the spec language, bound to one configuration.

``build_ruleset(config)`` returns every rule of every reading;
``itcp.spec.lang.elaborate`` then keeps the rules of a variant's readings.

Modules:

- ``flow``: How one move leads to the next: the expressions several rules share. Public:
  ``Effect``, ``effect_contexts``, ``opens``, ``opens_race``, ``opens_pride``,
  ``opens_secret``, ``forms_team``, ``skip``, ....
- ``game``: The game of several rounds: totals, the rotating dealer, the end of the
  game.
- ``options``: Charity, Desolation and the six option cards.
- ``priorities``: Which rule's new value wins when several rules set one variable in one
  move. Public: ``Priority``.
- ``turn``: Setup, the draw/discard turn, Pass, the end of the round and the zero rule.
- ``vocabulary``: The vocabulary the rules are written in, bound to one configuration.
"""

from __future__ import annotations

from functools import lru_cache

from ..config import Config
from ..lang import RuleSet
from . import game, options, turn
from .vocabulary import VARIABLES, Vocabulary


@lru_cache(maxsize=32)
def build_ruleset(config: Config) -> RuleSet:
    t = Vocabulary(config)
    from .. import properties
    rules = tuple(turn.rules(t) + options.rules(t) + game.rules(t))
    return RuleSet(config, VARIABLES, t.phases, t.actions, rules, t.signatures,
                   properties.build(t), t.initial)
