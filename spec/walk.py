"""One contract for every walk over the expression AST: a case per node type and
per operator, checked when the walker's class is defined.

Every backend reads the spec by walking its expressions (``spec/ast.py``): the
reference evaluator, the engine compiler and its packed and batch variants,
the Z3 encoding, the simplifier and the partial evaluator.  Each is a
``Walker``, a class with one method ``on_<Node>`` per node type (``on_Const``
... ``on_Call``), and where it reads operators an ``OperatorTable``, whose
methods marked ``@handles("name", ...)`` give one case per operator of
``OPS``.  Both are looked up when the class is created (``__init_subclass__``):
a class that lacks a case fails there, with an ``IncompleteWalker`` naming the
class, what it lacks and the fix.  So a node type or an operator added to the
language stops every backend that does not handle it when its module is
imported, not at the first expression that uses it.

The anchors are Amaranth's ``ValueVisitor`` (an abstract ``on_<Node>`` per
node type) and pysmt's walkers (a function table built from an operator enum
with ``@handles`` when the class is made).  A subclass inherits its base's
cases and overrides any of them by defining the method again (a plain
override may call ``super()``), or by marking a method of its own with
``@handles``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from .ast import OPS, Bound, Call, Const, Ite, Let, Node, Op, Param, Primed, Quant, Var
from .errors import SpecError

#: every node type of the language, in the order ``spec/ast.py`` lists them
NODE_TYPES: tuple[type[Node], ...] = (Const, Var, Primed, Param, Bound, Op, Ite, Let, Quant, Call)

_F = TypeVar("_F", bound=Callable[..., Any])


class IncompleteWalker(SpecError):
    """A walker class lacks cases: ``walker`` is its qualified name, ``kind``
    "node type" or "operator", ``missing`` the names it lacks, ``fix`` what
    to write."""

    def __init__(self, walker: type, kind: str, missing: list[str], fix: str):
        self.walker = f"{walker.__module__}.{walker.__qualname__}"
        self.kind, self.missing, self.fix = kind, tuple(missing), fix
        plural = "s" if len(missing) > 1 else ""
        super().__init__(f"{self.walker} has no case for the {kind}{plural} "
                         f"{', '.join(missing)}: {fix}")


def handles(*ops: str) -> Callable[[_F], _F]:
    """Mark a method of an ``OperatorTable`` as the case of the operators ``ops``
    (an unknown name fails here, where it is written)."""
    unknown = [o for o in ops if o not in OPS]
    if unknown or not ops:
        raise SpecError(f"@handles{ops}: not operators of spec.ast.OPS: {unknown or 'none given'}")

    def mark(fn: _F) -> _F:
        fn.handles = tuple(getattr(fn, "handles", ())) + ops  # type: ignore[attr-defined]
        return fn
    return mark


def all_but(*ops: str) -> tuple[str, ...]:
    """Every operator of ``OPS`` except ``ops``, for a case that handles the rest
    (``@handles(*all_but("and", "or"))``, as pysmt writes ``ALL - {AND, OR}``)."""
    unknown = [o for o in ops if o not in OPS]
    if unknown:
        raise SpecError(f"all_but{ops}: not operators of spec.ast.OPS: {unknown}")
    return tuple(o for o in OPS if o not in ops)


class Walker:
    """A walk over the AST: one method ``on_<Node>(self, node, ...)`` per node
    type of ``NODE_TYPES``, found when a subclass is defined (a missing one is
    an ``IncompleteWalker`` then).  ``visit(node, ...)`` calls the case of
    ``node``'s type with the extra arguments; ``node_cases`` is the table, for
    a walker that dispatches in a hot loop of its own."""

    node_cases: ClassVar[dict[type, Callable[..., Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        missing = [t.__name__ for t in NODE_TYPES
                   if not callable(getattr(cls, f"on_{t.__name__}", None))]
        if missing:
            raise IncompleteWalker(cls, "node type", missing,
                                   f"define on_{missing[0]}(self, node, ...) (a Walker has one "
                                   "method per node type of spec.ast: "
                                   + ", ".join(t.__name__ for t in NODE_TYPES) + ")")
        cls.node_cases = {t: getattr(cls, f"on_{t.__name__}") for t in NODE_TYPES}

    def visit(self, node: Node, *args: Any) -> Any:
        """The case of ``node``'s type, called with ``args``."""
        return self.node_cases[type(node)](self, node, *args)


class OperatorTable:
    """One case per operator of ``OPS``: the methods marked ``@handles``,
    collected when a subclass is defined (a missing operator is an
    ``IncompleteWalker`` then).  ``op_cases[name]`` is the function of operator
    ``name``, called with the instance first."""

    op_cases: ClassVar[dict[str, Callable[..., Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names: dict[str, str] = {}  # operator -> the name of its method
        for klass in reversed(cls.__mro__):  # a subclass's marks after its bases'
            for attr, value in vars(klass).items():
                for o in getattr(value, "handles", ()):
                    names[o] = attr
        missing = [o for o in OPS if o not in names]
        if missing:
            raise IncompleteWalker(cls, "operator", missing,
                                   f"mark a method @handles({missing[0]!r}) (an OperatorTable "
                                   "has a case for every operator of spec.ast.OPS)")
        cls.op_cases = {o: getattr(cls, attr) for o, attr in names.items()}


__all__ = ["Walker", "OperatorTable", "handles", "all_but", "IncompleteWalker", "NODE_TYPES"]
