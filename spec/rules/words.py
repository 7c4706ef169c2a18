"""What a rule is written in: the words of the rulebook at one table.

``Words`` holds the table's constants (every seat, the cards of each kind and
suit, the card values), the state variables by name (``t.hands`` now,
``t.hands_`` in the next state), calls of definitions by name (``t.d``), the
parameters of the actions (``t.param("discard")``) and a few shorthands that
say no rule (a seat's points, the seats in the rotation).

It is built over the parts of the rulebook (``lang.Part``: a card, or a part of
the turn) and collects what each declares: the state variables, the phases,
the actions, the definition signatures, the values the variables start from,
the rows of the moves that end what they began, and the openings of the cards'
own phases.  Variables and actions take the places ``spec/layout.py`` gives
them, phases their numbers, so the encoding does not depend on the order of the
parts; a declaration made twice, or missing from the layout, is an error naming
it.  Nothing here says what any card does.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from .. import ast as A
from ..ast import NOBODY, NOCARD, Call, Node
from ..config import OPTION_TITLES, OPTION_VALUES, SUIT_NAMES, Config
from ..errors import SpecError, nearest
from ..lang import (
    ActionDecl,
    Define,
    DefSig,
    Exists,
    If,
    Part,
    Phase,
    SetOf,
    StateVar,
    card,
    cardmap,
    cards,
    num,
    player,
    players,
)
from ..layout import ACTION_ORDER, PHASE_NAMES, VARIABLE_ORDER


def _guess(name: str, names) -> str:
    close = nearest(name, names)
    return f" (did you mean {close!r}?)" if close else ""


def in_layout(what: str, declared: Iterable[tuple[str, str, object]],
              order: tuple[str, ...]) -> tuple:
    """The declarations (part, name, declaration) in the order of ``order``
    (``spec/layout.py``): each name declared once, by one part, and placed there."""
    got: dict[str, tuple[str, object]] = {}
    for part, name, decl in declared:
        if name in got:
            raise SpecError(f"{what} {name!r} is declared by both {got[name][0]} and {part}")
        if name not in order:
            raise SpecError(f"{what} {name!r} (declared by {part}) has no place in "
                            f"spec/layout.py: add it at the end of its list")
        got[name] = (part, decl)
    missing = [n for n in order if n not in got]
    if missing:
        raise SpecError(f"{what}s {missing} are in spec/layout.py but no part declares them")
    return tuple(got[n][1] for n in order)


def collected_variables(parts: tuple[Part, ...]) -> tuple[StateVar, ...]:
    """Every part's state variables, in the state's order."""
    return in_layout("state variable", ((p.name, v.name, v) for p in parts for v in p.variables),
                     VARIABLE_ORDER)


class Words:
    """One table's constants and the shared vocabulary of the rules, over the
    declarations of ``parts`` (``Vocabulary`` is this over the rulebook's parts)."""

    def __init__(self, config: Config, parts: tuple[Part, ...]):
        self.parts = parts
        self.variables = collected_variables(parts)
        self.state_vars = {v.name: v for v in self.variables}
        self.cfg = c = config
        self.n = c.players
        self.ALLP = players((1 << c.players) - 1)
        self.NONEP = players(0)
        self.ALL = cards((1 << c.n_cards) - 1)
        self.NONE = cards(0)
        self.NOBODY = player(NOBODY)
        self.NOCARD = card(NOCARD)
        self.kind = {k: cards(c.mask(lambda x, k=k: x.kind == k))
                     for k in ("number", "charity", "desolation", *OPTION_VALUES)}
        self.suit_mask = [cards(c.mask(lambda x, s=s: x.suit == s)) for s in range(c.suits)]
        self.charity_of = [next((x.index for x in c.cards if x.kind == "charity" and x.suit == s),
                                None) for s in range(c.suits)]
        self.VALUES = cardmap([x.value for x in c.cards] + [0])
        self.SUIT = cardmap([(-1 if x.suit is None else x.suit) for x in c.cards] + [-1])
        self.OPTIONS = cards(c.mask(lambda x: x.is_option))

    def constant_phrases(self) -> dict[Node, str]:
        """The table's constants as a rule's English names them (``report/english.py``):
        the seats and cards by name, the sets of cards of each kind and suit, the
        card values.  Where two constants are equal at this table the later entry
        wins, so the plain ones ("no cards") come last."""
        c = self.cfg
        out: dict[Node, str] = {}
        for k, mask in self.kind.items():
            out[mask] = f"the {OPTION_TITLES.get(k, k if k == 'number' else k.title())} cards"
        for s, mask in enumerate(self.suit_mask):
            out[mask] = f"the {SUIT_NAMES[s]} cards"
        out[self.OPTIONS] = "the option cards"
        for x in c.cards:
            out[card(x.index)] = x.name
        for p in range(c.players):
            out[player(p)] = f"P{p}"
        out.update({self.ALL: "every card", self.NONE: "no cards", self.ALLP: "every player",
                    self.NONEP: "no player", self.NOBODY: "nobody", self.NOCARD: "no card",
                    self.VALUES: "point value", self.SUIT: "suit"})
        return out

    def named_expressions(self) -> list[tuple[Node, str]]:
        """Expressions the rules share, as a rule's English names them wherever they
        occur (bound variables renamed): the shorthands below."""
        return [(self.ring(self.hand_of, self.aside), "the seats in the rotation"),
                (self.ring(self.hand_of_, self.aside_),
                 "the seats in the rotation after this move"),
                (self.any_zero(self.hands, self.hand_of, self.charity_out),
                 "some player is at zero points"),
                (self.any_zero(self.hands_, self.hand_of_, self.charity_out_),
                 "some player is at zero points after this move")]

    # -- variables --------------------------------------------------------
    def __getattr__(self, name):
        # t.hands -> Var, t.hands_ -> Primed (next state)
        known = self.__dict__.get("state_vars", {})
        if name.endswith("_") and name[:-1] in known:
            return known[name[:-1]].new
        if name in known:
            return known[name].cur
        raise AttributeError(name)

    def card_const(self, i):
        return card(i)

    def player_const(self, i):
        return player(i)

    # -- what the parts declare -------------------------------------------
    @cached_property
    def phases(self) -> tuple[Phase, ...]:
        """Every part's phases, by number."""
        declared = [(p.name, ph.name, ph) for p in self.parts if p.phases for ph in p.phases(self)]
        out = in_layout("phase", declared, PHASE_NAMES)
        for i, ph in enumerate(out):
            if ph.value != i:
                raise SpecError(f"phase {ph.name} is declared with the number {ph.value}; "
                                f"spec/layout.py numbers it {i}")
        return out

    @cached_property
    def actions(self) -> tuple[ActionDecl, ...]:
        """Every part's actions, in the engine's order."""
        return in_layout("action", ((p.name, a.name, a) for p in self.parts if p.actions
                                    for a in p.actions(self)), ACTION_ORDER)

    @cached_property
    def round_actions(self) -> tuple[str, ...]:
        """The actions of a round (every one but the game's own), in order."""
        return tuple(a.name for a in self.actions if a.scope == "round")

    @cached_property
    def signatures(self) -> dict[str, DefSig]:
        """Every definition a reading gives the body of; a call names its arguments
        (``t.d("lowers_ok", card=c, hand=h, limit=lim)``), as does the body."""
        out: dict[str, DefSig] = {}
        owner: dict[str, str] = {}
        for p in self.parts:
            for s in p.signatures:
                if s.name in out:
                    raise SpecError(f"definition {s.name} is declared by both {owner[s.name]} "
                                    f"and {p.name}")
                out[s.name], owner[s.name] = s, p.name
        return out

    @cached_property
    def initial(self) -> dict:
        """The state before the deal: every variable's value, in the state's order."""
        given: dict[str, Node] = {}
        for p in self.parts:
            values = p.initial(self) if p.initial else {}
            own = {v.name for v in p.variables}
            if set(values) != own:
                raise SpecError(f"part {p.name} gives initial values to {sorted(values)} but "
                                f"declares the variables {sorted(own)}")
            given.update(values)
        return {v.name: given[v.name] for v in self.variables}

    def ending_rows(self) -> list[tuple]:
        """The parts' own rows of ``flow.raw_endings`` (the moves of a sub-phase,
        a Pass, a turn's end without a discard), in the parts' order."""
        return [row for p in self.parts if p.endings for row in p.endings(self)]

    def openings(self, e) -> list[Node]:
        """For each card with a phase of its own, in the parts' order: does the
        card played in effect context ``e`` open it?"""
        return [p.opens(self, e) for p in self.parts if p.opens]

    def param(self, action: str, name: str | None = None) -> A.Param:
        """The parameter ``name`` of ``action`` as it is read in a rule (the
        action's only parameter when ``name`` is not given)."""
        decl = next((a for a in self.actions if a.name == action), None)
        if decl is None:
            raise SpecError(f"no action is declared as {action!r}"
                            f"{_guess(action, [a.name for a in self.actions])}")
        names = [p.name for p in decl.params]
        if name is None:
            if len(decl.params) != 1:
                raise SpecError(f"action {action} has the parameters {names}: name one")
            return decl.params[0].ref
        if name not in names:
            raise SpecError(f"action {action} has no parameter {name!r}{_guess(name, names)}")
        return decl.params[names.index(name)].ref

    def d(self, name: str, *args, **kwargs) -> Call:
        """A call of definition ``name`` (arguments by name; see ``DefSig``)."""
        sig = self.signatures.get(name)
        if sig is None:
            raise SpecError(f"no definition is declared as {name!r}"
                            f"{_guess(name, self.signatures)}")
        return sig(*args, **kwargs)

    def define(self, name: str, body) -> Define:
        """The definition ``name`` with body ``body`` (its parameters by name)."""
        sig = self.signatures.get(name)
        if sig is None:
            raise SpecError(f"definition {name!r} has no signature"
                            f"{_guess(name, self.signatures)}")
        return sig.define(body)

    # -- shared shorthands (pure vocabulary: no rule content) ---------------
    @property
    def top_card(self):
        return A.op("top", self.pile)

    def top_after(self):
        return A.op("top", self.pile_)

    def is_kind(self, c, kind):
        return c.in_(self.kind[kind])

    def phase_is(self, ph):
        return self.phase.eq(num(ph))

    def ring(self, hand_of, aside):
        """Seats in the rotation that hold a live hand."""
        return SetOf(self.ALLP - aside, lambda p: hand_of[p].eq(p), hint="r")

    def seated(self, aside):
        return self.ALLP - aside

    def held(self, hands, hand_of):
        """The cards in the hands in play (a hand set aside by a team is not)."""
        out = self.NONE
        for q in range(self.n):
            Q = self.player_const(q)
            out = out | If(hand_of[Q].eq(Q), hands[Q], self.NONE)
        return out

    def hand_points(self, hands, hand_of, seat, charity_out):
        """The points of the hand at ``seat`` (``charity_out``: the Charities discarded)."""
        return self.d("points_of", hand=hands[seat], held=self.held(hands, hand_of),
                      charity_out=charity_out)

    def points(self, hands, hand_of, p, charity_out):
        """The points of the hand player ``p`` plays."""
        return self.hand_points(hands, hand_of, hand_of[p], charity_out)

    def cards_points(self, h):
        """The points of the cards ``h`` as a hand of the current state (the
        Charities acting on it are the current state's)."""
        return self.d("points_of", hand=h, held=self.held(self.hands, self.hand_of),
                      charity_out=self.charity_out)

    def any_zero(self, hands, hand_of, charity_out):
        return Exists(self.ALLP, lambda p: self.points(hands, hand_of, p, charity_out).eq(0),
                      hint="z")
