"""The tables a variant is checked at besides its own: the default table of a
check, and a table given as the command line's config flags.

Why in spec/: which table ``itcp-check`` checks by default is a fact about the
game (the smallest table that shows the official text's contradictions), read
by the commands, the tests and the benchmarks alike; and the flags are read the
same way by every command and tool that takes them (``itcp-check``, the
curation tool ``python -m itcp.scenarios.contrast``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import InputError
from .variants import FULL_DECK_OVERRIDES, parse_options, parse_ranks

#: The table ``itcp-check`` checks by default: small enough to exhaust in well
#: under a minute, large enough to show the official text's contradictions
#: (a passer's hand changed by Pride Cycle; a turn with no legal discard).
DEFAULT_TABLE: dict[str, Any] = {"players": 2, "suits": 2, "ranks": (2, 2), "hand": 1,
                 "options": (("unbelief", 1), ("pride_cycle", 1))}


#: the table's flags as the commands and tools name them (``overrides`` reads them)
TABLE_FLAGS = ("players", "suits", "hand", "ranks", "options")


def add_table_arguments(parser) -> None:
    """The table flags on an ``argparse`` parser, for the tools outside
    ``itcp-check`` (the benchmarks, the curation tool): ``--players``,
    ``--suits`` and ``--hand`` as numbers, ``--ranks`` and ``--options`` as the
    text ``overrides`` reads; ``table_flags`` gives them back."""
    for flag in TABLE_FLAGS:
        parser.add_argument(f"--{flag}", type=int if flag in ("players", "suits", "hand") else str)


def table_flags(args) -> dict:
    """The table flags of parsed ``argparse`` arguments, as ``overrides`` takes them."""
    return {flag: getattr(args, flag) for flag in TABLE_FLAGS}


def overrides(flags: Mapping | None) -> dict:
    """Config flags (``players``, ``suits``, ``hand``, ``ranks`` and ``options``
    as text, ``full_deck``) -> ``load_variant`` overrides.  Raises InputError on
    bad text, naming the flag."""
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


__all__ = ["DEFAULT_TABLE", "TABLE_FLAGS", "add_table_arguments", "overrides", "table_flags"]
