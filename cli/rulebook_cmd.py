"""``itcp-check rulebook [VARIANT]``: the literate rulebook, sentence by sentence.

Each sentence of the rulebook with the rules that cite it, said in English from
the spec, the choice points that read it with their readings, and what backs
them: the rules that fired in an explicit search of the variant at the check's
default table (flags change the table), the library scenarios that exercise
them and the spec's mutation score (``report/rulebook.py``).  Text at the
terminal (``--sentence ID`` for some sentences), ``--markdown`` (docs/rulebook.md
is this output for ``official``), ``--json``, or a self-contained page with
``--html FILE``.
"""
from __future__ import annotations

import click

from itcp.checks.run import Check, Limits
from itcp.report.evidence import library_contrasts, load_evidence
from itcp.report.rulebook import TableRun, build_rulebook
from itcp.report.rulebook_html import rulebook_page
from itcp.report.rulebook_text import MARKDOWN_FILE, header_lines, rulebook_markdown, rulebook_text
from itcp.spec.errors import InputError, nearest, valid_names
from itcp.spec.rulebook import SENTENCES

from .check_cmd import start_table
from .common import (
    COUNT,
    SECONDS,
    VARIANT_HELP,
    Command,
    config_options,
    emit_json,
    force_option,
    load_with,
    variant_argument,
)
from .limits import Budget
from .output import Outputs

#: the search's states by default: the default table has about 140,000, a table
#: several times larger still fits, the full deck does not (it is told where it stopped)
MAX_STATES = 2_000_000
#: and its seconds: the default table takes about one
TIMEOUT = 60.0


def sentence_ids(given: tuple[str, ...]) -> tuple[str, ...]:
    """The ``--sentence`` ids, each a sentence of the rulebook."""
    for sid in given:
        if sid not in SENTENCES:
            best = nearest(sid, SENTENCES)
            raise InputError(f"--sentence: {sid!r} is no sentence of the rulebook; "
                             f"{valid_names(SENTENCES)}",
                             hint=f"did you mean {best!r}?" if best else None)
    return given


@click.command("rulebook", cls=Command, help=(
    "The literate rulebook: every sentence of the rulebook followed by the rules that cite "
    "it, said in English from the spec, and the choice points that read it, with their "
    "readings (the variant's marked), why the literal one is literal and the scenarios "
    "that tell them apart; per sentence, the rules that fire in an explicit search of the "
    "variant at the check's default table, the library scenarios that exercise it and the "
    "spec's mutation score. Sentences no rule cites, and rules citing no sentence, are "
    "listed.\n\n" + VARIANT_HELP))
@variant_argument
@config_options
@click.option("--html", "html_file", metavar="FILE", default=None,
              help="Write the rulebook as one self-contained HTML page.")
@click.option("--markdown", "as_markdown", is_flag=True,
              help=f"Print the rulebook as Markdown ({MARKDOWN_FILE} is this for official).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--sentence", "sentences", multiple=True, metavar="ID",
              help="Only this sentence (repeatable; e.g. pride.1), in the text or --json.")
@click.option("--max-states", type=COUNT, default=MAX_STATES, show_default=True,
              help="Stop the search that tells which rules fire after this many states (the "
                   "rulebook then says where it stopped: rules firing later are not seen).")
@click.option("--timeout", type=SECONDS, default=TIMEOUT, show_default=True, metavar="S",
              help="Stop that search (its compile included) after this many seconds; a "
                   "table too big to search, such as --full-deck's, is told where it "
                   "stopped. The default memory limit stops it too.")
@force_option
def rulebook(variant, config_flags, html_file, as_markdown, as_json, sentences, max_states,
             timeout, force):
    if as_markdown and as_json:
        raise click.UsageError("choose at most one of --markdown, --json")
    if sentences and (as_markdown or html_file is not None):
        raise click.UsageError("--sentence picks sentences of the text or --json; --markdown "
                               "and --html show them all")
    only = sentence_ids(sentences)
    with Outputs(force) as out:
        page = out.file(html_file, "--html") if html_file is not None else None
        v = load_with(variant, start_table(config_flags))
        budget = Budget(timeout)     # the time and memory limits stop the compile too
        with budget:
            report = Check(v, limits=Limits(max_states, None, budget.search_timeout(),
                                            budget.timeout_name()), stops=budget).run()
        book = build_rulebook(v, TableRun.of(report), load_evidence(), library_contrasts())
        if page is not None:
            page.write(rulebook_page(book))
        out.commit()
    if as_json:
        emit_json({**book.as_json(only), **({"html": str(html_file)} if html_file else {})})
    elif as_markdown:
        click.echo(rulebook_markdown(book), nl=False)
    elif page is not None:
        click.echo("\n".join(header_lines(book) + ["", f"HTML rulebook written to {html_file}"]))
    else:
        click.echo(rulebook_text(book, only))
