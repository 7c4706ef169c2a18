"""The properties a variant is checked against.

Each property says how it is decided (``Kind``), as stateright's properties
say their ``Expectation``: a checker registers one decider per kind and never
looks at a property's id.  State properties are predicates over one state;
step properties over a state and its successor (``Primed`` variables).  The
other kinds are about the state graph (no deadlock, the round ending after an
observed event, determinism, a reported range): they have no formula to check
state by state, and the checkers decide them from the graph or the transition
relation, but what they observe of a state to do so is stated here too, as
formulas (``observes``): what "after a Pass" is for ROUND_ENDS, which hands
are live and what they hold for HAND_BOUNDS.

Each property also says how a violation is told (``told``): the last line of
a trace's story, from the states the checker found.  So a property added here
is checked, and told, by every backend and command without a change there.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from .ast import Node, op
from .config import Config
from .lang import And, ForAll, If, Implies, Not, Or, num
from .layout import (
    DEAL,
    DECK,
    DISCARD,
    DRAW,
    GAME_OVER,
    LIVE,
    OVER,
    PRIDE,
    RACE,
    REVEAL,
    SECRET,
)


class Shown(Protocol):
    """What telling a violation may read of a game (the engine's ``Game``
    offers it): a variable's value in a state, the state as text, a card set
    as text, who is to act, and the table."""

    @property
    def config(self) -> Config: ...

    def get(self, s, var: str): ...
    def describe(self, s) -> dict: ...
    def cards_str(self, mask: int) -> str: ...
    def current_player(self, s) -> int: ...


@dataclass(frozen=True)
class Violation:
    """A violation found by a checker, to be told: the ``game`` it was found
    in, the ``state`` where it shows (for a step property, the state before the
    step, ``after`` the one after it), and for a lasso the number of moves to
    the state that recurs (``loop_entry``)."""
    game: Shown
    state: tuple
    after: tuple | None = None
    loop_entry: int | None = None


class Kind(StrEnum):
    """How a property is decided: what a checker looks at to give its verdict.

    A checker registers one decider per kind; a property added here with a
    kind the checkers know is checked by every backend without a change there.
    (A ``StrEnum``: the kinds compare equal to their names, "state" and "step"
    being what the compiled backends select their formulas by.)"""
    #: a state invariant: the formula holds in every reachable state
    STATE = "state"
    #: a step invariant: the formula holds on every step (a state and its successor)
    STEP = "step"
    #: every live state has a legal move
    NO_DEADLOCK = "no deadlock"
    #: after an observed event the round ends on every path: no cycle among the
    #: states the property observes (``observes``: one formula), and a ranking
    #: function (``ranking``) for a prover
    ENDS_AFTER = "ends after an observed event"
    #: each choice and chance outcome leads to exactly one next state
    DETERMINISM = "determinism"
    #: a range of an observed value, reported rather than asserted (``observes``:
    #: which hands are live, and what they hold), and a bracket (``bracket``) for
    #: a prover
    REPORTED_RANGE = "reported range"

    @property
    def has_formula(self) -> bool:
        """Decided by a formula checked state by state (or step by step)."""
        return self in (Kind.STATE, Kind.STEP)


@dataclass(frozen=True)
class Property:
    """A property at one table: its id (how people name it), its ``kind`` (how
    it is decided), what it says, and what each kind needs besides (a formula,
    observations, a ranking function, a bracket), with how a violation is told."""
    id: str
    kind: Kind
    statement: str
    formula: Node | None = None
    #: a graph property's observations of one state, as (name, formula or
    #: tuple of formulas, one per seat) pairs; the explorer evaluates them
    observes: tuple = ()
    #: how a violation is told: a function of a ``Violation`` to the story's
    #: last line (None: "<ID> violated", with the state for a state property)
    told: Callable[[Violation], str] | None = field(default=None, compare=False)
    #: a liveness property's ranking function: (name, integer formula) pairs,
    #: compared lexicographically, first most significant (see ``_round_ends_rank``)
    ranking: tuple = ()
    #: a reported range's bracket: (lo, hi) -> the state formula "the observed
    #: value lies in lo..hi", for a prover to find the tightest it can prove
    bracket: Callable | None = field(default=None, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "kind", Kind(self.kind))  # "state" given: Kind.STATE

    def tell(self, v: Violation) -> str:
        if self.told is not None:
            return self.told(v)
        if self.kind is Kind.STATE:
            return f"{self.id} violated in state {v.game.describe(v.state)}"
        return f"{self.id} violated"


LIVE_PHASES = ("DRAW", "DISCARD", "PRIDE", "SECRET", "REVEAL")


def zones(t) -> list:
    """The places a card can be, as card sets: the deck, the pile and each hand
    (a Pride Cycle gift chosen under ``pride.timing = simultaneous`` stays in its
    giver's hand until every card moves)."""
    out = [t.deck, op("pile_cards", t.pile)]
    for p in range(t.n):
        out.append(t.hands[t.player_const(p)])
    return out


def exactly_one_place(t):
    """Every card in exactly one place: the zones are pairwise disjoint, the pile
    holds no card twice, and together they hold every card.

    Said without counting on purpose: it means the same as "the zones' sizes add
    up to the number of cards and together they hold every card" (a test proves
    the two equivalent), but a solver proves it preserved by propositional
    reasoning alone, where sums of set sizes cost arithmetic on every card."""
    parts, seen = [op("pile_distinct", t.pile)], None
    for z in zones(t):
        if seen is not None:
            parts.append((z & seen).is_empty())
        seen = z if seen is None else seen | z
    parts.append(seen.eq(t.ALL))
    return And(*parts)


# -- how a violation is told ---------------------------------------------------

def _frozen_told(v: Violation) -> str:
    g, s, s2 = v.game, v.state, v.after
    ps = [p for p in range(g.config.players) if g.get(s, "passers") >> p & 1]
    hof, hof2 = g.get(s, "hand_of"), g.get(s2, "hand_of")
    for p in ps:
        before, after = g.get(s, "hands")[hof[p]], g.get(s2, "hands")[hof2[p]]
        if before != after:
            return (f"P{p} passed, yet their frozen hand changes from [{g.cards_str(before)}] "
                    f"to [{g.cards_str(after)}]: FROZEN violated")
    return "FROZEN violated"


def _turn_told(v: Violation) -> str:
    return (f"no seated player is to act (actor {v.game.describe(v.state)['actor']}): "
            "TURN_DEFINED violated")


def _zero_told(v: Violation) -> str:
    return (f"a player is at zero points but the round goes on (phase "
            f"{v.game.describe(v.state)['phase']}): ZERO_STOPS violated")


def _deadlock_told(v: Violation) -> str:
    game, s = v.game, v.state
    d = game.describe(s)
    p = game.current_player(s)
    held = d["hands"][game.get(s, "hand_of")[p]] if p >= 0 else "?"
    top = f"{d['pile'][-1]} on top of the pile" if d["pile"] else "the discard pile empty"
    return (f"P{p} must act ({d['phase']}) holding [{held}] with {top}, and no move is "
            "legal: NO_DEADLOCK violated")


def _round_ends_told(v: Violation) -> str:
    return (f"the position after step {v.loop_entry} recurs: play can "
            "go round this loop forever after the Pass: ROUND_ENDS violated")


# -- the properties ---------------------------------------------------------------

def _frozen(t):
    return ForAll(t.passers, lambda p: Or(
        t.hands_[t.hand_of_[p]].eq(t.hands[t.hand_of[p]]),
        Not(t.ended.eq(LIVE))), hint="f")


def _turn_defined(t):
    playing = Or(*[t.phase.eq(p) for p in (REVEAL, DRAW, DISCARD, PRIDE, SECRET)])
    return Implies(playing, And(Not(t.actor.eq(t.NOBODY)), Not(t.actor.in_(t.aside))))


def _zero_stops(t):
    in_round = Not(Or(t.phase.eq(DEAL), t.phase.eq(OVER), t.phase.eq(GAME_OVER)))
    return Implies(in_round, Not(t.any_zero(t.hands, t.hand_of, t.charity_out)))


def _score_defined(t):
    # each player scores one hand: a seat's hand that is itself kept (not set
    # aside), so a team's members all score the same hand
    return Implies(t.phase.eq(OVER), ForAll(t.ALLP, lambda p: And(
        Not(t.hand_of[p].eq(t.NOBODY)),
        t.hand_of[t.hand_of[p]].eq(t.hand_of[p])), hint="s"))


def _after_a_pass(t):
    """ROUND_ENDS looks for cycles among the states after a Pass: someone has
    passed this round."""
    return (("post_pass", Not(t.first_passer.eq(t.NOBODY))),)


def _seats_to_passer(t):
    """How many seats play still moves, in its direction, before it reaches the
    first passer (1 to players - 1; 0 when nobody has passed), from the seat the
    next turn is counted from: the turn's, or while an effect is resolved the
    seat play resumes from."""
    at = If(t.resume.eq(t.NOBODY), t.turn, t.resume)
    total = num(0)
    for k in range(1, t.n):
        total = total + If(op("step", at, op("mul", num(k), t.dir)).eq(t.first_passer),
                           num(k), num(0))
    return total


def _turn_stage(t):
    """How far the turn has still to go: drawing, the deck's card, the discard,
    Mercy's race to be won, the race's discard, then the other effects (Pride
    Cycle's gifts, a team's choice), each with counters of its own."""
    racing = And(t.phase.eq(DISCARD), t.racing)
    return If(t.phase.eq(DRAW), num(5), If(t.phase.eq(DECK), num(4),
              If(And(t.phase.eq(DISCARD), Not(t.racing)), num(3),
                 If(t.phase.eq(RACE), num(2), If(racing, num(1), num(0))))))


def _round_ends_rank(t):
    """ROUND_ENDS's ranking function: a tuple over one state that every step
    between two post-Pass states makes lexicographically smaller, so no such
    cycle exists (the symbolic checker proves it, ``checks/symbolic/ranking.py``).

    Why these: a round that has ended has no further move in it; after a
    Pass play goes round one way to the passer (under the
    readings that make the round end: no reversal, no skip over the passer), so
    the seats left to the passer fall with every turn; within a turn the draws
    still owed fall with every draw (a Justice duty's first draw leaves one owed
    but ends the duty), and the turn's stage with every move; in an effect the
    racers, or the Pride Cycle givers, still to act fall."""
    return (("round still going", If(t.ended.eq(LIVE), num(1), num(0))),
            ("seats to the passer", _seats_to_passer(t)),
            ("duty still on the turn", If(And(t.duty > 0, t.duty_on.eq(t.turn)), num(1),
                                          num(0))),
            ("draws owed", t.owed),
            ("stage of the turn", _turn_stage(t)),
            ("racers still to discard", t.racers.count()),
            ("givers still to choose", t.pride_left.count()))


def _live_hands(t):
    """HAND_BOUNDS reports the sizes of the live hands: per seat, whether it
    holds a hand in play (seated, playing its own hand) and that hand."""
    seats = [t.player_const(p) for p in range(t.n)]
    return (("live_hand", tuple(And(Not(s.in_(t.aside)), t.hand_of[s].eq(s)) for s in seats)),
            ("hand", tuple(t.hands[s] for s in seats)))


def _hand_size_bracket(t):
    """HAND_BOUNDS as a state formula a prover can try: the bracket ``(lo, hi)`` to
    "every live hand holds lo to hi cards" (live as ``_live_hands`` says), said so
    that it can be inductive: a hand counts the draws still coming to it (the
    turn's owed draws while it draws, none while it discards; after its discard,
    and for every other seat, its next turn's draw;
    one more for a Justice duty on its seat; none once the round has ended), so
    a hand about to draw is already within ``hi``."""
    (_, live), (_, hands) = _live_hands(t)
    drawing = Or(t.phase.eq(DRAW), t.phase.eq(DECK))

    def coming(seat):
        own_discard = And(t.phase.eq(DISCARD), Not(t.racing))
        return If(t.ended.eq(LIVE), If(seat.eq(t.turn), If(drawing, t.owed, If(
            own_discard, num(0), num(1))), num(1))
            + If(And(t.duty > 0, t.duty_on.eq(seat)), num(1), num(0)), num(0))

    def bracket(lo: int, hi: int):
        return And(*[Implies(alive, And(num(lo) <= h.count(),
                                        h.count() + coming(t.player_const(p)) <= num(hi)))
                     for p, (alive, h) in enumerate(zip(live, hands))])
    return bracket


@dataclass(frozen=True)
class Declared:
    """A property as declared, before a table binds it: its formula and its
    observations are functions of the ``Vocabulary``."""
    id: str
    kind: Kind
    statement: str
    formula: Callable | None = None
    observes: Callable | None = None
    told: Callable[[Violation], str] | None = None
    ranking: Callable | None = None
    bracket: Callable | None = None

    def at(self, t) -> Property:
        return Property(self.id, self.kind, self.statement,
                        None if self.formula is None else self.formula(t),
                        () if self.observes is None else self.observes(t), self.told,
                        () if self.ranking is None else self.ranking(t),
                        None if self.bracket is None else self.bracket(t))


PROPERTIES: tuple[Declared, ...] = (
    Declared("FROZEN", Kind.STEP, "The passer's hand never changes until the round ends.",
             _frozen, told=_frozen_told),
    Declared("CONSERVATION", Kind.STATE,
             "Every card is in exactly one place: a hand, the deck or the pile.",
             exactly_one_place),
    Declared("TURN_DEFINED", Kind.STATE,
             "The player to act is always a seated player who has not been set aside.",
             _turn_defined, told=_turn_told),
    Declared("ZERO_STOPS", Kind.STATE, "No round goes on while a player is at zero points.",
             _zero_stops, told=_zero_told),
    Declared("NO_DEADLOCK", Kind.NO_DEADLOCK,
             "Every state of a round that has not ended has a legal move, duties included.",
             told=_deadlock_told),
    Declared("ROUND_ENDS", Kind.ENDS_AFTER,
             "After a Pass the round ends on every path: no cycle among post-Pass states.",
             observes=_after_a_pass, told=_round_ends_told, ranking=_round_ends_rank),
    Declared("DETERMINED", Kind.DETERMINISM,
             "Each player choice and chance outcome leads to exactly one next state."),
    Declared("HAND_BOUNDS", Kind.REPORTED_RANGE, "The reachable range of hand sizes (reported).",
             observes=_live_hands, bracket=_hand_size_bracket),
    Declared("SCORE_DEFINED", Kind.STATE,
             "At the end of a round every player has exactly one score.", _score_defined),
)


def property_ids() -> tuple[str, ...]:
    """Every property's id, in the order they are checked and reported."""
    return tuple(d.id for d in PROPERTIES)


def build(t) -> tuple[Property, ...]:
    return tuple(d.at(t) for d in PROPERTIES)


def observations(properties) -> dict:
    """What the explorer observes in a state besides the state properties: the
    graph properties' observations (``observes``) by name, e.g. ``post_pass``
    (a formula), ``live_hand`` and ``hand`` (one formula per seat)."""
    out: dict = {}
    for p in properties:
        for name, formula in p.observes:
            if name in out:
                raise ValueError(f"two properties observe {name!r}")
            out[name] = formula
    return out
