"""What a person sees of a game: the table at one state, a rule with its words,
a trace step by step.

Every view is read off the engine (``Game``: its state variables, scores and
card list) and the spec (rules, their rulebook sentences, the choice points'
readings); nothing here knows what a card does.  The HTML report
(``report/html.py``) and the terminal game (``report/play.py``) draw the same
views.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from itcp.model.engine import runtime
from itcp.model.engine.engine import Game
from itcp.scenarios.story import Trace, changes, say, who
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.config import Card
from itcp.spec.rulebook import SENTENCES
from itcp.spec.rules.vocabulary import END_NAMES, PHASE_NAMES

# -- one state ---------------------------------------------------------------------

@dataclass
class SeatView:
    """One seat at the table."""
    player: int
    cards: list[Card]          # the hand this seat holds (its own seat's cards)
    points: int                # the spec's score of this seat's player, as if scored now
    passed: bool
    first_passer: bool
    aside: bool                # set aside by a Secret Combination
    plays: int                 # the seat whose hand this player plays (itself unless teamed)
    to_play: bool              # the turn is this seat's
    to_act: bool               # this seat must choose now (turn player, race winner, giver)

    @property
    def hand_names(self) -> list[str]:
        return [c.name for c in self.cards]


@dataclass
class TableView:
    """The table at one state."""
    phase: str
    ended: str                 # "live" or why the round ended
    direction: int             # +1 to the left, -1 to the right
    deck: int                  # cards in the deck
    pile: list[Card]           # the discard pile, top card last
    seats: list[SeatView]
    chooser: str               # "P2", "chance" or "nobody (the round is over)"
    terminal: bool
    scores: tuple | None       # the round's scores once it is over

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def passers(self) -> list[int]:
        return [x.player for x in self.seats if x.passed]


def cards_of(game: Game, mask: int) -> list[Card]:
    return [game.config.cards[c] for c in runtime.bits(mask)]


def table_view(game: Game, s) -> TableView:
    """The table at state ``s``, as a player would see it with every hand face up."""
    g = lambda v: game.get(s, v)  # noqa: E731
    n = game.config.players
    current = game.current_player(s)
    passers, aside = g("passers"), g("aside")
    scores = game.scores(s)
    seats = []
    for p in range(n):
        seats.append(SeatView(
            player=p, cards=cards_of(game, g("hands")[p]), points=scores[p],
            passed=bool(passers >> p & 1), first_passer=g("first_passer") == p,
            aside=bool(aside >> p & 1), plays=g("hand_of")[p],
            to_play=g("turn") == p and not game.is_terminal(s),
            to_act=current == p))
    chooser = who(game, s)
    terminal = game.is_terminal(s)
    return TableView(PHASE_NAMES[g("phase")], END_NAMES[g("ended")], g("dir"),
                     len(runtime.bits(g("deck"))),
                     [game.config.cards[c] for c in g("pile")], seats, chooser, terminal,
                     scores if terminal else None)


# -- rules, in the rulebook's words ------------------------------------------------------

@dataclass
class RuleNote:
    """A rule as a player reads it: what it says, the reading it stands for, and the
    rulebook sentences it formalises."""
    id: str
    doc: str
    choice: str | None
    reading: str | None
    reading_text: str | None                 # the reading's words (spec/choices.py)
    question: str | None                     # the choice point's question
    sentences: list[tuple[str, str]] = field(default_factory=list)  # (id, text)

    @property
    def reading_label(self) -> str:
        """"unbelief.pass = go_around: the passer is skipped ..." (or "")."""
        if not self.choice:
            return ""
        return f"{self.choice} = {self.reading}" + (f": {self.reading_text}"
                                                    if self.reading_text else "")


def rule_note(spec, rid: str) -> RuleNote:
    r = spec.rule(rid)
    text = question = None
    if r.choice:
        cp = CHOICE_POINTS.get(r.choice)
        if cp is not None:
            question = cp.question
            text = next((x.text for x in cp.readings if x.id == r.reading), None)
    return RuleNote(rid, r.doc, r.choice, r.reading, text, question,
                    [(sid, SENTENCES.get(sid, "")) for sid in r.sentences])


@dataclass
class ReadingView:
    """One choice point as the variant reads it."""
    choice: str
    question: str
    reading: str
    reading_text: str
    literal: bool              # the reading is the literal one
    explicit: bool             # the variant (or a file it extends) sets it
    sentences: list[tuple[str, str]]
    others: list[tuple[str, str]]  # the other readings (id, text)


def readings_view(variant) -> list[ReadingView]:
    out = []
    for cid, cp in CHOICE_POINTS.items():
        if cid not in variant.readings:
            continue
        rd = variant.readings[cid]
        text = next((x.text for x in cp.readings if x.id == rd), "")
        out.append(ReadingView(cid, cp.question, rd, text, rd == cp.literal,
                               cid in variant.explicit,
                               [(sid, SENTENCES.get(sid, "")) for sid in cp.sentences],
                               [(x.id, x.text) for x in cp.readings if x.id != rd]))
    return out


# -- a trace ------------------------------------------------------------------------

@dataclass
class StepView:
    n: int
    mover: str                 # "P1", "chance"
    action: str                # the engine's name: "discard(Pride Cycle)"
    said: str                  # in table talk: "P0 discards Pride Cycle"
    rules: list[RuleNote]
    changes: list[str]
    before: TableView
    after: TableView


@dataclass
class TraceView:
    deal: TableView
    steps: list[StepView]
    ending: str
    loop_from: int | None = None   # a lasso: the state after this step recurs at the end

    @property
    def tables(self) -> list[TableView]:
        """The table after the deal, then after each step."""
        return [self.deal] + [st.after for st in self.steps]


def trace_view(game: Game, states, actions, ending: str, loop_from: int | None = None,
               rules=None) -> TraceView:
    """A trace (``len(states) == len(actions) + 1``) step by step.  ``rules`` (one
    list per step) are the rules a story already named; else the engine's record
    of the step (``Game.decided``) is read."""
    views = [table_view(game, s) for s in states]
    steps = []
    for i, a in enumerate(actions):
        s, s2 = states[i], states[i + 1]
        rids = rules[i] if rules is not None else game.decided(s, a, s2)
        steps.append(StepView(i + 1, who(game, s), game.action_str(a),
                              say(game, s, a), [rule_note(game.spec, r) for r in rids],
                              changes(game, s, s2), views[i], views[i + 1]))
    return TraceView(views[0], steps, ending, loop_from)


def told_view(game: Game, trace: Trace) -> TraceView:
    """A checker's trace (``scenarios/story.py``: a verdict's or an answer's), with
    its engine states."""
    assert trace.states is not None and trace.actions is not None
    return trace_view(game, trace.states, trace.actions, trace.ending, trace.loop_from,
                      [st.rules for st in trace.steps])


__all__ = ["SeatView", "TableView", "table_view", "RuleNote", "rule_note", "ReadingView",
           "readings_view", "StepView", "TraceView", "trace_view", "told_view", "cards_of"]
