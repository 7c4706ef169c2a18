"""Saving traces as scenario files: their text, checked before anything is written.

The checker's traces (explicit or symbolic, lassos included) and any other
sequence of engine states and actions become scenario files that replay to
the same result.  Nothing here opens a file for writing: ``checked_texts``
turns a batch of scenarios into their text, each loaded back (as if it were
already in its folder, so a variant named by a relative path resolves the
same) and replayed first; the CLI writes the texts through its one output
module (``cli/output.py``: temporary folder, all or nothing, no overwriting
without ``--force``).  Checkers that produce files as they go write them to a
*sink*: any object with ``folder`` (where the files will be) and
``write(name, text) -> path``; ``Collected`` is one that keeps them in memory.
``trace_scenario`` names the variant so that the scenario loads from the
folder it is saved in.  Commands that save traces (``check --save-scenarios``,
``scenarios generate``, ``ask``, ``diff``, ``disputes``) share these functions.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from itcp.model.search.searchkey import search_keys
from itcp.spec import variants
from itcp.spec.errors import InputError

from .format import Scenario, from_trace, loads, to_toml
from .replay import explain_refusal, facts, replay


class Collected:
    """A sink that keeps the files a checker produces in memory (name -> text),
    for a caller that writes them later, or not at all."""

    def __init__(self, folder: str | Path = ".") -> None:
        self.folder = Path(folder)
        self.files: dict[str, str] = {}

    def write(self, name: str, text: str) -> str:
        self.files[name] = text
        return str(self.folder / name)


def variant_ref(variant, out_dir) -> str:
    """How a scenario in ``out_dir`` names ``variant``: a shipped name as is; a
    variant file by its path relative to the scenario (absolute if that fails)."""
    if _is_shipped(variant):
        return variant.name
    target = Path(variant.path).resolve()
    try:
        return os.path.relpath(target, Path(out_dir).resolve())
    except ValueError:  # another drive
        return str(target)


def _shipped_dir() -> Path:
    return (Path(variants.__file__).parent / "variants").resolve()


def close_lasso(game, states: list, actions: list, loop_from: int):
    """Extend a lasso the explorer found until a state of its loop recurs exactly.

    The explorer stores a position once: up to a suit or copy renaming, and
    with the variables its future never reads forgotten, so the loop's last
    state is its first state only up to those.  Going round the loop again
    (each step the first move to a state of the same key) comes back, after a
    few rounds, to a state met exactly before, so replaying the trace shows
    the recurrence.  ``loop_from`` is the index of the state the loop starts
    from.  Returns (states, actions)."""
    if states[-1] == states[loop_from]:
        return states, actions
    key_of = search_keys(game, True)[2]
    loop_keys = [key_of(s) for s in states[loop_from + 1:]]
    states, actions = list(states), list(actions)
    seen = {s: i for i, s in enumerate(states) if i >= loop_from}
    for _ in range(1000):  # the forgotten values and the renamings bound the rounds
        for k in loop_keys:
            s = states[-1]
            step = next(((a, s2) for a, s2 in game.successors(s) if key_of(s2) == k), None)
            if step is None:  # pragma: no cover - the loop was built from successors
                raise AssertionError("cannot follow the lasso's loop")
            actions.append(step[0])
            states.append(step[1])
            if step[1] in seen:
                return states, actions
            seen[step[1]] = len(states) - 1
    raise AssertionError("the lasso does not close")  # pragma: no cover


def trace_scenario(variant, game, states, actions, expect, out_dir, title: str,
                   question: str = "") -> Scenario:
    """``from_trace`` for a scenario saved in ``out_dir``: the variant is named
    by ``variant_ref``, so the file loads from wherever it is replayed."""
    sc = from_trace(variant.name if _is_shipped(variant) else str(Path(variant.path).resolve()),
                    game.config, game, states, actions, expect, title=title, question=question)
    sc.variant = variant_ref(variant, out_dir)
    return sc


def end_expectation(game, s) -> dict:
    """What a saved trace expects at its last state ``s``: the phase, how the
    round ended, the passers, the hands and, when it is over, the scores."""
    f = facts(game, s)
    keep = {k: f[k] for k in ("phase", "ended", "passers")}
    keep.update({k: v for k, v in f.items() if k.startswith("hand.")})
    if game.is_terminal(s):
        keep["scores"] = f["scores"]
    return keep


def refusal_expectation(game, s, action, step: int) -> dict:
    """What a trace expects when its move number ``step``, ``action`` in state
    ``s``, is refused: that it is illegal there and, if one can be named, by
    which rule."""
    mover = game.current_player(s)
    refusal = explain_refusal(game, s, action, mover if mover >= 0 else None)
    expect: dict[str, int | str] = {"illegal_at": step}
    if refusal.rules:
        expect["rule"] = refusal.rules[0]
    return expect


def verdict_scenario(variant, game, verdict, out_dir=".") -> Scenario | None:
    """The scenario of a VIOLATED result's trace, or None if it has no trace with
    its engine states."""
    trace = verdict.trace
    if trace is None or trace.states is None or trace.actions is None:
        return None
    states, actions = list(trace.states), list(trace.actions)
    if trace.loop_from is not None:
        states, actions = close_lasso(game, states, actions, trace.loop_from - 1)
    engine = verdict.engine
    title = f"{variant.name}: {verdict.id} violated ({engine} search, {len(actions)} moves)"
    return trace_scenario(variant, game, states, actions,
                          {"property": verdict.id, "verdict": "violated"}, out_dir, title,
                          verdict.statement)


def _is_shipped(variant) -> bool:
    """A variant shipped with itcp (named by its name), not a file of the user's."""
    return not variant.path or Path(variant.path).resolve().parent == _shipped_dir()


def checked_texts(out_dir, files: Mapping[str, Scenario | str], check: bool = True) -> dict[str, str]:
    """``{file name: Scenario or text}`` -> ``{file name: text}``, every scenario
    (``.toml``) loaded back as the file ``out_dir/name`` would be and (with
    ``check``) replayed: one that does not load or does not come out as it
    says raises ``InputError``, before anything is written."""
    out = Path(out_dir)
    texts = {}
    for name, item in files.items():
        text = item if isinstance(item, str) else to_toml(item)
        if check and name.endswith(".toml"):
            try:  # loaded as if in out_dir: relative variant paths resolve the same
                res = replay(loads(text, str(out / name)))
            except InputError as e:
                raise InputError(f"the saved scenario {out / name} does not load: "
                                 f"{e.message}", hint=e.hint) from None
            if not res.ok:
                raise InputError(f"the saved scenario {out / name} does not replay to "
                                 f"its own outcome: {res.message}")
        texts[name] = text
    return texts


def verdict_scenarios(out_dir, variant, game, verdicts) -> dict[str, Scenario]:
    """Each violation's trace as ``<variant>-<PROPERTY>.toml`` (for ``out_dir``)."""
    files = {}
    for v in verdicts:
        sc = verdict_scenario(variant, game, v, out_dir)
        if sc is not None:
            files[verdict_file_name(variant.name, v.id)] = sc
    return files


def verdict_file_name(variant_name: str, pid: str, suffix: str = ".toml") -> str:
    """``<variant>-<PROPERTY>.toml``, the variant's name made one plain name."""
    return f"{_slug(variant_name)}-{pid}{suffix}"


def _slug(name: str) -> str:
    out = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in name)
    return out.lstrip("-.")[:80] or "variant"


__all__ = ["verdict_scenario", "checked_texts", "verdict_scenarios", "verdict_file_name",
           "close_lasso", "variant_ref", "Collected", "trace_scenario", "end_expectation",
           "refusal_expectation"]
