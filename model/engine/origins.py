"""Where the generated code comes from: each fragment's rule id and spec source line.

The compilers (the engine here, the packed and batch successor code in
``model/search/``) write a comment above each fragment of a rule they emit,
``# pride.timing.simultaneous (spec/rules/options.py:507)``, so a line of the
generated code reads back to the rule that made it (``itcp-check rules
--dump-engine``).  A fragment is a rule's guard of an action, or its update
of a variable (its condition and its new value).  The engine compiler labels
each such node of an action (``Origins.of_actions``: where one node serves
several rules, all of them); the successor compilers, which compile the
action specialised to what a dispatch class knows, label each guard and each
new value with the rules that make it (``Origins.guard``,
``Origins.update``).

The line is the rule's (``Rule.src_loc``) where the rule records it, else
where the fragment's expression was written (every AST node remembers it);
the path is relative to the package (``spec/rules/...``), never a path of
the machine the code was generated on.  A comment changes nothing the code
does.
"""
from __future__ import annotations

import functools
import os

from itcp.spec import ast as A
from itcp.spec.ast import Node, SrcLoc
from itcp.spec.lang import AssembledAction, Guard, Rule, Spec, Update

#: the folder holding the package's layers (``spec/``, ``model/``, ...)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(A.__file__)))


@functools.lru_cache(maxsize=256)
def shown_path(filename: str) -> str:
    """``filename`` relative to the package (``spec/rules/options.py``); a file
    outside it (a test's rules) by its name alone; ``<builtin>`` as it is."""
    if filename.startswith("<") or not os.path.isabs(filename):
        return filename  # a rule's own record is relative to the package already
    path = os.path.abspath(filename)
    if path.startswith(ROOT + os.sep):
        return os.path.relpath(path, ROOT).replace(os.sep, "/")
    return os.path.basename(path)


def shown_loc(loc: SrcLoc | None) -> str:
    """``path:line`` of a source location."""
    if loc is None:
        return "?"
    return f"{shown_path(loc[0])}:{loc[1]}"


class Origins:
    """The comment labels of one spec's fragments: ``rule.id (path:line)``."""

    def __init__(self, spec: Spec):
        self.rules = {r.id: r for r in spec.rules}
        self._labels: dict[tuple[str, str, str | None], str] = {}

    def label(self, rid: str, action: str, var: str | None = None) -> str:
        """The label of rule ``rid``'s guard of ``action`` (``var`` None) or its
        update of ``var`` there."""
        key = (rid, action, var)
        got = self._labels.get(key)
        if got is None:
            rule = self.rules.get(rid)
            loc = None if rule is None else getattr(rule, "src_loc", None) or _fragment_loc(
                rule, action, var)
            got = self._labels[key] = rid if loc is None else f"{rid} ({shown_loc(loc)})"
        return got

    def guard(self, act: AssembledAction) -> str:
        """The rules whose guards make ``act``'s guard."""
        return ", ".join(self.label(rid, act.name) for rid, _ in act.guards)

    def update(self, act: AssembledAction, var: str) -> str:
        """The rules whose updates make ``act``'s new value of ``var``."""
        return ", ".join(self.label(rid, act.name, var) for rid, *_ in act.updates.get(var, ()))

    def of_actions(self, *acts: AssembledAction) -> dict[Node, str]:
        """Each fragment node of the actions (a guard, an update's condition
        and new value) -> the labels of the rules it belongs to (a rule's
        first fragment there names it)."""
        labels: dict[Node, dict[str, str]] = {}

        def add(node: Node, rid: str, action: str, var: str | None = None) -> None:
            got = labels.setdefault(node, {})
            if rid not in got:
                got[rid] = self.label(rid, action, var)
        for act in acts:
            for rid, g in act.guards:
                add(g, rid, act.name)
            for var, ups in act.updates.items():
                for rid, when, value, _ in ups:
                    add(when, rid, act.name, var)
                    add(value, rid, act.name, var)
        return {node: ", ".join(got.values()) for node, got in labels.items()}


def _fragment_loc(rule: Rule, action: str, var: str | None) -> SrcLoc | None:
    """Where the rule's fragment was written: its guard's expression, or its
    update's new value (else its condition); else where any fragment of the
    rule was (a fragment that is a built-in constant was written nowhere)."""
    mine: list[SrcLoc] = []
    others: list[SrcLoc] = []
    for f in rule.fragments:
        if isinstance(f, Guard):
            nodes, is_mine = [f.expr], var is None and action in f.actions
        elif isinstance(f, Update):
            nodes, is_mine = [f.value, f.when], f.var == var and action in f.actions
        else:
            nodes, is_mine = [f.body], False
        (mine if is_mine else others).extend(n.src_loc for n in nodes)
    return next((loc for loc in mine + others if not loc[0].startswith("<")), None)


def comment_above(lines: list[str], at: int, indent: str, label: str) -> None:
    """Put ``# label`` above ``lines[at:]``, the lines a fragment was just
    compiled to (nothing when it needed none: its code is inline elsewhere;
    nor when a fragment inside it, compiled first, has the same label)."""
    comment = f"{indent}# {label}"
    if label and len(lines) > at and lines[at] != comment:
        lines.insert(at, comment)


__all__ = ["Origins", "comment_above", "shown_loc", "shown_path"]
