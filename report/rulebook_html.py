"""The literate rulebook (``report/rulebook.py``) as one self-contained HTML page
(``itcp-check rulebook --html FILE``).

A table of the sentences (rules, choice points, scenarios and a bar of each
sentence's mutants, inline SVG) leads to one section per sentence: the sentence
quoted, the rules citing it as cards (the author's words, the English, fired or
not, the scenarios, the mutants), the choice points citing it with their
readings.  Two controls, in a few lines of inline script: show only the
variant's rules, and find a word (the sentences that do not contain it are
hidden).  Styles and script are inline and nothing is fetched (``page.document``).
"""
from __future__ import annotations

from .english import Statement
from .evidence import STATUSES, Mutants
from .page import document, e
from .rulebook import ChoiceEntry, Rulebook, RuleEntry, SentenceEntry, first_said
from .rulebook_text import files, header_lines, sentence_summary

CSS = """
.bar { vertical-align: middle; }
.controls-bar { padding: 8px 0; border-bottom: 1px solid var(--line); display: flex;
  gap: 18px; align-items: center; flex-wrap: wrap; }
.controls-bar input[type=search] { font-size: 0.95em; padding: 3px 8px; min-width: 260px; }
section.sentence { margin-top: 28px; }
section.sentence > h2 a { color: inherit; text-decoration: none; }
blockquote.book { font-size: 1.1em; margin: 6px 0; padding: 6px 12px; background: #f7f7f2;
  border-left: 4px solid #c9c29a; font-style: italic; }
ul.rulebook-rules { list-style: none; padding: 0; }
li.rule { border: 1px solid var(--line); border-left: 4px solid #90a4ae; border-radius: 6px;
  padding: 6px 10px; margin: 8px 0; }
li.rule.in { border-left-color: #2e7d32; }
li.rule.out { opacity: 0.75; background: #fafafa; }
li.rule.again { border: none; padding: 0 10px; opacity: 0.8; }
.rule-head { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.tag { font-size: 0.78em; border-radius: 8px; padding: 0 7px; background: #eceff1; }
.tag.in { background: #e8f5e9; color: #1b5e20; } .tag.fired { background: #e3f2fd; }
.tag.never { background: #fff3e0; color: #8a4b00; }
ul.english { margin: 4px 0; padding-left: 20px; }
ul.english li { margin: 2px 0; }
ul.english ul { margin: 0; padding-left: 18px; list-style: circle; }
.doc { color: var(--mute); margin: 2px 0; }
.meta { font-size: 0.88em; color: var(--mute); margin: 4px 0 0; }
div.choice { border: 1px dashed #b39ddb; border-radius: 6px; padding: 6px 10px; margin: 10px 0; }
div.choice tr.chosen td { background: #f3e5f5; font-weight: bold; }
body.only-variant li.rule.out { display: none; }
"""

JS = """
(function () {
  var only = document.getElementById('only-variant');
  var find = document.getElementById('find');
  var count = document.getElementById('shown');
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.sentence'));
  function apply() {
    document.body.classList.toggle('only-variant', only.checked);
    var q = find.value.trim().toLowerCase();
    var n = 0;
    sections.forEach(function (s) {
      var hit = !q || s.textContent.toLowerCase().indexOf(q) >= 0;
      s.hidden = !hit;
      var row = document.querySelector('tr[data-row="' + s.getAttribute('data-sentence') + '"]');
      if (row) { row.hidden = !hit; }
      if (hit) { n += 1; }
    });
    count.textContent = n + ' of ' + sections.length + ' sentences shown';
  }
  only.addEventListener('change', apply);
  find.addEventListener('input', apply);
  apply();
})();
"""

#: the colour of each mutant status in the bars
COLOURS = {"killed": "#2e7d32", "survived": "#c62828", "timeout": "#ef6c00",
           "equivalent": "#90a4ae", "proved": "#78909c", "stillborn": "#cfd8dc"}


def mutant_bar(m: Mutants, width: int = 120) -> str:
    """The mutants as a bar, one stretch per status (an empty frame: none)."""
    parts, x = [], 0.0
    total = m.total
    for status in STATUSES:
        n = getattr(m, status)
        if not n:
            continue
        w = width * n / total
        parts.append(f'<rect x="{x:.1f}" y="0" width="{w:.1f}" height="10" '
                     f'fill="{COLOURS[status]}" data-status="{status}"><title>{n} {status}'
                     f'</title></rect>')
        x += w
    return (f'<svg class="bar" width="{width}" height="10" role="img" '
            f'aria-label="{e(m.text())}"><rect x="0" y="0" width="{width}" height="10" '
            f'fill="none" stroke="#ccc"/>' + "".join(parts) + "</svg>")


def anchor(sid: str) -> str:
    return f"s-{sid}"


def rule_card(r: RuleEntry, variant: str) -> str:
    state = {"fired": "fired", "never fired": "never", "not seen firing": "never"}.get(
        r.state, "")
    tags = [f'<span class="tag {"in" if r.included else ""}">'
            f'{"in " + e(variant) if r.included else "not in " + e(variant)}</span>']
    if r.choice:
        tags.append(f'<span class="tag reading">reading <code>{e(r.choice)} = '
                    f'{e(r.reading)}</code></span>')
    tags.append(f'<span class="tag {state}">{e(r.state)}</span>')
    english = "".join(statement_html(st) for st in r.english.statements)
    mutants = (f"{mutant_bar(r.mutants)} {e(r.mutants.text())}" if r.mutants
               else "not in the mutation run")
    return (f'<li class="rule {"in" if r.included else "out"}" data-rule="{e(r.id)}" '
            f'data-included="{str(r.included).lower()}" data-state="{e(r.state)}">'
            f'<div class="rule-head"><code><b>{e(r.id)}</b></code>{"".join(tags)}</div>'
            f'<p class="doc">In its author\'s words: {e(r.doc)}</p>'
            f'<ul class="english">{english}</ul>'
            f'<p class="meta">Scenarios ({len(r.scenarios)}): {e(files(r.scenarios))}. '
            f'Mutants: {mutants}.' + (f' Written at <code>{e(r.where)}</code>.' if r.where
                                      else "") + "</p></li>")


def statement_html(st: Statement) -> str:
    """A statement: its head, and what it says under it as a list when it says more
    than one thing."""
    if len(st.items) < 2:
        return f"<li>{e(st.text())}</li>"
    return (f"<li>{e(st.head)}<ul>" + "".join(f"<li>{e(x)}</li>" for x in st.items)
            + "</ul></li>")


def again(r: RuleEntry, where: str) -> str:
    return (f'<li class="rule again {"in" if r.included else "out"}" data-rule="{e(r.id)}" '
            f'data-included="{str(r.included).lower()}"><code>{e(r.id)}</code>: said under '
            f'<a href="#{anchor(where)}">{e(where)}</a></li>')


NO_CONTRAST = ("no library scenario (no round at the tables searched tells the readings "
               "apart)")


def choice_box(c: ChoiceEntry, variant: str) -> str:
    rows = "".join(
        f'<tr data-reading="{e(rd.id)}"{" class=chosen" if rd.chosen else ""}>'
        f'<td>{"&gt;" if rd.chosen else ""}</td><td><code>{e(rd.id)}</code>'
        f'{" (literal)" if rd.literal else ""}</td><td>{e(rd.text)}</td>'
        f'<td>{", ".join(f"<code>{e(x)}</code>" for x in rd.rules) or "-"}</td></tr>'
        for rd in c.readings)
    told = ", ".join(f'<code>{e(x.file)}</code> ({e(x.readings[0][0])} vs '
                     f'{e(x.readings[0][1])}): {e(x.title)}' for x in c.contrasts)
    return (f'<div class="choice" data-choice="{e(c.id)}"><h3>Choice point <code>{e(c.id)}'
            f'</code>: {e(c.question)}</h3><table class="grid"><tr><th></th><th>reading</th>'
            f'<th>meaning</th><th>rules</th></tr>{rows}</table>'
            f'<p>Why <code>{e(c.literal)}</code> is literal: {e(c.why)}</p>'
            + (f'<p class="note">Note: {e(c.note)}.</p>' if c.note else "")
            + f'<p class="told">Told apart by: {told or NO_CONTRAST}</p></div>')


def sentence_section(s: SentenceEntry, variant: str, said: dict[str, str]) -> str:
    """A sentence's section; a rule or choice point said in full under another
    sentence (``said``: ``first_said``) is only named, with a link."""
    items = []
    for r in s.rules:
        where = said[f"rule:{r.id}"]
        items.append(rule_card(r, variant) if where == s.id else again(r, where))
    boxes = []
    for c in s.choices:
        where = said[f"choice:{c.id}"]
        boxes.append(choice_box(c, variant) if where == s.id else
                     f'<p class="again" data-choice="{e(c.id)}">Choice point <code>{e(c.id)}'
                     f'</code>: said under <a href="#{anchor(where)}">{e(where)}</a></p>')
    return (f'<section class="sentence" id="{anchor(s.id)}" data-sentence="{e(s.id)}">'
            f'<h2><a href="#{anchor(s.id)}">{e(s.id)}</a></h2>'
            f'<blockquote class="book">{e(s.text)}</blockquote>'
            f'<p class="summary sub">{e(sentence_summary(s, variant))}</p>'
            + (f'<ul class="rulebook-rules">{"".join(items)}</ul>' if items else
               '<p class="empty">No rule cites this sentence.</p>')
            + "".join(boxes) + "</section>")


def contents(book: Rulebook) -> str:
    rows = "".join(
        f'<tr data-row="{e(s.id)}"><td><a href="#{anchor(s.id)}"><code>{e(s.id)}</code></a>'
        f'</td><td>{e(s.text)}</td><td>{len(s.rules)} ({len(s.in_variant)}, {len(s.fired)})'
        f'</td><td>{len(s.choices)}</td><td>{len(s.scenarios)}</td>'
        f'<td>{mutant_bar(s.mutants)} <span class="sub">{s.mutants.killed} of '
        f'{s.mutants.total}</span></td></tr>' for s in book.sentences)
    legend = " ".join(f'<span class="tag"><svg width="10" height="10"><rect width="10" '
                      f'height="10" fill="{COLOURS[st]}"/></svg> {st}</span>' for st in STATUSES)
    return ('<table class="grid contents"><tr><th>sentence</th><th>text</th>'
            f'<th>rules (in {e(book.variant)}, fired)</th><th>choice points</th>'
            f'<th>scenarios</th><th>mutants killed</th></tr>{rows}</table>'
            f'<p class="sub legend">Mutants: {legend}</p>')


def rulebook_page(book: Rulebook) -> str:
    """The whole page."""
    head = header_lines(book)
    said = first_said(book.sentences)
    sections = "".join(sentence_section(s, book.variant, said) for s in book.sentences)
    ends = ('<section id="loose-ends"><h2>Loose ends</h2><p>Sentences no rule cites: '
            + (", ".join(f'<a href="#{anchor(s.id)}"><code>{e(s.id)}</code></a>'
                         for s in book.uncited) or "none")
            + '.</p><p>Rules that cite no sentence of the rulebook: '
            + (", ".join(f"<code>{e(r.id)}</code>" for r in book.citing_none) or "none")
            + ".</p></section>")
    body = (f"<h1>The literate rulebook: <code>{e(book.variant)}</code></h1>"
            + "".join(f'<p class="sub">{e(line.strip())}</p>' for line in head[1:])
            + '<div class="controls-bar"><label><input type="checkbox" id="only-variant"> '
              f'only the rules of {e(book.variant)}</label><input type="search" id="find" '
              'placeholder="find a word (a card, a rule, a reading)" aria-label="find">'
              '<span id="shown" class="sub"></span></div>'
            + contents(book) + sections + ends)
    return document(f"The literate rulebook: {book.variant}", body, script=False, css=CSS, js=JS)


__all__ = ["rulebook_page", "mutant_bar", "rule_card", "choice_box", "sentence_section",
           "contents"]
