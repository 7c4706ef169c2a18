"""The visitor contract (``spec/walk.py``): a walker lacking a case for a node
type or an operator fails when its class is defined, naming the class, what
it lacks and the fix; and every backend that reads the AST is such a walker,
so growing the language stops each of them at once."""
from __future__ import annotations

import importlib
import pkgutil

import pytest

from itcp.model.analysis.specialise import MapRules
from itcp.model.engine.codegen import FunctionEmitter
from itcp.model.engine.reference import Evaluator
from itcp.model.engine.steprules import _Tracing
from itcp.model.search.packed import PackedEmitter
from itcp.model.search.vectorized import VEmitter
from itcp.model.smt.ops import Operators
from itcp.model.smt.translate import Translator
from itcp.report.english import English
from itcp.scenarios.replay import _Blame
from itcp.spec import ast as A
from itcp.spec import walk
from itcp.spec.errors import SpecError
from itcp.spec.semantics import Semantics
from itcp.spec.simplify import Simplifier
from itcp.spec.walk import (
    NODE_TYPES,
    IncompleteWalker,
    OperatorTable,
    Walker,
    all_but,
    handles,
)

#: every walker of the AST in the package (the rule tracer of ``steprules`` and the
#: blame of ``replay`` are the reference evaluator calling definitions; ``English``
#: says a rule in words), and the operator tables outside them
WALKERS = [Evaluator, _Tracing, _Blame, FunctionEmitter, PackedEmitter, VEmitter, Translator,
           Simplifier, MapRules, English]
TABLES = WALKERS + [Semantics, Operators]


#: a case ``on_<Node>`` for every node type, each giving the node type's name
Named = type("Named", (), {f"on_{t.__name__}": (lambda self, node, name=t.__name__: name)
                           for t in NODE_TYPES})


def test_a_walker_lacking_a_node_type_fails_when_defined():
    with pytest.raises(IncompleteWalker) as caught:
        class Partial(Walker):
            def on_Const(self, node):
                return node.value
    err = caught.value
    assert err.kind == "node type" and "Quant" in err.missing and "Const" not in err.missing
    assert "Partial has no case for the node types Var, Primed" in str(err)
    assert "define on_Var(self, node, ...)" in str(err)


def test_a_table_lacking_an_operator_fails_when_defined():
    with pytest.raises(IncompleteWalker) as caught:
        class Arithmetic(OperatorTable):
            @handles("add", "sub")
            def infix(self, node):
                return node
    err = caught.value
    assert err.kind == "operator" and set(err.missing) == set(A.OPS) - {"add", "sub"}
    assert "Arithmetic has no case for the operators and, or, not" in str(err)
    assert "mark a method @handles('and')" in str(err)


def test_an_unknown_operator_fails_where_it_is_named():
    with pytest.raises(SpecError, match="frobnicate"):
        handles("add", "frobnicate")
    with pytest.raises(SpecError, match="none given"):
        handles()
    with pytest.raises(SpecError, match="frobnicate"):
        all_but("frobnicate")
    assert set(all_but("and", "or")) == set(A.OPS) - {"and", "or"}


def test_a_complete_walker_dispatches_on_node_type_and_operator():
    class Names(Named, Walker, OperatorTable):
        @handles(*all_but("add"))
        def other(self, node):
            return f"op {node.op}"

        @handles("add")
        def add(self, node):
            return "plus"

        def on_Op(self, node):
            return self.op_cases[node.op](self, node)

    x = A.Var("x", A.INT)
    assert Names().visit(x) == "Var"
    assert Names().visit(x + 1) == "plus"
    assert Names().visit(x - 1) == "op sub"


def test_a_subclass_overrides_a_case_and_keeps_the_others():
    class Base(OperatorTable):
        @handles(*A.OPS)
        def any_op(self, node):
            return "base"

    class Both(Base):
        @handles("not")
        def negation(self, node):
            return "own"

    class Again(Base):
        def any_op(self, node):  # a plain override of the base's case
            return "again"

    assert Both.op_cases["not"](Both(), None) == "own"
    assert Both.op_cases["and"](Both(), None) == "base"
    assert Again.op_cases["and"](Again(), None) == "again"


def test_every_walker_of_the_package_is_checked_here():
    for layer in ("spec", "model", "scenarios", "checks", "report", "cli"):
        package = importlib.import_module(f"itcp.{layer}")
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)

    def below(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)
    mine = {c for c in below(Walker) if c.__module__.startswith("itcp.")}
    assert mine == set(WALKERS)
    assert {c for c in below(OperatorTable) if c.__module__.startswith("itcp.")} == set(TABLES)


@pytest.mark.parametrize("backend", TABLES, ids=lambda c: c.__name__)
def test_a_new_operator_stops_every_backend_when_defined(monkeypatch, backend):
    monkeypatch.setitem(A.OPS, "frobnicate", A.Sig([A.INT], A.INT, "not handled anywhere"))
    with pytest.raises(IncompleteWalker, match=f"{backend.__name__}Again has no case for the "
                                               "operator frobnicate"):
        type(f"{backend.__name__}Again", (backend,), {})


class Frob(A.Node):
    """A node type no backend knows."""


@pytest.mark.parametrize("backend", WALKERS, ids=lambda c: c.__name__)
def test_a_new_node_type_stops_every_walker_when_defined(monkeypatch, backend):
    monkeypatch.setattr(walk, "NODE_TYPES", NODE_TYPES + (Frob,))
    with pytest.raises(IncompleteWalker, match="has no case for the node type Frob: "
                                               "define on_Frob"):
        type(f"{backend.__name__}Again", (backend,), {})
