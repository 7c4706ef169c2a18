"""The pieces every HTML page of the report is made of: the document with its
inline style and script, the table at one state, a trace as a stepper, a rule
with its rulebook sentences, the variant's readings.

A page is one self-contained file: styles, the stepper's script and the card
pictures are inline, nothing is fetched (no network, no external fonts).
"""
from __future__ import annotations

from html import escape

from . import cards as C
from .view import ReadingView, RuleNote, TableView, TraceView, readings_view

CSS = """
:root { --ok:#2e7d32; --bad:#c62828; --unk:#b26a00; --ink:#222; --mute:#666; --line:#ddd;
        --felt:#eef5ee; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
       sans-serif; color: var(--ink); margin: 0 auto; max-width: 1180px; padding: 16px 24px 60px;
       line-height: 1.45; }
h1 { font-size: 1.55em; margin: 0.2em 0; } h2 { font-size: 1.25em; margin-top: 1.8em;
  border-bottom: 1px solid var(--line); padding-bottom: 4px; } h3 { font-size: 1.08em; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.92em; }
.sub { color: var(--mute); }
table.grid { border-collapse: collapse; margin: 8px 0; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 4px 8px;
  text-align: left; vertical-align: top; }
table.grid th { background: #f6f6f6; }
.v { font-weight: bold; padding: 1px 6px; border-radius: 4px; color: #fff; white-space: nowrap; }
.v-HOLDS { background: var(--ok); } .v-VIOLATED { background: var(--bad); }
.v-UNKNOWN { background: var(--unk); }
.v-yes { background: #1565c0; } .v-no { background: #455a64; }
.v-unknown { background: var(--unk); }
td.cell-HOLDS { background: #e8f5e9; } td.cell-VIOLATED { background: #ffebee; }
td.cell-UNKNOWN { background: #fff8e1; }
a { color: #1565c0; }
.deck-cards { display: flex; flex-wrap: wrap; gap: 3px; }
svg.card { width: 40px; height: 56px; flex: none; }
svg.card.small { width: 30px; height: 42px; }
.stepper { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px;
  margin: 12px 0 24px; outline: none; }
.stepper:focus, .stepper.active { border-color: #90caf9; box-shadow: 0 0 0 2px #e3f2fd; }
.controls { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; margin: 6px 0; }
.controls button { font-size: 0.95em; padding: 3px 10px; border: 1px solid #bbb;
  border-radius: 5px; background: #fafafa; cursor: pointer; }
.controls button:disabled { opacity: 0.4; cursor: default; }
.counter { font-weight: bold; min-width: 9em; }
.hint { color: var(--mute); font-size: 0.85em; }
.moves { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; padding: 0; margin: 4px 0; }
.moves li { border: 1px solid var(--line); border-radius: 12px; padding: 0 8px;
  font-size: 0.85em; cursor: pointer; background: #fff; }
.moves li.on { background: #1565c0; color: #fff; border-color: #1565c0; }
.step-title { font-size: 1.05em; margin: 8px 0; }
.felt { background: var(--felt); border-radius: 10px; padding: 10px; display: flex; gap: 14px;
  flex-wrap: wrap; align-items: flex-start; }
.centre { display: flex; gap: 14px; align-items: center; padding: 6px 10px; background: #fff;
  border-radius: 8px; border: 1px solid #cfd8cf; }
.pile, .deckpile { text-align: center; font-size: 0.8em; color: var(--mute); }
.seats { display: flex; gap: 10px; flex-wrap: wrap; flex: 1; }
.seat { background: #fff; border: 2px solid #cfd8cf; border-radius: 8px; padding: 5px 8px;
  min-width: 120px; }
.seat.to-act { border-color: #1565c0; box-shadow: 0 0 0 2px #bbdefb; }
.seat.passer { background: #fffde7; border-style: dashed; border-color: #b58900; }
.seat.aside { opacity: 0.55; }
.seat.changed .hand { outline: 2px solid #ef6c00; outline-offset: 2px; border-radius: 4px; }
.seat-head { font-weight: bold; display: flex; gap: 6px; align-items: center;
  flex-wrap: wrap; }
.badge { font-size: 0.72em; font-weight: bold; border-radius: 8px; padding: 0 6px; color: #fff; }
.badge.pass { background: #b58900; } .badge.turn { background: #1565c0; }
.badge.aside { background: #757575; } .badge.team { background: #6a1b9a; }
.pts { color: var(--mute); font-weight: normal; font-size: 0.85em; }
.hand { display: flex; gap: 3px; flex-wrap: wrap; min-height: 56px; margin-top: 4px; }
.empty { color: var(--mute); font-style: italic; font-size: 0.85em; }
.why { display: grid; grid-template-columns: 3fr 2fr; gap: 14px; margin-top: 8px; }
@media (max-width: 800px) { .why { grid-template-columns: 1fr; } }
ul.rules { list-style: none; padding: 0; margin: 0; }
ul.rules > li { border-left: 3px solid #90a4ae; padding: 2px 0 2px 8px; margin: 0 0 8px; }
ul.rules > li.reading-rule { border-left-color: #6a1b9a; }
.reading { color: #6a1b9a; font-size: 0.92em; }
blockquote.sentence { margin: 2px 0 0 0; padding: 2px 8px; background: #f7f7f2;
  border-left: 3px solid #c9c29a; font-size: 0.9em; font-style: italic; }
.sid { font-style: normal; font-family: ui-monospace, Menlo, Consolas, monospace;
  color: var(--mute); font-size: 0.9em; }
ul.changes { margin: 0; padding-left: 18px; }
.ending { font-weight: bold; color: var(--bad); margin: 10px 0 2px; }
.ending.ok { color: var(--ok); }
.readings td.lit { color: var(--mute); }
details { margin: 6px 0; }
summary { cursor: pointer; }
.graph-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px;
  padding: 6px; }
svg.state-graph { width: 100%; min-width: 700px; height: auto; }
.plot img { max-width: 100%; border: 1px solid var(--line); border-radius: 6px; }
.note { color: var(--mute); font-size: 0.9em; }
footer { margin-top: 40px; color: var(--mute); font-size: 0.85em; }
"""

# One stepper per trace: buttons, the move list and the arrow keys (on the stepper
# with focus, else the one used last, else the first) show one step at a time.
JS = """
(function () {
  var steppers = Array.prototype.slice.call(document.querySelectorAll('.stepper'));
  var last = steppers[0] || null;
  function show(st, k) {
    var steps = st.querySelectorAll('.step');
    var n = steps.length - 1;
    k = Math.max(0, Math.min(n, k));
    for (var i = 0; i < steps.length; i++) { steps[i].hidden = (i !== k); }
    st.setAttribute('data-current', String(k));
    st.querySelector('.counter').textContent = k === 0 ? 'The deal (step 0 of ' + n + ')'
      : 'Step ' + k + ' of ' + n;
    st.querySelector('[data-go=first]').disabled = k === 0;
    st.querySelector('[data-go=prev]').disabled = k === 0;
    st.querySelector('[data-go=next]').disabled = k === n;
    st.querySelector('[data-go=last]').disabled = k === n;
    var moves = st.querySelectorAll('.moves li');
    for (var j = 0; j < moves.length; j++) {
      moves[j].classList.toggle('on', Number(moves[j].getAttribute('data-goto')) === k);
    }
  }
  function cur(st) { return Number(st.getAttribute('data-current') || '0'); }
  function activate(st) {
    steppers.forEach(function (x) { x.classList.toggle('active', x === st); });
    last = st;
  }
  steppers.forEach(function (st) {
    var n = st.querySelectorAll('.step').length - 1;
    st.addEventListener('click', function (ev) {
      activate(st);
      var go = ev.target.closest('[data-go]');
      var to = ev.target.closest('[data-goto]');
      if (go) {
        var what = go.getAttribute('data-go');
        show(st, what === 'first' ? 0 : what === 'last' ? n
          : cur(st) + (what === 'next' ? 1 : -1));
      } else if (to) {
        show(st, Number(to.getAttribute('data-goto')));
      }
      // keep the keys on this stepper (a button just disabled would drop the focus)
      if (document.activeElement !== st) { st.focus({preventScroll: true}); }
    });
    st.addEventListener('focus', function () { activate(st); });
    show(st, Number(st.getAttribute('data-start') || '0'));
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
    var focused = document.activeElement && document.activeElement.closest
                  && document.activeElement.closest('.stepper');
    var st = focused || last;
    if (!st) { return; }
    var n = st.querySelectorAll('.step').length - 1;
    var k = cur(st);
    // left and right step the stepper in use; Home and End only the one with focus
    // (up and down keep scrolling the page)
    if (ev.key === 'ArrowRight') { show(st, k + 1); }
    else if (ev.key === 'ArrowLeft') { show(st, k - 1); }
    else if (ev.key === 'Home' && focused) { show(st, 0); }
    else if (ev.key === 'End' && focused) { show(st, n); }
    else { return; }
    activate(st);
    ev.preventDefault();
  });
})();
"""


def e(x) -> str:
    return escape(str(x), quote=True)


def document(title: str, body: str, deck=(), script: bool = True, css: str = "",
             js: str = "") -> str:
    """A whole page: ``body`` inside, the card pictures of ``deck`` defined once;
    ``css`` and ``js``: a page's own style and script, after the shared ones."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{e(title)}</title>\n<style>{CSS}{css}</style>\n</head>\n<body>\n"
            + (C.card_symbols(deck) if deck else "") + "\n" + body
            + "\n<footer>Made by itcp-check: every verdict, trace, rule and sentence on this "
              "page comes from the run that wrote it.</footer>\n"
            + (f"<script>{JS}</script>\n" if script else "")
            + (f"<script>{js}</script>\n" if js else "") + "</body>\n</html>\n")


def verdict_badge(verdict: str) -> str:
    return f'<span class="v v-{e(verdict)}">{e(verdict)}</span>'


# -- the table -------------------------------------------------------------------------

def table_html(view: TableView, before: TableView | None = None) -> str:
    """The table at one state: the deck, the pile's top card, who is to play and
    every seat's hand (the passers' marked; hands that changed since ``before``
    outlined)."""
    top = view.top
    passers = ",".join(str(p) for p in view.passers)
    attrs = (f'data-phase="{e(view.phase)}" data-deck="{view.deck}" '
             f'data-pile="{len(view.pile)}" data-pile-top="{e(top.name if top else "")}" '
             f'data-chooser="{e(view.chooser)}" data-passers="{passers}" '
             f'data-ended="{e(view.ended)}"')
    arrow = "to the left (+1)" if view.direction > 0 else "to the right (-1)"
    centre = ['<div class="centre">',
              f'<div class="deckpile">{C.card_back()}<div>deck: <b class="deck-count">'
              f'{view.deck}</b></div></div>',
              '<div class="pile">' + (C.card_svg(top) if top else
                                      '<div class="empty">empty</div>')
              + f'<div>pile: {len(view.pile)} card{"s" * (len(view.pile) != 1)}</div></div>',
              '<div class="status">'
              f'<div>to move: <b class="chooser">{e(view.chooser)}</b></div>'
              f'<div class="sub">phase {e(view.phase)}; play goes {arrow}</div>'
              + (f'<div><b>round over: {e(view.ended)}</b></div>' if view.terminal else "")
              + "</div></div>"]
    seats = ['<div class="seats">']
    for x in view.seats:
        css = ["seat"]
        if x.passed:
            css.append("passer")
        if x.to_act:
            css.append("to-act")
        if x.aside:
            css.append("aside")
        if before is not None and before.seats[x.player].hand_names != x.hand_names:
            css.append("changed")
        badges = []
        if x.passed:
            badges.append('<span class="badge pass" title="said Pass: this hand is frozen">'
                          + ("passed first" if x.first_passer and len(view.passers) > 1
                             else "passed") + "</span>")
        if x.to_act:
            badges.append('<span class="badge turn">to move</span>')
        elif x.to_play:
            badges.append('<span class="badge turn" style="opacity:.6">turn</span>')
        if x.aside:
            badges.append('<span class="badge aside">set aside</span>')
        if x.plays != x.player:
            badges.append(f'<span class="badge team">plays P{x.plays}\'s hand</span>')
        score = (f"score {view.scores[x.player]}" if view.scores is not None
                 else f"{x.points} pt{'s' * (x.points != 1)}")
        hand = "".join(C.card_svg(c) for c in x.cards) or '<span class="empty">no cards</span>'
        seats.append(
            f'<div class="{" ".join(css)}" data-seat="{x.player}" '
            f'data-hand="{e(", ".join(x.hand_names))}" data-passed="{str(x.passed).lower()}" '
            f'data-to-act="{str(x.to_act).lower()}">'
            f'<div class="seat-head">P{x.player} {"".join(badges)}'
            f'<span class="pts">{score}</span></div><div class="hand">{hand}</div></div>')
    seats.append("</div>")
    return f'<div class="felt table" {attrs}>' + "".join(centre) + "".join(seats) + "</div>"


# -- rules -------------------------------------------------------------------------------

def rule_html(note: RuleNote, sentences: bool = True) -> str:
    css = "reading-rule" if note.choice else ""
    out = [f'<li class="{css}" data-rule="{e(note.id)}"><code>{e(note.id)}</code> {e(note.doc)}']
    if note.choice:
        out.append(f'<div class="reading" data-reading="{e(note.choice)}={e(note.reading)}">'
                   f'reading <code>{e(note.choice)} = {e(note.reading)}</code>'
                   + (f": {e(note.reading_text)}" if note.reading_text else "") + "</div>")
    if sentences:
        for sid, text in note.sentences:
            out.append(sentence_html(sid, text))
    out.append("</li>")
    return "".join(out)


def sentence_html(sid: str, text: str) -> str:
    return (f'<blockquote class="sentence" data-sentence="{e(sid)}">'
            f'<span class="sid">[{e(sid)}]</span> {e(text)}</blockquote>')


def rules_list(notes, sentences: bool = True) -> str:
    if not notes:
        return '<p class="empty">no rule named</p>'
    return '<ul class="rules">' + "".join(rule_html(n, sentences) for n in notes) + "</ul>"


# -- a trace ---------------------------------------------------------------------------

def stepper_html(trace: TraceView, anchor: str, title: str = "", start: str = "first") -> str:
    """A trace as a stepper: the deal, then one move per click or arrow key, each
    with the table after it, the rules and readings that decided it (with the
    rulebook sentences they cite) and what changed; the ending at the last step."""
    n = len(trace.steps)
    moves = ['<ol class="moves">', '<li data-goto="0">deal</li>']
    for st in trace.steps:
        moves.append(f'<li data-goto="{st.n}" title="{e(st.said)}">{st.n}. {e(st.mover)} '
                     f'{e(st.action)}</li>')
    moves.append("</ol>")
    panels = [f'<section class="step" data-step="0"><div class="step-title">The deal'
              f'</div>{table_html(trace.deal)}'
              + ('<p class="note">Step through the trace: the buttons, the moves above, or '
                 'the arrow keys.</p>' if n else "")
              + (_ending(trace) if n == 0 else "") + "</section>"]
    for st in trace.steps:
        loop = (f' <span class="badge team">the loop starts after step {trace.loop_from}</span>'
                if trace.loop_from is not None and st.n == trace.loop_from + 1 else "")
        changes = "".join(f"<li>{e(c)}</li>" for c in st.changes)
        panels.append(
            f'<section class="step" data-step="{st.n}" data-mover="{e(st.mover)}" '
            f'data-action="{e(st.action)}" '
            f'data-rules="{e(" ".join(r.id for r in st.rules))}" hidden>'
            f'<div class="step-title">Step {st.n}: <b>{e(st.said)}</b> '
            f'<code class="sub">{e(st.mover)} {e(st.action)}</code>{loop}</div>'
            + table_html(st.after, st.before)
            + '<div class="why"><div><h4>Rules that decided this move</h4>'
            + rules_list(st.rules) + "</div><div><h4>What changed</h4>"
            + (f'<ul class="changes">{changes}</ul>' if changes else '<p class="empty">nothing'
               '</p>') + "</div></div>"
            + (_ending(trace) if st.n == n else "") + "</section>")
    start_at = n if start == "last" else 0
    return (f'<div class="stepper" id="{e(anchor)}" tabindex="0" data-steps="{n}" '
            f'data-start="{start_at}">'
            + (f"<h3>{e(title)}</h3>" if title else "")
            + '<div class="controls"><button data-go="first" title="the deal (Home)">'
              '&laquo; first</button><button data-go="prev" title="previous move (left arrow)">'
              '&#x25C0; back</button><span class="counter"></span>'
              '<button data-go="next" title="next move (right arrow)">next &#x25B6;</button>'
              '<button data-go="last" title="last move (End)">last &raquo;</button>'
              '<span class="hint">or use the arrow keys</span></div>'
            + "".join(moves) + "".join(panels) + "</div>")


def _ending(trace: TraceView) -> str:
    return f'<p class="ending">&#x2192; {e(trace.ending)}</p>'


# -- the variant -------------------------------------------------------------------------

def readings_html(variant) -> str:
    """Every choice point with the variant's reading: those the variant sets in a
    table, the others (the literal reading) folded away."""
    rows = sorted(readings_view(variant), key=lambda r: r.choice)
    chosen = [r for r in rows if r.explicit]
    literal = [r for r in rows if not r.explicit]
    head = ('<table class="grid readings"><tr><th>choice point</th><th>the question</th>'
            '<th>reading here</th><th>other readings</th></tr>')
    out = []
    if chosen:
        out.append(f"<p>The variant sets {len(chosen)} of the {len(rows)} choice points:</p>"
                   + head + "".join(_reading_row(r) for r in chosen) + "</table>")
    if literal:
        what = ("Every choice point takes" if not chosen else
                f"The other {len(literal)} choice points take")
        out.append(f"<details class=\"literal\"><summary>{what} the literal reading (the text "
                   f"as written): show {len(literal)}</summary>" + head
                   + "".join(_reading_row(r) for r in literal) + "</table></details>")
    return "".join(out)


def _reading_row(r: ReadingView) -> str:
    sents = "".join(sentence_html(s, t) for s, t in r.sentences)
    others = "; ".join(f"<code>{e(i)}</code>: {e(t)}" for i, t in r.others)
    css = "" if r.explicit else ' class="lit"'
    return (f'<tr data-choice="{e(r.choice)}"{css}><td><code>{e(r.choice)}</code></td>'
            f"<td>{e(r.question)}<details><summary class=\"sub\">the sentences</summary>{sents}"
            f"</details></td><td><b><code>{e(r.reading)}</code></b>"
            + (" (literal)" if r.literal else "") + f": {e(r.reading_text)}</td>"
            f"<td class=\"sub\">{others}</td></tr>")


def deck_html(config) -> str:
    return ('<div class="deck-cards">' + "".join(C.card_svg(c, "card small")
                                                 for c in config.cards) + "</div>")


def variant_header(variant, heading: str) -> str:
    return (f"<h1>{e(heading)}</h1>"
            f'<p class="sub">variant <b>{e(variant.name)}</b>: {e(variant.description)}</p>'
            f"<p>Table: <b>{e(variant.config.describe())}</b> "
            f"({variant.config.n_cards} cards)</p>" + deck_html(variant.config))


__all__ = ["document", "table_html", "stepper_html", "rule_html", "rules_list",
           "readings_html", "variant_header", "verdict_badge", "sentence_html", "e", "CSS",
           "JS"]
