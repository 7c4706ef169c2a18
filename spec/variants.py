"""Variants as data: which reading of each choice point, at which table.

The rulebook leaves many questions open (``choices.CHOICE_POINTS``).  A variant
answers some of them and names a table (``config.Config``).  Variants are TOML
files, not Python, so that anyone can write one, and so that loading one can
never run code: ``tomllib`` parses, this module validates, nothing is evaluated.

A variant file::

    description = "one line"
    extends = "official"          # optional: a shipped name or a relative .toml path
    [readings]
    "justice.duty" = "stacking"   # choice point = reading
    [config]
    players = 4
    ranks = "2..10"               # or [2, 10]
    options = "all"               # "none", ["mercy", "justice=2"], {mercy = 1}

``extends`` merges: the child's readings and config keys override the parent's.
Choice points no file names take their literal reading.  Every mistake is a
``VariantError`` naming "file:line", what was expected, and the nearest valid
name.  ``tomllib`` reports no positions for valid TOML, so lines are found by
scanning the raw text for section headers and ``key =`` lines.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from .choices import CHOICE_POINTS, default_readings
from .config import (
    DEFAULT_OPTION_COPIES,
    MAX_RANK,
    MIN_RANK,
    OPTION_VALUES,
    Config,
    full_deck_options,
)
from .errors import (
    ConfigError,
    InputError,
    Setting,
    VariantError,
    did_you_mean,
    nearest,
    valid_names,
)
from .tomlpos import index_lines as _index_lines
from .tomlpos import load_toml, read_input

TOP_KEYS = ("description", "extends", "readings", "config")
CONFIG_KEYS = tuple(f.name for f in dataclasses.fields(Config))
#: Config keys that decide whether the hands fit in the deck.
_FIT_KEYS = ("hand", "players", "suits", "ranks", "options", "charity", "desolation")
#: a config key's example value, for the hints
EXAMPLE_SETTINGS = {key: Setting(key, value) for key, value in (
    ("players", 4), ("suits", 6), ("ranks", "2..10"), ("hand", 6), ("options", "all"),
    ("charity", True), ("desolation", True), ("rounds", 0), ("threshold", 100))}
_EXAMPLES = {
    "description": '"one line"', "extends": '"official"',
    "readings": '[readings] "justice.duty" = "stacking"',
    "config": "[config] players = 4",
    **{key: s.toml_value() for key, s in EXAMPLE_SETTINGS.items()},
}

#: The whole deck of the real game; the rest of the table stays as the variant says.
FULL_DECK_OVERRIDES: dict = {"suits": 6, "ranks": (MIN_RANK, MAX_RANK),
                             "options": full_deck_options()}

#: The table ``itcp-check`` checks by default: small enough to exhaust in well
#: under a minute, large enough to show the official text's contradictions
#: (a passer's hand changed by Pride Cycle; a turn with no legal discard).
DEFAULT_TABLE: dict[str, Any] = {"players": 2, "suits": 2, "ranks": (2, 2), "hand": 1,
                 "options": (("unbelief", 1), ("pride_cycle", 1))}


class FrozenMap(Mapping):
    """A read-only, hashable mapping, so that a Variant can be a cache key."""

    def __init__(self, items):
        self._d = dict(items)

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self) -> Iterator:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        return hash(frozenset(self._d.items()))

    def __eq__(self, other) -> bool:
        return isinstance(other, Mapping) and dict(self) == dict(other)

    def __repr__(self) -> str:
        return f"{{{', '.join(f'{k!r}: {v!r}' for k, v in self._d.items())}}}"


@dataclass(frozen=True)
class Variant:
    name: str
    path: str
    description: str
    #: every choice point -> its reading here (complete)
    readings: Mapping[str, str]
    config: Config
    extends: str | None
    #: the readings set by this file or its ancestors (not defaults)
    explicit: Mapping[str, str]


# -- command-line syntax ----------------------------------------------------

def _option_name(text: str) -> str:
    """"Pride Cycle", "pride-cycle", "PRIDE_CYCLE" -> "pride_cycle"."""
    key = "_".join(str(text).replace("-", " ").replace("_", " ").split()).lower()
    if key not in OPTION_VALUES:
        raise InputError(f"unknown option card {str(text)!r}; "
                         + valid_names(OPTION_VALUES),
                         hint=_nearest_hint(key, OPTION_VALUES))
    return key


def _copies(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 8:
        raise InputError(f"copies of {name} must be a whole number 1..8, got {_show(value)}",
                         hint=f"e.g. {name}=2")
    return value


def _ordered(chosen: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple((n, chosen[n]) for n in OPTION_VALUES if n in chosen)


def parse_options(text: str) -> tuple[tuple[str, int], ...]:
    """ "all" | "none" | "mercy,justice=2,pride cycle": the option cards and copies.

    Items apply in order, so "all,justice=2" is every card, with two Justices.
    """
    chosen: dict[str, int] = {}
    named: set[str] = set()
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        if item.lower() == "all":
            chosen.update(full_deck_options(DEFAULT_OPTION_COPIES))
            continue
        if item.lower() == "none":
            chosen.clear()
            continue
        name, eq, copies = item.partition("=")
        name = _option_name(name)
        if name in named:
            raise InputError(f"option card {name!r} listed twice in {text!r}",
                             hint="name each option card once, e.g. mercy,justice=2")
        named.add(name)
        if eq:
            n: int | str
            try:
                n = int(copies.strip())
            except ValueError:
                n = copies.strip()
            chosen[name] = _copies(name, n)
        else:
            chosen[name] = DEFAULT_OPTION_COPIES
    return _ordered(chosen)


def parse_ranks(text: str) -> tuple[int, int]:
    """ "LO..HI" (or "N" for N..N) -> (LO, HI)."""
    expected = f"ranks are LO..HI within {MIN_RANK}..{MAX_RANK}, e.g. \"2..10\""
    m = re.fullmatch(r"\s*(\d{1,4})\s*(?:\.\.\s*(\d{1,4})\s*)?", str(text))
    if not m:
        raise InputError(f"cannot read ranks {str(text)!r}", hint=expected)
    lo = int(m[1])
    hi = int(m[2]) if m[2] is not None else lo
    if not MIN_RANK <= lo <= hi <= MAX_RANK:
        raise InputError(f"ranks {lo}..{hi} are out of range", hint=expected)
    return lo, hi


# -- config values: TOML or already parsed (overrides) --------------------------

def _show(value) -> str:
    """A value as it would look in the TOML file."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _type_error(key: str, expected: str, value) -> InputError:
    return InputError(f"{key} must be {expected}, got {_show(value)}",
                      hint=f"e.g. {key} = {_EXAMPLES[key]}")


def _convert(key: str, value):
    """One config value, checked and in Config's types.  Raises InputError."""
    if key in ("charity", "desolation"):
        if not isinstance(value, bool):
            raise _type_error(key, "true or false", value)
        return value
    if key == "ranks":
        if isinstance(value, str):
            return parse_ranks(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return parse_ranks(str(value))
        if (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            return parse_ranks(f"{value[0]}..{value[1]}")
        raise _type_error(key, '"LO..HI" or [LO, HI]', value)
    if key == "options":
        if isinstance(value, str):
            return parse_options(value)
        pairs: Sequence
        if isinstance(value, Mapping):
            pairs = list(value.items())
        elif isinstance(value, (list, tuple)):
            if all(isinstance(v, str) for v in value):
                return parse_options(",".join(value))
            pairs = value
        else:
            raise _type_error(key, '"all", "none", a list or a table', value)
        chosen: dict[str, int] = {}
        for pair in pairs:
            if not (isinstance(pair, (list, tuple)) and len(pair) == 2):
                raise _type_error(key, '"all", "none", a list or a table', value)
            name = _option_name(pair[0])
            if name in chosen:
                raise InputError(f"option card {name!r} listed twice",
                                 hint="name each option card once")
            chosen[name] = _copies(name, pair[1])
        return _ordered(chosen)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _type_error(key, "a whole number", value)
    return value


# -- finding lines in the raw text ----------------------------------------------

def _nearest_hint(name, valid) -> str | None:
    best = nearest(name, valid)
    return f"did you mean {best!r}?" if best else None


# -- one file -----------------------------------------------------------------

@dataclass
class _Layer:
    """One variant file, checked, before merging with its ancestors."""

    label: str  # a shipped name, or the path as given
    path: str
    lines: dict[str, int]
    description: str = ""
    extends: str | None = None
    readings: dict[str, str] = dataclasses.field(default_factory=dict)
    config: dict = dataclasses.field(default_factory=dict)

    def where(self, *parts: str) -> str:
        """ "path:line" of the deepest of ``parts`` the text names."""
        key = ".".join(parts)
        while key:
            if key in self.lines:
                return f"{self.path}:{self.lines[key]}"
            key = key.rpartition(".")[0]
        return self.path

    def error(self, message: str, *parts: str, hint: str | None = None) -> VariantError:
        return VariantError(message, self.where(*parts), hint)


def _shipped_dir():
    return files("itcp.spec") / "variants"


def list_variants() -> list[str]:
    """The shipped variants, official first."""
    names = sorted(p.name[:-5] for p in _shipped_dir().iterdir()
                   if p.name.endswith(".toml"))
    return sorted(names, key=lambda n: n != "official")


def _flatten(table: Mapping, prefix: str = "") -> Iterator[tuple[str, object]]:
    """Unquoted dotted keys (justice.duty = ...) parse as nested tables."""
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _parse(label: str, path: str, text: str) -> _Layer:
    layer = _Layer(label, path, _index_lines(text))
    data = load_toml(text, path, VariantError,
                     'a variant file is TOML: key = value, strings in "quotes", '
                     "tables as [readings] and [config]")
    if not data:
        raise VariantError("the variant file is empty (no keys): an empty file is not a "
                           "variant", path,
                           'give it at least a description, e.g. description = "mine" and '
                           'extends = "official"')

    for key, value in data.items():
        if key not in TOP_KEYS:
            raise layer.error(f"unknown key {key!r}; " + valid_names(TOP_KEYS),
                              key, hint=_nearest_hint(key, TOP_KEYS))
        want = str if key in ("description", "extends") else Mapping
        if not isinstance(value, want):
            kind = "a string" if want is str else "a table"
            raise layer.error(f"{key} must be {kind}, got {_show(value)}", key,
                              hint=f"e.g. {_EXAMPLES[key]}")
    layer.description = data.get("description", "")
    layer.extends = data.get("extends")

    for point, reading in _flatten(data.get("readings", {})):
        if point not in CHOICE_POINTS:
            raise layer.error(f"unknown choice point {point!r}; "
                              + valid_names(CHOICE_POINTS),
                              "readings", point, hint=_nearest_hint(point, CHOICE_POINTS))
        valid = CHOICE_POINTS[point].reading_ids
        if not isinstance(reading, str) or reading not in valid:
            best = nearest(str(reading), valid)
            shown = repr(reading) if isinstance(reading, str) else _show(reading)
            raise layer.error(
                f"reading {shown} is not a reading of {point}; "
                + valid_names(valid),
                "readings", point,
                hint=f'"{point}" = "{best}"' if best else f"choose one of: {', '.join(valid)}")
        layer.readings[point] = reading

    for key, value in data.get("config", {}).items():
        if key not in CONFIG_KEYS:
            raise layer.error(f"unknown config key {key!r}; " + valid_names(CONFIG_KEYS),
                              "config", key, hint=_nearest_hint(key, CONFIG_KEYS))
        try:
            layer.config[key] = _convert(key, value)
        except InputError as e:
            raise layer.error(e.message, "config", key, hint=e.hint) from None
    return layer


def _read(label: str, location, missing: VariantError, origin: _Layer | None = None) -> _Layer:
    """The layer at ``location``; a file that cannot be read is blamed on the
    ``extends`` line of ``origin`` that named it, when there is one."""
    try:
        text = read_input(location, "variant file", VariantError, missing)
    except VariantError as e:
        if origin is None or e is missing:
            raise
        raise origin.error(f"extends: {e.message}", "extends", hint=e.hint) from None
    return _parse(label, str(location), text)


def _missing_file(path: str) -> VariantError:
    stem = Path(path).name.removesuffix(".toml")
    return VariantError(f"no variant file {path!r}", path,
                        f"shipped variants: {did_you_mean(stem, list_variants())}")


def _locate(ref: str, base):
    """A shipped name or a path -> (label, location, identity, base dir)."""
    if "\0" in ref or not ref.strip():
        raise VariantError(f"{ref!r} is not a variant name or path",
                           hint=f"shipped variants: {', '.join(list_variants())}; or the path "
                                "of a .toml file")
    if (not ref.endswith(".toml") and "/" not in ref and "\\" not in ref
            and not (base is None and ref not in list_variants() and os.path.exists(ref))):
        if ref not in list_variants():
            raise VariantError(f"no variant named {ref!r}; " + valid_names(list_variants()),
                               hint=_nearest_hint(ref, list_variants())
                               or "or give the path of a .toml file")
        loc = _shipped_dir() / f"{ref}.toml"
        return ref, loc, f"shipped:{ref}", _shipped_dir()
    path = Path(ref)
    if base is not None and not path.is_absolute():
        loc = base / ref
    else:
        loc = path
    identity = str(Path(loc).resolve()) if isinstance(loc, Path) else str(loc)
    return ref, loc, identity, (loc.parent if isinstance(loc, Path) else base)


#: the longest chain of ``extends``
MAX_EXTENDS = 32


def _load_chain(label: str, loc, identity: str, base, missing: VariantError,
                seen: tuple[tuple[str, str], ...] = (), origin: _Layer | None = None
                ) -> list[_Layer]:
    """The file at ``loc`` and its ancestors, root first."""
    layer = _read(label, loc, missing, origin)
    if layer.extends is None:
        return [layer]
    if len(seen) >= MAX_EXTENDS:
        raise layer.error(f"extends: the chain of variants is longer than {MAX_EXTENDS}",
                          "extends", hint="extend a shipped variant or a shorter chain")
    try:
        p_label, p_loc, p_id, p_base = _locate(layer.extends, base)
    except VariantError as e:
        raise layer.error(f"extends: {e.message}", "extends", hint=e.hint) from None
    chain = seen + ((identity, label),)
    if any(p_id == i for i, _ in chain):
        names = " -> ".join([lab for _, lab in chain] + [p_label])
        raise layer.error(f"extends makes a cycle: {names}", "extends",
                          hint="a variant cannot extend itself or a variant that extends it")
    missing = layer.error(f"extends: no variant file {str(p_loc)!r}", "extends",
                          hint=f"shipped variants: {', '.join(list_variants())}; "
                               "a .toml path is relative to this file")
    return _load_chain(p_label, p_loc, p_id, p_base, missing, chain, layer) + [layer]


# -- the whole variant ------------------------------------------------------------

def _fit_hint(settings: Mapping) -> tuple[str, Setting | None] | None:
    """How big a hand this deck can deal, if it is the hand that does not fit:
    the hint's words (``{}`` where the setting suggested goes) and that setting."""
    get = lambda key: settings.get(key, getattr(Config, key))  # noqa: E731
    lo, hi = get("ranks")
    cards = (get("suits") * (hi - lo + 1 + get("charity") + get("desolation"))
             + sum(copies for _, copies in get("options")))
    players, most = get("players"), (cards - 1) // max(get("players"), 1)
    if get("hand") <= most:
        return None
    if most < 1:
        return (f"this deck has {cards} cards: too few for {players} players; "
                "use fewer players or a bigger deck (suits, ranks, options)"), None
    return (f"this deck has {cards} cards: at most {{}} for "
            f"{players} players (or use fewer players or a bigger deck)"), Setting("hand", most)


def _config_hint(e: ConfigError, settings: Mapping) -> tuple[str, Setting | None]:
    """The hint for a table that cannot be dealt: how big a hand fits, or an
    example of the setting at fault (``{}`` where the setting goes)."""
    key = e.key or "options"
    fit = _fit_hint(settings) if key == "hand" else None
    return fit or ("e.g. {}", EXAMPLE_SETTINGS[key])


def load_variant(name_or_path: str, overrides: Mapping[str, object] | None = None) -> Variant:
    """A shipped variant by name, or a variant file by path; ``overrides`` last."""
    ref = str(name_or_path)
    label, loc, identity, base = _locate(ref, None)
    layers = _load_chain(label, loc, identity, base, _missing_file(str(loc)))
    leaf = layers[-1]

    explicit: dict[str, str] = {}
    settings: dict = {}
    set_by: dict[str, _Layer] = {}
    for layer in layers:
        explicit.update(layer.readings)
        settings.update(layer.config)
        set_by.update(dict.fromkeys(layer.config, layer))

    # the files' own table is validated whole first, whatever the command puts
    # on top of it (a check's default table must not hide a bad [config])
    try:
        config = Config(**settings)
    except ConfigError as e:
        key = e.key or "options"
        words, setting = _config_hint(e, settings)
        if key == "hand":  # blame the last file to change the deck or the hands
            layer = next((lay for lay in reversed(layers)
                          if set(lay.config) & set(_FIT_KEYS)), leaf)
        else:
            layer = set_by.get(key, leaf)
        parts = ("config", key) if key in layer.config else ("config",)
        hint = words.format(setting.toml()) if setting is not None else words
        raise layer.error(e.message, *parts, hint=hint) from None

    overrides = dict(overrides or {})
    for key, value in overrides.items():
        if key not in CONFIG_KEYS:
            raise InputError(f"unknown config key {key!r}; " + valid_names(CONFIG_KEYS),
                             hint=_nearest_hint(key, CONFIG_KEYS))
        settings[key] = _convert(key, value)

    if overrides:
        try:
            config = Config(**settings)
        except ConfigError as e:
            words, setting = _config_hint(e, settings)
            given = ", ".join(f"{k}={_show(overrides[k])}" for k in overrides)
            raise ConfigError(f"{e.message} (variant {label} with {given})", hint=words,
                              key=e.key, problem=e.message, suggested=setting) from None

    readings = default_readings()
    readings.update(explicit)
    return Variant(
        name=Path(ref).stem,
        path=leaf.path, description=leaf.description,
        readings=FrozenMap(readings), config=config, extends=leaf.extends,
        explicit=FrozenMap(sorted(explicit.items())))


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


__all__ = ["Variant", "list_variants", "load_variant", "parse_options", "parse_ranks",
           "FULL_DECK_OVERRIDES", "CONFIG_KEYS", "DEFAULT_TABLE", "overrides"]
