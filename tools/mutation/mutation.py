"""Are the checks strong enough?  Every mutant of the spec against the checks.

The checks are the library's scenarios and the properties' verdicts at a few
small tables (the explicit-state checker, every shipped variant).  For each
mutant (``tools/mutation/mutants.py``) they run on the mutated spec exactly as on the
spec itself, and the mutant is

* **killed** when a scenario's outcome changes (its expectation no longer comes
  out, a move it plays is refused, or its replay raises) or a property's
  verdict at a table changes between HOLDS and VIOLATED (either way) from the
  unmutated spec's;
* **survived** when nothing changes; *unreached* survivors are those no check's
  table and readings compile differently at all (the mutated rule is in none
  of their readings, or its change folds away there);
* **stillborn** when the mutated spec does not elaborate or compile (a type
  error, a missing definition): no check is needed to reject it, and it is
  left out of the score;
* **timeout** when nothing killed it within its time limit, or a table's search
  hit its state or time limit (a verdict then UNKNOWN, which is not a change
  from HOLDS or VIOLATED that counts).

A scenario with a ``[contrast]`` is also replayed under its contrast readings,
as the library test does: there its expectation fails on the unmutated spec, and
a mutant under which it comes out again (the reading no longer makes the
difference) is killed.

A check whose table and readings compile to exactly the unmutated spec
cannot kill the mutant and is skipped; so is one that never takes an action the
mutant changes, when no guard, property or score changes (``Change.invisible``:
a scenario that plays none of them, a table whose search never reaches their
phase): it visits the same states with the same legal moves and verdicts.  The
checks run cheapest first and stop
at the first kill (``all_kills`` runs every check instead).  Mutants run in
parallel worker processes, each with a time limit.
"""
from __future__ import annotations

import copy
import multiprocessing as mp
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from itcp.checks.explicit.explore import Limits, explore, state
from itcp.checks.explicit.verdicts import verdicts
from itcp.checks.results import Verdict
from itcp.model.engine.engine import Game, build_spec
from itcp.scenarios.format import Scenario, load_scenario, resolve
from itcp.scenarios.replay import replay
from itcp.spec.config import Config
from itcp.spec.errors import ItcpError, ScenarioError, SpecError
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import list_variants, load_variant
from tools.mutation.mutants import Mutant, mutant_change, mutants

KILLED, SURVIVED, STILLBORN, TIMEOUT = "killed", "survived", "stillborn", "timeout"


@dataclass(frozen=True)
class CheckTable:
    """A small table the properties are checked at, under every shipped variant."""
    name: str
    overrides: tuple  # (key, value) config overrides
    doc: str

    @property
    def config(self) -> dict:
        return dict(self.overrides)


#: The property tables: together they deal every option card, two suits
#: (Desolation's and Charity's suit tests) and three players (a seat between
#: two others); each is exhausted in about a second under every shipped variant.
TABLES = (
    CheckTable("A", (("players", 2), ("suits", 1), ("ranks", (2, 2)), ("hand", 1),
                     ("options", (("unbelief", 1), ("pride_cycle", 1)))),
               "2 players, 1 suit, ranks 2..2, hand 1, Unbelief, Pride Cycle"),
    CheckTable("B", (("players", 2), ("suits", 1), ("ranks", (2, 2)), ("hand", 1),
                     ("options", (("mercy", 1), ("justice", 1)))),
               "2 players, 1 suit, ranks 2..2, hand 1, Mercy, Justice"),
    CheckTable("C", (("players", 3), ("suits", 1), ("ranks", (2, 2)), ("hand", 1),
                     ("options", (("repentance", 1), ("secret_combination", 1)))),
               "3 players, 1 suit, ranks 2..2, hand 1, Repentance, Secret Combination"),
    CheckTable("D", (("players", 2), ("suits", 2), ("ranks", (2, 2)), ("hand", 1),
                     ("options", ())),
               "2 players, 2 suits, ranks 2..2, hand 1, no option cards"),
    CheckTable("E", (("players", 3), ("suits", 1), ("ranks", (2, 2)), ("hand", 1),
                     ("options", (("mercy", 1), ("justice", 1)))),
               "3 players, 1 suit, ranks 2..2, hand 1, Mercy, Justice"),
)

#: A table's search under a mutant stops at this many times the unmutated
#: spec's states (plus ``STATE_MARGIN``), or after ``TABLE_SECONDS``.
STATE_FACTOR, STATE_MARGIN, TABLE_SECONDS = 10, 20_000, 60.0


@dataclass
class Check:
    kind: str  # "scenario", "contrast" or "properties"
    name: str  # the scenario's file name (a contrast: "name~point=reading"), or "variant@table"
    key: tuple  # (config, readings, scope): the game it runs on
    scenario: Scenario | None = None
    verdicts: dict = field(default_factory=dict)  # unmutated: property -> verdict
    states: int = 0
    #: the actions the check can take on the unmutated spec: a scenario's moves,
    #: or every action of a phase the table's search reaches
    played: frozenset = frozenset()


@dataclass
class Baseline:
    """The checks and what they give on the unmutated spec."""
    checks: list
    specs: dict  # game key -> elaborated spec
    keys: list  # game keys, in the order their checks run
    tables: tuple = TABLES

    def by_key(self, key) -> list:
        return [c for c in self.checks if c.key == key]

    @property
    def rule_sets(self) -> list:
        return [build_ruleset(k[0]) for k in self.keys]


def _key(config: Config, readings, scope: str) -> tuple:
    return (config, tuple(sorted(dict(readings).items())), scope)


def _contrasted(sc):
    """The scenario under its ``[contrast]`` readings, as the library test replays
    it (``scenarios.contrast.under_contrast``), when its outcome there differs by
    the expectation failing: a mutant under which it comes out again is killed.
    None without a contrast, or when the contrast reading refuses a move already
    when the moves are read (no replay to run on a mutant)."""
    if not sc.contrast:
        return None
    other = copy.copy(sc)
    other.readings = dict(sc.readings) | dict(sc.contrast)
    other.moves = [copy.copy(m) for m in sc.moves]
    other.expect = dict(sc.expect)
    try:
        resolve(other)
    except ScenarioError:
        return None
    try:
        res = replay(other)
    except ScenarioError:  # a move the contrast reading refuses: differs
        return other
    if res.ok:
        raise ScenarioError("the scenario's [contrast] does not change its outcome on the "
                            "unmutated spec", sc.path)
    return other


def _moves(sc) -> frozenset:
    """The actions a scenario plays (the deal and its moves)."""
    return frozenset([sc.deal_action[0]] + [mv.resolved[0] for mv in sc.moves])


def _phase_actions(game: Game, max_states=None) -> frozenset:
    """Every action of a phase some reachable state of ``game`` is in: the actions
    its search can take.  (A search that stores every chance node as a state
    of its own, so that the chance phases are seen too.)"""
    ex = explore(game, Limits(max_states=max_states), fast=False, fold=False,
                 track_rules=False)
    if not ex.complete:
        return frozenset(a.name for a in game.spec.actions)
    phases = {state(ex, i)[0] for i in range(ex.states)}
    return frozenset(a.name for a in game.spec.actions if a.phase.value in phases)


def baseline(scenario_files, tables=TABLES, variants=None, max_states=None) -> Baseline:
    """Load the scenarios and run the property checks on the unmutated spec.
    Every scenario must pass (a failing library is not a basis to measure on)."""
    checks = []
    for path in scenario_files:
        sc = load_scenario(path)
        res = replay(sc)
        if not res.ok:
            raise ScenarioError(f"the scenario fails on the unmutated spec: {res.message}",
                                str(path))
        v = sc.variant_obj
        assert v is not None   # loaded, so resolved
        checks.append(Check("scenario", Path(path).name, _key(v.config, v.readings, sc.scope),
                            scenario=sc, played=_moves(sc)))
        other = _contrasted(sc)
        if other is not None:
            w = other.variant_obj
            assert w is not None   # resolved by _contrasted
            label = ",".join(f"{k}={x}" for k, x in sorted(sc.contrast.items()))
            checks.append(Check("contrast", f"{Path(path).name}~{label}",
                                _key(w.config, w.readings, sc.scope), scenario=other,
                                played=_moves(other)))
    for table in tables:
        for name in variants or list_variants():
            v = load_variant(name, table.config)
            key = _key(v.config, v.readings, "round")
            game = Game.from_variant(v)
            ex = explore(game, Limits(max_states=max_states), fast=False)
            vs = {x.id: x.verdict for x in verdicts(ex)}
            checks.append(Check("properties", f"{name}@{table.name}", key, verdicts=vs,
                                states=ex.states, played=_phase_actions(game, max_states)))
    keys = list(dict.fromkeys(c.key for c in checks))
    specs = {k: build_spec(k[0], dict(k[1]), k[2]) for k in keys}
    return Baseline(checks, specs, keys, tuple(tables))


@dataclass
class MutantOutcome:
    mutant: Mutant
    status: str
    #: what killed it: (check name, how), the first one only unless all_kills
    kills: list = field(default_factory=list)
    #: the checks whose table and readings compile the mutant differently
    reached: list = field(default_factory=list)
    detail: str = ""
    seconds: float = 0.0

    def as_json(self) -> dict:
        m = self.mutant
        return {"id": m.id, "operator": m.operator, "rule": m.rule, "fragment": m.fragment,
                "part": m.part, "spot": m.spot, "description": m.describe(),
                "status": self.status, "kills": [list(k) for k in self.kills],
                "reached": self.reached, "detail": self.detail,
                "seconds": round(self.seconds, 3)}


class MutantTimeout(BaseException):
    """The mutant's time limit (raised by an alarm, through any ``except Exception``)."""


def _scenario_kill(check: Check, game: Game) -> str | None:
    assert check.scenario is not None   # a scenario or contrast check has one
    sc = copy.copy(check.scenario)
    sc.game = game
    try:
        res = replay(sc)
    except ScenarioError as e:
        return f"refused: {e.message}"
    except MutantTimeout:
        raise
    except Exception as e:  # the mutated rules broke the replay itself
        return f"error: {type(e).__name__}: {e}"
    return None if res.ok else f"failed: {res.message.split(': ', 1)[-1]}"


def _contrast_kill(check: Check, game: Game) -> str | None:
    """Under the contrast readings the expectation fails on the unmutated spec: the
    mutant is killed if it comes out (the reading no longer makes a difference)."""
    assert check.scenario is not None   # a scenario or contrast check has one
    sc = copy.copy(check.scenario)
    sc.game = game
    try:
        res = replay(sc)
    except ScenarioError:
        return None
    except MutantTimeout:
        raise
    except Exception as e:
        return f"error: {type(e).__name__}: {e}"
    return "the contrast reading no longer changes the outcome" if res.ok else None


def _verdict_kill(check: Check, game: Game, deadline: float) -> tuple[str | None, bool]:
    """(how the verdicts changed, or None; whether a limit cut the search short)."""
    budget = max(1.0, min(TABLE_SECONDS, deadline - time.monotonic()))
    cap = check.states * STATE_FACTOR + STATE_MARGIN
    ex = explore(game, Limits(max_states=cap, timeout=budget), fast=False)
    got = {x.id: x.verdict for x in verdicts(ex)}
    changed = [f"{p} {check.verdicts[p]} -> {got[p]}" for p in check.verdicts
               if {check.verdicts[p], got.get(p)} == {Verdict.HOLDS, Verdict.VIOLATED}]
    return ("; ".join(changed) or None), not ex.complete


def run_mutant(base: Baseline, m: Mutant, seconds: float = 300.0,
               all_kills: bool = False) -> MutantOutcome:
    """Run the checks on mutant ``m`` (see the module's docstring)."""
    start = time.monotonic()
    deadline = start + seconds
    out = MutantOutcome(m, SURVIVED)
    limited = []
    try:
        for key in base.keys:
            checks = base.by_key(key)
            try:
                got = mutant_change(base.specs[key], build_ruleset(key[0]), m)
                if got is None:
                    continue
                spec, change = got
                checks = [c for c in checks if not change.invisible(c.played)]
                if not checks:
                    continue
                game = Game(spec)
            except (SpecError, SyntaxError, NameError, TypeError) as e:
                out.status, out.detail = STILLBORN, f"{type(e).__name__}: {e}"
                break
            for c in checks:
                out.reached.append(c.name)
                if c.kind == "scenario":
                    how = _scenario_kill(c, game)
                elif c.kind == "contrast":
                    how = _contrast_kill(c, game)
                else:
                    try:
                        how, cut = _verdict_kill(c, game, deadline)
                    except MutantTimeout:
                        raise
                    except (ItcpError, Exception) as e:
                        how, cut = f"error: {type(e).__name__}: {e}", False
                    if cut and not how:
                        limited.append(c.name)
                if how:
                    out.kills.append((c.name, how))
            if out.kills and not all_kills:
                break
            if time.monotonic() > deadline:
                raise MutantTimeout
    except MutantTimeout:
        if not out.kills:
            out.status, out.detail = TIMEOUT, f"time limit {seconds:g} s"
    if out.status == SURVIVED and out.kills:
        out.status = KILLED
    elif out.status == SURVIVED and limited:
        out.status = TIMEOUT
        out.detail = "search limit hit at " + ", ".join(limited)
    out.seconds = time.monotonic() - start
    return out


# -- in parallel ------------------------------------------------------------------------

_BASE: Baseline | None = None
_SECONDS = 300.0
_ALL = False


def _alarm(signum, frame):
    raise MutantTimeout


def _one(m: Mutant) -> MutantOutcome:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, _SECONDS + 5)
    assert _BASE is not None   # set by run() before the workers fork
    try:
        return run_mutant(_BASE, m, _SECONDS, _ALL)
    except MutantTimeout:
        return MutantOutcome(m, TIMEOUT, detail=f"time limit {_SECONDS:g} s", seconds=_SECONDS)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def run(base: Baseline, todo: list, workers: int = 1, seconds: float = 300.0,
        all_kills: bool = False, progress=None) -> list[MutantOutcome]:
    """Every mutant of ``todo``, in ``workers`` processes (forked: the baseline is
    shared), in ``todo``'s order."""
    global _BASE, _SECONDS, _ALL
    _BASE, _SECONDS, _ALL = base, seconds, all_kills
    done: dict[Mutant, MutantOutcome] = {}
    if workers <= 1:
        for m in todo:
            done[m] = _one(m)
            if progress:
                progress(done[m], len(done), len(todo))
    else:
        with mp.get_context("fork").Pool(workers) as pool:
            for o in pool.imap_unordered(_one, todo):
                done[o.mutant] = o
                if progress:
                    progress(o, len(done), len(todo))
    return [done[m] for m in todo]


def all_mutants(base: Baseline) -> list[Mutant]:
    """Every mutant at the tables the checks run at."""
    return mutants(base.rule_sets)


__all__ = ["Baseline", "Check", "CheckTable", "KILLED", "MutantTimeout", "MutantOutcome", "STILLBORN",
           "SURVIVED", "TABLES", "TIMEOUT", "all_mutants", "baseline", "run", "run_mutant"]
