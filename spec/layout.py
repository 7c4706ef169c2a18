"""The numbers a state is stored in, and the order of what the rules declare.

Each module of ``spec/rules/`` declares its own state variables, phases and
actions (Pride Cycle's ``pride_left`` and ``gifts``, its PRIDE phase, its
``give`` move); where each one goes is fixed here, once, because the order is
the encoding: a state is a tuple of the variables in this order, the phase
variable holds these numbers, and the generated engine, the packed states, the
checkpoints and every output follow them.  A new declaration goes at the end of
its list, so that nothing declared before it moves.

The phase numbers and why a round ended are read by ``spec/properties.py`` and
``spec/invariants.py`` as well as by the rules, so they live here, below the
rules, and not in a card's module.
"""
from __future__ import annotations

#: the phases by number (the value of the ``phase`` variable)
PHASE_NAMES = ("DEAL", "REVEAL", "DRAW", "DECK", "DISCARD", "RACE", "PRIDE", "SECRET", "OVER",
               "GAME_OVER")
DEAL, REVEAL, DRAW, DECK, DISCARD, RACE, PRIDE, SECRET, OVER, GAME_OVER = range(10)

#: why a round ended, by number (the value of ``ended``)
END_NAMES = ("live", "pass reached", "zero", "deck exhausted")
LIVE, PASS_REACHED, ZERO, DECK_OUT = range(4)

#: the state variables in the order a state holds them
VARIABLE_ORDER = (
    "phase", "turn", "actor", "dir", "hands", "deck", "pile", "passers", "first_passer",
    "since_pass", "had_turn", "taken", "drew", "owed", "duty", "duty_on", "racing", "racers",
    "owes_discard", "duty_fresh", "resume", "pride_left", "gifts", "partner", "hand_of",
    "aside", "charity_out", "ended", "before_draw", "dealer", "totals", "round_no",
)

#: the actions in the order the engine lists them (and numbers a move's kind)
ACTION_ORDER = (
    "deal", "reveal", "draw_pile", "draw_deck", "deck_card", "pass", "answer", "discard",
    "skip_discard", "race", "give", "give_nothing", "keep", "next_round",
)

assert len(PHASE_NAMES) == GAME_OVER + 1 and len(END_NAMES) == DECK_OUT + 1

__all__ = ["PHASE_NAMES", "END_NAMES", "VARIABLE_ORDER", "ACTION_ORDER", "DEAL", "REVEAL",
           "DRAW", "DECK", "DISCARD", "RACE", "PRIDE", "SECRET", "OVER", "GAME_OVER", "LIVE",
           "PASS_REACHED", "ZERO", "DECK_OUT"]
