"""A sweep's matrix as a page: every property against every table, coloured.

Input (what a sweep computes, table by table):

    columns = [SweepColumn(label, game, verdicts), ...]

* ``label``: the column's heading, e.g. "3 players, 2 suits, ranks 2-3, hand 1";
* ``game``: the ``Game`` checked at that table (``Game.from_variant``); it draws
  the column's traces;
* ``verdicts``: that table's ``Verdict`` list, as ``checks.verdicts.verdicts``
  (explicit) or ``checks.symbolic.symbolic_verdicts`` return it (a VIOLATED
  verdict carries its trace, a story with its engine states);
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

from itcp.checks.explicit.verdicts import HOLDS, UNKNOWN, VIOLATED
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


def cell_anchor(pid: str, col: int) -> str:
    return f"trace-{pid}-{col}"


def _cell(v, col: int, links: dict) -> str:
    ev = v.evidence
    if v.verdict == VIOLATED:
        n = ev.get("length", len(v.trace["steps"]) if v.trace else 0)
        href = links.get(v.id) or (f"#{cell_anchor(v.id, col)}" if v.trace is not None else None)
        text = f"{n} move{'s' * (n != 1)}" + (" (lasso)" if ev.get("lasso") else "")
        inner = (f'VIOLATED<br><a href="{e(href)}">{e(text)}</a>' if href is not None
                 else f"VIOLATED<br>{e(text)}")
    elif v.verdict == HOLDS:
        inner = f"HOLDS<br><span class=\"sub\">{e(ev.get('kind', ''))}</span>"
    else:
        limit = ev.get("limit") or ev.get("note") or "no verdict"
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
    counts = {k: sum(v.verdict == k for c in columns for v in c.verdicts)
              for k in (HOLDS, VIOLATED, UNKNOWN)}
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
            if (v.verdict == VIOLATED and v.trace is not None and v.id not in c.links
                    and c.game is not None):
                traces.append(stepper_html(told_view(c.game, v.trace), cell_anchor(v.id, k),
                                           f"{v.id} at {c.label}"))
    if traces:
        body.append("<h2>The traces</h2>" + "".join(traces))
    return document(heading, "".join(body), list(deck.values()))


__all__ = ["SweepColumn", "sweep_page", "sweep_matrix", "cell_anchor"]
