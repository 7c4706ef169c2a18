"""Properties are decided by their kind, never by their id: outside spec/, no
module of the package compares a property's id, keys a table by one, or keeps
a list of them (spec/properties.py says each property's ``Kind``; the checkers
register one decider per kind)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from itcp.checks.explicit.verdicts import DECIDERS as EXPLICIT
from itcp.checks.symbolic.checker import DECIDERS as SYMBOLIC
from itcp.scenarios.watch import WATCHES
from itcp.spec.properties import PROPERTIES, Kind, property_ids

REPO = Path(__file__).resolve().parent.parent
#: the package's folders outside spec/
FOLDERS = ("model", "scenarios", "checks", "report", "cli")


def _constants(node) -> list[ast.Constant]:
    """The string constants ``node`` is, or holds as a literal collection's items."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [x for x in node.elts if isinstance(x, ast.Constant) and isinstance(x.value, str)]
    return []


def id_uses(source: str, ids) -> list[tuple[int, str]]:
    """(line, id) of each property id ``source`` compares (``==``, ``in``, ...),
    keys a dict or a subscript by, matches on, or lists in a literal collection."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            held = [c for x in (node.left, *node.comparators) for c in _constants(x)]
        elif isinstance(node, ast.Dict):
            held = [k for k in node.keys if k is not None for k in _constants(k)]
        elif isinstance(node, ast.Subscript):
            held = _constants(node.slice)
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            held = _constants(node)
        elif isinstance(node, ast.MatchValue):
            held = _constants(node.value)
        else:
            continue
        found += [(c.lineno, c.value) for c in held if c.value in ids]
    return sorted(set(found))


def _modules():
    for folder in FOLDERS:
        yield from sorted((REPO / folder).rglob("*.py"))


@pytest.mark.parametrize("path", list(_modules()), ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_module_outside_spec_switches_on_a_property_id(path):
    uses = id_uses(path.read_text(encoding="utf-8"), set(property_ids()))
    assert not uses, (f"{path.relative_to(REPO)} names property ids "
                      + ", ".join(f"{pid} (line {line})" for line, pid in uses)
                      + ": decide by the property's kind (spec/properties.py Kind)")


@pytest.mark.parametrize("snippet", [
    'if pid == "NO_DEADLOCK": pass',
    'ok = "ROUND_ENDS" in wanted',
    'x = p.id != "HAND_BOUNDS"',
    'checks = {"DETERMINED": f}',
    'v = verdicts["FROZEN"]',
    'GRAPH = ("NO_DEADLOCK", "ROUND_ENDS")',
    'ok = pid in ["CONSERVATION", "X"]',
    'match pid:\n    case "ZERO_STOPS":\n        pass',
])
def test_the_scan_finds_each_way_of_switching_on_an_id(snippet):
    assert id_uses(snippet, set(property_ids()))


def test_the_scan_leaves_prose_and_messages_alone():
    source = ('"""NO_DEADLOCK is decided by its kind."""\n'
              'note = f"{pid}: ROUND_ENDS violated"\n'
              'text = "see itcp-check check, ROUND_ENDS"\n'
              'fail(p.id, "why")\n')
    assert id_uses(source, set(property_ids())) == []


def test_every_property_has_a_kind_and_every_kind_a_decider():
    assert all(isinstance(d.kind, Kind) for d in PROPERTIES)
    assert set(EXPLICIT) == set(Kind)
    assert set(SYMBOLIC) == {k for k in Kind if not k.has_formula}
    # one trace decides the formulas, deadlocks and loops, not the properties of
    # every state at once
    assert set(WATCHES) == {Kind.STATE, Kind.STEP, Kind.NO_DEADLOCK, Kind.ENDS_AFTER}
