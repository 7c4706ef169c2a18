"""The spec cites the rulebook faithfully, and every reading of every gap is runnable.

* every sentence the spec quotes occurs verbatim in the shipped rulebook text, and
  the shipped text is the project's copy of the official one;
* every rule cites existing sentences; every choice point cites existing sentences;
* every reading of every choice point has a rule, and no rule belongs to an unknown
  choice point or reading;
* every reading elaborates and compiles.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from itcp.model.engine.codegen import compile_spec
from itcp.model.engine.engine import Game, build_spec
from itcp.spec.choices import CHOICE_POINTS, default_readings
from itcp.spec.config import Config, full_deck_options
from itcp.spec.rulebook import SENTENCES, rulebook_text, sentence
from itcp.spec.rules import build_ruleset

REPO = Path(__file__).resolve().parent.parent
OFFICIAL_COPY = REPO.parent / "shared" / "RULEBOOK.txt"
SMALL = Config(players=3, suits=1, ranks=(2, 2), hand=1, options=full_deck_options())
SMALL_TWO = Config(players=2, suits=1, ranks=(2, 2), hand=1, options=full_deck_options())
READINGS = [(cp.id, r) for cp in CHOICE_POINTS.values() for r in cp.reading_ids]


@pytest.fixture(scope="module")
def rules():
    return build_ruleset(SMALL).rules


def _normal(text: str) -> str:
    return " ".join(text.split())


# -- the text ------------------------------------------------------------------------

@pytest.mark.parametrize("sid", sorted(SENTENCES))
def test_sentence_occurs_verbatim(sid):
    text = rulebook_text()
    assert SENTENCES[sid] in text or SENTENCES[sid] in _normal(text), \
        f"{sid} is not in rulebook.txt: {SENTENCES[sid]!r}"
    assert sentence(sid) == SENTENCES[sid]


def test_sentence_ids_are_stable_and_distinct():
    assert len(set(SENTENCES.values())) == len(SENTENCES)
    for sid in SENTENCES:
        section, _, number = sid.rpartition(".")
        assert section and number.isdigit(), sid


@pytest.mark.skipif(not OFFICIAL_COPY.exists(), reason="no ../shared/RULEBOOK.txt here")
def test_shipped_rulebook_is_the_official_copy():
    assert rulebook_text() == OFFICIAL_COPY.read_text(encoding="utf-8")


# -- citations --------------------------------------------------------------------------

def test_rule_ids_are_unique(rules):
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


def test_every_rule_cites_existing_sentences(rules):
    bad = {r.id: [s for s in r.sentences if s not in SENTENCES] for r in rules}
    assert not {k: v for k, v in bad.items() if v}
    assert all(r.sentences for r in rules), [r.id for r in rules if not r.sentences]


def test_every_choice_point_cites_existing_sentences():
    for cp in CHOICE_POINTS.values():
        assert cp.sentences, cp.id
        assert set(cp.sentences) <= set(SENTENCES), (cp.id, cp.sentences)


def test_choice_points_are_well_formed():
    for cid, cp in CHOICE_POINTS.items():
        assert cid == cp.id and cp.question
        assert len(cp.readings) >= 2, cid
        assert len(set(cp.reading_ids)) == len(cp.reading_ids), cid
        assert cp.literal == cp.reading_ids[0]
        assert len(cp.why) > 40, f"{cid}: say why the first reading is the literal one"
        assert all(r.text for r in cp.readings), cid
    assert default_readings() == {c: cp.literal for c, cp in CHOICE_POINTS.items()}


def test_every_reading_has_a_rule(rules):
    have = {(r.choice, r.reading) for r in rules}
    missing = [(c, r) for c, r in READINGS if (c, r) not in have]
    assert not missing


def test_no_rule_names_an_unknown_choice_point_or_reading(rules):
    for r in rules:
        if r.choice is None:
            assert r.reading is None, r.id
            continue
        assert r.choice in CHOICE_POINTS, (r.id, r.choice)
        assert r.reading in CHOICE_POINTS[r.choice].reading_ids, (r.id, r.reading)


def test_rules_of_a_reading_cite_the_sentences_it_interprets(rules):
    """A reading's rules formalise (part of) the text its choice point interprets."""
    for r in rules:
        if r.choice is not None:
            cp = CHOICE_POINTS[r.choice]
            assert set(r.sentences) & set(cp.sentences), (r.id, r.sentences, cp.sentences)


# -- every reading runs --------------------------------------------------------------

def _combined(k: int) -> dict:
    """The k-th reading of every choice point at once (wrapping round), so a few
    elaborations cover every reading of every point."""
    return {c.id: c.reading_ids[k % len(c.readings)] for c in CHOICE_POINTS.values()}


MAX_READINGS = max(len(cp.readings) for cp in CHOICE_POINTS.values())


def test_the_combined_sets_cover_every_reading():
    covered = {(c, r) for k in range(MAX_READINGS) for c, r in _combined(k).items()}
    assert covered == set(READINGS)


@pytest.mark.parametrize("config", [SMALL, SMALL_TWO], ids=["3p", "2p"])
@pytest.mark.parametrize("k", range(MAX_READINGS))
def test_every_reading_elaborates_and_compiles(config, k):
    """Every reading of every choice point, one from each point at a time."""
    readings = _combined(k)
    round_spec = build_spec(config, readings, "round")
    game_spec = build_spec(config, readings, "game")
    for spec in (round_spec, game_spec):
        assert {c: spec.readings[c] for c in readings} == readings
        for r in spec.rules:  # exactly the chosen reading's rules are kept
            assert r.choice is None or readings[r.choice] == r.reading, r.id
    kept = {r.choice for r in game_spec.rules if r.choice}
    assert kept == set(CHOICE_POINTS)  # every point's chosen reading has a rule here
    mod = compile_spec(game_spec)  # game scope: every round action plus next_round
    assert "def apply_next_round(s, a):" in mod.__source__
    game = Game(round_spec)
    deals = list(game.initial_states())
    s = deals[len(deals) // 2]
    assert game.check_property("CONSERVATION", s)
    for _a, s2 in game.successors(s):
        assert game.check_property("CONSERVATION", s2)


@pytest.mark.slow
@pytest.mark.parametrize("cp, reading", READINGS, ids=[f"{c}={r}" for c, r in READINGS])
def test_each_reading_elaborates_and_compiles_alone(cp, reading):
    """Each reading with every other point literal, at round scope (the game scope
    adds the rounds' rules, compiled with every reading above)."""
    spec = build_spec(SMALL, {cp: reading}, "round")
    assert spec.readings[cp] == reading
    assert {r.reading for r in spec.rules if r.choice == cp} <= {reading}
    compile_spec(spec)
