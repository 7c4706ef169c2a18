"""An answer to a question (``ask.py``, ``diff.py``): yes, no or unknown, its
scope and evidence.

Why a module of its own: ``ask`` hands ``differs`` questions to ``diff``, whose
answers are of the same kind; both build answers from here, so neither imports
the other back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

YES, NO, UNKNOWN = "yes", "no", "unknown"


@dataclass
class Answer:
    question: str
    variant: str
    answer: str
    scope: str
    evidence: dict
    lines: list = field(default_factory=list)  # the answer told for people
    scenario: str | None = None  # the saved witness scenario
    table: str = ""
    #: the witness or counterexample told as a story (``scenarios/story.py``, with its
    #: engine states), for the HTML report; not part of the JSON answer
    trace: dict | None = None

    def as_json(self) -> dict:
        return {"question": self.question, "variant": self.variant, "table": self.table,
                "answer": self.answer, "scope": self.scope, "evidence": self.evidence}


def slug(text: str) -> str:
    """``text`` as a short file-name stem (lower case, dashes)."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60].rstrip("-") or "question"


__all__ = ["Answer", "YES", "NO", "UNKNOWN", "slug"]
