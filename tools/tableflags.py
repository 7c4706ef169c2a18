"""The table flags for the argparse tools outside ``itcp-check`` (the
benchmarks, the curation tool): ``--players``, ``--suits`` and ``--hand`` as
numbers, ``--ranks`` and ``--options`` as the text ``overrides`` reads.

Why not in the package: only tools parse their flags with argparse;
``itcp-check`` has its own (click) flags, read by the same
``itcp.spec.variants.overrides``.
"""
from __future__ import annotations

#: the table's flags as the commands and tools name them (``overrides`` reads them)
TABLE_FLAGS = ("players", "suits", "hand", "ranks", "options")


def add_table_arguments(parser) -> None:
    """The table flags on an ``argparse`` parser; ``table_flags`` gives them back."""
    for flag in TABLE_FLAGS:
        parser.add_argument(f"--{flag}", type=int if flag in ("players", "suits", "hand") else str)


def table_flags(args) -> dict:
    """The table flags of parsed ``argparse`` arguments, as ``overrides`` takes them."""
    return {flag: getattr(args, flag) for flag in TABLE_FLAGS}
