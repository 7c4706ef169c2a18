"""The literate rulebook: the rulebook sentence by sentence, each with the rules that
cite it (in English), the choice points that read it, and what backs them.

Catala weaves a law's text and its formal meaning into one document that lawyers
review; this is that document for the rulebook, built from the spec alone.  For
each sentence of ``spec/rulebook.py``, in the book's order: every rule citing it
(all readings, the variant's marked), said in English by ``report/english.py``,
with whether it fired in an explicit search of the variant at a small table (the
check's rule coverage), the library scenarios that exercise it and its mutants'
fate (``report/evidence.py``); and every choice point citing it, with its
readings (the variant's marked), why the literal one is literal and the library
scenarios that tell them apart.  Sentences no rule cites and rules citing no
sentence of the book are listed at the end.

The rules are said at the variant's table with every option card in (a rule
names a card of each kind: at a table without Mercy the Mercy cards would be
"no cards"); their coverage is that of the search's own table.  Nothing here
knows a particular rule: every listing comes from the rule set.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from itcp.checks.results import Report
from itcp.spec.choices import CHOICE_POINTS, ChoicePoint
from itcp.spec.config import OPTION_VALUES, Config
from itcp.spec.lang import Rule, RuleSet, included
from itcp.spec.rulebook import SENTENCES
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import Variant

from .english import RuleEnglish, RuleReader
from .evidence import Contrast, Evidence, Mutants


@dataclass(frozen=True)
class TableRun:
    """The explicit search the coverage comes from: its table, how many states,
    whether it was exhausted (else the limit that stopped it), whether rule
    firings were sampled, and the rules that fired."""
    table: str
    states: int
    complete: bool
    limit: str | None
    sampled: bool
    fired: frozenset[str]

    @classmethod
    def of(cls, report: Report) -> TableRun:
        s, cov = report.search, report.coverage
        return cls(report.variant.config.describe(), s.states if s else 0,
                   bool(s and s.complete), (s.limit if s else None) or report.stopped_by,
                   bool(cov and cov.sampled), frozenset(cov.fired if cov else ()))

    def text(self) -> str:
        if not self.complete and not self.states:
            return (f"explicit search at {self.table}: stopped by {self.limit or 'a limit'} "
                    "before the search began: no rule is seen firing")
        how = ("exhaustive" if self.complete else
               f"stopped by {self.limit or 'a limit'}: rules that fired later are not seen")
        return f"explicit search at {self.table}: {self.states:,} states, {how}" + (
            "; rule firings sampled once no new rule appeared for a while, so a rule not "
            "seen firing may fire later" if self.sampled else "")

    def state(self, r: Rule, included_: bool) -> str:
        """What the search says of rule ``r`` (``included_``: in the variant)."""
        if not included_:
            return "not in this variant"
        if not r.fragments:
            return "adds nothing"
        if r.scope == "game":
            return "game rule: not searched"
        if r.id in self.fired:
            return "fired"
        return "not seen firing" if self.sampled or not self.complete else "never fired"


@dataclass(frozen=True)
class RuleEntry:
    """One rule as the rulebook shows it."""
    id: str
    doc: str
    choice: str | None
    reading: str | None
    included: bool               # in the variant (its reading is the variant's)
    scope: str                   # "round" or "game"
    where: str                   # the file and line of its rule(...) call
    english: RuleEnglish
    fired: bool                  # it took part in a step of the search
    #: what the search says of it: "fired", "never fired" ("not seen firing" where
    #: firings were sampled), "adds nothing", "not in this variant", or a game
    #: rule's "not searched"
    state: str
    scenarios: tuple[str, ...]
    mutants: Mutants | None      # None: not in the mutation run


@dataclass(frozen=True)
class ReadingEntry:
    id: str
    text: str
    literal: bool
    chosen: bool                 # the variant's reading
    rules: tuple[str, ...]       # the rules that implement it


@dataclass(frozen=True)
class ChoiceEntry:
    """One choice point as the rulebook shows it."""
    id: str
    question: str
    why: str                     # why the literal reading is literal
    note: str
    readings: tuple[ReadingEntry, ...]
    contrasts: tuple[Contrast, ...]   # the library scenarios that tell readings apart

    @property
    def literal(self) -> str:
        return self.readings[0].id


@dataclass(frozen=True)
class SentenceEntry:
    """One sentence of the rulebook, with what cites it."""
    id: str
    text: str
    rules: tuple[RuleEntry, ...]
    choices: tuple[ChoiceEntry, ...]

    @property
    def in_variant(self) -> tuple[RuleEntry, ...]:
        return tuple(r for r in self.rules if r.included)

    @property
    def fired(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules if r.included and r.fired)

    @property
    def scenarios(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for r in self.rules:
            seen.update(dict.fromkeys(r.scenarios))
        return tuple(sorted(seen))

    @property
    def mutants(self) -> Mutants:
        total = Mutants()
        for r in self.rules:
            if r.mutants is not None:
                total = total + r.mutants
        return total


@dataclass(frozen=True)
class Rulebook:
    """The whole literate rulebook of one variant."""
    variant: str
    description: str
    readings_table: str          # the table the rules are said at
    run: TableRun
    evidence: Evidence
    sentences: tuple[SentenceEntry, ...]
    uncited: tuple[SentenceEntry, ...]       # sentences no rule cites
    citing_none: tuple[RuleEntry, ...]       # rules citing no sentence of the book

    def sentence(self, sid: str) -> SentenceEntry:
        return next(s for s in self.sentences if s.id == sid)

    def as_json(self, only: tuple[str, ...] = ()) -> dict:
        """Machine-readable (``only``: those sentences)."""
        run = self.run
        return {
            "variant": self.variant, "description": self.description,
            "readings_table": self.readings_table,
            "search": {"table": run.table, "states": run.states, "complete": run.complete,
                       "limit": run.limit, "sampled": run.sampled},
            "evidence": {"mutation_run": self.evidence.run,
                         "library": self.evidence.library},
            "sentences": [_sentence_json(s) for s in self.sentences
                          if not only or s.id in only],
            "uncited_sentences": [s.id for s in self.uncited],
            "rules_citing_no_sentence": [r.id for r in self.citing_none],
        }


def _sentence_json(s: SentenceEntry) -> dict:
    return {"id": s.id, "text": s.text,
            "rules": [{"id": r.id, "included": r.included, "choice": r.choice,
                       "reading": r.reading, "state": r.state, "doc": r.doc,
                       "english": [st.text() for st in r.english.statements],
                       "scenarios": list(r.scenarios), "where": r.where,
                       "mutants": r.mutants.as_json() if r.mutants else None}
                      for r in s.rules],
            "choice_points": [{"id": c.id, "question": c.question, "why_literal": c.why,
                               "readings": [{"id": rd.id, "text": rd.text,
                                             "literal": rd.literal, "chosen": rd.chosen,
                                             "rules": list(rd.rules)} for rd in c.readings],
                               "told_apart_by": [x.file for x in c.contrasts]}
                              for c in s.choices],
            "fired": list(s.fired), "scenarios": list(s.scenarios),
            "mutants": s.mutants.as_json()}


def first_said(sentences) -> dict[str, str]:
    """Where each rule and choice point is said in full: the first of ``sentences``
    citing it ("rule:<id>" or "choice:<id>" -> the sentence's id); under the others
    it is only named."""
    out: dict[str, str] = {}
    for s in sentences:
        for r in s.rules:
            out.setdefault(f"rule:{r.id}", s.id)
        for c in s.choices:
            out.setdefault(f"choice:{c.id}", s.id)
    return out


def reading_table(config: Config) -> Config:
    """``config`` with every option card in (one copy where it had none), so that a
    rule names a card of each kind."""
    have = dict(config.options)
    return replace(config, options=tuple((k, have.get(k, 1)) for k in OPTION_VALUES))


def build_rulebook(variant: Variant, run: TableRun, evidence: Evidence,
                   contrasts: dict[str, list[Contrast]], ruleset: RuleSet | None = None
                   ) -> Rulebook:
    """The rulebook of ``variant`` (its readings marked), the rules said at the
    variant's table with every option card (or ``ruleset``'s), with the coverage of
    ``run``, the ``evidence`` per rule and the library's ``contrasts``."""
    rs = ruleset if ruleset is not None else build_ruleset(reading_table(variant.config))
    reader = RuleReader(rs)
    readings = dict(variant.readings)
    entries = [_rule_entry(r, reader, readings, run, evidence) for r in rs.rules]
    by_sentence: dict[str, list[RuleEntry]] = {}
    for r, entry in zip(rs.rules, entries):
        for sid in r.sentences:
            by_sentence.setdefault(sid, []).append(entry)
    by_reading: dict[tuple[str, str], list[str]] = {}
    for r in rs.rules:
        if r.choice is not None and r.reading is not None:
            by_reading.setdefault((r.choice, r.reading), []).append(r.id)
    choices_of: dict[str, list[ChoiceEntry]] = {}
    for cp in CHOICE_POINTS.values():
        point = _choice_entry(cp, readings, by_reading, contrasts)
        for sid in cp.sentences:
            choices_of.setdefault(sid, []).append(point)
    sentences = tuple(SentenceEntry(sid, text, tuple(by_sentence.get(sid, ())),
                                    tuple(choices_of.get(sid, ())))
                      for sid, text in SENTENCES.items())
    citing_none = tuple(e for r, e in zip(rs.rules, entries)
                        if not any(sid in SENTENCES for sid in r.sentences))
    return Rulebook(variant.name, variant.description, rs.config.describe(), run, evidence,
                    sentences, tuple(s for s in sentences if not s.rules), citing_none)


def _rule_entry(r: Rule, reader: RuleReader, readings: dict, run: TableRun,
                evidence: Evidence) -> RuleEntry:
    where = f"{r.src_loc[0]}:{r.src_loc[1]}" if r.src_loc else ""
    inside = included(r, readings, "game")
    return RuleEntry(r.id, r.doc, r.choice, r.reading, inside, r.scope, where,
                     reader.english(r), inside and r.id in run.fired, run.state(r, inside),
                     evidence.scenarios.get(r.id, ()), evidence.mutation.get(r.id))


def _choice_entry(cp: ChoicePoint, readings: dict, by_reading: dict,
                  contrasts: dict[str, list[Contrast]]) -> ChoiceEntry:
    chosen = readings.get(cp.id, cp.literal)
    return ChoiceEntry(cp.id, cp.question, cp.why, cp.note, tuple(
        ReadingEntry(rd.id, rd.text, rd.id == cp.literal, rd.id == chosen,
                     tuple(by_reading.get((cp.id, rd.id), ())))
        for rd in cp.readings), tuple(contrasts.get(cp.id, ())))


__all__ = ["Rulebook", "SentenceEntry", "RuleEntry", "ChoiceEntry", "ReadingEntry", "TableRun",
           "build_rulebook", "reading_table", "first_said"]
