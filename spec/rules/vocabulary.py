"""The vocabulary the rules are written in, bound to one configuration.

State variables, phases, actions and definition signatures, plus the constant
card sets and tables of the configured deck (the elaborated "netlist" of the
table).  Rules in ``turn.py`` and ``options.py`` are written against a
``Vocabulary``; nothing here says what any card does.
"""
from __future__ import annotations

from functools import cached_property

from .. import ast as A
from ..ast import BOOL, CARD, CARDS, INT, NOBODY, NOCARD, PILE, PLAYER, PLAYERS, Call, map_of
from ..config import OPTION_VALUES, Config
from ..errors import SpecError, nearest
from ..lang import (
    FALSE,
    ActionDecl,
    Define,
    DefSig,
    Exists,
    If,
    MapOf,
    ParamDecl,
    Phase,
    SetOf,
    StateVar,
    card,
    cards,
    num,
    player,
    players,
    signature,
    table,
)

# Phase numbers (the value of the ``phase`` variable).
DEAL, REVEAL, DRAW, DECK, DISCARD, RACE, PRIDE, SECRET, OVER, GAME_OVER = range(10)
PHASE_NAMES = ("DEAL", "REVEAL", "DRAW", "DECK", "DISCARD", "RACE", "PRIDE", "SECRET", "OVER",
               "GAME_OVER")
# Why a round ended (the value of ``ended``).
LIVE, PASS_REACHED, ZERO, DECK_OUT = range(4)
END_NAMES = ("live", "pass reached", "zero", "deck exhausted")

VARIABLES = (
    StateVar("phase", INT, "what kind of move comes next (DEAL, DRAW, ...)", bounds=(0, 15)),
    StateVar("turn", PLAYER, "whose turn it is in the rotation"),
    StateVar("actor", PLAYER, "who must choose now (the turn player, a race winner, a giver)"),
    StateVar("dir", INT, "direction of play: +1 to the left, -1 to the right", bounds=(-1, 1)),
    StateVar("hands", map_of(CARDS), "the cards held at each seat"),
    StateVar("deck", CARDS, "the face-down deck (unordered: drawing is chance)"),
    StateVar("pile", PILE, "the discard pile, top card last"),
    StateVar("passers", PLAYERS, "players who have said Pass this round"),
    StateVar("first_passer", PLAYER, "the first player to say Pass, or nobody"),
    StateVar("since_pass", PLAYERS, "players who finished a turn since the first Pass",
             record=True),
    StateVar("had_turn", PLAYERS, "players who have finished a turn this round", record=True),
    StateVar("taken", CARDS, "the cards taken from the discard pile this turn", record=True),
    StateVar("drew", BOOL, "the player whose turn it is has drawn this turn", record=True),
    StateVar("owed", INT, "draws still owed this turn before discarding", bounds=(0, 31)),
    StateVar("duty", INT, "Justice cards stacked on the duty", bounds=(0, 31)),
    StateVar("duty_on", PLAYER, "the player the Justice duty falls on, or nobody"),
    StateVar("racing", BOOL, "the pending discard is a Mercy race discard"),
    StateVar("racers", PLAYERS, "racers still to discard in Mercy's race (every racer discards "
             "under mercy.discards = every_racer)"),
    StateVar("owes_discard", BOOL, "the turn player answered a Justice duty and still owes the "
             "turn's discard (justice.answer = draw_only)"),
    StateVar("duty_fresh", BOOL, "the Justice duty was set in the middle of this turn: it "
             "outlasts the turn's end"),
    StateVar("resume", PLAYER, "the seat play resumes from after a race, gifts or a team"),
    StateVar("pride_left", PLAYERS, "Pride Cycle givers still to choose"),
    StateVar("gifts", map_of(CARD), "cards chosen for Pride Cycle, not yet handed over"),
    StateVar("partner", PLAYER, "the next player in a Secret Combination being formed"),
    StateVar("hand_of", map_of(PLAYER), "the seat whose hand each player plays and scores"),
    StateVar("aside", PLAYERS, "seats set aside by a Secret Combination (out of the rotation)"),
    StateVar("charity_out", CARDS, "Charity cards discarded this round (they act once discarded "
             "under charity.acts = discarded)"),
    StateVar("ended", INT, "why the round ended: 0 live, 1 pass reached, 2 zero, 3 deck", bounds=(0, 7)),
    StateVar("before_draw", INT, "one more than the turn player's points before this turn's "
             "first draw; 0: none recorded (always, unless discard.lower = constraint)",
             bounds=(0, 2047), record=True),
    StateVar("dealer", PLAYER, "the dealer of this round"),
    StateVar("totals", map_of(INT), "each player's running total", scope="game",
             bounds=(-4096, 65535)),
    StateVar("round_no", INT, "rounds completed", scope="game", bounds=(0, 255)),
)
V = {v.name: v for v in VARIABLES}

#: A seat's score: the ``score`` definition (the scoring rules give its body),
#: over the state variables of ``SCORE_INPUTS`` (its parameters are named after
#: them) and then the player.
SCORE = signature("score", INT, hands=map_of(CARDS), hand_of=map_of(PLAYER), passers=PLAYERS,
                  ended=INT, charity_out=CARDS, player=PLAYER)
SCORE_INPUTS = SCORE.names[:-1]
assert all(n in V for n in SCORE_INPUTS)


#: what a scenario's [expect] states about a state besides the scores
#: (scenarios/replay.py's facts): what a round observably does
SCENARIO_FACTS = ("turn", "actor", "phase", "ended", "dir", "passers", "pile", "deck", "hands")
#: and in a whole game, the rounds completed and the running totals
SCENARIO_FACTS_GAME = ("round_no", "totals")
assert all(n in V for n in SCENARIO_FACTS)


def score_of(p, primed=False):
    """Player ``p``'s score in the current state (the next one with ``primed``),
    as an expression: the ``score`` definition applied to the state variables
    it reads.  Every backend, checker and rule that scores a player asks this,
    so a reading that scores from more of the state changes ``SCORE`` and
    ``SCORE_INPUTS`` here, and nothing that calls it."""
    return SCORE(**{n: V[n].new if primed else V[n].cur for n in SCORE_INPUTS}, player=p)


def _guess(name: str, names) -> str:
    close = nearest(name, names)
    return f" (did you mean {close!r}?)" if close else ""


class Vocabulary:
    """One configuration's constants and the shared vocabulary of the rules."""

    def __init__(self, config: Config):
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
        self.VALUES = table([x.value for x in c.cards] + [0])
        self.SUIT = table([(-1 if x.suit is None else x.suit) for x in c.cards] + [-1])
        self.OPTIONS = cards(c.mask(lambda x: x.is_option))

    # -- variables --------------------------------------------------------
    def __getattr__(self, name):
        # t.hands -> Var, t.hands_ -> Primed (next state)
        if name.endswith("_") and name[:-1] in V:
            return V[name[:-1]].new
        if name in V:
            return V[name].cur
        raise AttributeError(name)

    def card_const(self, i):
        return card(i)

    def player_const(self, i):
        return player(i)

    @cached_property
    def initial(self) -> dict:
        """The state before the deal: every card in the deck."""
        t = self
        return {
            "phase": num(DEAL), "turn": t.NOBODY, "actor": t.NOBODY, "dir": num(1),
            "hands": MapOf(t.ALLP, lambda p: t.NONE), "deck": t.ALL,
            "pile": A.Const((), PILE), "passers": t.NONEP, "first_passer": t.NOBODY,
            "since_pass": t.NONEP, "had_turn": t.NONEP, "taken": t.NONE, "drew": FALSE, "owed": num(1),
            "duty": num(0), "duty_on": t.NOBODY, "racing": FALSE, "racers": t.NONEP,
            "owes_discard": FALSE, "duty_fresh": FALSE, "resume": t.NOBODY,
            "pride_left": t.NONEP, "gifts": MapOf(t.ALLP, lambda p: t.NOCARD),
            "partner": t.NOBODY, "hand_of": MapOf(t.ALLP, lambda p: p),
            "aside": t.NONEP, "charity_out": t.NONE, "ended": num(LIVE), "before_draw": num(0),
            "dealer": player(0),
            "totals": MapOf(t.ALLP, lambda p: num(0)), "round_no": num(0),
        }

    @property
    def top_card(self):
        return A.op("top", self.pile)

    def top_after(self):
        return A.op("top", self.pile_)

    def is_kind(self, c, kind):
        return c.in_(self.kind[kind])

    def phase_is(self, ph):
        return self.phase.eq(num(ph))

    @cached_property
    def phases(self):
        t = self
        return (
            Phase("DEAL", DEAL, None, "the dealer deals (chance)"),
            Phase("REVEAL", REVEAL, t.actor,
                  "the face-up first card takes effect as if the dealer discarded it"),
            Phase("DRAW", DRAW, t.actor, "the turn player draws, passes or meets a duty"),
            Phase("DECK", DECK, None, "the top card of the deck is revealed (chance)"),
            Phase("DISCARD", DISCARD, t.actor, "the turn player (or a race winner) discards"),
            Phase("RACE", RACE, None, "who wins Mercy's race (a choice among eligible players)"),
            Phase("PRIDE", PRIDE, t.actor, "a Pride Cycle giver chooses a card"),
            Phase("SECRET", SECRET, t.actor, "a Secret Combination team chooses the best hand"),
            Phase("OVER", OVER, None, "the round is over", terminal=True),
            Phase("GAME_OVER", GAME_OVER, None, "the game is over", terminal=True, scope="game"),
        )

    @cached_property
    def actions(self):
        t = self
        deal_params, dealt = [], t.NONE
        for p in range(t.n):
            prm = ParamDecl(f"h{p}", CARDS, t.deck - dealt, chooser="chance", size=t.cfg.hand)
            deal_params.append(prm)
            dealt = dealt | prm.ref
        deal_params.append(ParamDecl("up", CARD, t.deck - dealt, chooser="chance"))
        my = t.hands[t.hand_of[t.actor]]
        return (
            ActionDecl("deal", "DEAL", tuple(deal_params), "deal the hands and the face-up card"),
            ActionDecl("reveal", "REVEAL", (), "the first face-up card takes effect"),
            ActionDecl("draw_pile", "DRAW", (), "take the top card of the discard pile"),
            ActionDecl("draw_deck", "DRAW", (), "draw from the deck"),
            ActionDecl("deck_card", "DECK", (ParamDecl("c", CARD, t.deck, "chance"),),
                       "the card drawn from the deck"),
            ActionDecl("pass", "DRAW", (), "say Pass instead of drawing"),
            ActionDecl("answer", "DRAW", (ParamDecl("c", CARD, my),),
                       "meet a Justice duty by playing a Justice or Mercy"),
            ActionDecl("discard", "DISCARD", (ParamDecl("c", CARD, my),), "discard a card"),
            ActionDecl("skip_discard", "DISCARD", (), "end the turn without a discard"),
            ActionDecl("race", "RACE", (ParamDecl("w", PLAYER, t.ALLP, "chance"),),
                       "the winner of Mercy's race"),
            ActionDecl("give", "PRIDE", (ParamDecl("c", CARD, my),), "give a card (Pride Cycle)"),
            ActionDecl("give_nothing", "PRIDE", (), "a giver with an empty hand gives nothing"),
            ActionDecl("keep", "SECRET", (ParamDecl("k", PLAYER, t.ALLP),),
                       "keep this seat's hand for the team"),
            ActionDecl("next_round", "OVER", (), "total the scores and start the next round",
                       scope="game"),
        )

    @cached_property
    def signatures(self) -> dict[str, DefSig]:
        """Every definition a reading gives the body of; a call names its arguments
        (``t.d("lowers_ok", card=c, hand=h, limit=lim)``), as does the body."""
        return {s.name: s for s in (
            signature("points_of", INT, hand=CARDS, held=CARDS, charity_out=CARDS),
            signature("cancelled", CARDS, hand=CARDS, acting=CARDS),
            signature("charity_acting", CARDS, hand=CARDS, held=CARDS, charity_out=CARDS),
            signature("options_suited", BOOL),
            SCORE,
            signature("seat_points", INT, hands=map_of(CARDS), hand_of=map_of(PLAYER),
                      charity_out=CARDS, player=PLAYER),
            signature("seat_scored", BOOL, hand_of=map_of(PLAYER), player=PLAYER),
            signature("pass_for", BOOL, hand_of=map_of(PLAYER), passers=PLAYERS, player=PLAYER),
            signature("pass_tested", BOOL, ended=INT),
            signature("pass_wins", BOOL, hands=map_of(CARDS), hand_of=map_of(PLAYER),
                      charity_out=CARDS, player=PLAYER),
            signature("pass_failed", INT, total=INT),
            signature("desolation_ok", BOOL, card=CARD, pile=PILE),
            signature("take_back_ok", BOOL, card=CARD, taken=CARDS),
            signature("desolation_binds", BOOL, racing=BOOL),
            signature("lowers_ok", BOOL, card=CARD, hand=CARDS, limit=INT),
            signature("can_discard", BOOL, card=CARD, hand=CARDS, pile=PILE, taken=CARDS,
                      limit=INT, racing=BOOL),
            signature("discard_ok", BOOL, card=CARD, hand=CARDS, pile=PILE, taken=CARDS,
                      limit=INT, racing=BOOL),
            signature("race_field", PLAYERS, hands=map_of(CARDS), hand_of=map_of(PLAYER),
                      passers=PLAYERS, aside=PLAYERS, by=PLAYER, dir=INT, pile=PILE,
                      turn=PLAYER, taken=CARDS),
            signature("race_effects", BOOL),
            signature("race_from", PLAYER, winner=PLAYER, mercy_player=PLAYER),
            signature("race_continues", BOOL),
            signature("race_resume", PLAYER, racer=PLAYER, resume=PLAYER),
            signature("answer_by_discard", BOOL),
            signature("answer_then_discard", BOOL),
            signature("pride_givers", PLAYERS, ring=PLAYERS, passers=PLAYERS, dir=INT),
            signature("pride_to", PLAYER, giver=PLAYER, ring=PLAYERS, passers=PLAYERS, dir=INT),
            signature("secret_partner", PLAYER, by=PLAYER, ring=PLAYERS, passers=PLAYERS,
                      dir=INT),
            signature("secret_allowed", BOOL, ring=PLAYERS),
            signature("secret_waits", BOOL),
            signature("unbelief_skips", BOOL),
            signature("repentance_skips", BOOL),
            signature("repentance_acts", BOOL, first_passer=PLAYER),
            signature("skip_stops", BOOL, skipped=PLAYER, first_passer=PLAYER),
            signature("arrival_ends", BOOL, land=PLAYER, first_passer=PLAYER,
                      since_pass=PLAYERS, live=PLAYERS, passers=PLAYERS),
            signature("arrival_seat", PLAYER, land=PLAYER, first_passer=PLAYER, dir=INT,
                      live=PLAYERS),
            signature("justice_target", PLAYER, next_player=PLAYER, passers=PLAYERS,
                      arrival=PLAYER),
            signature("game_done", BOOL, totals=map_of(INT), round_no=INT),
        )}

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
