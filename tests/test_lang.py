"""The spec language: builders, definitions, elaboration, and one table of example
expressions run through both executable backends (the reference evaluator and the
generated code), covering every operator in ``ast.OPS``."""
from __future__ import annotations

import ast
import pathlib
import re
from dataclasses import dataclass, replace
from types import SimpleNamespace

import pytest

import itcp.spec
from itcp.model.engine import runtime
from itcp.model.engine.codegen import FunctionEmitter, Module, compile_spec
from itcp.model.engine.reference import Evaluator, ReferenceModule
from itcp.spec import ast as A
from itcp.spec import lang as L
from itcp.spec.ast import (
    BOOL,
    CARD,
    CARDS,
    INT,
    OPS,
    PILE,
    PLAYER,
    PLAYERS,
    Bound,
    Call,
    Const,
    Ite,
    Let,
    Op,
    Param,
    map_of,
    op,
)
from itcp.spec.config import Config
from itcp.spec.errors import InvalidRule, SpecError
from itcp.spec.lang import (
    FALSE,
    TRUE,
    ActionDecl,
    And,
    Define,
    DefSig,
    Exists,
    ForAll,
    Guard,
    If,
    Implies,
    Inliner,
    LetIn,
    MapOf,
    Not,
    Or,
    ParamDecl,
    Phase,
    Rule,
    RuleSet,
    SetOf,
    StateVar,
    Sum,
    Update,
    cards,
    elaborate,
    num,
    player,
    players,
    signature,
)
from itcp.spec.rules import build_ruleset
from itcp.spec.rules.vocabulary import SCORE, SCORE_INPUTS, Vocabulary
from itcp.spec.rules.vocabulary import V as SPEC_VARS

HERE = __file__
TINY_CFG = Config(players=4, suits=1, ranks=(2, 4), hand=1)


# -- builders ------------------------------------------------------------------------

def test_and_or_drop_neutral_constants():
    a, b = A.Var("a", BOOL), A.Var("b", BOOL)
    assert And() is TRUE and Or() is FALSE
    assert And(TRUE, a) is a and Or(FALSE, a) is a
    assert And(a, b).sexpr() == "(and a b)"
    assert Or(a, TRUE, b).sexpr() == "(or a true b)"  # absorbing constants are kept
    assert Implies(a, b).sexpr() == "(or (not a) b)"
    assert Not(a).sexpr() == "(not a)"


def test_if_folds_constant_conditions_and_lifts_python_values():
    x = A.Var("x", INT)
    assert If(TRUE, x, 3) is x
    assert If(FALSE, x, 3).sexpr() == "3"
    e = If(A.Var("c", BOOL), x, 3)
    assert isinstance(e, Ite) and e.else_.type == INT
    p = If(A.Var("c", BOOL), 1, player(0))
    assert p.type == PLAYER and p.then.type == PLAYER
    assert If(A.Var("c", BOOL), 1, 2).type == INT


def test_binders_make_fresh_names():
    q1 = ForAll(players(3), lambda p: p.eq(0))
    q2 = ForAll(players(3), lambda p: p.eq(0))
    assert q1.var.name != q2.var.name
    assert q1 != q2  # different bound names: not the same node
    lt = LetIn(num(2), lambda v: v + v, hint="two")
    assert isinstance(lt, Let) and lt.var.name.startswith("two")


def test_defsig_checks_arity_and_types():
    sig = signature("f", INT, hand=CARDS, p=PLAYER)
    call = sig(cards(1), 0)
    assert isinstance(call, Call) and call.type == INT and call.args[1].type == PLAYER
    assert sig(p=0, hand=cards(1)) == sig(cards(1), p=0) == call  # by name, in any order
    with pytest.raises(SpecError, match="f is missing 'p'"):
        sig(cards(1))
    with pytest.raises(SpecError, match="f: hand is of type int, expected cards"):
        sig(num(1), 0)
    with pytest.raises(SpecError, match="takes 2 argument"):
        sig(cards(1), 0, 0)
    with pytest.raises(SpecError, match="'p' given twice"):
        sig(cards(1), 0, p=0)


# -- definitions with named parameters ------------------------------------------------

SEATS = signature("seats", PLAYERS, ring=PLAYERS, passers=PLAYERS, first_passer=PLAYER)


def test_a_call_of_three_or_more_parameters_names_them():
    call = SEATS(ring=players(3), passers=players(1), first_passer=player(0))
    assert [a.sexpr() for a in call.args] == ["#players{0,1}", "#players{0}", "0"]
    with pytest.raises(SpecError, match=re.escape(
            "seats takes its 3 arguments by name: seats(ring=..., passers=..., first_passer=...)")):
        SEATS(players(3), players(1), player(0))


def test_a_call_names_a_missing_or_misspelled_argument():
    with pytest.raises(SpecError, match=r"seats is missing 'first_passer': "
                                        r"seats\(ring, passers, first_passer\)"):
        SEATS(ring=players(3), passers=players(1))
    with pytest.raises(SpecError, match="seats has no parameter 'pasers' "
                                        r"\(did you mean 'passers'\?\)"):
        SEATS(ring=players(3), pasers=players(1), first_passer=player(0))
    with pytest.raises(SpecError, match="seats has no parameter 'colour': seats"):
        SEATS(ring=players(3), passers=players(1), first_passer=player(0), colour=1)


def test_the_table_names_an_unknown_definition():
    t = Vocabulary(TINY_CFG)
    with pytest.raises(SpecError, match="no definition is declared as 'race_feild' "
                                        r"\(did you mean 'race_field'\?\)"):
        t.d("race_feild")
    with pytest.raises(SpecError, match="race_field takes its 9 arguments by name"):
        t.d("race_field", *(t.NONEP,) * 9)


def test_define_passes_the_parameters_by_name():
    d = SEATS.define(lambda first_passer, ring, passers: ring - passers.minus(first_passer))
    ring, passers, fp = d.params
    assert (ring.type, passers.type, fp.type) == (PLAYERS, PLAYERS, PLAYER)
    assert d.body.sexpr() == f"(diff {ring.name} (without {passers.name} {fp.name}))"


def test_define_refuses_a_body_whose_names_differ_from_the_signature():
    with pytest.raises(SpecError, match=r"the body of definition seats takes \(ring, ps, fp\), "
                                        r"its signature seats\(ring, passers, first_passer\): "
                                        r"'ps' is no parameter of it"):
        SEATS.define(lambda ring, ps, fp: ring)
    with pytest.raises(SpecError, match=r"'pasers' is no parameter of it \(did you mean "
                                        r"'passers'\?\); it lacks 'passers'"):
        SEATS.define(lambda ring, pasers, first_passer: ring)
    with pytest.raises(SpecError, match="it lacks 'first_passer'"):
        SEATS.define(lambda ring, passers: ring)
    with pytest.raises(SpecError, match="'kw' must be plain named parameters"):
        SEATS.define(lambda **kw: kw["ring"])
    t = Vocabulary(TINY_CFG)
    with pytest.raises(SpecError, match="the body of definition lowers_ok takes"):
        t.define("lowers_ok", lambda c, h, lim: TRUE)
    with pytest.raises(SpecError, match="definition 'lower_ok' has no signature "
                                        r"\(did you mean 'lowers_ok'\?\)"):
        t.define("lower_ok", lambda card, hand, limit: TRUE)


def test_signatures_refuse_unnamed_or_repeated_parameters():
    with pytest.raises(SpecError, match="parameter 'int' is not a"):
        DefSig("f", (INT,), INT)
    with pytest.raises(SpecError, match="parameter 'a' is named twice"):
        DefSig("f", (("a", INT), ("a", INT)), INT)


# -- tiny rule sets -----------------------------------------------------------------

X = StateVar("x", INT, "a counter")
Y = StateVar("y", INT, "another counter")
PH = StateVar("phase", INT, "the phase")
G = StateVar("g", INT, "a game-scope total", scope="game")
PLAY = Phase("PLAY", 0, player(0), "player 0 moves")
INC = ActionDecl("inc", "PLAY", (), "a move")
PICK = ActionDecl("pick", "PLAY", (ParamDecl("k", PLAYER, players(0b0011)),), "choose a seat")


def moves(enumerated) -> list:
    """``enum_<a>`` results as parameter tuples (entries may be ``(name, args)``)."""
    return [x[1] if len(x) == 2 and isinstance(x[0], str) else x for x in enumerated]


def rule(id, *fragments, choice=None, reading=None, scope="round"):
    return Rule(id, ("play.1",), "a test rule", tuple(fragments), choice, reading, scope)


def ruleset(*rules, signatures=(), variables=(PH, X, Y), actions=(INC, PICK)):
    initial = {v.name: num(0) for v in variables}
    return RuleSet(TINY_CFG, tuple(variables), (PLAY,), tuple(actions), tuple(rules),
                   {s.name: s for s in signatures}, (), initial)


def test_elaborate_combines_updates_by_priority_and_keeps_the_frame():
    rs = ruleset(
        rule("base", Update(("inc",), "x", X.cur + 1)),
        rule("cap", Update(("inc",), "x", num(0), when=X.cur > 2, priority=1)),
        rule("follow", Update(("inc",), "y", X.new + 10)),
    )
    spec = elaborate(rs, {})
    inc = spec.action("inc")
    assert inc.values["x"].sexpr() == "(if (lt 2 x) 0 (add x 1))"  # `when=TRUE` folds
    assert inc.order == ["x", "y"]  # y' reads x': x first
    assert set(inc.values) == {"x", "y"}  # phase is framed: not updated
    assert spec.action("pick").values == {}
    ref = ReferenceModule(spec)
    assert ref.apply_inc((0, 0, 0), ()) == (0, 1, 11)
    assert ref.apply_inc((0, 3, 0), ()) == (0, 0, 10)


def test_elaborate_unprimes_variables_the_action_does_not_update():
    rs = ruleset(rule("r", Update(("inc",), "x", Y.new + 1)))
    inc = elaborate(rs, {}).action("inc")
    assert inc.values["x"].sexpr() == "(add y 1)"


def test_elaborate_keeps_only_the_chosen_reading():
    sig = DefSig("bump", (), INT)
    rs = ruleset(
        rule("use", Update(("inc",), "x", X.cur + sig())),
        rule("bump.one", Define("bump", (), num(1)), choice="cp", reading="one"),
        rule("bump.two", Define("bump", (), num(2)), choice="cp", reading="two"),
        signatures=[sig])
    one, two = elaborate(rs, {"cp": "one"}), elaborate(rs, {"cp": "two"})
    assert [r.id for r in one.rules] == ["use", "bump.one"]
    assert one.action("inc").values["x"].sexpr() == "(add x 1)"
    assert two.action("inc").values["x"].sexpr() == "(add x 2)"
    inc = one.action("inc")  # the definition's rule is remembered (for traces and cores)
    used = set(inc.used_defs).union(*getattr(inc, "update_defs", {}).values())
    assert used == {"bump.one"}


def test_elaborate_inlines_definition_parameters():
    a = Bound("a_test", INT)
    sig = DefSig("double", (("n", INT),), INT)
    rs = ruleset(rule("d", Define("double", (a,), a + a)),
                 rule("u", Update(("inc",), "x", sig(X.cur + 1))), signatures=[sig])
    assert elaborate(rs, {}).action("inc").values["x"].sexpr() == "(add (add x 1) (add x 1))"


def test_shared_expansions_keep_each_updates_own_definitions():
    """Elaboration expands each definition call once for every guard and update,
    yet each update still names the definitions its own value used."""
    one, two = DefSig("one", (), INT), DefSig("two", (), INT)
    rs = ruleset(rule("d1", Define("one", (), num(1))), rule("d2", Define("two", (), num(2))),
                 rule("a", Update(("inc",), "x", X.cur + one())),
                 rule("b", Update(("inc",), "y", Y.cur + one() + two())),
                 rule("g", Guard(("inc", "pick"), one() < 5)), signatures=[one, two])
    spec = elaborate(rs, {})
    inc = spec.action("inc")
    assert inc.update_defs == {("x", "a"): {"d1"}, ("y", "b"): {"d1", "d2"}}
    assert inc.used_defs == {"d1"} and spec.action("pick").used_defs == {"d1"}
    inline = spec.inliner()
    assert inline(one() + two()).sexpr() == "(add 1 2)" and inline.used == {"d1", "d2"}


def test_a_spec_with_other_definitions_does_not_reuse_expansions():
    one = DefSig("one", (), INT)
    rs = ruleset(rule("d1", Define("one", (), num(1))), rule("u", Update(("inc",), "x", one())),
                 signatures=[one])
    spec = elaborate(rs, {})
    call = one()
    assert spec.inliner()(call).sexpr() == "1"
    other = replace(spec, definitions={"one": ("d9", Define("one", (), num(9)))})
    assert other.inliner()(call).sexpr() == "9"
    assert spec.inliner()(call).sexpr() == "1"


def test_substitute_leaves_a_subtree_without_the_names_as_it_is():
    a, b = Bound("a_sub", INT), Bound("b_sub", INT)
    left, right = X.cur + a, Y.cur + b
    out = A.substitute(Op("add", (left, right)), {"b_sub": num(3)})
    assert out.args[0] is left and out.sexpr() == "(add (add x a_sub) (add y 3))"
    assert A.free_names(Op("add", (left, right))) == {"a_sub", "b_sub"}


def test_game_scope_rules_and_variables_only_in_game_scope():
    rs = ruleset(rule("round", Update(("inc",), "x", X.cur + 1)),
                 rule("game", Update(("inc",), "g", G.cur + 1), scope="game"),
                 variables=(PH, X, Y, G))
    round_spec = elaborate(rs, {})
    assert [v.name for v in round_spec.variables] == ["phase", "x", "y"]
    assert set(round_spec.action("inc").values) == {"x"}
    game_spec = elaborate(rs, {}, scope="game")
    assert set(game_spec.action("inc").values) == {"x", "g"}


def test_a_rule_remembers_where_it_was_written():
    r = L.rule("t.where", ["play.1"], "a rule written here")  # LOC-rule
    line = next(i for i, t in enumerate(open(HERE, encoding="utf-8"), 1)
                if "LOC-rule" in t and "next(" not in t)
    assert r.src_loc == ("tests/test_lang.py", line)
    assert r == replace(r, src_loc=None)  # where it was written is no part of the rule


def test_every_rule_of_the_rulebook_points_at_its_rule_call():
    root = pathlib.Path(itcp.spec.__file__).resolve().parent.parent
    for r in build_ruleset(TINY_CFG).rules:
        path, line = r.src_loc
        assert path.startswith("spec/rules/"), (r.id, r.src_loc)
        text = (root / path).read_text(encoding="utf-8").splitlines()[line - 1]
        assert f'rule("{r.id}"' in text, (r.id, r.src_loc, text)


def _line(tag: str) -> int:
    return next(i for i, t in enumerate(open(HERE, encoding="utf-8"), 1)
                if tag in t and "_line(" not in t)


def _invalid(build, match: str, rule_id: str, tag: str) -> InvalidRule:
    """The rule ``build`` writes is refused at once, naming it and the line ``tag``
    marks in this file."""
    with pytest.raises(InvalidRule, match=match) as err:
        build()
    assert err.value.rule == rule_id
    assert err.value.where == f"tests/test_lang.py:{_line(tag)}"
    assert str(err.value).startswith(f"rule {rule_id} (tests/test_lang.py:{_line(tag)}): ")
    return err.value


def test_a_rule_citing_an_unknown_sentence_is_refused_when_written():
    _invalid(lambda: L.rule("pride.open", ["pride.9"], "x"),  # BAD-SENTENCE
             r"cites 'pride.9', which is no sentence of the rulebook \(did you mean",
             "pride.open", "BAD-SENTENCE")
    _invalid(lambda: L.rule("pride.open", [], "x"),  # NO-SENTENCE
             "cites no sentence", "pride.open", "NO-SENTENCE")


def test_a_rule_of_an_unknown_choice_point_or_reading_is_refused_when_written():
    _invalid(lambda: L.rule("pride.timin.in_turn", ["pride.1"], "x",  # BAD-POINT
                               choice="pride.timin", reading="in_turn"),
             r"choice point 'pride.timin', which spec/choices.py does not list "
             r"\(did you mean 'pride.timing'\?\)", "pride.timin.in_turn", "BAD-POINT")
    _invalid(lambda: L.rule("pride.timing.simultanous", ["pride.1"], "x",  # BAD-READING
                               choice="pride.timing", reading="simultanous"),
             r"the reading 'simultanous', which choice point pride.timing does not have "
             r"\(its readings: simultaneous, in_turn\) \(did you mean 'simultaneous'\?\)",
             "pride.timing.simultanous", "BAD-READING")
    _invalid(lambda: L.rule("pride.x", ["pride.1"], "x", choice="pride.timing"),  # HALF
             "a choice point without a reading", "pride.x", "HALF")


def test_a_rule_whose_id_does_not_name_its_reading_is_refused_when_written():
    _invalid(lambda: L.rule("pride.in_turn", ["pride.1"], "x",  # BAD-ID
                               choice="pride.timing", reading="in_turn"),
             "belongs to pride.timing = in_turn, so its id must start with "
             "pride.timing.in_turn", "pride.in_turn", "BAD-ID")
    # a rule named as a reading that forgets to say it belongs to it
    _invalid(lambda: L.rule("pride.timing.in_turn", ["pride.1"], "x"),  # NO-READING
             "is named as reading in_turn of pride.timing but belongs to no reading: give it "
             "choice='pride.timing', reading='in_turn'", "pride.timing.in_turn", "NO-READING")
    # a longer id that starts with its reading is fine
    assert L.rule("pride.timing.in_turn.more", ["pride.1"], "x",
                     choice="pride.timing", reading="in_turn").reading == "in_turn"


def test_a_rule_with_a_bad_scope_or_fragment_is_refused_when_written():
    _invalid(lambda: L.rule("pride.open", ["pride.1"], "x", scope="table"),  # BAD-SCOPE
             "scope 'table'", "pride.open", "BAD-SCOPE")
    _invalid(lambda: L.rule("pride.open", ["pride.1"], "x", TRUE),  # BAD-FRAGMENT
             "fragments are Guard, Update and Define", "pride.open", "BAD-FRAGMENT")
    _invalid(lambda: L.rule("pride.open", ["pride.1"], "x",  # BAD-ACTIONS
                               Guard("give", TRUE)),
             "a tuple of action names", "pride.open", "BAD-ACTIONS")


def _in_turn_rule(t, name, body):
    """pride.timing.in_turn, written with one definition."""
    return L.rule("pride.timing.in_turn", ["pride.1"], "x", L.define(t, name, body),  # DEF
                  choice="pride.timing", reading="in_turn")


@pytest.mark.parametrize("name, body, match", [
    ("pride_to", lambda giver, ring, passers: giver,
     r"the body of definition pride_to takes \(giver, ring, passers\), its signature "
     r"pride_to\(giver, ring, passers, dir\): it lacks 'dir'"),
    ("pride_to", lambda giver, ring, passers, dir: TRUE,
     r"the body of definition pride_to is of type bool; its signature "
     r"pride_to\(giver, ring, passers, dir\) gives player"),
    ("pride_too", lambda giver, ring, passers, dir: giver,
     r"definition 'pride_too' has no signature \(did you mean 'pride_to'\?\)"),
], ids=["names", "type", "unknown"])
def test_a_definition_unlike_its_signature_is_refused_naming_its_rule(name, body, match):
    t = Vocabulary(TINY_CFG)
    _invalid(lambda: _in_turn_rule(t, name, body), match, "pride.timing.in_turn", "# DEF")


def test_a_definition_body_that_is_no_expression_is_refused():
    with pytest.raises(InvalidRule, match="the body of definition pride_to is 3"):
        L.define(Vocabulary(TINY_CFG), "pride_to", lambda giver, ring, passers, dir: 3)


def test_guards_are_conjoined_with_rule_ids():
    rs = ruleset(rule("small", Guard(("inc",), X.cur < 3)),
                 rule("mine", Guard(("inc", "pick"), PH.cur.eq(0))))
    inc = elaborate(rs, {}).action("inc")
    assert [rid for rid, _ in inc.guards] == ["small", "mine"]
    assert inc.guard.sexpr() == "(and (lt x 3) (eq phase 0))"
    ref = ReferenceModule(elaborate(rs, {}))
    assert moves(ref.enum_inc((0, 0, 0))) == [()] and moves(ref.enum_inc((0, 5, 0))) == []
    assert moves(ref.enum_pick((0, 0, 0))) == [(0,), (1,)]


# -- elaboration errors ------------------------------------------------------------

def elab_error(rs, readings=None, match=None) -> SpecError:
    with pytest.raises(SpecError, match=match) as info:
        elaborate(rs, readings or {})
    return info.value


def test_two_rules_defining_one_definition():
    sig = DefSig("f", (), INT)
    rs = ruleset(rule("r1", Define("f", (), num(1))), rule("r2", Define("f", (), num(2))),
                 signatures=[sig])
    err = elab_error(rs, match="f defined by both r1 and r2")
    assert "r1" in str(err) and "r2" in str(err)


def test_two_readings_of_one_point_may_both_define_it():
    sig = DefSig("f", (), INT)
    rs = ruleset(rule("r1", Define("f", (), num(1)), choice="cp", reading="a"),
                 rule("r2", Define("f", (), num(2)), choice="cp", reading="b"),
                 signatures=[sig])
    assert set(elaborate(rs, {"cp": "a"}).definitions) == {"f"}


def test_two_updates_with_equal_priority():
    rs = ruleset(rule("r1", Update(("inc",), "x", num(1))),
                 rule("r2", Update(("inc",), "x", num(2), when=X.cur > 0)))
    err = elab_error(rs, match="same priority")
    assert "r1" in str(err) and "r2" in str(err) and "inc" in str(err)
    # distinct priorities make it well-formed
    ok = ruleset(rule("r1", Update(("inc",), "x", num(1))),
                 rule("r2", Update(("inc",), "x", num(2), when=X.cur > 0, priority=1)))
    assert elaborate(ok, {}).action("inc").values["x"].sexpr() == "(if (lt 0 x) 2 1)"


def _bare_priorities(path):
    """(line, source) of every ``priority=`` given an integer literal in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        for kw in getattr(node, "keywords", ()):
            v = kw.value
            if isinstance(v, ast.UnaryOp) and isinstance(v.op, (ast.USub, ast.UAdd)):
                v = v.operand
            if kw.arg == "priority" and isinstance(v, ast.Constant) and isinstance(v.value, int):
                out.append((kw.value.lineno, ast.unparse(kw)))
    return out


def test_bare_priority_literals_are_found(tmp_path):
    src = tmp_path / "r.py"
    src.write_text("Update(a, 'x', v, priority=Priority.BASE)\nUpdate(a, 'x', v, priority=-1)\n"
                   "Update(a, 'x', v,\n       priority=7)\n")
    assert _bare_priorities(src) == [(2, "priority=-1"), (4, "priority=7")]


def test_rules_name_their_priorities():
    """Fragment priorities come from the one table ``rules.priorities.Priority``,
    never a bare number in a rule."""
    spec_dir = pathlib.Path(itcp.spec.__file__).parent
    files = sorted(spec_dir.glob("*.py")) + sorted((spec_dir / "rules").glob("*.py"))
    assert any(f.name == "pride.py" for f in files)
    bare = [f"{f}:{line}: {src}" for f in files for line, src in _bare_priorities(f)]
    assert not bare, "use a name from spec/rules/priorities.py:\n" + "\n".join(bare)


def test_call_to_a_missing_definition_names_the_call_site():
    g = DefSig("g", (), BOOL)
    rs = ruleset(rule("r", Guard(("inc",), g())), signatures=[g])  # MISSING-DEF
    err = elab_error(rs, match="g is used at")
    line = next(i for i, t in enumerate(open(HERE, encoding="utf-8"), 1)
                if "MISSING-DEF" in t and "next(" not in t)
    assert f"{HERE}:{line}" in str(err)


def test_call_to_a_definition_of_an_unchosen_reading():
    g = DefSig("g", (), BOOL)
    rs = ruleset(rule("use", Guard(("inc",), g())),
                 rule("def", Define("g", (), TRUE), choice="cp", reading="yes"),
                 signatures=[g])
    assert elaborate(rs, {"cp": "yes"}).action("inc").guard.sexpr() == "true"
    elab_error(rs, {"cp": "no"}, match="no included rule defines it")


def test_cyclic_primed_dependency():
    rs = ruleset(rule("a", Update(("inc",), "x", Y.new + 1)),
                 rule("b", Update(("inc",), "y", X.new + 1)))
    elab_error(rs, match="cyclic next-state dependency")


def test_self_primed_dependency_is_a_cycle():
    rs = ruleset(rule("a", Update(("inc",), "x", X.new + 1)))
    elab_error(rs, match="cyclic")


def test_recursive_definition():
    f = DefSig("f", (), INT)
    rs = ruleset(rule("d", Define("f", (), f() + 1)), rule("u", Update(("inc",), "x", f())),
                 signatures=[f])
    elab_error(rs, match="recursive")


def test_definition_must_match_its_signature():
    f = DefSig("f", (), INT)
    rs = ruleset(rule("d", Define("f", (), TRUE)), signatures=[f])
    elab_error(rs, match="does not match its signature")
    rs = ruleset(rule("d", Define("nosig", (), num(1))))
    elab_error(rs, match="does not match its signature")


def test_ill_typed_fragments():
    elab_error(ruleset(rule("g", Guard(("inc",), X.cur + 1))), match="expected bool")
    elab_error(ruleset(rule("u", Update(("inc",), "x", TRUE))), match="expected int")
    elab_error(ruleset(rule("w", Update(("inc",), "x", num(1), when=num(1)))),
               match="expected bool")
    elab_error(ruleset(rule("v", Update(("inc",), "nope", num(1)))),
               match="unknown variable nope")


def test_unknown_action_in_game_scope():
    rs = ruleset(rule("r", Guard(("nosuch",), TRUE)))
    with pytest.raises(SpecError, match="unknown action nosuch"):
        elaborate(rs, {}, scope="game")


# -- a tiny spec through the whole pipeline ------------------------------------------

def tiny_spec(value: A.Node, extra_rules=()):
    """A one-action spec whose ``step`` action stores ``value`` in ``out``.

    ``compile_spec`` expects the rulebook's ``score`` definition and the variables
    it reads (``SCORE_INPUTS``); they are declared here with a trivial body."""
    inputs = tuple(SPEC_VARS[n] for n in SCORE_INPUTS)
    vs = (StateVar("phase", INT, ""), *inputs, StateVar("out", value.type, ""))
    params = tuple(Bound(f"s{i}", t) for i, t in enumerate(SCORE.types))
    rules = (rule("score", Define("score", params, num(0))),
             rule("store", Update(("step",), "out", value)), *extra_rules)
    zero = {INT: num(0), BOOL: FALSE, CARD: Const(-1, CARD), PLAYER: player(-1),
            CARDS: cards(0), PLAYERS: players(0), PILE: Const((), PILE)}
    for t in (value.type, *(v.type for v in inputs)):
        if t not in zero:
            zero[t] = map_node(t, (0,) * 4)
    initial = {"phase": num(0), **{v.name: zero[v.type] for v in inputs},
               "out": zero[value.type]}
    rs = RuleSet(TINY_CFG, vs, (PLAY,), (ActionDecl("step", "PLAY", (), ""),), rules,
                 {"score": SCORE}, (), initial)
    return elaborate(rs, {})


def tiny_state(out):
    """A state of the tiny spec: phase 0, every score input zero, then ``out``."""
    zero = {INT: 0, PLAYERS: 0, CARDS: 0}
    return (0, *((0,) * 4 if A.map_value_type(SPEC_VARS[n].type) else zero[SPEC_VARS[n].type]
                 for n in SCORE_INPUTS), out)


def run_tiny(value: A.Node):
    spec = tiny_spec(value)
    gen, ref = compile_spec(spec), ReferenceModule(spec)
    s0 = tiny_state(None)
    assert moves(gen.enum_step(s0)) == moves(ref.enum_step(s0)) == [()]
    return gen.apply_step(s0, ())[-1], ref.apply_step(s0, ())[-1]


def test_tiny_spec_compiles_and_agrees():
    g, r = run_tiny(op("add", num(2), op("mul", num(3), num(4))))
    assert g == r == 14
    spec = tiny_spec(num(1))
    mod = compile_spec(spec)
    assert "def apply_step(s, a):" in mod.__source__
    s = tiny_state(0)
    assert mod.current(s) == 0
    assert mod.scores(s) == (0, 0, 0, 0)


# -- one table of examples through both backends ------------------------------------

N = 4  # players, for step / next_in


def map_node(t: str, values) -> A.Node:
    """A constant per-player map, built the way the rules build maps (``MapOf``)."""
    vt, values = A.map_value_type(t), list(values)

    def body(p):
        out = Const(values[-1], vt)
        for i in range(len(values) - 2, -1, -1):
            out = If(p.eq(i), Const(values[i], vt), out)
        return out
    return MapOf(players((1 << len(values)) - 1), body)
CARDMAP = Const((3, 5, 0, 7, 9), "cardmap")  # cards 0..3, then the NOCARD entry


@dataclass(frozen=True)
class Ex:
    op: str
    args: tuple  # (type, value) pairs; a Const node for card maps
    expected: object
    note: str = ""

    def const_node(self):
        return op(self.op, *[a if isinstance(a, A.Node) else
                             map_node(a[0], a[1]) if A.map_value_type(a[0]) else
                             Const(a[1], a[0]) for a in self.args])

    def param_node(self):
        """The same expression with every argument but a card map a runtime parameter."""
        out, env = [], {}
        for i, a in enumerate(self.args):
            if isinstance(a, A.Node):
                out.append(a)
            else:
                out.append(Param(f"a{i}", a[0]))
                env[f"a{i}"] = a[1]
        return op(self.op, *out), env

    def __str__(self):
        return f"{self.const_node().sexpr()}{' ' + self.note if self.note else ''}"


B, I, C, P, S, PS, PL = BOOL, INT, CARD, PLAYER, CARDS, PLAYERS, PILE  # noqa: E741 (the types' one-letter names)
EXAMPLES = [
    Ex("and", ((B, True), (B, True)), True),
    Ex("and", ((B, True), (B, False), (B, True)), False),
    Ex("and", ((B, False),), False),
    Ex("or", ((B, False), (B, False)), False),
    Ex("or", ((B, False), (B, True), (B, False)), True),
    Ex("not", ((B, True),), False),
    Ex("eq", ((I, 3), (I, 3)), True),
    Ex("eq", ((C, 2), (C, -1)), False),
    Ex("eq", ((PL, (1, 2)), (PL, (1, 2))), True),
    Ex("eq", ((map_of(I), (1, 2, 3, 4)), (map_of(I), (1, 2, 3, 5))), False),
    Ex("add", ((I, 2), (I, 3)), 5),
    Ex("sub", ((I, 2), (I, 5)), -3),
    Ex("mul", ((I, -2), (I, 3)), -6),
    Ex("lt", ((I, 2), (I, 3)), True),
    Ex("lt", ((I, 3), (I, 3)), False),
    Ex("le", ((I, 3), (I, 3)), True),
    Ex("le", ((I, 4), (I, 3)), False),
    Ex("union", ((S, 0b0011), (S, 0b0110)), 0b0111),
    Ex("union", ((PS, 0), (PS, 0b1000)), 0b1000),
    Ex("inter", ((S, 0b0011), (S, 0b0110)), 0b0010),
    Ex("diff", ((S, 0b0011), (S, 0b0110)), 0b0001),
    Ex("diff", ((PS, 0b1111), (PS, 0b1111)), 0),
    Ex("member", ((C, 2), (S, 0b0100)), True),
    Ex("member", ((C, 1), (S, 0b0100)), False),
    Ex("member", ((C, -1), (S, 0b1111)), False, "NOCARD is in no set"),
    Ex("member", ((P, -1), (PS, 0b1111)), False, "NOBODY is in no set"),
    Ex("with", ((S, 0b0001), (C, 2)), 0b0101),
    Ex("with", ((S, 0b0101), (C, 2)), 0b0101),
    Ex("with", ((S, 0b0101), (C, -1)), 0b0101, "with NOCARD: unchanged"),
    Ex("with", ((PS, 0b0001), (P, -1)), 0b0001, "with NOBODY: unchanged"),
    Ex("without", ((S, 0b0101), (C, 2)), 0b0001),
    Ex("without", ((S, 0b0101), (C, 1)), 0b0101),
    Ex("without", ((S, 0b0101), (C, -1)), 0b0101, "without NOCARD: unchanged"),
    Ex("is_empty", ((S, 0),), True),
    Ex("is_empty", ((PS, 0b100),), False),
    Ex("count", ((S, 0b1011),), 3),
    Ex("count", ((PS, 0),), 0),
    Ex("subset", ((S, 0b0010), (S, 0b0110)), True),
    Ex("subset", ((S, 0b1010), (S, 0b0110)), False),
    Ex("subset", ((PS, 0), (PS, 0)), True),
    Ex("tsum", ((S, 0b1011), CARDMAP), 15),
    Ex("tsum", ((S, 0), CARDMAP), 0),
    Ex("tsum", ((S, 0b0100), CARDMAP), 0, "a zero-valued card"),
    Ex("attr", ((C, 1), CARDMAP), 5),
    Ex("attr", ((C, -1), CARDMAP), 9, "NOCARD reads the map's last entry"),
    Ex("step", ((P, 3), (I, 1)), 0),
    Ex("step", ((P, 0), (I, -1)), 3),
    Ex("step", ((P, 1), (I, 2)), 3),
    Ex("step", ((P, -1), (I, 1)), -1, "NOBODY steps nowhere"),
    Ex("next_in", ((P, 1), (I, 1), (PS, 0b1001)), 3),
    Ex("next_in", ((P, 1), (I, -1), (PS, 0b1001)), 0),
    Ex("next_in", ((P, 3), (I, 1), (PS, 0b0011)), 0, "wraps round the table"),
    Ex("next_in", ((P, 2), (I, 1), (PS, 0b0100)), 2, "k = n comes back to p"),
    Ex("next_in", ((P, 0), (I, 1), (PS, 0)), -1, "empty set: NOBODY"),
    Ex("next_in", ((P, -1), (I, 1), (PS, 0b1111)), -1, "from NOBODY: NOBODY"),
    Ex("top", ((PL, (1, 2, 3)),), 3),
    Ex("top", ((PL, ()),), -1, "empty pile: NOCARD"),
    Ex("pile_len", ((PL, (1, 2)),), 2),
    Ex("pile_len", ((PL, ()),), 0),
    Ex("push", ((PL, (1,)), (C, 2)), (1, 2)),
    Ex("push", ((PL, ()), (C, 0)), (0,)),
    Ex("pop", ((PL, (1, 2)),), (1,)),
    Ex("pop", ((PL, ()),), (), "popping an empty pile"),
    Ex("pile_cards", ((PL, (0, 3)),), 0b1001),
    Ex("pile_cards", ((PL, ()),), 0),
    Ex("pile_distinct", ((PL, (0, 3, 1)),), True),
    Ex("pile_distinct", ((PL, ()),), True),
    Ex("pile_distinct", ((PL, (3, 0, 3)),), False, "a card twice"),
    Ex("pile_of", ((C, 2),), (2,)),
    Ex("pile_of", ((C, -1),), (), "NOCARD: the empty pile"),
    Ex("get", ((map_of(I), (4, 5, 6, 7)), (P, 2)), 6),
    Ex("get", ((map_of(I), (4, 5, 6, 7)), (P, -1)), 0, "NOBODY: int zero"),
    Ex("get", ((map_of(C), (1, 2, 3, 0)), (P, -1)), -1, "NOBODY: NOCARD"),
    Ex("get", ((map_of(P), (1, 2, 3, 0)), (P, -1)), -1, "NOBODY: NOBODY"),
    Ex("get", ((map_of(S), (1, 2, 3, 4)), (P, -1)), 0, "NOBODY: the empty set"),
    Ex("get", ((map_of(B), (True,) * 4), (P, -1)), False, "NOBODY: false"),
    Ex("put", ((map_of(I), (4, 5, 6, 7)), (P, 1), (I, 9)), (4, 9, 6, 7)),
    Ex("put", ((map_of(I), (4, 5, 6, 7)), (P, 3), (I, 9)), (4, 5, 6, 9)),
    Ex("put", ((map_of(I), (4, 5, 6, 7)), (P, -1), (I, 9)), (4, 5, 6, 7), "NOBODY: unchanged"),
]


def reference_eval(node, env=None):
    ev = Evaluator(SimpleNamespace(config=SimpleNamespace(players=N), variables=(),
                                   inliner=lambda: Inliner({})))
    return ev.eval(node, {"state": {}, **(env or {})})


def generated_eval(node, env=None):
    """Compile ``node`` with the engine's FunctionEmitter into ``def f(params)`` and call it."""
    env = env or {}
    mod = Module()
    em = FunctionEmitter(mod, N)
    for name in env:
        em.env[name] = f"p_{name}"
    code = em.expr(node)
    src = "\n".join(mod.lines + [f"def f({', '.join('p_' + k for k in env)}):"] + em.lines
                    + [f"    return {code}", ""])
    ns = {"bits": runtime.bits, "pile_mask": runtime.pile_mask, "subsets": runtime.subsets}
    exec(compile(src, "<test-expr>", "exec"), ns)
    return ns["f"](*env.values())


def test_examples_cover_every_operator():
    missing = set(OPS) - {e.op for e in EXAMPLES}
    assert not missing, f"add examples for the new operator(s) {sorted(missing)}"


@pytest.mark.parametrize("ex", EXAMPLES, ids=str)
def test_operator_examples_in_both_backends(ex):
    const = ex.const_node()
    dyn, env = ex.param_node()
    got = {
        "reference/const": reference_eval(const),
        "generated/const": generated_eval(const),
        "reference/param": reference_eval(dyn, env),
        "generated/param": generated_eval(dyn, env),
    }
    assert got == dict.fromkeys(got, ex.expected), str(ex)


@pytest.mark.parametrize("ex", [e for e in EXAMPLES if e.op in
                                ("member", "with", "get", "put", "tsum", "next_in", "top")],
                         ids=str)
def test_operator_examples_through_a_compiled_spec(ex):
    g, r = run_tiny(ex.const_node())
    assert g == r == ex.expected


def _quant_examples():
    T = Const((1, 2, 4, 8, 0), "cardmap")
    dom_c = cards(0b1011)
    dom_p = Param("d", CARDS)
    val = lambda c: op("attr", c, T)
    out = []
    for label, dom, env in (("const", dom_c, {}), ("param", dom_p, {"d": 0b1011})):
        out += [
            (f"forall/{label}", ForAll(dom, lambda c: val(c) > 0), env, True),
            (f"exists/{label}", Exists(dom, lambda c: val(c).eq(8)), env, True),
            (f"exists-none/{label}", Exists(dom, lambda c: val(c).eq(4)), env, False),
            (f"sum/{label}", Sum(dom, val), env, 11),
            (f"setof/{label}", SetOf(dom, lambda c: val(c) > 1), env, 0b1010),
            (f"nested/{label}", Sum(dom, lambda c: Sum(dom, lambda d: If(
                c.eq(d), num(0), val(d)))), env, 2 * 11),
        ]
    empty = Param("e", CARDS)
    out += [
        ("forall-empty", ForAll(empty, lambda c: FALSE), {"e": 0}, True),
        ("exists-empty", Exists(empty, lambda c: TRUE), {"e": 0}, False),
        ("sum-empty", Sum(empty, lambda c: num(1)), {"e": 0}, 0),
        ("mapof", MapOf(players((1 << N) - 1), lambda p: op("step", p, num(1))), {},
         (1, 2, 3, 0)),
        ("let", LetIn(op("add", Param("k", INT), num(1)), lambda v: op("mul", v, v)),
         {"k": 2}, 9),
        ("ite-true", If(Param("b", BOOL), num(1), num(2)), {"b": True}, 1),
        ("ite-false", If(Param("b", BOOL), num(1), num(2)), {"b": False}, 2),
        ("and-short-circuit", And(Param("b", BOOL), op("eq", op("attr", Param("c", CARD), T),
                                                       num(0))), {"b": False, "c": 7}, False),
        ("shared-subterm", op("add", op("count", Param("s", CARDS)),
                              op("count", Param("s", CARDS))), {"s": 0b111}, 6),
    ]
    return out


@pytest.mark.parametrize("label, node, env, expected", _quant_examples(),
                         ids=[x[0] for x in _quant_examples()])
def test_binder_examples_in_both_backends(label, node, env, expected):
    assert reference_eval(node, env) == expected
    assert generated_eval(node, env) == expected


@pytest.mark.parametrize("p, d, s", [(1, 0, 0b1111), (1, 0, 0b0001), (-1, 0, 0b1111)])
def test_next_in_with_direction_zero_agrees(p, d, s):
    """Off the rulebook's path (dir is always +1/-1), but both backends must still agree."""
    node = op("next_in", Const(p, PLAYER), Const(d, INT), Const(s, PLAYERS))
    dyn = op("next_in", Param("p", PLAYER), Param("d", INT), Param("s", PLAYERS))
    env = {"p": p, "d": d, "s": s}
    assert reference_eval(node) == generated_eval(node) == reference_eval(dyn, env) \
        == generated_eval(dyn, env)


def test_map_constants_compile():
    node = op("get", Const((4, 5, 6, 7), map_of(INT)), Const(2, PLAYER))
    assert reference_eval(node) == 6
    assert generated_eval(node) == 6
