"""A rule in English (``report/english.py``), tested against the whole rule set: every
built-in rule renders, a rule's English names each action it touches, the words
come from the spec's declarations (a rule or a variable added to the spec reads in
English with no change to the renderer), and long formulas are summarised, never
cut."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from itcp.report.english import MAX_WORDS, English, RuleReader, same
from itcp.report.rulebook import reading_table
from itcp.spec import ast as A
from itcp.spec.errors import SpecError
from itcp.spec.lang import Define, Guard, Rule, StateVar, Update, signature
from itcp.spec.rules import build_ruleset
from itcp.spec.rules.vocabulary import Vocabulary
from itcp.spec.variants import DEFAULT_TABLE, load_variant

#: the variant's check table, with every option card (the rulebook's reading table)
CONFIG = reading_table(load_variant("official", DEFAULT_TABLE).config)


#: the operators whose names are not English words: an s-expression would show them
CODE_OPS = [o for o in A.OPS if o not in ("and", "or", "not", "with", "without", "top", "count",
                                          "step", "get", "put", "pop", "push")]


@pytest.fixture(scope="module")
def ruleset():
    return build_ruleset(CONFIG)


@pytest.fixture(scope="module")
def reader(ruleset):
    return RuleReader(ruleset)


def test_every_name_of_the_spec_has_its_english_declared_beside_it(ruleset):
    """The phrases live in spec/ (``says=``): every state variable, action, action
    parameter and definition signature has one."""
    assert [v.name for v in ruleset.variables if not v.says] == []
    assert [a.name for a in ruleset.actions if not a.says] == []
    assert [(a.name, p.name) for a in ruleset.actions for p in a.params if not p.says] == []
    assert [s.name for s in ruleset.signatures.values() if not s.says] == []
    for v in ruleset.variables:   # a map's phrase names one player's value
        assert ("{}" in v.says) == v.type.startswith("map["), v.name


def test_every_built_in_rule_renders(ruleset, reader):
    """Each rule says something, with nothing of the AST's own notation left in it:
    no numbered bound variable, no s-expression, no unfilled placeholder."""
    for r in ruleset.rules:
        text = reader.english(r).text()
        assert text.strip(), r.id
        leftover = re.findall(r"\b[a-z]+\d{2,}\b|[{}#$]|None\b|\((?:" + "|".join(CODE_OPS) + r") ",
                              text)
        assert leftover == [], (r.id, leftover, text[:300])


def test_a_rules_english_names_each_action_it_touches(ruleset, reader):
    """Every action a rule's guards and updates name is said, in the spec's own words
    for it (``ActionDecl.says``); a rule giving definitions says when they are read."""
    says = {a.name: a.says for a in ruleset.actions}
    for r in ruleset.rules:
        text = reader.english(r).text()
        touched = {a for f in r.fragments if isinstance(f, (Guard, Update)) for a in f.actions}
        for a in touched:
            assert says[a].lower() in text.lower(), (r.id, a)
        if any(isinstance(f, Define) for f in r.fragments):
            assert "It is read " in text, r.id


def test_a_rule_without_fragments_says_so(ruleset, reader):
    empty = [r for r in ruleset.rules if not r.fragments]
    assert empty
    for r in empty:
        assert "adds no guard, update or definition" in reader.english(r).text()


def test_long_formulas_are_summarised_by_what_they_read(ruleset, reader):
    """The largest rule is said in statements of bounded length, its deepest parts
    summarised by the state they read (never cut mid-formula)."""
    biggest = max(ruleset.rules, key=lambda r: sum(
        sum(1 for _ in A.walk(e)) for f in r.fragments
        for e in ([f.expr] if isinstance(f, Guard) else [f.value, f.when]
                  if isinstance(f, Update) else [f.body])))
    eng = reader.english(biggest)
    items = [x for st in eng.statements for x in st.items]
    assert any("worked out from" in x or "a condition on" in x for x in items)
    longest = max(len(x.split()) for r in ruleset.rules for st in reader.english(r).statements
                  for x in st.items)
    assert longest <= 2 * MAX_WORDS


def test_a_new_rule_and_variable_read_in_english_with_no_change_here(ruleset):
    """The renderer knows no rule: a house rule with a new state variable and a new
    definition reads in the phrases they declare."""
    count = StateVar("pass_count", A.INT, "Passes said", says="the Passes said this game")
    sig = signature("may_pass_again", A.BOOL, said=A.INT, says="a player may pass again after {said}")
    house = Rule("house.one_pass", ("pass.1",), "A player may Pass once per game.", (
        Guard(("pass",), A.Call("may_pass_again", (count.cur,), A.BOOL)),
        Update(("pass",), "pass_count", count.cur + 1),
        sig.define(lambda said: said < 1)))
    rs = replace(ruleset, variables=ruleset.variables + (count,), rules=(house,),
                 signatures={**ruleset.signatures, sig.name: sig})
    text = RuleReader(rs).english(house).text()
    assert "A player says Pass only if a player may pass again after the Passes said this game" \
        in text
    assert "set the Passes said this game to the Passes said this game plus 1" in text
    assert "A player may pass again after <said> when <said> is less than 1" in text


def test_a_phrase_naming_no_parameter_fails_where_it_is_declared():
    with pytest.raises(SpecError, match="names 'hnad', not a parameter"):
        signature("points_of", A.INT, hand=A.CARDS, says="the points of {hnad}")


def test_the_readings_a_definition_depends_on_are_named_at_its_call(ruleset, reader):
    """A definition the readings of one choice point give is said "as <it> reads it"."""
    r = next(r for r in ruleset.rules if r.id == "pride.open")
    assert "(as pride.passer reads it)" in reader.english(r).text()


def test_shared_expressions_are_named_up_to_their_bound_variables():
    """An expression the spec names (``named_expressions``) is recognised wherever it
    occurs, though each use binds fresh variables."""
    t = Vocabulary(CONFIG)
    one, two = t.ring(t.hand_of, t.aside), t.ring(t.hand_of, t.aside)
    assert one != two            # fresh bound variables: not structurally equal
    assert same(one, two)
    assert not same(one, t.ring(t.hand_of_, t.aside))
    reader = RuleReader(build_ruleset(CONFIG))
    said = reader.said(A.op("count", two), {})
    assert said == "the number of the seats in the rotation"


def test_english_is_checked_as_a_walker():
    """Every node type and operator has its case (``spec/walk.py``)."""
    assert set(English.op_cases) == set(A.OPS)
