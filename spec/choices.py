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
    #: where this point came from: "design" (the starting design's table) or "found"
    origin: str = "design"
    note: str = ""
    #: why the first reading is the literal one, argued from the sentences
    why: str = ""
    #: the option cards (with copies) its rules are about: the smallest tables
    #: where its readings can part ways hold these and no other (checks/questions/diff.py)
    options: tuple[tuple[str, int], ...] = ()
    #: what else those tables need, as (table key, value) pairs: more ranks, a
    #: bigger hand
    table: tuple[tuple[str, object], ...] = ()

    @property
    def literal(self) -> str:
        return self.readings[0].id

    @property
    def reading_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.readings)


#: the option cards a family of choice points (the first part of their ids) is about
FAMILY_OPTIONS = {
    "mercy": (("mercy", 1),), "justice": (("justice", 1),), "repentance": (("repentance", 1),),
    "unbelief": (("unbelief", 1),), "pride": (("pride_cycle", 1),),
    "secret": (("secret_combination", 1),), "desolation": (("mercy", 1),),
    "discard": (("pride_cycle", 1),), "setup": (("unbelief", 1),),
}
#: choice points about other cards than their family's
POINT_OPTIONS = {
    "justice.duty": (("justice", 2), ("mercy", 1)),  # a duty stacked, and answered
    "pass.team": (("secret_combination", 1),),  # a Pass said within a team
}
#: choice points whose readings need a larger table to part ways
POINT_TABLE = {
    "charity.scope": (("ranks", (2, 3)), ("hand", 2)),
    "pass.score": (("ranks", (2, 3)),),
}


def _cp(id, question, sentences, readings, origin="design", note="", why=""):
    return ChoicePoint(id, question, tuple(sentences),
                       tuple(Reading(r, t) for r, t in readings), origin, note, why,
                       POINT_OPTIONS.get(id, FAMILY_OPTIONS.get(id.split(".")[0], ())),
                       POINT_TABLE.get(id, ()))


CHOICE_POINTS: dict[str, ChoicePoint] = {cp.id: cp for cp in [
    _cp("deck.exhausted", "The deck is empty and a player would draw.", ["play.1"], [
        ("nothing", "the text says nothing: only the discard pile can be drawn"),
        ("reshuffle", "the discard pile under its top card is shuffled into a new deck"),
        ("round_ends", "drawing from the empty deck ends the round"),
    ], why=(
        'play.1 names the deck and the discard pile as the places to draw from and says '
        'nothing of a deck that runs out: nothing happens, and only the pile is left.')),
    _cp("setup.first_card", "The first face-up card is an option card.", ["setup.1"], [
        ("no_effect", "it has no effect"),
        ("applies", "its effect applies as if the dealer had discarded it"),
    ], why=(
        'The option cards act when a player discards them ("when a player discards a '
        'Pride Cycle card"); setup.1 only says the turned-up card begins the discard '
        'pile, and turning a card over is not a discard.')),
    _cp("setup.zero_deal", "A hand is dealt worth 0 points.", ["setup.1", "pass.5"], [
        ("ends_at_once", "the round ends at once (\"at any time\")"),
        ("after_actions", "zero is only checked after actions"),
    ], why=(
        'pass.5: "if, at any time, a player reaches zero points, the round stops '
        'immediately"; a hand dealt worth zero is at zero from the deal on.')),
    _cp("turn.take_back", "May a player discard the card just taken from the pile?", ["play.2"], [
        ("allowed", "allowed: any card from their hand"),
        ("not_allowed", "not allowed"),
    ], why=(
        'play.2: "discard any card from their hand"; the card just taken is in the hand '
        'and no sentence excepts it.')),
    _cp("discard.lower", "\"Discard any card from their hand to lower their points\": a purpose "
        "or a constraint?", ["play.2"], [
        ("purpose", "a purpose: any card may be discarded"),
        ("constraint", "a constraint: a discard may not leave the hand's points higher than "
                       "before the turn's draw"),
    ], origin="found", note=(
        "constraint: the turn player's points are remembered at the turn's first draw (one "
        "number, forgotten at the discard); in Mercy's race, where no draw came first, a "
        "discard may not raise the racer's points (only a Charity's can). Discarding the "
        "card just drawn always meets it, unless the take-back ban forbids that or a "
        "Justice duty made the player draw twice: then no card may meet it, and "
        "discard.none decides"), why=(
        'play.2: "they then discard any card from their hand to lower their points": "any '
        'card" grants the choice, and "to lower their points" says what discarding is for, '
        'as object.1 says what the game is for ("finish the game with the fewest points"); '
        'read as a condition it would take back the "any".')),
    _cp("pass.when", "May a player pass on their first turn?", ["pass.1"], [
        ("any_turn", "on any turn"),
        ("after_first_circuit", "not before every player has had a turn"),
    ], why=(
        'pass.1 sets no time: "when a player assumes they have a winning hand, they may '
        'say Pass".')),
    _cp("pass.multiple", "A second player says Pass.", ["pass.1", "pass.3"], [
        ("allowed", "allowed: each passer is frozen; the round ends at the first passer"),
        ("not_allowed", "not allowed: once someone has passed nobody else may"),
    ], why=(
        'pass.1 gives every player the right to say Pass ("they may say Pass") and sets '
        'no limit; the singular "the passer" of pass.3 says whose turn ends the round, it '
        'forbids no second Pass.')),
    _cp("pass.reached", "What does \"again reaches the passer\" mean?", ["pass.3", "pass.4"], [
        ("next_turn", "the passer's next turn comes"),
        ("circuit", "every other player has had one turn since the pass"),
    ], why=(
        '"The round continues until it again reaches the passer": play reaches a player '
        "when their turn comes, so the passer's next turn is that moment.")),
    _cp("pass.score", "\"Try for a score of minus 20\": what does the passer score?", ["pass.1"], [
        ("lowest_or_total", "-20 if lowest (ties count), else the Pass fails (pass.fail)"),
        ("strictly_lowest", "-20 only if strictly lowest, else the Pass fails (pass.fail)"),
        ("always", "always -20"),
    ], note="the hands compared are the hands in play: a team's kept hand once, a "
            "set-aside hand not at all", why=(
        'pass.1 passes "to try for a score of minus 20" with "a winning hand", and the '
        'object is the fewest points (object.1): a hand tied for fewest is not beaten, so '
        'it wins; a hand that loses is totalled like any other (scoring.1).')),
    _cp("pass.fail", "A Pass that fails (the passer's hand is beaten): what does the passer "
        "score?", ["pass.1", "scoring.1"], [
        ("total", "the hand's total, like any other player"),
        ("penalty", "the hand's total plus 20"),
    ], origin="found", note=(
        "penalty: 20 because it is the only number the text gives, the -20 the passer "
        "played for: a Pass then risks as much as it may win. A try that pass.zero does "
        "not judge (a round stopped on zero under reached_only) has not failed: no "
        "penalty"), why=(
        'pass.1 only says the passer tries "for a score of minus 20"; a try that fails '
        'leaves the passer what scoring.1 gives every player ("each player totals the '
        'points of the cards in their hand"), and no sentence names a penalty.')),
    _cp("pass.team", "A member of a team says Pass: who may score -20 for it?",
        ["pass.1", "secret.2"], [
        ("seat", "only the seat that said Pass; its teammates total the hand"),
        ("team", "every member of the passer's team"),
    ], origin="found", why=(
        'pass.1: "they may say Pass ... (to try for a score of minus 20)": the player who '
        'says Pass is the one who tries; secret.2 makes the team share a hand ("they '
        'select the best hand"), not a Pass, and no sentence gives one member\'s Pass to '
        'the others.')),
    _cp("pass.zero", "The round stops on zero before play reaches the passer: may the passer "
        "still score -20?", ["pass.1", "pass.4", "pass.5"], [
        ("any_end", "yes: the try counts however the round stops"),
        ("reached_only", "no: only a round stopped by reaching the passer gives -20 (on zero, "
                         "or an exhausted deck, the passer totals their hand)"),
    ], origin="found", note=(
        "under pass.score = lowest_or_total a round stopped on zero leaves the passer "
        "lowest only if their own hand is at zero too, which the text's other readings "
        "rarely allow (no difference in an exhausted search at 2 players, 2 suits, ranks "
        "2..2, hand 1, with and without Pride Cycle); the library's scenario takes "
        "pass.score = always"), why=(
        'pass.4 and pass.5 stop the round alike ("the round stops ... and scores are '
        'totaled"), and pass.1 ties the try for minus 20 to saying Pass, not to the way '
        'the round stops: the try counts either way.')),
    _cp("zero.when", "\"If at any time a player reaches zero\": when is it checked?", ["pass.5"], [
        ("every_change", "after every change to a hand, mid-effect too"),
        ("end_of_turn", "at the end of each turn"),
        ("after_move", "after each whole move: a draw, or a discard once the effects it "
                       "opened (a race, a Pride exchange, a team's choice) are over"),
    ], note=(
        "after_move counts each draw of a Justice duty as a move; the deal is "
        "setup.zero_deal's question under every reading. Under end_of_turn and after_move "
        "a hand can be at zero while an effect plays out, so ZERO_STOPS does not hold"),
    why=(
        'pass.5: "if, at any time, a player reaches zero points, the round stops '
        'immediately": every moment a hand changes is such a time.')),
    _cp("charity.scope", "Which cards does Charity cancel?", ["charity.1"], [
        ("whole_suit", "every card of that suit in the holder's hand, Desolation too"),
        ("numbers_only", "number cards of that suit only"),
    ], why=(
        'charity.1: "cancels points of all cards in the same suit": all of them, a '
        'Desolation of that suit included.')),
    _cp("charity.acts", "When and in whose hand does Charity cancel points?",
        ["charity.1", "scoring.1"], [
        ("held_own", "while held, in the holder's hand only"),
        ("held_every", "while held, in every hand (a Charity held anywhere cancels its suit "
                       "for everyone)"),
        ("discarded", "when discarded: from then to the round's end its suit scores nothing "
                      "in any hand; a Charity held cancels nothing"),
    ], origin="found", note=(
        "One point, not two (when x where): a discarded Charity is in no hand, so \"the "
        "holder's hand\" has no meaning once it acts on discard; the three readings are the "
        "meaningful combinations."), why=(
        'charity.1 ("0 pts.": cancels points of all cards in the same suit) gives no moment '
        'of play, unlike the cards that act "when a player discards" them (pride.1, '
        'secret.1): it is a card held and scored, and scoring.1 totals "the points of the '
        'cards in their hand", so what Charity cancels is counted where it is, in the '
        "holder's hand.")),
    _cp("desolation.target", "\"Only discarded on the same suit\": on what?", ["desolation.1"], [
        ("same_suit", "the top card of the pile has that suit"),
        ("or_mercy", "that, or the top card is a Mercy"),
        ("or_empty", "that, or the pile is empty"),
    ], why=(
        'desolation.1: "can only be discarded on the same suit": on a card of its suit, '
        'which can only be the top of the pile; nothing else is named.')),
    _cp("options.suit", "Do the option cards have a suit (for Charity and Desolation)?",
        ["options.1", "charity.1", "desolation.1"], [
        ("suitless", "no: an option card is of no suit; a Desolation may never be discarded "
                     "on one and no Charity cancels one"),
        ("every_suit", "an option card belongs to every suit: a Desolation of any suit may be "
                       "discarded on it, and a Charity cancels option cards with its own suit "
                       "(where charity.scope cancels more than number cards)"),
    ], origin="found", why=(
        'options.1 gives each option card a point value "shown in parentheses" and nothing '
        'else: the option cards list no suit, while Charity and Desolation, which speak of '
        '"the same suit", are cards of a suit. A card of no suit is never "the same suit" as '
        'another, so no Desolation follows an option card and no Charity cancels one.')),
    _cp("discard.none", "After drawing, no card in hand may legally be discarded.",
        ["play.2", "desolation.1"], [
        ("stuck", "the text says nothing: no move, the game is stuck"),
        ("any_card", "then any card may be discarded"),
        ("skip_discard", "the turn ends without a discard"),
        ("any_untaken", "then any card may be discarded but one taken from the pile this turn "
                        "(unless the hand holds nothing else)"),
    ], note=(
        "any_untaken lifts the Desolation and \"to lower their points\" tests only: under "
        "turn.take_back = not_allowed the card just taken still stays in the hand, so a turn "
        "still changes the hand; under turn.take_back = allowed it is any_card."), why=(
        'play.2 requires a discard and no sentence says what a player does who has no '
        'legal one, so the text leaves no move.')),
    _cp("mercy.race", "Who may win Mercy's race?", ["mercy.1", "pass.2"], [
        ("not_passer", "any player but a passer"),
        ("anyone", "any player, a passer too"),
        ("next_only", "the next player only"),
    ], why=(
        'mercy.1 has "all players" race to discard, and pass.2 says the passer\'s hand '
        '"cannot be altered": racing is not required, so both are obeyed when everyone '
        'but the passer may race. The other readings drop one of the two sentences.')),
    _cp("mercy.discards", "Who discards in Mercy's race?", ["mercy.1"], [
        ("winner", "only the winner: the first to discard is the only one who does"),
        ("every_racer", "every racer discards one card; the order (chance, like the race "
                        "itself) only decides who wins"),
    ], origin="found", note=(
        "Under every_racer the order is chance, as the winner is today: a race is won by "
        "speed, which no rule lets a player choose, so the checker explores every order. A "
        "racer discards when their turn in the order comes if they still can (the pile's top "
        "and their hand may have changed); the first racer is the winner (mercy.after)."),
        why=(
        'mercy.1: "all players race to be the first to discard any card": the race decides '
        'who is first to discard, and no sentence gives the first anything else; if every '
        'player discarded anyway, being first would decide nothing. So the race is for the '
        'discard, and only its winner makes it.')),
    _cp("mercy.after", "After Mercy's race, where does play go on?", ["mercy.1"], [
        ("from_mercy_player", "from the player who discarded the Mercy"),
        ("from_winner", "from the race winner"),
    ], note="the starting design's mercy.after, first half; the second half is mercy.effect", why=(
        'mercy.1 says nothing about the turn order: the race interrupts the Mercy '
        "player's turn, so play resumes as after any discard, from that player.")),
    _cp("mercy.effect", "Does the card discarded in Mercy's race have its effect?", ["mercy.1"], [
        ("applies", "yes: its effect applies as for any discard"),
        ("no_effect", "no: the race discard only lowers points"),
    ], origin="design", note="the starting design's mercy.after, second half", why=(
        'Each option card acts when it is discarded ("when a player discards a Pride '
        'Cycle card", "a player who discards a Secret Combination card"); the race is a '
        'race "to discard" (mercy.1), so the race discard is a discard, and no sentence '
        'exempts it.')),
    _cp("mercy.desolation", "Does Desolation's restriction bind a Mercy race discard?",
        ["mercy.1", "desolation.1"], [
        ("binds", "yes: a Desolation is discarded in the race only on its suit"),
        ("free", "no: the race is to discard any card, a Desolation on anything"),
    ], origin="found", why=(
        'desolation.1: "can only be discarded on the same suit", with no exception; the '
        '"any card" of mercy.1 ("to discard any card") is the "any card" of the turn\'s own '
        'discard (play.2: "discard any card from their hand"), which Desolation restricts '
        'all the same.')),
    _cp("justice.duty", "\"Must draw or play a Justice or Mercy\": what is the duty?", ["justice.1"], [
        ("no_force", "draw as usual, or play a Justice or Mercy instead of drawing"),
        ("play_or_extra", "play a Justice or Mercy if able, else draw one extra card"),
        ("stacking", "play a Justice or Mercy, or draw one card per Justice stacked"),
        ("until", "draw until a Justice or Mercy is drawn"),
        ("take_or_play", "take a Justice or Mercy from the top of the pile, or play one: no "
                         "deck draw under the duty"),
        ("extra_lapses", "as play_or_extra, but the extra draw lapses when the deck and the "
                         "pile are both empty"),
    ], note=(
        "Where the answer is the turn's discard (justice.answer = is_discard), \"play\" means "
        "discarding a Justice or Mercy after the usual draw: a player who can then do so must "
        "(no_force forces nothing), one who cannot takes the reading's extra draws; under "
        "take_or_play a deck draw is allowed to a player holding a Justice or Mercy to "
        "discard."), why=(
        'justice.1 with "draw" read as the turn\'s usual draw (play.1: "players take turns '
        'drawing"): the next player must draw, or play a Justice or Mercy instead; the '
        '"must" has force, since it takes away the only other move at the start of a '
        'turn, saying Pass (justice.pass). Reading "a Justice or Mercy card" as the '
        'object of "draw" as well gives take_or_play or until.')),
    _cp("justice.answer", "A Justice duty met by playing a Justice or Mercy: what does the "
        "play replace?", ["justice.1", "play.1", "play.2"], [
        ("whole_turn", "the whole turn: the card is played instead of drawing, and there is "
                       "no other discard"),
        ("draw_only", "the draw only: the card acts, then the player discards as usual"),
        ("is_discard", "nothing: it is the turn's discard; the player draws, and discarding a "
                       "Justice or Mercy meets the duty"),
    ], origin="found", note=(
        "Under draw_only an answered Mercy's race runs first, then the player discards; a "
        "duty an answered Justice sets lasts to the end of the next turn (duty_fresh)."),
        why=(
        'The text calls putting an option card on the pile "playing" it (secret.4: "playing '
        'subsequent Secret Combination cards", which secret.1 says are discarded), and '
        'justice.1 offers that play as the alternative to the draw ("must draw or play"). A '
        'turn is a draw then a discard (play.1, play.2: "they then discard"); played instead '
        'of the draw, the card is both the turn\'s play and its discard, and no second '
        'discard follows a draw that never happened.')),
    _cp("justice.passer", "Justice is played and the next player is the passer.", ["justice.1", "pass.2"], [
        ("stands", "the duty stands (a frozen hand cannot meet it)"),
        ("skips", "the duty skips to the next player after the passer"),
        ("lapses", "the duty lapses"),
    ], why=(
        'justice.1 puts the duty on the "next player" with no exception for a passer; '
        "that a frozen hand cannot meet it is the text's own conflict with pass.2.")),
    _cp("justice.pass", "May a player under a Justice duty say Pass?", ["justice.1", "pass.1"], [
        ("not_allowed", "no: they must draw or play"),
        ("allowed", "yes: Pass is allowed instead of drawing"),
    ], origin="found", why=(
        '"Must draw or play a Justice or Mercy card" leaves no room for the other move at '
        'the start of a turn, saying Pass.')),
    _cp("repentance.two", "Repentance with two players.", ["repentance.1"], [
        ("no_effect", "reversing two players changes nothing"),
        ("skip", "it acts as a skip: the same player goes again"),
    ], why=(
        'repentance.1: "reverses the direction of play"; with two players either '
        'direction leads to the same player, so nothing changes.')),
    _cp("repentance.pass", "Repentance after a Pass.", ["repentance.1", "pass.3"], [
        ("reverses", "as written: it reverses the direction after a Pass too"),
        ("no_effect", "after a Pass the direction holds: play goes on round to the passer"),
    ], origin="found", note=(
        "no_effect covers Repentance as a skip with two players (repentance.two = skip) "
        "too. Under reverses, three Repentances let two players send play back and forth "
        "between them after a Pass, each taking the other's Repentance and playing one held "
        "from before, so the round never again reaches the passer."), why=(
        'repentance.1: "reverses the direction of play", with no exception; pass.3 says '
        'only that the round goes on until it reaches the passer, which play reversed '
        'still does from the other side.')),
    _cp("unbelief.pass", "Unbelief is played just before the passer.", ["unbelief.1", "unbelief.2"], [
        ("go_around", "as written: the passer is skipped and play goes round again"),
        ("round_ends", "a skip cannot pass over a passer: the round ends"),
    ], why=(
        'unbelief.2 says it in so many words: "play skips the passer and continues around '
        'again until it reaches the passer".')),
    _cp("unbelief.two", "Unbelief with two players skips the only other player.", ["unbelief.1"], [
        ("again", "the discarder takes another turn"),
        ("no_effect", "no effect"),
    ], origin="found", why=(
        'unbelief.1: "skips the next player"; with two players that is the only other '
        'player, so play comes back to the discarder.')),
    _cp("pride.passer", "\"A player who has said Pass is not included\" in Pride Cycle.",
        ["pride.1", "pride.2"], [
        ("gives_not_receives", "the passer gives nothing but still receives"),
        ("skipped", "the passer is skipped both ways"),
        ("before_keeps", "the player before the passer keeps their card"),
    ], why=(
        'pride.1 has "all players give any card ... to the player next to them"; pride.2 '
        'takes the passer out of "all players" (the givers) but not out of "the player '
        'next to them", so the player before the passer still gives to the passer. That '
        "this alters a frozen hand (pass.2) is the text's contradiction: both sentences "
        'cannot be obeyed, and the literal reading follows the sentence about the act. '
        'Reading pass.2 into pride.2 (skipped) is a clarification.')),
    _cp("pride.timing", "How do Pride Cycle's cards move?", ["pride.1"], [
        ("simultaneous", "simultaneously: everyone chooses before receiving"),
        ("in_turn", "in turn order: a player may pass on what they received"),
    ], why=(
        'pride.1: "all players give any card from their hand to the player next to them": '
        'one act by everyone, with no order among them.')),
    _cp("secret.next", "Secret Combination when the next player is the passer.", ["secret.1", "pass.2"], [
        ("forms", "the team forms and the best hand is kept"),
        ("skip_passer", "the passer is left out: the team forms with the player after"),
        ("no_effect", "no effect"),
    ], why=(
        'secret.1: "forms a team with the next player", with no exception for a passer.')),
    _cp("secret.seat", "The set-aside player's seat.", ["secret.2"], [
        ("both_seats", "both seats keep their turns, playing the one hand"),
        ("leaves", "leaves the turn order; the team plays one hand from one seat"),
    ], why=(
        'secret.2 sets aside a hand ("select the best hand of the two and set the other '
        'aside"), not a player: both players stay at the table and keep their turns, '
        'playing the one hand they now share.')),
    _cp("secret.passer", "A team is formed with the passer and the passer's seat is set aside "
        "(secret.seat = leaves): where does play reach the passer?",
        ["secret.2", "pass.3", "pass.4"], [
        ("seat_leaves", "the passer's seat leaves the turn order with its hand; play never "
                        "reaches it again"),
        ("team_takes_pass", "the team's seat takes over the Pass: the round ends when play "
                            "reaches the team"),
    ], origin="found", note=(
        "Only matters where the passer's seat is set aside: under the literal secret.seat = "
        "both_seats no seat leaves the turn order and the readings agree (the scenario pins "
        "secret.seat = leaves)."), why=(
        'pass.3: "the round continues until it again reaches the passer", and the passer '
        "is the player who said Pass, at their seat; secret.2 sets the passer's hand aside "
        "(and, under secret.seat = leaves, the seat with it) and no sentence moves a Pass to "
        "another seat. That play then never reaches the passer is the text's own conflict.")),
    _cp("secret.best", "Who chooses the best hand?", ["secret.2"], [
        ("team_chooses", "the team (the discarder) chooses"),
        ("lower_score", "the lower-scoring hand, automatically (ties keep the discarder's)"),
    ], why=(
        'secret.2: "they select the best hand of the two": selecting is something the '
        'team does, so the team chooses (the discarder speaking for it); nothing makes '
        'the lower score automatic.')),
    _cp("secret.score", "At the end of the round, what does each member of a team score?",
        ["scoring.1", "secret.2", "secret.3"], [
        ("kept_hand", "every member totals the kept hand, the hand they play"),
        ("own_hand", "each totals the cards at their own seat: a set-aside hand counts for "
                     "its owner"),
        ("once", "the team is scored once: the member whose hand was kept scores it, a "
                 "member whose hand was set aside scores 0 (a Pass too: it is judged at the "
                 "kept hand's seat)"),
    ], origin="found", note=(
        "once: a player's running total is the game's unit, so a team scored once gives "
        "its score to one member, the one whose seat holds the kept hand; the others hold "
        "no hand and total nothing. Whether that member's score may be -20 is pass.team's "
        "question (under seat, a set-aside member's Pass scores nothing)"), why=(
        'scoring.1: "each player totals the points of the cards in their hand"; after '
        'secret.2 ("they select the best hand of the two and set the other aside") the '
        'kept hand is the hand every member plays, and the set-aside hand is out of the '
        'round ("they do not combine their cards"): each member totals the kept hand.')),
    _cp("secret.two", "Secret Combination when only two teams or players remain.", ["secret.1", "secret.4"], [
        ("applies", "it applies: the table becomes one team"),
        ("no_effect", "no effect"),
    ], why=(
        'secret.1 and secret.4 set no minimum: with two players or teams left, the next '
        'player is still there to team with.')),
    _cp("game.end", "When does the game end?", ["object.1"], [
        ("rounds", "after N rounds (N = players), the dealer rotating left"),
        ("threshold", "when a player's total passes a threshold"),
    ], why=(
        'object.1 ("finish the game with the fewest points") names no end; setup.2\'s '
        'rotating deal suggests the usual one, a round dealt by each player.')),
]}


def default_readings() -> dict[str, str]:
    """The literal reading of every choice point."""
    return {cp.id: cp.literal for cp in CHOICE_POINTS.values()}
