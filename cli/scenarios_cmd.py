"""``itcp-check scenarios``: generate edge-case scenarios, list the library.

``generate`` writes one scenario per reachable pair of interacting rules and a
coverage table (``coverage.md``, ``coverage.json``): pair -> scenario file, or
-> why it was not found.  Everything is written into a temporary folder and
moved into place at the end, each scenario replayed first.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from itcp.scenarios import generate as G
from itcp.scenarios.format import load_scenario
from itcp.scenarios.save import checked_texts
from itcp.spec.config import OPTION_VALUES
from itcp.spec.errors import InputError, nearest, valid_names
from itcp.spec.rules import build_ruleset

from .common import (
    COUNT,
    EXIT_OK,
    EXIT_UNKNOWN,
    VARIANT_HELP,
    Command,
    Group,
    emit_json,
    force_option,
    load,
    variant_argument,
)
from .output import Outputs

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"


@click.group("scenarios", cls=Group, help="Generate edge-case scenarios; list the library.")
def scenarios():
    pass


@scenarios.command("generate", cls=Command, help=(
    "Write one scenario per pair of rules that can interact (Pass x each option card, each "
    "pair of option cards, deck exhaustion x each, the zero rule x each, the 2- and "
    "8-player edges): the shortest trace at the smallest table where both rules fire in one "
    "round, found by breadth-first search. Also writes coverage.md and coverage.json: "
    "pair -> scenario file, or -> why not found.\n\n" + VARIANT_HELP
    + " Exit codes: 0 every pair found or shown unreachable at the tables tried, "
      "2 bad input, 3 a pair not found within the limits."))
@variant_argument
@click.option("--out", "out_dir", required=True, metavar="DIR",
              help="Folder for the scenarios and the coverage table.")
@click.option("--only", "only", multiple=True, metavar="PAIR",
              help='Only this pair, e.g. "pass x pride" (repeatable).')
@click.option("--max-states", type=COUNT, default=200_000, show_default=True,
              help="Stop a table's search after this many (state, events) nodes.")
@click.option("--depth", type=COUNT, default=40, show_default=True,
              help="Moves after the deal a search goes at most.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@force_option
def generate(variant, out_dir, only, max_states, depth, as_json, force):
    v = load(variant)
    topics = _topics(v)
    # the variant's option cards (all of them if it has none)
    option_topic = G.option_topics([n for n, _ in v.config.options] or list(_all_options()),
                                   topics)
    pairs = G.all_pairs(option_topic)
    if only:
        names = {p.name: p for p in pairs}
        chosen = []
        for want in only:
            key = " x ".join(x.strip() for x in want.replace("×", "x").split(" x "))
            if key not in names:
                best = nearest(key, names)
                raise InputError(f"--only: unknown pair {want!r}; {valid_names(names)}",
                                 hint=f"did you mean {best!r}?" if best else None)
            chosen.append(names[key])
        pairs = chosen
    with Outputs(force) as out:
        folder = out.folder(out_dir, "--out", names=[f"{p.slug}.toml" for p in pairs]
                            + ["coverage.md", "coverage.json"])
        _generate(v, pairs, option_topic, max_states, depth, as_json, folder, out)


def _generate(v, pairs, option_topic, max_states, depth, as_json, folder, out):
    out_dir = str(folder.path)
    progress = None
    if sys.stderr.isatty() and not as_json:
        progress = lambda msg: click.echo(f"  {msg}", err=True)  # noqa: E731
    start = time.monotonic()
    outcomes = G.generate(v, pairs, option_topic, max_states, depth, progress,
                          out_dir=out_dir)
    seconds = time.monotonic() - start
    files = {}
    for o in outcomes:
        if o.found:
            o.file = f"{o.pair.slug}.toml"
            files[o.file] = o.scenario
    table = {"variant": v.name, "seconds": round(seconds, 1),
             "pairs": [o.as_json() for o in outcomes]}
    files["coverage.md"] = G.coverage_markdown(v.name, outcomes, seconds)
    files["coverage.json"] = json.dumps(table, indent=2) + "\n"
    for name, text in checked_texts(folder.path, files).items():
        folder.write(name, text)
    out.commit()
    found = sum(o.found for o in outcomes)
    unknown = [o for o in outcomes if not o.found and "exhaust" not in o.reason]
    if as_json:
        emit_json(table | {"out": out_dir})
    else:
        click.echo(f"itcp-check scenarios generate: variant {v.name}, {len(outcomes)} pairs, "
                   f"{seconds:.1f} s")
        for o in outcomes:
            if o.found:
                note = f"; {o.reason}" if o.reason else ""
                click.echo(f"  {o.pair.name:<24} {o.length:>3} moves  {o.file}  "
                           f"({G.table_text(o.table)}{note})")
            else:
                click.echo(f"  {o.pair.name:<24}   -          {o.reason}")
        click.echo(f"{found} scenario(s) and coverage.md, coverage.json written to {out_dir}")
    sys.exit(EXIT_UNKNOWN if unknown else EXIT_OK)


def _topics(v) -> list[str]:
    ids = [r.id for r in build_ruleset(v.config).rules]
    return sorted({i.split(".")[0] for i in ids}, key=len, reverse=True)


def _all_options():
    return OPTION_VALUES


@scenarios.command("list", cls=Command, help="List the scenario library: file, title, question.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def list_(as_json):
    items = []
    for path in sorted(LIBRARY.glob("*.toml")):
        sc = load_scenario(path, resolved=False)  # the header only: no game is built
        items.append({"file": path.name, "title": sc.title, "question": sc.question,
                      "variant": sc.variant, "readings": sc.readings})
    if as_json:
        emit_json({"scenarios": items})
        return
    for it in items:
        click.echo(f"{it['file']}\n    {it['title']}" + (f"\n    Q: {it['question']}"
                                                        if it["question"] else ""))
    click.echo(f"{len(items)} scenarios in {LIBRARY}")


__all__ = ["scenarios"]
