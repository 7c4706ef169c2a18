"""Scenario files: one hand of "It Came to Pass", written the way players talk.

A scenario is TOML::

    title = "Pride Cycle hands the passer a card"
    question = "Can a player who said Pass still receive a card?"
    variant = "official"              # a shipped variant or a .toml path (relative to this file)
    scope = "round"                   # optional: "game" plays whole games (see below)
    [readings]                        # optional: choice points set on top of the variant
    "pride.passer" = "skipped"
    [contrast]                        # optional: other readings under which the outcome
    "pride.passer" = "gives_not_receives"   # differs (tests check that it does)
    [config]                          # the table: overrides of the variant's config
    players = 2
    suits = 2
    ranks = "2..2"
    hand = 1
    options = ["unbelief", "pride cycle"]
    [deal]                            # one hand per player; the face-up card; the deck is the rest
    hands = [["red 2"], ["blue Desolation"]]
    up = "Pride Cycle"
    [[move]]                          # one per step, in order (step 1, 2, ...)
    player = 0                        # who acts (or: chance = true, for a draw or a race)
    action = "reveal"
    [[move]]
    player = 1
    action = "discard"
    card = "blue Desolation"          # the action's argument: card, winner or keep
    [expect]                          # what must come out: any of
    property = "FROZEN"               #   a property and its verdict at the last step/state
    verdict = "violated"              #   ("violated", the default, or "holds" on every step)
    illegal_at = 3                    #   the step that must be refused ...
    rule = "discard.none.stuck"       #   ... and the rule that refuses it
    turn = 0                          #   facts about the final state: turn, actor, phase,
    phase = "OVER"                    #   ended, dir, passers, pile, top, deck (a count),
    ended = "pass reached"            #   hand.N (a set of cards), scores
    "hand.0" = ["red 2"]
    scores = [-20, 25]

With ``scope = "game"`` the scenario is a whole game: after a round ends,
``next_round`` (chance) adds the scores to the totals, and each later round
is dealt by a chance move ``action = "deal"`` with its own ``hands`` and
``up``; [expect] may also name ``round`` (rounds completed), ``totals`` and
the phase ``GAME_OVER``.

Loading checks everything (keys, types, card names, actions, players, the
deal) and reports a bad file as a ``ScenarioError`` naming "file:line", the
step (0 is the deal) and the nearest valid name: never a traceback.
``to_toml`` writes a scenario back (loading it again gives an equal one), and
``from_trace`` turns a checker's trace into a scenario.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from itcp.model.engine import runtime
from itcp.model.engine.engine import Game
from itcp.spec.choices import CHOICE_POINTS, default_readings
from itcp.spec.config import OPTION_VALUES
from itcp.spec.errors import InputError, ScenarioError, nearest, valid_names
from itcp.spec.rules.vocabulary import END_NAMES, PHASE_NAMES
from itcp.spec.tomlpos import index_lines, load_toml, read_input
from itcp.spec.variants import CONFIG_KEYS, FrozenMap, Variant, load_variant

from .watch import on_a_trace

TOP_KEYS = ("title", "question", "variant", "scope", "readings", "contrast", "config", "deal", "move",
            "expect")
DEAL_KEYS = ("hands", "up")
#: an action parameter's name in the spec -> its key in a [[move]]
PARAM_KEYS = {"c": "card", "w": "winner", "k": "keep"}
MOVE_BASE_KEYS = ("player", "chance", "action", "note")
FACT_KEYS = ("turn", "actor", "phase", "ended", "dir", "passers", "pile", "top", "deck",
             "hand", "scores")
#: facts of a whole game (scope = "game" only)
GAME_FACT_KEYS = ("round", "totals")
SCOPES = ("round", "game")
EXPECT_KEYS = ("property", "verdict", "illegal_at", "rule") + FACT_KEYS + GAME_FACT_KEYS
VERDICTS = ("violated", "holds")


@dataclass
class Move:
    step: int
    action: str
    player: int | None = None  # None: chance
    args: dict = field(default_factory=dict)  # file key ("card") -> value as written
    note: str = ""
    #: (name, args) for the engine, resolved at load
    resolved: tuple | None = field(default=None, compare=False, repr=False)

    @property
    def chance(self) -> bool:
        return self.player is None


@dataclass
class Scenario:
    title: str
    variant: str
    question: str = ""
    scope: str = "round"  # "round": one round; "game": rounds until the game is over
    readings: dict = field(default_factory=dict)
    #: readings under which the expected outcome does not come out (checked by tests)
    contrast: dict = field(default_factory=dict)
    config: dict = field(default_factory=dict)  # as written (overrides of the variant)
    hands: list = field(default_factory=list)  # one list of card names per player
    up: str = ""
    moves: list = field(default_factory=list)
    expect: dict = field(default_factory=dict)  # flat: "hand.0" -> [...]
    path: str = field(default="<scenario>", compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)
    game: Game | None = field(default=None, compare=False, repr=False)
    deal_action: tuple | None = field(default=None, compare=False, repr=False)
    variant_obj: Variant | None = field(default=None, compare=False, repr=False)

    @property
    def played(self) -> Game:
        """The game the scenario was resolved against (``resolve`` sets it)."""
        assert self.game is not None, f"{self.path}: the scenario is not resolved yet"
        return self.game

    # -- where things are ---------------------------------------------------
    def where(self, *parts) -> str:
        key = ".".join(str(p) for p in parts)
        while key:
            if key in self.lines:
                return f"{self.path}:{self.lines[key]}"
            key = key.rpartition(".")[0]
        return self.path

    def error(self, message: str, *parts, hint: str | None = None,
              step: int | None = None) -> ScenarioError:
        return ScenarioError(message, self.where(*parts), hint, step)

    def move_error(self, mv: Move, message: str, key: str | None = None,
                   hint: str | None = None) -> ScenarioError:
        parts = ("move", mv.step) + ((key,) if key else ())
        return self.error(message, *parts, hint=hint, step=mv.step)

    @property
    def actions(self) -> list[tuple]:
        return [m.resolved for m in self.moves]


# -- lines ------------------------------------------------------------------------

def _hint(name, valid) -> str | None:
    valid = list(valid)
    prefix = [v for v in valid if len(v) > 1 and (str(name).startswith(v) or v.startswith(str(name)))]
    best = max(prefix, key=len) if prefix else nearest(str(name), valid)
    return f"did you mean {best!r}?" if best else None


def _show(value) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _flatten(table: Mapping, prefix: str = ""):
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


# -- loading ------------------------------------------------------------------------

def load_scenario(path, resolved: bool = True) -> Scenario:
    """Read, check and resolve a scenario file.  Raises ScenarioError.
    ``resolved=False``: only read and check its form (no game is built; a listing)."""
    path = str(path)
    return loads(read_input(path, "scenario file", ScenarioError,
                            ScenarioError(f"no scenario file {path!r}", path)), path, resolved)


def loads(text: str, path: str = "<scenario>", resolved: bool = True) -> Scenario:
    """A scenario from TOML text (``path`` names it in messages and anchors relative variants;
    ``resolved``: its moves resolved against the variant's rules, which builds the game)."""
    lines = index_lines(text)
    data = load_toml(text, path, ScenarioError,
                     'a scenario is TOML: key = value, strings in "quotes", '
                     "moves as [[move]] tables")
    sc = Scenario(title="", variant="", path=path, lines=lines)
    for key, _value in data.items():
        if key not in TOP_KEYS:
            raise sc.error(f"unknown key {key!r}; " + valid_names(TOP_KEYS), key,
                           hint=_hint(key, TOP_KEYS))
    for key in ("title", "variant"):
        if key not in data:
            raise sc.error(f"missing {key!r}", hint=f'add {key} = "..." at the top')
    for key in ("title", "question", "variant"):
        if key in data and not isinstance(data[key], str):
            raise sc.error(f"{key} must be a string, got {_show(data[key])}", key)
    sc.title, sc.variant = data["title"], data["variant"]
    sc.question = data.get("question", "")
    if "scope" in data:
        scope = data["scope"]
        if scope not in SCOPES:
            raise sc.error(f"scope must be one of {', '.join(map(repr, SCOPES))}, got "
                           f"{_show(scope)}", "scope", hint=_hint(scope, SCOPES))
        sc.scope = scope
    for key in ("readings", "contrast", "config", "deal", "expect"):
        if key in data and not isinstance(data[key], Mapping):
            raise sc.error(f"{key} must be a table ([{key}]), got {_show(data[key])}", key)
    sc.readings = dict(_flatten(data.get("readings", {})))
    sc.contrast = dict(_flatten(data.get("contrast", {})))
    sc.config = dict(data.get("config", {}))
    if "deal" not in data:
        raise sc.error("missing [deal]", hint='[deal] hands = [["red 2"], ["blue 2"]], up = "red 3"',
                       step=0)
    deal = data["deal"]
    for key in deal:
        if key not in DEAL_KEYS:
            raise sc.error(f"unknown key {key!r} in [deal]; " + valid_names(DEAL_KEYS),
                           "deal", key, hint=_hint(key, DEAL_KEYS), step=0)
    hands = deal.get("hands")
    if not (isinstance(hands, list) and all(isinstance(h, list) and all(isinstance(c, str) for c in h)
                                            for h in hands)):
        raise sc.error(f"deal.hands must be a list of hands, each a list of card names, "
                       f"got {_show(hands)}", "deal", "hands",
                       hint='hands = [["red 2"], ["blue Desolation"]]', step=0)
    if not isinstance(deal.get("up"), str):
        raise sc.error(f"deal.up must be a card name, got {_show(deal.get('up'))}",
                       "deal", "up", hint='up = "Pride Cycle"', step=0)
    sc.hands, sc.up = [list(h) for h in hands], deal["up"]
    moves = data.get("move", [])
    if not isinstance(moves, list):
        raise sc.error("moves are written as [[move]] tables", "move")
    for i, m in enumerate(moves, 1):
        sc.moves.append(_read_move(sc, i, m))
    if "expect" not in data or not data["expect"]:
        raise sc.error("missing [expect]: say what must come out",
                       hint='[expect] property = "FROZEN" (or illegal_at = N, or turn = 0, ...)')
    sc.expect = dict(_flatten(data["expect"]))
    if resolved:
        resolve(sc)
    return sc


def _read_move(sc: Scenario, i: int, m) -> Move:
    if not isinstance(m, Mapping):
        raise sc.error("a move is a [[move]] table", "move", i, step=i)
    mv = Move(step=i, action="")
    if "action" not in m:
        typo = next((k for k in m if k not in MOVE_BASE_KEYS
                     and nearest(k, MOVE_BASE_KEYS) == "action"), None)
        if typo is not None:  # point at the misspelt key, not the table
            raise sc.move_error(mv, f"unknown key {typo!r} in this move, and no 'action'",
                                typo, hint="did you mean 'action'?")
        raise sc.move_error(mv, "missing 'action'", hint='action = "discard"')
    if not isinstance(m["action"], str):
        raise sc.move_error(mv, f"action must be a string, got {_show(m['action'])}", "action")
    mv.action = m["action"]
    has_player, chance = "player" in m, m.get("chance", False)
    if not isinstance(chance, bool):
        raise sc.move_error(mv, f"chance must be true or false, got {_show(chance)}", "chance")
    if has_player == chance:
        raise sc.move_error(mv, "say who moves: player = N, or chance = true (not both)",
                            "player" if has_player else None)
    if has_player:
        if not _is_int(m["player"]):
            raise sc.move_error(mv, f"player must be a seat number, got {_show(m['player'])}",
                                "player")
        mv.player = m["player"]
    if not isinstance(m.get("note", ""), str):
        raise sc.move_error(mv, "note must be a string", "note")
    mv.note = m.get("note", "")
    mv.args = {k: v for k, v in m.items() if k not in MOVE_BASE_KEYS}
    return mv


# -- resolving against the game -------------------------------------------------------

def build_variant(sc: Scenario) -> Variant:
    """The scenario's variant, table and readings, with errors placed in the file."""
    ref = sc.variant
    if (ref.endswith(".toml") or "/" in ref) and not Path(ref).is_absolute():
        base = Path(sc.path).parent
        # the scenario may not be in its folder yet (checked before it is
        # written): "../x.toml" from a folder still to be made, read lexically
        for cand in (base / ref, Path(os.path.normpath(base / ref))):
            if cand.exists():
                ref = str(cand)
                break
    for key in sc.config:
        if key not in CONFIG_KEYS:
            raise sc.error(f"unknown config key {key!r}; " + valid_names(CONFIG_KEYS),
                           "config", key, hint=_hint(key, CONFIG_KEYS))
    try:
        v = load_variant(ref)
    except InputError as e:
        raise sc.error(f"variant: {e.message}", "variant", hint=e.hint) from None
    try:
        v = load_variant(ref, sc.config)
    except InputError as e:
        blamed = next((k for k in sc.config if k in e.message), None)
        raise sc.error(e.message, "config", *([blamed] if blamed else []),
                       hint=e.hint) from None
    for table, given in (("readings", sc.readings), ("contrast", sc.contrast)):
        for point, reading in given.items():
            if point not in CHOICE_POINTS:
                raise sc.error(f"unknown choice point {point!r}; " + valid_names(CHOICE_POINTS),
                               table, point, hint=_hint(point, CHOICE_POINTS))
            valid = CHOICE_POINTS[point].reading_ids
            if reading not in valid:
                raise sc.error(f"{_show(reading)} is not a reading of {point}; "
                               + valid_names(valid), table, point,
                               hint=_hint(reading, valid))
    if sc.readings:
        readings = dict(v.readings)
        readings.update(sc.readings)
        explicit = dict(v.explicit)
        explicit.update(sc.readings)
        v = dataclasses.replace(v, readings=FrozenMap(readings),
                                explicit=FrozenMap(sorted(explicit.items())))
    return v


def card_index(sc: Scenario, name, *parts, step=None) -> int:
    cfg = sc.played.config
    names = [c.name for c in cfg.cards]
    if not isinstance(name, str):
        raise sc.error(f"a card is named by a string like \"red 7\", got {_show(name)}",
                       *parts, step=step)
    try:
        return cfg.card_by_name(name).index
    except InputError:
        raise sc.error(f"no card named {name!r} at this table ({cfg.describe()}); "
                       + valid_names(names), *parts, hint=_hint(name, names),
                       step=step) from None


def _player(sc: Scenario, value, *parts, step=None) -> int:
    n = sc.played.config.players
    if not _is_int(value) or not 0 <= value < n:
        raise sc.error(f"a player is a seat number 0..{n - 1}, got {_show(value)}", *parts,
                       step=step)
    return value


_GAMES: dict = {}


def _game(v: Variant, scope: str = "round") -> Game:
    """One Game per table, readings and scope (elaboration is the slow part of loading)."""
    key = (v.config, tuple(sorted(v.readings.items())), scope)
    if key not in _GAMES:
        if len(_GAMES) > 64:
            _GAMES.clear()
        _GAMES[key] = Game.from_variant(v, scope=scope)
    return _GAMES[key]


def resolve(sc: Scenario) -> None:
    """Check the scenario against its game and fill in the engine's actions."""
    v = build_variant(sc)
    sc.variant_obj = v
    sc.game = _game(v, sc.scope)
    sc.deal_action = _deal_action(sc, sc.hands, sc.up, ("deal",), 0)
    # the moves
    for mv in sc.moves:
        mv.resolved = _resolve_move(sc, mv)
    _check_expect(sc)


def _deal_action(sc: Scenario, hands, up_name, where: tuple, step: int) -> tuple:
    """A deal (hands as card names, the face-up card) as the engine's deal action."""
    cfg = sc.played.config
    if len(hands) != cfg.players:
        where_hands = "deal.hands" if step == 0 else "the deal"
        raise sc.error(f"{where_hands} has {len(hands)} hands for {cfg.players} players",
                       *where, "hands", step=step)
    seen: dict[int, str] = {}
    masks = []
    for p, hand in enumerate(hands):
        if len(hand) != cfg.hand:
            raise sc.error(f"P{p}'s hand has {len(hand)} cards; hands are dealt {cfg.hand}",
                           *where, "hands", step=step)
        mask = 0
        for name in hand:
            c = card_index(sc, name, *where, "hands", step=step)
            if c in seen:
                raise sc.error(f"{cfg.cards[c].name} is dealt twice ({seen[c]} and P{p})",
                               *where, "hands", step=step)
            seen[c] = f"P{p}"
            mask |= 1 << c
        masks.append(mask)
    up = card_index(sc, up_name, *where, "up", step=step)
    if up in seen:
        raise sc.error(f"the face-up card {cfg.cards[up].name} is also dealt to {seen[up]}",
                       *where, "up", step=step)
    return ("deal", tuple(masks) + (up,))


def _resolve_deal_move(sc: Scenario, mv: Move) -> tuple:
    """A later round's deal, in a whole-game scenario: chance deals ``hands`` and ``up``."""
    if sc.scope != "game":
        raise sc.move_error(mv, "the deal is written in [deal], not as a move", "action",
                            hint='only a whole game (scope = "game") deals again as a move')
    if not mv.chance:
        raise sc.move_error(mv, "deal is chance's move, not a player's", "player",
                            hint="write chance = true instead of player = N")
    for key in mv.args:
        if key not in DEAL_KEYS:
            raise sc.move_error(mv, f"unknown key {key!r} in a deal; " + valid_names(DEAL_KEYS),
                                key, hint=_hint(key, DEAL_KEYS))
    hands, up = mv.args.get("hands"), mv.args.get("up")
    if not (isinstance(hands, list) and all(isinstance(h, list) and all(
            isinstance(c, str) for c in h) for h in hands)):
        raise sc.move_error(mv, f"hands must be a list of hands, each a list of card names, "
                                f"got {_show(hands)}", "hands" if "hands" in mv.args else None,
                            hint='hands = [["red 2"], ["blue Desolation"]]')
    if not isinstance(up, str):
        raise sc.move_error(mv, f"up must be a card name, got {_show(up)}",
                            "up" if "up" in mv.args else None, hint='up = "red 3"')
    return _deal_action(sc, hands, up, ("move", mv.step), mv.step)


def _resolve_move(sc: Scenario, mv: Move) -> tuple:
    game = sc.played
    movable = [a for a in game.actions if a != "deal" or sc.scope == "game"]
    if mv.action == "deal":
        return _resolve_deal_move(sc, mv)
    if mv.action not in game.actions:
        hint = _hint(mv.action, movable)
        assert sc.variant_obj is not None   # resolve() set it with the game
        if sc.scope == "round" and mv.action in _game(sc.variant_obj, "game").actions:
            hint = f'{mv.action} is played between rounds: add scope = "game" at the top'
        raise sc.move_error(mv, f"unknown action {mv.action!r}; " + valid_names(movable),
                            "action", hint=hint)
    act = game.actions[mv.action]
    chance_action = act.phase.actor is None
    if chance_action and not mv.chance:
        raise sc.move_error(mv, f"{mv.action} is chance's move, not a player's", "player",
                            hint="write chance = true instead of player = N")
    if mv.chance and not chance_action:
        raise sc.move_error(mv, f"{mv.action} is a player's move, not chance's", "chance",
                            hint="write player = N instead of chance = true")
    if mv.player is not None:
        _player(sc, mv.player, "move", mv.step, "player", step=mv.step)
    keys = {PARAM_KEYS.get(p.name, p.name): p for p in act.decl.params}
    raw = {p.name: PARAM_KEYS.get(p.name, p.name) for p in act.decl.params}
    given = {}
    for key, value in mv.args.items():
        k = raw.get(key, key)  # the spec's own name (c, w, k) is accepted too
        if k not in keys:
            valid = list(keys) + list(MOVE_BASE_KEYS)
            what = (f"{mv.action} takes {', '.join(keys)}" if keys
                    else f"{mv.action} takes no argument")
            raise sc.move_error(mv, f"unknown key {key!r} in this move: {what}", key,
                                hint=_hint(key, valid))
        given[k] = value
    mv.args = given
    args = []
    for key, p in keys.items():
        if key not in given:
            example = '"red 2"' if p.type == "card" else "1"
            raise sc.move_error(mv, f"{mv.action} needs {key}", hint=f"{key} = {example}")
        value = given[key]
        if p.type == "card":
            args.append(card_index(sc, value, "move", mv.step, key, step=mv.step))
        elif p.type == "player":
            args.append(_player(sc, value, "move", mv.step, key, step=mv.step))
        else:  # pragma: no cover - no other parameter types in moves
            raise sc.move_error(mv, f"cannot write a {p.type} argument", key)
    return (mv.action, tuple(args))


def _check_expect(sc: Scenario) -> None:
    e, game = sc.expect, sc.played
    n = game.config.players
    for key in e:
        base = key.split(".")[0]
        if base not in EXPECT_KEYS or (base == "hand") != (key != base):
            raise sc.error(f"unknown key {key!r} in [expect]; " + valid_names(EXPECT_KEYS),
                           "expect", key, hint=_hint(key, EXPECT_KEYS))
    for key in GAME_FACT_KEYS:
        if key in e and sc.scope != "game":
            raise sc.error(f"{key} is a fact of a whole game", "expect", key,
                           hint='add scope = "game" at the top, or drop this key')
    if "round" in e and not (_is_int(e["round"]) and e["round"] >= 0):
        raise sc.error("round is the number of rounds completed", "expect", "round")
    if "totals" in e:
        tot = e["totals"]
        if not (isinstance(tot, list) and len(tot) == n and all(_is_int(x) for x in tot)):
            raise sc.error(f"totals must be a list of {n} whole numbers, got {_show(tot)}",
                           "expect", "totals")
    _check_expect_outcome(sc)
    _check_expect_state(sc)


def _check_expect_outcome(sc: Scenario) -> None:
    """[expect]'s property and verdict, or the illegal step and the rule refusing it."""
    e, game = sc.expect, sc.played
    props = {p.id: p for p in game.spec.properties}
    if "verdict" in e and "property" not in e:
        raise sc.error("verdict needs a property", "expect", "verdict",
                       hint='property = "FROZEN"')
    if "property" in e:
        pid = e["property"]
        ok = [p for p, x in props.items() if on_a_trace(x)]
        if pid not in ok:
            raise sc.error(f"a trace cannot decide property {_show(pid)}; " + valid_names(ok),
                           "expect", "property", hint=_hint(pid, ok))
        verdict = e.setdefault("verdict", "violated")
        if verdict not in VERDICTS:
            raise sc.error(f"verdict must be one of {', '.join(VERDICTS)}, got {_show(verdict)}",
                           "expect", "verdict", hint=_hint(verdict, VERDICTS))
    if "rule" in e and "illegal_at" not in e:
        raise sc.error("rule names the rule refusing the illegal step: add illegal_at",
                       "expect", "rule", hint="illegal_at = 3")
    if "illegal_at" in e:
        k = e["illegal_at"]
        if not _is_int(k) or not 1 <= k <= len(sc.moves):
            raise sc.error(f"illegal_at must be a step 1..{len(sc.moves)}, got {_show(k)}",
                           "expect", "illegal_at")
        if k != len(sc.moves):
            raise sc.error(f"illegal_at = {k} but there are moves after it",
                           "expect", "illegal_at", hint="the illegal step is the last move")
    if "rule" in e:
        ids = [r.id for r in game.spec.rules]
        if e["rule"] not in ids:
            raise sc.error(f"no rule {_show(e['rule'])} in this variant; " + valid_names(ids),
                           "expect", "rule", hint=_hint(e["rule"], ids))


def _check_expect_state(sc: Scenario) -> None:
    """[expect]'s facts of the state after the last move (seats, phase, cards)."""
    e = sc.expect
    n = sc.played.config.players
    for key in ("turn", "actor"):
        if key in e and e[key] != "nobody":
            _player(sc, e[key], "expect", key)
    if "phase" in e and e["phase"] not in PHASE_NAMES:
        raise sc.error(f"unknown phase {_show(e['phase'])}; " + valid_names(PHASE_NAMES),
                       "expect", "phase", hint=_hint(e["phase"], PHASE_NAMES))
    if "ended" in e and e["ended"] not in END_NAMES:
        raise sc.error(f"ended must be one of {', '.join(map(repr, END_NAMES))}, "
                       f"got {_show(e['ended'])}", "expect", "ended",
                       hint=_hint(e["ended"], END_NAMES))
    if "dir" in e and e["dir"] not in (1, -1):
        raise sc.error("dir must be 1 (to the left) or -1 (to the right)", "expect", "dir")
    if "deck" in e and not (_is_int(e["deck"]) and e["deck"] >= 0):
        raise sc.error("deck is the number of cards left in the deck", "expect", "deck")
    if "passers" in e:
        if not isinstance(e["passers"], list):
            raise sc.error("passers must be a list of seats", "expect", "passers")
        for p in e["passers"]:
            _player(sc, p, "expect", "passers")
    if "scores" in e:
        sc_ = e["scores"]
        if not (isinstance(sc_, list) and len(sc_) == n and all(_is_int(x) for x in sc_)):
            raise sc.error(f"scores must be a list of {n} whole numbers, got {_show(sc_)}",
                           "expect", "scores")
    for key in list(e):
        if key.startswith("hand.") or key in ("pile", "top"):
            if key.startswith("hand."):
                seat = key[5:]
                if not seat.isdigit() or int(seat) >= n:
                    raise sc.error(f"{key}: hand.N names a seat 0..{n - 1}", "expect", key)
            vals = [e[key]] if key == "top" else e[key]
            if not isinstance(vals, list):
                raise sc.error(f"{key} must be a list of card names", "expect", key)
            for c in vals:
                card_index(sc, c, "expect", key)


# -- writing -------------------------------------------------------------------------

def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {v!r} as TOML")


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def to_toml(sc: Scenario) -> str:
    out = [f"title = {_toml_value(sc.title)}"]
    if sc.question:
        out.append(f"question = {_toml_value(sc.question)}")
    out.append(f"variant = {_toml_value(sc.variant)}")
    if sc.scope != "round":
        out.append(f"scope = {_toml_value(sc.scope)}")
    if sc.readings:
        out += ["", "[readings]"] + [f"{_toml_key(k)} = {_toml_value(v)}"
                                     for k, v in sc.readings.items()]
    if sc.contrast:
        out += ["", "[contrast]"] + [f"{_toml_key(k)} = {_toml_value(v)}"
                                     for k, v in sc.contrast.items()]
    if sc.config:
        out += ["", "[config]"] + [f"{k} = {_toml_value(v)}" for k, v in sc.config.items()]
    out += ["", "[deal]", f"hands = {_toml_value(sc.hands)}", f"up = {_toml_value(sc.up)}"]
    for mv in sc.moves:
        out += ["", "[[move]]"]
        out.append("chance = true" if mv.chance else f"player = {mv.player}")
        out.append(f"action = {_toml_value(mv.action)}")
        for k, v in mv.args.items():
            out.append(f"{k} = {_toml_value(v)}")
        if mv.note:
            out.append(f"note = {_toml_value(mv.note)}")
    out += ["", "[expect]"]
    for k, v in sc.expect.items():
        out.append(f"{_toml_key(k)} = {_toml_value(v)}")
    return "\n".join(out) + "\n"


def config_overrides(config) -> dict:
    """A Config (or a dict of overrides) as scenario [config] values."""
    if isinstance(config, Mapping):
        return dict(config)
    out = {"players": config.players, "suits": config.suits,
           "ranks": f"{config.ranks[0]}..{config.ranks[1]}", "hand": config.hand,
           "options": [n if k == 1 else f"{n}={k}" for n, k in config.options]}
    if not config.charity:
        out["charity"] = False
    if not config.desolation:
        out["desolation"] = False
    return out


def from_trace(variant_name: str, config, game: Game, trace_states, actions,
               expect: Mapping, title: str | None = None, question: str = "") -> Scenario:
    """A checker's trace as a scenario.

    ``trace_states[0]`` is a dealt state (or the state before the deal, when
    ``actions[0]`` is the deal); ``actions[i]`` leads from state i to i+1.
    """
    states, actions = list(trace_states), list(actions)
    if actions and actions[0][0] == "deal":
        masks, up = actions[0][1][:-1], actions[0][1][-1]
        actions = actions[1:]
    else:
        s = states[0]
        masks = game.get(s, "hands")
        up = game.get(s, "pile")[0]
    hands = [[game.card_name(c) for c in runtime.bits(m)] for m in masks]
    moves = []
    s = game.apply(game.initial_state(), ("deal", tuple(masks) + (up,)), validate=False)
    for i, a in enumerate(actions, 1):
        act = game.actions[a[0]]
        who = None if act.phase.actor is None else game.current_player(s)
        s = game.apply(s, a, validate=False)
        args = {}
        if a[0] == "deal":  # a later round of a whole game
            args = {"hands": [[game.card_name(c) for c in runtime.bits(m)] for m in a[1][:-1]],
                    "up": game.card_name(a[1][-1])}
        for p, x in zip(act.decl.params, a[1] if a[0] != "deal" else ()):
            args[PARAM_KEYS.get(p.name, p.name)] = game.card_name(x) if p.type == "card" else x
        moves.append(Move(step=i, action=a[0], player=who, args=args))
    try:  # the readings the variant does not already set, a default one included
        base = load_variant(variant_name).readings
    except InputError:
        base = default_readings()
    readings = {k: v for k, v in game.spec.readings.items()
                if k in CHOICE_POINTS and v != base.get(k)}
    sc = Scenario(title=title or f"{variant_name}: {', '.join(f'{k} = {v}' for k, v in expect.items())}",
                  variant=variant_name, question=question, readings=readings,
                  scope=game.spec.scope,
                  config=config_overrides(config), hands=hands,
                  up=game.card_name(up), moves=moves, expect=dict(expect))
    resolve(sc)
    return sc


__all__ = ["Scenario", "Move", "SCOPES", "load_scenario", "loads", "to_toml", "from_trace",
           "resolve", "index_lines", "OPTION_VALUES"]
