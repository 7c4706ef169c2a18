"""What the layers above derive from a spec (or a game), kept beside it: one
typed record per kind.

A backend derives much from the rules alone (the actions specialised at each
phase, the values every reachable state may hold, the search's compiled
code), and wants it once per spec, not once per call.  Each layer declares
what it keeps as a record class of its own, a dataclass whose fields have
defaults (``model/analysis/specialise.py``'s ``Specialisations``, say), and
asks ``spec.derived.record(Specialisations)`` for it: the record is made on
first use and the same object is given to every later caller.  So no layer
names another's artefacts, every field has a type, and the spec layer knows
none of them.

``Spec.derived`` follows the sharing rules of ``Spec`` (``spec/lang.py``): a
spec given more properties shares it with its base spec, any other change
starts afresh.
"""
from __future__ import annotations

from typing import Any, TypeVar

R = TypeVar("R")


class Derived:
    """The records derived from one owner, one per record class."""

    __slots__ = ("_records",)

    def __init__(self) -> None:
        self._records: dict[type, Any] = {}

    def record(self, kind: type[R]) -> R:
        """The owner's record of class ``kind`` (made by ``kind()`` on first use)."""
        got = self._records.get(kind)
        if got is None:
            got = self._records[kind] = kind()
        return got

    def __repr__(self) -> str:
        return f"Derived({', '.join(k.__name__ for k in self._records)})"


__all__ = ["Derived"]
