"""Charity, Desolation and the six option cards.

Effects are written once per *effect context* (a discard, a Justice answer,
the first face-up card): see ``flow.py``.  Sub-phases (Mercy's race, Pride
Cycle's gifts, a Secret Combination choice) have their own actions here.
"""
from __future__ import annotations

from ..ast import op
from ..lang import FALSE, TRUE, And, Exists, Guard, If, MapOf, Not, Or, SetOf, Update, define, num, rule
from . import flow
from .priorities import Priority
from .turn import endings, my_seat, next_seat, raw_endings
from .vocabulary import DISCARD, PRIDE, RACE, SECRET, Vocabulary


def _param(t, action, i=0):
    return next(a for a in t.actions if a.name == action).params[i].ref


def charity_rules(t: Vocabulary):
    def cancelled(numbers_only):
        def body(hand, acting):
            out = t.NONE
            for s, ch in enumerate(t.charity_of):
                if ch is None:
                    continue
                # an option card is of Charity's suit only under options.suit = every_suit
                suit = (t.suit_mask[s] & t.kind["number"] if numbers_only else
                        t.suit_mask[s] | If(t.d("options_suited"), t.OPTIONS, t.NONE))
                out = out | If(op("member", t.card_const(ch), acting), suit, t.NONE)
            return out
        return body
    charities = t.kind["charity"]
    dc = _param(t, "discard")
    discard = next(e for e in flow.effect_contexts(t) if e.action == "discard")
    return [
        rule("charity.scope.whole_suit", ["charity.1"],
             "Charity cancels every card of its suit in the hands it acts on, Desolation too.",
             define(t, "cancelled", cancelled(False)),
             choice="charity.scope", reading="whole_suit"),
        rule("charity.scope.numbers_only", ["charity.1"],
             "Charity cancels the number cards of its suit only.",
             define(t, "cancelled", cancelled(True)),
             choice="charity.scope", reading="numbers_only"),
        # charity_acting(hand, held, out): the Charities that act on ``hand``; held: the
        # cards of the hands in play; out: the Charities discarded this round
        rule("charity.acts.held_own", ["charity.1", "scoring.1"],
             "A Charity counts while held, in the hand that holds it.",
             define(t, "charity_acting", lambda hand, held, charity_out: hand & charities),
             choice="charity.acts", reading="held_own"),
        rule("charity.acts.held_every", ["charity.1"],
             "A Charity counts while held, in every hand: a Charity held anywhere cancels its "
             "suit for everyone.",
             define(t, "charity_acting", lambda hand, held, charity_out: held & charities),
             choice="charity.acts", reading="held_every"),
        rule("charity.acts.discarded", ["charity.1"],
             "A Charity acts when discarded: from then to the end of the round its suit is "
             "cancelled in every hand (a Charity held cancels nothing).",
             define(t, "charity_acting", lambda hand, held, charity_out: charity_out),
             Update(("discard",), "charity_out", t.charity_out.plus(dc),
                    when=And(discard.on, dc.in_(charities))),
             choice="charity.acts", reading="discarded"),
    ]


def desolation_rules(t: Vocabulary):
    # the top card is of the Desolation's suit (an option card is of every suit under
    # options.suit = every_suit)
    same = lambda c, pile: And(Not(op("pile_len", pile).eq(0)), Or(
        op("attr", op("top", pile), t.SUIT).eq(op("attr", c, t.SUIT)),
        And(t.d("options_suited"), op("top", pile).in_(t.OPTIONS))))
    gate = lambda c, ok: Or(Not(t.is_kind(c, "desolation")), ok)
    return [
        rule("desolation.target.same_suit", ["desolation.1"],
             "A Desolation may only be discarded on a top card of its suit.",
             define(t, "desolation_ok", lambda card, pile: gate(card, same(card, pile))),
             choice="desolation.target", reading="same_suit"),
        rule("desolation.target.or_mercy", ["desolation.1"],
             "A Desolation may be discarded on its suit or on a Mercy.",
             define(t, "desolation_ok", lambda card, pile: gate(card, Or(
                 same(card, pile), t.is_kind(op("top", pile), "mercy")))),
             choice="desolation.target", reading="or_mercy"),
        rule("desolation.target.or_empty", ["desolation.1"],
             "A Desolation may be discarded on its suit or on an empty pile.",
             define(t, "desolation_ok", lambda card, pile: gate(card, Or(
                 same(card, pile), op("pile_len", pile).eq(0)))),
             choice="desolation.target", reading="or_empty"),
    ]


def option_suit_rules(t: Vocabulary):
    return [
        rule("options.suit.suitless", ["options.1", "charity.1", "desolation.1"],
             "An option card has no suit: no Desolation is discarded on one, no Charity "
             "cancels one.",
             define(t, "options_suited", lambda: FALSE),
             choice="options.suit", reading="suitless"),
        rule("options.suit.every_suit", ["options.1", "charity.1", "desolation.1"],
             "An option card belongs to every suit: a Desolation may be discarded on one, "
             "and a Charity cancels one as a card of its suit.",
             define(t, "options_suited", lambda: TRUE),
             choice="options.suit", reading="every_suit"),
    ]


def _can_race(t: Vocabulary, hands, hand_of, p, pile, turn, taken):
    """Only a player who can legally discard can be first to discard: the same
    test as the winner's discard (``play.discard``'s guard)."""
    hand = hands[hand_of[p]]
    mine = flow.taken_by(t, p, turn, taken)
    limit = flow.points_before(t, hand, racing=TRUE)
    return Exists(hand, lambda c: t.d("discard_ok", card=c, hand=hand, pile=pile, taken=mine,
                                      limit=limit, racing=TRUE),
                  hint="rc")


def _race_field(t: Vocabulary, exclude_passers: bool):
    """The body of ``race_field`` where any seated player who can discard races
    (a passer too, unless ``exclude_passers``)."""
    def body(hands, hand_of, passers, aside, by, dir, pile, turn, taken):
        seated = t.ALLP - aside
        pool = seated - passers if exclude_passers else seated
        return SetOf(pool, lambda p: _can_race(t, hands, hand_of, p, pile, turn, taken),
                     hint="m")
    return body


def _race_next_only(t: Vocabulary):
    """The body of ``race_field`` where only the next player races."""
    def body(hands, hand_of, passers, aside, by, dir, pile, turn, taken):
        q = op("next_in", by, dir, t.ALLP - aside)
        return If(_can_race(t, hands, hand_of, q, pile, turn, taken), t.NONEP.plus(q), t.NONEP)
    return body


def mercy_rules(t: Vocabulary):  # long on purpose: one rule record per reading, each read alone
    frags = []
    for e in flow.effect_contexts(t):
        when = flow.opens_race(t, e)
        frags += [Update((e.action,), "phase", num(RACE), when=when, priority=Priority.OPENS_RACE),
                  Update((e.action,), "resume", e.by, when=when)]
    w = _param(t, "race")
    field_now = t.d("race_field", hands=t.hands, hand_of=t.hand_of, passers=t.passers,
                    aside=t.aside, by=t.resume, dir=t.dir, pile=t.pile, turn=t.turn,
                    taken=t.taken)
    # no racer has discarded yet in this race (mercy.discards = every_racer)
    first_pick = t.racers.is_empty()
    return [
        rule("mercy.open", ["mercy.1"],
             "Discarding a Mercy starts a race to discard any card.", *frags),
        rule("mercy.win", ["mercy.1"],
             "The race winner (chance among the eligible) must discard next.",
             Guard(("race",), w.in_(field_now)),
             Update(("race",), "actor", w),
             Update(("race",), "racing", TRUE),
             Update(("race",), "phase", num(DISCARD))),
        rule("mercy.discards.winner", ["mercy.1"],
             "Only the race winner discards; play then goes on as mercy.after says.",
             define(t, "race_continues", lambda: FALSE),
             define(t, "race_resume", lambda racer, resume: t.d("race_from", racer, resume)),
             choice="mercy.discards", reading="winner"),
        rule("mercy.discards.every_racer", ["mercy.1"],
             "Every player who can discards one card, in an order chance decides; the first "
             "wins the race (mercy.after: play goes on from them or the Mercy player).",
             define(t, "race_continues", lambda: TRUE),
             # the seat play goes on from is fixed at the first discard of the race
             define(t, "race_resume", lambda racer, resume: resume),
             Guard(("race",), Or(first_pick, w.in_(t.racers))),
             Update(("race",), "racers", If(first_pick, field_now, t.racers).minus(w)),
             Update(("race",), "resume", t.d("race_from", w, t.resume), when=first_pick),
             *[Update((e.action,), "racers", t.NONEP, when=flow.opens_race(t, e), priority=Priority.OVERRIDE)
               for e in flow.effect_contexts(t)],
             *[f for a, raw, _, _ in raw_endings(t) for f in (
                 Update((a,), "phase", num(RACE), when=And(raw, flow.race_on(t)),
                        priority=Priority.RACE_GOES_ON),
                 Update((a,), "racing", FALSE, when=And(raw, flow.race_on(t)),
                        priority=Priority.RACE_GOES_ON))],
             *[Update((a,), "racers", t.NONEP, when=ends) for a, ends, _, _ in endings(t)],
             choice="mercy.discards", reading="every_racer"),
        rule("mercy.race.not_passer", ["mercy.1", "pass.2"],
             "Any player who can discard may win the race, except a passer.",
             define(t, "race_field", _race_field(t, exclude_passers=True)),
             choice="mercy.race", reading="not_passer"),
        rule("mercy.race.anyone", ["mercy.1"],
             "Any player who can discard may win the race, a passer too.",
             define(t, "race_field", _race_field(t, exclude_passers=False)),
             choice="mercy.race", reading="anyone"),
        rule("mercy.race.next_only", ["mercy.1"],
             "Only the next player races (if they can discard).",
             define(t, "race_field", _race_next_only(t)),
             choice="mercy.race", reading="next_only"),
        rule("mercy.after.from_mercy_player", ["mercy.1"],
             "After the race, play goes on from the player who discarded the Mercy.",
             define(t, "race_from", lambda winner, mercy_player: mercy_player),
             choice="mercy.after", reading="from_mercy_player"),
        rule("mercy.after.from_winner", ["mercy.1"],
             "After the race, play goes on from the race winner.",
             define(t, "race_from", lambda winner, mercy_player: winner),
             choice="mercy.after", reading="from_winner"),
        rule("mercy.desolation.binds", ["mercy.1", "desolation.1"],
             "A Mercy race discard obeys Desolation's restriction like any discard.",
             define(t, "desolation_binds", lambda racing: TRUE),
             choice="mercy.desolation", reading="binds"),
        rule("mercy.desolation.free", ["mercy.1", "desolation.1"],
             "A Mercy race discard may be any card: Desolation's restriction does not bind it.",
             define(t, "desolation_binds", lambda racing: Not(racing)),
             choice="mercy.desolation", reading="free"),
        rule("mercy.effect.no_effect", ["mercy.1"],
             "The card discarded in the race has no option effect.",
             define(t, "race_effects", lambda: FALSE),
             choice="mercy.effect", reading="no_effect"),
        rule("mercy.effect.applies", ["mercy.1"],
             "The card discarded in the race has its usual effect.",
             define(t, "race_effects", lambda: TRUE),
             choice="mercy.effect", reading="applies"),
    ]


def _duty_set(t: Vocabulary, by_discard, duty_active) -> list[Update]:
    """What a Justice played in each effect context does: the duty (stacked or
    fresh), the player it falls on, and whether it outlasts the turn."""
    frags = []
    for e in flow.effect_contexts(t):
        q1, live = next_seat(t, e.from_seat)
        when = And(e.on, t.is_kind(e.card, "justice"), Not(flow.opens(t, e)))
        # the player after the passer is the seat play arrives at (the turn's next
        # player when the move ends the turn; also right when it does not)
        nxt = t.d("arrival_seat", land=q1, first_passer=t.first_passer_, dir=t.dir_, live=live)
        # a Justice answering a duty stacks on it (so does the turn's discard of a
        # Justice under the duty when that is the answer, or after a duty set this
        # turn); any other Justice starts at one
        if e.action == "answer":
            stacked = t.duty + 1
        elif e.action == "discard":
            stacked = If(Or(And(flow.may_hold(t), t.duty_fresh),
                            And(by_discard, duty_active, Not(t.racing))),
                         t.duty + 1, num(1))
        else:
            stacked = num(1)
        frags += [
            Update((e.action,), "duty", stacked, when=when, priority=Priority.OVERRIDE),
            Update((e.action,), "duty_on", t.d("justice_target", next_player=q1,
                                               passers=t.passers_, arrival=nxt),
                   when=when, priority=Priority.OVERRIDE),
            # set while the turn goes on (a Justice answer followed by the turn's
            # discard, or a race with racers left): the duty outlasts this turn
            Update((e.action,), "duty_fresh", TRUE, when=And(when, flow.held(t)),
                   priority=Priority.OVERRIDE)]
    return frags


def justice_rules(t: Vocabulary):  # long on purpose: one rule record per reading, each read alone
    seat = my_seat(t)
    duty_active = And(t.duty > 0, t.duty_on.eq(t.actor))
    jm = t.kind["justice"] | t.kind["mercy"]
    hand = t.hands[seat]
    has_jm = Not((hand & jm).is_empty())
    ac = _param(t, "answer")
    dc = _param(t, "discard")
    top = t.top_card
    # justice.answer: is the answer the turn's discard (is_discard)?
    by_discard = t.d("answer_by_discard")
    frags = _duty_set(t, by_discard, duty_active)
    answer_guard = lambda: Guard(("answer",), And(duty_active, ac.in_(jm), Not(t.drew)))
    drawn = (("draw_pile", top), ("deck_card", _param(t, "deck_card")))
    # after this draw the player can meet the duty with the turn's discard (a Justice
    # or Mercy they may discard): used where the answer is the discard
    hand_ = t.hands_[seat]
    able = Exists(hand_ & jm, lambda c: t.d("discard_ok", card=c, hand=hand_, pile=t.pile_,
                                            taken=t.taken_, limit=t.before_draw_, racing=FALSE),
                  hint="j")
    able_now = Exists(hand & jm, lambda c: t.d("discard_ok", card=c, hand=hand, pile=t.pile,
                                               taken=t.taken, limit=t.before_draw, racing=FALSE),
                      hint="j")
    answers = And(by_discard, able)
    # where the answer is the discard, a duty still on the player when they discard
    # (they could answer after drawing) is met only by a Justice or Mercy
    must_answer = Guard(("discard",), Or(Not(by_discard), t.racing, Not(duty_active),
                                         dc.in_(jm)))
    draws = ("draw_pile", "deck_card")

    def extra(owed_if_not):
        """One extra draw (``owed_if_not``) unless the player answers with the discard."""
        return [Update(draws, "owed", If(answers, num(0), owed_if_not), when=duty_active,
                       priority=Priority.OVERRIDE),
                Update(draws, "duty", If(answers, t.duty, num(0)), when=duty_active,
                       priority=Priority.OVERRIDE)]

    both_empty = And(t.deck_.is_empty(), op("pile_len", t.pile_).eq(0))
    return [
        rule("justice.duty_set", ["justice.1"],
             "Discarding a Justice puts a duty on the next player.", *frags),
        rule("justice.duty.no_force", ["justice.1"],
             "The next player draws as usual, or plays a Justice or Mercy instead.",
             answer_guard(),
             choice="justice.duty", reading="no_force"),
        rule("justice.duty.play_or_extra", ["justice.1"],
             "The next player must play a Justice or Mercy if able, else draws one extra card.",
             answer_guard(),
             Guard(("draw_pile", "draw_deck"), Or(by_discard, Not(And(duty_active, has_jm)))),
             *extra(num(1)), must_answer,
             choice="justice.duty", reading="play_or_extra"),
        rule("justice.duty.extra_lapses", ["justice.1", "play.1"],
             "As play_or_extra, but the extra draw lapses when the deck and the discard pile "
             "are both empty.",
             answer_guard(),
             Guard(("draw_pile", "draw_deck"), Or(by_discard, Not(And(duty_active, has_jm)))),
             *extra(If(both_empty, num(0), num(1))), must_answer,
             choice="justice.duty", reading="extra_lapses"),
        rule("justice.duty.stacking", ["justice.1"],
             "Justices stack: play a Justice (passing the stack on) or a Mercy, or draw one "
             "extra card per Justice stacked.",
             answer_guard(),
             *extra(t.duty), must_answer,
             choice="justice.duty", reading="stacking"),
        rule("justice.duty.until", ["justice.1"],
             "The next player plays a Justice or Mercy, or keeps drawing until one is drawn.",
             answer_guard(),
             *[f for a, x in drawn for f in (
                 Update((a,), "owed", If(by_discard, If(able, num(0), num(1)),
                                         If(x.in_(jm), num(0), num(1))),
                        when=duty_active, priority=Priority.OVERRIDE),
                 Update((a,), "duty", num(0),
                        when=And(duty_active, Not(by_discard), x.in_(jm)), priority=Priority.OVERRIDE))],
             must_answer,
             choice="justice.duty", reading="until"),
        rule("justice.duty.take_or_play", ["justice.1", "play.1"],
             "The next player must take a Justice or Mercy from the top of the pile or play "
             "one: no deck draw under the duty.",
             answer_guard(),
             Guard(("draw_pile",), Or(Not(duty_active), top.in_(jm))),
             # where the answer is the discard, a deck draw is allowed to a player who
             # will answer with a Justice or Mercy they already hold
             Guard(("draw_deck",), Or(Not(duty_active), And(by_discard, able_now))),
             Update(("draw_pile",), "duty", num(0), when=duty_active, priority=Priority.OVERRIDE),
             must_answer,
             choice="justice.duty", reading="take_or_play"),
        rule("justice.answer.whole_turn", ["justice.1", "play.1"],
             "Playing a Justice or Mercy under the duty is the whole turn: no draw, no "
             "discard.",
             define(t, "answer_by_discard", lambda: FALSE),
             define(t, "answer_then_discard", lambda: FALSE),
             choice="justice.answer", reading="whole_turn"),
        rule("justice.answer.draw_only", ["justice.1", "play.1", "play.2"],
             "Playing a Justice or Mercy under the duty replaces the draw only: the card acts, "
             "then the player discards as usual.",
             define(t, "answer_by_discard", lambda: FALSE),
             define(t, "answer_then_discard", lambda: TRUE),
             Update(("answer",), "owes_discard", TRUE),
             Update(("answer",), "drew", TRUE, priority=Priority.OVERRIDE),
             Update(("answer",), "owed", num(0), priority=Priority.OVERRIDE),
             Update(("discard", "skip_discard"), "owes_discard", FALSE, when=Not(t.racing)),
             *_back_to_discard(t),
             choice="justice.answer", reading="draw_only"),
        rule("justice.answer.is_discard", ["justice.1", "play.1", "play.2"],
             "The answer is the turn's discard: the player draws, and discarding a Justice "
             "or Mercy meets the duty.",
             Guard(("answer",), FALSE),
             define(t, "answer_by_discard", lambda: TRUE),
             define(t, "answer_then_discard", lambda: FALSE),
             choice="justice.answer", reading="is_discard"),
        rule("justice.passer.stands", ["justice.1", "pass.2"],
             "The duty falls on the next player even if they passed (a frozen hand cannot "
             "meet it).",
             define(t, "justice_target", lambda next_player, passers, arrival: next_player),
             choice="justice.passer", reading="stands"),
        rule("justice.passer.skips", ["justice.1", "pass.2"],
             "If the next player passed, the duty falls on the player who moves next.",
             define(t, "justice_target", lambda next_player, passers, arrival: If(
                 next_player.in_(passers), arrival, next_player)),
             choice="justice.passer", reading="skips"),
        rule("justice.passer.lapses", ["justice.1", "pass.2"],
             "If the next player passed, the duty lapses.",
             define(t, "justice_target", lambda next_player, passers, arrival: If(
                 next_player.in_(passers), t.NOBODY, next_player)),
             choice="justice.passer", reading="lapses"),
    ]


def _back_to_discard(t: Vocabulary):
    """After a move that would end the turn while the turn player still owes the
    turn's discard (and no race has racers left), that player discards."""
    out = []
    for a, raw, _, _ in raw_endings(t):
        back = And(raw, Not(flow.race_on(t)), flow.owes_discard(t))
        # a team formed in the meantime may have set the turn player's seat aside:
        # the team discards from the seat it plays from
        actor = If(t.turn.in_(t.aside_), t.hand_of_[t.turn], t.turn)
        out += [Update((a,), "phase", num(DISCARD), when=back, priority=Priority.BACK_TO_DISCARD),
                Update((a,), "actor", actor, when=back, priority=Priority.BACK_TO_DISCARD),
                Update((a,), "racing", FALSE, when=back, priority=Priority.BACK_TO_DISCARD),
                Update((a,), "resume", t.NOBODY, when=back, priority=Priority.BACK_TO_DISCARD),
                Update((a,), "racers", t.NONEP, when=back, priority=Priority.BACK_TO_DISCARD)]
    return out


def repentance_unbelief_rules(t: Vocabulary):
    frags = [Update((e.action,), "dir", num(0) - t.dir,
                    when=And(e.on, t.is_kind(e.card, "repentance"),
                             t.d("repentance_acts", t.first_passer)))
             for e in flow.effect_contexts(t)]
    two = t.n == 2
    return [
        rule("repentance.reverse", ["repentance.1"],
             "Repentance reverses the direction of play.", *frags),
        rule("repentance.two.no_effect", ["repentance.1"],
             "With two players, reversing changes nothing.",
             define(t, "repentance_skips", lambda: FALSE),
             choice="repentance.two", reading="no_effect"),
        rule("repentance.two.skip", ["repentance.1"],
             "With two players, Repentance acts as a skip.",
             define(t, "repentance_skips", lambda: TRUE if two else FALSE),
             choice="repentance.two", reading="skip"),
        rule("repentance.pass.reverses", ["repentance.1"],
             "Repentance acts after a Pass as before it.",
             define(t, "repentance_acts", lambda first_passer: TRUE),
             choice="repentance.pass", reading="reverses"),
        rule("repentance.pass.no_effect", ["repentance.1", "pass.3"],
             "After a Pass, Repentance neither reverses nor skips: play goes on round to "
             "the passer.",
             define(t, "repentance_acts", lambda first_passer: first_passer.eq(t.NOBODY)),
             choice="repentance.pass", reading="no_effect"),
        rule("unbelief.two.again", ["unbelief.1"],
             "Unbelief skips the next player; with two, the discarder plays again.",
             define(t, "unbelief_skips", lambda: TRUE),
             choice="unbelief.two", reading="again"),
        rule("unbelief.two.no_effect", ["unbelief.1"],
             "Unbelief skips the next player; with two players it has no effect.",
             define(t, "unbelief_skips", lambda: FALSE if two else TRUE),
             choice="unbelief.two", reading="no_effect"),
        rule("unbelief.pass.go_around", ["unbelief.2"],
             "Skipping the passer sends play round again until it reaches the passer.",
             define(t, "skip_stops", lambda skipped, first_passer: FALSE),
             choice="unbelief.pass", reading="go_around"),
        rule("unbelief.pass.round_ends", ["unbelief.2"],
             "A skip cannot pass over the passer: the round ends.",
             define(t, "skip_stops", lambda skipped, first_passer: skipped.eq(first_passer)),
             choice="unbelief.pass", reading="round_ends"),
    ]


def pride_rules(t: Vocabulary):  # long on purpose: one rule record per reading, each read alone
    frags = []
    givers = flow.pride_givers(t)
    for e in flow.effect_contexts(t):
        when = flow.opens_pride(t, e)
        first = op("next_in", op("step", e.by, num(0) - t.dir), t.dir, givers)
        frags += [Update((e.action,), "phase", num(PRIDE), when=when, priority=Priority.OPENS_PRIDE),
                  Update((e.action,), "pride_left", givers, when=when),
                  Update((e.action,), "actor", first, when=when, priority=Priority.OPENS_PRIDE),
                  Update((e.action,), "resume", e.from_seat, when=when, priority=Priority.PRIDE_RESUME)]
    gc = _param(t, "give")
    giver_seat = t.hand_of[t.actor]
    left = t.pride_left.minus(t.actor)
    done = left.is_empty()
    ring = flow.ring(t)
    to = t.d("pride_to", giver=t.actor, ring=ring, passers=t.passers, dir=t.dir)
    order = [Update(("give", "give_nothing"), "pride_left", left),
             Update(("give", "give_nothing"), "actor", op("next_in", t.actor, t.dir, left),
                    when=Not(done), priority=Priority.OVERRIDE)]
    removed = t.hands.put(giver_seat, t.hands[giver_seat].minus(gc))
    gifts_after = t.gifts.put(t.actor, gc)

    def delivered(hands, gifts):
        """Every chosen card leaves its giver's hand and reaches its receiver's,
        all at once: until then no hand has changed."""
        def body(r):
            got = hands[r]
            for g in range(t.n):
                G = t.player_const(g)
                gift = t.NONE.plus(gifts[G])
                got = got - If(t.hand_of[G].eq(r), gift, t.NONE)
            for g in range(t.n):
                G = t.player_const(g)
                dest = t.hand_of[t.d("pride_to", giver=G, ring=ring, passers=t.passers,
                                     dir=t.dir)]
                got = got | If(dest.eq(r), t.NONE.plus(gifts[G]), t.NONE)
            return got
        return MapOf(t.ALLP, body, hint="r")

    no_gifts = MapOf(t.ALLP, lambda p: t.NOCARD)
    return [
        rule("pride.open", ["pride.1", "pride.2"],
             "Discarding a Pride Cycle makes every included player give a card.", *frags),
        rule("pride.empty_hand", ["pride.1"],
             "A giver with an empty hand gives nothing.",
             Guard(("give_nothing",), t.hands[giver_seat].is_empty()), *order[:0]),
        rule("pride.passer.gives_not_receives", ["pride.2"],
             "The passer gives nothing but still receives.",
             define(t, "pride_givers", lambda ring, passers, dir: ring - passers),
             define(t, "pride_to", lambda giver, ring, passers, dir: op("next_in", giver, dir, ring)),
             choice="pride.passer", reading="gives_not_receives"),
        rule("pride.passer.skipped", ["pride.2"],
             "The passer neither gives nor receives: the player before gives past them.",
             define(t, "pride_givers", lambda ring, passers, dir: ring - passers),
             define(t, "pride_to", lambda giver, ring, passers, dir: op(
                 "next_in", giver, dir, ring - passers)),
             choice="pride.passer", reading="skipped"),
        rule("pride.passer.before_keeps", ["pride.2"],
             "The passer gives nothing, and the player before the passer keeps their card.",
             define(t, "pride_givers", lambda ring, passers, dir: SetOf(
                 ring - passers, lambda p: Not(op("next_in", p, dir, ring).in_(passers)),
                 hint="g")),
             define(t, "pride_to", lambda giver, ring, passers, dir: op("next_in", giver, dir, ring)),
             choice="pride.passer", reading="before_keeps"),
        rule("pride.timing.simultaneous", ["pride.1"],
             "Everyone chooses a card first; then all cards move at once (no hand "
             "changes until they do).",
             *order,
             Update(("give",), "hands", delivered(t.hands, gifts_after), when=done),
             Update(("give",), "gifts", If(done, no_gifts, gifts_after)),
             Update(("give_nothing",), "hands", delivered(t.hands, t.gifts), when=done),
             Update(("give_nothing",), "gifts", no_gifts, when=done),
             choice="pride.timing", reading="simultaneous"),
        rule("pride.timing.in_turn", ["pride.1"],
             "Givers give one after another, so a card received may be passed on.",
             *order,
             Update(("give",), "hands", removed.put(
                 t.hand_of[to], removed[t.hand_of[to]].plus(gc))),
             choice="pride.timing", reading="in_turn"),
    ]


def secret_rules(t: Vocabulary):  # long on purpose: one rule record per reading, each read alone
    frags = []
    kc = _param(t, "keep")

    def team(a_seat, q_seat, k):
        other = If(k.eq(a_seat), q_seat, a_seat)
        hand_of = MapOf(t.ALLP, lambda r: If(Or(t.hand_of[r].eq(a_seat), t.hand_of[r].eq(q_seat)),
                                             k, t.hand_of[r]), hint="r")
        return hand_of, other

    seat_frags = []
    for e in flow.effect_contexts(t):
        q = flow.secret_partner(t, e)
        forms = flow.forms_team(t, e)
        waits = And(forms, t.d("secret_waits"))
        now = And(forms, Not(t.d("secret_waits")))
        a_seat, q_seat = t.hand_of[e.by], t.hand_of[q]
        auto = If(t.hand_points(t.hands_, t.hand_of, a_seat, t.charity_out_)
                  <= t.hand_points(t.hands_, t.hand_of, q_seat, t.charity_out_),
                  a_seat, q_seat)
        hand_of, other = team(a_seat, q_seat, auto)
        frags += [Update((e.action,), "phase", num(SECRET), when=waits, priority=Priority.OPENS_SECRET),
                  Update((e.action,), "partner", q, when=waits),
                  Update((e.action,), "actor", e.by, when=waits, priority=Priority.OPENS_SECRET),
                  Update((e.action,), "resume", e.from_seat, when=waits, priority=Priority.SECRET_RESUME),
                  Update((e.action,), "hand_of", hand_of, when=now)]
        seat_frags.append(Update((e.action,), "aside", t.aside.plus(other), when=now))
    a_seat, q_seat = t.hand_of[t.actor], t.hand_of[t.partner]
    hand_of, other = team(a_seat, q_seat, kc)
    seat_frags.append(Update(("keep",), "aside", t.aside.plus(other)))
    return [
        rule("secret.form", ["secret.1", "secret.2", "secret.3", "secret.4"],
             "Discarding a Secret Combination teams the discarder with the next player; "
             "the best hand is kept, the other set aside (never combined).",
             *frags,
             Guard(("keep",), kc.in_(t.NONEP.plus(a_seat).plus(q_seat))),
             Update(("keep",), "hand_of", hand_of),
             Update(("keep",), "partner", t.NOBODY)),
        rule("secret.seat.leaves", ["secret.2"],
             "The set-aside seat leaves the turn order; the team plays from one seat.",
             *seat_frags,
             choice="secret.seat", reading="leaves"),
        rule("secret.seat.both_seats", ["secret.2"],
             "Both seats keep their turns, each playing the team's one hand.",
             choice="secret.seat", reading="both_seats"),
        rule("secret.passer.seat_leaves", ["secret.2", "pass.3"],
             "A Pass stays with the passer's seat, even one set aside by a team.",
             choice="secret.passer", reading="seat_leaves"),
        rule("secret.passer.team_takes_pass", ["secret.2", "pass.3", "pass.4"],
             "When a team sets the first passer's seat aside, the seat the team plays from "
             "takes over the Pass: play reaching it ends the round.",
             *[Update((a,), "first_passer", t.hand_of_[t.first_passer],
                      when=t.first_passer.in_(t.aside_))
               for a in [e.action for e in flow.effect_contexts(t)] + ["keep"]],
             choice="secret.passer", reading="team_takes_pass"),
        rule("secret.best.lower_score", ["secret.2"],
             "The lower-scoring hand is kept automatically (a tie keeps the discarder's).",
             define(t, "secret_waits", lambda: FALSE),
             choice="secret.best", reading="lower_score"),
        rule("secret.best.team_chooses", ["secret.2"],
             "The discarder chooses which of the two hands the team keeps.",
             define(t, "secret_waits", lambda: TRUE),
             choice="secret.best", reading="team_chooses"),
        rule("secret.next.forms", ["secret.1", "pass.2"],
             "The team forms with the next player even if they passed.",
             define(t, "secret_partner", lambda by, ring, passers, dir: op("next_in", by, dir, ring)),
             choice="secret.next", reading="forms"),
        rule("secret.next.skip_passer", ["secret.1", "pass.2"],
             "A passer is left out: the team forms with the next player who has not passed.",
             define(t, "secret_partner", lambda by, ring, passers, dir: op(
                 "next_in", by, dir, ring - passers)),
             choice="secret.next", reading="skip_passer"),
        rule("secret.next.no_effect", ["secret.1", "pass.2"],
             "If the next player passed, Secret Combination has no effect.",
             define(t, "secret_partner", lambda by, ring, passers, dir: If(
                 op("next_in", by, dir, ring).in_(passers), t.NOBODY, op("next_in", by, dir, ring))),
             choice="secret.next", reading="no_effect"),
        rule("secret.two.applies", ["secret.1", "secret.4"],
             "With two teams or players left, the table becomes one team.",
             define(t, "secret_allowed", lambda ring: TRUE),
             choice="secret.two", reading="applies"),
        rule("secret.two.no_effect", ["secret.1", "secret.4"],
             "With only two teams or players left, Secret Combination has no effect.",
             define(t, "secret_allowed", lambda ring: ring.count() > 2),
             choice="secret.two", reading="no_effect"),
    ]


def rules(t: Vocabulary):
    return (charity_rules(t) + desolation_rules(t) + option_suit_rules(t) + mercy_rules(t)
            + justice_rules(t)
            + repentance_unbelief_rules(t) + pride_rules(t) + secret_rules(t))
