"""A command takes its flags as one value (an options dataclass, ``collected``),
not a parameter per flag: every option of check, sweep and ask is a field of
its flags, and nothing else is."""
from __future__ import annotations

from dataclasses import dataclass, fields

import click
import pytest
from click.testing import CliRunner

from itcp.cli.ask_cmd import AskFlags, ask_cmd
from itcp.cli.check_cmd import CheckFlags, check
from itcp.cli.common import CONFIG_FLAGS, collected
from itcp.cli.sweep_cmd import SweepFlags, sweep


@dataclass(frozen=True)
class Pair:
    a: int
    b: str


def test_collected_gathers_the_options_into_one_value():
    seen = []

    @click.command()
    @click.argument("name")
    @click.option("--a", type=int, default=1)
    @click.option("--b", default="x")
    @collected("flags", Pair)
    def cmd(name, flags):
        seen.append((name, flags))

    r = CliRunner().invoke(cmd, ["n", "--a", "2"])
    assert r.exit_code == 0, r.output
    assert seen == [("n", Pair(2, "x"))]


@pytest.mark.parametrize("command, flags, others", [
    (check, CheckFlags, {"variant", *CONFIG_FLAGS, "option_cards"}),
    (sweep, SweepFlags, {"variant"}),
    (ask_cmd, AskFlags, {"question", "variant", *CONFIG_FLAGS, "option_cards"}),
])
def test_every_option_is_a_field_of_the_flags(command, flags, others):
    options = {p.name for p in command.params} - others
    assert options == {f.name for f in fields(flags)}
