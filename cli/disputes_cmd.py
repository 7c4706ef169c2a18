"""``itcp-check disputes [--out FILE]``: the rulings document.

Answers every dispute of the built-in catalogue (``checks/questions/disputes.toml``)
under the official, published and clarified variants and writes a Markdown
document with the witness scenarios saved beside it (``FILE`` without its
suffix, e.g. ``docs/rulings/``).  ``docs/rulings.md`` in the repository is
this command's output (regenerate it with ``itcp-check disputes --force``).

The document and its scenario folder are written as one: both are built in
temporary places and moved into place at the end; an existing document, or a
scenario folder that is not empty, is replaced only with ``--force`` (the
folder then as a whole: every file in it is the old document's).
"""
from __future__ import annotations

import sys

import click

from itcp.checks.questions.disputes import document, load_catalogue, rulings_paths

from .common import Command, force_option
from .output import Outputs


@click.command("disputes", cls=Command, help=(
    "Answer the built-in catalogue of rules disputes under official, published and "
    "clarified and write the rulings document (Markdown) with its scenarios beside it.  "
    "Exit codes: 0 written, 2 bad input."))
@click.option("--out", "out_file", default="docs/rulings.md", metavar="FILE", show_default=True,
              help="The document to write; scenarios go to FILE without its suffix.")
@click.option("--catalogue", metavar="TOML",
              help="A catalogue file instead of the built-in one.")
@click.option("--list", "list_only", is_flag=True, help="List the disputes and stop.")
@force_option
def disputes_cmd(out_file, catalogue, list_only, force):
    if list_only:
        for i, d in enumerate(load_catalogue(catalogue), 1):
            click.echo(f"{i:>2}. {d.id:<22} {d.question}")
        return
    doc_path, folder_path = rulings_paths(out_file)
    with Outputs(force) as out:
        doc = out.file(doc_path, "--out")
        folder = out.folder(folder_path, "--out (its scenario folder)", whole=True)
        disputes = load_catalogue(catalogue)
        progress = None
        if sys.stderr.isatty():
            progress = lambda msg: click.echo(f"  ... {msg}", err=True)  # noqa: E731
        doc.write(document(disputes, folder, doc_path, progress))
        out.commit()
    click.echo(f"wrote {doc_path} and {len(folder.names)} scenario file(s) in {folder_path}/")


__all__ = ["disputes_cmd"]
