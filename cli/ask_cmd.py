"""``itcp-check ask "QUESTION" [VARIANT]``: settle a rules dispute.

The question is read by the question language (``checks/questions/language.py``) and
answered by the same engines that check the built-in properties: YES or NO
with a witness scenario (saved, replayable, told as a story) or a proof (the
exhausted search at the table, and Z3 induction at each player count with the
full deck), or UNKNOWN naming the limit.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from itcp.checks.questions.answer import Answer, slug
from itcp.checks.questions.ask import Options, ask
from itcp.checks.questions.language import parse
from itcp.checks.results import Verdict
from itcp.checks.run import Limits
from itcp.model.engine.engine import Game
from itcp.report.html import answer_page
from itcp.report.text import html_text
from itcp.spec.errors import InputError

from .check_cmd import start_table
from .common import (
    COUNT,
    EXIT_OK,
    EXIT_UNKNOWN,
    NATURAL,
    SECONDS,
    VARIANT_HELP,
    Command,
    collected,
    config_options,
    emit_json,
    force_option,
    load_with,
    memory_option,
)
from .limits import Budget, memory_option_value
from .output import Outputs


def parse_players(text: str, option: str = "--proof-players") -> tuple[int, ...]:
    """``2..8``, ``2,3,5`` or ``none`` (``option`` names the flag in errors)."""
    t = text.strip().lower()
    if t in ("none", "0", ""):
        return ()
    try:
        if ".." in t:
            lo, hi = (int(x) for x in t.split(".."))
            if lo > hi:
                raise InputError(f"--proof-players: {text!r} is an empty range",
                                 hint='use a range "2..8", a list "2,3" or "none"')
            out = tuple(range(lo, hi + 1)) if 2 <= lo and hi <= 8 else (lo, hi)
        else:
            out = tuple(int(x) for x in t.split(","))
    except ValueError:
        raise InputError(f"{option}: cannot read {text!r}",
                         hint='use a range "2..8", a list "2,3" or "none"') from None
    if not out or any(not 2 <= n <= 8 for n in out):
        raise InputError(f"{option}: {text!r} is not within 2..8",
                         hint='use a range "2..8", a list "2,3" or "none"')
    if len(set(out)) != len(out):
        raise InputError(f"--proof-players: {text!r} names a player count twice",
                         hint='use a range "2..8", a list "2,3" or "none"')
    return out


@dataclass(frozen=True)
class AskFlags:
    """The ask command's flags, besides the question, the variant and its table
    (one field per option, named as the option's parameter)."""
    as_json: bool
    save_dir: str
    max_states: int | None
    depth: int | None
    timeout: float | None
    max_memory: int | None
    no_symmetry: bool
    proof_players: str
    proof_timeout: float
    proof_at: str
    html_file: str | None
    force: bool


@click.command("ask", cls=Command, help=(
    "Answer a question about the rules: YES or NO with a witness scenario or a proof, "
    "or UNKNOWN naming the limit.\n\n"
    "QUESTION is one of: 'can P', 'always P', 'never P', 'after E, eventually P', "
    "'differs CHOICE-POINT'.  Examples: \"can the passer's hand change\", "
    "\"after a pass, eventually the round ends\", "
    "\"can pride_cycle fire while someone has passed\", \"differs pride.passer\".\n\n"
    + VARIANT_HELP + "  Without table flags the table is the check command's default "
    "(2 players, 2 suits, ranks 2..2, hand 1, Unbelief and Pride Cycle).  Exit codes: "
    "0 answered (yes or no), 2 bad input, 3 unknown."))
@click.argument("question")
@click.argument("variant", default="official", metavar="[VARIANT]")
@config_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--save", "save_dir", default="itcp-answers", metavar="DIR", show_default=True,
              help="Folder for the witness scenario files.")
@click.option("--max-states", type=COUNT, metavar="N", help="Stop the search after N states.")
@click.option("--depth", type=NATURAL, metavar="K", help="Stop the search at depth K.")
@click.option("--timeout", type=SECONDS, metavar="S", help="Stop the search after S seconds.")
@memory_option
@click.option("--no-symmetry", is_flag=True, help="Search without symmetry reduction.")
@click.option("--proof-players", default="2..8", metavar="LIST", show_default=True,
              help='Player counts of the Z3 proofs at the full deck: "2..8", "2,3" or "none".')
@click.option("--proof-timeout", type=SECONDS, default=600.0, metavar="S", show_default=True,
              help="Seconds Z3 may spend on each player count (UNKNOWN when it runs out).")
@click.option("--proof-at", type=click.Choice(["full-deck", "table"]), default="full-deck",
              show_default=True,
              help="The deck of the Z3 proofs: the full deck, or this command's table.")
@click.option("--html", "html_file", metavar="FILE", default=None,
              help="Write the answer as one self-contained HTML page (the witness or "
                   "counterexample as a stepper, or what the proofs rest on).")
@force_option
@collected("flags", AskFlags)
def ask_cmd(question, variant, config_flags, flags: AskFlags):
    q = parse(question)
    sizes = parse_players(flags.proof_players)
    table = start_table(config_flags)
    v = load_with(variant, table)
    budget = Budget(None, memory_option_value(flags.max_memory))
    stem = f"{slug(q.text)}--{slug(v.name)}"
    progress = None
    if sys.stderr.isatty() and not flags.as_json:
        progress = lambda msg: click.echo(f"  ... {msg}", err=True)  # noqa: E731
    with Outputs(flags.force) as out:
        save = out.folder(flags.save_dir, "--save",
                          patterns=[f"{stem}.toml", f"{stem}-*.toml"])
        html = out.file(flags.html_file, "--html") if flags.html_file is not None else None
        written: dict = {}
        opts = Options(limits=Limits(flags.max_states, flags.depth, flags.timeout),
                       symmetry=not flags.no_symmetry, proof_sizes=sizes,
                       proof_timeout=flags.proof_timeout, save=save, progress=progress,
                       stopped=lambda: budget.reason)
        if flags.proof_at == "table":
            opts.proof_table = {k: v for k, v in table.items() if k != "players"}
        with budget:
            try:
                with budget.interruptible():
                    a = ask(q, v, opts)
            except KeyboardInterrupt:  # outside the search, which stops by itself
                reason = budget.reason or "interrupted (Ctrl-C)"
                a = Answer(q.text, v.name, Verdict.UNKNOWN, False,
                           f"no answer: stopped by {reason}",
                           {"kind": "bounded", "limit": reason},
                           [f"UNKNOWN: {q.text}", f"  stopped by {reason}: no answer"], None,
                           v.config.describe())
                out.discard()  # nothing of an unfinished answer is saved
            else:
                if html is not None:
                    html.write(answer_page(v, Game.from_variant(v), a))
                    written = {"html": str(html.path)}
                out.commit()
            if flags.as_json:
                emit_json(a.as_json() | written)
            else:
                click.echo("\n".join(a.lines) + html_text(written))
    sys.exit(EXIT_UNKNOWN if a.verdict is Verdict.UNKNOWN else EXIT_OK)


ask_cmd.uses_budget = True  # a signal while the program starts: UNKNOWN, no answer

__all__ = ["ask_cmd", "parse_players"]
