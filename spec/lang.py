"""The spec language above expressions: state, phases, actions, rules.

The model is TLA+-shaped.  State variables; phases (each with who acts in it:
a player expression, or chance); actions with parameters drawn from finite
domains; rules as records that contribute *fragments* to actions:

* ``Guard(actions, expr)``   -- a conjunct of those actions' guards;
* ``Update(actions, var, value, when, priority)`` -- a new value for ``var``
  when ``when`` holds (the highest priority whose ``when`` holds wins; the
  rulebook's priorities are the named table ``rules.priorities.Priority``;
  unmentioned variables keep their value: the frame);
* ``Define(name, params, body)`` -- a definition (``points(h)``, ...).

A rule belongs to at most one choice-point reading; ``elaborate`` keeps the
rules of the chosen readings, inlines definitions, and assembles each action
from its fragments, remembering which rule contributed what, so a trace or an
unsat core can always be told in rule ids and rulebook sentences.
"""
from __future__ import annotations

import ast as pyast
import inspect
import itertools
import string
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from . import ast as A
from .ast import (
    BOOL,
    CARD,
    CARDS,
    INT,
    PLAYER,
    PLAYERS,
    Bound,
    Call,
    Const,
    Ite,
    Let,
    Node,
    Quant,
    lift,
    op,
)
from .choices import CHOICE_POINTS
from .config import Config
from .derived import Derived
from .errors import InvalidRule, SpecError, nearest
from .rulebook import SENTENCES
from .simplify import simplify

A._LANG_FILE.append(__file__)
_fresh = itertools.count()

TRUE = Const(True, BOOL, src_loc=("<builtin>", 0))
FALSE = Const(False, BOOL, src_loc=("<builtin>", 0))


# -- expression builders ----------------------------------------------------

def And(*xs):
    xs = [x for x in xs if not (isinstance(x, Const) and x.value is True)]
    if not xs:
        return TRUE
    return xs[0] if len(xs) == 1 else op("and", *xs)


def Or(*xs):
    xs = [x for x in xs if not (isinstance(x, Const) and x.value is False)]
    if not xs:
        return FALSE
    return xs[0] if len(xs) == 1 else op("or", *xs)


def Not(x):
    return op("not", x)


def Implies(a, b):
    return Or(Not(a), b)


def If(c, a, b):
    if isinstance(a, Node) and not isinstance(b, Node):
        b = lift(b, a.type)
    elif isinstance(b, Node) and not isinstance(a, Node):
        a = lift(a, b.type)
    elif not isinstance(a, Node):
        a, b = lift(a, INT), lift(b, INT)
    if isinstance(c, Const):
        return a if c.value else b
    return Ite(c, a, b)


def bound_var(t, hint="x"):
    """A fresh bound variable of type ``t`` (for quantifiers, lets and a
    definition's parameters); ``hint`` starts its name, for reading."""
    return Bound(f"{hint}{next(_fresh)}", t)


def LetIn(value: Node, body, hint="v"):
    v = bound_var(value.type, hint)
    return Let(v, value, body(v))


def _quant(kind, domain, body, hint):
    v = bound_var(A.SET_TYPES[domain.type], hint)
    return Quant(kind, v, domain, body(v))


def ForAll(domain, body, hint="x"):
    return _quant("forall", domain, body, hint)


def Exists(domain, body, hint="x"):
    return _quant("exists", domain, body, hint)


def Sum(domain, body, hint="x"):
    return _quant("sum", domain, body, hint)


def SetOf(domain, body, hint="x"):
    return _quant("setof", domain, body, hint)


def MapOf(all_players, body, hint="p"):
    return _quant("mapof", all_players, body, hint)


def cards(mask: int) -> Const:
    return Const(mask, CARDS)


def players(mask: int) -> Const:
    return Const(mask, PLAYERS)


def num(v: int) -> Const:
    return Const(v, INT)


def player(v: int) -> Const:
    return Const(v, PLAYER)


def card(v: int) -> Const:
    return Const(v, CARD)


def cardmap(values) -> Const:
    """A constant per-card map: one int per card of the deck, then NOCARD's."""
    return Const(tuple(values), A.CARDMAP)


# -- declarations -----------------------------------------------------------

@dataclass(frozen=True)
class StateVar:
    name: str
    type: str
    doc: str
    scope: str = "round"  # "round" or "game"
    #: inclusive value range of an int variable (used to pack states)
    bounds: tuple[int, int] | None = None
    #: a record rules keep of what happened (who has had a turn, what was taken
    #: this turn), not something on the table: a story does not credit a reading
    #: with a step because another reading would have recorded otherwise
    record: bool = False
    #: the variable in a rule's English (``report/english.py``): a noun phrase,
    #: "the passers"; a map's names one player's value with ``{}`` where the
    #: player goes ("the hand at seat {}")
    says: str = ""
    #: what an int variable's values mean, by value ("DEAL", "REVEAL", ...): its
    #: constants read as these names in a rule's English
    names: tuple[str, ...] = ()

    @property
    def cur(self) -> A.Var:
        return A.Var(self.name, self.type)

    @property
    def new(self) -> A.Primed:
        return A.Primed(self.name, self.type)


@dataclass(frozen=True)
class Phase:
    name: str
    value: int
    actor: Node | None  # None: chance moves here
    doc: str
    terminal: bool = False
    scope: str = "round"
    #: a card's effect is resolved in it (Mercy's race, Pride Cycle's gifts, a
    #: team's choice), after the discard that opened it
    effect: bool = False


@dataclass(frozen=True)
class ParamDecl:
    """An action parameter drawn from a finite domain.

    ``domain`` is a set expression; with ``size`` the parameter is a set of
    exactly ``size`` elements of the domain (a dealt hand).  ``chooser`` is
    "player" or "chance".
    """
    name: str
    type: str
    domain: Node
    chooser: str = "player"
    size: int | None = None
    #: the parameter in a rule's English: a noun phrase, "the card discarded"
    says: str = ""

    @property
    def ref(self) -> A.Param:
        return A.Param(self.name, self.type)


@dataclass(frozen=True)
class ActionDecl:
    name: str
    phase: str
    params: tuple[ParamDecl, ...]
    doc: str
    scope: str = "round"
    #: the move in a rule's English: a clause, "a player discards a card"
    says: str = ""


@dataclass(frozen=True)
class Guard:
    actions: tuple[str, ...]
    expr: Node


@dataclass(frozen=True)
class Update:
    actions: tuple[str, ...]
    var: str
    value: Node
    when: Node = TRUE
    #: a name from ``rules.priorities.Priority`` (stored as a plain int)
    priority: int = 0

    def __post_init__(self):
        if isinstance(self.priority, bool) or not isinstance(self.priority, int):
            raise SpecError(f"update of {self.var}: priority {self.priority!r} is not an int")
        object.__setattr__(self, "priority", int(self.priority))


@dataclass(frozen=True)
class Define:
    name: str
    params: tuple[Bound, ...]
    body: Node


@dataclass(frozen=True)
class Rule:
    """One rule: what it formalises and what it contributes (``rule`` builds one)."""
    id: str
    sentences: tuple[str, ...]
    doc: str
    fragments: tuple
    choice: str | None = None
    reading: str | None = None
    scope: str = "round"
    #: where the rule was written: the file and line of its ``rule(...)`` call, the
    #: file relative to the package's root (``spec/rules/pride.py``) when it is in
    #: the package, so that it prints the same on every machine; None when unknown
    src_loc: tuple[str, int] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class DefSig:
    """A definition's signature: its name, its parameters as (name, type) pairs in
    order, and its result type (``signature`` builds one from keywords).

    A call names its arguments, ``sig(hand=h, limit=lim, ...)``: definitions
    take several arguments of one type (seats, card sets), which in order are
    easy to swap unseen.  A definition of at most ``POSITIONAL`` parameters may
    also take them in order.  A body (``define``) takes its parameters by the
    same names."""
    name: str
    params: tuple[tuple[str, str], ...]
    result: str
    #: a call in a rule's English: a phrase in which ``{param}`` stands for the
    #: argument of that parameter ("the points of {hand}"); parameters it does not
    #: name are what the definition reads, not said at each call
    says: str = ""

    #: the most parameters a definition may have and still be called positionally
    POSITIONAL: ClassVar[int] = 2

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for p in self.params:
            if not (isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str)
                    and p[0].isidentifier() and isinstance(p[1], str)):
                raise SpecError(f"signature of {self.name}: parameter {p!r} is not a "
                                "(name, type) pair")
            if p[0] in seen:
                raise SpecError(f"signature of {self.name}: parameter {p[0]!r} is named twice")
            seen.add(p[0])
        unknown = [f for f in placeholders(self.says) if f not in seen]
        if unknown:
            raise SpecError(f"signature of {self.name}: its English ({self.says!r}) names "
                            f"{', '.join(map(repr, unknown))}, not a parameter of it "
                            f"({', '.join(sorted(seen)) or 'it has none'})")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.params)

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(t for _, t in self.params)

    def shown(self) -> str:
        """``name(a, b, c)``: the signature as its calls are written."""
        return f"{self.name}({', '.join(self.names)})"

    def __call__(self, *args, **kwargs) -> Call:
        if args and len(self.params) > self.POSITIONAL:
            raise SpecError(
                f"{self.name} takes its {len(self.params)} arguments by name: "
                f"{self.name}({', '.join(f'{n}=...' for n in self.names)})")
        if len(args) > len(self.params):
            raise SpecError(f"{self.name} takes {len(self.params)} argument(s), got "
                            f"{len(args)}: {self.shown()}")
        given = dict(zip(self.names, args))
        for k, v in kwargs.items():
            if k not in self.names:
                raise SpecError(f"{self.name} has no parameter {k!r}{_did_you_mean(k, self.names)}"
                                f": {self.shown()}")
            if k in given:
                raise SpecError(f"{self.name}: argument {k!r} given twice")
            given[k] = v
        missing = [n for n in self.names if n not in given]
        if missing:
            raise SpecError(f"{self.name} is missing {', '.join(map(repr, missing))}: "
                            f"{self.shown()}")
        out = []
        for n, t in self.params:
            a = lift(given[n], t)
            if a.type != t:
                raise SpecError(f"{self.name}: {n} is of type {a.type}, expected {t}")
            out.append(a)
        return Call(self.name, tuple(out), self.result)

    def define(self, body) -> Define:
        """The definition whose body is ``body(**params)``: one fresh bound variable
        per parameter, passed by name, so the body's parameter names must be the
        signature's (in any order)."""
        try:
            got = inspect.signature(body).parameters.values()
        except (TypeError, ValueError):  # a builtin: no names to compare
            got = None
        if got is not None:
            kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            odd = [p.name for p in got if p.kind not in kinds]
            names = [p.name for p in got if p.kind in kinds]
            unknown = [n for n in names if n not in self.names]
            missing = [n for n in self.names if n not in names]
            if odd or unknown or missing:
                parts = []
                for n in unknown:
                    parts.append(f"{n!r} is no parameter of it{_did_you_mean(n, missing)}")
                if missing:
                    parts.append(f"it lacks {', '.join(map(repr, missing))}")
                if odd:
                    parts.append(f"{', '.join(map(repr, odd))} must be plain named parameters")
                raise SpecError(f"the body of definition {self.name} takes "
                                f"({', '.join(p.name for p in got)}), its signature "
                                f"{self.shown()}: {'; '.join(parts)}")
        params = {n: bound_var(t, "a") for n, t in self.params}
        value = body(**params)
        if not isinstance(value, Node) or value.type != self.result:
            kind = f"of type {value.type}" if isinstance(value, Node) else repr(value)
            raise SpecError(f"the body of definition {self.name} is {kind}; its signature "
                            f"{self.shown()} gives {self.result}")
        return Define(self.name, tuple(params.values()), value)


def placeholders(phrase: str) -> list[str]:
    """The ``{name}`` fields of an English phrase, in order (``{}`` as "")."""
    return [f for _, f, _, _ in string.Formatter().parse(phrase) if f is not None]


def signature(name: str, result: str, /, *, says: str = "", **params: str) -> DefSig:
    """``signature("lowers_ok", BOOL, card=CARD, hand=CARDS, limit=INT, says="...")``
    (``says``: how a call reads in English, see ``DefSig.says``)."""
    return DefSig(name, tuple(params.items()), result, says)


def _did_you_mean(name: str, names) -> str:
    close = nearest(name, names)
    return f" (did you mean {close!r}?)" if close else ""


# -- writing rules ------------------------------------------------------------

#: the folder the package's folders (spec/, model/, ...) sit in: a rule's file is
#: told relative to it
_ROOT = Path(__file__).resolve().parent.parent


def rule(id: str, sentences, doc: str, *fragments, choice: str | None = None,
         reading: str | None = None, scope: str = "round") -> Rule:
    """A rule: its id, the ids of the rulebook sentences it formalises, what it
    says, and what it contributes (``Guard``, ``Update`` and ``Define``
    fragments).  A rule that interprets a gap belongs to one reading of a choice
    point (``choice``, ``reading``; its id starts ``<choice>.<reading>``); a
    ``scope="game"`` rule is about the game of several rounds.

    The rule is checked as it is written: a sentence the rulebook does not
    have, a choice point or reading ``spec/choices.py`` does not list, an id
    that does not name its reading, is an ``InvalidRule`` at once, naming the
    rule and its line.  The rule remembers where it was written (``src_loc``)."""
    r = Rule(id, tuple(sentences), doc, tuple(fragments), choice, reading, scope,
             src_loc=_written_at(sys._getframe(1)))
    problem = _rule_problem(r)
    if problem:
        raise InvalidRule(problem, r.id, _where(r.src_loc))
    return r


def _rule_problem(r: Rule) -> str | None:
    """What is wrong with a rule as written, if anything."""
    if not r.sentences:
        return "cites no sentence of the rulebook"
    for sid in r.sentences:
        if sid not in SENTENCES:
            return f"cites {sid!r}, which is no sentence of the rulebook{_did_you_mean(sid, SENTENCES)}"
    if r.scope not in ("round", "game"):
        return f"has the scope {r.scope!r}: a rule's scope is 'round' or 'game'"
    for f in r.fragments:
        if not isinstance(f, (Guard, Update, Define)):
            return f"contributes {f!r}: a rule's fragments are Guard, Update and Define"
        if not isinstance(f, Define) and not (
                isinstance(f.actions, tuple) and all(isinstance(a, str) for a in f.actions)):
            return f"names the actions {f.actions!r}: a tuple of action names"
    if (r.choice is None) != (r.reading is None):
        return "names a choice point without a reading, or a reading without its choice point"
    if r.choice is None:
        for cp in CHOICE_POINTS.values():
            for rd in cp.reading_ids:
                if _names_reading(r.id, cp.id, rd):
                    return (f"is named as reading {rd} of {cp.id} but belongs to no reading: "
                            f"give it choice={cp.id!r}, reading={rd!r}")
        return None
    point = CHOICE_POINTS.get(r.choice)
    if point is None:
        return (f"belongs to the choice point {r.choice!r}, which spec/choices.py does not "
                f"list{_did_you_mean(r.choice, CHOICE_POINTS)}")
    if r.reading not in point.reading_ids:
        return (f"belongs to the reading {r.reading!r}, which choice point {point.id} does not "
                f"have (its readings: {', '.join(point.reading_ids)})"
                f"{_did_you_mean(str(r.reading), point.reading_ids)}")
    if r.reading is None or not _names_reading(r.id, r.choice, r.reading):
        return (f"belongs to {r.choice} = {r.reading}, so its id must start with "
                f"{r.choice}.{r.reading}")
    return None


def _names_reading(rule_id: str, choice: str, reading: str) -> bool:
    """Is ``rule_id`` ``<choice>.<reading>``, or starts with it and a dot?"""
    head = f"{choice}.{reading}"
    return rule_id == head or rule_id.startswith(head + ".")


def define(t, name: str, body) -> Define:
    """The definition ``name`` with body ``body``, a function taking the
    parameters of the signature ``t`` declares for it (``t.signatures``) by
    name: ``define(t, "lowers_ok", lambda card, hand, limit: TRUE)``.  A body
    that does not fit the signature (other names, another result type), or a
    definition no signature declares, is an ``InvalidRule`` at once, naming the
    rule it is written in and its line."""
    try:
        return t.define(name, body)
    except InvalidRule:
        raise
    except SpecError as e:
        file, line = _written_at(sys._getframe(1))
        raise InvalidRule(str(e), _rule_written_at(sys._getframe(1).f_code.co_filename, line),
                          f"{file}:{line}") from None


def _where(src_loc: tuple[str, int] | None) -> str | None:
    return None if src_loc is None else f"{src_loc[0]}:{src_loc[1]}"


def _rule_written_at(filename: str, line: int) -> str | None:
    """The id of the ``rule(...)`` call that spans ``line`` of ``filename``, read
    from the source as a traceback reads it (a definition's error names the
    rule it is written in, which does not exist yet when the error is raised)."""
    try:
        tree = pyast.parse(Path(filename).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    best: tuple[int, str] | None = None
    for n in pyast.walk(tree):
        if not (isinstance(n, pyast.Call) and _called(n) == "rule" and n.args
                and n.lineno <= line <= (n.end_lineno or n.lineno)):
            continue
        first = n.args[0]
        if (isinstance(first, pyast.Constant) and isinstance(first.value, str)
                and (best is None or n.lineno > best[0])):
            best = (n.lineno, first.value)
    return None if best is None else best[1]


def _called(call: pyast.Call) -> str | None:
    """The name a call calls: ``rule`` for ``rule(...)`` and ``lang.rule(...)``."""
    f = call.func
    return f.id if isinstance(f, pyast.Name) else f.attr if isinstance(f, pyast.Attribute) else None


def _written_at(frame) -> tuple[str, int]:
    """(file, line) of a frame: the file relative to the package's root when it
    is in the package."""
    return (_shown_file(frame.f_code.co_filename), frame.f_lineno)


@cache
def _shown_file(filename: str) -> str:
    path = Path(filename).resolve()
    return path.relative_to(_ROOT).as_posix() if path.is_relative_to(_ROOT) else filename


@dataclass(frozen=True)
class Part:
    """One module of the rulebook, a card or a part of the turn, and what it
    declares: its state variables and definition signatures, and, as functions
    of the vocabulary ``t`` (they depend on the table), its phases, actions,
    the values its variables start from (``initial(t)``: variable -> value),
    the rows of the moves of its own that end what they began (``endings(t)``,
    see ``rules.flow.raw_endings``), whether the card played in an effect
    context ``e`` opens a phase of its own (``opens(t, e)``), and its rules.
    The vocabulary collects every part's declarations (``rules.words``)."""
    name: str
    variables: tuple[StateVar, ...] = ()
    signatures: tuple[DefSig, ...] = ()
    phases: Callable[[Any], tuple[Phase, ...]] | None = None
    actions: Callable[[Any], tuple[ActionDecl, ...]] | None = None
    initial: Callable[[Any], dict[str, Node]] | None = None
    endings: Callable[[Any], list[tuple]] | None = None
    opens: Callable[[Any, Any], Node] | None = None
    rules: Callable[[Any], list[Rule]] | None = None


@dataclass
class RuleSet:
    """Everything the rulebook declares, all readings included."""
    config: Config
    variables: tuple[StateVar, ...]
    phases: tuple[Phase, ...]
    actions: tuple[ActionDecl, ...]
    rules: tuple[Rule, ...]
    signatures: dict[str, DefSig]
    properties: tuple = ()
    initial: dict = field(default_factory=dict)  # var -> constant expression


# -- elaboration -------------------------------------------------------------

@dataclass
class AssembledAction:
    decl: ActionDecl
    phase: Phase
    guards: list  # (rule_id, expr), inlined
    updates: dict  # var -> list of (rule_id, when, value, priority), inlined
    values: dict  # var -> combined new-value expression
    order: list  # variables in the order their new values must be computed
    used_defs: set = field(default_factory=set)  # definition rules the guards use
    update_defs: dict = field(default_factory=dict)  # (var, rule id) -> definition rules
    cond_defs: set = field(default_factory=set)  # definition rules the conditions read

    @property
    def name(self):
        return self.decl.name

    @property
    def guard(self) -> Node:
        return And(*[g for _, g in self.guards])


@dataclass
class Spec:
    """An elaborated spec: one configuration, one reading per choice point."""
    config: Config
    readings: dict
    scope: str
    variables: tuple[StateVar, ...]
    phases: tuple[Phase, ...]
    actions: tuple[AssembledAction, ...]
    rules: tuple[Rule, ...]
    definitions: dict  # name -> (rule_id, Define)
    properties: tuple = ()
    initial: dict = field(default_factory=dict)
    #: how the extra properties (``with_properties``) are stated at another table,
    #: given the spec there (a question names players and cards of one table); None
    #: when there are none or they cannot be restated
    restate: object = field(default=None, compare=False)
    #: (the definitions, every node's expansion by them: ``Inliner.memo``), shared
    #: by the inliners of this spec's elaboration and of every backend that compiles it
    expansions: tuple[dict, dict] | None = field(default=None, compare=False, repr=False)
    #: what backends derive from the rules alone (never from the properties), one
    #: typed record per kind (``spec/derived.py``): kept by a spec given more
    #: properties (``with_properties``), fresh after any other change
    #: (``dataclasses.replace`` does not copy it)
    derived: Derived = field(default_factory=Derived, init=False, compare=False, repr=False)

    def inliner(self) -> Inliner:
        """An inliner of this spec's definitions that reuses every expansion
        made so far (with its own ``used``).  A spec given other definitions
        (``dataclasses.replace``) starts afresh."""
        if self.expansions is None or self.expansions[0] is not self.definitions:
            self.expansions = (self.definitions, {})
        return Inliner(self.definitions, self.expansions[1])

    @property
    def var_index(self) -> dict:
        return {v.name: i for i, v in enumerate(self.variables)}

    def phase(self, name) -> Phase:
        return next(p for p in self.phases if p.name == name)

    def action(self, name) -> AssembledAction:
        return next(a for a in self.actions if a.name == name)

    def rule(self, rid) -> Rule:
        return next(r for r in self.rules if r.id == rid)

    def with_properties(self, extra, restate=None) -> Spec:
        """This spec with more properties (a question's formulas): every backend
        compiles them like the built-in ones (``prop_<ID>``, Z3, the explorer).
        ``restate(spec)`` gives the same properties on another table's spec (a
        proof searched at a smaller table needs them there)."""
        extra = tuple(extra)
        taken = {p.id for p in self.properties}
        for p in extra:
            if p.id in taken:
                raise SpecError(f"property {p.id} is already defined")
            taken.add(p.id)
        out = replace(self, properties=self.properties + extra, restate=restate)
        out.derived = self.derived  # the rules are the same: so is what they give
        return out


def included(rule: Rule, readings: dict, scope: str) -> bool:
    if rule.scope == "game" and scope != "game":
        return False
    return rule.choice is None or readings.get(rule.choice) == rule.reading


class Inliner:
    """Expands definition calls.

    Each node is expanded once: ``memo`` (id -> the node, its expansion and the
    definition rules it used) may be shared by several inliners over the same
    definitions (an elaboration shares one across every guard and update of
    every action), while ``used`` is this inliner's own: the definition rules
    of what it was asked to expand."""

    def __init__(self, defs: dict, memo: dict | None = None):
        self.defs = defs
        self.used: set[str] = set()
        # the node is kept with its expansion so that its id stays its own
        self.memo: dict[int, tuple[Node, Node, frozenset[str]]] = {} if memo is None else memo

    def __call__(self, n: Node, stack=()) -> Node:
        out, used = self._go(n, stack)
        self.used |= used
        return out

    def _go(self, n: Node, stack) -> tuple[Node, frozenset[str]]:
        hit = self.memo.get(id(n))
        if hit is not None:
            return hit[1], hit[2]
        out, used = self._expand(n, stack)
        self.memo[id(n)] = (n, out, used)
        return out, used

    def _expand(self, n: Node, stack) -> tuple[Node, frozenset[str]]:
        if isinstance(n, Call):
            if n.name not in self.defs:
                raise SpecError(f"{n.name} is used at {_loc(n)} but no included rule defines it")
            if n.name in stack:
                raise SpecError(f"definition {n.name} is recursive: {' -> '.join(stack)}")
            rid, d = self.defs[n.name]
            args = [self._go(a, stack) for a in n.args]
            body, used = self._go(d.body, stack + (n.name,))
            used = used.union([rid], *(u for _, u in args))
            return A.substitute(body, {p.name: a for p, (a, _) in zip(d.params, args)}), used
        kids = A.children(n)
        if not kids:
            return n, _NONE
        got = [self._go(k, stack) for k in kids]
        used = _NONE.union(*(u for _, u in got)) if any(u for _, u in got) else _NONE
        new = tuple(x for x, _ in got)
        return (n if all(a is b for a, b in zip(new, kids)) else A.rebuild(n, new)), used


_NONE: frozenset[str] = frozenset()


def _loc(n):
    f, line = n.src_loc or ("?", 0)
    return f"{f}:{line}"


def elaborate(rs: RuleSet, readings: dict, scope: str = "round") -> Spec:
    """Keep the rules of the chosen readings and assemble every action."""
    rules = tuple(r for r in rs.rules if included(r, readings, scope))
    variables = tuple(v for v in rs.variables if scope == "game" or v.scope == "round")
    vnames = {v.name: v for v in variables}
    decls = [a for a in rs.actions if scope == "game" or a.scope == "round"]
    # a phase declared terminal is terminal only where no action of this scope
    # leaves it (a finished round is terminal to a round, not to a game)
    moving = {a.phase for a in decls}
    phases = tuple(replace(p, terminal=p.terminal and p.name not in moving)
                   for p in rs.phases if scope == "game" or p.scope == "round")
    defs = _definitions(rules, rs.signatures)
    assembled = []
    anames = {a.name for a in decls}
    for r in rules:
        for f in r.fragments:
            for an in getattr(f, "actions", ()):
                if an not in anames and scope == "game":
                    raise SpecError(f"rule {r.id} names unknown action {an}")
    expansions: dict = {}  # one expansion of each node, shared by every inliner below
    for decl in decls:
        inline = Inliner(defs, expansions)
        phase = next(p for p in phases if p.name == decl.phase)
        guards: list[tuple[str, Node]] = []
        updates: dict[str, list[tuple[str, Node, Node, int]]] = {}
        update_defs: dict[tuple[str, str], set[str]] = {}
        cond_defs: set[str] = set()
        for r in rules:
            for f in r.fragments:
                if isinstance(f, Guard) and decl.name in f.actions:
                    _expect(f.expr, BOOL, r)
                    guards.append((r.id, inline(f.expr)))
                elif isinstance(f, Update) and decl.name in f.actions:
                    if f.var not in vnames:
                        if vnames or scope == "game":
                            if scope == "round" and any(v.name == f.var for v in rs.variables):
                                continue  # a game-scope variable in a round-scope spec
                            raise SpecError(f"rule {r.id} updates unknown variable {f.var}")
                    _expect(f.value, vnames[f.var].type, r)
                    _expect(f.when, BOOL, r)
                    # a rule's story names the definitions its new value used (the
                    # readings that shaped what happened), not those its condition read
                    own, cond = Inliner(defs, expansions), Inliner(defs, expansions)
                    value = own(f.value)
                    updates.setdefault(f.var, []).append(
                        (r.id, cond(f.when), value, f.priority))
                    cond_defs |= cond.used
                    update_defs[(f.var, r.id)] = own.used
        values = {}
        for var, ups in updates.items():
            ups.sort(key=lambda u: u[3])
            prios = [u[3] for u in ups]
            if len(set(prios)) != len(prios):
                clash = [u[0] for u in ups]
                raise SpecError(f"action {decl.name}: rules {clash} update {var} "
                                "with the same priority; give them distinct priorities")
            value = vnames[var].cur
            for _rid, when, val, _ in ups:
                value = If(when, val, value)
            values[var] = value
        memo: dict = {}
        fold = lambda e: simplify(e, rs.config.players, memo)
        framed: dict = {}  # every formula of the action is unprimed against the same frame
        values = {v: fold(unprime(e, values, framed)) for v, e in values.items()}
        guards = [(rid, fold(g)) for rid, g in guards]
        for var, ups in updates.items():
            updates[var] = [(rid, fold(unprime(w, values, framed)), fold(unprime(v, values, framed)), pr)
                            for rid, w, v, pr in ups]
        order = _topo(decl.name, values)
        assembled.append(AssembledAction(decl, phase, guards, updates, values, order,
                                         inline.used, update_defs, cond_defs))
    initial = {v.name: rs.initial[v.name] for v in variables}
    return Spec(rs.config, dict(readings), scope, variables, phases, tuple(assembled),
                rules, defs, rs.properties, initial, expansions=(defs, expansions))


def _definitions(rules: tuple[Rule, ...], signatures: dict[str, DefSig]
                 ) -> dict[str, tuple[str, Define]]:
    """name -> (rule id, Define) of the included rules: one rule per definition,
    each body of its signature's result type."""
    defs: dict[str, tuple[str, Define]] = {}
    for r in rules:
        for f in r.fragments:
            if isinstance(f, Define):
                if f.name in defs:
                    raise SpecError(f"{f.name} defined by both {defs[f.name][0]} and {r.id}")
                sig = signatures.get(f.name)
                if sig is None or f.body.type != sig.result:
                    raise SpecError(f"definition {f.name} in {r.id} does not match its signature")
                defs[f.name] = (r.id, f)
    return defs


def unprime(e: Node, updated, memo: dict | None = None) -> Node:
    """x' for a variable the action does not update is just x (the frame); each
    subtree the formula shares is rewritten once (``memo``, id -> the node and its
    rewriting, may be shared by calls with the same ``updated``)."""
    memo = {} if memo is None else memo

    def go(x: Node) -> Node:
        hit = memo.get(id(x))
        if hit is not None:
            return hit[1]
        y: Node
        if isinstance(x, A.Primed):
            y = x if x.name in updated else A.Var(x.name, x.type)
        else:
            kids = A.children(x)
            new = tuple(go(k) for k in kids)
            y = x if all(a is b for a, b in zip(new, kids)) else A.rebuild(x, new)
        memo[id(x)] = (x, y)  # the node is kept: its id stays its own
        return y

    return go(e)


def _expect(n: Node, t: str, r: Rule):
    if n.type != t:
        raise SpecError(f"rule {r.id} ({_loc(n)}): expected {t}, got {n.type}: {n}")


def _topo(action: str, values: dict) -> list:
    deps = {v: {n.name for n in A.walk(e) if isinstance(n, A.Primed)} for v, e in values.items()}
    for v, ds in deps.items():
        missing = ds - set(values)
        if missing:
            raise SpecError(f"action {action}: {v}' reads {missing}' which it never sets")
    order, done, busy = [], set(), set()

    def visit(v, path):
        if v in done:
            return
        if v in busy:
            raise SpecError(f"action {action}: cyclic next-state dependency {' -> '.join(path)}")
        busy.add(v)
        for d in sorted(deps[v]):
            visit(d, path + [d])
        busy.discard(v)
        done.add(v)
        order.append(v)

    for v in sorted(values):
        visit(v, [v])
    return order
