"""A table that cannot be dealt is a ``ConfigError`` with fields, not text to
parse: the setting at fault, the problem without its context, and the setting
its hint suggests, which a variant file says as ``hand = 3`` and the command
line as ``--hand 3``."""
from __future__ import annotations

import pytest

from itcp.cli.common import load_with, said_as_flag
from itcp.spec.config import Config
from itcp.spec.errors import ConfigError, InputError, Setting
from itcp.spec.variants import DEFAULT_TABLE, load_variant


def test_config_names_the_setting_at_fault():
    for kw, key in (({"players": 9}, "players"), ({"suits": 0}, "suits"),
                    ({"ranks": (1, 3)}, "ranks"), ({"hand": 0}, "hand"),
                    ({"options": (("bogus", 1),)}, "options"),
                    ({"hand": 9}, "hand"), ({"rounds": -1}, "rounds"),
                    ({"threshold": 0}, "threshold")):
        with pytest.raises(ConfigError) as info:
            Config(**{"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1, **kw})
        assert info.value.key == key, (kw, info.value.message)


def test_a_setting_said_two_ways():
    assert Setting("hand", 3).toml() == "hand = 3" and Setting("hand", 3).flag() == "--hand 3"
    assert Setting("ranks", "2..10").toml() == 'ranks = "2..10"'
    assert Setting("ranks", "2..10").flag() == "--ranks 2..10"
    assert Setting("charity", True).toml() == "charity = true"
    # a setting no flag sets is said as the file says it
    assert said_as_flag(Setting("rounds", 0)) == "rounds = 0"
    assert said_as_flag(Setting("options", "all")) == "--options all"


def test_the_hint_keeps_its_setting():
    with pytest.raises(ConfigError) as info:
        load_variant("official", dict(DEFAULT_TABLE, hand=5))
    e = info.value
    assert e.key == "hand" and e.suggested == Setting("hand", 3)
    assert e.hint == ("this deck has 8 cards: at most hand = 3 for 2 players (or use fewer "
                      "players or a bigger deck)")
    assert e.hint_saying(Setting.flag) == e.hint.replace("hand = 3", "--hand 3")
    # the problem, without the variant and the settings it was loaded with
    assert e.problem == "2 hands of 5 plus a face-up card need 11 cards, but the deck has 8"
    assert e.message.startswith(e.problem + " (variant official with ")


def test_the_command_line_says_the_hint_as_a_flag():
    with pytest.raises(InputError) as info:
        load_with("official", dict(DEFAULT_TABLE, players=9))
    assert info.value.hint == "e.g. --players 4"
    with pytest.raises(InputError) as info:
        load_with("official", dict(DEFAULT_TABLE, players=8, hand=2))
    assert "too few for 8 players" in info.value.hint and "--" not in info.value.hint
