"""``itcp-check diff VARIANT_A VARIANT_B``: where two variants part ways.

For each choice point where the variants' readings differ, that reading alone
is changed on VARIANT_A's base and both games are searched side by side at the
smallest tables where the choice point can act: the shortest play where they
differ (a move legal in one and not the other, a different outcome or a
different score), saved as one replayable scenario per reading, or a bounded
proof that they agree (the same reachable game and scores, exhaustively).
"""
from __future__ import annotations

import sys

import click

from itcp.checks.diff import DIFF_MAX_STATES, diff_variants, describe
from itcp.spec.errors import InputError

from .common import EXIT_OK, EXIT_UNKNOWN, VARIANT_HELP, Command, emit_json, load_with


@click.command("diff", cls=Command, help=(
    "Compare two variants choice point by choice point: the smallest scenario where "
    "they differ, or a bounded proof that they agree.\n\n" + VARIANT_HELP
    + "  Exit codes: 0 every comparison decided, 2 bad input, 3 a search hit its limit."))
@click.argument("variant_a", metavar="VARIANT_A")
@click.argument("variant_b", metavar="VARIANT_B")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--save", "save_dir", default="itcp-answers", metavar="DIR", show_default=True,
              help="Folder for the distinguishing scenarios (a subfolder A-vs-B).")
@click.option("--max-states", type=int, default=DIFF_MAX_STATES, metavar="N", show_default=True,
              help="States per comparison before it is UNKNOWN.")
def diff_cmd(variant_a, variant_b, as_json, save_dir, max_states):
    if max_states is not None and max_states <= 0:
        raise InputError("--max-states must be positive", hint="e.g. --max-states 200000")
    va, vb = load_with(variant_a, {}), load_with(variant_b, {})
    folder = None if save_dir is None else f"{save_dir}/{va.name}-vs-{vb.name}"
    comps = diff_variants(va, vb, folder, max_states)
    if as_json:
        emit_json({"a": va.name, "b": vb.name, "choice_points": [c.as_json() for c in comps]})
    else:
        click.echo(f"{va.name} vs {vb.name}: {len(comps)} choice point(s) read differently"
                   f" (each compared alone, on {va.name}'s other readings)")
        for c in comps:
            for line in describe(c):
                click.echo("  " + line)
    sys.exit(EXIT_UNKNOWN if any(c.result == "unknown" for c in comps) else EXIT_OK)


__all__ = ["diff_cmd"]
