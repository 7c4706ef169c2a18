"""A sweep's matrix as a page: every property against every table, coloured.

Input (what a sweep computes, table by table):

    columns = [SweepColumn(label, game, verdicts), ...]

* ``label``: the column's heading, e.g. "3 players, 2 suits, ranks 2-3, hand 1";
* ``game``: the ``Game`` checked at that table (``Game.from_variant``); it draws
  the column's traces;
* ``verdicts``: that table's ``PropertyResult`` list (``checks/results.py``), as
  a check returns it (a VIOLATED result carries its trace, told, with its engine
  states where they are known: only those are drawn);
* ``note`` (optional): a line about the run, e.g. "149,072 states, 3.5 s";
* ``links`` (optional): property id -> URL of the trace elsewhere (an ITF or
  scenario file the sweep wrote); without one, the trace is drawn on the page
  as a stepper and the cell links to it;
* ``config`` (optional): the table, for a column whose ``game`` is None (a
  column with no trace to draw needs no compiled game; a table that cannot be
  dealt has neither, and no verdicts: its cells are blank).

Rows are the properties in the order they first appear.  A cell shows HOLDS
(and how: exhaustive, inductive, proof), VIOLATED with the trace's length and a
link to the trace, or UNKNOWN with the limit that stopped it; a property a
table did not check is left blank.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from itcp.checks.results import Verdict
from itcp.model.engine.engine import Game
from itcp.spec.config import Config

from .page import document, e, stepper_html, variant_header
from .view import told_view


@dataclass
class SweepColumn:
    label: str
    game: Game | None
    verdicts: list
    note: str = ""
    links: dict = field(default_factory=dict)
    config: Config | None = None


@dataclass(frozen=True)
class Cell:
    """One property at one table, as the matrix shows it: the verdict (or
    "skipped": a table the deck cannot deal, ``reason``), a violation's trace
    length (and whether it is a lasso), a proof's kind, or the limit that
    stopped the check."""
    verdict: str
    length: int | None = None
    lasso: bool = False
    kind: str | None = None
    limit: str | None = None
    reason: str | None = None

    def as_json(self) -> dict:
        if self.verdict == SKIPPED:
            return {"verdict": SKIPPED, "reason": self.reason}
        if self.verdict == Verdict.VIOLATED:
            return {"verdict": self.verdict, "length": self.length,
                    **({"lasso": True} if self.lasso else {})}
        if self.verdict == Verdict.HOLDS:
            return {"verdict": self.verdict, "kind": self.kind}
        return {"verdict": self.verdict, "limit": self.limit}

    def text(self, marks: dict[str, str]) -> str:
        """The cell in the text matrix: "VIOLATED 4", "HOLDS", "UNKNOWN[a]" (the
        limit's mark in ``marks``, a new one added for a limit not seen before)."""
        if self.verdict == Verdict.VIOLATED:
            return "VIOLATED" + (f" {self.length}" if self.length is not None else "")
        if self.verdict == Verdict.UNKNOWN:
            limit = self.limit or "no verdict"
            mark = marks.setdefault(limit, chr(ord("a") + len(marks)) if len(marks) < 26
                                    else str(len(marks)))
            return f"UNKNOWN[{mark}]"
        return str(self.verdict)


#: the verdict of a table the deck cannot deal
SKIPPED = "skipped"


def cell(v) -> Cell:
    """A property's result as a cell of the matrix."""
    if v.verdict is Verdict.VIOLATED:
        t = v.trace
        return Cell(v.verdict, t.length if t is not None else None,
                    t is not None and t.loop_from is not None)
    if v.verdict is Verdict.HOLDS:
        return Cell(v.verdict, kind=v.evidence.kind)
    return Cell(v.verdict, limit=v.evidence.limit)


def cell_anchor(pid: str, col: int) -> str:
    return f"trace-{pid}-{col}"


def drawable(v) -> bool:
    """A violation whose trace can be drawn (its engine states are known)."""
    return v.trace is not None and v.trace.states is not None


def _cell(v, col: int, links: dict) -> str:
    ev = v.evidence
    if v.verdict is Verdict.VIOLATED:
        t = v.trace
        n = t.length if t is not None else 0
        href = links.get(v.id) or (f"#{cell_anchor(v.id, col)}" if drawable(v) else None)
        text = (f"{n} move{'s' * (n != 1)}"
                + (" (lasso)" if t is not None and t.loop_from is not None else ""))
        inner = (f'VIOLATED<br><a href="{e(href)}">{e(text)}</a>' if href is not None
                 else f"VIOLATED<br>{e(text)}")
    elif v.verdict is Verdict.HOLDS:
        inner = f"HOLDS<br><span class=\"sub\">{e(ev.kind)}</span>"
    else:
        limit = ev.limit or ev.summary() or "no verdict"
        inner = f"UNKNOWN<br><span class=\"sub\">{e(limit)}</span>"
    return (f'<td class="cell-{e(v.verdict)}" data-property="{e(v.id)}" data-column="{col}" '
            f'data-verdict="{e(v.verdict)}">{inner}</td>')


def sweep_matrix(columns: list[SweepColumn]) -> str:
    """The matrix alone: properties down, tables across."""
    order: list[str] = []
    statements: dict[str, str] = {}
    for c in columns:
        for v in c.verdicts:
            if v.id not in statements:
                order.append(v.id)
                statements[v.id] = v.statement
    head = "".join(f'<th data-column="{k}">{e(c.label)}'
                   + (f'<div class="sub">{e(c.note)}</div>' if c.note else "") + "</th>"
                   for k, c in enumerate(columns))
    rows = [f'<table class="grid sweep"><tr><th>property</th>{head}</tr>']
    for pid in order:
        cells = []
        for k, c in enumerate(columns):
            v = next((x for x in c.verdicts if x.id == pid), None)
            cells.append(_cell(v, k, c.links) if v is not None
                         else f'<td data-property="{e(pid)}" data-column="{k}"></td>')
        rows.append(f'<tr><th title="{e(statements[pid])}"><code>{e(pid)}</code></th>'
                    + "".join(cells) + "</tr>")
    rows.append("</table>")
    return "".join(rows)


def sweep_page(columns: list[SweepColumn], heading: str = "itcp-check sweep",
               variant=None) -> str:
    """The whole page: the matrix, a count per verdict, and each violation's trace
    (those without a link elsewhere) as a stepper under its cell's anchor."""
    counts = {k: sum(v.verdict is k for c in columns for v in c.verdicts) for k in Verdict}
    body = [variant_header(variant, heading) if variant is not None
            else f"<h1>{e(heading)}</h1>",
            f"<p>{len(columns)} table{'s' * (len(columns) != 1)}; "
            + ", ".join(f"{n} {k}" for k, n in counts.items()) + ".</p>",
            sweep_matrix(columns)]
    traces: list = []
    deck: dict = {}
    for k, c in enumerate(columns):
        config = c.game.config if c.game is not None else c.config
        for card in (config.cards if config is not None else ()):
            deck.setdefault(card.name, card)
        for v in c.verdicts:
            if (v.verdict is Verdict.VIOLATED and drawable(v) and v.id not in c.links
                    and c.game is not None):
                traces.append(stepper_html(told_view(c.game, v.trace), cell_anchor(v.id, k),
                                           f"{v.id} at {c.label}"))
    if traces:
        body.append("<h2>The traces</h2>" + "".join(traces))
    return document(heading, "".join(body), list(deck.values()))


__all__ = ["SweepColumn", "sweep_page", "sweep_matrix", "cell_anchor", "drawable", "Cell",
           "cell", "SKIPPED"]
