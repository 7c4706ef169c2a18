"""``itcp-check conformance``: the generated engine and the Z3 encoding agree.

For every state of an exploration (and optionally of random playouts) and every
action of the state's phase, the engine's successors must be exactly the
solutions of the Z3 encoding's Next (found one by one, each blocked, until
unsat).  Exit 0: they agree; 1: a disagreement (printed as the state, the
action and both successor sets); 3: Z3 answered unknown somewhere.
"""
from __future__ import annotations

from itertools import chain, islice

import click

from itcp.checks.symbolic.conformance import conformance as check_conformance
from itcp.checks.symbolic.conformance import explored_states, playout_states
from itcp.model.engine.engine import Game

from .common import (
    COUNT,
    EXIT_OK,
    EXIT_UNKNOWN,
    EXIT_VIOLATED,
    NATURAL,
    SEED,
    VARIANT_HELP,
    Command,
    config_options,
    emit_json,
    load,
    variant_argument,
)

#: the table used when no configuration flag says otherwise: small enough to explore
SMALL_TABLE = {"players": 2, "suits": 1, "ranks": "2..3", "hand": 1, "options": "none"}


def small_table_flags(flags: dict) -> dict:
    """The command line's config flags, the small default table filling the gaps."""
    out = dict(flags or {})
    for key, default in SMALL_TABLE.items():
        if out.get(key) is None and not (out.get("full_deck") and key in
                                          ("suits", "ranks", "options")):
            out[key] = default
    return out


def _text(game, report, variant, sources: str) -> str:
    lines = [f"Conformance of engine and Z3 encoding: {variant.name}",
             f"Table: {variant.config.describe()}",
             f"States: {sources}", "",
             f"  states checked       {report.states}",
             f"  (state, action)      {report.pairs}",
             f"  successors agreed    {report.solutions}",
             f"  solver queries       {report.queries}",
             f"  seconds              {report.seconds:.2f}",
             f"  queries/second       {report.queries_per_second:,.0f}"]
    if report.truncated:
        lines.append(f"  truncated            {report.truncated} (more solutions than "
                     "--max-solutions; each one found was checked)")
    if report.unknown:
        lines.append(f"  unknown              {report.unknown} (Z3 gave no answer)")
    lines.append("")
    if not report.disagreements:
        if not report.pairs:
            lines.append("UNKNOWN: nothing was checked (no state, or no action at any state): "
                         "an agreement over nothing is no agreement")
        else:
            lines.append("AGREE" if not report.unknown else "UNKNOWN")
        return "\n".join(lines)
    lines.append(f"DISAGREE at {len(report.disagreements)} (state, action) pair(s)")
    for d in report.disagreements[:5]:
        lines += ["", f"action {d.action} at state {d.state}"]
        desc = game.describe(d.state)
        lines.append("  " + ", ".join(f"{k} {v}" for k, v in desc.items()))
        for title, items in (("engine only", d.engine_only), ("Z3 only", d.z3_only)):
            for args, succ in items[:5]:
                lines.append(f"  {title}: {game.action_str((d.action, args))} -> {succ}")
        if d.note:
            lines.append(f"  ({d.note})")
    return "\n".join(lines)


@click.command("conformance", cls=Command, help=(
    "Check that the generated engine and the Z3 encoding of the spec agree.\n\n"
    + VARIANT_HELP + " Without configuration flags the table is small (2 players, one "
    "suit, ranks 2..3, hand 1, no option cards) so every reachable state is checked. "
    "At each state, for each action of its phase, the engine's successors must equal "
    "the solutions of Z3's Next. Exit 0 agree, 1 disagreement, 3 unknown."))
@variant_argument
@config_options
@click.option("--max-states", type=COUNT, default=5000, show_default=True,
              help="States of the exploration to check.")
@click.option("--playouts", type=NATURAL, default=0, show_default=True,
              help="Also check the states of this many random playouts (seeded).")
@click.option("--no-explore", is_flag=True, default=False,
              help="Check only playout states (for tables too big to explore; give "
                   "--playouts too).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Playout seed.")
@click.option("--max-solutions", type=COUNT, default=1000, show_default=True,
              help="Stop enumerating one (state, action) after this many solutions.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def conformance(variant, config_flags, max_states, playouts, no_explore, seed, max_solutions,
                as_json):


    v = load(variant, small_table_flags(config_flags))
    game = Game.from_variant(v)
    sources, parts = [], []
    if not no_explore:
        parts.append(islice(explored_states(game, max_states), max_states))
        sources.append(f"exploration (up to {max_states})")
    if playouts:
        parts.append(playout_states(game, playouts, seed))
        sources.append(f"{playouts} random playouts (seed {seed})")
    report = check_conformance(game, chain(*parts), max_solutions=max_solutions)
    if as_json:
        out = {"variant": v.name, "config": v.config.describe(), "sources": sources}
        out.update(report.to_json(game))
        emit_json(out)
    else:
        click.echo(_text(game, report, v, "; ".join(sources) or "none"))
    if report.disagreements:
        raise SystemExit(EXIT_VIOLATED)
    if report.unknown or not report.pairs:
        raise SystemExit(EXIT_UNKNOWN)
    raise SystemExit(EXIT_OK)
