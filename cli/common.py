"""What every ``itcp-check`` command shares: config flags, errors, exit codes, JSON.

Exit codes (the CLI contract): 0 all hold / ok, 1 a property is violated,
2 bad input or usage, 3 unknown (a limit was hit).  Every ``InputError`` a
command raises (a bad variant file, flag or name) is printed as
``error: file:line: message`` plus a hint, and exits 2: never a traceback.
"""
from __future__ import annotations

import functools
import inspect
import json
import math
import textwrap
from collections.abc import Callable, Mapping

import click

from itcp.spec.errors import ConfigError, InputError, Setting, clip
from itcp.spec.variants import Variant, list_variants, load_variant, overrides

from .early import PENDING
from .limits import command_started, interrupted_text, parse_size, signals_interrupt

EXIT_OK, EXIT_VIOLATED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3
#: The shell's convention for "interrupted by Ctrl-C" (not 1: that means violated).
EXIT_INTERRUPTED = 130

CONFIG_FLAGS = ("players", "suits", "ranks", "hand", "options", "full_deck")


# -- errors -----------------------------------------------------------------------

def report_input_error(e: InputError) -> None:
    click.echo(f"error: {e.render()}", err=True)


class _Guarded(click.Command):
    """Turns the program's own input errors into exit code 2 with a message,
    and an interrupt (Ctrl-C, SIGTERM, SIGHUP) into "interrupted"."""

    #: the command runs its work inside a ``Budget`` (limits.py), which acts on
    #: a signal that came while the program started; any other command stops
    uses_budget = False

    def invoke(self, ctx: click.Context):
        try:
            if PENDING and not self.uses_budget and not isinstance(self, click.Group):
                raise KeyboardInterrupt
            return super().invoke(ctx)
        except InputError as e:
            report_input_error(e)
            ctx.exit(EXIT_USAGE)
        except RecursionError:
            # a safety net: every loader and compiler limits nesting itself
            click.echo("error: the input is nested too deeply to read", err=True)
            ctx.exit(EXIT_USAGE)
        except KeyboardInterrupt:
            text, code = interrupted_text()
            click.echo(text, err=True)
            ctx.exit(code)


class Command(_Guarded, click.Command):
    """A click command whose InputErrors exit 2 with ``error: ...``."""


class Group(_Guarded, click.Group):
    """A click group whose InputErrors (its own or a subcommand's) exit 2.

    Click's own usage errors echo the offending value: cut to a line."""

    command_class = Command

    def main(self, *args, **kwargs):
        kwargs.setdefault("standalone_mode", True)
        if not kwargs["standalone_mode"]:
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        command_started()
        try:
            with signals_interrupt():
                rv = super().main(*args, **kwargs)
        except click.exceptions.Exit as e:
            raise SystemExit(e.exit_code) from None
        except click.ClickException as e:
            e.message = clip(e.message)
            e.show()
            raise SystemExit(e.exit_code) from None
        except click.Abort:
            click.echo("Aborted!", err=True)
            raise SystemExit(1) from None
        except KeyboardInterrupt:
            text, code = interrupted_text()
            click.echo(text, err=True)
            raise SystemExit(code) from None
        raise SystemExit(rv if isinstance(rv, int) else 0)


# -- numbers --------------------------------------------------------------------------

class Number(click.ParamType):
    """A number option, checked the same way by every command: a whole number
    or a finite decimal (never nan or infinity), at least ``least`` (and,
    with ``open_``, more than it)."""

    def __init__(self, whole: bool, least: float, open_: bool = False, most=None,
                 example: str = "1"):
        self.whole, self.least, self.open_, self.most = whole, least, open_, most
        self.example = example
        self.name = "integer" if whole else "number"

    def get_metavar(self, param, *args, **kwargs) -> str:
        return "N" if self.whole else "S"

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            x = value
        else:
            text = str(value).strip()
            try:
                x = int(text) if self.whole else float(text)
            except ValueError:
                self.fail(f"{clip(text, 40)!r} is not {'a whole number' if self.whole else 'a number'}"
                          f" (e.g. {self.example})", param, ctx)
        if not self.whole and not math.isfinite(x):
            self.fail(f"{value!r} is not a finite number (e.g. {self.example})", param, ctx)
        bad = x <= self.least if self.open_ else x < self.least
        if bad or (self.most is not None and x > self.most):
            if self.most is not None:
                want = f"within {self.least:g}..{self.most:g}"
            else:
                want = f"{'more than' if self.open_ else 'at least'} {self.least:g}"
            self.fail(f"{clip(str(value), 40)} is not {want} (e.g. {self.example})", param, ctx)
        return x


#: a count of things that must be positive (states, rounds, solutions)
COUNT = Number(True, 1, example="100000")
def ray_cluster(address: str):
    """The Ray cluster at ``address`` (``--ray``; "local": started in this process),
    connected: ``checks.raycluster``, the optional 'cluster' extra, imported
    only here.  Exit 2 when Ray is missing or nothing answers there."""
    try:
        from itcp.checks.explicit import raycluster
    except ImportError:
        raise InputError("--ray: Ray is not installed",
                         hint="install the cluster extra: pip install 'itcp[cluster]'") from None
    try:
        raycluster.connect(address)
    except (OSError, ValueError, RuntimeError) as e:
        raise InputError(f"--ray {address}: cannot reach a Ray cluster there ({e})",
                         hint="give a running cluster's address (HEAD:6379) or 'local'") from None
    return raycluster


#: processes of a partitioned search (more than a few hundred is a typo, not a cluster)
WORKERS = Number(True, 1, most=256, example="2")
#: a count that may be zero (a depth, playouts)
NATURAL = Number(True, 0, example="10")
#: seconds: finite and more than zero
SECONDS = Number(False, 0, open_=True, example="60")
#: a random seed
SEED = Number(True, 0, most=2 ** 63 - 1, example="0")


class Size(click.ParamType):
    """A memory size: 2G, 500M, 1.5G, 800000K or bytes."""

    name = "size"

    def convert(self, value, param, ctx):
        try:
            return parse_size(value)
        except ValueError as e:
            self.fail(f"{e} (e.g. 2G or 500M)", param, ctx)


SIZE = Size()


def force_option(f):
    return click.option("--force", is_flag=True, default=False,
                        help="Replace files (and a folder written as a whole) that already "
                             "exist; without it an existing file is never overwritten.")(f)


def memory_option(f):
    return click.option("--max-memory", "max_memory", type=SIZE, default=None, metavar="SIZE",
                        help="Stop the search (verdicts UNKNOWN) when the program uses this "
                             "much memory, e.g. 2G or 500M (default: 80% of the memory "
                             "available when it starts).")(f)


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


def collected(name: str, make: Callable[..., object]):
    """Gather a command's option parameters into one value passed as ``name``:
    ``make(**options)`` (an options dataclass, whose fields name the options it
    takes), so the command takes one value, not a parameter per flag.  Put it
    right above the command's function (below its options)."""
    def decorate(f):
        params = [p for p in inspect.signature(make).parameters]

        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            taken = {k: kwargs.pop(k) for k in params if k in kwargs}
            return f(*args, **{name: make(**taken)}, **kwargs)
        return wrapper
    return decorate


def load(variant: str, flags: Mapping | None = None) -> Variant:
    """The variant named or at a path, with the command line's config flags on top."""
    return load_with(variant, overrides(flags))


def load_with(variant: str, table: Mapping) -> Variant:
    """``load_variant`` with an error about a flag's value phrased as a flag."""
    try:
        return load_variant(variant, table)
    except ConfigError as e:
        raise InputError(e.message, e.where, e.hint_saying(said_as_flag)) from None


def said_as_flag(s: Setting) -> str:
    """A setting a hint suggests, as the command line sets it (``--hand 3``), if a
    flag sets it (else as a variant file does)."""
    return s.flag() if s.key in CONFIG_FLAGS else s.toml()


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


__all__ = ["Command", "Group", "COUNT", "WORKERS", "ray_cluster", "NATURAL", "SECONDS", "SEED",
           "SIZE", "Number",
           "force_option", "memory_option", "config_options", "config_option_objects",
           "pop_config_flags", "variant_argument", "load",
           "emit_json", "table", "report_input_error", "VARIANT_HELP",
           "EXIT_OK", "EXIT_VIOLATED", "EXIT_USAGE", "EXIT_UNKNOWN", "CONFIG_FLAGS"]
