"""One exception hierarchy for the whole program.

Every error a user can cause (a bad variant, scenario, question or flag) is an
``InputError``: the CLI prints its message and exits with code 2, never a
traceback.  ``SpecError`` is a bug in the rulebook spec itself (found at
elaboration, with the source line of the offending rule).
"""
from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass

#: the longest line of an error message (and its place, and its hint): input
#: echoed back is cut in the middle beyond it, so a 60 KB name prints as a line
MAX_SHOWN = 300


def clip(text, limit: int = MAX_SHOWN) -> str:
    """``text`` with every line longer than ``limit`` cut in the middle."""
    lines = str(text).split("\n")
    out = []
    for line in lines:
        if len(line) > limit:
            head = (limit - 40) * 2 // 3
            tail = limit - 40 - head
            line = (f"{line[:head]}[... {len(line) - head - tail:,} characters cut ...]"
                    f"{line[-tail:] if tail else ''}")
        out.append(line)
    return "\n".join(out)


class ItcpError(Exception):
    """Base of every error this program raises on purpose."""


class InputError(ItcpError):
    """Bad user input.  ``where`` is "file:line" when known; ``hint`` the fix."""

    def __init__(self, message: str, where: str | None = None, hint: str | None = None):
        self.message = clip(message)
        self.where = None if where is None else clip(where)
        self.hint = None if hint is None else clip(hint)
        super().__init__(self.render())

    def render(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


@dataclass(frozen=True)
class Setting:
    """A configuration setting a hint suggests: ``key`` set to ``value``, said as
    a variant file writes it (``toml``) or as a command-line flag (``flag``)."""
    key: str
    value: str | int | bool

    def toml_value(self) -> str:
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        return f'"{self.value}"' if isinstance(self.value, str) else str(self.value)

    def toml(self) -> str:
        """"hand = 3", "ranks = \"2..10\""."""
        return f"{self.key} = {self.toml_value()}"

    def flag(self) -> str:
        """"--hand 3", "--ranks 2..10"."""
        return f"--{self.key} {self.value}"


class ConfigError(InputError):
    """A configuration that cannot be a table (too many players for the deck...).

    ``key`` is the setting at fault (None: not one setting); ``problem`` what is
    wrong, without where the table came from (the message may add it).  A hint
    that suggests a setting keeps it (``suggested``) with the words around it
    (``hint``: ``{}`` where the setting goes), so that each reader says it its
    own way (``hint_saying``): a variant file as ``hand = 3``, a command line as
    ``--hand 3``."""

    def __init__(self, message: str, where: str | None = None, hint: str | None = None,
                 key: str | None = None, problem: str | None = None,
                 suggested: Setting | None = None):
        self.key = key
        self.problem = message if problem is None else problem
        self.suggested = suggested
        self._hint_words = hint
        super().__init__(message, where, self.hint_saying(Setting.toml))

    def hint_saying(self, say: Callable[[Setting], str]) -> str | None:
        """The hint, its suggested setting said by ``say`` (e.g. ``Setting.flag``)."""
        if self._hint_words is None or self.suggested is None:
            return self._hint_words
        return self._hint_words.format(say(self.suggested))


class VariantError(InputError):
    """A variant file that does not load."""


class SpecError(ItcpError):
    """The spec is ill-formed: a type error, a missing definition, a cycle."""


class InvalidRule(SpecError):
    """A rule of the spec that is wrong as written (a sentence the rulebook does
    not have, a reading its choice point does not have, a definition unlike its
    signature), raised when the rule is built: ``rule`` is its id and ``where``
    the "file:line" it was written at, when known."""

    def __init__(self, message: str, rule: str | None = None, where: str | None = None):
        self.message, self.rule, self.where = message, rule, where
        head = " ".join(([f"rule {rule}"] if rule else []) + ([f"({where})"] if where else []))
        super().__init__(f"{head}: {message}" if head else message)


class IllegalAction(ItcpError):
    """An action that is not legal in the given state."""


def nearest(name: str, valid) -> str | None:
    """The closest valid name, for "did you mean" hints."""
    match = difflib.get_close_matches(str(name), list(valid), n=1, cutoff=0.5)
    return match[0] if match else None


def valid_names(valid) -> str:
    """"valid: a, b, c" for a message (the suggestion goes in the hint)."""
    valid = sorted(valid)
    listing = ", ".join(valid) if len(valid) <= 12 else ", ".join(valid[:12]) + ", ..."
    return f"valid: {listing}"


def did_you_mean(name: str, valid) -> str:
    best = nearest(name, valid)
    return (f"did you mean {best!r}? " if best else "") + valid_names(valid)


class ScenarioError(InputError):
    """A scenario file that does not load or replay: ``where`` is "file:line",
    ``step`` the move number (0 for the deal) when the error is about one."""

    def __init__(self, message: str, where: str | None = None, hint: str | None = None,
                 step: int | None = None):
        self.step = step
        if step is not None and not message.startswith("step "):
            message = f"step {step}: {message}"
        super().__init__(message, where, hint)
