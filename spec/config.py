"""The table a game is played at: players, the deck, hand size.

A configuration is bound at compile time (elaboration): the rule compiler
specialises the rulebook's AST to one concrete table, so both backends work on
finite, constant-folded structures.  Cards are numbered once here, and every
other module refers to cards by these numbers (bit positions in card sets).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .errors import ConfigError

SUIT_NAMES = ("red", "blue", "green", "yellow", "purple", "orange")

#: Option cards in rulebook order, with their point values.
OPTION_VALUES = {
    "mercy": 50,
    "justice": 20,
    "repentance": 20,
    "unbelief": 20,
    "pride_cycle": 20,
    "secret_combination": 20,
}
OPTION_TITLES = {
    "mercy": "Mercy",
    "justice": "Justice",
    "repentance": "Repentance",
    "unbelief": "Unbelief",
    "pride_cycle": "Pride Cycle",
    "secret_combination": "Secret Combination",
}
#: Documented default: the number of copies of each option card is not
#: published; one copy of each is the default (make it configuration).
DEFAULT_OPTION_COPIES = 1

CHARITY_VALUE = 0
DESOLATION_VALUE = 25
MIN_RANK, MAX_RANK = 2, 10


@dataclass(frozen=True)
class Card:
    """One physical card: its number, kind, suit (or None) and point value."""

    index: int
    kind: str  # "number", "charity", "desolation" or an option name
    suit: int | None
    rank: int | None
    value: int
    copy: int = 0

    @property
    def name(self) -> str:
        """The name players use at the table: "red 7", "blue Charity", "Mercy"."""
        if self.kind in ("number", "charity", "desolation"):
            assert self.suit is not None  # every number, Charity and Desolation has a suit
            what = self.rank if self.kind == "number" else self.kind.capitalize()
            return f"{SUIT_NAMES[self.suit]} {what}"
        title = OPTION_TITLES[self.kind]
        return title if self.copy == 0 else f"{title}#{self.copy + 1}"

    @property
    def is_option(self) -> bool:
        return self.kind in OPTION_VALUES


@dataclass(frozen=True)
class Config:
    """A concrete table.  Validated on construction; hashable."""

    players: int = 3
    suits: int = 2
    ranks: tuple[int, int] = (2, 4)
    hand: int = 3
    options: tuple[tuple[str, int], ...] = ()
    charity: bool = True
    desolation: bool = True
    #: rounds in a game under ``game.end = rounds`` (0: one per player)
    rounds: int = 0
    #: total that ends the game under ``game.end = threshold``
    threshold: int = 100

    def __post_init__(self):
        if not 2 <= self.players <= 8:
            raise ConfigError(f"players must be 2..8, got {self.players}", key="players")
        if not 1 <= self.suits <= len(SUIT_NAMES):
            raise ConfigError(f"suits must be 1..6, got {self.suits}", key="suits")
        lo, hi = self.ranks
        if not (MIN_RANK <= lo <= hi <= MAX_RANK):
            raise ConfigError(f"ranks must be LO..HI within 2..10, got {lo}..{hi}", key="ranks")
        if self.hand < 1:
            raise ConfigError(f"hand must be at least 1, got {self.hand}", key="hand")
        seen = set()
        for name, copies in self.options:
            if name not in OPTION_VALUES:
                raise ConfigError(f"unknown option card {name!r}", key="options")
            if name in seen:
                raise ConfigError(f"option card {name!r} listed twice", key="options")
            seen.add(name)
            if not 1 <= copies <= 8:
                raise ConfigError(f"copies of {name} must be 1..8, got {copies}", key="options")
        object.__setattr__(self, "options", tuple(sorted(
            self.options, key=lambda kv: list(OPTION_VALUES).index(kv[0]))))
        needed = self.players * self.hand + 1
        if needed > self.n_cards:
            raise ConfigError(
                f"{self.players} hands of {self.hand} plus a face-up card need "
                f"{needed} cards, but the deck has {self.n_cards}", key="hand")
        if self.rounds < 0 or self.threshold < 1:
            raise ConfigError("rounds must be >= 0 and threshold >= 1",
                              key="rounds" if self.rounds < 0 else "threshold")

    # -- the deck ---------------------------------------------------------
    @cached_property
    def cards(self) -> tuple[Card, ...]:
        out: list[Card] = []
        lo, hi = self.ranks
        for s in range(self.suits):
            for r in range(lo, hi + 1):
                out.append(Card(len(out), "number", s, r, r))
            if self.charity:
                out.append(Card(len(out), "charity", s, None, CHARITY_VALUE))
            if self.desolation:
                out.append(Card(len(out), "desolation", s, None, DESOLATION_VALUE))
        for name, copies in self.options:
            for k in range(copies):
                out.append(Card(len(out), name, None, None, OPTION_VALUES[name], k))
        return tuple(out)

    @property
    def n_cards(self) -> int:
        lo, hi = self.ranks
        per_suit = (hi - lo + 1) + self.charity + self.desolation
        return self.suits * per_suit + sum(c for _, c in self.options)

    @property
    def option_copies(self) -> dict[str, int]:
        return dict(self.options)

    @property
    def game_rounds(self) -> int:
        return self.rounds or self.players

    def mask(self, pred) -> int:
        """The card set (bitmask) of the cards satisfying ``pred``."""
        m = 0
        for c in self.cards:
            if pred(c):
                m |= 1 << c.index
        return m

    def card_by_name(self, name: str) -> Card:
        key = " ".join(name.replace("_", " ").split()).lower()
        for c in self.cards:
            if c.name.lower() == key:
                return c
        raise ConfigError(f"no card named {name!r} at this table")

    def describe(self) -> str:
        lo, hi = self.ranks
        opts = ", ".join(f"{OPTION_TITLES[n]}" + (f"x{k}" if k > 1 else "")
                         for n, k in self.options) or "no option cards"
        return (f"{self.players} players, {self.suits} suit{'s' * (self.suits > 1)}, "
                f"ranks {lo}-{hi}, hand {self.hand}, {opts}")

    def as_dict(self) -> dict:
        return {
            "players": self.players, "suits": self.suits,
            "ranks": f"{self.ranks[0]}..{self.ranks[1]}", "hand": self.hand,
            "options": {n: k for n, k in self.options},
            "charity": self.charity, "desolation": self.desolation,
            "rounds": self.game_rounds, "threshold": self.threshold,
            "cards": self.n_cards,
        }


def full_deck_options(copies: int = DEFAULT_OPTION_COPIES) -> tuple[tuple[str, int], ...]:
    return tuple((n, copies) for n in OPTION_VALUES)


FULL_DECK = dict(suits=6, ranks=(2, 10), options=full_deck_options(), hand=6)
