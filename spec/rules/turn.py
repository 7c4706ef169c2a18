"""Setup, the draw/discard turn, Pass, the end of the round and the zero rule.

Each rule cites the rulebook sentences it formalises; rules that interpret a
gap belong to one reading of a choice point.
"""
from __future__ import annotations

from ..ast import op
from ..lang import (
    FALSE,
    TRUE,
    And,
    Exists,
    ForAll,
    Guard,
    If,
    MapOf,
    Not,
    Or,
    Update,
    define,
    num,
    rule,
)
from . import flow
from .priorities import Priority
from .vocabulary import DECK, DECK_OUT, DISCARD, DRAW, LIVE, OVER, PASS_REACHED, REVEAL, ZERO, Vocabulary

#: Every round-scope action: the stop rule and the zero rule cover them all.
ROUND_ACTIONS = ("deal", "reveal", "draw_pile", "draw_deck", "deck_card", "pass", "answer",
                 "discard", "skip_discard", "race", "give", "give_nothing", "keep")


def my_seat(t):
    return t.hand_of[t.actor]


def raw_endings(t: Vocabulary):
    """(action, does it end what the move began, seat play resumes from, skip flag):
    a move that opens nothing more ends the turn unless the turn is held open
    (``endings``)."""
    out = []
    for e in flow.effect_contexts(t):
        out.append((e.action, Not(flow.opens(t, e)), e.from_seat, flow.skip(t, e)))
    racing_from = If(t.racing, t.d("race_resume", t.actor, t.resume), t.turn)
    out += [
        ("skip_discard", TRUE, racing_from, FALSE),
        ("pass", TRUE, t.actor, FALSE),
        ("give", t.pride_left_.is_empty(), t.resume, FALSE),
        ("give_nothing", t.pride_left_.is_empty(), t.resume, FALSE),
        ("keep", TRUE, t.resume, FALSE),
    ]
    return out


def endings(t: Vocabulary):
    """(action, does it end the turn, seat play resumes from, skip flag): a turn
    held open (Mercy's race with racers left, the turn's own discard still to
    come: ``flow.held``) does not end."""
    held = flow.held(t)
    return [(a, And(ends, Not(held)), f, s) for a, ends, f, s in raw_endings(t)]


def next_seat(t: Vocabulary, from_seat):
    live = flow.live_seats(t, t.aside_, t.passers_, t.first_passer_)
    return op("next_in", from_seat, t.dir_, live), live


def setup_rules(t: Vocabulary):
    h = [next(a for a in t.actions if a.name == "deal").params[i].ref for i in range(t.n)]
    up = next(a for a in t.actions if a.name == "deal").params[-1].ref
    dealt = t.NONE
    for x in h:
        dealt = dealt | x

    def hand_for(p):
        v = h[-1]
        for i in range(t.n - 2, -1, -1):
            v = If(p.eq(i), h[i], v)
        return v

    first = op("step", t.dealer, num(1))
    return [
        rule("setup.deal", ["setup.1"],
             "Deal a hand to each player from the deck and turn the next card face up.",
             Update(("deal",), "hands", MapOf(t.ALLP, hand_for)),
             Update(("deal",), "deck", (t.deck - dealt).minus(up)),
             Update(("deal",), "pile", op("pile_of", up))),
        rule("setup.first_player", ["setup.2"],
             "The player to the left of the dealer begins; play goes to the left.",
             Update(("deal",), "turn", first),
             Update(("deal",), "actor", first),
             Update(("deal",), "dir", num(1)),
             Update(("deal",), "phase", num(DRAW))),
        rule("setup.first_card.no_effect", ["setup.1"],
             "The face-up first card is only the start of the pile.",
             choice="setup.first_card", reading="no_effect"),
        rule("setup.first_card.applies", ["setup.1"],
             "An option card turned up first acts as if the dealer had discarded it.",
             Update(("deal",), "phase", num(REVEAL), when=up.in_(t.OPTIONS), priority=Priority.OVERRIDE),
             Update(("deal",), "actor", t.dealer, when=up.in_(t.OPTIONS), priority=Priority.OVERRIDE),
             choice="setup.first_card", reading="applies"),
        rule("setup.zero_deal.ends_at_once", ["setup.1", "pass.5"],
             "A hand dealt worth zero ends the round at once.",
             Update(("deal",), "ended", num(ZERO),
                    when=t.any_zero(t.hands_, t.hand_of_, t.charity_out_), priority=Priority.ENDS_ON_ZERO),
             choice="setup.zero_deal", reading="ends_at_once"),
        rule("setup.zero_deal.after_actions", ["setup.1", "pass.5"],
             "Zero is only checked after a player's action, not at the deal.",
             choice="setup.zero_deal", reading="after_actions"),
    ]


def draw_rules(t: Vocabulary):
    seat = my_seat(t)
    top = t.top_card
    c = next(a for a in t.actions if a.name == "deck_card").params[0].ref
    after_draw = If(t.owed_ > 0, num(DRAW), num(DISCARD))
    return [
        rule("play.draw_pile", ["play.1"],
             "Take the top card of the discard pile.",
             Guard(("draw_pile",), Not(op("pile_len", t.pile).eq(0))),
             Update(("draw_pile",), "hands", t.hands.put(seat, t.hands[seat].plus(top))),
             Update(("draw_pile",), "pile", op("pop", t.pile)),
             Update(("draw_pile",), "taken", t.taken.plus(top)),
             Update(("draw_pile",), "drew", TRUE),
             Update(("draw_pile",), "owed", t.owed - 1),
             Update(("draw_pile",), "phase", after_draw)),
        rule("play.draw_deck", ["play.1"],
             "Draw the top card of the deck: which card it is, is chance.",
             Update(("draw_deck",), "phase", num(DECK))),
        rule("play.deck_card", ["play.1"],
             "The card drawn from the deck goes to the drawer's hand.",
             Update(("deck_card",), "hands", t.hands.put(seat, t.hands[seat].plus(c))),
             Update(("deck_card",), "deck", t.deck.minus(c)),
             Update(("deck_card",), "drew", TRUE),
             Update(("deck_card",), "owed", t.owed - 1),
             Update(("deck_card",), "phase", after_draw)),
        rule("deck.exhausted.nothing", ["play.1"],
             "An empty deck cannot be drawn from; only the discard pile can.",
             Guard(("draw_deck",), Not(t.deck.is_empty())),
             choice="deck.exhausted", reading="nothing"),
        rule("deck.exhausted.reshuffle", ["play.1"],
             "An empty deck is replaced by the discard pile under its top card.",
             Guard(("draw_deck",), Or(Not(t.deck.is_empty()), op("pile_len", t.pile) > 1)),
             Update(("draw_deck",), "deck", op("pile_cards", op("pop", t.pile)),
                    when=t.deck.is_empty()),
             Update(("draw_deck",), "pile", op("pile_of", top), when=t.deck.is_empty()),
             choice="deck.exhausted", reading="reshuffle"),
        rule("deck.exhausted.round_ends", ["play.1"],
             "Drawing from the empty deck ends the round.",
             Update(("draw_deck",), "ended", num(DECK_OUT), when=t.deck.is_empty(),
                    priority=Priority.ENDS_ON_DECK),
             choice="deck.exhausted", reading="round_ends"),
    ]


def discard_rules(t: Vocabulary):
    seat = my_seat(t)
    dc = next(a for a in t.actions if a.name == "discard").params[0].ref
    ac = next(a for a in t.actions if a.name == "answer").params[0].ref
    hand = t.hands[seat]
    mine = flow.taken_by(t, t.actor)
    limit = flow.points_before(t, hand)
    any_ok = Exists(hand, lambda x: t.d("can_discard", card=x, hand=hand, pile=t.pile,
                                        taken=mine, limit=limit, racing=t.racing),
                    hint="d")
    first_draw = [Update((a,), "before_draw", t.cards_points(hand) + 1, when=Not(t.drew))
                  for a in ("draw_pile", "deck_card")]
    out = [
        rule("play.discard", ["play.2"],
             "Discard a card from the hand onto the pile.",
             Guard(("discard",), t.d("discard_ok", card=dc, hand=hand, pile=t.pile, taken=mine,
                                     limit=limit, racing=t.racing)),
             Update(("discard",), "hands", t.hands.put(seat, hand.minus(dc))),
             Update(("discard",), "pile", op("push", t.pile, dc)),
             Update(("answer",), "hands", t.hands.put(seat, hand.minus(ac))),
             Update(("answer",), "pile", op("push", t.pile, ac))),
        rule("play.can_discard", ["play.2", "desolation.1"],
             "A card may be discarded when Desolation's rule (in Mercy's race as "
             "mercy.desolation says), the take-back rule and the reading of \"to lower "
             "their points\" allow it.",
             define(t, "can_discard", lambda card, hand, pile, taken, limit, racing: And(
                 Or(Not(t.d("desolation_binds", racing)), t.d("desolation_ok", card, pile)),
                 t.d("take_back_ok", card, taken),
                 t.d("lowers_ok", card=card, hand=hand, limit=limit)))),
        rule("turn.take_back.allowed", ["play.2"],
             "\"Any card\": a card taken from the pile may be discarded again.",
             define(t, "take_back_ok", lambda card, taken: TRUE),
             choice="turn.take_back", reading="allowed"),
        rule("turn.take_back.not_allowed", ["play.2"],
             "No card taken from the pile this turn may be discarded this turn.",
             define(t, "take_back_ok", lambda card, taken: Not(card.in_(taken))),
             choice="turn.take_back", reading="not_allowed"),
        rule("discard.lower.purpose", ["play.2"],
             "\"To lower their points\" says why a player discards: any card may be "
             "discarded.",
             define(t, "lowers_ok", lambda card, hand, limit: TRUE),
             choice="discard.lower", reading="purpose"),
        rule("discard.lower.constraint", ["play.2"],
             "A discard may not leave the hand's points higher than they were before the "
             "turn's first draw (in Mercy's race, than before the discard).",
             define(t, "lowers_ok", lambda card, hand, limit: Or(
                 limit.eq(0), t.cards_points(hand.minus(card)) < limit)),
             *first_draw,
             Update(("discard", "skip_discard"), "before_draw", num(0)),
             choice="discard.lower", reading="constraint"),
        rule("discard.none.stuck", ["play.2"],
             "The text says nothing: with no legal discard there is no move.",
             Guard(("skip_discard",), FALSE),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: t.d(
                 "can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                 racing=racing)),
             choice="discard.none", reading="stuck"),
        rule("discard.none.any_card", ["play.2"],
             "With no legal discard, any card may be discarded.",
             Guard(("skip_discard",), FALSE),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: Or(
                 t.d("can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                     racing=racing),
                 Not(Exists(hand, lambda x: t.d("can_discard", card=x, hand=hand, pile=pile,
                                                taken=taken, limit=limit, racing=racing),
                            hint="d")))),
             choice="discard.none", reading="any_card"),
        rule("discard.none.skip_discard", ["play.2"],
             "With no legal discard, the turn ends without one.",
             Guard(("skip_discard",), Not(any_ok)),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: t.d(
                 "can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                 racing=racing)),
             choice="discard.none", reading="skip_discard"),
        rule("discard.none.any_untaken", ["play.2"],
             "With no legal discard, any card may be discarded but one taken from the pile "
             "this turn (the take-back rule still holds), unless every card in the hand was.",
             Guard(("skip_discard",), FALSE),
             define(t, "discard_ok", lambda card, hand, pile, taken, limit, racing: Or(
                 t.d("can_discard", card=card, hand=hand, pile=pile, taken=taken, limit=limit,
                     racing=racing),
                 And(Not(Exists(hand, lambda x: t.d("can_discard", card=x, hand=hand, pile=pile,
                                                    taken=taken, limit=limit, racing=racing),
                                hint="d")),
                     Or(t.d("take_back_ok", card, taken), op("subset", hand, taken))))),
             choice="discard.none", reading="any_untaken"),
    ]
    return out


def pass_rules(t: Vocabulary):
    duty_active = And(t.duty > 0, t.duty_on.eq(t.actor))
    return [
        rule("pass.say", ["pass.1", "pass.2"],
             "Instead of drawing, a player may say Pass (only before drawing this turn); "
             "their hand is frozen.",
             Guard(("pass",), Not(t.drew)),
             Update(("pass",), "passers", t.passers.plus(t.actor)),
             Update(("pass",), "first_passer", t.actor, when=t.first_passer.eq(t.NOBODY))),
        rule("pass.when.any_turn", ["pass.1"], "Pass is allowed on any turn.",
             choice="pass.when", reading="any_turn"),
        rule("pass.when.after_first_circuit", ["pass.1"],
             "Pass is allowed once every player has had a turn.",
             Guard(("pass",), op("subset", t.ALLP - t.aside, t.had_turn)),
             choice="pass.when", reading="after_first_circuit"),
        rule("pass.multiple.not_allowed", ["pass.1", "pass.3"],
             "Once someone has passed, nobody else may.",
             Guard(("pass",), t.passers.is_empty()),
             choice="pass.multiple", reading="not_allowed"),
        rule("pass.multiple.allowed", ["pass.1", "pass.3"],
             "Several players may pass; the round ends at the first passer.",
             choice="pass.multiple", reading="allowed"),
        rule("justice.pass.not_allowed", ["justice.1", "pass.1"],
             "A player under a Justice duty must draw or play: no Pass.",
             Guard(("pass",), Not(duty_active)),
             choice="justice.pass", reading="not_allowed"),
        rule("justice.pass.allowed", ["justice.1", "pass.1"],
             "A player under a Justice duty may still pass.",
             choice="justice.pass", reading="allowed"),
        rule("pass.reached.next_turn", ["pass.3", "pass.4"],
             "The round stops when the passer's next turn comes.",
             define(t, "arrival_ends", lambda land, first_passer, since_pass, live, passers:
                    land.eq(first_passer)),
             define(t, "arrival_seat", lambda land, first_passer, dir, live: land),
             choice="pass.reached", reading="next_turn"),
        rule("pass.reached.circuit", ["pass.3", "pass.4"],
             "The round stops once every other player has had a turn since the Pass; "
             "the frozen passer's own turns are skipped.",
             define(t, "arrival_ends", lambda land, first_passer, since_pass, live, passers: And(
                 Not(first_passer.eq(t.NOBODY)), op("subset", live - passers, since_pass))),
             define(t, "arrival_seat", lambda land, first_passer, dir, live: If(
                 land.eq(first_passer), op("next_in", first_passer, dir, live.minus(first_passer)),
                 land)),
             choice="pass.reached", reading="circuit"),
    ]


def advance_rules(t: Vocabulary):
    """End of turn: who plays next, and whether that reaches the passer."""
    frags = []
    clear_duty = Or(Not(flow.may_hold(t)), Not(t.duty_fresh))
    for action, ends, from_seat, skip in endings(t):
        q1, live = next_seat(t, from_seat)
        land = If(skip, op("next_in", q1, t.dir_, live), q1)
        stop = Or(And(skip, t.d("skip_stops", q1, t.first_passer_)),
                  t.d("arrival_ends", land=land, first_passer=t.first_passer_,
                      since_pass=t.since_pass_, live=live, passers=t.passers_))
        nxt = t.d("arrival_seat", land=land, first_passer=t.first_passer_, dir=t.dir_, live=live)
        frags += [
            Update((action,), "turn", nxt, when=ends),
            Update((action,), "actor", nxt, when=ends),
            Update((action,), "owed", num(1), when=ends),
            Update((action,), "taken", t.NONE, when=ends),
            Update((action,), "drew", FALSE, when=ends),
            Update((action,), "racing", FALSE, when=ends),
            Update((action,), "resume", t.NOBODY, when=ends, priority=Priority.CLEARED),
            # a duty set in the middle of this turn (duty_fresh) outlasts its end
            Update((action,), "duty", num(0), when=And(ends, clear_duty)),
            Update((action,), "duty_on", t.NOBODY, when=And(ends, clear_duty)),
            Update((action,), "duty_fresh", FALSE, when=And(ends, flow.may_hold(t))),
            Update((action,), "phase", num(DRAW), when=ends),
            Update((action,), "ended", num(PASS_REACHED), when=And(ends, stop)),
        ]
        if action != "reveal":
            frags += [
                Update((action,), "had_turn", t.had_turn.plus(t.turn), when=ends),
                Update((action,), "since_pass", t.since_pass.plus(t.turn), when=And(
                    ends, Not(t.first_passer_.eq(t.NOBODY)), Not(t.turn.in_(t.passers_)))),
            ]
    return [
        rule("turn.advance", ["play.1", "pass.3", "pass.4"],
             "When a turn ends, play goes to the next seat in the direction of play "
             "(skipping set-aside seats and frozen later passers); reaching the passer "
             "stops the round.", *frags),
        rule("round.stop", ["pass.4", "pass.5"],
             "A round that has ended admits no further play.",
             *[Update((a,), "phase", num(OVER), when=Not(t.ended_.eq(LIVE)), priority=Priority.ROUND_STOPPED)
               for a in ROUND_ACTIONS]),
    ]


def zero_rules(t: Vocabulary):
    zero_now = t.any_zero(t.hands_, t.hand_of_, t.charity_out_)
    every = [a for a in ROUND_ACTIONS if a not in ("deal", "race")]
    return [
        rule("zero.when.every_change", ["pass.5"],
             "After every change, mid-effect too: a player at zero points stops the round.",
             Update(tuple(every), "ended", num(ZERO), when=zero_now, priority=Priority.ENDS_ON_ZERO),
             choice="zero.when", reading="every_change"),
        rule("zero.when.end_of_turn", ["pass.5"],
             "At the end of each turn: a player at zero points stops the round.",
             *[Update((a,), "ended", num(ZERO), when=And(ends, zero_now), priority=Priority.ENDS_ON_ZERO)
               for a, ends, _, _ in endings(t)],
             choice="zero.when", reading="end_of_turn"),
        rule("zero.when.after_move", ["pass.5"],
             "After each whole move: a draw, or a discard once every effect it opened (a "
             "race and its discard, a Pride exchange, a team's choice) is over; a player at "
             "zero points then stops the round.",
             *[Update((a,), "ended", num(ZERO), when=And(ends, zero_now), priority=Priority.ENDS_ON_ZERO)
               for a, ends, _, _ in endings(t)],
             *[Update((a,), "ended", num(ZERO), when=zero_now, priority=Priority.ENDS_ON_ZERO)
               for a in ("draw_pile", "deck_card")],
             choice="zero.when", reading="after_move"),
    ]


def scoring_rules(t: Vocabulary):  # long on purpose: one rule record per reading, each read alone
    """A seat's score, composed of one definition per choice point it depends on,
    so each reading changes one part: which hand a seat totals (secret.score),
    whose Pass a seat may score -20 for (pass.team), whether the way the round
    stopped allows it (pass.zero), when the try wins (pass.score) and what a
    failed try scores (pass.fail).  ``out``: the Charities discarded this round
    (they act on every hand under charity.acts = discarded)."""
    def score(hands, hand_of, passers, ended, charity_out, player):
        hand = dict(hands=hands, hand_of=hand_of, charity_out=charity_out, player=player)
        base = t.d("seat_points", **hand)
        tried = And(t.d("pass_for", hand_of=hand_of, passers=passers, player=player),
                    t.d("pass_tested", ended))
        result = If(tried, If(t.d("pass_wins", **hand), num(-20),
                              t.d("pass_failed", base)), base)
        return If(t.d("seat_scored", hand_of, player), result, num(0))

    def wins(cmp):
        """The hand p plays against every other hand in play (a team's members
        play one hand: it is not compared with itself)."""
        def body(hands, hand_of, charity_out, player):
            own = t.points(hands, hand_of, player, charity_out)
            return ForAll(t.ALLP, lambda q: Or(hand_of[q].eq(hand_of[player]),
                                               cmp(own, t.points(hands, hand_of, q, charity_out))),
                          hint="q")
        return body

    in_play = lambda hands, hand_of, charity_out, player: t.points(hands, hand_of, player,
                                                                  charity_out)
    return [
        rule("scoring.points", ["scoring.1", "options.1"],
             "A hand's points: the cards' values, less what the Charities that act on it "
             "cancel.",
             define(t, "points_of", lambda hand, held, charity_out: op(
                 "tsum", hand - t.d("cancelled", hand, t.d(
                     "charity_acting", hand=hand, held=held, charity_out=charity_out)),
                 t.VALUES))),
        rule("scoring.score", ["scoring.1", "pass.1"],
             "Each player totals the points of their hand; a passer whose try counts "
             "scores -20 if it wins, else what a failed Pass scores.",
             define(t, "score", score)),
        rule("pass.score.lowest_or_total", ["pass.1", "scoring.1"],
             "The passer's try wins if no hand in play is lower (ties count).",
             define(t, "pass_wins", wins(lambda own, x: own <= x)),
             choice="pass.score", reading="lowest_or_total"),
        rule("pass.score.strictly_lowest", ["pass.1", "scoring.1"],
             "The passer's try wins only if every other hand in play is higher.",
             define(t, "pass_wins", wins(lambda own, x: own < x)),
             choice="pass.score", reading="strictly_lowest"),
        rule("pass.score.always", ["pass.1", "scoring.1"],
             "The passer's try always wins: -20.",
             define(t, "pass_wins", lambda hands, hand_of, charity_out, player: TRUE),
             choice="pass.score", reading="always"),
        rule("pass.fail.total", ["pass.1", "scoring.1"],
             "A Pass that fails scores the hand's total, like any player.",
             define(t, "pass_failed", lambda total: total),
             choice="pass.fail", reading="total"),
        rule("pass.fail.penalty", ["pass.1", "scoring.1"],
             "A Pass that fails scores the hand's total plus 20.",
             define(t, "pass_failed", lambda total: total + 20),
             choice="pass.fail", reading="penalty"),
        rule("pass.team.seat", ["pass.1", "secret.2"],
             "Only the seat that said Pass may score -20; its teammates total their hand.",
             define(t, "pass_for", lambda hand_of, passers, player: player.in_(passers)),
             choice="pass.team", reading="seat"),
        rule("pass.team.team", ["pass.1", "secret.2"],
             "A Pass said by any member of a team counts for every member.",
             define(t, "pass_for", lambda hand_of, passers, player: Exists(
                 passers, lambda q: hand_of[q].eq(hand_of[player]), hint="q")),
             choice="pass.team", reading="team"),
        rule("pass.zero.any_end", ["pass.1", "pass.4", "pass.5"],
             "The passer's try counts however the round stops.",
             define(t, "pass_tested", lambda ended: TRUE),
             choice="pass.zero", reading="any_end"),
        rule("pass.zero.reached_only", ["pass.1", "pass.4", "pass.5"],
             "The passer's try counts only when the round stops by reaching the passer: "
             "a round stopped on zero (or by an exhausted deck) gives no -20.",
             define(t, "pass_tested", lambda ended: Not(Or(ended.eq(ZERO),
                                                           ended.eq(DECK_OUT)))),
             choice="pass.zero", reading="reached_only"),
        rule("secret.score.kept_hand", ["scoring.1", "secret.2"],
             "Every member of a team totals the kept hand (the hand they play).",
             define(t, "seat_points", in_play),
             define(t, "seat_scored", lambda hand_of, player: TRUE),
             choice="secret.score", reading="kept_hand"),
        rule("secret.score.own_hand", ["scoring.1", "secret.2", "secret.3"],
             "Each player totals the cards at their own seat: a set-aside hand is its "
             "owner's score.",
             define(t, "seat_points", lambda hands, hand_of, charity_out, player: t.hand_points(
                 hands, hand_of, player, charity_out)),
             define(t, "seat_scored", lambda hand_of, player: TRUE),
             choice="secret.score", reading="own_hand"),
        rule("secret.score.once", ["scoring.1", "secret.2", "secret.3"],
             "A team is scored once, at the seat whose hand was kept; a member whose "
             "hand was set aside scores 0.",
             define(t, "seat_points", in_play),
             define(t, "seat_scored", lambda hand_of, player: hand_of[player].eq(player)),
             choice="secret.score", reading="once"),
    ]


def rules(t: Vocabulary):
    return (setup_rules(t) + draw_rules(t) + discard_rules(t) + pass_rules(t)
            + advance_rules(t) + zero_rules(t) + scoring_rules(t))
