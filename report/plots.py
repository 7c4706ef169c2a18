"""Plots of random play (``itcp-check simulate --plot DIR`` / ``--html FILE``).

From the rounds ``model/engine/simulate.py`` plays (one ``round_record`` per round:
how it ended, its length, each seat's score, who played first, who passed) and
its rule-firing counts, five figures, each a PNG (matplotlib, Agg backend, no
display) with the CSV of exactly the numbers it draws:

``scores-per-seat``
    each seat's mean round score (with its standard error) and how often the
    seat had the lowest score, alone or tied: is the first seat favoured?
``round-length``
    how many moves rounds take (chance moves included), by how they ended;
``endings-by-players``
    how rounds end (pass reached, zero, deck exhausted, stuck, step cap) at each
    player count;
``pass-wins``
    of the rounds the rules ended with a Pass said, how often the first passer
    finished with the lowest score (alone, tied, or not), at each player count;
``rule-firings``
    in how many steps each rule took part (per 1,000 steps), readings marked.

Scores come from the spec's scoring (``Game.scores``); a round that did not
end by the rules (stuck, step cap) has no final score and is left out of the
score plots (the CSVs say how many rounds each figure counts).
"""
from __future__ import annotations

import base64
import csv
import io
import math
import textwrap
from collections import Counter
from dataclasses import dataclass, field

from itcp.model.engine.simulate import ENDINGS, RULE_ENDINGS
from itcp.spec.errors import InputError

from .page import document, e

#: The files ``--plot DIR`` writes (each figure as PNG and CSV).
FIGURES = ("scores-per-seat", "round-length", "endings-by-players", "pass-wins",
           "rule-firings")
TOP_RULES = 25
ENDING_COLOURS = {"pass reached": "#1e88e5", "zero": "#43a047", "deck exhausted": "#8e24aa",
                  "stuck": "#e53935", "step cap": "#fb8c00"}

INSTALL_HINT = "pip install 'itcp[plot]' (or, in a checkout, pip install -e '.[plot]')"


def pyplot():
    """matplotlib's pyplot on the Agg backend (files only, no display); an
    InputError naming the extra to install when matplotlib is missing."""
    try:  # lazy: matplotlib is the optional 'plot' extra
        import matplotlib
    except ImportError:
        raise InputError("plots need matplotlib, which is not installed",
                         hint=INSTALL_HINT) from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt  # lazy: after the backend is chosen (the 'plot' extra)
    return plt


def require() -> None:
    """Fail early (before any round is played) when plots cannot be drawn."""
    pyplot()


@dataclass
class Run:
    """The rounds played at one player count."""
    players: int
    report: dict                  # model.simulate.simulate's report
    records: list                 # one round_record per round


@dataclass
class SimulationData:
    """What the plots are drawn from: the command's own table, and the same variant
    at other player counts (same seed, same number of rounds)."""
    variant: str
    table: str                    # the main table, described
    main: Run
    by_players: dict = field(default_factory=dict)   # players -> Run (main included)
    skipped: dict = field(default_factory=dict)      # players -> why not played


@dataclass
class Figure:
    name: str
    title: str
    caption: str
    csv: str
    png: bytes = b""


# -- the numbers ---------------------------------------------------------------------------

def _csv(header, rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def _scored(records) -> list:
    return [r for r in records if r["ending"] in RULE_ENDINGS]


def seat_rows(run: Run) -> list[tuple]:
    """Per seat: order of play (1 = plays first), rounds scored, mean score, its
    standard error, rounds with the lowest score alone, tied."""
    scored = _scored(run.records)
    n = run.players
    firsts = Counter(r["first"] for r in run.records)
    first = firsts.most_common(1)[0][0] if firsts else 0
    rows = []
    for p in range(n):
        xs = [r["scores"][p] for r in scored]
        k = len(xs)
        mean = sum(xs) / k if k else float("nan")
        var = sum((x - mean) ** 2 for x in xs) / (k - 1) if k > 1 else float("nan")
        se = math.sqrt(var / k) if k > 1 else float("nan")
        alone = tied = 0
        for r in scored:
            low = min(r["scores"])
            if r["scores"][p] == low:
                if r["scores"].count(low) == 1:
                    alone += 1
                else:
                    tied += 1
        order = (p - first) % n + 1
        rows.append((f"P{p}", order, k, round(mean, 3), round(se, 3), alone, tied))
    return rows


def length_rows(run: Run) -> list[tuple]:
    """Rounds per (length, ending)."""
    c = Counter((r["steps"], r["ending"]) for r in run.records)
    return [(steps, ending, k) for (steps, ending), k in sorted(c.items())]


def ending_rows(data: SimulationData) -> list[tuple]:
    rows = []
    for n, run in sorted(data.by_players.items()):
        total = run.report["rounds"]
        for ending in ENDINGS:
            k = run.report["endings"].get(ending, 0)
            rows.append((n, ending, k, round(k / total, 4) if total else 0.0))
    return rows


def pass_rows(data: SimulationData) -> list[tuple]:
    """Per player count: rounds ended by the rules with a passer, and how the first
    passer's score compares (lowest alone, tied lowest, not lowest)."""
    rows = []
    for n, run in sorted(data.by_players.items()):
        alone = tied = lost = 0
        for r in _scored(run.records):
            p = r["first_passer"]
            if p < 0:
                continue
            low = min(r["scores"])
            if r["scores"][p] == low:
                if r["scores"].count(low) == 1:
                    alone += 1
                else:
                    tied += 1
            else:
                lost += 1
        passed = alone + tied + lost
        rows.append((n, run.report["rounds"], passed, alone, tied, lost,
                     round((alone + tied) / passed, 4) if passed else 0.0))
    return rows


def rule_rows(run: Run, spec) -> list[tuple]:
    steps = run.report["steps"] or 1
    out = []
    for rid, k in run.report["rule_firings"].items():
        r = spec.rule(rid)
        out.append((rid, r.choice or "", r.reading or "", k, round(1000 * k / steps, 2)))
    return out


# -- the figures ------------------------------------------------------------------------------

def _png(fig, plt) -> bytes:
    """The figure laid out and drawn as PNG bytes (then closed)."""
    fig.tight_layout()
    buf = io.BytesIO()
    # no timestamps or software names in the file: the same data gives the same bytes
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def figures(data: SimulationData, spec, draw: bool = True) -> list[Figure]:
    """The five figures (PNG drawn only if ``draw``; the CSVs always)."""
    plt = pyplot() if draw else None
    main = data.main
    sub = f"{data.variant}, {data.table}; {main.report['rounds']:,} random rounds, " \
          f"seed {main.report['seed']}"
    return [make(data, spec, plt, sub) for make in FIGURE_MAKERS]


def _seat_figure(data: SimulationData, spec, plt, sub: str) -> Figure:
    """Scores per seat: mean score and how often each seat is lowest."""
    main = data.main
    rows = seat_rows(main)
    f = Figure("scores-per-seat", "Scores per seat",
               "Each seat's mean round score (bars: one standard error) and the share of "
               "rounds it finished lowest, alone or tied. Order 1 plays first. Rounds that did "
               f"not end by the rules are left out ({rows[0][2] if rows else 0:,} scored).",
               _csv(("seat", "order_of_play", "rounds_scored", "mean_score", "std_error",
                     "lowest_alone", "lowest_tied"), rows))
    if plt is not None:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.6))
        labels = [f"{r[0]}\n(plays {_ordinal(r[1])})" for r in rows]
        a1.bar(labels, [r[3] for r in rows], yerr=[r[4] for r in rows], color="#1e88e5",
               capsize=3)
        a1.set_ylabel("mean round score (lower is better)")
        a1.set_title("mean score")
        k = rows[0][2] if rows else 0
        a2.bar(labels, [r[5] / k if k else 0 for r in rows], color="#43a047", label="alone")
        a2.bar(labels, [r[6] / k if k else 0 for r in rows],
               bottom=[r[5] / k if k else 0 for r in rows], color="#a5d6a7", label="tied")
        a2.set_ylabel("share of rounds")
        a2.set_title("lowest score at the table")
        a2.legend(fontsize=8)
        _suptitle(fig, f"Scores per seat: {sub}")
        f.png = _png(fig, plt)
    return f


def _length_figure(data: SimulationData, spec, plt, sub: str) -> Figure:
    """Round length: moves per round, by how the round ended."""
    main = data.main

    rows = length_rows(main)
    f = Figure("round-length", "Round length",
               "How many moves a round takes (chance moves included), by how it ended; "
               f"the step cap is {main.report['max_steps']:,}.",
               _csv(("steps", "ending", "rounds"), rows))
    if plt is not None:
        fig, ax = plt.subplots(figsize=(9, 3.6))
        lengths = sorted(s for s, _, k in rows for _ in range(k))
        # one bar per move count up to the 99th percentile; the long tail is counted
        cut = lengths[min(len(lengths) - 1, int(0.99 * len(lengths)))] if lengths else 1
        edges = [x - 0.5 for x in range(0, cut + 2)]
        bottom = [0] * (cut + 1)
        for ending in ENDINGS:
            ys = [0] * (cut + 1)
            for st, en, k in rows:
                if en == ending and st <= cut:
                    ys[st] += k
            if any(ys):
                ax.bar(range(cut + 1), ys, width=1.0, bottom=bottom, label=ending,
                       color=ENDING_COLOURS.get(ending), align="center")
                bottom = [b + y for b, y in zip(bottom, ys)]
        ax.set_xlim(edges[0], edges[-1])
        ax.set_xlabel("moves in the round (chance moves included)")
        ax.set_ylabel("rounds")
        longer = sum(k for st, _, k in rows if st > cut)
        capped = sum(k for st, en, k in rows if en == "step cap")
        ax.set_title(f"{longer:,} rounds longer than {cut} moves not drawn"
                     + (f" ({capped:,} at the step cap)" if capped else ""), fontsize=8)
        ax.legend(fontsize=8)
        _suptitle(fig, f"Round length: {sub}")
        f.png = _png(fig, plt)
    return f


def _endings_figure(data: SimulationData, spec, plt, sub: str) -> Figure:
    """How rounds end, at each player count (log scale)."""
    main = data.main

    rows = ending_rows(data)
    f = Figure("endings-by-players", "How rounds end, by player count",
               "Share of rounds by how they ended, at each player count (the same variant "
               "and deck, the same seed and number of rounds).",
               _csv(("players", "ending", "rounds", "share"), rows))
    if plt is not None:
        fig, ax = plt.subplots(figsize=(9, 3.6))
        counts = sorted(data.by_players)
        # grouped bars on a log scale: the rare endings (a stuck round, a step cap) are
        # the interesting ones, and a stacked share would hide them under "pass reached"
        from matplotlib.patches import Patch  # lazy: the optional 'plot' extra
        width = 0.8 / len(ENDINGS)
        handles = []
        for j, ending in enumerate(ENDINGS):
            xs, ys = [], []
            for i, n in enumerate(counts):
                share = next(r[3] for r in rows if r[0] == n and r[1] == ending)
                if share > 0:
                    xs.append(i - 0.4 + width * (j + 0.5))
                    ys.append(share)
            colour = ENDING_COLOURS.get(ending)
            ax.bar(xs, ys, width=width, color=colour)
            handles.append(Patch(color=colour, label=ending + ("" if ys else " (none)")))
        ax.set_yscale("log")
        ax.set_ylim(0.5 / max(1, main.report["rounds"]), 1.5)
        ax.set_xticks(range(len(counts)), [str(n) for n in counts])
        ax.set_xlabel("players")
        ax.set_ylabel("share of rounds (log scale)")
        ax.legend(handles=handles, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
        _suptitle(fig, f"How rounds end: {data.variant}, {main.report['rounds']:,} rounds "
                       f"per player count, seed {main.report['seed']}")
        f.png = _png(fig, plt)
    return f


def _pass_figure(data: SimulationData, spec, plt, sub: str) -> Figure:
    """How often the first passer scores lowest, per player count."""
    main = data.main

    rows = pass_rows(data)
    f = Figure("pass-wins", "How often a Pass wins",
               "Of the rounds the rules ended in which someone said Pass, the share where the "
               "first passer finished with the lowest score (alone or tied), per player count; "
               "the red mark is one seat in n, the share if nobody were favoured.",
               _csv(("players", "rounds", "rounds_with_pass", "passer_lowest_alone",
                     "passer_lowest_tied", "passer_not_lowest", "pass_wins_share"), rows))
    if plt is not None:
        fig, ax = plt.subplots(figsize=(9, 3.6))
        labels = [str(r[0]) for r in rows]
        share = lambda i: [r[i] / r[2] if r[2] else 0 for r in rows]  # noqa: E731
        a, t, l_ = share(3), share(4), share(5)
        ax.bar(labels, a, color="#43a047", label="lowest alone")
        ax.bar(labels, t, bottom=a, color="#a5d6a7", label="tied lowest")
        ax.bar(labels, l_, bottom=[x + y for x, y in zip(a, t)], color="#e0e0e0",
               label="not lowest")
        for i, r in enumerate(rows):
            ax.text(i, 1.01, f"{r[6]:.0%}", ha="center", fontsize=8)
        # a seat's share of the lowest score if nobody were favoured: one in n
        ax.scatter(range(len(rows)), [1 / r[0] for r in rows], marker="_", s=600,
                   color="#d32f2f", zorder=3, label="one seat in n")
        ax.set_ylim(0, 1.1)
        ax.set_xlabel("players")
        ax.set_ylabel("share of rounds with a Pass")
        _suptitle(fig, f"How often a Pass wins (the first passer scores lowest): "
                       f"{data.variant}, {main.report['rounds']:,} rounds per player count, "
                       f"seed {main.report['seed']}")
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
        f.png = _png(fig, plt)
    return f


def _rules_figure(data: SimulationData, spec, plt, sub: str) -> Figure:
    """How often each rule takes part in a step."""
    main = data.main

    rows = rule_rows(main, spec)
    f = Figure("rule-firings", "Which rules fire",
               f"In how many steps each rule took part, per 1,000 steps (the {TOP_RULES} most "
               "frequent drawn; the CSV has every rule that fired). Rules that interpret a "
               "choice point are drawn in purple.",
               _csv(("rule", "choice_point", "reading", "steps", "per_1000_steps"), rows))
    if plt is not None:
        top = rows[:TOP_RULES][::-1]
        fig, ax = plt.subplots(figsize=(9, 0.28 * max(4, len(top)) + 1))
        ax.barh([r[0] for r in top], [r[4] for r in top],
                color=["#7b1fa2" if r[1] else "#78909c" for r in top])
        ax.set_xlabel("steps per 1,000 in which the rule took part")
        ax.tick_params(axis="y", labelsize=7)
        _suptitle(fig, f"Rule firings: {sub}")
        f.png = _png(fig, plt)
    return f


#: what draws each figure, in the order of FIGURES
FIGURE_MAKERS = (_seat_figure, _length_figure, _endings_figure, _pass_figure, _rules_figure)


def _suptitle(fig, text: str) -> None:
    fig.suptitle("\n".join(textwrap.wrap(text, 120)), fontsize=8.5)


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def files(figs: list[Figure]) -> dict[str, bytes | str]:
    """What ``--plot DIR`` writes: NAME.png and NAME.csv per figure."""
    out: dict[str, bytes | str] = {}
    for f in figs:
        out[f"{f.name}.png"] = f.png
        out[f"{f.name}.csv"] = f.csv
    return out


def file_names() -> list[str]:
    return [f"{n}.{x}" for n in FIGURES for x in ("png", "csv")]


# -- the page ------------------------------------------------------------------------------------

def _csv_table(text: str) -> str:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return ""
    head = "".join(f"<th>{e(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f'<table class="grid"><tr>{head}</tr>{body}</table>'


def simulation_page(data: SimulationData, figs: list[Figure]) -> str:
    """One page: the runs, then each figure (its PNG inline) with its numbers."""
    main = data.main
    rep = main.report
    runs = ", ".join(f"{n} players" for n in sorted(data.by_players))
    skipped = "".join(f"<li>{n} players: {e(why)}</li>" for n, why in sorted(data.skipped.items()))
    body = [f"<h1>Random play: {e(data.variant)}</h1>",
            f"<p>Table: <b>{e(data.table)}</b>. {rep['rounds']:,} random rounds (seed "
            f"{rep['seed']}, step cap {rep['max_steps']:,}): every legal move and chance "
            "outcome drawn uniformly. The same number of rounds with the same seed at each "
            f"player count: {e(runs)}.</p>",
            (f"<p>Not played:</p><ul>{skipped}</ul>" if skipped else ""),
            '<table class="grid"><tr><th>ending</th><th>rounds</th><th>share</th></tr>'
            + "".join(f"<tr><td>{e(k)}</td><td>{n:,}</td><td>"
                      f"{(n / rep['rounds'] if rep['rounds'] else 0):.1%}</td></tr>"
                      for k, n in rep["endings"].items()) + "</table>"]
    for f in figs:
        img = base64.b64encode(f.png).decode("ascii")
        body.append(f'<h2 id="{e(f.name)}">{e(f.title)}</h2><p>{e(f.caption)}</p>'
                    f'<div class="plot"><img alt="{e(f.title)}" '
                    f'src="data:image/png;base64,{img}"></div>'
                    f"<details><summary>the numbers ({e(f.name)}.csv)</summary>"
                    + _csv_table(f.csv) + "</details>")
    return document(f"Random play: {data.variant}", "".join(body), script=False)


__all__ = ["SimulationData", "Run", "Figure", "figures", "files", "file_names",
           "simulation_page", "require", "pyplot", "FIGURES", "INSTALL_HINT"]
