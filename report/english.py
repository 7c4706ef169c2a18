"""A rule in English, generated from its AST: the spec's ``toEnglish()``.

Ludii renders every rule element in English from the element itself; here a
``Walker`` over the spec's expressions (``spec/walk.py``) does the same, one
case per node type and per operator, and a rule is phrased from what it
contributes: a guard is "<move> only if <condition>", an update "when <move>:
<variable> becomes <value>", a definition "<its phrase> means <body>".  The
words for the game's own names come from the spec, declared beside what they
name (``says=`` on state variables, actions, action parameters and definition
signatures; ``names=`` for an int variable's values; ``Words.constant_phrases``
for the table's constants): nothing here knows what a card does, so a rule
added or changed in ``spec/rules/`` reads in English without a change here.

An expression too long to read is said in part: its longest subterms are
summarised, one at a time, until each statement has at most ``MAX_WORDS`` words;
a summary names what the subterm reads ("a set of players worked out from the
passers and the seats set aside").  The full formula is always one command away
(``itcp-check rules --explain RULE``).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from itcp.spec import ast as A
from itcp.spec.ast import Bound, Call, Const, Ite, Let, Node, Op, Param, Primed, Quant, Var
from itcp.spec.lang import TRUE, ActionDecl, Define, DefSig, Guard, Rule, RuleSet, StateVar, Update
from itcp.spec.rules.vocabulary import Vocabulary
from itcp.spec.walk import OperatorTable, Walker, handles

#: the most words one statement of a rule's English may have before its longest
#: subterms are summarised (a statement is said whole when it fits)
MAX_WORDS = 60
#: the most subterms summarised in one statement
MAX_SUMMARIES = 40

#: a value of each type, as a noun
NOUNS = {A.BOOL: "condition", A.INT: "number", A.PLAYER: "player", A.CARD: "card",
         A.CARDS: "set of cards", A.PLAYERS: "set of players", A.PILE: "pile",
         A.CARDMAP: "card table"}


def noun(t: str) -> str:
    """A value of type ``t`` as a noun: "set of cards", "value per player"."""
    vt = A.map_value_type(t)
    return f"{NOUNS.get(vt, vt)} per player" if vt else NOUNS.get(t, t)


def article(phrase: str) -> str:
    return ("an " if phrase[:1] in "aeiou" else "a ") + phrase


def listed(items: list[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- the spec's words -------------------------------------------------------------------

@dataclass(frozen=True)
class Phrasebook:
    """The spec's names in English, read off its declarations at one table: the
    state variables, the actions and their parameters, the definitions (with the
    choice point whose readings give each one, if any) and the table's constants."""
    variables: dict[str, StateVar]
    actions: dict[str, ActionDecl]
    signatures: dict[str, DefSig]
    constants: dict[Node, str]
    #: definition -> the choice point whose readings give it (none: a plain rule does)
    readings: dict[str, str]
    #: definition -> the rules' actions whose guards and updates read it, in any reading
    readers: dict[str, tuple[str, ...]]
    #: expressions the rules share, with their phrases (``Words.named_expressions``)
    named: tuple[tuple[Node, str], ...] = ()

    @classmethod
    def of(cls, rs: RuleSet) -> Phrasebook:
        defined: dict[str, set[str | None]] = {}
        for r in rs.rules:
            for f in r.fragments:
                if isinstance(f, Define):
                    defined.setdefault(f.name, set()).add(r.choice)
        readings: dict[str, str] = {}
        for name, cps in defined.items():
            (only, *more) = cps
            if only is not None and not more:
                readings[name] = only
        words = Vocabulary(rs.config)
        return cls({v.name: v for v in rs.variables}, {a.name: a for a in rs.actions},
                   dict(rs.signatures), words.constant_phrases(), readings, _readers(rs),
                   tuple(words.named_expressions()))

    def action(self, name: str) -> str:
        """The move ``name`` as a clause: "a player discards a card"."""
        decl = self.actions.get(name)
        return decl.says if decl is not None and decl.says else f"the move {name} is made"

    def moves(self, names: Iterable[str]) -> str:
        """Several moves as one clause: "a player discards a card or a player says Pass"."""
        return listed([self.action(n) for n in names], "or")

    def params(self, actions: Iterable[str]) -> dict[str, str]:
        """The parameters of ``actions`` (the first one's where two share a name), as
        noun phrases."""
        out: dict[str, str] = {}
        for a in actions:
            decl = self.actions.get(a)
            for p in decl.params if decl is not None else ():
                out.setdefault(p.name, p.says or f"the {noun(p.type)} chosen")
        return out


def _readers(rs: RuleSet) -> dict[str, tuple[str, ...]]:
    """definition -> the actions whose guards or updates call it, directly or through
    other definitions, in any reading (in the order of ``rs.actions``)."""
    calls: dict[str, set[str]] = {}      # definition -> the definitions its bodies call
    direct: dict[str, set[str]] = {}     # action -> the definitions its fragments call
    for r in rs.rules:
        for f in r.fragments:
            if isinstance(f, Define):
                calls.setdefault(f.name, set()).update(_called(f.body))
            else:
                exprs = [f.expr] if isinstance(f, Guard) else [f.value, f.when]
                for a in f.actions:
                    direct.setdefault(a, set()).update(*(_called(e) for e in exprs))
    out: dict[str, list[str]] = {}
    for a in [x.name for x in rs.actions]:
        seen: set[str] = set()
        todo = list(direct.get(a, ()))
        while todo:
            d = todo.pop()
            if d not in seen:
                seen.add(d)
                todo.extend(calls.get(d, ()))
        for d in seen:
            out.setdefault(d, []).append(a)
    return {d: tuple(acts) for d, acts in out.items()}


def _called(e: Node) -> set[str]:
    return {n.name for n in A.walk(e) if isinstance(n, Call)}


# -- expressions ------------------------------------------------------------------------

@dataclass(frozen=True)
class Phrase:
    """A piece of English and what it is, for where it may stand without brackets:
    "noun" (a noun phrase), "sum" (nouns joined: plus, with, except), "clause"
    (a statement), "and", "or", "if" (a choice between values)."""
    text: str
    kind: str = "noun"


#: what may stand, without brackets, in each kind of slot
SLOTS = {
    "noun": {"noun"},
    "term": {"noun"},                          # an operand of plus, with, except ...
    "subject": {"noun", "sum"},                # either side of "is", "is less than"
    "and": {"noun", "clause", "and"},
    "or": {"noun", "clause", "or"},
    "any": {"noun", "sum", "clause", "and", "or", "if"},
}


def slot(p: Phrase, where: str) -> str:
    return p.text if p.kind in SLOTS[where] else f"({p.text})"


@dataclass
class Saying:
    """What one statement is said with: the parameters' phrases, the subterms to
    summarise (by id), the bound variables' names so far; and, as it is said, the
    length in words of each subterm said (id -> (node, words))."""
    params: dict[str, str]
    collapsed: frozenset[int] = frozenset()
    bound: dict[str, str] = field(default_factory=dict)
    sizes: dict[int, tuple[Node, int]] = field(default_factory=dict)
    #: a definition's parameter -> the state variable it is named after (a definition
    #: takes the state it reads under the variables' names: ``dir=INT``)
    stands_for: dict[str, str] = field(default_factory=dict)


class English(Walker, OperatorTable):
    """An expression in English: ``say(node, saying, depth)`` gives its ``Phrase``.
    ``names`` (an int variable's value names) passes down to the constants it
    decides, through the branches of an ``if``."""

    def __init__(self, book: Phrasebook):
        self.book = book
        self._reads: dict[int, tuple[Node, list[str]]] = {}
        self._named: dict[tuple, list[tuple[Node, str]]] = {}
        for e, says in book.named:
            self._named.setdefault(head(e), []).append((e, says))

    # -- the walk ------------------------------------------------------------------
    def say(self, n: Node, s: Saying, depth: int = 0, names: tuple[str, ...] = ()) -> Phrase:
        for e, says in self._named.get(head(n), ()):
            if same(e, n):
                return Phrase(says, "clause" if n.type == A.BOOL else "noun")
        if id(n) in s.collapsed:
            return self.summary(n)
        out = self.visit(n, s, depth, names)
        s.sizes[id(n)] = (n, len(out.text.split()))
        return out

    def summary(self, n: Node) -> Phrase:
        """A subterm said by what it reads: "a player worked out from the passers"."""
        reads = self.reads(n)
        what = article(noun(n.type))
        if not reads:
            return Phrase(f"{what} fixed at this table")
        shown = reads[:3] + ([f"{len(reads) - 3} more"] if len(reads) > 3 else [])
        how = "on" if n.type == A.BOOL else "worked out from"
        return Phrase(f"{what} {how} {listed(shown)}")

    def reads(self, n: Node) -> list[str]:
        """The state variables (as phrases) and definitions (as names) ``n`` reads,
        in the order met."""
        hit = self._reads.get(id(n))
        if hit is not None and hit[0] is n:
            return hit[1]
        out: list[str] = []
        for x in A.walk(n):
            if isinstance(x, (Var, Primed)):
                w = self.whole(x.name)
            elif isinstance(x, Param):
                w = f"the {noun(x.type)} chosen"
            elif isinstance(x, Call):
                w = f"{x.name}"
            else:
                continue
            if w not in out:
                out.append(w)
        self._reads[id(n)] = (n, out)
        return out

    def whole(self, name: str) -> str:
        """A state variable, all of it: "the passers", "the hand of each player"."""
        v = self.book.variables.get(name)
        says = v.says if v is not None and v.says else name.replace("_", " ")
        return says.format("each player") if "{}" in says else says

    def kid(self, n: Node, s: Saying, depth: int, where: str, names=()) -> str:
        return slot(self.say(n, s, depth + 1, names), where)

    # -- the nodes -----------------------------------------------------------------
    def on_Const(self, n: Const, s: Saying, depth: int, names) -> Phrase:
        if n.type == A.INT and names and 0 <= n.value < len(names):
            name = names[n.value]
            return Phrase(name if name.isupper() else f'"{name}"')
        known = self.book.constants.get(n)
        if known is not None:
            return Phrase(known)
        if n.type == A.BOOL:
            return Phrase("true" if n.value else "false")
        if n.type in A.SET_TYPES:
            element = A.SET_TYPES[n.type]
            members = [self.book.constants.get(Const(i, element), str(i))
                       for i in A.bits(n.value)]
            return Phrase(listed(members) if members else "nothing")
        if n.type == A.PILE:
            return Phrase("an empty pile" if not n.value else f"a pile of {len(n.value)} cards")
        if n.type == A.CARDMAP:
            return Phrase("a value per card")
        return Phrase(str(n.value))

    def on_Var(self, n: Var, s: Saying, depth: int, names) -> Phrase:
        return Phrase(self.whole(n.name))

    def on_Primed(self, n: Primed, s: Saying, depth: int, names) -> Phrase:
        return Phrase(f"{self.whole(n.name)} after this move")

    def on_Param(self, n: Param, s: Saying, depth: int, names) -> Phrase:
        return Phrase(s.params.get(n.name, f"the {noun(n.type)} chosen"))

    def on_Bound(self, n: Bound, s: Saying, depth: int, names) -> Phrase:
        return Phrase(s.bound.get(n.name, n.name))

    def on_Op(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        return self.op_cases[n.op](self, n, s, depth, names)

    def on_Ite(self, n: Ite, s: Saying, depth: int, names) -> Phrase:
        arms: list[tuple[Node, Node]] = []
        x: Node = n
        while isinstance(x, Ite) and len(arms) < 4:
            arms.append((x.cond, x.then))
            x = x.else_
        parts = [f"{self.kid(v, s, depth, 'subject', names)} if {self.kid(c, s, depth, 'any')}"
                 for c, v in arms]
        return Phrase("; ".join(parts) + f"; otherwise {self.kid(x, s, depth, 'subject', names)}",
                      "if")

    def on_Let(self, n: Let, s: Saying, depth: int, names) -> Phrase:
        v = self.bind(n.var, s)
        return Phrase(f"{self.kid(n.body, s, depth, 'any', names)}, where {v} is "
                      f"{self.kid(n.value, s, depth, 'subject')}", "clause")

    def on_Quant(self, n: Quant, s: Saying, depth: int, names) -> Phrase:
        if n.kind == "mapof" and n.var.name not in A.free_names(n.body):
            return Phrase(f"{self.kid(n.body, s, depth, 'any', names)}, for every player", "sum")
        v = self.bind(n.var, s)
        dom = self.say(n.domain, s, depth + 1)
        each = f"{noun(n.var.type)} {v}"
        over = (f"each {each}" if dom.text in ("every player", "every card")
                else f"each {each} of {slot(dom, 'noun')}")
        body = self.kid(n.body, s, depth, "any")
        if n.kind == "forall":
            return Phrase(f"for {over.replace('each', 'every', 1)}, {body}", "clause")
        if n.kind == "exists":
            return Phrase(f"for some {over[5:]}, {body}", "clause")
        if n.kind == "sum":
            return Phrase(f"the sum, over {over}, of {body}")
        if n.kind == "setof":
            return Phrase(f"those {noun(n.var.type)}s {v} of {slot(dom, 'noun')} for whom "
                          f"{body}")
        return Phrase(f"{body}, for {over}", "sum")  # mapof

    def on_Call(self, n: Call, s: Saying, depth: int, names) -> Phrase:
        sig = self.book.signatures.get(n.name)
        reading = self.book.readings.get(n.name)
        as_read = f" (as {reading} reads it)" if reading else ""
        if sig is None or not sig.says:
            args = ", ".join(self.kid(a, s, depth, "noun") for a in n.args)
            return Phrase(f"{n.name}({args}){as_read}")
        given = {p: self.kid(a, s, depth, "noun") for p, a in zip(sig.names, n.args)}
        text = sig.says.format(**given) + as_read
        return Phrase(text, "clause" if sig.result == A.BOOL else "noun")

    def bind(self, var: Bound, s: Saying) -> str:
        """A fresh display name for a bound variable: its hint's letters, numbered
        when taken ("p", "p2")."""
        hint = re.sub(r"\d+$", "", var.name) or "x"
        taken = set(s.bound.values())
        name, k = hint, 1
        while name in taken:
            k += 1
            name = f"{hint}{k}"
        s.bound[var.name] = name
        return name

    # -- the operators ---------------------------------------------------------------
    def flat(self, n: Op) -> list[Node]:
        """The arguments of nested ``and``s (or ``or``s) as one list."""
        out: list[Node] = []
        for a in n.args:
            out.extend(self.flat(a) if isinstance(a, Op) and a.op == n.op else [a])
        return out

    @handles("and", "or")
    def junction(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        parts = [self.kid(a, s, depth, n.op) for a in self.flat(n)]
        return Phrase(listed(parts, n.op), n.op)

    @handles("not")
    def negation(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        (x,) = n.args
        if isinstance(x, Op) and id(x) not in s.collapsed:
            a = x.args
            sub = lambda i, where="subject", nm=(): self.kid(a[i], s, depth + 1, where, nm)
            if x.op == "eq":
                left, right = self.enum_sides(x)
                return Phrase(f"{sub(0, nm=left)} is not {sub(1, nm=right)}", "clause")
            if x.op == "member":
                return Phrase(f"{sub(0)} is not one of {sub(1, 'noun')}", "clause")
            if x.op == "is_empty":
                return Phrase(f"{sub(0)} is not empty", "clause")
            if x.op == "lt":
                return Phrase(f"{sub(0)} is at least {sub(1)}", "clause")
            if x.op == "le":
                return Phrase(f"{sub(0)} is more than {sub(1)}", "clause")
        return Phrase(f"not ({self.say(x, s, depth + 1).text})", "noun")

    def enum_sides(self, n: Op) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The value names each side of a comparison takes from the other: a
        variable with named values names the constant it is compared with."""
        a, b = n.args
        return self.value_names(b), self.value_names(a)

    def value_names(self, n: Node) -> tuple[str, ...]:
        if isinstance(n, (Var, Primed)):
            v = self.book.variables.get(n.name)
            return v.names if v is not None else ()
        return ()

    @handles("eq")
    def equal(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        left, right = self.enum_sides(n)
        return Phrase(f"{self.kid(n.args[0], s, depth, 'subject', left)} is "
                      f"{self.kid(n.args[1], s, depth, 'subject', right)}", "clause")

    #: operator -> (template over the arguments' phrases, the kind of slot of each, the
    #: kind of the result)
    TEMPLATES = {
        "add": ("{0} plus {1}", "term", "sum"),
        "sub": ("{0} minus {1}", "term", "sum"),
        "mul": ("{0} times {1}", "term", "sum"),
        "lt": ("{0} is less than {1}", "subject", "clause"),   # said by ``compared``
        "le": ("{0} is at most {1}", "subject", "clause"),
        "union": ("{0} together with {1}", "term", "sum"),
        "inter": ("those of {0} also in {1}", "term", "noun"),
        "diff": ("{0} except {1}", "term", "sum"),
        "member": ("{0} is one of {1}", "subject", "clause"),
        "with": ("{0} with {1}", "term", "sum"),
        "without": ("{0} without {1}", "term", "sum"),
        "is_empty": ("{0} is empty", "subject", "clause"),
        "count": ("the number of {0}", "noun", "noun"),
        "subset": ("all of {0} are in {1}", "noun", "clause"),
        "tsum": ("the total {1} of {0}", "noun", "noun"),
        "attr": ("the {1} of {0}", "noun", "noun"),
        "top": ("the top card of {0}", "noun", "noun"),
        "pile_len": ("the number of cards in {0}", "noun", "noun"),
        "push": ("{0} with {1} put on top", "term", "sum"),
        "pop": ("{0} without its top card", "term", "sum"),
        "pile_cards": ("the cards in {0}", "noun", "noun"),
        "pile_distinct": ("no card is twice in {0}", "noun", "clause"),
        "pile_of": ("a pile of {0} alone", "noun", "noun"),
    }

    @handles("lt", "le")
    def compared(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        """"x is less than y", said from the side that is not a number when only the
        other is: "the rounds completed is at least 2", not "2 is at most ..."."""
        a, b = n.args
        if isinstance(a, Const) and not isinstance(b, Const):
            than = "more than" if n.op == "lt" else "at least"
            return Phrase(f"{self.kid(b, s, depth, 'subject')} is {than} "
                          f"{self.kid(a, s, depth, 'subject')}", "clause")
        return self.templated(n, s, depth, names)

    @handles(*(o for o in TEMPLATES if o not in ("lt", "le")))
    def templated(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        text, where, kind = self.TEMPLATES[n.op]
        return Phrase(text.format(*(self.kid(a, s, depth, where) for a in n.args)), kind)

    @handles("step")
    def seat_from(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        p, k = n.args
        if isinstance(k, Const):
            return Phrase(f"the seat {k.value} place(s) on from {self.kid(p, s, depth, 'noun')}")
        way = self.direction(k, s, depth)
        if way is not None:
            return Phrase(f"the seat one place from {self.kid(p, s, depth, 'noun')} {way}")
        return Phrase(f"the seat {self.kid(k, s, depth, 'noun')} place(s) on from "
                      f"{self.kid(p, s, depth, 'noun')}")

    @handles("next_in")
    def next_of(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        p, k, among = n.args
        way = self.direction(k, s, depth) or f"going {self.kid(k, s, depth, 'noun')} at a time"
        return Phrase(f"the next of {self.kid(among, s, depth, 'noun')} after "
                      f"{self.kid(p, s, depth, 'noun')}, {way}")

    def direction(self, k: Node, s: Saying, depth: int) -> str | None:
        """A step of one seat, "in the direction of play" or "against" it: ``k`` a
        variable declared within -1..1, or 0 minus one; None for any other ``k``."""
        against = False
        v = k
        if (isinstance(k, Op) and k.op == "sub" and isinstance(k.args[0], Const)
                and k.args[0].value == 0):
            against, v = True, k.args[1]
        if isinstance(v, Bound) and v.name in s.stands_for:
            decl = self.book.variables.get(s.stands_for[v.name])
        elif isinstance(v, (Var, Primed)):
            decl = self.book.variables.get(v.name)
        else:
            return None
        if decl is None or decl.bounds is None or decl.bounds[0] < -1 or decl.bounds[1] > 1:
            return None
        return f"{'against' if against else 'in'} {self.kid(v, s, depth, 'noun')}"

    @handles("get")
    def entry(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        m, key = n.args
        one = self.one(m)
        k = self.kid(key, s, depth, "noun")
        if one is not None:
            return Phrase(one.format(k))
        return Phrase(f"{self.kid(m, s, depth, 'noun')} at {k}", "sum")

    @handles("put")
    def replaced(self, n: Op, s: Saying, depth: int, names) -> Phrase:
        m, key, value = n.args
        one = self.one(m)
        k = self.kid(key, s, depth, "noun")
        at = one.format(k) if one is not None else f"its value at {k}"
        return Phrase(f"{self.kid(m, s, depth, 'term')}, with {at} set to "
                      f"{self.kid(value, s, depth, 'subject')}", "sum")

    def one(self, m: Node) -> str | None:
        """A map variable's phrase for one player's value ("the hand of {}"), or None
        for a map that is not a variable."""
        if not isinstance(m, (Var, Primed)):
            return None
        v = self.book.variables.get(m.name)
        if v is None or "{}" not in v.says:
            return None
        return v.says + (" after this move" if isinstance(m, Primed) else "")


# -- rules -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Statement:
    """One statement of a rule's English: a head ("When a player discards a card:")
    and what it says under it (none for a head that says it all)."""
    head: str
    items: tuple[str, ...] = ()

    def text(self) -> str:
        if not self.items:
            return self.head
        if len(self.items) == 1:
            return f"{self.head} {self.items[0]}."
        return self.head + " " + "; ".join(self.items) + "."


@dataclass(frozen=True)
class RuleEnglish:
    """A rule in English: its statements, in the order of its fragments."""
    rule: str
    statements: tuple[Statement, ...]

    def text(self) -> str:
        return " ".join(st.text() for st in self.statements)


class RuleReader:
    """Every rule of a rule set in English (``english(rule)``), with the spec's
    words (``Phrasebook``) of that rule set."""

    def __init__(self, rs: RuleSet):
        self.rs = rs
        self.book = Phrasebook.of(rs)
        self.walker = English(self.book)

    @cached_property
    def _action_order(self) -> list[str]:
        return [a.name for a in self.rs.actions]

    def said(self, e: Node, params: dict[str, str], names=(), bound=None,
             stands_for=None) -> str:
        """``e`` in English, its longest subterms summarised one by one until it
        fits ``MAX_WORDS`` (``bound``: names for its free bound variables;
        ``stands_for``: the state variables some of them are named after)."""
        collapsed: set[int] = set()
        while True:
            s = Saying(params, frozenset(collapsed), dict(bound or {}),
                       stands_for=dict(stands_for or {}))
            text = self.walker.say(e, s, 0, names).text
            total = len(text.split())
            if total <= MAX_WORDS or len(collapsed) >= MAX_SUMMARIES:
                return text
            longest = max(((w, i) for i, (n, w) in s.sizes.items()
                           if n is not e and w < total and A.children(n)
                           and w > len(self.walker.summary(n).text.split()) + 2), default=None)
            if longest is None:
                return text
            collapsed.add(longest[1])

    def english(self, r: Rule) -> RuleEnglish:
        out: list[Statement] = []
        defines = [f for f in r.fragments if isinstance(f, Define)]
        guards = [f for f in r.fragments if isinstance(f, Guard)]
        updates = [f for f in r.fragments if isinstance(f, Update)]
        for d in defines:
            out.append(self.definition(d))
        by_moves: dict[tuple[str, ...], list[str]] = {}
        for g in guards:
            by_moves.setdefault(g.actions, []).append(
                self.said(g.expr, self.book.params(g.actions)))
        for acts, items in by_moves.items():
            out.append(Statement(f"{capital(self.book.moves(acts))} only if", tuple(items)))
        out += self.changes(updates)
        if defines:
            read = [a for a in self._action_order
                    if any(a in self.book.readers.get(d.name, ()) for d in defines)]
            if read:
                out.append(Statement(f"It is read {self.when_read(read)}."))
        if not r.fragments:
            out.append(Statement("It adds no guard, update or definition: read this way, the "
                                 "text changes no move."))
        return RuleEnglish(r.id, tuple(out))

    def when_read(self, moves: list[str]) -> str:
        """"at every move", "at every move of a round" (but when some), or "when
        <the moves>"."""
        if set(moves) >= {a.name for a in self.rs.actions}:
            return "at every move"
        rounds = [a.name for a in self.rs.actions if a.scope == "round"]
        but = [a for a in rounds if a not in moves]
        if not but:
            return "at every move of a round"
        if len(but) <= 3 and len(but) * 2 < len(rounds):
            return f"at every move of a round but when {self.book.moves(but)}"
        return f"when {self.book.moves(moves)}"

    def definition(self, d: Define) -> Statement:
        sig = self.book.signatures.get(d.name)
        names = sig.names if sig is not None else tuple(p.name for p in d.params)
        shown = {n: f"<{n}>" for n in names}   # a parameter, as the definition names it
        bound = {p.name: shown[n] for p, n in zip(d.params, names)}
        stands_for = {p.name: n for p, n in zip(d.params, names)
                      if n in self.book.variables and self.book.variables[n].type == p.type}
        if sig is not None and sig.says:
            head = sig.says.format(**shown)
        else:
            head = f"{d.name}({', '.join(names)})"
        verb = "when" if d.body.type == A.BOOL else "is"
        return Statement(f"{capital(head)} {verb}",
                         (self.said(d.body, {}, bound=bound, stands_for=stands_for),))

    def changes(self, updates: list[Update]) -> list[Statement]:
        """The updates, those alike across moves said once, grouped by the moves."""
        alike: dict[tuple, list[str]] = {}   # (var, value, when) -> the moves
        first: dict[tuple, Update] = {}
        for u in updates:
            key = (u.var, u.value, u.when)
            first.setdefault(key, u)
            alike.setdefault(key, [])
            alike[key] += [a for a in u.actions if a not in alike[key]]
        groups: dict[tuple[tuple[str, ...], Node], list[str]] = {}
        for key, acts in alike.items():
            u = first[key]
            var = self.book.variables.get(u.var)
            value = self.said(u.value, self.book.params(acts), var.names if var else ())
            who = self.walker.whole(u.var)
            if u.var in self.book.variables and self.book.variables[u.var].type == A.BOOL:
                who = f'"{who}"'  # a condition, set true or false
            groups.setdefault((tuple(acts), u.when), []).append(f"set {who} to {value}")
        out = []
        for (moves, when), items in groups.items():
            cond = "" if when == TRUE else f", if {self.said(when, self.book.params(moves))}"
            out.append(Statement(f"When {self.book.moves(moves)}{cond}:", tuple(items)))
        return out


def head(n: Node) -> tuple:
    """What two alike expressions share at their root: the node type and its
    operator, quantifier or definition."""
    if isinstance(n, Op):
        return (Op, n.op, len(n.args))
    if isinstance(n, Quant):
        return (Quant, n.kind)
    if isinstance(n, Call):
        return (Call, n.name)
    if isinstance(n, (Var, Primed, Param)):
        return (type(n), n.name)
    return (type(n),)


def same(a: Node, b: Node, env_a: dict | None = None, env_b: dict | None = None) -> bool:
    """Are ``a`` and ``b`` the same expression, up to the names of the variables
    they bind (each rule's quantifiers get fresh names)?"""
    env_a, env_b = env_a or {}, env_b or {}
    if type(a) is not type(b) or a.type != b.type:
        return False
    if isinstance(a, Bound) and isinstance(b, Bound):
        return env_a.get(a.name, a.name) == env_b.get(b.name, b.name)
    if isinstance(a, (Const, Var, Primed, Param)):
        return a == b
    mark = f"#{len(env_a)}"   # a variable bound here, named alike on both sides
    if isinstance(a, Let) and isinstance(b, Let):
        return (same(a.value, b.value, env_a, env_b)
                and same(a.body, b.body, {**env_a, a.var.name: mark}, {**env_b, b.var.name: mark}))
    if isinstance(a, Quant) and isinstance(b, Quant):
        return (a.kind == b.kind and same(a.domain, b.domain, env_a, env_b)
                and same(a.body, b.body, {**env_a, a.var.name: mark}, {**env_b, b.var.name: mark}))
    if isinstance(a, Op) and isinstance(b, Op) and a.op != b.op:
        return False
    if isinstance(a, Call) and isinstance(b, Call) and a.name != b.name:
        return False
    ka, kb = A.children(a), A.children(b)
    return len(ka) == len(kb) and all(same(x, y, env_a, env_b) for x, y in zip(ka, kb))


__all__ = ["RuleReader", "RuleEnglish", "Statement", "Phrasebook", "English", "Phrase",
           "Saying", "MAX_WORDS", "noun", "listed"]
