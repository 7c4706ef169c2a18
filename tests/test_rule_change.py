"""Change one rule in the spec and both executable backends change with it.

No rule logic lives in a backend: the engine is generated from the AST and the
reference evaluator walks it.  So replacing one fragment of one rule (here with
``dataclasses.replace``, no other edit anywhere) must change what both offer.
"""
from __future__ import annotations

import dataclasses

import pytest

from itcp.model.engine import Game
from itcp.spec.ast import INT, Var
from itcp.spec.choices import default_readings
from itcp.spec.config import Config
from itcp.spec.lang import FALSE, Guard, Update, elaborate
from itcp.spec.rules import build_ruleset
from itcp.spec.rules.table import DRAW

BACKENDS = ("generated", "reference")
CFG = Config(players=3, suits=1, ranks=(2, 4), hand=2,
             options=(("repentance", 1), ("unbelief", 1)))


def replace_rule(rs, rule_id, change):
    """A copy of the rule set with one rule's fragments mapped through ``change``."""
    assert any(r.id == rule_id for r in rs.rules), rule_id
    rules = tuple(
        dataclasses.replace(r, fragments=tuple(change(f) for f in r.fragments))
        if r.id == rule_id else r for r in rs.rules)
    return dataclasses.replace(rs, rules=rules)


_GAMES: dict = {}


def games(rs, backend):
    """The game of a rule set in one backend (compiled once per rule set and backend)."""
    key = (id(rs), backend)
    if key not in _GAMES:
        _GAMES[key] = (rs, Game(elaborate(rs, default_readings()), backend=backend))
    return _GAMES[key][1]


def deal(game, hands, up):
    c = {x.name: x.index for x in CFG.cards}
    args = tuple(sum(1 << c[n] for n in h) for h in hands) + (c[up],)
    return game.apply(game.initial_state(), ("deal", args)), c


HANDS = (["red 2", "red 3"], ["Repentance", "red 4"], ["Unbelief", "red Desolation"])


def no_pass(f):
    return dataclasses.replace(f, expr=FALSE) if isinstance(f, Guard) else f


def keep_direction(f):
    if isinstance(f, Update) and f.var == "dir":
        return dataclasses.replace(f, value=Var("dir", INT))
    return f


@pytest.fixture(scope="module")
def original():
    return build_ruleset(CFG)


@pytest.fixture(scope="module")
def without_pass(original):
    return replace_rule(original, "pass.say", no_pass)


@pytest.fixture(scope="module")
def without_reverse(original):
    return replace_rule(original, "repentance.reverse", keep_direction)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_guard_changed_to_false_removes_pass(original, without_pass, backend):
    changed = without_pass
    assert build_ruleset(CFG) is original  # the cached rulebook is untouched
    assert [r.id for r in changed.rules] == [r.id for r in original.rules]
    assert sum(a != b for a, b in zip(changed.rules, original.rules)) == 1
    old, new = games(original, backend), games(changed, backend)
    s, _ = deal(old, HANDS, "red Charity")
    assert deal(new, HANDS, "red Charity")[0] == s  # the same dealt state
    assert old.get(s, "phase") == DRAW
    assert ("pass", ()) in old.legal_actions(s)
    assert ("pass", ()) not in new.legal_actions(s)
    # nothing else moved: every other move is still offered
    assert set(old.legal_actions(s)) - set(new.legal_actions(s)) == {("pass", ())}


def test_the_changed_guard_is_in_the_generated_source(original, without_pass):
    old, new = games(original, "generated"), games(without_pass, "generated")
    assert old.impl is not new.impl
    enum_of = lambda src: src.split("def enum_pass(s):")[1].split("\ndef ")[0]
    assert enum_of(old.impl.__source__) != enum_of(new.impl.__source__)
    assert "append" not in enum_of(new.impl.__source__)  # the guard folded to False
    s, _ = deal(old, HANDS, "red Charity")
    assert old.impl.enum_pass(s) and not new.impl.enum_pass(s)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_update_changed_stops_repentance_reversing(original, without_reverse, backend):
    old, new = games(original, backend), games(without_reverse, backend)
    s, c = deal(old, HANDS, "red Charity")
    # player 1 (left of dealer 0) takes the Charity, then discards the Repentance
    s = old.apply(s, ("draw_pile", ()))
    assert new.apply(deal(new, HANDS, "red Charity")[0], ("draw_pile", ())) == s
    move = ("discard", (c["Repentance"],))
    assert move in old.legal_actions(s) and move in new.legal_actions(s)
    after_old, after_new = old.apply(s, move), new.apply(s, move)
    assert old.get(after_old, "dir") == -1 and old.get(after_old, "turn") == 0
    assert new.get(after_new, "dir") == 1 and new.get(after_new, "turn") == 2
    # the two states differ only where the rule reaches
    diff = {v for v in old.var_names if old.get(after_old, v) != new.get(after_new, v)}
    assert diff == {"dir", "turn", "actor"}
    if backend == "generated":
        assert "repentance.reverse" in old.fired(s, move, after_old)


@pytest.mark.parametrize("backend", BACKENDS)
def test_unchanged_rules_leave_the_game_unchanged(original, backend):
    """The control: replacing a rule by an identical copy changes nothing."""
    same = replace_rule(original, "pass.say", lambda f: f)
    old, new = games(original, backend), games(same, backend)
    s, _ = deal(old, HANDS, "red Charity")
    assert sorted(old.legal_actions(s)) == sorted(new.legal_actions(s))
    for a in old.legal_actions(s):
        assert old.apply(s, a) == new.apply(s, a)
