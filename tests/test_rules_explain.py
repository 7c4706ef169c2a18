"""``itcp-check rules --explain RULE``: one rule read beside its text.

The rule's sentences quoted from the rulebook, its choice point with the
readings and why the literal one is literal, where it is written (the line of
its ``rule(...)`` call), the actions it touches, directly or through the
definitions it gives, and its fragments as the spec language prints them.  A
rule id that does not exist exits 2 with a "did you mean".
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from itcp.cli.rules_cmd import actions_touched, explain
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.config import Config
from itcp.spec.rulebook import SENTENCES
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import load_variant

REPO = Path(__file__).resolve().parent.parent


def _line_of(path: str, rule_id: str) -> int:
    text = (REPO / path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(text, 1) if f'rule("{rule_id}"' in line)


def _itcp(*args, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, "-m", "itcp.cli.main", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def test_explain_in_a_real_process(tmp_path):
    r = _itcp("rules", "--explain", "pride.timing.simultaneous", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    line = _line_of("spec/rules/pride.py", "pride.timing.simultaneous")
    assert out.startswith(f"Rule pride.timing.simultaneous  (spec/rules/pride.py:{line})\n"
                          "Everyone chooses a card first;")
    assert "In variant official: included (pride.timing = simultaneous)" in out
    # the sentence, quoted from the rulebook (wrapped: compare the words)
    assert f'pride.1  "{SENTENCES["pride.1"]}"'.split() == \
        out.split("Sentences\n")[1].split("\n\n")[0].split()
    cp = CHOICE_POINTS["pride.timing"]
    assert f"Choice point pride.timing: {cp.question}" in out
    assert ">  simultaneous  simultaneously: everyone chooses before receiving (literal)" in out
    assert "in_turn       in turn order" in out
    why = out.split("Why simultaneous is the literal reading: ")[1].split("\n\n")[0]
    assert why.split() == cp.why.split()
    assert "  by its guards and updates: give, give_nothing\n" in out
    assert "The rule in the spec language (6 fragments)\n  update pride_left in give, " \
           "give_nothing\n    := (without pride_left actor)\n" in out


def test_an_unknown_rule_exits_2_with_did_you_mean(tmp_path):
    r = _itcp("rules", "--explain", "pride.timing.simultanous", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: --explain: unknown rule 'pride.timing.simultanous'")
    assert "hint: did you mean 'pride.timing.simultaneous'?" in r.stderr
    assert "Traceback" not in r.stderr
    r = _itcp("rules", "--explain", "pride.open", "--json", cwd=tmp_path)
    assert r.returncode == 2 and "choose at most one of" in r.stderr


def test_a_definition_rule_touches_actions_through_its_definitions():
    v = load_variant("official")
    text = explain(v, "pride.passer.skipped")
    assert "In variant official: not included (it reads pride.passer = gives_not_receives)" \
        in text
    assert ">  skipped" in text
    assert "  by its guards and updates: (none)\n" in text
    # who gives decides whether a discard (or an answer, or the first card) opens the gifts
    assert "  through its definitions: reveal, answer, discard, give, give_nothing\n" in text
    # a definition is printed with its signature's parameter names
    assert "  define pride_givers(ring, passers, dir)\n    = (diff ring passers)\n" in text
    assert "  define pride_to(giver, ring, passers, dir)\n" \
           "    = (next_in giver dir (diff ring passers))" in text


def test_a_rule_of_no_reading():
    text = explain(load_variant("official"), "pride.open")
    assert "In variant official: included (it belongs to no reading)" in text
    assert "Choice point: none (the rule holds under every reading)" in text
    assert "  by its guards and updates: reveal, answer, discard\n" in text
    assert "update phase in discard, priority 11\n    when (and " in text


def test_the_explanation_does_not_depend_on_what_was_built_before():
    """The AST numbers bound variables in the order the process made them;
    the explanation numbers them from 1, so it reads the same in every run."""
    v = load_variant("official")
    before = explain(v, "pride.timing.in_turn")
    build_ruleset(Config(players=2, suits=1, ranks=(2, 3), hand=1))  # more bound variables
    build_ruleset.cache_clear()
    after = explain(v, "pride.timing.in_turn")
    assert before == after
    assert "(setof (r1 (diff #players{0,1,2,3} aside))" in " ".join(before.split())
    assert not re.search(r"(?<![\w$#])[a-z]+[2-9]\b|(?<![\w$#])[a-z]+\d\d", before)


@pytest.mark.parametrize("rule_id", ["setup.deal", "game.end.threshold", "zero.when.after_move"])
def test_every_kind_of_rule_explains(rule_id):
    v = load_variant("clarified")
    text = explain(v, rule_id)
    r = next(r for r in build_ruleset(v.config).rules if r.id == rule_id)
    assert text.startswith(f"Rule {rule_id}  ({r.src_loc[0]}:{r.src_loc[1]})")
    direct, through = actions_touched(v, r)
    assert direct or through
