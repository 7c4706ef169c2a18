"""Which rule's new value wins when several rules set one variable in one move.

Every ``Update`` has a priority: of the updates of a variable in an action whose
condition holds, the highest priority wins (``lang.elaborate``), and the
elaborator refuses two updates of one variable in one action at the same
priority, even when their conditions exclude each other.  The priorities the
rules use are this table, lowest first; each name says why its updates win over
the ones below.

Where two conditions exclude each other (a card opens at most one sub-phase; a
move that opens one does not end the turn), the order between them is
immaterial and their values only keep them apart: those are the aliases below
(``PRIDE_RESUME``, ``SECRET_RESUME``, ``OPENS_*``, ``ENDS_ON_DECK``).  The values
are part of a mutant's id (``update[discard].resume@1``), so they stay put.
"""
from __future__ import annotations

from enum import IntEnum


class Priority(IntEnum):
    #: a turn's end forgets the seat play was to resume from: any rule that sets
    #: ``resume`` in the same move (a sub-phase opening) wins
    CLEARED = -1
    #: the plain update (``Update``'s default): a move's own bookkeeping (the turn
    #: passes on, the drawn card joins the hand, Mercy's race resumes from the
    #: Mercy player)
    BASE = 0
    #: an effect or a reading overrides the move's plain update of the same
    #: variable: the first card's REVEAL over the deal's DRAW, a Justice duty over
    #: the turn end's clearing of it, GAME_OVER over the next deal, a duty's extra
    #: draw over the draw's count
    OVERRIDE = 1
    #: where play resumes after Pride Cycle's gifts (a card opens one sub-phase
    #: only: apart from the race's BASE and the team's SECRET_RESUME)
    PRIDE_RESUME = 1
    #: where play resumes after a Secret Combination's choice (see PRIDE_RESUME)
    SECRET_RESUME = 2
    #: the turn player still owes the turn's discard (``justice.answer =
    #: draw_only``): back to DISCARD instead of the turn's end
    BACK_TO_DISCARD = 6
    #: Mercy's race has racers left (``mercy.discards = every_racer``): back to
    #: RACE instead of the turn's end
    RACE_GOES_ON = 7
    #: the move opens Mercy's race: RACE instead of the turn's end
    OPENS_RACE = 10
    #: drawing from the empty deck ends the round (``deck.exhausted =
    #: round_ends``): over a Pass reached in the same move
    ENDS_ON_DECK = 10
    #: the move opens Pride Cycle's gifts (apart from OPENS_RACE: one card)
    OPENS_PRIDE = 11
    #: the move opens a Secret Combination's choice (apart from OPENS_PRIDE)
    OPENS_SECRET = 12
    #: a hand at zero ends the round: ``ended`` says zero even when the move also
    #: reached the passer or emptied the deck
    ENDS_ON_ZERO = 50
    #: a round that has ended admits no further play: OVER over every other phase
    ROUND_STOPPED = 100


__all__ = ["Priority"]
