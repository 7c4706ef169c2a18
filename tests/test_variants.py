"""Variants load as data, merge through ``extends``, and fail with file:line + a hint."""
from __future__ import annotations

import textwrap

import pytest

from itcp.spec.choices import CHOICE_POINTS, default_readings
from itcp.spec.config import Config, full_deck_options
from itcp.spec.errors import ConfigError, InputError, VariantError
from itcp.spec.variants import (
    FULL_DECK_OVERRIDES,
    Variant,
    list_variants,
    load_variant,
    parse_options,
    parse_ranks,
)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def load_error(path, **overrides) -> VariantError:
    with pytest.raises(VariantError) as info:
        load_variant(str(path), overrides or None)
    return info.value


# -- shipped variants ---------------------------------------------------------

def test_list_variants_official_first():
    names = list_variants()
    assert names[0] == "official"
    assert {"official", "published", "clarified"} <= set(names)
    assert names[1:] == sorted(names[1:])


def test_official_is_literal_at_the_real_table():
    v = load_variant("official")
    assert isinstance(v, Variant) and v.name == "official" and v.extends is None
    assert dict(v.readings) == default_readings()
    assert dict(v.explicit) == {}
    assert "literal" in v.description
    assert v.path.endswith("official.toml")
    assert v.config == Config(players=4, suits=6, ranks=(2, 10), hand=6,
                              options=full_deck_options())


def test_published_extends_official():
    v = load_variant("published")
    assert v.extends == "official"
    assert dict(v.explicit) == {"justice.duty": "stacking",
                                "desolation.target": "or_mercy", "secret.two": "no_effect"}
    assert v.readings["justice.duty"] == "stacking"
    assert v.readings["game.end"] == CHOICE_POINTS["game.end"].literal
    assert v.config == load_variant("official").config


def test_clarified_names_valid_readings():
    v = load_variant("clarified")
    assert len(v.explicit) == 18
    assert set(v.readings) == set(CHOICE_POINTS)
    for point, reading in v.readings.items():
        assert reading in CHOICE_POINTS[point].reading_ids
    assert v.readings["justice.duty"] == "extra_lapses"
    assert v.readings["discard.none"] == "any_untaken"
    assert v.readings["repentance.pass"] == "no_effect"


def test_variant_is_hashable_and_read_only():
    v = load_variant("published")
    assert hash(v) == hash(load_variant("published"))
    with pytest.raises(TypeError):
        v.readings["justice.duty"] = "until"


def test_overrides_apply_last():
    v = load_variant("official", {"players": 3, "suits": 2, "ranks": (2, 5),
                                  "hand": 3, "options": (("mercy", 2),)})
    assert v.config == Config(players=3, suits=2, ranks=(2, 5), hand=3,
                              options=(("mercy", 2),))
    # CLI strings are accepted too
    assert load_variant("official", {"ranks": "2..9", "options": "none"}).config.ranks == (2, 9)
    assert load_variant("official", FULL_DECK_OVERRIDES).config == load_variant("official").config


def test_overrides_that_do_not_fit_are_a_clean_input_error():
    with pytest.raises(ConfigError) as info:
        load_variant("official", {"suits": 1, "ranks": (2, 3), "options": "none"})
    assert isinstance(info.value, InputError)
    assert "too few for 4 players" in info.value.hint
    with pytest.raises(ConfigError) as info:
        load_variant("official", {"suits": 1})
    assert "at most hand = 4" in info.value.hint and "suits=1" in info.value.message
    with pytest.raises(InputError) as info:
        load_variant("official", {"playres": 3})
    assert "players" in info.value.hint
    with pytest.raises(InputError):
        load_variant("official", {"players": "four"})


# -- extends --------------------------------------------------------------------

def test_extends_merges_readings_and_config(tmp_path):
    write(tmp_path, "base.toml", """
        description = "base"
        [readings]
        "justice.duty" = "until"
        "deck.exhausted" = "reshuffle"
        [config]
        players = 3
        suits = 2
        ranks = [2, 6]
        hand = 4
        options = {mercy = 1, justice = 2}
    """)
    child = write(tmp_path, "child.toml", """
        description = "child"
        extends = "base.toml"
        [readings]
        justice.duty = "stacking"
        [config]
        players = 2
        options = ["mercy", "Pride Cycle=2"]
    """)
    v = load_variant(str(child))
    assert v.name == "child" and v.description == "child" and v.extends == "base.toml"
    assert dict(v.explicit) == {"justice.duty": "stacking", "deck.exhausted": "reshuffle"}
    assert v.config == Config(players=2, suits=2, ranks=(2, 6), hand=4,
                              options=(("mercy", 1), ("pride_cycle", 2)))


def test_extends_a_shipped_variant(tmp_path):
    path = write(tmp_path, "mine.toml", """
        extends = "published"
        [readings]
        "secret.two" = "applies"
        [config]
        players = 5
    """)
    v = load_variant(str(path))
    assert v.readings["secret.two"] == "applies"
    assert v.readings["justice.duty"] == "stacking"
    assert v.config.players == 5 and v.config.suits == 6


def test_extends_cycle_names_the_chain(tmp_path):
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'description = "b"\nextends = "a.toml"\n')
    e = load_error(tmp_path / "a.toml")
    assert "cycle" in e.message and "a.toml -> b.toml -> a.toml" in e.message
    assert e.where == f"{tmp_path / 'b.toml'}:2"


def test_extends_itself(tmp_path):
    path = write(tmp_path, "self.toml", 'extends = "self.toml"\n')
    assert "cycle" in load_error(path).message


def test_unknown_extends_target(tmp_path):
    path = write(tmp_path, "v.toml", 'description = "x"\nextends = "oficial"\n')
    e = load_error(path)
    assert e.where == f"{path}:2"
    assert "official" in e.hint
    path = write(tmp_path, "w.toml", 'extends = "nowhere.toml"\n')
    e = load_error(path)
    assert e.where == f"{path}:1" and "nowhere.toml" in e.message


# -- errors name file:line and the nearest name -------------------------------------

@pytest.mark.parametrize("text, line, message, hint", [
    ('descripton = "x"\n', 1, "unknown key 'descripton'", "description"),
    ('[readings]\n"justice.duty" = "stacking"\n[confg]\nplayers = 3\n', 3,
     "unknown key 'confg'", "config"),
    ('[config]\nplayers = 3\nhnad = 2\n', 3, "unknown config key 'hnad'", "hand"),
    ('[readings]\n\n"justice.dutty" = "stacking"\n', 3,
     "unknown choice point 'justice.dutty'", "justice.duty"),
    ('[readings]\n"justice.duty" = "stackng"\n', 2,
     "reading 'stackng' is not a reading of justice.duty; "
     "valid: extra_lapses, no_force, play_or_extra, stacking, take_or_play, until", "stacking"),
    ('[readings]\njustice.duty = "stackng"\n', 2, "not a reading of justice.duty", "stacking"),
    ('[readings]\n"justice.duty" = 2\n', 2, "reading 2 is not a reading", None),
    ('[config]\nsuits = 2\nplayers = "four"\n', 3, 'players must be a whole number, got "four"',
     "players = 4"),
    ('[config]\ncharity = "yes"\n', 2, "charity must be true or false", "true"),
    ('[config]\nranks = "2-10"\n', 2, "cannot read ranks", "2..10"),
    ('[config]\noptions = ["mercy", "justise"]\n', 2, "unknown option card 'justise'", "justice"),
    ('[config]\noptions = {mercy = 9}\n', 2, "copies of mercy must be", None),
    ('readings = "stacking"\n', 1, "readings must be a table", None),
    ('[config]\nplayers = 4\nsuits = 6\nranks = "2..10"\nhand = 6\nplayers2 = 1\n', 6,
     "unknown config key", "players"),
])
def test_file_errors(tmp_path, text, line, message, hint):
    path = write(tmp_path, "bad.toml", text)
    e = load_error(path)
    assert e.where == f"{path}:{line}", e.render()
    assert message in e.message, e.render()
    if hint:
        assert hint in e.hint, e.render()


def test_out_of_range_config_points_at_the_key(tmp_path):
    path = write(tmp_path, "bad.toml", '[config]\nsuits = 2\nplayers = 9\n')
    e = load_error(path)
    assert e.where == f"{path}:3" and "players must be 2..8" in e.message


def test_hand_that_does_not_fit_points_at_the_hand(tmp_path):
    path = write(tmp_path, "bad.toml", """
        extends = "official"
        [config]
        suits = 1
        hand = 5
        options = "none"
    """)
    e = load_error(path)
    assert e.where == f"{path}:4" and "deck has 11" in e.message
    assert "at most hand = 2" in e.hint


def test_toml_syntax_error_uses_tomllib_line(tmp_path):
    path = write(tmp_path, "bad.toml", '[config]\nplayers = 4\nsuits = \n')
    e = load_error(path)
    assert e.where == f"{path}:3" and "not valid TOML" in e.message and "(at" not in e.message


def test_missing_file_suggests_shipped_name(tmp_path):
    e = load_error(tmp_path / "publshed.toml")
    assert "publshed.toml" in e.message and "published" in e.hint
    with pytest.raises(VariantError) as info:
        load_variant("clarifed")
    assert "clarified" in info.value.hint


def test_loading_never_executes_code(tmp_path):
    payload = "__import__('os').system('touch PWNED')"
    for text in (f'[config]\nplayers = "{payload}"\n',
                 f'[config]\noptions = "{payload}"\n',
                 f'[readings]\n"justice.duty" = "{payload}"\n',
                 f'extends = "{payload}"\n'):
        path = write(tmp_path, "evil.toml", text)
        with pytest.raises(VariantError):
            load_variant(str(path))
    assert not (tmp_path / "PWNED").exists()


# -- command-line syntax ----------------------------------------------------------

def test_parse_options():
    assert parse_options("all") == full_deck_options()
    assert parse_options("none") == parse_options("") == ()
    assert parse_options("justice=2, Mercy") == (("mercy", 1), ("justice", 2))
    assert parse_options("Pride Cycle") == parse_options("pride-cycle") == (("pride_cycle", 1),)
    assert dict(parse_options("all,secret_combination=3"))["secret_combination"] == 3


@pytest.mark.parametrize("text, hint", [
    ("mercy,justise", "justice"),
    ("pride", "pride_cycle"),
    ("mercy=two", "mercy=2"),
    ("mercy=0", "mercy=2"),
    ("mercy,mercy=2", "once"),
])
def test_parse_options_bad(text, hint):
    with pytest.raises(InputError) as info:
        parse_options(text)
    assert hint in info.value.hint


def test_parse_ranks():
    assert parse_ranks("2..10") == (2, 10)
    assert parse_ranks(" 3 .. 5 ") == (3, 5)
    assert parse_ranks("7") == (7, 7)


@pytest.mark.parametrize("text", ["2-10", "a..b", "5..3", "1..4", "2..11", "", "2..", "..5"])
def test_parse_ranks_bad(text):
    with pytest.raises(InputError) as info:
        parse_ranks(text)
    assert "LO..HI" in info.value.hint
