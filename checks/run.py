"""One front door for checking: what to check goes in, an immutable ``Report``
comes out.

    report = Check(variant, properties=("FROZEN",), limits=Limits(max_states=10_000)).run()

A ``Check`` says everything about one check: the variant at its table, the
properties (all by default), the engine (the explicit-state search, Z3, or
both), the limits (states, depth, time), the search's shape (symmetry,
processes, a Ray cluster's parts), checkpoints to write and one to go on
from, and whom to tell of its progress.  ``run()`` compiles the game, runs
the engines, decides every property and returns the ``Report``: the results,
the search's figures, rule coverage, and a read-only view of the explored
graph (``checks/results.py``).  The exploration's own tables stay in here.
The idea is stateright's ``CheckerBuilder`` ... ``.spawn_bfs().join()``: one
way in, with a report out; the reporters (report/) render it.

Stops.  A command's time and memory limits and its signals belong to the
command (the CLI's ``Budget``); a check sees them through ``Stops``: each part
a stop may cut short (the compile, the search, the analysis after it, the
symbolic run) runs inside ``stops.interruptible()``, and ``stops.reason``
names what stopped it.  A stop before the search began leaves every property
UNKNOWN naming it; during the search, the search's own verdicts; during the
analysis, what the search alone shows (``checks/explicit/verdicts.py``).  The
limits are named as the user set them (``Limits.timeout_name``) where the
checks set them, never rewritten afterwards.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from itcp.model.engine.engine import Game
from itcp.spec.properties import property_ids
from itcp.spec.variants import Variant

from .explicit.explore import Exploration, Limits, Resume, resume_point
from .explicit.graph import ExploredGraph
from .explicit.partitioned import search
from .explicit.verdicts import search_verdicts, verdicts
from .results import (
    Bounded,
    Coverage,
    Engine,
    PropertyResult,
    Report,
    SearchStats,
    Verdict,
)

#: what a stop is called when nothing named it
CTRL_C = "interrupted (Ctrl-C)"


class Stops(Protocol):
    """What stops a check from outside: ``reason`` names what did (None: nothing
    yet); a stop raises ``KeyboardInterrupt`` inside ``interruptible()`` only."""
    reason: str | None

    def interruptible(self) -> AbstractContextManager: ...


class NoStops:
    """No limit but Ctrl-C."""
    reason: str | None = None

    def interruptible(self) -> AbstractContextManager:
        return nullcontext()


class CheckpointSink(Protocol):
    """Where a search's checkpoints go (the CLI's ``Checkpoints``): whether one is
    due at the monotonic time ``now``, and writing one."""

    def due(self, now: float) -> bool: ...
    def write(self, resume: Resume, now: float) -> None: ...


@dataclass(frozen=True)
class Check:
    """One check: ``variant`` (at its table), the ``properties`` (ids; all when
    empty), the ``engine``, the ``limits``; the explicit search with
    ``symmetry``, over ``workers`` processes (or parts made by ``transport``:
    a Ray cluster's), writing ``checkpoints`` and going on from ``resume``;
    ``progress(states, depth, seconds)`` after each level, ``part_progress``
    with each part's figures, ``searched()`` when the search ends; the symbolic
    run telling ``symbolic_progress(message)`` and writing each query to
    ``emit`` (SMT-LIB2); ``stops`` from outside.  ``game``: the variant's game
    already compiled, if the caller has it (a spec given more properties, as a
    test may); else it is compiled here, and a stop may cut that short."""
    variant: Variant
    properties: tuple[str, ...] = ()
    engine: Engine = Engine.EXPLICIT
    limits: Limits = field(default_factory=Limits)
    symmetry: bool = True
    workers: int = 1
    transport: Any = None
    checkpoints: CheckpointSink | None = None
    resume: Resume | None = None
    progress: Callable[[int, int, float], None] | None = None
    part_progress: Callable[[list], None] | None = None
    searched: Callable[[], None] | None = None
    symbolic_progress: Callable[[str], None] | None = None
    emit: Any = None
    stops: Stops = field(default_factory=NoStops)
    game: Game | None = field(default=None, compare=False)

    def run(self) -> Report:
        """Compile, search, decide: the report."""
        return _Run(self).report()


class _Run:
    """One run of a ``Check``: its deadline, and what stopped it if nothing named it."""

    def __init__(self, check: Check):
        self.check = check
        self.wanted = list(check.properties) or None
        lim = check.limits
        self.deadline = None if lim.timeout is None else time.monotonic() + lim.timeout
        self.unnamed: str | None = None   # a stop that came with no reason given

    # -- stops ------------------------------------------------------------------------
    def stopped_by(self) -> str | None:
        return self.check.stops.reason or self.unnamed

    def interruptible(self, fn, *args, **kwargs):
        """``fn(...)``, or None when a stop cut it short."""
        try:
            with self.check.stops.interruptible():
                return fn(*args, **kwargs)
        except KeyboardInterrupt:
            self.unnamed = self.unnamed or CTRL_C
            return None

    def seconds_left(self) -> float | None:
        """What is left of the time limit (at least a moment)."""
        return None if self.deadline is None else max(0.001, self.deadline - time.monotonic())

    # -- the check ---------------------------------------------------------------------
    def report(self) -> Report:
        check = self.check
        game = check.game or self.interruptible(Game.from_variant, check.variant)
        if game is None:
            return self.not_started()
        if check.engine is Engine.SYMBOLIC:
            got = self.symbolic(game)
            if got is None:
                return self.not_started()
            results, stats = got
            return Report(check.variant, check.engine, tuple(results), game, symbolic=stats,
                          stopped_by=self.stopped_by())
        ex = self.explore(game)
        if ex is None:
            return self.not_started()
        results = self.interruptible(verdicts, ex, self.wanted,
                                     stopped=lambda: self.check.stops.reason)
        if results is None:  # stopped as the analysis began or ended
            results = search_verdicts(ex, self.wanted, self.stopped_by() or CTRL_C)
        also, stats = (), None
        if check.engine is Engine.ALL:
            got = self.symbolic(game)
            if got is not None:
                also, stats = tuple(got[0]), got[1]
                results = merge(results, also)
        return Report(check.variant, check.engine, tuple(results), game, search_stats(ex),
                      coverage(game, ex), stats, also, self.stopped_by(), ExploredGraph(ex))

    def not_started(self) -> Report:
        """Every property UNKNOWN: a stop came before the search began."""
        reason = self.stopped_by() or CTRL_C
        ids = self.wanted or list(property_ids())
        return Report(self.check.variant, self.check.engine, tuple(
            PropertyResult(p, Verdict.UNKNOWN, self.check.engine, "", Bounded(
                reason, note=f"stopped by {reason} before the search began")) for p in ids),
            stopped_by=reason)

    def explore(self, game: Game) -> Exploration | None:
        """The explicit search, writing checkpoints as it goes and where it stopped."""
        check = self.check
        sink = check.checkpoints
        on_level = None
        if sink is not None:
            def on_level(ex, level):
                now = time.monotonic()
                if sink.due(now):
                    sink.write(resume_point(ex, level()), now)
        spread = {} if check.transport is None else {"transport": check.transport, "warm": 0}
        limits = replace(check.limits, timeout=self.seconds_left())
        ex = self.interruptible(
            search, game, limits, workers=check.workers, symmetry=check.symmetry,
            progress=check.progress, part_progress=check.part_progress if check.workers > 1
            else None, resume=check.resume, on_level=on_level,
            stopped=lambda: self.check.stops.reason, **spread)
        if check.searched is not None:
            check.searched()
        if ex is not None and sink is not None and not ex.complete and ex.level is not None:
            # stopped (a signal, a limit): the top of the level it was in, for a resume
            sink.write(resume_point(ex, ex.level), time.monotonic())
        return ex

    def symbolic(self, game: Game):
        """(results, figures) of the symbolic run, or None when a stop cut it short."""
        check = self.check
        return self.interruptible(
            _symbolic_verdicts, game, self.wanted, check.limits.max_depth, self.seconds_left(),
            check.emit, check.symbolic_progress, stopped=lambda: self.check.stops.reason,
            timeout_name=check.limits.timeout_name)


def _symbolic_verdicts(*args, **kwargs):
    """``symbolic_verdicts``, imported when first asked for: Z3 costs a tenth of a
    second to import, and an explicit check never needs it."""
    from .symbolic.checker import symbolic_verdicts  # lazy (tests/test_layers.py LAZY)

    return symbolic_verdicts(*args, **kwargs)


def merge(explicit, symbolic) -> list[PropertyResult]:
    """One result per property: a violation from either engine wins, then a proof
    from either (a replayed trace or an exhaustion/induction), else UNKNOWN;
    each noting what the other engine said."""
    by_id = {x.id: x for x in symbolic}
    out = []
    for x in explicit:
        y = by_id.get(x.id)
        if y is None:
            out.append(x)
            continue
        best = next((z for verdict in (Verdict.VIOLATED, Verdict.HOLDS)
                     for z in (x, y) if z.verdict is verdict), x)
        out.append(best.beside(y if best is x else x))
    return out


def search_stats(ex: Exploration) -> SearchStats:
    """The search's figures."""
    return SearchStats(ex.states, ex.transitions, ex.terminal, len(ex.deadlocks), ex.depth,
                       ex.seconds, ex.initial, ex.symmetry, ex.permutations,
                       ex.unreduced_states, ex.complete, ex.limit)


def coverage(game: Game, ex: Exploration) -> Coverage:
    """Which rules with fragments fired in the search, and which never did."""
    rules = sorted({r.id for r in game.spec.rules if r.fragments})
    return Coverage(tuple(sorted(ex.fired)), tuple(r for r in rules if r not in ex.fired),
                    ex.coverage_sampled)


__all__ = ["Check", "Stops", "NoStops", "CheckpointSink", "Limits", "merge", "CTRL_C"]
