"""The generated code points back to its rules: each fragment the compilers
emit (the engine, the packed and the batch successor code) is under a comment
with its rule id and its spec source line (``model/engine/origins.py``), the
path relative to the package; and the comments change nothing else: without
them the same code is generated, to the character."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from itcp.checks.explicit.explore import BatchBackend, search_setup
from itcp.model.engine import codegen, origins
from itcp.model.engine.codegen import generate
from itcp.model.engine.engine import Game, build_spec
from itcp.model.search import packed, tidy, vectorized
from itcp.model.search.packed import PackedSource
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

CFG = Config(players=3, suits=1, ranks=(2, 3), hand=1,
             options=(("pride_cycle", 1), ("mercy", 1), ("justice", 1)))
#: a smaller table for the packed code (a function per dispatch class: many at 3 seats)
SMALL = Config(players=2, suits=1, ranks=(2, 2), hand=1, options=(("pride_cycle", 1),))
#: a comment line: ``# [var': | action: | guard: ]rule (path:line), ...``
LABEL = r"[\w.]+ \((spec|tests)/[\w/]+\.py:\d+\)|[\w.]+ \(<builtin>:0\)"
COMMENT = re.compile(rf"^\s*# (?:[\w]+'?: )?(?:{LABEL})(?:, (?:{LABEL}))*$")


@pytest.fixture(scope="module")
def spec():
    return build_spec(CFG, dict(load_variant("clarified").readings))


def _comments(source: str) -> list[str]:
    return [line for line in source.splitlines() if line.lstrip().startswith("# ")]


def _code(source: str) -> list[str]:
    return [line for line in source.splitlines() if not line.lstrip().startswith("#")]


def _rule_ids(comment: str) -> list[str]:
    return re.findall(r"([\w.]+) \(", comment)


def test_a_path_is_shown_relative_to_the_package():
    assert origins.shown_path(packed.__file__) == "model/search/packed.py"
    assert origins.shown_path("/elsewhere/my_rules.py") == "my_rules.py"
    assert origins.shown_path("<builtin>") == "<builtin>"
    # a rule's own record (Rule.src_loc) is relative to the package already
    assert origins.shown_path("spec/rules/pride.py") == "spec/rules/pride.py"
    assert origins.shown_loc((codegen.__file__, 12)) == "model/engine/codegen.py:12"


def test_a_rule_that_records_its_line_is_labelled_with_it(spec):
    act = spec.action("pass")
    rid, _ = act.guards[0]
    made = origins.Origins(spec)
    assert re.fullmatch(rf"{re.escape(rid)} \(spec/rules/\w+\.py:\d+\)", made.label(rid, act.name))
    made.rules[rid] = SimpleNamespace(id=rid, src_loc=(origins.__file__, 7), fragments=())
    assert made.label(rid, "other") == f"{rid} (model/engine/origins.py:7)"


def test_the_engine_names_the_rules_above_their_fragments(spec):
    source = generate(spec)
    notes = _comments(source)
    assert notes and all(COMMENT.match(n) for n in notes), [
        n for n in notes if not COMMENT.match(n)][:3]
    known = {r.id for r in spec.rules}
    assert {rid for n in notes for rid in _rule_ids(n)} <= known
    give = source.split("def apply_give(s, a):")[1].split("\ndef ")[0]
    assert any("pride." in n for n in _comments(give))
    assert origins.ROOT not in source  # paths relative to the package, never this machine's


def test_the_comments_change_no_line_of_the_engine(spec, monkeypatch):
    with_comments = generate(spec)
    monkeypatch.setattr(codegen, "comment_above", lambda *args: None)
    assert _code(with_comments) == generate(spec).splitlines()


def test_the_comments_change_no_line_of_the_packed_code(monkeypatch):
    spec = build_spec(SMALL, dict(load_variant("clarified").readings))
    with_comments = PackedSource(spec, store=True, symmetric=True).build()
    notes = _comments(with_comments)
    assert any(re.match(r"\s*# \w+': ", n) for n in notes)  # a new value's rules
    assert any(re.match(r"\s*# give_nothing: pride\.", n) for n in notes)  # a guard's rules
    assert all(COMMENT.match(n) for n in notes if not n.lstrip().startswith("#:"))
    monkeypatch.setattr(packed, "comment_above", lambda *args: None)
    plain = PackedSource(spec, store=True, symmetric=True).build()
    assert _code(with_comments) == _code(plain)
    assert len(_comments(plain)) == 0


def test_the_comments_change_no_line_of_the_batch_code(spec, monkeypatch):
    def batch_source():
        game = Game(spec)
        red, layout, _, _ = search_setup(game, True)
        mod = BatchBackend(game, red, layout, True).mod
        for x in sorted({x for x in range(1 << 8) if x & ~layout.dispatch_mask == 0})[:40]:
            mod.succ(x)
        return mod.source
    with_comments = batch_source()
    assert any(re.match(r"\s*# guard: ", n) for n in _comments(with_comments))
    monkeypatch.setattr(vectorized, "comment_above", lambda *args: None)
    assert _code(with_comments) == _code(batch_source())


BODY = """\
# one
x = f(k)
# two
y = x + 1
# dead
z = 3
if c:
    a = 1
else:
    # three
    if d:
        a = 2
    else:
        a = 3
out.append(y + a)
"""


def test_tidying_keeps_each_comment_above_what_its_code_became():
    lines = tidy.render(tidy.peephole(tidy.parse_body(BODY.splitlines())), "")
    assert lines == [
        "# one",  # x folded into y, and y into its one reader: their comments with them
        "# two",
        "# dead",  # z went: its comment to the statement after it
        "# three",  # the branches became one expression, folded in the same way
        "out.append(f(k) + 1 + (1 if c else 2 if d else 3))",
    ]


def test_a_comment_above_an_elif_stays_inside_it():
    body = ["if c:", "    a = 1", "else:", "    # why", "    if d:", "        a = 2"]
    lines = tidy.render(tidy.parse_body(body), "")
    assert lines == ["if c:", "    a = 1", "elif d:", "    # why", "    a = 2"]
