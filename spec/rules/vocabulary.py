"""The rulebook's vocabulary: the words of ``words.py`` over every part of the
rulebook, in the order the rules are read.

Each part is a module of ``spec/rules/``: the turn's (``setup`` to ``scoring``),
then the cards' (``charity`` to ``secret``), then the game's.  A part declares
its own state variables, phases, actions and definition signatures;
``Vocabulary`` collects them, ``spec/layout.py`` places them, and
``build_ruleset`` reads the parts' rules in this order, which is the order
every listing shows them in.  The names the rest of the program reads (the
phase numbers, the state's variables, a seat's score) are here too.
"""
from __future__ import annotations

from ..config import Config
from ..lang import Part
from ..layout import (
    DEAL,
    DECK,
    DECK_OUT,
    DISCARD,
    DRAW,
    END_NAMES,
    GAME_OVER,
    LIVE,
    OVER,
    PASS_REACHED,
    PHASE_NAMES,
    PRIDE,
    RACE,
    REVEAL,
    SECRET,
    ZERO,
)
from . import (
    advance,
    charity,
    desolation,
    discard,
    draw,
    flow,
    game,
    justice,
    mercy,
    options,
    passing,
    pride,
    repentance,
    scoring,
    secret,
    setup,
    unbelief,
    zero,
)
from .scoring import SCORE, SCORE_INPUTS, score_of
from .words import Words, collected_variables

#: the parts of the rulebook, in the order their rules are read
PARTS: tuple[Part, ...] = (
    setup.PART, draw.PART, discard.PART, passing.PART, advance.PART, zero.PART, scoring.PART,
    charity.PART, desolation.PART, options.PART, mercy.PART, justice.PART, repentance.PART,
    unbelief.PART, pride.PART, secret.PART, game.PART,
)

VARIABLES = collected_variables(PARTS)
V = {v.name: v for v in VARIABLES}
assert all(V[n].type == typ for n, typ in SCORE.params[:-1]), "score reads the state as typed"

#: what a scenario's [expect] states about a state besides the scores
#: (scenarios/replay.py's facts): what a round observably does
SCENARIO_FACTS = ("turn", "actor", "phase", "ended", "dir", "passers", "pile", "deck", "hands")
#: and in a whole game, the rounds completed and the running totals
SCENARIO_FACTS_GAME = ("round_no", "totals")
assert all(n in V for n in SCENARIO_FACTS + SCENARIO_FACTS_GAME)


class Vocabulary(Words):
    """One configuration's constants and the shared vocabulary of the rules:
    ``Words`` over the rulebook's parts (``PARTS``)."""

    def __init__(self, config: Config):
        super().__init__(config, PARTS)

    def named_expressions(self):
        return super().named_expressions() + flow.named_expressions(self)


__all__ = ["Vocabulary", "PARTS", "VARIABLES", "V", "SCORE", "SCORE_INPUTS", "score_of",
           "SCENARIO_FACTS", "SCENARIO_FACTS_GAME", "PHASE_NAMES", "END_NAMES", "DEAL", "REVEAL",
           "DRAW", "DECK", "DISCARD", "RACE", "PRIDE", "SECRET", "OVER", "GAME_OVER", "LIVE",
           "PASS_REACHED", "ZERO", "DECK_OUT"]
