"""Candidate invariants: simple facts about every reachable state, for induction.

A property such as CONSERVATION is rarely inductive alone: a state no play
reaches can satisfy it and still break it in one move.  The symbolic checker
(``checks/symbolic/checker.py``, ``checks/symbolic/induction.py``) strengthens it with the
candidates below that it can prove (each holds after every deal and every
action preserves it, given the others), and assumes nothing else.  They are
facts about the game (who may act, what a passer holds, where Pride Cycle's
gifts wait), so they are stated here, beside the properties, as formulas of
the spec language; the checker only proves and uses them.  A wrong candidate
costs nothing but time: it is refuted, never assumed.
"""
from __future__ import annotations

from . import ast as A
from .lang import And, Exists, ForAll, Implies, Not, Or
from .layout import DEAL, DECK, DISCARD, DRAW, GAME_OVER, LIVE, OVER, PRIDE, RACE, REVEAL, SECRET
from .rules.vocabulary import Vocabulary


def candidates(spec) -> dict:  # long on purpose: a table of ~50 named candidates, one entry each
    """name -> (statement, formula): simple structural facts the induction may use.

    Only those proved (hold after every deal, preserved by every action given
    the others) are ever assumed."""
    t = Vocabulary(spec.config)
    phases = [p.value for p in spec.phases]
    # a player chooses (the phases this spec has, as the parts declare them)
    in_play = Or(*[t.phase.eq(p.value) for p in spec.phases if p.actor is not None])
    # between the deal and the round's end
    mid_round = Or(*[t.phase.eq(p) for p in phases if p not in (DEAL, OVER, GAME_OVER)])
    # a discarded card's effect being resolved
    effect_phases = [p.value for p in spec.phases if p.effect]
    in_effects = [t.phase.eq(p) for p in effect_phases]
    no_passer = t.passers.is_empty()
    deal_phase = next((p.value for p in spec.phases if p.name == "DEAL"), 0)
    initial = And(*[A.Var(v.name, v.type).eq(spec.initial[v.name]) for v in spec.variables])
    c = {
        "NOT_DEALING": ("after the deal the phase is never the deal's",
                        Not(t.phase.eq(deal_phase))),
        "DECK_ACTOR_IN_RING": ("while a card is drawn from the deck, the actor is seated "
                               "and plays their own hand",
                               Implies(t.phase.eq(DECK), And(
                                   Not(t.actor.eq(t.NOBODY)), Not(t.actor.in_(t.aside)),
                                   t.hand_of[t.actor].eq(t.actor)))),
        "DECK_NONEMPTY_WHEN_DRAWING": ("a card is drawn from the deck only when the deck "
                                       "holds one", Implies(t.phase.eq(DECK),
                                                            Not(t.deck.is_empty()))),
        "DEAL_IS_INITIAL": ("before the deal the state is the initial one",
                            Implies(t.phase.eq(deal_phase), initial)),
        "PHASE_DECLARED": ("the phase is one of the declared phases",
                           Or(*[t.phase.eq(v) for v in phases])),
        "FIRST_PASSER_IFF_PASSERS": ("first_passer is nobody exactly when nobody has passed",
                                     Or(And(t.first_passer.eq(t.NOBODY), no_passer),
                                        And(Not(t.first_passer.eq(t.NOBODY)), Not(no_passer)))),
        "FIRST_PASSER_IN_PASSERS": ("the first passer is a passer",
                                    Implies(Not(t.first_passer.eq(t.NOBODY)),
                                            t.first_passer.in_(t.passers))),
        "AT_MOST_ONE_PASSER": ("at most one player has passed", t.passers.count() <= 1),
        "PRIDE_LEFT_NOT_PASSERS": ("no passer is among the Pride Cycle givers still to choose",
                                   (t.pride_left & t.passers).is_empty()),
        "PRIDE_LEFT_ONLY_IN_PRIDE": ("mid-round, Pride Cycle givers are pending only in the "
                                     "PRIDE phase",
                                     Implies(And(mid_round, Not(t.phase.eq(PRIDE))),
                                             t.pride_left.is_empty())),
        "SOMEONE_SEATED": ("not every seat is set aside", Not((t.ALLP - t.aside).is_empty())),
        "ACTOR_IN_RING": ("in a player phase the actor is seated and plays their own hand",
                          Implies(in_play, And(Not(t.actor.in_(t.aside)),
                                               t.hand_of[t.actor].eq(t.actor)))),
        "ACTOR_IS_TURN_DRAWING": ("while drawing, the actor is the turn player",
                                  Implies(Or(t.phase.eq(DRAW), t.phase.eq(DECK)),
                                          t.actor.eq(t.turn))),
        "DIR_UNIT": ("the direction of play is +1 or -1", Or(t.dir.eq(1), t.dir.eq(-1))),
        "PASSER_HAND_EXCLUSIVE": ("no seated player other than a passer plays the passer's hand",
                                  ForAll(t.passers, lambda p: ForAll(
                                      t.ALLP - t.aside, lambda q: Or(q.eq(p), Not(
                                          t.hand_of[q].eq(t.hand_of[p]))), hint="d"), hint="c")),
        "PASSERS_IN_RING": ("a passer is seated and plays their own hand",
                            ForAll(t.passers, lambda p: And(t.hand_of[p].eq(p),
                                                            Not(p.in_(t.aside))), hint="c")),
        "NOT_OWN_MEANS_ASIDE": ("a player who plays another seat's hand is set aside",
                                ForAll(t.ALLP, lambda p: Or(t.hand_of[p].eq(p), p.in_(t.aside)),
                                       hint="c")),
        "ACTOR_SET": ("in a player phase someone is to act",
                      Implies(in_play, Not(t.actor.eq(t.NOBODY)))),
        "ACTOR_SEATED": ("in a player phase the actor is not set aside",
                         Implies(in_play, Not(t.actor.in_(t.aside)))),
        "ACTOR_NOT_PASSER": ("a passer never has to discard, give or choose a team hand",
                             Implies(Or(t.phase.eq(DISCARD), t.phase.eq(PRIDE),
                                        t.phase.eq(SECRET)),
                                     Not(t.actor.in_(t.passers)))),
        "DRAW_ACTOR_NOT_PASSER": ("a passer is never asked to draw while the round is live",
                                  Implies(t.phase.eq(DRAW), Not(t.actor.in_(t.passers)))),
        "TURN_NOT_PASSER_MIDTURN": ("a passer is not the turn player in the middle of a turn",
                                    Implies(Or(t.phase.eq(DECK), t.phase.eq(DISCARD)),
                                            Not(t.turn.in_(t.passers)))),
        "HAND_OF_SEAT": ("every player plays some seat's hand",
                         ForAll(t.ALLP, lambda p: Not(t.hand_of[p].eq(t.NOBODY)), hint="c")),
        "HAND_OF_ROOT": ("the seat whose hand a player plays plays its own hand",
                         ForAll(t.ALLP, lambda p: t.hand_of[t.hand_of[p]].eq(t.hand_of[p]),
                                hint="c")),
        "PASSERS_OWN_HAND": ("a passer plays their own hand, and nobody else plays it",
                             ForAll(t.ALLP, lambda p: Implies(
                                 Or(p.in_(t.passers), t.hand_of[p].in_(t.passers)),
                                 t.hand_of[p].eq(p)), hint="c")),
        "PASSERS_NOT_ASIDE": ("no passer is set aside", (t.passers & t.aside).is_empty()),
        "ASIDE_NOT_OWN": ("a set-aside seat plays another seat's hand",
                          ForAll(t.aside, lambda p: Not(t.hand_of[p].eq(p)), hint="c")),
        "PASSER_NO_GIFT": ("a passer has no Pride Cycle gift pending",
                           ForAll(t.passers, lambda p: t.gifts[p].eq(t.NOCARD), hint="c")),
        "GIFTS_ONLY_IN_PRIDE": ("mid-round, gifts are pending only in the PRIDE phase",
                                Implies(And(mid_round, Not(t.phase.eq(PRIDE))), ForAll(
                                    t.ALLP, lambda p: t.gifts[p].eq(t.NOCARD), hint="c"))),
        "GIFT_IN_GIVER_HAND": ("a pending Pride Cycle gift is still in its giver's own hand",
                               ForAll(t.ALLP, lambda p: Or(t.gifts[p].eq(t.NOCARD), And(
                                   t.hand_of[p].eq(p), t.gifts[p].in_(t.hands[p]))),
                                      hint="c")),
        "GIFT_ONLY_FROM_GIVEN": ("only a giver who has chosen holds a pending gift",
                                 ForAll(t.ALLP, lambda p: Implies(
                                     Not(t.gifts[p].eq(t.NOCARD)),
                                     Not(p.in_(t.pride_left))), hint="c")),
        "DUTY_NOT_ON_PASSER": ("the Justice duty never falls on a passer",
                               Not(t.duty_on.in_(t.passers))),
        "LIVE_UNTIL_OVER": ("the round has an end reason only once it is over",
                            Implies(mid_round, t.ended.eq(LIVE))),
        "OVER_HAS_REASON": ("a round that is over says why",
                            Implies(t.phase.eq(OVER), Not(t.ended.eq(LIVE)))),
        "NO_ZERO_MID_ROUND": ("no player is at zero points in the middle of a round",
                              Implies(mid_round, Not(t.any_zero(t.hands, t.hand_of, t.charity_out)))),
        "TURN_SET": ("in the middle of a round some seat has the turn",
                     Implies(mid_round, Not(t.turn.eq(t.NOBODY)))),
        "RESUME_SET": ("during Mercy's race, Pride Cycle's gifts or a team's choice, the seat "
                       "play resumes from is set",
                       Implies(Or(*in_effects, And(t.phase.eq(DISCARD), t.racing)),
                               Not(t.resume.eq(t.NOBODY)))),
        "PILE_SET_UNLESS_TAKEN": ("while drawing, the pile holds a card unless one was "
                                  "taken from it this turn",
                                  Implies(And(Or(t.phase.eq(DRAW), t.phase.eq(DECK)),
                                              t.taken.is_empty()),
                                          Not(t.top_card.eq(t.NOCARD)))),
        "PILE_SET_IN_EFFECTS": ("while a card's effect is resolved the pile holds a card",
                                Implies(Or(*[t.phase.eq(p) for p in (REVEAL, *effect_phases)
                                             if p in phases]),
                                        Not(t.top_card.eq(t.NOCARD)))),
        "OWED_AT_MOST_ONE": ("at most one draw is owed", t.owed <= 1),
        "DRAWING_OWES": ("while drawing, a draw is owed",
                         Implies(Or(t.phase.eq(DRAW), t.phase.eq(DECK)), t.owed >= 1)),
        "DUTY_MET_BY_A_DRAW": ("once the turn has drawn, no Justice duty is left on its "
                               "player (the first draw under a duty meets it, or turns it "
                               "into an extra draw)",
                               Implies(t.drew, Not(And(t.duty > 0, t.duty_on.eq(t.turn))))),
        "NOTHING_TAKEN_BEFORE_DRAWING": ("before the turn's first draw no card has been "
                                         "taken from the pile this turn",
                                         Implies(Not(t.drew), t.taken.is_empty())),
        "SOMETHING_TO_DRAW": ("a turn that draws again after its first draw (a Justice "
                              "duty's extra draw) has a card to draw, in the deck or the pile",
                              Implies(And(t.phase.eq(DRAW), t.drew),
                                      Or(Not(t.deck.is_empty()),
                                         Not(t.top_card.eq(t.NOCARD))))),
        "NOTHING_TAKEN_WHILE_DRAWING": ("while drawing, no card has been taken from the pile "
                                        "this turn", Implies(t.phase.eq(DRAW),
                                                             t.taken.is_empty())),
        "DISCARDER_HOLDS_A_CARD": ("whoever must discard holds a card",
                                   Implies(t.phase.eq(DISCARD),
                                           Not(t.hands[t.hand_of[t.actor]].is_empty()))),
        "PRIDE_ACTOR_GIVES": ("in the PRIDE phase the actor is a giver still to choose, with no "
                              "gift pending",
                              Implies(t.phase.eq(PRIDE), And(t.actor.in_(t.pride_left),
                                                             t.gifts[t.actor].eq(t.NOCARD)))),
        "PRIDE_LEFT_SEATED": ("no set-aside seat is among the Pride Cycle givers still to "
                              "choose", (t.pride_left & t.aside).is_empty()),
        "RACING_ONLY_DISCARDING": ("a Mercy race discard is pending only in the DISCARD phase",
                                   Implies(t.racing, t.phase.eq(DISCARD))),
        "TURN_NOT_PASSER_IN_EFFECTS": ("while a discarded card's effect is resolved, the turn "
                                       "player is not a passer",
                                       Implies(Or(*in_effects),
                                               Not(t.turn.in_(t.passers)))),
        "DUTY_NOT_ON_PASSER_MID_ROUND": ("in the middle of a round the Justice duty never falls "
                                         "on a passer",
                                         Implies(mid_round, Not(t.duty_on.in_(t.passers)))),
        "DISCARD_BY_TURN": ("outside a Mercy race, whoever must discard is the turn player",
                            Implies(And(t.phase.eq(DISCARD), Not(t.racing)),
                                    t.actor.eq(t.turn))),
        "RESUME_ONLY_IN_EFFECTS": ("while a turn draws or discards (not in Mercy's race) "
                                   "no seat to resume from is set",
                                   Implies(Or(t.phase.eq(DRAW), t.phase.eq(DECK),
                                              And(t.phase.eq(DISCARD), Not(t.racing))),
                                           t.resume.eq(t.NOBODY))),
        "RESUME_NOT_PASSER": ("play never resumes from a passer's seat",
                              Not(t.resume.in_(t.passers))),
        "RESUME_SEATED": ("during Mercy's race, Pride Cycle's gifts or a team's choice, the "
                          "seat play resumes from is not set aside",
                          Implies(Or(*in_effects, And(t.phase.eq(DISCARD), t.racing)),
                                  Not(t.resume.in_(t.aside)))),
        "PILE_NONEMPTY_IN_PLAY": ("after the deal the discard pile or a hand holds a card",
                                  Implies(in_play, Exists(t.ALLP, lambda p: Not(
                                      t.hands[p].is_empty()), hint="c"))),
    }
    if RACE in phases and "race_field" in spec.definitions:
        c["RACE_FIELD_SET"] = ("during Mercy's race someone may win it",
                               Implies(t.phase.eq(RACE), Not(t.d(
                                   "race_field", hands=t.hands, hand_of=t.hand_of,
                                   passers=t.passers, aside=t.aside, by=t.resume, dir=t.dir,
                                   pile=t.pile, turn=t.turn, taken=t.taken).is_empty())))
    # generic facts: a variable that never leaves its initial value, a phase never entered
    for v in spec.variables:
        if v.name != "phase":
            c[f"CONST_{v.name.upper()}"] = (f"{v.name} keeps its initial value",
                                            A.Var(v.name, v.type).eq(spec.initial[v.name]))
    for ph in spec.phases:
        if ph.name not in ("DEAL", "OVER"):
            c[f"NEVER_{ph.name}"] = (f"the phase is never {ph.name}", Not(t.phase.eq(ph.value)))
    # the state properties themselves are candidates too: a proved one can help another
    for p in spec.properties:
        if p.kind == "state" and p.formula is not None:
            c.setdefault(p.id, (p.statement, p.formula))
    return c


def per_phase_candidates(spec) -> dict:
    """name -> (statement, formula): "in phase P, v has its initial value", for
    every phase after the deal (the end of a round too: a whole game's next round
    starts from it) and every other variable.

    Not part of ``candidates``: they are many (phases times variables) and a
    property's proof rarely needs them.  They are what a proof that two specs
    play the same game needs most (``tools/mutation/equivalence.py``): a reset that a
    mutant drops changes nothing exactly where the value is already reset."""
    t = Vocabulary(spec.config)
    out = {}
    for ph in spec.phases:
        if ph.name == "DEAL":  # DEAL_IS_INITIAL says it of every variable at once
            continue
        for v in spec.variables:
            if v.name != "phase":
                out[f"AT_{ph.name}_{v.name.upper()}_INITIAL"] = (
                    f"in the {ph.name} phase, {v.name} has its initial value",
                    Implies(t.phase.eq(ph.value), A.Var(v.name, v.type).eq(spec.initial[v.name])))
    return out

