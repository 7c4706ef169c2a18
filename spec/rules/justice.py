"""Justice (20 pts.): "Next player must draw or play a Justice or Mercy card"
(justice.1).

What the duty asks (justice.duty), whether playing a Justice or Mercy is the
whole turn, replaces the draw, or is the turn's discard (justice.answer), and
a duty falling on a passer (justice.passer).  Whether a player under a duty
may pass is a question of Pass (``justice.pass``, in ``passing.py``).
"""
from __future__ import annotations

from ..ast import BOOL, CARD, INT, PLAYER, PLAYERS, op
from ..lang import (
    FALSE,
    TRUE,
    ActionDecl,
    And,
    Exists,
    Guard,
    If,
    Not,
    Or,
    ParamDecl,
    Part,
    StateVar,
    Update,
    define,
    num,
    rule,
    signature,
)
from ..layout import DISCARD
from . import flow
from .priorities import Priority
from .words import Words

VARIABLES = (
    StateVar("duty", INT, "Justice cards stacked on the duty", bounds=(0, 31),
             says="the Justice cards stacked on the duty"),
    StateVar("duty_on", PLAYER, "the player the Justice duty falls on, or nobody",
             says="the player under the Justice duty"),
    StateVar("owes_discard", BOOL, "the turn player answered a Justice duty and still owes the "
             "turn's discard (justice.answer = draw_only)",
             says="the turn player still owes the turn's discard"),
    StateVar("duty_fresh", BOOL, "the Justice duty was set in the middle of this turn: it "
             "outlasts the turn's end", says="the Justice duty was set during this turn"),
)

SIGNATURES = (
    signature("answer_by_discard", BOOL, says="a Justice duty is met by the turn's discard"),
    signature("answer_then_discard", BOOL,
              says="the turn's discard still follows a Justice answer"),
    signature("justice_target", PLAYER, next_player=PLAYER, passers=PLAYERS,
              arrival=PLAYER, says="the player a Justice duty falls on, the next player "
                                   "being {next_player}"),
)


def actions(t: Words):
    my = t.hands[flow.my_seat(t)]
    return (ActionDecl("answer", "DRAW", (ParamDecl("c", CARD, my, says="the card played"),),
                       "meet a Justice duty by playing a Justice or Mercy",
                       says="a player meets the Justice duty with a card"),)


def initial(t: Words):
    return {"duty": num(0), "duty_on": t.NOBODY, "owes_discard": FALSE, "duty_fresh": FALSE}


def _duty_set(t: Words, by_discard, duty_active) -> list[Update]:
    """What a Justice played in each effect context does: the duty (stacked or
    fresh), the player it falls on, and whether it outlasts the turn."""
    frags = []
    for e in flow.effect_contexts(t):
        q1, live = flow.next_seat(t, e.from_seat)
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


def rules(t: Words):  # long on purpose: one rule record per reading, each read alone
    seat = flow.my_seat(t)
    duty_active = And(t.duty > 0, t.duty_on.eq(t.actor))
    jm = t.kind["justice"] | t.kind["mercy"]
    hand = t.hands[seat]
    has_jm = Not((hand & jm).is_empty())
    ac = t.param("answer")
    dc = t.param("discard")
    top = t.top_card
    # justice.answer: is the answer the turn's discard (is_discard)?
    by_discard = t.d("answer_by_discard")
    frags = _duty_set(t, by_discard, duty_active)
    answer_guard = lambda: Guard(("answer",), And(duty_active, ac.in_(jm), Not(t.drew)))
    drawn = (("draw_pile", top), ("deck_card", t.param("deck_card")))
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


def _back_to_discard(t: Words):
    """After a move that would end the turn while the turn player still owes the
    turn's discard (and no race has racers left), that player discards."""
    out = []
    for a, raw, _, _ in flow.raw_endings(t):
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



PART = Part("justice", VARIABLES, SIGNATURES, actions=actions, initial=initial, rules=rules)
