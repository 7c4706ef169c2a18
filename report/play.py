"""A game at the terminal: a person against bots, each rule explained as it fires.

``Session`` plays one round (or a whole game) of a variant: the table is drawn
each time the person is to move, their legal moves are numbered, and after
every move (theirs, a bot's, or chance's) the rules that decided it are named
with the reading in force, from the engine's record of the step
(``Game.decided``, as the stories of ``scenarios/story.py`` name them); a rule's
rulebook sentences are quoted the first time it fires (every time with
``explain="all"``).  ``Replay`` steps through a scenario file the same way.

Plain lines in, plain lines out (an ANSI colour for the suits when the output
is a terminal): it works on a pipe and under a pseudo-terminal alike.  What the
person types:

* a move's number;
* ``? QUESTION``: ask the rules a question (the session's ``ask`` function);
* ``t``: the table again; ``h``: help; ``q``: quit.

Bots: ``random`` picks a legal move uniformly; ``greedy`` picks the move after
which its own hand is worth the fewest points (the spec's scoring, counting
nobody as a passer), looking through its own next choices and averaging over a
card drawn from the deck, and says Pass when its hand is worth at most
``GREEDY_PASS_POINTS`` or no draw is expected to lower it by a point.  Bots see
only their own hand and the table (the greedy one peeks at nothing else).
"""
from __future__ import annotations

import os
import random
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from itcp.model.engine.engine import CHANCE, Game
from itcp.scenarios.story import changes, say

from .view import RuleNote, SeatView, TableView, rule_note, table_view

GREEDY_PASS_POINTS = 12
#: how far the greedy bot looks ahead (its own choices and chance draws)
GREEDY_DEPTH = 3
#: a round longer than this many moves is stopped (a round that can go on forever)
MAX_MOVES = 2000

ANSI = {"red": "31", "blue": "34", "green": "32", "yellow": "33", "purple": "35",
        "orange": "91"}


# -- bots ----------------------------------------------------------------------------------

def own_points(game: Game, s, p: int) -> int:
    """The points of the hand ``p`` plays, by the spec's scoring, with nobody
    counted as a passer (a passer's bonus depends on the other hands)."""
    i = game.index["passers"]
    return game.scores(s[:i] + (0,) + s[i + 1:])[p]


def greedy_value(game: Game, s, p: int, depth: int) -> float:
    """The points ``p`` can expect once its own choices are over (the best of its
    choices, the mean over chance)."""
    if depth <= 0 or game.is_terminal(s):
        return own_points(game, s, p)
    if game.is_chance(s):
        outs = game.chance_outcomes(s)
        if not outs:
            return own_points(game, s, p)
        return sum(w * greedy_value(game, game.apply(s, a, False), p, depth - 1)
                   for a, w in outs)
    if game.current_player(s) != p:
        return own_points(game, s, p)
    acts = game.legal_actions(s)
    if not acts:
        return own_points(game, s, p)
    return min(greedy_value(game, game.apply(s, a, False), p, depth - 1) for a in acts)


def choose(kind: str, game: Game, s, rng: random.Random):
    """A bot's move at ``s``."""
    acts = game.legal_actions(s)
    if kind == "random" or len(acts) == 1:
        return rng.choice(acts)
    p = game.current_player(s)
    now = own_points(game, s, p)
    scored = [(greedy_value(game, game.apply(s, a, False), p, GREEDY_DEPTH), rng.random(), a)
              for a in acts]
    passes = [x for x in scored if x[2][0] == "pass"]
    others = sorted(x for x in scored if x[2][0] != "pass")
    if passes and (not others or now <= GREEDY_PASS_POINTS or others[0][0] > now - 1):
        return passes[0][2]
    return min(others or scored)[2]


BOTS = ("random", "greedy")


# -- drawing -------------------------------------------------------------------------------

@dataclass
class Style:
    colour: bool = False

    def card(self, c) -> str:
        text = f"[{c.name}]"
        if not self.colour or c.suit is None:
            return text if not self.colour else f"\x1b[1m{text}\x1b[0m"
        name = c.name.split(" ", 1)[0]
        return f"\x1b[{ANSI.get(name, '0')}m{text}\x1b[0m"

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.colour else text


def use_colour(stream) -> bool:
    return (hasattr(stream, "isatty") and stream.isatty() and "NO_COLOR" not in os.environ
            and os.environ.get("TERM") != "dumb")


def draw_table(view: TableView, you: int | None, style: Style, open_hands: bool,
               title: str) -> list[str]:
    """The table as lines of text."""
    top = f"{style.card(view.top)}" if view.top else "empty"
    arrow = "to the left (+1)" if view.direction > 0 else "to the right (-1)"
    lines = [style.bold(f"== {title} " + "=" * max(3, 60 - len(title))),
             f"  deck {view.deck} card{'s' * (view.deck != 1)}   pile {len(view.pile)}, "
             f"top {top}   play goes {arrow}"]
    for x in view.seats:
        lines.append("  " + _seat_line(x, you, style, open_hands))
    return lines


def _seat_line(x: SeatView, you, style: Style, open_hands: bool) -> str:
    name = f"P{x.player}" + (" (you)" if x.player == you else "")
    marks = []
    if x.passed:
        marks.append("PASSED")
    if x.to_act:
        marks.append("<- to move")
    if x.aside:
        marks.append("set aside")
    if x.plays != x.player:
        marks.append(f"plays P{x.plays}'s hand")
    if open_hands or x.player == you:
        hand = " ".join(style.card(c) for c in x.cards) or "(no cards)"
        pts = f"  {x.points} pts"
    else:
        hand = f"{len(x.cards)} card{'s' * (len(x.cards) != 1)}"
        pts = ""
    return f"{name:<9} {hand}{pts}" + (f"   {' '.join(marks)}" if marks else "")


def explain(notes: list[RuleNote], seen: set, every: bool, width: int = 100) -> list[str]:
    """The rules of a step: each named with its reading; its sentences quoted the
    first time (or every time)."""
    out = []
    for n in notes:
        reading = f" (reading {n.reading_label})" if n.choice else ""
        out += textwrap.wrap(f"rule {n.id}{reading}: {n.doc}", width,
                             initial_indent="     - ", subsequent_indent="       ")
        if every or n.id not in seen:
            for sid, text in n.sentences:
                out += textwrap.wrap(f'[{sid}] "{text}"', width, initial_indent="         ",
                                     subsequent_indent="          ")
        seen.add(n.id)
    return out


# -- the session ---------------------------------------------------------------------------

class Quit(Exception):
    """The person typed q, or the input ended."""


@dataclass
class Session:
    """One round (or game, if ``game.spec.scope == "game"``) at the terminal."""
    game: Game
    title: str
    seat: int
    bots: str
    rng: random.Random
    inp: TextIO
    out: TextIO
    ask: Callable[[str], list[str]] | None = None  # question text -> lines (None: unavailable)
    open_hands: bool = False
    explain_all: bool = False
    style: Style = field(default_factory=Style)
    seen: set = field(default_factory=set)
    moves: int = 0

    # -- i/o ------------------------------------------------------------------------
    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say("", "(input ended)")
            raise Quit
        if not (hasattr(self.inp, "isatty") and self.inp.isatty()):
            self.say(line.rstrip("\n"))   # from a pipe: show what was typed
        return line.strip()

    def table(self, s) -> None:
        g = self.game
        title = self.title
        if g.spec.scope == "game":
            title += (f", round {g.get(s, 'round_no') + (0 if g.is_terminal(s) else 1)}"
                      f" of the game; totals " + " ".join(f"P{p} {x}" for p, x in
                                                          enumerate(g.get(s, "totals"))))
        self.say("", *draw_table(table_view(g, s), self.seat, self.style, self.open_hands,
                                 title))

    # -- one step ----------------------------------------------------------------------
    def step(self, s, a):
        """Apply ``a``; tell it, with the rules that decided it and what changed."""
        g = self.game
        s2 = g.apply(s, a)
        self.moves += 1
        mover = g.current_player(s)
        self.say(f"  {self._told(s, a, mover)}.")
        notes = [rule_note(g.spec, r) for r in g.decided(s, a, s2)]
        self.say(*explain(notes, self.seen, self.explain_all))
        ch = [self._hide(c) for c in changes(g, s, s2)]
        if ch:
            self.say(*textwrap.wrap("-> " + "; ".join(c for c in ch if c), 100,
                                    initial_indent="     ", subsequent_indent="        "))
        return s2

    def _told(self, s, a, mover) -> str:
        """The move in table talk, keeping the other hands hidden unless open."""
        text = say(self.game, s, a)
        if self.open_hands:
            return text
        if mover == CHANCE and a[0] == "deck_card" and self.game.get(s, "actor") != self.seat:
            return f"P{self.game.get(s, 'actor')} draws a card from the deck (face down)"
        if a[0] == "give" and mover != self.seat:
            return re.sub(r"chooses .* to give", "chooses a card to give", text)
        if a[0] == "deal":
            return "a new round is dealt"
        return text

    def _hide(self, line: str) -> str:
        m = re.match(r"P(\d+) now holds (.*)", line)
        if m and not self.open_hands and int(m.group(1)) != self.seat:
            held = m.group(2)
            k = 0 if held == "nothing" else held.count(",") + 1
            return f"P{m.group(1)} now holds {k} card{'s' * (k != 1)}"
        return line

    # -- the person's move ---------------------------------------------------------------
    def menu(self, s) -> list:
        acts = self.game.legal_actions(s)
        self.say("", self.style.bold("Your move:"))
        for i, a in enumerate(acts, 1):
            words = say(self.game, s, a)
            words = words.split(" ", 1)[1] if words.startswith(f"P{self.seat} ") else words
            self.say(f"  {i:>2}. {words}   [{self.game.action_str(a)}]")
        return acts

    def person(self, s):
        acts = self.menu(s)
        while True:
            text = self.read(f"move 1-{len(acts)}, ? question, t table, h help, q quit > ")
            if text.isdigit() and 1 <= int(text) <= len(acts):
                return acts[int(text) - 1]
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise Quit
            if low in ("t", "table"):
                self.table(s)
                acts = self.menu(s)
            elif low in ("h", "help", ""):
                self.say("  type the number of a move; '? QUESTION' asks the rules (e.g. "
                         "? can the passer's hand change); t shows the table; q quits")
            elif text.startswith("?"):
                self.question(text[1:].strip())
            else:
                self.say(f"  not a move: {text!r} (1-{len(acts)}, ?, t, h or q)")

    def question(self, text: str) -> None:
        if not text:
            self.say("  ask a question after the '?', e.g. ? can the passer's hand change")
            return
        if self.ask is None:
            self.say("  questions are not available here")
            return
        self.say(*("  " + x for x in self.ask(text)))

    # -- the loop ------------------------------------------------------------------------
    def play(self) -> int:
        """Play until the round (or game) is over; 0 when it ended, 3 when no move
        was legal or the move cap was hit, 130 when the person quit."""
        g = self.game
        try:
            s = g.initial_state()
            while True:
                if g.is_terminal(s):
                    self.finish(s)
                    return 0
                if self.moves >= MAX_MOVES:
                    self.say("", f"Stopped after {MAX_MOVES} moves: this round may go on "
                                 "forever (see itcp-check check, ROUND_ENDS).")
                    return 3
                who = g.current_player(s)
                if who == CHANCE:
                    a = g.sample_chance(s, self.rng)
                    before = s
                    s = self.step(s, a)
                    if g.describe(before)["ended"] == "live" != g.describe(s)["ended"]:
                        self.round_over(s)
                    elif a[0] == "deal":
                        self.table(s)
                    continue
                if not g.legal_actions(s):
                    self.table(s)
                    self.say("", f"P{who} must move but no move is legal: the game is stuck "
                                 "(see itcp-check check, NO_DEADLOCK).")
                    return 3
                if who == self.seat:
                    self.table(s)
                    a = self.person(s)
                else:
                    a = choose(self.bots, g, s, self.rng)
                    self.say("", f"P{who} ({self.bots} bot):")
                before = s
                s = self.step(s, a)
                if g.describe(before)["ended"] == "live" != g.describe(s)["ended"]:
                    self.round_over(s)
        except Quit:
            self.say("Goodbye.")
            return 130

    def round_over(self, s) -> None:
        """The table at the end of a round, every hand shown, and the scores."""
        g = self.game
        title = self.title + (f", round {g.get(s, 'round_no') + 1} of the game"
                               if g.spec.scope == "game" else "")
        self.say("", *draw_table(table_view(g, s), self.seat, self.style, True, title))
        self.say("", self.style.bold(f"The round is over ({g.describe(s)['ended']}). Scores: ")
                 + ", ".join(f"P{p} {x}" for p, x in enumerate(g.scores(s))))

    def finish(self, s) -> None:
        g = self.game
        if g.spec.scope == "game":
            self.say("", self.style.bold("The game is over. Totals: ")
                     + ", ".join(f"P{p} {x}" for p, x in enumerate(g.get(s, "totals"))))


@dataclass
class Replay(Session):
    """A scenario's moves, one per Enter (all at once when the input ends)."""
    states: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    interactive: bool = True

    def play(self) -> int:
        g = self.game
        s = self.states[0]
        self.table(s)
        try:
            for i, a in enumerate(self.actions, 1):
                if self.interactive:
                    text = self._prompt(i)
                    if text is None:
                        self.interactive = False
                self.say("", self.style.bold(f"Move {i} of {len(self.actions)}:"))
                s = self.step(s, a)
                if self.interactive:
                    self.table(s)
        except Quit:
            self.say("Goodbye.")
            return 130
        self.table(s)
        if g.is_terminal(s):
            self.say("", f"The round is over ({g.describe(s)['ended']}). Scores: "
                     + ", ".join(f"P{p} {x}" for p, x in enumerate(g.scores(s))))
        return 0

    def _prompt(self, i: int):
        while True:
            self.out.write(f"Enter: move {i}, ? question, q quit > ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say("", "(input ended: the remaining moves follow)")
                return None
            if not (hasattr(self.inp, "isatty") and self.inp.isatty()):
                self.say(line.rstrip("\n"))
            text = line.strip()
            if text.lower() in ("q", "quit"):
                raise Quit
            if text.startswith("?"):
                self.question(text[1:].strip())
                continue
            return text


__all__ = ["Session", "Replay", "choose", "BOTS", "draw_table", "explain", "use_colour",
           "Style", "own_points", "GREEDY_PASS_POINTS"]
