"""The rulebook, sentence by sentence, under stable ids.

Every rule of the spec cites the ids of the sentences it formalises.  The text
here is verbatim from ``rulebook.txt`` (shipped beside this module); a test
checks every sentence still occurs in it, so a citation can never drift from
the book.
"""
from __future__ import annotations

from importlib import resources

SENTENCES: dict[str, str] = {
    "object.1": "Finish the game with the fewest points.",
    "setup.1": "Dealer gives six cards to each player, then puts the rest of the deck "
               "face down in the center, turning the top card over to begin a discard pile.",
    "setup.2": "Player to the left of the dealer begins play.",
    "play.1": "Players take turns drawing the top card from either the deck or the discard pile.",
    "play.2": "They then discard any card from their hand to lower their points.",
    "pass.1": 'When a player assumes they have a winning hand, they may say "Pass" instead of '
              "drawing a card (to try for a score of minus 20 for the round).",
    "pass.2": "The passer's hand is then frozen and cannot be altered for the remainder of the round.",
    "pass.3": "The round continues until it again reaches the passer.",
    "pass.4": "At that time, the round stops and scores are totaled.",
    "pass.5": "(If, at any time, a player reaches zero points, the round stops immediately "
              "and scores are totaled.)",
    "scoring.1": "At the end of the round, each player totals the points of the cards in their hand.",
    "options.1": "Each card's point value is shown in parentheses.",
    "charity.1": "Charity (0 pts.): Cancels points of all cards in the same suit.",
    "desolation.1": "Desolation (25 pts.): Can only be discarded on the same suit.",
    "mercy.1": "Mercy (50 pts.): All players race to be the first to discard any card.",
    "justice.1": "Justice (20 pts.): Next player must draw or play a Justice or Mercy card.",
    "repentance.1": "Repentance (20 pts.): Reverses the direction of play.",
    "unbelief.1": "Unbelief (20 pts.): This card skips the next player.",
    "unbelief.2": '(After a "Pass," if the final player discards an Unbelief card, play skips '
                  "the passer and continues around again until it reaches the passer.)",
    "pride.1": "Pride Cycle (20 pts.): When a player discards a Pride Cycle card, all players give "
               "any card from their hand to the player next to them in the direction of play.",
    "pride.2": '(A player who has said "Pass" is not included.)',
    "secret.1": "Secret Combination (20 pts.): A player who discards a Secret Combination card "
                "forms a team with the next player.",
    "secret.2": "They select the best hand of the two and set the other aside.",
    "secret.3": "(They do not combine their cards.)",
    "secret.4": "Playing subsequent Secret Combination cards can increase the number and size of teams.",
}


def rulebook_text() -> str:
    """The verbatim rulebook shipped with the package."""
    return resources.files("itcp.spec").joinpath("rulebook.txt").read_text(encoding="utf-8")


def sentence(sid: str) -> str:
    return SENTENCES[sid]


def rule_core(spec, rule_ids) -> dict:
    """The rules of a proof's core (ids of ``spec``'s rules; unknown ones are
    skipped) with the rulebook sentences they cite and the readings they are:
    what a report shows beside a proof, in the book's words."""
    rules: list[str] = []
    sentences: dict[str, str] = {}
    readings: dict[str, str] = {}
    for rid in rule_ids:
        try:
            r = spec.rule(rid)
        except StopIteration:
            continue
        rules.append(rid)
        for sid in r.sentences:
            sentences.setdefault(sid, SENTENCES.get(sid, ""))
        if r.choice:
            readings[r.choice] = r.reading
    return {"rules": rules, "sentences": dict(sorted(sentences.items())), "readings": readings}
