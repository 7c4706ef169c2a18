"""``itcp-check disputes [--out FILE]``: the rulings document.

Answers every dispute of the built-in catalogue (``checks/disputes.toml``)
under the official, published and clarified variants and writes a Markdown
document with the witness scenarios saved beside it (``FILE`` without its
suffix, e.g. ``docs/rulings/``).  ``docs/rulings.md`` in the repository is
this command's output.
"""
from __future__ import annotations

import sys

import click

from itcp.checks.disputes import load_catalogue, write_rulings

from .common import Command


@click.command("disputes", cls=Command, help=(
    "Answer the built-in catalogue of rules disputes under official, published and "
    "clarified and write the rulings document (Markdown) with its scenarios beside it.  "
    "Exit codes: 0 written, 2 bad input."))
@click.option("--out", "out_file", default="docs/rulings.md", metavar="FILE", show_default=True,
              help="The document to write; scenarios go to FILE without its suffix.")
@click.option("--catalogue", type=click.Path(dir_okay=False), metavar="TOML",
              help="A catalogue file instead of the built-in one.")
@click.option("--list", "list_only", is_flag=True, help="List the disputes and stop.")
def disputes_cmd(out_file, catalogue, list_only):
    if list_only:
        for i, d in enumerate(load_catalogue(catalogue), 1):
            click.echo(f"{i:>2}. {d.id:<22} {d.question}")
        return
    progress = None
    if sys.stderr.isatty():
        progress = lambda msg: click.echo(f"  ... {msg}", err=True)  # noqa: E731
    doc, folder = write_rulings(out_file, catalogue, progress)
    n = len(list(folder.glob("*.toml")))
    click.echo(f"wrote {doc} and {n} scenario file(s) in {folder}/")


__all__ = ["disputes_cmd"]
