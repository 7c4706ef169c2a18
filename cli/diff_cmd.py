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
from pathlib import Path

import click

from itcp.checks.questions.diff import DIFF_MAX_STATES, describe, diff_variants
from itcp.checks.results import Verdict

from .common import (
    COUNT,
    EXIT_OK,
    EXIT_UNKNOWN,
    VARIANT_HELP,
    Command,
    emit_json,
    force_option,
    load_with,
)
from .output import OutputError, Outputs, component


@click.command("diff", cls=Command, help=(
    "Compare two variants choice point by choice point: the smallest scenario where "
    "they differ, or a bounded proof that they agree.\n\n" + VARIANT_HELP
    + "  Exit codes: 0 every comparison decided, 2 bad input, 3 a search hit its limit."))
@click.argument("variant_a", metavar="VARIANT_A")
@click.argument("variant_b", metavar="VARIANT_B")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--save", "save_dir", default="itcp-answers", metavar="DIR", show_default=True,
              help="Folder for the distinguishing scenarios (a subfolder A-vs-B).")
@click.option("--max-states", type=COUNT, default=DIFF_MAX_STATES, metavar="N", show_default=True,
              help="States per comparison before it is UNKNOWN.")
@force_option
def diff_cmd(variant_a, variant_b, as_json, save_dir, max_states, force):
    va, vb = load_with(variant_a, {}), load_with(variant_b, {})
    with Outputs(force) as out:
        sub = component(f"{va.name}-vs-{vb.name}")
        if not save_dir.strip():
            raise OutputError("--save '': an empty path", hint="give a folder name")
        folder = out.folder(Path(save_dir) / sub, "--save", patterns=["*.toml"])
        comps = diff_variants(va, vb, folder, max_states)
        out.commit()
    if as_json:
        emit_json({"a": va.name, "b": vb.name, "choice_points": [c.as_json() for c in comps]})
    else:
        click.echo(f"{va.name} vs {vb.name}: {len(comps)} choice point(s) read differently"
                   f" (each compared alone, on {va.name}'s other readings)")
        for c in comps:
            for line in describe(c):
                click.echo("  " + line)
    sys.exit(EXIT_UNKNOWN if any(c.verdict is Verdict.UNKNOWN for c in comps) else EXIT_OK)


__all__ = ["diff_cmd"]
