"""Secret Combination (20 pts.): "A player who discards a Secret Combination card
forms a team with the next player.  They select the best hand of the two and
set the other aside.  (They do not combine their cards.)  Playing subsequent
Secret Combination cards can increase the number and size of teams."
(secret.1 to secret.4).

A team is ``hand_of``: the seat whose hand each player plays; a seat whose hand
was set aside is ``aside``.  Who chooses the kept hand (secret.best: the team,
in a phase of its own, SECRET, or the lower score at once), who the next player
is (secret.next), and what the set-aside seat does (secret.seat, secret.passer)
are its readings; what a team scores is the scoring's (``secret.score``).
"""
from __future__ import annotations

from ..ast import BOOL, INT, PLAYER, PLAYERS, map_of, op
from ..lang import (
    FALSE,
    TRUE,
    ActionDecl,
    And,
    Guard,
    If,
    MapOf,
    Not,
    Or,
    ParamDecl,
    Part,
    Phase,
    StateVar,
    Update,
    define,
    num,
    rule,
    signature,
)
from ..layout import SECRET
from . import flow
from .priorities import Priority
from .words import Words

VARIABLES = (
    StateVar("partner", PLAYER, "the next player in a Secret Combination being formed",
             says="the partner of the Secret Combination being formed"),
    StateVar("hand_of", map_of(PLAYER), "the seat whose hand each player plays and scores",
             says="the seat whose hand {} plays"),
    StateVar("aside", PLAYERS, "seats set aside by a Secret Combination (out of the rotation)",
             says="the seats set aside"),
)

SIGNATURES = (
    signature("secret_partner", PLAYER, by=PLAYER, ring=PLAYERS, passers=PLAYERS,
              dir=INT, says="the partner of a Secret Combination played by {by}"),
    signature("secret_allowed", BOOL, ring=PLAYERS,
              says="a Secret Combination may form among {ring}"),
    signature("secret_waits", BOOL, says="a team chooses which hand it keeps"),
)


def phases(t: Words):
    return (Phase("SECRET", SECRET, t.actor, "a Secret Combination team chooses the best hand",
                  effect=True),)


def actions(t: Words):
    return (ActionDecl("keep", "SECRET", (ParamDecl("k", PLAYER, t.ALLP,
                                                  says="the seat whose hand is kept"),),
                       "keep this seat's hand for the team",
                       says="a Secret Combination team keeps one of its hands"),)


def initial(t: Words):
    return {"partner": t.NOBODY, "hand_of": MapOf(t.ALLP, lambda p: p), "aside": t.NONEP}


def endings(t: Words):
    """The team's choice ends the Secret Combination; play resumes where it was to."""
    return [("keep", TRUE, t.resume, FALSE)]


def partner(t: Words, e: flow.Effect):
    """The player a Secret Combination played in ``e`` teams with, as secret.next says."""
    return t.d("secret_partner", by=e.by, ring=flow.ring(t), passers=t.passers, dir=t.dir)


def forms_team(t: Words, e: flow.Effect):
    """The card played in ``e`` forms a team (at once, or once the team chooses)."""
    q = partner(t, e)
    return And(e.on, t.is_kind(e.card, "secret_combination"), q.ne(t.NOBODY),
               t.hand_of[q].ne(t.hand_of[e.by]), t.d("secret_allowed", flow.ring(t)))


def opens(t: Words, e: flow.Effect):
    """A team formed in ``e`` waits for its choice under secret.best = team_chooses."""
    return And(forms_team(t, e), t.d("secret_waits"))


def rules(t: Words):  # long on purpose: one rule record per reading, each read alone
    frags = []
    kc = t.param("keep")

    def team(a_seat, q_seat, k):
        other = If(k.eq(a_seat), q_seat, a_seat)
        hand_of = MapOf(t.ALLP, lambda r: If(Or(t.hand_of[r].eq(a_seat), t.hand_of[r].eq(q_seat)),
                                             k, t.hand_of[r]), hint="r")
        return hand_of, other

    seat_frags = []
    for e in flow.effect_contexts(t):
        q = partner(t, e)
        forms = forms_team(t, e)
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


PART = Part("secret", VARIABLES, SIGNATURES, phases=phases, actions=actions, initial=initial,
            endings=endings, opens=opens, rules=rules)
