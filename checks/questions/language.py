"""The question language: rule disputes as text, parsed without eval.

A question is one of::

    can <predicate>                          reachability: a witness or a proof it cannot happen
    always <predicate>  |  never <predicate> an invariant
    after <event>, eventually <predicate>    liveness: after every such event, on every path
    differs <choice-point>                   do the choice point's readings ever disagree?

Predicates combine with ``and``, ``or``, ``not``, ``while`` (an "and" that
reads better for "X fires while someone has passed") and parentheses.  The
words are the spec's own: players (``P0``, ``player 2``, ``the passer``,
``someone``, ``every player``, ``the next player``, ``the player to act``),
their hands, scores and points, teams, whose turn it is, the deck and the
discard pile, phases, and rule firings (``pride.open fires``, or a card's
name: ``pride_cycle fires`` = a Pride Cycle is discarded).

``parse`` is a small recursive-descent parser over a tokenizer that keeps each
token's column; a question it cannot read raises ``QuestionError`` (an
``InputError``: exit code 2) with the column, a caret under the question and,
for an unknown word, the nearest words that would have been understood there.
``compile_question`` turns the parsed question into spec AST formulas
(``Property`` objects: state predicates, or step predicates over ``Primed``
variables), so the same engine, explorer and symbolic checker answer it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from itcp.spec import ast as A
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.config import OPTION_TITLES, SUIT_NAMES, Config
from itcp.spec.errors import InputError, did_you_mean, nearest
from itcp.spec.lang import And, Exists, ForAll, Not, Or, num
from itcp.spec.properties import LIVE_PHASES, Kind, Property
from itcp.spec.rules import build_ruleset
from itcp.spec.rules.vocabulary import DECK_OUT, PASS_REACHED, PHASE_NAMES, ZERO, Vocabulary, score_of

FORMS = ("can", "always", "never", "after", "differs")
#: the longest question read, in characters
MAX_QUESTION = 20_000
#: how deep 'not' and parentheses may nest in a question
MAX_NESTING = 32


class QuestionError(InputError):
    """A question that does not parse or compile: the column and a caret."""

    def __init__(self, message: str, text: str, col: int, hint: str | None = None,
                 where: str | None = None):
        self.text, self.col = text, col
        shown, at = _window(text, col)
        caret = f"\n    {shown}\n    {' ' * (at - 1)}^"
        loc = f"{where}, column {col}" if where else f"question, column {col}"
        super().__init__(message + caret, loc, hint)


def _window(text: str, col: int, width: int = 100) -> tuple[str, int]:
    """The part of a long question around column ``col`` (and the column in it)."""
    text = text.replace("\n", " ").replace("\t", " ")
    if len(text) <= width:
        return text, col
    lo = max(0, min(col - 1 - width // 2, len(text) - width))
    hi = lo + width
    part = ("..." if lo else "") + text[lo:hi] + ("..." if hi < len(text) else "")
    return part, col - lo + (3 if lo else 0)


# -- tokens ---------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<poss>'s\b|’s\b)
  | (?P<num>-?\d+(?![\w.]))
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*)
  | (?P<punct>[,()?=<>!]=?|\.)
""", re.VERBOSE)


@dataclass(frozen=True)
class Tok:
    kind: str  # word, num, poss, punct, end
    text: str
    col: int  # 1-based

    @property
    def low(self) -> str:
        return self.text.lower()


def tokenize(text: str) -> list[Tok]:
    out, i = [], 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None:
            raise QuestionError(f"unexpected character {text[i]!r}", text, i + 1,
                                hint="questions use words, numbers, commas and parentheses")
        kind = m.lastgroup
        assert kind is not None   # every alternative of _TOKEN is a named group
        if kind != "space":
            out.append(Tok(kind, m.group(), i + 1))
        i = m.end()
    # a trailing question mark or full stop is just punctuation
    while out and out[-1].text in ("?", "."):
        out.pop()
    out.append(Tok("end", "", len(text) + 1))
    return out


# -- the parsed question ---------------------------------------------------------------

@dataclass(frozen=True)
class Pred:
    """A predicate node: ``op`` is and/or/not or an atom name; ``args`` its parts."""
    op: str
    args: tuple
    col: int = 0


@dataclass(frozen=True)
class Question:
    text: str
    form: str  # can, always, never, after, differs
    pred: Pred | None = None
    event: Pred | None = None
    choice: str | None = None
    where: str | None = field(default=None, compare=False)


#: player references: word sequences -> reference
PLAYER_WORDS = {
    ("the", "passer"): "passer", ("a", "passer"): "passer", ("the", "first", "passer"): "first",
    ("someone",): "some", ("somebody",): "some", ("anyone",): "some", ("a", "player"): "some",
    ("any", "player"): "some", ("some", "player"): "some",
    ("every", "player"): "every", ("everyone",): "every", ("each", "player"): "every",
    ("all", "players"): "every", ("everybody",): "every",
    ("the", "next", "player"): "next", ("the", "player", "to", "act"): "actor",
    ("the", "actor",): "actor", ("the", "turn", "player"): "turn",
    ("the", "current", "player"): "turn", ("the", "dealer"): "dealer",
    ("nobody",): "nobody", ("no", "one"): "nobody", ("no", "player"): "nobody",
}
KINDS = {"charity": "charity", "charities": "charity", "desolation": "desolation",
         "desolations": "desolation", "number": "number", "numbers": "number",
         **{k: k for k in OPTION_TITLES}, "pride": "pride_cycle", "secret": "secret_combination",
         "mercies": "mercy", "justices": "justice"}
#: multi-word card kinds as players write them
KIND_PHRASES = {("pride", "cycle"): "pride_cycle", ("secret", "combination"): "secret_combination",
                ("number", "card"): "number", ("number", "cards"): "number"}
#: the words a question names a round's end reason by, and that reason (spec's ``ended``)
REASONS = {"pass": PASS_REACHED, "passer": PASS_REACHED, "zero": ZERO, "deck": DECK_OUT}
CMP_WORDS = {("at", "least"): "ge", ("at", "most"): "le", ("more", "than"): "gt",
             ("fewer", "than"): "lt", ("less", "than"): "lt", ("exactly",): "eq",
             ("over",): "gt", ("under",): "lt", ("below",): "lt", ("above",): "gt"}
NUMBER_WORDS = {"zero": 0, "no": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3,
                "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


@lru_cache(maxsize=1)
def all_rule_ids() -> tuple[str, ...]:
    """Every rule of every reading (rule ids do not depend on the table)."""
    return tuple(r.id for r in build_ruleset(Config()).rules)


class _Fail(Exception):
    pass


class Parser:
    """Recursive descent with furthest-failure error reporting."""

    def __init__(self, text: str, where: str | None = None):
        self.text, self.where = text, where
        self.toks = tokenize(text)
        self.i = 0
        self.depth = 0  # 'not' and parentheses open here
        self.far: tuple[int, set[str]] = (-1, set())  # (token index, words expected there)
        #: names good for a "did you mean" but too many to list
        self.hint_only: tuple[int, tuple[str, ...]] = (-1, ())

    # -- primitives ----------------------------------------------------------------
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def expected(self, *words):
        if self.i > self.far[0]:
            self.far = (self.i, set(words))
        elif self.i == self.far[0]:
            self.far[1].update(words)

    def peek(self, *words) -> bool:
        return self.tok.low in words

    def take(self, *words) -> Tok | None:
        """The current token if it is one of ``words`` (any word if none given)."""
        t = self.tok
        if t.kind != "end" and (not words or t.low in words):
            self.i += 1
            return t
        self.expected(*words)
        return None

    def seq(self, words: tuple) -> bool:
        start = self.i
        for w in words:
            if self.take(w) is None:
                self.i = start
                return False
        return True

    def must(self, *words) -> Tok:
        t = self.take(*words)
        if t is None:
            raise _Fail()
        return t

    def attempt(self, fn):
        start = self.i
        try:
            return fn()
        except _Fail:
            self.i = start
            return None

    def first(self, *fns):
        for fn in fns:
            r = self.attempt(fn)
            if r is not None:
                return r
        raise _Fail()

    def error(self) -> QuestionError:
        i, expected = self.far
        if i < 0:
            i = self.i
        t = self.toks[i]
        words = sorted(w for w in expected if w)
        if t.kind == "end":
            msg = "the question ends too early"
            if words:
                msg += "; expected " + _listing(words)
            return QuestionError(msg, self.text, t.col, where=self.where)
        msg = f"unexpected {t.text!r}"
        pool = list(words) + (list(self.hint_only[1]) if self.hint_only[0] == i else [])
        best = nearest(t.text if "." in t.text else t.low, pool) if pool else None
        hint = f"did you mean {best!r}?" if best else None
        if words:
            msg += "; expected " + _listing(words)
        return QuestionError(msg, self.text, t.col, hint, self.where)

    # -- numbers and comparisons ---------------------------------------------------------
    def number(self) -> int:
        t = self.tok
        if t.kind == "num":
            self.i += 1
            return int(t.text)
        if t.low in NUMBER_WORDS:
            self.i += 1
            return NUMBER_WORDS[t.low]
        self.expected("<number>")
        raise _Fail()

    def cmp(self) -> tuple[str, int]:
        """``[is] [at least|at most|more than|...|=|<|>] N``."""
        self.take("is", "are", "be")
        for words, op_ in CMP_WORDS.items():
            if self.seq(words):
                return op_, self.number()
        for sym, op_ in (("=", "eq"), ("==", "eq"), ("<", "lt"), ("<=", "le"), (">", "gt"),
                         (">=", "ge"), ("!=", "ne")):
            if self.tok.text == sym:
                self.i += 1
                return op_, self.number()
        self.expected(*[w[0] for w in CMP_WORDS])
        return "eq", self.number()

    # -- the question ---------------------------------------------------------------------
    def question(self) -> Question:
        t = self.tok
        if self.take("can", "could", "may"):
            pred = self.predicate()
            form = "can"
        elif self.take("always"):
            pred, form = self.predicate(), "always"
        elif self.take("never"):
            pred, form = self.predicate(), "never"
        elif self.take("after"):
            event = self.event()
            self.take(",")
            self.must("eventually")
            pred = self.predicate()
            self.end()
            return Question(self.text, "after", pred, event, where=self.where)
        elif self.take("differs", "does"):
            return self.differs(t)
        else:
            self.expected(*FORMS)
            raise _Fail()
        self.end()
        return Question(self.text, form, pred, where=self.where)

    def end(self):
        if self.tok.kind != "end":
            self.expected("and", "or", "while")
            raise _Fail()

    def differs(self, t) -> Question:
        tok = self.tok
        if tok.kind != "word":
            self.expected("<choice point>")
            raise _Fail()
        self.i += 1
        cp = tok.text
        if cp not in CHOICE_POINTS:
            raise QuestionError(f"unknown choice point {cp!r}", self.text, tok.col,
                                did_you_mean(cp, CHOICE_POINTS), self.where)
        if t.low == "does":
            self.must("matter")
        self.end()
        return Question(self.text, "differs", choice=cp, where=self.where)

    def event(self) -> Pred:
        col = self.tok.col
        if self.seq(("a", "pass")) or self.seq(("the", "pass")) or self.seq(("a", "first", "pass")):
            return Pred("a_pass", (), col)
        return self.disjunction()

    # -- predicates ----------------------------------------------------------------------
    def predicate(self) -> Pred:
        return self.chain("while", "and", self.disjunction)

    def disjunction(self) -> Pred:
        return self.chain("or", "or", self.conjunction)

    def conjunction(self) -> Pred:
        return self.chain("and", "and", self.unary)

    def chain(self, word: str, op_: str, part) -> Pred:
        """``part (word part)*`` as one n-ary node (a chain of any length is
        one level deep, so nothing that walks the formula recurses per operand)."""
        parts = [part()]
        col = 0
        while self.tok.low == word:
            col = col or self.tok.col
            self.i += 1
            parts.append(part())
        if len(parts) == 1:
            return parts[0]
        flat: list = []
        for x in parts:  # "a while b and c" is one conjunction
            flat.extend(x.args if x.op == op_ else (x,))
        return Pred(op_, tuple(flat), col)

    def unary(self) -> Pred:
        col = self.tok.col
        if self.tok.low == "not" or self.tok.text == "(":
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise QuestionError(
                    f"the question nests 'not' and parentheses more than {MAX_NESTING} deep",
                    self.text, col, f"a question may nest 'not' and parentheses at most "
                    f"{MAX_NESTING} deep; 'not not P' is P", self.where)
            try:
                if self.take("not"):
                    self.take("true", "that")
                    return Pred("not", (self.unary(),), col)
                self.i += 1
                p = self.predicate()
                if self.tok.text != ")":
                    self.expected(")")
                    raise _Fail()
                self.i += 1
                return p
            finally:
                self.depth -= 1
        self.expected("not", "(")
        return self.first(self.round_phrase, self.deck_phrase, self.pile_phrase,
                          self.table_phrase, self.firing_phrase, self.player_phrase)

    # -- phrases -------------------------------------------------------------------------
    def round_phrase(self) -> Pred:
        col = self.tok.col
        self.must("the")
        self.must("round", "game")
        if self.seq(("goes", "on")) or self.seq(("go", "on")) or self.seq(("is", "not", "over")) \
                or self.seq(("continues",)) or self.seq(("continue",)):
            return Pred("not", (Pred("round_over", (None,), col),), col)
        self.first(lambda: self.must("ends", "end", "ended", "stops", "stop", "finishes"),
                   lambda: (self.must("is", "has", "be"), self.must("over", "ended", "finished")))
        reason = None
        if self.take("by", "with", "because", "on", "at"):
            self.take("the", "a", "of")
            r = self.must(*REASONS, "reaching")
            if r.low == "reaching":
                self.take("the")
                r = self.must("passer", "zero")
            self.take("reached", "exhausted", "points", "running", "empty", "out")
            reason = REASONS[r.low]
        return Pred("round_over", (reason,), col)

    def deck_phrase(self) -> Pred:
        col = self.tok.col
        self.must("the")
        self.must("deck")
        if any(self.seq(w) for w in (("runs", "out"), ("run", "out"), ("be", "empty"),
                                      ("is", "empty"), ("is", "exhausted"))):
            return Pred("deck_empty", (), col)
        if self.seq(("is", "not", "empty")):
            return Pred("not", (Pred("deck_empty", (), col),), col)
        self.must("has", "holds", "have", "hold")
        op_, n = self.cmp()
        self.must("cards", "card")
        return Pred("deck_count", (op_, n), col)

    def pile_phrase(self) -> Pred:
        col = self.tok.col
        self.must("the")
        if self.take("top"):
            self.take("card")
            self.take("of")
            if self.take("the"):
                self.take("discard")
                self.must("pile")
            self.must("is", "be")
            return self.card_target("top", col, None)
        self.take("discard")
        self.must("pile")
        if self.seq(("is", "empty")) or self.seq(("be", "empty")):
            return Pred("pile_empty", (), col)
        if self.seq(("is", "not", "empty")):
            return Pred("not", (Pred("pile_empty", (), col),), col)
        self.must("has", "holds", "have", "hold")
        op_, n = self.cmp()
        self.must("cards", "card")
        return Pred("pile_count", (op_, n), col)

    def table_phrase(self) -> Pred:
        col = self.tok.col
        if self.seq(("play", "goes", "to", "the", "right")) or \
                self.seq(("the", "direction", "is", "reversed")) or \
                self.seq(("play", "is", "reversed")):
            return Pred("reversed", (), col)
        if self.seq(("a", "team")):
            self.must("forms", "form", "exists", "exist")
            return Pred("team_exists", (), col)
        if self.seq(("there", "is", "a", "team")) or self.seq(("there", "be", "a", "team")):
            return Pred("team_exists", (), col)
        if self.seq(("the", "phase", "is")):
            t = self.must(*[p.lower() for p in PHASE_NAMES])
            return Pred("phase", (t.text.upper(),), col)
        if self.seq(("it", "is")):
            who = self.player_ref()
            self.must("'s", "’s")
            self.must("turn")
            return Pred("turn_of", (who,), col)
        if self.seq(("the", "duty", "falls", "on")) or self.seq(("a", "duty", "falls", "on")) \
                or self.seq(("the", "duty", "fall", "on")) or self.seq(("a", "duty", "fall", "on")):
            return Pred("duty_on", (self.player_ref(),), col)
        n = self.attempt(self.number)
        if n is not None:
            self.must("players", "player")
            self.must("have", "has")
            self.must("passed")
            return Pred("passers_count", ("ge", n), col)
        self.expected("play", "the", "a", "there", "it")
        raise _Fail()

    def firing_phrase(self) -> Pred:
        t = self.tok
        if t.kind != "word":
            raise _Fail()
        kind = None
        start = self.i
        for words, k in KIND_PHRASES.items():
            if self.seq(words):
                kind = k
                break
        if kind is None:
            self.take("a", "an")
            t = self.tok
            if t.kind != "word":
                self.i = start
                raise _Fail()
            name = t.text
            kind = KINDS.get(name.lower())
            ids = {r.lower(): r for r in all_rule_ids()}
            name = ids.get(name.lower(), name)
            if kind is None and name not in all_rule_ids():
                self.hint_only = (self.i, all_rule_ids())
                self.i = start
                raise _Fail()
            self.i += 1
            if kind is None:
                self.must("fires", "fire", "applies", "apply")
                return Pred("fires", (name,), t.col)
            self.take("card")
        self.must("fires", "fire", "applies", "apply", "is", "be", "played", "plays")
        self.take("played", "discarded")
        return Pred("played", (kind,), t.col)

    def player_ref(self):
        t = self.tok
        if t.kind == "word" and re.fullmatch(r"[pP]\d", t.text):
            self.i += 1
            return ("seat", int(t.text[1:]), t.col)
        if self.take("player", "seat"):
            return ("seat", self.number(), t.col)
        for words, ref in sorted(PLAYER_WORDS.items(), key=lambda kv: -len(kv[0])):
            if self.seq(words):
                return (ref, None, t.col)
        self.expected("P0", "player", *{w[0] for w in PLAYER_WORDS})
        raise _Fail()

    def player_phrase(self) -> Pred:
        col = self.tok.col
        who = self.player_ref()
        if self.take("'s", "’s"):
            return self.possessive(who, col)
        return self.verb(who, col)

    def possessive(self, who, col) -> Pred:
        t = self.must("hand", "score", "points", "turn", "team", "seat")
        if t.low == "turn":
            return Pred("turn_of", (who,), col)
        if t.low == "team":
            self.must("forms", "exists")
            return Pred("teamed", (who,), col)
        if t.low == "seat":
            self.seq(("is", "set", "aside"))
            return Pred("aside", (who,), col)
        if t.low == "hand":
            w = self.take("changes", "change", "changed", "grows", "grow", "shrinks", "shrink",
                          "is", "be", "has", "have", "holds", "hold", "becomes", "become")
            if w is None:
                raise _Fail()
            if w.low.startswith("change"):
                return Pred("hand_changes", (who,), col)
            if w.low.startswith("grow"):
                return Pred("hand_grows", (who,), col)
            if w.low.startswith("shrink"):
                return Pred("hand_shrinks", (who,), col)
            if w.low in ("is", "be", "becomes", "become"):
                if self.take("empty"):
                    return Pred("hand_count", (who, "eq", 0), col)
                self.must("worth")
                op_, n = self.cmp()
                self.take("points", "point")
                return Pred("points", (who, op_, n), col)
            # has / holds
            return self.holding(who, col)
        if t.low == "score":
            self.take("is", "be", "becomes", "become")
            op_, n = self.cmp()
            return Pred("score", (who, op_, n), col)
        self.take("are", "is")
        op_, n = self.cmp()
        return Pred("points", (who, op_, n), col)

    def holding(self, who, col) -> Pred:
        if self.take("only"):
            kind = self.kind_word()
            return Pred("holds_only", (who, kind), col)
        n_col = self.tok.col
        counted = self.attempt(self.counted_cards)
        if counted is not None:
            return Pred("hand_count", (who,) + counted, n_col)
        return self.card_target("holds", col, who)

    def counted_cards(self):
        op_, n = self.cmp()
        self.must("cards", "card")
        return (op_, n)

    def kind_word(self) -> str:
        for words, k in KIND_PHRASES.items():
            if self.seq(words):
                return k
        t = self.tok
        kind = KINDS.get(t.low)
        if kind is None:
            self.expected(*KINDS)
            raise _Fail()
        self.i += 1
        self.take("card", "cards")
        return kind

    def card_target(self, what: str, col: int, who) -> Pred:
        """``a <kind>`` or a named card (``red 2``, ``blue Charity``, ``Mercy``)."""
        t = self.tok
        if t.low in SUIT_NAMES:
            self.i += 1
            r = self.tok
            if r.kind == "num" or r.low in ("charity", "desolation"):
                self.i += 1
                name = f"{t.low} {r.text if r.kind == 'num' else r.low.capitalize()}"
                return Pred(f"{what}_card", (who, name, t.col), col)
            self.expected("<rank>", "charity", "desolation")
            raise _Fail()
        self.take("a", "an", "the", "any")
        kind = self.attempt(self.kind_word)
        if kind is None:
            self.expected(*SUIT_NAMES)
            raise _Fail()
        return Pred(f"{what}_kind", (who, kind), col)

    def verb(self, who, col) -> Pred:
        if self.take("passes", "pass", "says", "say"):
            self.take("pass")
            return Pred("passes", (who,), col)
        if self.seq(("has", "passed")) or self.take("passed") or self.seq(("is", "a", "passer")) \
                or self.seq(("has", "said", "pass")):
            return Pred("passed", (who,), col)
        if self.take("receives", "gets", "gains", "receive", "get", "gain"):
            self.must("a", "cards", "card")
            self.take("card")
            return Pred("hand_grows", (who,), col)
        if self.take("loses", "gives", "lose", "give"):
            self.must("a", "cards", "card")
            self.take("card", "away")
            return Pred("hand_shrinks", (who,), col)
        if self.take("ties", "tie"):
            self.must("for")
            self.take("the")
            self.must("lowest")
            self.take("hand", "points", "score")
            return Pred("lowest", (who, True), col)
        if self.seq(("has", "the", "lowest")) or self.seq(("have", "the", "lowest")):
            self.take("hand", "points", "score")
            return Pred("lowest", (who, False), col)
        if self.take("joins", "join"):
            self.must("a")
            self.must("team")
            return Pred("joins", (who,), col)
        if self.take("holds", "has", "hold", "have"):
            return self.holding(who, col)
        if self.take("scores", "score"):
            op_, n = self.cmp()
            return Pred("score", (who, op_, n), col)
        if self.take("acts", "act"):
            return Pred("acts", (who,), col)
        if self.take("must"):
            self.must("act", "play", "move")
            return Pred("acts", (who,), col)
        if self.take("reaches", "reach"):
            self.must("zero")
            self.take("points")
            return Pred("points", (who, "eq", 0), col)
        if self.take("is", "be"):
            if self.take("zero") or self.seq(("at", "zero")):
                return Pred("points", (who, "eq", 0), col)
            if self.seq(("set", "aside")):
                return Pred("aside", (who,), col)
            if self.seq(("on", "a", "team")) or self.take("teamed"):
                return Pred("teamed", (who,), col)
            if self.seq(("to", "act")) or self.seq(("to", "play")):
                return Pred("acts", (who,), col)
            if self.seq(("the", "passer")) or self.seq(("a", "passer")):
                return Pred("passed", (who,), col)
            raise _Fail()
        self.expected("passes", "has", "passed", "receives", "loses", "holds", "scores", "is",
                      "reaches", "must", "'s")
        raise _Fail()


def _listing(words) -> str:
    words = sorted(set(words))
    shown = ", ".join(repr(w) for w in words[:12])
    return shown + (", ..." if len(words) > 12 else "")


def parse(text: str, where: str | None = None) -> Question:
    """The question, or a ``QuestionError`` with the column and nearest names."""
    if not isinstance(text, str) or not text.strip():
        raise QuestionError("the question is empty", str(text or ""), 1,
                            "e.g. \"can the passer's hand change\"", where)
    if len(text) > MAX_QUESTION:
        raise QuestionError(f"the question is {len(text):,} characters long; the limit is "
                            f"{MAX_QUESTION:,}", text, MAX_QUESTION + 1,
                            "ask a shorter question (or several)", where)
    p = Parser(text, where)
    try:
        return p.question()
    except _Fail:
        raise p.error() from None


# -- compiling to spec formulas -----------------------------------------------------------

def is_step(node: A.Node) -> bool:
    return any(isinstance(n, A.Primed) for n in A.walk(node))


def mentions_cards(pred: Pred) -> bool:
    """Does the predicate name a particular card or suit?  (Symmetry reduction
    over suits and card copies is then unsound for it.)"""
    if pred.op.endswith("_card"):
        return True
    return any(isinstance(a, Pred) and mentions_cards(a) for a in pred.args)


class Compiler:
    """A parsed predicate as a spec expression over one table's vocabulary."""

    def __init__(self, spec, question: Question):
        self.spec, self.q = spec, question
        self.t = Vocabulary(spec.config)

    def fail(self, msg, col, hint=None):
        raise QuestionError(msg, self.q.text, col or 1, hint, self.q.where)

    def hand(self, p, primed=False):
        t = self.t
        return (t.hands_[t.hand_of_[p]] if primed else t.hands[t.hand_of[p]])

    def player(self, ref, body):
        t = self.t
        kind, n, col = ref
        if kind == "seat":
            if not 0 <= n < t.n:
                self.fail(f"there is no player {n} at this table ({t.n} players: P0..P{t.n - 1})",
                          col, f"use P0..P{t.n - 1}")
            return body(t.player_const(n))
        if kind == "passer":
            return Exists(t.passers, body, hint="q")
        if kind == "first":
            return And(Not(t.first_passer.eq(t.NOBODY)), body(t.first_passer))
        if kind == "some":
            return Exists(t.ALLP, body, hint="q")
        if kind == "every":
            return ForAll(t.ALLP, body, hint="q")
        if kind == "nobody":
            return Not(Exists(t.ALLP, body, hint="q"))
        if kind == "next":
            return body(A.op("next_in", t.turn, t.dir, t.ring(t.hand_of, t.aside)))
        if kind == "actor":
            # the player who must choose now: only while a player (not chance) moves
            playing = Or(*[t.phase.eq(self._phase(p)) for p in LIVE_PHASES])
            return And(playing, Not(t.actor.eq(t.NOBODY)), body(t.actor))
        if kind == "turn":
            return And(self.live(), Not(t.turn.eq(t.NOBODY)), body(t.turn))
        if kind == "dealer":
            return body(t.dealer)
        raise AssertionError(kind)

    @staticmethod
    def compare(x, op_, n):
        return {"eq": lambda: x.eq(n), "ne": lambda: x.ne(n), "lt": lambda: x < n,
                "le": lambda: x <= n, "gt": lambda: x > n, "ge": lambda: x >= n}[op_]()

    def card_index(self, name, col):
        names = {c.name.lower(): c.index for c in self.spec.config.cards}
        if name.lower() not in names:
            self.fail(f"there is no card {name!r} at this table ({self.spec.config.describe()})",
                      col, did_you_mean(name.lower(), names))
        return self.t.card_const(names[name.lower()])

    def kind_mask(self, kind):
        return self.t.kind[kind]

    def __call__(self, p: Pred) -> A.Node:
        t, op_, a = self.t, p.op, p.args
        if op_ == "and":
            return And(*map(self, a))
        if op_ == "or":
            return Or(*map(self, a))
        if op_ == "not":
            return Not(self(a[0]))
        if op_ == "round_over":
            over = t.phase.eq(self._phase("OVER"))
            return over if a[0] is None else And(over, t.ended.eq(a[0]))
        if op_ == "deck_empty":
            return t.deck.is_empty()
        if op_ == "deck_count":
            return self.compare(t.deck.count(), a[0], a[1])
        if op_ == "pile_empty":
            return A.op("pile_len", t.pile).eq(0)
        if op_ == "pile_count":
            return self.compare(A.op("pile_len", t.pile), a[0], a[1])
        if op_ == "top_card":
            return t.top_card.eq(self.card_index(a[1], a[2]))
        if op_ == "top_kind":
            return t.top_card.in_(self.kind_mask(a[1]))
        if op_ == "reversed":
            return t.dir.eq(-1)
        if op_ == "team_exists":
            return Exists(t.ALLP, lambda q: Not(t.hand_of[q].eq(q)), hint="q")
        if op_ == "phase":
            return t.phase.eq(self._phase(a[0]))
        if op_ == "passers_count":
            return self.compare(t.passers.count(), a[0], a[1])
        if op_ == "a_pass":
            return Not(t.passers_.eq(t.passers))
        if op_ == "fires":
            return self.fires(a[0])
        if op_ == "played":
            pile_grew = A.op("pile_len", t.pile) < A.op("pile_len", t.pile_)
            return And(pile_grew, t.top_after().in_(self.kind_mask(a[0])))
        who = a[0]
        body = {
            "passed": lambda q: q.in_(t.passers),
            "passes": lambda q: And(q.in_(t.passers_), Not(q.in_(t.passers))),
            "hand_changes": lambda q: Not(self.hand(q, True).eq(self.hand(q))),
            "hand_grows": lambda q: self.hand(q).count() < self.hand(q, True).count(),
            "hand_shrinks": lambda q: self.hand(q, True).count() < self.hand(q).count(),
            "hand_count": lambda q: self.compare(self.hand(q).count(), a[1], a[2]),
            "holds_card": lambda q: self.card_index(a[1], a[2]).in_(self.hand(q)),
            "holds_kind": lambda q: Not((self.hand(q) & self.kind_mask(a[1])).is_empty()),
            "holds_only": lambda q: And(Not(self.hand(q).is_empty()),
                                        A.op("subset", self.hand(q), self.kind_mask(a[1]))),
            "score": lambda q: self.compare(score_of(q),
                                            a[1], a[2]),
            "points": lambda q: self.compare(t.points(t.hands, t.hand_of, q, t.charity_out),
                                             a[1], a[2]),
            "aside": lambda q: q.in_(t.aside),
            "teamed": lambda q: self.teamed(q),
            "joins": lambda q: And(Not(self.teamed(q)), self.teamed(q, True)),
            "acts": lambda q: t.actor.eq(q),
            "turn_of": lambda q: t.turn.eq(q),
            "duty_on": lambda q: And(self.live(), t.duty > 0, t.duty_on.eq(q)),
            "lowest": lambda q: self.lowest(q, a[1]),
        }.get(op_)
        if body is None:
            raise AssertionError(op_)
        return self.player(who, body)

    def teamed(self, q, primed=False):
        """q plays another seat's hand, or another seat plays q's."""
        hof = self.t.hand_of_ if primed else self.t.hand_of
        return Or(Not(hof[q].eq(q)), Exists(
            self.t.ALLP, lambda r: And(Not(r.eq(q)), hof[r].eq(q)), hint="r"))

    def live(self):
        """A round in play (a player or chance is to move)."""
        return Or(*[self.t.phase.eq(self._phase(p)) for p in LIVE_PHASES + ("DECK", "RACE")])

    def lowest(self, q, tie: bool):
        """Nobody's hand is worth less than q's (and, for a tie, another's is worth as much)."""
        t = self.t
        mine = t.points(t.hands, t.hand_of, q, t.charity_out)
        low = ForAll(t.ALLP, lambda r: mine <= t.points(t.hands, t.hand_of, r, t.charity_out),
                     hint="r")
        if not tie:
            return low
        return And(low, Exists(t.ALLP, lambda r: And(
            Not(t.hand_of[r].eq(t.hand_of[q])),
            t.points(t.hands, t.hand_of, r, t.charity_out).eq(mine)), hint="r"))

    def _phase(self, name):
        return num(PHASE_NAMES.index(name))

    def fires(self, rid: str) -> A.Node:
        """"Rule ``rid`` takes part in the step s -> s'", from the spec itself.

        For each action the rule contributes to: the step is that action (its
        phase, some choice of its parameters meeting its guard, and exactly its
        next-state values), and the rule took part in it: its guard, a
        definition the guard used, or its update's condition held (the same
        notion ``Game.fired`` reports)."""
        alts = []
        for act in self.spec.actions:
            if any(p.size is not None for p in act.decl.params):
                continue  # the deal: step predicates are checked on moves after it
            always = {r for r, _ in act.guards} | set(act.used_defs)
            conds = []
            if rid in always:
                conds.append(A.Const(True, A.BOOL))
            for var, ups in act.updates.items():
                for r, when, _, _ in ups:
                    if r == rid or rid in act.update_defs.get((var, r), ()):
                        conds.append(when)
            if not conds:
                continue
            body = And(act.guard, Or(*conds), *[
                A.Primed(v.name, v.type).eq(act.values.get(v.name, A.Var(v.name, v.type)))
                for v in self.spec.variables])
            alts.append(And(self.t.phase.eq(act.phase.value), self._params(act, body)))
        return Or(*alts)

    def _params(self, act, body):
        def bind(params, env):
            if not params:
                return A.substitute(body, env)
            p, rest = params[0], params[1:]
            dom = A.substitute(p.domain, env)
            return Exists(dom, lambda x: bind(rest, {**env, p.name: x}), hint="a")
        return bind(list(act.decl.params), {})


def compile_question(q: Question, spec, pid: str = "Q") -> dict:
    """The formulas of a question on this spec's table: ``{"goal": Property,
    "event": Property | None}``.  ``goal`` is the invariant a violation of which
    answers the question: for ``can P`` it is ``always not P``."""
    c = Compiler(spec, q)
    out: dict[str, Property | None] = {"goal": None, "event": None}
    if q.form == "differs":
        return out
    assert q.pred is not None   # every form but differs has one (``parse``)
    f = c(q.pred)
    step = is_step(f)
    if q.form == "can":
        out["goal"] = Property(pid, Kind.STEP if step else Kind.STATE, f"never: {q.text}", Not(f))
    elif q.form == "never":
        out["goal"] = Property(pid, Kind.STEP if step else Kind.STATE, q.text, Not(f))
    elif q.form == "always":
        out["goal"] = Property(pid, Kind.STEP if step else Kind.STATE, q.text, f)
    elif q.form == "after":
        if step:
            c.fail("'eventually' needs a fact about a state (not a change in a step)",
                   q.pred.col, "e.g. 'the round ends', 'P0 has passed'")
        out["goal"] = Property(pid, Kind.STATE, f"(target) {q.text}", f)
        assert q.event is not None   # "after" has its event (``parse``)
        e = c(q.event)
        out["event"] = Property(pid + "_EVENT", Kind.STEP if is_step(e) else Kind.STATE,
                                f"(event) {q.text}", e)
    return out


__all__ = ["parse", "compile_question", "Question", "Pred", "QuestionError", "tokenize",
           "mentions_cards", "FORMS"]
