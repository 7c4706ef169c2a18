"""The literate rulebook's content (``report/rulebook.py``) and the evidence it ships
(``report/evidence.py``, written by ``python -m tools.rule_evidence``): every
sentence in the book's order with every rule citing it, the variant's rules and
readings marked, the scenarios that tell readings apart, the loose ends listed,
and the shipped evidence fresh."""
from __future__ import annotations

from dataclasses import replace

import pytest

from itcp.report.evidence import Evidence, Mutants, library_contrasts, load_evidence
from itcp.report.rulebook import TableRun, build_rulebook, reading_table
from itcp.report.rulebook_html import rulebook_page
from itcp.report.rulebook_text import rulebook_markdown, rulebook_text
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.lang import Rule
from itcp.spec.rulebook import SENTENCES
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import DEFAULT_TABLE, load_variant
from tools import rule_evidence

#: a search that saw two rules fire, exhausted
RUN = TableRun("a small table", 10, True, None, False, frozenset({"pass.say", "pride.open"}))


@pytest.fixture(scope="module")
def official():
    return load_variant("official", DEFAULT_TABLE)


@pytest.fixture(scope="module")
def book(official):
    return build_rulebook(official, RUN, load_evidence(), library_contrasts())


def test_every_sentence_in_the_books_order_with_every_rule_citing_it(book, official):
    assert [s.id for s in book.sentences] == list(SENTENCES)
    rs = build_ruleset(reading_table(official.config))
    for s in book.sentences:
        assert s.text == SENTENCES[s.id]
        assert [r.id for r in s.rules] == [r.id for r in rs.rules if s.id in r.sentences]
        assert [c.id for c in s.choices] == [c.id for c in CHOICE_POINTS.values()
                                             if s.id in c.sentences]


def test_the_variants_rules_and_readings_are_marked(book, official):
    pride = book.sentence("pride.1")
    rules = {r.id: r for r in pride.rules}
    assert rules["pride.timing.simultaneous"].included
    assert not rules["pride.timing.in_turn"].included
    assert rules["pride.timing.in_turn"].state == "not in this variant"
    timing = next(c for c in pride.choices if c.id == "pride.timing")
    assert [(rd.id, rd.literal, rd.chosen) for rd in timing.readings] == [
        ("simultaneous", True, True), ("in_turn", False, False)]
    assert timing.readings[1].rules == ("pride.timing.in_turn",)
    clarified = build_rulebook(load_variant("clarified", DEFAULT_TABLE), RUN, load_evidence(),
                               library_contrasts())
    passer = next(c for c in clarified.sentence("pride.2").choices if c.id == "pride.passer")
    assert [rd.id for rd in passer.readings if rd.chosen] == ["skipped"]


def test_what_fired_is_the_searchs_and_a_sampled_search_is_not_trusted_for_never(book,
                                                                                  official):
    states = {r.id: r.state for r in book.sentence("pass.1").rules}
    assert states["pass.say"] == "fired"
    assert states["pass.when.any_turn"] == "adds nothing"
    assert states["justice.pass.not_allowed"] == "never fired"
    sampled = build_rulebook(official, replace(RUN, sampled=True), load_evidence(), {})
    assert {r.id: r.state for r in sampled.sentence("pass.1").rules}[
        "justice.pass.not_allowed"] == "not seen firing"
    game = {r.id: r.state for r in book.sentence("object.1").rules}
    assert game["game.next_round"] == "game rule: not searched"


def test_the_scenarios_that_tell_readings_apart_come_from_the_library(book):
    timing = next(c for c in book.sentence("pride.1").choices if c.id == "pride.timing")
    assert [(x.file, x.readings) for x in timing.contrasts] == [
        ("reading-pride-timing.toml", (("simultaneous", "in_turn"),))]
    contrasted = {c for s in book.sentences for ch in s.choices if ch.contrasts for c in [ch.id]}
    assert len(contrasted) >= len(CHOICE_POINTS) - 1  # justice.passer has none (test_library)


def test_loose_ends_are_listed(official):
    """A sentence no rule cites and a rule citing no sentence of the book are listed
    (the built-in rule set has neither; a rule set without secret.3's rules has one)."""
    rs = build_ruleset(reading_table(official.config))
    stray = Rule("house.stray", (), "A rule citing nothing.", ())
    cut = replace(rs, rules=tuple(r for r in rs.rules if "secret.3" not in r.sentences)
                  + (stray,))
    book = build_rulebook(official, RUN, Evidence(), {}, ruleset=cut)
    assert [s.id for s in book.uncited] == ["secret.3"]
    assert [r.id for r in book.citing_none] == ["house.stray"]
    text = rulebook_text(book)
    assert "Sentences no rule cites: secret.3" in text
    assert "Rules that cite no sentence of the rulebook: house.stray" in text
    assert "Sentences no rule cites: none" in rulebook_text(
        build_rulebook(official, RUN, Evidence(), {}))


def test_a_rule_is_said_once_and_named_again_under_its_other_sentences(book):
    text = rulebook_text(book)
    assert text.count("  * turn.advance  [") == 1
    assert "  * turn.advance: said under play.1" in text
    md = rulebook_markdown(book)
    assert md.count("### `turn.advance`") == 1
    assert "`turn.advance`: said under [play.1](#play1)." in md


def test_the_page_is_self_contained(book):
    page = rulebook_page(book)
    assert page.count('<section class="sentence"') == len(SENTENCES)
    assert "<style>" in page and "<script>" in page
    for fetch in ("<link", "src=", "http://", "https://", "@import", "url("):
        assert fetch not in page, fetch


def test_mutant_counts_add_up_and_read():
    m = Mutants(killed=3, survived=1, equivalent=2) + Mutants(killed=1, proved=1)
    assert (m.total, m.scored) == (8, 5)
    assert m.text() == "4 killed, 1 survived of 8 mutants (2 equivalent, 1 proved)"
    assert Mutants().text() == "no mutants"


def test_the_shipped_evidence_reads_back():
    ev = load_evidence()
    assert ev.library >= 40 and ev.run.startswith("python -m tools.mutation")
    assert Evidence.from_json(ev.as_json()) == ev


def test_the_shipped_mutation_counts_are_the_summarys():
    """The mutants per rule are docs/mutation.md's (the notes applied); regenerate
    with python -m tools.rule_evidence if this fails."""
    run, counts = rule_evidence.mutation_by_rule()
    ev = load_evidence()
    assert (ev.run, ev.mutation) == (run, counts), "stale: run python -m tools.rule_evidence"


@pytest.mark.slow
def test_the_shipped_scenarios_per_rule_are_the_librarys_replays():
    """Every library scenario replayed: the rules each fires are the shipped ones;
    regenerate with python -m tools.rule_evidence if this fails."""
    library, scenarios = rule_evidence.scenarios_by_rule()
    ev = load_evidence()
    assert (ev.library, ev.scenarios) == (library, scenarios), \
        "stale: run python -m tools.rule_evidence"
