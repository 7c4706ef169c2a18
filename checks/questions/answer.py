"""An answer to a question (``ask.py``, ``diff.py``): yes, no or unknown, its
scope and evidence.

A question is a property checked like the built-in ones ("can P" is "never P"
violated; "always P", "never P" and "after E, eventually P" are those
properties; "differs CP" is "the readings agree" violated), so an answer is
that property's ``Verdict``; yes and no are how the question puts it.

Why a module of its own: ``ask`` hands ``differs`` questions to ``diff``, whose
answers are of the same kind; both build answers from here, so neither imports
the other back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from itcp.scenarios.story import Trace

from ..results import Verdict


def answer_word(verdict: Verdict, yes_if_violated: bool) -> str:
    """"yes", "no" or "unknown": ``verdict`` of a question's property as the
    question puts it (``yes_if_violated``: "can P", "differs CP")."""
    if verdict is Verdict.UNKNOWN:
        return "unknown"
    return "yes" if (verdict is Verdict.VIOLATED) == yes_if_violated else "no"


@dataclass(frozen=True)
class Answer:
    """The answer to ``question`` in ``variant``: its property's ``verdict`` (shown
    as yes, no or unknown: ``answer``), in what scope, on what evidence, told for
    people (``lines``), with the witness saved as a scenario, if it was."""
    question: str
    variant: str
    verdict: Verdict
    yes_if_violated: bool
    scope: str
    evidence: dict
    lines: list = field(default_factory=list)  # the answer told for people
    scenario: str | None = None  # the saved witness scenario
    table: str = ""
    #: the witness or counterexample told as a story (``scenarios/story.py``, with its
    #: engine states), for the HTML report; not part of the JSON answer
    trace: Trace | None = None

    @property
    def answer(self) -> str:
        """"yes", "no" or "unknown"."""
        return answer_word(self.verdict, self.yes_if_violated)

    def as_json(self) -> dict:
        return {"question": self.question, "variant": self.variant, "table": self.table,
                "answer": self.answer, "scope": self.scope, "evidence": self.evidence}


def slug(text: str) -> str:
    """``text`` as a short file-name stem (lower case, dashes)."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60].rstrip("-") or "question"


__all__ = ["Answer", "answer_word", "slug"]
