"""Every place the rulebook is silent or can be read two ways: a choice point.

A choice point has an id, the question, the sentence ids it interprets, and two
or more readings.  The first reading is always the literal one (which may be
"the rulebook says nothing": then nothing happens, and the checker shows what
that costs).  Variants pick one reading per choice point; unpicked ones take the
literal reading.  Rules in ``itcp.spec.rules`` declare which reading they belong
to, so an elaborated spec contains exactly the rules of the chosen readings.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    id: str
    text: str


@dataclass(frozen=True)
class ChoicePoint:
    id: str
    question: str
    sentences: tuple[str, ...]
    readings: tuple[Reading, ...]
    #: where this point came from: "design" (DESIGN.md's table) or "found"
    origin: str = "design"
    note: str = ""

    @property
    def literal(self) -> str:
        return self.readings[0].id

    @property
    def reading_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.readings)


def _cp(id, question, sentences, readings, origin="design", note=""):
    return ChoicePoint(id, question, tuple(sentences),
                       tuple(Reading(r, t) for r, t in readings), origin, note)


CHOICE_POINTS: dict[str, ChoicePoint] = {cp.id: cp for cp in [
    _cp("deck.exhausted", "The deck is empty and a player would draw.", ["play.1"], [
        ("nothing", "the text says nothing: only the discard pile can be drawn"),
        ("reshuffle", "the discard pile under its top card is shuffled into a new deck"),
        ("round_ends", "drawing from the empty deck ends the round"),
    ]),
    _cp("setup.first_card", "The first face-up card is an option card.", ["setup.1"], [
        ("no_effect", "it has no effect"),
        ("applies", "its effect applies as if the dealer had discarded it"),
    ]),
    _cp("setup.zero_deal", "A hand is dealt worth 0 points.", ["setup.1", "pass.5"], [
        ("ends_at_once", "the round ends at once (\"at any time\")"),
        ("after_actions", "zero is only checked after actions"),
    ]),
    _cp("turn.take_back", "May a player discard the card just taken from the pile?", ["play.2"], [
        ("allowed", "allowed: any card from their hand"),
        ("not_allowed", "not allowed"),
    ]),
    _cp("pass.when", "May a player pass on their first turn?", ["pass.1"], [
        ("any_turn", "on any turn"),
        ("after_first_circuit", "not before every player has had a turn"),
    ]),
    _cp("pass.multiple", "A second player says Pass.", ["pass.1", "pass.3"], [
        ("not_allowed", "not allowed: once someone has passed nobody else may"),
        ("allowed", "allowed: each passer is frozen; the round ends at the first passer"),
    ]),
    _cp("pass.reached", "What does \"again reaches the passer\" mean?", ["pass.3", "pass.4"], [
        ("next_turn", "the passer's next turn comes"),
        ("circuit", "every other player has had one turn since the pass"),
    ]),
    _cp("pass.score", "\"Try for a score of minus 20\": what does the passer score?", ["pass.1"], [
        ("lowest_or_total", "-20 if lowest (ties count), else the hand total"),
        ("strictly_lowest", "-20 only if strictly lowest, else the hand total"),
        ("always", "always -20"),
    ]),
    _cp("zero.when", "\"If at any time a player reaches zero\": when is it checked?", ["pass.5"], [
        ("every_change", "after every change to a hand, mid-effect too"),
        ("end_of_turn", "at the end of each turn"),
    ]),
    _cp("charity.scope", "Which cards does Charity cancel?", ["charity.1"], [
        ("whole_suit", "every card of that suit in the holder's hand, Desolation too"),
        ("numbers_only", "number cards of that suit only"),
    ]),
    _cp("desolation.target", "\"Only discarded on the same suit\": on what?", ["desolation.1"], [
        ("same_suit", "the top card of the pile has that suit"),
        ("or_mercy", "that, or the top card is a Mercy"),
        ("or_empty", "that, or the pile is empty"),
    ]),
    _cp("discard.none", "After drawing, no card in hand may legally be discarded.", ["play.2", "desolation.1"], [
        ("stuck", "the text says nothing: no move, the game is stuck"),
        ("any_card", "then any card may be discarded"),
        ("skip_discard", "the turn ends without a discard"),
    ]),
    _cp("mercy.race", "Who may win Mercy's race?", ["mercy.1", "pass.2"], [
        ("not_passer", "any player but a passer"),
        ("anyone", "any player, a passer too"),
        ("next_only", "the next player only"),
    ]),
    _cp("mercy.after", "After Mercy's race, where does play go on?", ["mercy.1"], [
        ("from_mercy_player", "from the player who discarded the Mercy"),
        ("from_winner", "from the race winner"),
    ], note="DESIGN.md's mercy.after, first half; the second half is mercy.effect"),
    _cp("mercy.effect", "Does the card discarded in Mercy's race have its effect?", ["mercy.1"], [
        ("no_effect", "no: the race discard only lowers points"),
        ("applies", "yes: its effect applies as for any discard"),
    ], origin="design", note="DESIGN.md's mercy.after, second half"),
    _cp("justice.duty", "\"Must draw or play a Justice or Mercy\": what is the duty?", ["justice.1"], [
        ("no_force", "draw as usual, or play a Justice or Mercy instead of drawing"),
        ("play_or_extra", "play a Justice or Mercy if able, else draw one extra card"),
        ("stacking", "play a Justice or Mercy, or draw one card per Justice stacked"),
        ("until", "draw until a Justice or Mercy is drawn"),
    ]),
    _cp("justice.passer", "Justice is played and the next player is the passer.", ["justice.1", "pass.2"], [
        ("stands", "the duty stands (a frozen hand cannot meet it)"),
        ("skips", "the duty skips to the next player after the passer"),
        ("lapses", "the duty lapses"),
    ]),
    _cp("justice.pass", "May a player under a Justice duty say Pass?", ["justice.1", "pass.1"], [
        ("not_allowed", "no: they must draw or play"),
        ("allowed", "yes: Pass is allowed instead of drawing"),
    ], origin="found"),
    _cp("repentance.two", "Repentance with two players.", ["repentance.1"], [
        ("no_effect", "reversing two players changes nothing"),
        ("skip", "it acts as a skip: the same player goes again"),
    ]),
    _cp("unbelief.pass", "Unbelief is played just before the passer.", ["unbelief.1", "unbelief.2"], [
        ("go_around", "as written: the passer is skipped and play goes round again"),
        ("round_ends", "a skip cannot pass over a passer: the round ends"),
    ]),
    _cp("unbelief.two", "Unbelief with two players skips the only other player.", ["unbelief.1"], [
        ("again", "the discarder takes another turn"),
        ("no_effect", "no effect"),
    ], origin="found"),
    _cp("pride.passer", "\"A player who has said Pass is not included\" in Pride Cycle.", ["pride.1", "pride.2"], [
        ("gives_not_receives", "the passer gives nothing but still receives"),
        ("skipped", "the passer is skipped both ways"),
        ("before_keeps", "the player before the passer keeps their card"),
    ]),
    _cp("pride.timing", "How do Pride Cycle's cards move?", ["pride.1"], [
        ("simultaneous", "simultaneously: everyone chooses before receiving"),
        ("in_turn", "in turn order: a player may pass on what they received"),
    ]),
    _cp("secret.next", "Secret Combination when the next player is the passer.", ["secret.1", "pass.2"], [
        ("forms", "the team forms and the best hand is kept"),
        ("skip_passer", "the passer is left out: the team forms with the player after"),
        ("no_effect", "no effect"),
    ]),
    _cp("secret.seat", "The set-aside player's seat.", ["secret.2"], [
        ("leaves", "leaves the turn order; the team plays one hand from one seat"),
        ("both_seats", "both seats keep their turns, playing the one hand"),
    ]),
    _cp("secret.best", "Who chooses the best hand?", ["secret.2"], [
        ("lower_score", "the lower-scoring hand, automatically (ties keep the discarder's)"),
        ("team_chooses", "the team (the discarder) chooses"),
    ]),
    _cp("secret.two", "Secret Combination when only two teams or players remain.", ["secret.1", "secret.4"], [
        ("applies", "it applies: the table becomes one team"),
        ("no_effect", "no effect"),
    ]),
    _cp("game.end", "When does the game end?", ["object.1"], [
        ("rounds", "after N rounds (N = players), the dealer rotating left"),
        ("threshold", "when a player's total passes a threshold"),
    ]),
]}


def default_readings() -> dict[str, str]:
    """The literal reading of every choice point."""
    return {cp.id: cp.literal for cp in CHOICE_POINTS.values()}
