"""Mutants of the spec: each changes one rule fragment of the rule set.

A *mutant* is a small, deliberate error in one rule: a guard dropped or
negated, an update's condition negated, an update dropped (the frame then
keeps the variable), a seat shifted by one, a reading's definition given
another reading's body.  The operators are generic: they act on the spec
language's data structures (``Rule``, ``Guard``, ``Update``, ``Define``, the
expression AST), never on a rule by name, so a rule added to the spec gets
its mutants without a change here.

A mutant is named without reference to a table, so the same mutant can be
applied at every table a check runs at (the rule set is built per table):

* the rule, by id;
* the fragment, by what it contributes (``guard[draw_pile]``,
  ``update[discard].turn@0``: actions, variable and priority; ``define.points_of``),
  which the tests show to be unique within a rule and the same at every table;
* for a seat shift, the *spot*: the expression's part of the fragment, the
  node's place under its parent and its shape (its head and its children's
  heads, bound names by role).  Nodes a loop in the spec code builds once per
  player or suit share a spot and are shifted together, as a change to that
  line of spec code would shift them all;
* for a reading swap, the rule of the other reading whose body is used.

``mutant_spec`` elaborates the mutant at one table: ``None`` when the mutated
fragment compiles to exactly the spec the table already has (the rule is not
in the table's readings, or the change folds away there: trivially
equivalent at that table, so no check there can kill it), else the mutated
spec, which every backend compiles as usual.  Only the actions the fragment
reaches are elaborated again; the others are the base spec's own.
"""
from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass, replace
from typing import Any

from itcp.spec import ast as A
from itcp.spec.errors import SpecError
from itcp.spec.lang import Define, Guard, Not, Rule, RuleSet, Spec, Update, elaborate, included, num
from itcp.spec.rules.vocabulary import SCORE_INPUTS, score_of
from itcp.spec.simplify import simplify

#: The operators, in the order they are reported.
OPERATORS = ("drop_guard", "negate_guard", "negate_when", "drop_update", "shift_seat",
             "swap_reading")

OPERATOR_DOCS = {
    "drop_guard": "a guard fragment is removed (the action is allowed more often)",
    "negate_guard": "a guard fragment is negated",
    "negate_when": "an update's condition is negated (unconditional updates: see drop_update)",
    "drop_update": "an update is removed: the variable keeps its value (the frame) unless "
                   "another update of it applies",
    "shift_seat": "a player-valued expression p becomes step(p, 1), the next seat",
    "swap_reading": "a reading's definition is given the body another reading of the same "
                    "choice point gives it",
}


class NotApplicable(Exception):
    """The mutant's rule, fragment or spot does not exist at this table."""


@dataclass(frozen=True)
class Mutant:
    operator: str
    rule: str
    fragment: str          # the fragment's key (``fragment_key``)
    part: str = ""         # shift_seat: "expr", "value", "when" or "body"
    spot: str = ""         # shift_seat: the spot; swap_reading: the other reading's rule

    @property
    def id(self) -> str:
        tail = f" {self.part}:{self.spot}" if self.operator == "shift_seat" else \
            f" from {self.spot}" if self.spot else ""
        return f"{self.operator} {self.rule} {self.fragment}{tail}"

    def describe(self) -> str:
        what = {
            "drop_guard": f"drop the guard {self.fragment}",
            "negate_guard": f"negate the guard {self.fragment}",
            "negate_when": f"negate the condition of {self.fragment}",
            "drop_update": f"drop {self.fragment} (unchanged)",
            "shift_seat": f"in {self.fragment} ({self.part}), the seat {self.spot} + 1",
            "swap_reading": f"{self.fragment} with the body of {self.spot}",
        }[self.operator]
        return f"{self.rule}: {what}"


# -- naming fragments and spots ------------------------------------------------------

def fragment_key(f) -> str:
    if isinstance(f, Guard):
        return f"guard[{','.join(f.actions)}]"
    if isinstance(f, Update):
        return f"update[{','.join(f.actions)}].{f.var}@{f.priority}"
    if isinstance(f, Define):
        return f"define.{f.name}"
    raise SpecError(f"unknown fragment {f!r}")


def _parts(f) -> list[tuple[str, A.Node]]:
    """A fragment's expressions, by part name."""
    if isinstance(f, Guard):
        return [("expr", f.expr)]
    if isinstance(f, Update):
        return [("value", f.value), ("when", f.when)]
    if isinstance(f, Define):
        return [("body", f.body)]
    return []


def _with_part(f, part: str, expr):
    return replace(f, **{part: expr})


_DIGITS = re.compile(r"\d+$")


def _head(n: A.Node, names: dict) -> str:
    if isinstance(n, A.Const):
        if n.type == A.PLAYER:
            return "nobody" if n.value == A.NOBODY else "P"
        return "true" if n.value is True else "false" if n.value is False else f"#{n.type}"
    if isinstance(n, A.Var):
        return n.name
    if isinstance(n, A.Primed):
        return n.name + "'"
    if isinstance(n, A.Param):
        return "$" + n.name
    if isinstance(n, A.Bound):
        return names.get(n.name) or _DIGITS.sub("", n.name)
    if isinstance(n, A.Op):
        return n.op
    if isinstance(n, A.Ite):
        return "if"
    if isinstance(n, A.Let):
        return "let"
    if isinstance(n, A.Quant):
        return n.kind
    if isinstance(n, A.Call):
        return n.name
    return type(n).__name__


def _shape(n: A.Node, names: dict) -> str:
    kids = A.children(n)
    if not kids:
        return _head(n, names)
    return f"{_head(n, names)}({','.join(_head(k, names) for k in kids)})"


def _binders(n: A.Node, names: dict) -> dict:
    """``names`` with the variable ``n`` binds (a quantifier or let) named by its hint."""
    if isinstance(n, (A.Quant, A.Let)):
        return {**names, n.var.name: _DIGITS.sub("", n.var.name)}
    return names


def _initial_names(f) -> dict:
    """A definition's parameters are named by position (their own names are fresh)."""
    if isinstance(f, Define):
        return {p.name: f"arg{i}" for i, p in enumerate(f.params)}
    return {}


def _seat_nodes(expr: A.Node, names: dict):
    """(spot, node) for each player-valued node of ``expr`` worth shifting: not
    NOBODY, whose step is NOBODY again.  A node that occurs twice is given twice."""
    stack = [(expr, "root", names)]
    while stack:
        n, ctx, nm = stack.pop()
        if n.type == A.PLAYER and not (isinstance(n, A.Const) and n.value == A.NOBODY):
            yield f"{ctx}>{_shape(n, nm)}", n
        kids = A.children(n)
        inner = _binders(n, nm)
        head = _head(n, nm)
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], f"{head}.{i}", inner))


def _spots(f) -> dict:
    """(part, spot) -> the node objects there, for every part of fragment ``f``."""
    out: dict = {}
    names = _initial_names(f)
    for part, expr in _parts(f):
        for spot, n in _seat_nodes(expr, names):
            out.setdefault((part, spot), {})[id(n)] = n
    return out


def _shift(expr: A.Node, targets: dict, memo: dict) -> A.Node:
    """``expr`` with every node in ``targets`` (by identity) replaced by ``step(node, 1)``."""
    hit = memo.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1]
    kids = A.children(expr)
    out = expr
    if kids:
        new = tuple(_shift(k, targets, memo) for k in kids)
        if any(a is not b for a, b in zip(new, kids)):
            out = A.rebuild(expr, new)
    if id(expr) in targets:
        out = A.op("step", out, num(1))
    memo[id(expr)] = (expr, out)
    return out


# -- enumerating -------------------------------------------------------------------

def mutants_of(rs: RuleSet) -> list[Mutant]:
    """Every mutant of the rule set, in rule order, operators in ``OPERATORS`` order."""
    out: list[Mutant] = []
    by_reading: dict[str, list[Rule]] = {}
    for r in rs.rules:
        if r.choice is not None:
            by_reading.setdefault(r.choice, []).append(r)
    for r in rs.rules:
        shifted: set[int] = set()  # ids of the nodes an earlier spot of the rule shifts
        for f in r.fragments:
            key = fragment_key(f)
            if isinstance(f, Guard):
                out.append(Mutant("drop_guard", r.id, key))
                if not isinstance(f.expr, A.Const):  # negating a constant drops or keeps it
                    out.append(Mutant("negate_guard", r.id, key))
            elif isinstance(f, Update):
                if not isinstance(f.when, A.Const):
                    out.append(Mutant("negate_when", r.id, key))
                out.append(Mutant("drop_update", r.id, key))
            for (part, spot), nodes in _spots(f).items():
                if nodes.keys() - shifted:  # not an expression shifted before
                    shifted.update(nodes)
                    out.append(Mutant("shift_seat", r.id, key, part, spot))
            if isinstance(f, Define) and r.choice is not None:
                for other in by_reading[r.choice]:
                    if other.reading == r.reading:
                        continue
                    if any(isinstance(g, Define) and g.name == f.name for g in other.fragments):
                        out.append(Mutant("swap_reading", r.id, key, spot=other.id))
    return out


def mutants(rule_sets) -> list[Mutant]:
    """The union of the mutants of several rule sets (tables), each once, in
    first-seen order: a spot may exist only at some tables (a loop over suits
    or players with none to loop over)."""
    seen: dict[Mutant, None] = {}
    for rs in rule_sets:
        for m in mutants_of(rs):
            seen.setdefault(m, None)
    return list(seen)


# -- applying ----------------------------------------------------------------------

def _find(rs: RuleSet, rule_id: str) -> tuple[int, Rule]:
    for i, r in enumerate(rs.rules):
        if r.id == rule_id:
            return i, r
    raise NotApplicable(f"no rule {rule_id}")


def _fragment(rule: Rule, key: str) -> tuple[int, Any]:
    """(its index, the fragment): a Guard, Update or Define, as the operator expects."""
    for i, f in enumerate(rule.fragments):
        if fragment_key(f) == key:
            return i, f
    raise NotApplicable(f"rule {rule.id} has no fragment {key}")


def _renamed_body(target: Define, source: Define) -> A.Node:
    """``source``'s body over ``target``'s parameters."""
    return A.substitute(source.body, {s.name: t for s, t in zip(source.params, target.params)})


def mutated_rule(rs: RuleSet, m: Mutant) -> tuple[int, Rule]:
    """(the rule's index, the rule with the mutant's change); ``NotApplicable``
    if the rule set has no such rule, fragment or spot."""
    ri, rule = _find(rs, m.rule)
    fi, f = _fragment(rule, m.fragment)
    op = m.operator
    frags = list(rule.fragments)
    if op in ("drop_guard", "drop_update"):
        del frags[fi]
    elif op == "negate_guard":
        frags[fi] = replace(f, expr=Not(f.expr))
    elif op == "negate_when":
        frags[fi] = replace(f, when=Not(f.when))
    elif op == "shift_seat":
        targets = _spots(f).get((m.part, m.spot))
        if not targets:
            raise NotApplicable(f"no spot {m.spot} in {m.rule} {m.fragment} {m.part}")
        # the expression may be shared with other fragments of the rule (written
        # once in the spec's code): shifted wherever it occurs in the rule
        memo: dict = {}
        for i, g in enumerate(frags):
            new = {part: _shift(e, targets, memo) for part, e in _parts(g)}
            if any(new[p] is not e for p, e in _parts(g)):
                frags[i] = replace(g, **new)
    elif op == "swap_reading":
        _, other = _find(rs, m.spot)
        _, src = _fragment(other, m.fragment)
        frags[fi] = replace(f, body=_renamed_body(f, src))
    else:
        raise ValueError(f"unknown operator {op!r}")
    return ri, replace(rule, fragments=tuple(frags))


def apply(rs: RuleSet, m: Mutant) -> RuleSet:
    """The rule set with the mutant's change (``NotApplicable`` if it has no such spot)."""
    ri, rule = mutated_rule(rs, m)
    return replace(rs, rules=rs.rules[:ri] + (rule,) + rs.rules[ri + 1:])


# -- equivalent by form: at every table and readings ---------------------------------

def equivalent_by_form(rs: RuleSet, m: Mutant) -> str | None:
    """Why mutant ``m`` is the spec under every readings at ``rs``'s table, from
    the form of the rules alone, or None:

    * a reading swap whose two readings give the definition the same body (the
      readings differ elsewhere);
    * a seat shift that folds away at the table (the seat sits under a
      condition the rule builds constant, e.g. a card effect at a Pass), or that
      only reorders the operands of a union, intersection, conjunction,
      disjunction or sum: a node built once per seat and used for every seat
      (the cards of every live hand), shifted everywhere, names each seat's
      term under the next seat's name, and the whole is the same value.

    Why: such a mutant survives every check by construction (the fragment means
    the same under every readings, whatever the definitions it calls mean: the
    comparison inlines none of them).  The rule set is built per table and a
    body may depend on it (a reading that acts only at two players; the seats a
    loop runs over): ask at every table the claim is for.  Any other mutant:
    None (it may still be equivalent, by search or proof)."""
    if m.operator == "shift_seat":
        return _shift_keeps_value(rs, m)
    if m.operator != "swap_reading":
        return None
    try:
        _, rule = _find(rs, m.rule)
        _, f = _fragment(rule, m.fragment)
        _, other = _find(rs, m.spot)
        _, src = _fragment(other, m.fragment)
    except NotApplicable:
        return None
    if not _same(f.body, _renamed_body(f, src)):
        return None
    return (f"the readings {rule.reading} and {other.reading} of {rule.choice} give "
            f"{f.name} the same body")


#: Operators whose operands may be regrouped and taken in any order without
#: changing the value (sets: union, intersection; booleans: and, or; integers:
#: add).
_REORDERABLE = frozenset({"union", "inter", "and", "or", "add"})


def _definitions(rs: RuleSet) -> dict[str, list[Define]]:
    """Each definition's name -> every ``Define`` the rule set gives it (one per
    reading of its choice point, or the one of a rule without a choice)."""
    out: dict[str, list[Define]] = {}
    for r in rs.rules:
        for f in r.fragments:
            if isinstance(f, Define):
                out.setdefault(f.name, []).append(f)
    return out


def _shift_keeps_value(rs: RuleSet, m: Mutant) -> str | None:
    """``equivalent_by_form`` for a seat shift: each mutated part, folded at the
    table (seat arithmetic done), is the rule's own (``_alike``)."""
    try:
        ri, new = mutated_rule(rs, m)
    except NotApplicable:
        return None
    old = rs.rules[ri]
    pairs = [(f, g) for f, g in zip(old.fragments, new.fragments) if f is not g]
    if len(old.fragments) != len(new.fragments) or not pairs:
        return None
    bodies = _definitions(rs)
    how: set[str] = set()
    for f, g in pairs:
        if type(f) is not type(g):
            return None
        for (_, x), (_, y) in zip(_parts(f), _parts(g)):
            got = _alike(x, y, bodies, rs.config.players, _INLINE_ROUNDS)
            if got is None:
                return None
            how |= got
    inlined = sorted({h for h in how if h not in _HOW})
    ways = [_HOW[h] for h in _HOW if h in how]
    return ("the shifted seat " + " or ".join(ways)
            + (f", under every body a reading gives {', '.join(inlined)}" if inlined else ""))


#: How a shifted seat leaves a part's value as it was (``_alike``'s findings).
_HOW = {"folds": "folds away (it sits under a condition the rule fixes)",
        "reorders": "only reorders the operands of a union, intersection, conjunction, "
                    "disjunction or sum taken over the seats",
        "nobody": "is only compared with nobody (a seat moved on is nobody only if it was)"}

#: How deep ``_alike`` follows a changed call into the definitions it calls.
_INLINE_ROUNDS = 3
#: At most this many combinations of bodies per round (else: no reason).
_INLINE_COMBOS = 64


def _alike(x: A.Node, y: A.Node, bodies: dict, players: int, rounds: int) -> set[str] | None:
    """How ``x`` and ``y`` are the same value at a table with ``players`` seats
    (a subset of ``_HOW``'s keys, plus the definitions inlined), or None if this
    form cannot tell.  Where a call's arguments differ, its definition is
    inlined under every body the rule set gives it (each reading's: so the
    answer holds under every readings) and the bodies compared in turn."""
    x, y = simplify(x, players), simplify(y, players)
    if _same(x, y):
        return {"folds"}
    kx, ky = _unordered(x, {}), _unordered(y, {})
    if kx == ky:
        return {"reorders" if _unordered(x, {}, nobody=False) == _unordered(y, {}, nobody=False)
                else "nobody"}
    if rounds == 0:
        return None
    names = sorted(_changed_calls(x, y))
    if not names or any(n not in bodies for n in names):
        return None
    combos = list(itertools.product(*(bodies[n] for n in names)))
    if len(combos) > _INLINE_COMBOS:
        return None
    how = set(names)
    for combo in combos:
        env = dict(zip(names, combo))
        got = _alike(_inline(x, env), _inline(y, env), bodies, players, rounds - 1)
        if got is None:
            return None
        how |= got
    return how


def _changed_calls(x: A.Node, y: A.Node) -> set[str]:
    """The definitions called in one of ``x``, ``y`` with arguments the other
    never gives them."""
    mx: dict = {}
    my: dict = {}
    cx = {_unordered(n, mx): n.name for n in A.walk(x) if isinstance(n, A.Call)}
    cy = {_unordered(n, my): n.name for n in A.walk(y) if isinstance(n, A.Call)}
    return {cx.get(k) or cy[k] for k in cx.keys() ^ cy.keys()}


def _inline(n: A.Node, env: dict, memo: dict | None = None) -> A.Node:
    """``n`` with each call of a definition in ``env`` replaced by that body."""
    memo = {} if memo is None else memo
    hit = memo.get(id(n))
    if hit is not None and hit[0] is n:
        return hit[1]
    kids = A.children(n)
    new = tuple(_inline(k, env, memo) for k in kids)
    if isinstance(n, A.Call) and n.name in env:
        d = env[n.name]
        out = _inline(A.substitute(d.body, {p.name: a for p, a in zip(d.params, new)}), env, memo)
    elif kids and not all(a is b for a, b in zip(new, kids)):
        out = A.rebuild(n, new)
    else:
        out = n
    memo[id(n)] = (n, out)
    return out


def _unordered(n: A.Node, memo: dict, nobody: bool = True) -> str:
    """A key of ``n`` that is equal for two expressions equal up to the order and
    grouping of ``_REORDERABLE`` operands and of an equality's two sides (leaves
    keyed whole: kind, type, value or name).  With ``nobody``, a seat moved on by ``step`` and
    compared with nobody is keyed as the seat itself: ``step`` keeps nobody
    nobody and a seat a seat (spec/semantics.py)."""
    hit = memo.get(id(n))
    if hit is not None and hit[0] is n:
        return hit[1]
    kids = A.children(n)
    if not kids:
        out = repr((type(n).__name__, getattr(n, "type", ""), getattr(n, "value", None),
                    getattr(n, "name", None)))
    elif isinstance(n, A.Op) and n.op in _REORDERABLE:
        terms: list[str] = []
        for k in kids:  # a nested operand of the same operator is regrouped into this one
            terms.extend(_terms(k, n.op, memo, nobody))
        out = f"({n.op}* {' '.join(sorted(terms))})"
    elif isinstance(n, A.Op) and n.op in ("eq", "ne"):
        a, b = kids
        if nobody and _is_nobody(b):
            a, b = b, a
        if nobody and _is_nobody(a):
            while isinstance(b, A.Op) and b.op == "step":
                b = b.args[0]
        out = f"({n.op} {' '.join(sorted(_unordered(k, memo, nobody) for k in (a, b)))})"
    else:
        head = (type(n).__name__, getattr(n, "op", None), getattr(n, "name", None),
                getattr(n, "var", None), getattr(n, "kind", None))
        out = f"({head!r} {' '.join(_unordered(k, memo, nobody) for k in kids)})"
    memo[id(n)] = (n, out)
    return out


def _is_nobody(n: A.Node) -> bool:
    return isinstance(n, A.Const) and n.type == A.PLAYER and n.value == A.NOBODY


def _terms(n: A.Node, o: str, memo: dict, nobody: bool) -> list[str]:
    if isinstance(n, A.Op) and n.op == o:
        return [t for k in A.children(n) for t in _terms(k, o, memo, nobody)]
    return [_unordered(n, memo, nobody)]


# -- elaborating at one table --------------------------------------------------------

def _calls(expr: A.Node) -> set[str]:
    return {n.name for n in A.walk(expr) if isinstance(n, A.Call)}


def pinned_stem(mutant_id: str) -> str:
    """The file name (without ``.toml``) of the round pinned for a mutant
    (``tests/regression/``, written by ``tools/mutation/pin_mutants.py``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", mutant_id.lower()).strip("-")
    if len(slug) <= 120:
        return slug
    # a long id keeps its start and a hash of the whole: two ids alike in their
    # first 120 characters must not share a file
    return slug[:111] + "-" + hashlib.sha1(mutant_id.encode()).hexdigest()[:8]


def written_value(rs: RuleSet, m: Mutant) -> tuple[str, tuple] | None:
    """(variable, actions) of a mutant that changes only the value an update
    writes (the update dropped, its condition negated, a seat in it shifted),
    or None for any other mutant."""
    if m.operator not in ("drop_update", "negate_when", "shift_seat"):
        return None
    _, frag = _fragment(_find(rs, m.rule)[1], m.fragment)
    return (frag.var, tuple(frag.actions)) if isinstance(frag, Update) else None


def choices_read(rs: RuleSet, m: Mutant) -> list[str]:
    """The choice points whose readings define what mutant ``m``'s fragment reads
    (through definitions that call others), and for an update those whose rules
    read the variable it writes (those first): the readings under which the
    fragment's change is most likely to show."""
    _, rule = _find(rs, m.rule)
    _, frag = _fragment(rule, m.fragment)
    defs = _definitions(rs)
    todo = set().union(*(_calls(e) for _, e in _parts(frag)))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for d in defs.get(name, ()):
            todo |= _calls(d.body)
    called = {r.choice for r in rs.rules if r.choice and any(
        isinstance(f, Define) and f.name in seen for f in r.fragments)}
    readers: set[str] = set()
    if isinstance(frag, Update):
        # an update shows where its variable is read: the readings whose rules read it
        for r in rs.rules:
            if r.choice and any(isinstance(n, (A.Var, A.Primed)) and n.name == frag.var
                                for f in r.fragments for _, e in _parts(f)
                                for n in A.walk(e)):
                readers.add(r.choice)
    return sorted(readers) + sorted(called - readers)


def _reaching(spec: Spec, name: str) -> tuple[set[str], bool]:
    """The actions whose guards or updates use definition ``name`` (through other
    definitions too), and whether a property or the score does."""
    uses = {n: _calls(d.body) for n, (_, d) in spec.definitions.items()}
    memo: dict[str, bool] = {}

    def reaches(n, stack=()):
        if n == name:
            return True
        if n not in memo:
            memo[n] = n not in stack and any(reaches(k, stack + (n,)) for k in uses.get(n, ()))
        return memo[n]

    def any_reach(exprs):
        return any(reaches(c) for e in exprs for c in _calls(e))

    acts: set[str] = set()
    for r in spec.rules:
        for f in r.fragments:
            if isinstance(f, (Guard, Update)) and any_reach(e for _, e in _parts(f)):
                acts.update(f.actions)
    return acts, any_reach(compiled_elsewhere(spec))


def compiled_elsewhere(spec: Spec) -> list:
    """What the backends compile besides the actions: the properties' formulas
    and every seat's score."""
    out = [p.formula for p in spec.properties if p.formula is not None]
    if all(v in spec.var_index for v in SCORE_INPUTS):
        out += [score_of(A.Const(p, A.PLAYER)) for p in range(spec.config.players)]
    return out


def _same(x: A.Node, y: A.Node) -> bool:
    return x is y or (hash(x) == hash(y) and x == y)


def _moved(action) -> dict:
    """An action's new values, without those that are the variable itself (the
    frame says the same)."""
    return {v: e for v, e in action.values.items()
            if not (isinstance(e, A.Var) and e.name == v)}


def _same_action(a, b) -> bool:
    va, vb = _moved(a), _moved(b)
    return (len(a.guards) == len(b.guards)
            and all(_same(x, y) for (_, x), (_, y) in zip(a.guards, b.guards))
            and va.keys() == vb.keys() and all(_same(va[v], vb[v]) for v in va))


def _frame(e: A.Node, updated) -> A.Node:
    """A primed variable the action does not update is the variable itself (as
    elaboration reads it: the frame)."""
    if isinstance(e, A.Primed) and e.name not in updated:
        return A.Var(e.name, e.type)
    kids = A.children(e)
    if not kids:
        return e
    new = tuple(_frame(k, updated) for k in kids)
    return e if all(a is b for a, b in zip(new, kids)) else A.rebuild(e, new)


class _Folded:
    """A fragment's expressions as elaboration leaves them at one table:
    definitions inlined, the frame applied, constants folded."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.inline = spec.inliner()
        self.memo: dict = {}

    def __call__(self, expr: A.Node, updated=()) -> A.Node:
        return simplify(_frame(self.inline(expr), updated), self.spec.config.players, self.memo)


def _folds_alike(base: Spec, old, new, acts) -> bool:
    """Do fragments ``old`` and ``new`` (None: dropped) fold to the same
    expressions in every action of ``acts``?  Elaboration folds bottom-up, so
    equal parts give equal actions: True means the mutant changes nothing here.
    (False may still change nothing: the caller elaborates to see.)"""
    if new is None:
        return False
    fold = _Folded(base)
    if isinstance(old, Define):
        return _same(fold(old.body), fold(new.body))
    for a in acts:
        updated = base.action(a).values.keys()
        if not all(_same(fold(x, updated), fold(y, updated))
                   for (_, x), (_, y) in zip(_parts(old), _parts(new))):
            return False
    return True


@dataclass(frozen=True)
class Change:
    """What a mutant changes in one table's spec."""
    actions: frozenset   # the actions whose guards or new values differ
    guards: bool         # does any of them have other guards (may be enabled elsewhere)
    elsewhere: bool      # does a property's formula or a seat's score differ

    def invisible(self, played) -> bool:
        """Can a run that only ever takes actions of ``played`` (names) not see
        the change?  When no guard and no property or score differs, and none of
        the changed actions is taken, every state the run visits, every move's
        legality and every verdict on them is the same as on the unmutated spec."""
        return not (self.guards or self.elsewhere) and not (self.actions & played)


def mutant_spec(base: Spec, rs: RuleSet, m: Mutant) -> Spec | None:
    """The spec of mutant ``m`` at ``base``'s table, readings and scope, or None if
    it is exactly ``base`` there (see the module's docstring).  ``rs`` is the
    unmutated rule set ``base`` was elaborated from.  Raises ``SpecError`` if the
    mutant does not elaborate (it is stillborn)."""
    got = mutant_change(base, rs, m)
    return None if got is None else got[0]


def mutant_change(base: Spec, rs: RuleSet, m: Mutant) -> tuple[Spec, Change] | None:
    """``mutant_spec``, with what it changes there (``Change``)."""
    try:
        ri, rule = mutated_rule(rs, m)
    except NotApplicable:
        return None
    old = rs.rules[ri]
    if not included(old, base.readings, base.scope):
        return None
    names = {a.name for a in base.actions}
    kept = {id(f) for f in rule.fragments}
    changed = [f for f in old.fragments if id(f) not in kept]
    acts, elsewhere, alike = set(), False, True
    for f in changed:
        new = next((g for g in rule.fragments if fragment_key(g) == fragment_key(f)), None)
        if isinstance(f, Define):
            if base.definitions.get(f.name, (None,))[0] != old.id:
                continue
            used, other = _reaching(base, f.name)
            if not (used & names or other):
                continue
        else:
            used, other = set(f.actions) & names, False
            if not used:
                continue
        acts |= used & names
        elsewhere = elsewhere or other
        alike = alike and _folds_alike(base, f, new, used & names)
    if (not acts and not elsewhere) or alike:
        return None
    mrs = replace(rs, rules=rs.rules[:ri] + (rule,) + rs.rules[ri + 1:])
    if base.scope == "game":  # a game's actions check each other's names: elaborate whole
        part = elaborate(mrs, base.readings, base.scope)
    else:
        part = elaborate(replace(mrs, actions=tuple(d for d in mrs.actions if d.name in acts)),
                         base.readings, base.scope)
    diff = {a.name: a for a in part.actions if a.name in acts
            and not _same_action(a, base.action(a.name))}
    if elsewhere:
        old_in, new_in = base.inliner(), part.inliner()
        elsewhere = any(not _same(old_in(e), new_in(e)) for e in compiled_elsewhere(base))
    if not diff and not elsewhere:
        return None
    actions = tuple(replace(diff[a.name], phase=a.phase) if a.name in diff else a
                    for a in base.actions)
    spec = replace(base, actions=actions, rules=part.rules, definitions=part.definitions,
                   expansions=part.expansions)
    guards = any(not _same_guards(a, base.action(a.name)) for a in diff.values())
    return spec, Change(frozenset(diff), guards, bool(elsewhere))


def _same_guards(a, b) -> bool:
    return len(a.guards) == len(b.guards) and all(_same(x, y) for (_, x), (_, y)
                                                  in zip(a.guards, b.guards))


__all__ = ["Change", "Mutant", "NotApplicable", "compiled_elsewhere", "equivalent_by_form",
           "mutant_change", "OPERATORS",
           "OPERATOR_DOCS",
           "apply", "fragment_key",
           "mutant_spec", "mutants", "mutants_of", "mutated_rule"]
