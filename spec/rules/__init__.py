"""The whole rulebook in the spec language, bound to one configuration: one module
per part of the turn and per card, each holding what it declares and its rules.

``build_ruleset(config)`` returns every rule of every reading;
``itcp.spec.lang.elaborate`` then keeps the rules of a variant's readings.

Modules (the parts in the order their rules are read, then what they share):

- ``setup``: The deal, the first player, the face-up first card, a hand dealt worth
  zero.
- ``draw``: The draw from the pile or the deck, and an empty deck.
- ``discard``: Which card may be discarded, and a turn with no legal discard.
- ``passing``: Saying Pass, who may, and when play reaches the passer.
- ``advance``: The end of a turn: who plays next, reaching the passer, a round that
  stops.
- ``zero``: The zero rule, and when "at any time" is looked at.
- ``scoring``: A hand's points and a seat's score. Public: ``SCORE``, ``SCORE_INPUTS``,
  ``score_of``.
- ``charity``: Charity: which cards it cancels, and when.
- ``desolation``: Desolation: what it may be discarded on.
- ``options``: What every option card shares: whether it has a suit.
- ``mercy``: Mercy's race: who races, who discards, where play goes on.
- ``justice``: Justice's duty: what it asks, how it is answered, a passer under it.
- ``repentance``: Repentance: reversing with two players and after a Pass.
- ``unbelief``: Unbelief: the skip, with two players and past the passer.
- ``pride``: Pride Cycle's gifts: who gives, to whom, and when the cards move.
- ``secret``: Secret Combination's teams: the partner, the kept hand, the set-aside
  seat.
- ``game``: The game of several rounds: totals, the rotating dealer, the end of the
  game.
- ``flow``: How one move leads to the next: the expressions several parts share.
  Public: ``Effect``, ``effect_contexts``, ``opens``, ``skip``, ``held``, ``endings``,
  ....
- ``priorities``: Which rule's new value wins when several rules set one variable in one
  move. Public: ``Priority``.
- ``words``: What a rule is written in: the words of the rulebook at one table. Public:
  ``Words``.
- ``vocabulary``: The rulebook's vocabulary: the words over every part. Public:
  ``Vocabulary``, ``PARTS``, ``VARIABLES``, ``score_of``, ....
"""

from __future__ import annotations

from functools import lru_cache

from .. import properties
from ..config import Config
from ..lang import RuleSet
from .vocabulary import PARTS, VARIABLES, Vocabulary


@lru_cache(maxsize=32)
def build_ruleset(config: Config) -> RuleSet:
    t = Vocabulary(config)
    rules = tuple(r for part in PARTS if part.rules for r in part.rules(t))
    return RuleSet(config, VARIABLES, t.phases, t.actions, rules, t.signatures,
                   properties.build(t), t.initial)
