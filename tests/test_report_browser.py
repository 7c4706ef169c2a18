"""The report in a real browser: headless Chromium (Debian's package) driven by
Playwright opens the page from a file:// URL, steps through the FROZEN trace
with clicks and arrow keys, and checks what the page shows at each step against
the engine's states.  A screenshot of the last step is saved under pytest's
temporary folder.  The literate rulebook's page too: its table of contents, each
rule in English with what the search saw, the variant's reading marked, and its
two controls (the variant's rules only; find a word).  Skips, saying why, where
Chromium or Playwright is missing (``.ci/run`` installs Chromium)."""
from __future__ import annotations

import pytest

from itcp.checks.run import Check
from itcp.cli.check_cmd import start_table
from itcp.cli.common import load_with
from itcp.report.evidence import library_contrasts, load_evidence
from itcp.report.html import check_page
from itcp.report.rulebook import TableRun, build_rulebook
from itcp.report.rulebook_html import rulebook_page
from tools.browser import missing, page

pytestmark = pytest.mark.slow

WHY = missing()


@pytest.fixture(scope="module")
def frozen_report(tmp_path_factory):
    """The report of the default check table (as ``itcp-check --html`` writes it)
    and the FROZEN verdict behind it."""
    if WHY:
        pytest.skip(f"browser test skipped: {WHY}")
    report = Check(load_with("official", start_table({}))).run()
    out = tmp_path_factory.mktemp("browser") / "report.html"
    out.write_text(check_page(report), encoding="utf-8")
    return out, report.game, next(x for x in report.results if x.id == "FROZEN")


def visible_step(pg):
    return pg.locator("#trace-FROZEN .step:not([hidden])")


def expect_step(pg, game, frozen, k: int):
    """The visible step is ``k`` and shows the table of the trace's state ``k``."""
    states = frozen.trace.states
    st = visible_step(pg)
    assert st.count() == 1
    assert st.get_attribute("data-step") == str(k)
    assert pg.locator("#trace-FROZEN").get_attribute("data-current") == str(k)
    d = game.describe(states[k])
    table = st.locator(".table")
    assert table.get_attribute("data-deck") == str(d["deck"])
    assert st.locator(".deck-count").inner_text() == str(d["deck"])
    top = d["pile"][-1] if d["pile"] else ""
    assert table.get_attribute("data-pile-top") == top
    if top:
        assert st.locator(".pile svg.card").get_attribute("data-card") == top
    who = game.current_player(states[k])
    for p, hand in enumerate(d["hands"]):
        seat = st.locator(f'.seat[data-seat="{p}"]')
        shown = [c.get_attribute("data-card") for c in seat.locator("svg.card").all()]
        assert ", ".join(shown) == ("" if hand == "nothing" else hand), (k, p)
        classes = seat.get_attribute("class").split()
        assert ("passer" in classes) == (p in d["passers"]), (k, p, classes)
        if p in d["passers"]:
            assert "passed" in seat.locator(".badge.pass").inner_text()
        assert ("to-act" in classes) == (who == p)
    if k > 0:
        told = frozen.trace.steps[k - 1]
        rules = [li.get_attribute("data-rule") for li in st.locator("ul.rules > li").all()]
        assert rules == list(told.rules)
        # each rule shows its rulebook sentences
        for rid in told.rules:
            sids = [b.get_attribute("data-sentence") for b in
                    st.locator(f'li[data-rule="{rid}"] blockquote.sentence').all()]
            assert sids == list(game.spec.rule(rid).sentences)


def test_step_through_frozen_in_chromium(frozen_report, tmp_path):
    path, game, frozen = frozen_report
    n = len(frozen.trace.actions)
    with page() as pg:
        pg.goto(path.resolve().as_uri())
        stepper = pg.locator("#trace-FROZEN")
        assert stepper.get_attribute("data-steps") == str(n)
        expect_step(pg, game, frozen, 0)
        # one move per click...
        stepper.locator('[data-go="next"]').click()
        expect_step(pg, game, frozen, 1)
        # ...and per arrow key
        for k in range(2, n + 1):
            pg.keyboard.press("ArrowRight")
            expect_step(pg, game, frozen, k)
        assert stepper.locator('[data-go="next"]').is_disabled()
        pg.keyboard.press("ArrowRight")          # nothing after the last step
        expect_step(pg, game, frozen, n)
        # the last step ends with the violation, the passer marked
        assert "FROZEN violated" in visible_step(pg).locator(".ending").inner_text()
        shot = tmp_path / "frozen-last-step.png"
        stepper.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        print(f"screenshot: {shot}")
        pg.keyboard.press("ArrowLeft")
        expect_step(pg, game, frozen, n - 1)
        pg.keyboard.press("Home")
        expect_step(pg, game, frozen, 0)
        pg.keyboard.press("End")
        expect_step(pg, game, frozen, n)
        # a move in the list jumps to its step
        stepper.locator('.moves li[data-goto="2"]').click()
        expect_step(pg, game, frozen, 2)
        # the verdict table's link leads to the stepper
        assert pg.locator('tr[data-property="FROZEN"] a').get_attribute("href") == \
            "#trace-FROZEN"


# -- the literate rulebook ------------------------------------------------------------

@pytest.fixture(scope="module")
def rulebook_file(tmp_path_factory):
    """The rulebook page of official at the default check table, as ``itcp-check
    rulebook --html`` writes it, and the rulebook behind it."""
    if WHY:
        pytest.skip(f"browser test skipped: {WHY}")
    v = load_with("official", start_table({}))
    book = build_rulebook(v, TableRun.of(Check(v).run()), load_evidence(), library_contrasts())
    out = tmp_path_factory.mktemp("browser") / "rulebook.html"
    out.write_text(rulebook_page(book), encoding="utf-8")
    return out, book


def shown_sentences(pg) -> list[str]:
    return [s.get_attribute("data-sentence") for s in pg.locator("section.sentence").all()
            if s.is_visible()]


def test_the_rulebook_in_chromium(rulebook_file, tmp_path):
    path, book = rulebook_file
    every = [s.id for s in book.sentences]
    with page() as pg:
        pg.goto(path.resolve().as_uri())
        assert shown_sentences(pg) == every
        assert pg.locator("#shown").inner_text() == f"{len(every)} of {len(every)} sentences shown"
        # the table of contents leads to a sentence's section
        pg.locator('tr[data-row="pride.1"] a').click()
        assert pg.url.endswith("#s-pride.1")
        section = pg.locator('section[data-sentence="pride.1"]')
        assert section.locator("h2").bounding_box()["y"] < 200   # scrolled to it
        # each rule citing it, in English, with what the search saw
        pride = book.sentence("pride.1")
        cards = section.locator("li.rule")
        assert [c.get_attribute("data-rule") for c in cards.all()] == [r.id for r in pride.rules]
        for r in pride.rules:
            card = section.locator(f'li.rule[data-rule="{r.id}"]')
            assert card.get_attribute("data-state") == r.state
            said = " ".join(card.locator("ul.english").inner_text().split())
            for st in r.english.statements:
                for part in (st.text(),) if len(st.items) < 2 else (st.head, *st.items):
                    assert " ".join(part.split()) in said, (r.id, part)
        chosen = section.locator('div.choice[data-choice="pride.timing"] tr.chosen')
        assert chosen.get_attribute("data-reading") == "simultaneous"
        assert section.locator("svg.bar rect[data-status=killed]").count() >= 1
        shot = tmp_path / "rulebook-pride.png"
        section.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        # only the variant's rules
        out = section.locator("li.rule.out")
        assert out.count() >= 1 and out.first.is_visible()
        pg.locator("#only-variant").check()
        assert not out.first.is_visible()
        assert section.locator("li.rule.in").first.is_visible()
        pg.locator("#only-variant").uncheck()
        assert out.first.is_visible()
        # find a word: the sentences without it are hidden, and their rows
        pg.locator("#find").fill("desolation")
        having = [s.id for s in book.sentences
                  if "desolation" in pg.locator(f'section[data-sentence="{s.id}"]')
                  .text_content().lower()]
        assert shown_sentences(pg) == having and 0 < len(having) < len(every)
        assert not pg.locator('tr[data-row="object.1"]').is_visible()
        assert pg.locator("#shown").inner_text() == f"{len(having)} of {len(every)} sentences shown"
        pg.locator("#find").fill("")
        assert shown_sentences(pg) == every
