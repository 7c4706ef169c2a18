"""What every ``itcp-check`` command shares: config flags, errors, exit codes, JSON.

Exit codes (DESIGN.md section 7): 0 all hold / ok, 1 a property is violated,
2 bad input or usage, 3 unknown (a limit was hit).  Every ``InputError`` a
command raises (a bad variant file, flag or name) is printed as
``error: file:line: message`` plus a hint, and exits 2: never a traceback.
"""
from __future__ import annotations

import functools
import json
import textwrap
from collections.abc import Mapping

import click

import re

from itcp.spec.errors import ConfigError, InputError
from itcp.spec.variants import (FULL_DECK_OVERRIDES, Variant, list_variants, load_variant,
                                parse_options, parse_ranks)

EXIT_OK, EXIT_VIOLATED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3
#: The shell's convention for "interrupted by Ctrl-C" (not 1: that means violated).
EXIT_INTERRUPTED = 130

CONFIG_FLAGS = ("players", "suits", "ranks", "hand", "options", "full_deck")


# -- errors -----------------------------------------------------------------------

def report_input_error(e: InputError) -> None:
    click.echo(f"error: {e.render()}", err=True)


class _Guarded:
    """Turns the program's own input errors into exit code 2 with a message."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except InputError as e:
            report_input_error(e)
            ctx.exit(EXIT_USAGE)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)


class Command(_Guarded, click.Command):
    """A click command whose InputErrors exit 2 with ``error: ...``."""


class Group(_Guarded, click.Group):
    """A click group whose InputErrors (its own or a subcommand's) exit 2."""

    command_class = Command


# -- configuration flags ----------------------------------------------------------

VARIANT_HELP = ("VARIANT is a shipped variant name ("
                + ", ".join(list_variants()) + ") or the path of a variant .toml file.")


def variant_argument(f):
    return click.argument("variant", default="official", metavar="[VARIANT]")(f)


_CONFIG_OPTIONS = (
    (("--players",), dict(type=int, metavar="N", help="Players at the table (2..8).")),
    (("--suits",), dict(type=int, metavar="N", help="Suits in the deck (1..6).")),
    (("--ranks",), dict(metavar="LO..HI",
                        help='Number-card ranks, within 2..10, e.g. "2..10".')),
    (("--hand",), dict(type=int, metavar="N", help="Cards dealt to each player.")),
    (("--options", "option_cards"), dict(
        metavar="LIST", help='Option cards: "all", "none" or a comma list with optional '
                             'copies, e.g. "mercy,justice=2".')),
    (("--full-deck",), dict(is_flag=True, default=False,
                            help="The real game: 6 suits, ranks 2..10, every option card, "
                                 "dealt as the variant says (other flags still apply on "
                                 "top).")),
)
#: click parameter name -> config flag name
_PARAM_TO_FLAG = {"players": "players", "suits": "suits", "ranks": "ranks", "hand": "hand",
                  "option_cards": "options", "full_deck": "full_deck"}


def config_option_objects() -> list[click.Option]:
    """The config flags as click.Option objects (for commands built by hand)."""
    return [click.Option(list(decls), **kw) for decls, kw in _CONFIG_OPTIONS]


def pop_config_flags(params: dict) -> dict:
    """Remove the config flags' click parameters from ``params``; return them as flags."""
    return {flag: params.pop(name, None) for name, flag in _PARAM_TO_FLAG.items()}


def config_options(f):
    """Add --players --suits --ranks --hand --options --full-deck to a command.

    The command receives them as one ``config_flags`` dict (raw, unparsed);
    ``overrides(config_flags)`` turns it into ``load_variant`` overrides.
    """
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        flags = pop_config_flags(kwargs)
        return f(*args, config_flags=flags, **kwargs)

    for decls, kw in reversed(_CONFIG_OPTIONS):
        wrapper = click.option(*decls, **kw)(wrapper)
    return wrapper


def overrides(flags: Mapping | None) -> dict:
    """Config flags -> ``load_variant`` overrides.  Raises InputError on bad text."""
    flags = dict(flags or {})
    out: dict = {}
    if flags.get("full_deck"):
        out.update(FULL_DECK_OVERRIDES)
    for key in ("players", "suits", "hand"):
        if flags.get(key) is not None:
            out[key] = flags[key]
    if flags.get("ranks") is not None:
        try:
            out["ranks"] = parse_ranks(flags["ranks"])
        except InputError as e:
            raise InputError(f"--ranks: {e.message}", hint=e.hint) from None
    if flags.get("options") is not None:
        try:
            out["options"] = parse_options(flags["options"])
        except InputError as e:
            raise InputError(f"--options: {e.message}", hint=e.hint) from None
    return out


def load(variant: str, flags: Mapping | None = None) -> Variant:
    """The variant named or at a path, with the command line's config flags on top."""
    return load_with(variant, overrides(flags))


def load_with(variant: str, table: Mapping) -> Variant:
    """``load_variant`` with an error about a flag's value phrased as a flag."""
    try:
        return load_variant(variant, table)
    except ConfigError as e:
        hint = e.hint
        m = re.match(r"(.*?)\b(players|suits|hand|ranks|options) = (\S+)(.*)", hint or "")
        if m:
            hint = f"{m.group(1)}--{m.group(2)} {m.group(3).strip(chr(34))}{m.group(4)}"
        raise InputError(e.message, e.where, hint) from None


# -- output -----------------------------------------------------------------------

def emit_json(obj) -> None:
    """Machine output: indented JSON, keys in the order the program built them."""
    click.echo(json.dumps(obj, indent=2, sort_keys=False, default=_jsonable))


def _jsonable(o):
    if isinstance(o, Mapping):
        return dict(o)
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    if isinstance(o, tuple):
        return list(o)
    raise TypeError(f"{type(o).__name__} is not JSON serialisable")


def table(rows: list[tuple], headers: tuple | None = None, indent: int = 2,
          last_wrap: int | None = None) -> str:
    """Aligned columns; the last column is free text (optionally wrapped)."""
    rows = [tuple("" if c is None else str(c) for c in r) for r in rows]
    if headers:
        rows = [tuple(headers)] + rows
    if not rows:
        return ""
    ncol = max(len(r) for r in rows)
    rows = [r + ("",) * (ncol - len(r)) for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(ncol - 1)]
    pad = " " * indent
    lines = []
    for k, r in enumerate(rows):
        head = "  ".join(c.ljust(w) for c, w in zip(r, widths))
        text = r[-1]
        if last_wrap and len(text) > last_wrap:
            parts = textwrap.wrap(text, last_wrap) or [""]
        else:
            parts = [text]
        lines.append((pad + head + ("  " if ncol > 1 else "") + parts[0]).rstrip())
        cont = pad + " " * (len(head) + (2 if ncol > 1 else 0))
        lines.extend((cont + p).rstrip() for p in parts[1:])
        if headers and k == 0:
            lines.append((pad + "  ".join("-" * w for w in widths)
                          + ("  " if ncol > 1 else "") + "-" * min(len(r[-1]) or 4, 40)).rstrip())
    return "\n".join(lines)


__all__ = ["Command", "Group", "config_options", "config_option_objects", "pop_config_flags", "variant_argument", "overrides", "load",
           "emit_json", "table", "report_input_error", "VARIANT_HELP",
           "EXIT_OK", "EXIT_VIOLATED", "EXIT_USAGE", "EXIT_UNKNOWN", "CONFIG_FLAGS"]
