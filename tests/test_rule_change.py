"""Change the spec, and every backend and command changes with it.

No rule logic lives in a backend: the engine is generated from the AST and the
reference evaluator walks it.  So replacing one fragment of one rule (here with
``dataclasses.replace``, no other edit anywhere) must change what both offer.
The same holds for the rest of the game's knowledge: a property, or a reading,
added in spec/ alone is checked by the explicit search, the symbolic checker
and ``itcp-check check --property``; and no module of model/ or checks/ names
a state variable of the game, but for the few listed below, each with why.
"""
from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from itcp.checks.explicit.explore import explore
from itcp.checks.explicit.verdicts import verdicts
from itcp.checks.results import Verdict
from itcp.checks.symbolic.checker import SymbolicChecker, symbolic_verdicts
from itcp.model.engine.engine import Game
from itcp.spec.ast import INT, Var
from itcp.spec.choices import default_readings
from itcp.spec.config import Config
from itcp.spec.lang import FALSE, Guard, Rule, Update, elaborate
from itcp.spec.properties import Property
from itcp.spec.rules import build_ruleset
from itcp.spec.rules.vocabulary import DRAW, VARIABLES, Vocabulary

REPO = Path(__file__).resolve().parent.parent

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


# -- knowledge added in spec/ alone ---------------------------------------------------

#: a tiny table where a Pass, and a passer's hand changed by Pride Cycle, come quickly
TINY = Config(players=2, suits=1, ranks=(2, 2), hand=1,
              options=(("unbelief", 1), ("pride_cycle", 1)))


def nobody_passes(t) -> Property:
    """A property no backend has heard of: nobody ever says Pass."""
    return Property("NOBODY_PASSES", "state", "Nobody ever says Pass.", t.passers.is_empty(),
                    told=lambda v: f"P{v.game.describe(v.state)['passers'][0]} passed: "
                                   "NOBODY_PASSES violated")


@pytest.mark.slow
def test_a_property_added_to_spec_properties_is_accepted_by_check_property():
    """``--property`` knows the ids spec/properties.py declares, and nothing else:
    the property is added to the declarations before the CLI runs, in a real
    process."""
    declare = textwrap.dedent("""
        from itcp.spec import properties as P
        P.PROPERTIES += (P.Declared("NOBODY_PASSES", "state", "Nobody ever says Pass.",
                                    lambda t: t.passers.is_empty()),)
    """)
    run = textwrap.dedent("""
        import sys
        from itcp.cli.entry import main
        sys.argv[0] = "itcp-check"
        sys.exit(main())
    """)
    args = ["check", "--suits", "1", "--options", "unbelief,pride_cycle",
            "--property", "NOBODY_PASSES", "--property", "CONSERVATION"]
    r = subprocess.run([sys.executable, "-c", declare + run, *args], capture_output=True,
                       text=True, cwd=REPO, timeout=300)
    assert r.returncode == 1, r.stderr
    assert re.search(r"NOBODY_PASSES +VIOLATED +shortest trace: 1 move", r.stdout), r.stdout
    assert re.search(r"CONSERVATION +HOLDS", r.stdout)
    assert "NOBODY_PASSES violated in state" in r.stdout  # the default telling
    # without the declaration the same id is refused
    r = subprocess.run([sys.executable, "-c", run, *args], capture_output=True, text=True,
                       cwd=REPO, timeout=300)
    assert r.returncode == 2 and "unknown property 'NOBODY_PASSES'" in r.stderr, r.stderr


def with_reading(rs, point: str, reading: str, *fragments):
    """The rule set with one more reading's rule (a choice point spec/choices.py
    does not list): what a new reading adds to spec/rules/."""
    rule = Rule(f"{point}.{reading}", ("pass.1",), "A reading added by a test.",
                tuple(fragments), choice=point, reading=reading)
    return dataclasses.replace(rs, rules=rs.rules + (rule,))


@pytest.fixture(scope="module")
def tiny_games():
    """The tiny table's game with a property and a reading added in spec/ alone:
    under the literal readings (the new point's rule is not chosen) and under
    the new reading, which forbids saying Pass."""
    rs = with_reading(build_ruleset(TINY), "test.pass", "forbidden", Guard(("pass",), FALSE))
    extra = [nobody_passes(Vocabulary(TINY))]
    literal = Game(elaborate(rs, default_readings()).with_properties(extra))
    forbidden = Game(elaborate(rs, {**default_readings(), "test.pass": "forbidden"})
                     .with_properties(extra))
    return literal, forbidden


WANTED = ["FROZEN", "ROUND_ENDS", "NOBODY_PASSES"]


@pytest.mark.slow
def test_a_property_added_in_spec_alone_is_checked_by_the_explicit_and_symbolic_engines(
        tiny_games):
    literal, _ = tiny_games
    found = {v.id: v for v in verdicts(explore(literal), WANTED)}
    assert {k: v.verdict for k, v in found.items()} == dict.fromkeys(WANTED, Verdict.VIOLATED)
    v = found["NOBODY_PASSES"]
    assert v.evidence.as_json()["length"] == 1
    assert v.trace.ending == "P1 passed: NOBODY_PASSES violated"  # told as it says
    (s,), _ = symbolic_verdicts(literal, wanted=["NOBODY_PASSES"], depth=1)
    assert s.verdict is Verdict.VIOLATED and s.evidence.as_json()["replayed"]
    assert s.trace.ending.endswith("passed: NOBODY_PASSES violated")


@pytest.mark.slow
def test_a_reading_added_in_spec_alone_changes_the_explicit_and_symbolic_verdicts(tiny_games):
    literal, forbidden = tiny_games
    after = {v.id: v.verdict for v in verdicts(explore(forbidden), WANTED)}
    assert after == dict.fromkeys(WANTED, Verdict.HOLDS)  # nobody can pass
    # the symbolic engine's bounded search reads the new rule too
    assert SymbolicChecker(literal, depth=2).bmc("NOBODY_PASSES", 2).verdict is Verdict.VIOLATED
    assert SymbolicChecker(forbidden, depth=2).bmc("NOBODY_PASSES", 2) is None


# -- no game variable named in a backend or a checker ----------------------------------

#: (file, variable) -> why it may name the variable.  Every other mention of a
#: state variable of spec/rules/vocabulary.py (as a string, ``t.<name>`` or generated
#: ``v_<name>``) in model/ or checks/ fails the test below: game knowledge goes
#: in spec/.
ALLOWED = {
    **{(f, "phase"): "the phase variable is the spec language's own: Phase declarations "
                     "and every action dispatch on it"
       for f in ("model/engine/codegen.py", "model/engine/engine.py", "model/analysis/liveness.py",
                 "model/search/packed.py", "model/engine/reference.py", "model/search/searchkey.py",
                 "model/smt/encoding.py", "model/smt/queries.py", "model/analysis/specialise.py",
                 "model/search/vectorized.py", "checks/symbolic/conformance.py",
                 "checks/symbolic/induction.py", "checks/questions/language.py",
                 "scenarios/story.py")},
    **{("model/engine/engine.py", v): "Game.describe shows a state to a reader (stories, JSON)"
       for v in ("turn", "actor", "dir", "hands", "pile", "passers", "ended")},
    ("model/engine/engine.py", "deck"): "Game.describe counts the deck, and a deal sampled at a big "
                                 "table draws its hands from the deck",
    **{("model/engine/simulate.py", v): "the simulator's statistics: who started, passed first, "
                                 "why a round ended" for v in ("turn", "first_passer", "passers",
                                                               "ended")},
    **{("scenarios/story.py", v): "a story tells each step's change of seats and hands"
       for v in ("hands", "hand_of", "aside", "pile", "turn", "deck", "actor")},
    **{("scenarios/story.py", v): "the one narrator says what a step changed in a player's "
                                  "words: a new passer, the direction, the round's end, a "
                                  "game's totals, Mercy's race"
       for v in ("passers", "dir", "ended", "round_no", "totals", "racers")},
    **{("checks/questions/language.py", v): "the question language: its words are compiled to spec "
                                   "formulas over the game's variables"
       for v in ("turn", "actor", "dir", "hands", "deck", "pile", "passers", "first_passer",
                 "duty", "duty_on", "hand_of", "aside", "charity_out", "ended", "dealer")},
}


def test_no_backend_or_checker_names_a_game_variable():
    names = [v.name for v in VARIABLES]
    pattern = re.compile(r"""["'](%s)["']|\bt\.(%s)_?\b|\bv_(%s)\b"""
                         % (("|".join(names),) * 3))
    found, used = [], set()
    for path in (sorted((REPO / "model").rglob("*.py")) + sorted((REPO / "checks").rglob("*.py"))
                 + [REPO / "scenarios" / "story.py"]):
        rel = path.relative_to(REPO).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in pattern.finditer(line):
                name = next(g for g in m.groups() if g)
                if (rel, name) in ALLOWED:
                    used.add((rel, name))
                else:
                    found.append(f"{rel}:{n}: {name}: {line.strip()}")
    assert not found, "game variables named outside spec/:\n" + "\n".join(found)
    assert used == set(ALLOWED), f"allowed but unused (trim ALLOWED): {set(ALLOWED) - used}"
