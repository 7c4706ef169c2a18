"""What a check finds, as types: a verdict per property, with its evidence.

A property's result (``PropertyResult``) is its ``Verdict`` (HOLDS, VIOLATED
or UNKNOWN: the one UNKNOWN of the program), the engine that decided it, and
the evidence the verdict rests on.  Each kind of evidence is a frozen record
of its own: an exhausted search (``Exhaustive``), a search a limit stopped
(``Bounded``), a violation found but not told (``Found``), the shortest trace
to a violation (``Shortest``), a BMC trace the engine replayed (``Replayed``),
a proof by induction (``Inductive``, ``DeadlockProof``), a proved bracket
(``Bracket``), a per-action proof (``Proof``), a ranking function
(``Ranking``), an undecided symbolic search (``Unproved``,
``DeadlockCandidate``, ``RankingCounterexample``), two successors of one
choice (``TwoSuccessors``), a conformance bug between the backends
(``ConformanceBug``), and a property the engine does not decide
(``NotChecked``).  Each says itself in one line (``summary``: the text
report's; ``brief``: the HTML report's table) and as JSON (``as_json``: the
``--json`` outputs, key for key and in order, are part of the behaviour).
Everything that shows a result (report/) renders these records; nothing
parses their text back.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import ClassVar, Protocol

from itcp.model.engine.engine import Game
from itcp.scenarios.story import Trace
from itcp.spec.variants import Variant


class Verdict(StrEnum):
    """A property's verdict: HOLDS only with an exhausted search or a proof,
    VIOLATED with a trace the engine plays, else UNKNOWN naming what stopped it."""
    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    UNKNOWN = "UNKNOWN"


class Engine(StrEnum):
    """Which engine decides: the explicit-state search, Z3, or both."""
    EXPLICIT = "explicit"
    SYMBOLIC = "symbolic"
    ALL = "all"


def _moves(n: int) -> str:
    return f"{n} move{'s' * (n != 1)}"


def _given(**fields) -> dict:
    """The fields that are set (not None), in the order given: a record's
    optional JSON keys."""
    return {k: v for k, v in fields.items() if v is not None}


#: a reported range's JSON keys: found by an exhausted search, and seen so far
REPORTED, SEEN = ("min_hand", "max_hand"), ("min_hand_seen", "max_hand_seen")


def _range(keys: tuple[str, str], value) -> dict:
    """A range's two JSON keys, when there is one."""
    return {} if value is None else dict(zip(keys, value))


def _range_in(d: dict, keys: tuple[str, str]):
    """The range ``_range`` wrote, read back (None without one)."""
    return (d[keys[0]], d[keys[1]]) if keys[0] in d else None


def _listed(label: str, items) -> str:
    return f"; {label}: {', '.join(items)}" if items else ""


class Evidence:
    """What a verdict rests on (one frozen dataclass per kind of evidence)."""

    #: the evidence's ``kind`` in JSON
    KIND: ClassVar[str]

    @property
    def kind(self) -> str:
        return self.KIND

    def as_json(self) -> dict:  # pragma: no cover - every kind of evidence has its own
        raise NotImplementedError

    def summary(self) -> str:
        """The evidence in one line, as the text report gives it."""
        return ""

    def brief(self) -> str:
        """The evidence in a few words, as the HTML report's verdict table gives it."""
        return self.summary()

    @property
    def trace(self) -> Trace | None:
        """A violation's trace, told (None: the evidence holds none)."""
        return None

    @property
    def limit(self) -> str | None:
        """What stopped the check (None: nothing did)."""
        return None

    @property
    def depth_reached(self) -> int | None:
        """How many moves deep a search that stopped got (None: not such a search)."""
        return None

    def rests_on(self) -> Support | None:
        """What a symbolic proof rests on (None: the evidence is no such proof)."""
        return None


class Noted(Evidence):
    """Evidence whose one line is its ``note`` (what stopped it, or what is wrong)."""
    note: str

    def summary(self) -> str:
        return self.note


# -- an exhausted or stopped search -------------------------------------------------------

@dataclass(frozen=True)
class Exhaustive(Evidence):
    """The explicit search visited every state reachable at the table, and the
    property holds in all of them: a proof for this table.  A property that the
    round ends after an event adds the observed edges searched for a cycle; a
    reported range the range found (``reported``: the fewest and most cards a
    live hand held); ``method`` says how the search decides the property."""
    KIND = "exhaustive"
    states: int
    transitions: int
    depth: int
    symmetry: bool
    scope: str
    post_pass_edges: int | None = None
    method: str | None = None
    reported: tuple[int | None, int | None] | None = None

    def as_json(self) -> dict:
        return {"kind": self.KIND, "states": self.states, "transitions": self.transitions,
                "depth": self.depth, "symmetry": self.symmetry, "scope": self.scope,
                **_given(post_pass_edges=self.post_pass_edges, method=self.method),
                **_range(REPORTED, self.reported)}

    @classmethod
    def from_json(cls, d: dict) -> Exhaustive:
        return cls(d["states"], d["transitions"], d["depth"], d["symmetry"], d["scope"],
                   d.get("post_pass_edges"), d.get("method"), _range_in(d, REPORTED))

    def range_text(self) -> str:
        """The reported range in words ("" without one)."""
        if self.reported is None:
            return ""
        return f"hands hold {self.reported[0]} to {self.reported[1]} cards"

    def summary(self) -> str:
        ranged = self.range_text()
        return f"exhaustive over {self.states:,} states" + (f": {ranged}" if ranged else "")


@dataclass(frozen=True)
class Bounded(Evidence):
    """A search stopped by ``limit`` before it decided the property (the states
    and depth it reached, where it was the explicit search; a reported range's
    range so far, ``seen``)."""
    KIND = "bounded"
    stopped_by: str
    states: int | None = None
    depth: int | None = None
    note: str | None = None
    seen: tuple[int | None, int | None] | None = None

    @property
    def limit(self) -> str:
        return self.stopped_by

    @property
    def depth_reached(self) -> int | None:
        return self.depth

    def as_json(self) -> dict:
        return {"kind": self.KIND, "limit": self.stopped_by,
                **_given(states=self.states, depth=self.depth, note=self.note),
                **_range(SEEN, self.seen)}

    @classmethod
    def from_json(cls, d: dict) -> Bounded:
        return cls(d["limit"], d.get("states"), d.get("depth"), d.get("note"),
                   _range_in(d, SEEN))

    def summary(self) -> str:
        return self.note or ""

    def brief(self) -> str:
        return self.note or (f"stopped by {self.stopped_by}" if self.stopped_by else "no verdict")


@dataclass(frozen=True)
class Found(Evidence):
    """The explicit search found a violation, but what stopped the analysis after
    it (``stopped_by``) came before its trace was told."""
    KIND = "found"
    stopped_by: str

    @property
    def limit(self) -> str:
        return self.stopped_by

    @property
    def note(self) -> str:
        return (f"the search found a violation; its trace was not built "
                f"(stopped by {self.stopped_by})")

    def as_json(self) -> dict:
        return {"kind": self.KIND, "limit": self.stopped_by, "note": self.note}

    @classmethod
    def from_json(cls, d: dict) -> Found:
        return cls(d["limit"])

    def summary(self) -> str:
        return self.note


# -- violations ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Shortest(Evidence):
    """The shortest trace to a violation the breadth-first search found (a lasso
    for a loop); for no deadlock, how many dead ends it stored."""
    KIND = "trace"
    told: Trace
    deadlocks: int | None = None

    @property
    def trace(self) -> Trace:
        return self.told

    def as_json(self) -> dict:
        t = self.told
        if t.loop_from is not None:
            return {"kind": self.KIND, "lasso": True, "length": t.length,
                    "loop_starts_at_step": t.loop_from, "story": list(t.story)}
        out = {"kind": self.KIND, "length": t.length, "story": list(t.story)}
        if self.deadlocks is not None:
            out["deadlocks"] = self.deadlocks
        return out

    @classmethod
    def from_json(cls, d: dict, trace: Trace) -> Shortest:
        return cls(trace, d.get("deadlocks"))

    def summary(self) -> str:
        return (f"shortest trace: {_moves(self.told.length)}"
                + (" (a lasso)" if self.told.loop_from is not None else ""))


@dataclass(frozen=True)
class Replayed(Evidence):
    """A trace bounded model checking found, which the engine played again and
    reproduced (``reproduced`` says what it showed): the rules and readings on its
    path."""
    KIND = "bmc"
    told: Trace
    reproduced: str

    @property
    def trace(self) -> Trace:
        return self.told

    def as_json(self) -> dict:
        t = self.told
        out = {"kind": self.KIND, "length": t.length, "depth": t.length,
               "replayed": self.reproduced, "rules": t.rules, "readings": t.readings,
               "story": list(t.story)}
        if t.loop_from is not None:
            out["lasso"] = True
            out["loop_starts_at_step"] = t.loop_from
        return out

    def _lasso(self) -> str:
        return " (a lasso)" if self.told.loop_from is not None else ""

    def summary(self) -> str:
        return f"BMC trace: {_moves(self.told.length)}{self._lasso()}, replayed by the engine"

    def brief(self) -> str:
        return f"BMC trace, replayed by the engine: {_moves(self.told.length)}{self._lasso()}"


# -- proofs ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Support:
    """What a symbolic proof rests on: the rules of its cores, the invariants it
    assumed (each proved) with their statements, its scope, and notes on it."""
    rules: list
    scope: str
    note: str
    invariants: list = field(default_factory=list)
    statements: dict = field(default_factory=dict)
    core_note: str | None = None


class Proved(Evidence):
    """A symbolic proof: what it rests on is its ``support``."""
    support: Support

    def rests_on(self) -> Support | None:
        return self.support


@dataclass(frozen=True)
class Inductive(Proved):
    """A state or step property proved by ``k``-induction from the invariants,
    each proved with it (``structure``: the well-formedness facts assumed;
    ``by_frame``: the actions whose frame alone preserves it)."""
    KIND = "inductive"
    NOTE: ClassVar[str] = (
        "the invariants are proved together: each holds after every deal and "
        "every action preserves it given the others; the rules are the union "
        "of the minimised cores of the per-action proof queries; the actions "
        "listed under by_frame write none of the variables the property reads "
        "after the step, so their frame alone preserves it (no query, no rules)")
    k: int
    support: Support
    structure: list
    by_frame: list
    proved_invariants: int
    queries: int
    scouted: str | None = None

    def as_json(self) -> dict:
        s = self.support
        out = {"kind": self.KIND, "k": self.k, "rules": s.rules, "invariants": s.invariants,
               "structure": self.structure, "scope": s.scope,
               "invariant_statements": s.statements, "by_frame": self.by_frame,
               "proved_invariants": self.proved_invariants, "queries": self.queries,
               "note": s.note, **_given(scouted=self.scouted, core_note=s.core_note)}
        return out

    def summary(self) -> str:
        return (f"{self.k}-inductive; rules: {', '.join(self.support.rules)}"
                + _listed("invariants", self.support.invariants))

    def brief(self) -> str:
        return _inductive_brief(self.k, self.support)


def _inductive_brief(k: int, s: Support) -> str:
    inv = s.invariants
    return (f"{k}-inductive (Z3), {len(s.rules)} rules"
            + (f", {len(inv)} invariant{'s' * (len(inv) != 1)}" if inv else ""))


@dataclass(frozen=True)
class DeadlockProof(Proved):
    """No well-formed state satisfying the proved invariants is live without a
    legal move (1-inductive: the invariants hold in every reachable state)."""
    KIND = "inductive"
    support: Support

    def as_json(self) -> dict:
        s = self.support
        return {"kind": self.KIND, "k": 1, "invariants": s.invariants, "rules": s.rules,
                "invariant_statements": s.statements, "scope": s.scope, "note": s.note,
                **_given(core_note=s.core_note)}

    def summary(self) -> str:
        return (f"1-inductive; rules: {', '.join(self.support.rules)}"
                + _listed("invariants", self.support.invariants))

    def brief(self) -> str:
        return _inductive_brief(1, self.support)


@dataclass(frozen=True)
class Bracket(Proved):
    """A reported range's bracket ``lo``..``hi`` in every reachable state:
    proved by 1-induction, or (not ``proved``) what the table's card count alone
    gives.  Sound, not necessarily tight."""
    lo: int
    hi: int
    proved: bool
    support: Support

    @property
    def kind(self) -> str:
        return "inductive" if self.proved else "types"

    def rests_on(self) -> Support | None:
        return self.support if self.proved else None

    def as_json(self) -> dict:
        s = self.support
        return {"kind": self.kind, "k": 1, "min_hand": self.lo, "max_hand": self.hi,
                "bracket": [self.lo, self.hi], "rules": s.rules, "invariants": s.invariants,
                "invariant_statements": s.statements, "scope": s.scope, "note": s.note}

    def summary(self) -> str:
        how = (f"1-inductive; rules: {', '.join(self.support.rules)}" if self.proved
               else "by the card count alone")
        return f"hands hold {self.lo} to {self.hi} cards (a proved bracket: {how})"

    def brief(self) -> str:
        return _inductive_brief(1, self.support) if self.proved else self.kind


@dataclass(frozen=True)
class Proof(Proved):
    """A per-action proof: for every action, the same state, arguments and chance
    outcome give one successor."""
    KIND = "proof"
    support: Support

    def as_json(self) -> dict:
        s = self.support
        return {"kind": self.KIND, "rules": s.rules, "scope": s.scope, "note": s.note,
                **_given(core_note=s.core_note)}

    def summary(self) -> str:
        return f"proved for every state; rules: {', '.join(self.support.rules)}"

    def brief(self) -> str:
        return f"proved for every state (Z3), {len(self.support.rules)} rules"


@dataclass(frozen=True)
class Ranking(Proved):
    """A ranking function (``components``, compared first component first) that
    every step between two observed states lowers, and that no observed state
    makes negative: no cycle among them."""
    KIND = "ranking"
    components: list
    support: Support

    def as_json(self) -> dict:
        s = self.support
        return {"kind": self.KIND, "ranking": self.components, "rules": s.rules,
                "invariants": s.invariants, "invariant_statements": s.statements,
                "scope": s.scope, "note": s.note}

    def summary(self) -> str:
        return (f"ranking function ({', '.join(self.components)}) decreases on every "
                f"step after a Pass; rules: {', '.join(self.support.rules)}"
                + _listed("invariants", self.support.invariants))

    def brief(self) -> str:
        return (f"ranking function of {len(self.components)} components (Z3), "
                f"{len(self.support.rules)} rules")


#: the evidence a proof rests on, by type (the HTML report's "what it rests on")
PROOFS = (Inductive, DeadlockProof, Bracket, Proof, Ranking)


# -- undecided symbolic searches --------------------------------------------------------------

@dataclass(frozen=True)
class Unproved(Noted):
    """Bounded model checking found no violation within ``depth`` moves, and no
    proof came (``attempt``: the last induction's counterexample to induction
    and the invariants proved, when one was made)."""
    KIND = "bounded"
    depth: int
    stopped_by: str
    note: str
    attempt: tuple | None = None

    @property
    def limit(self) -> str:
        return self.stopped_by

    @property
    def depth_reached(self) -> int:
        return self.depth

    def as_json(self) -> dict:
        out = {"kind": self.KIND, "depth": self.depth, "limit": self.stopped_by,
               "note": self.note}
        if self.attempt is not None:
            out["cti"], out["invariants"] = self.attempt
        return out



@dataclass(frozen=True)
class DeadlockCandidate(Noted):
    """A live state without a legal move that no proved invariant excludes, not
    shown reachable within ``depth`` moves."""
    KIND = "bounded"
    depth: int
    candidate: dict | None
    note: str

    def as_json(self) -> dict:
        return {"kind": self.KIND, "depth": self.depth, "candidate": self.candidate,
                "note": self.note}



@dataclass(frozen=True)
class RankingCounterexample(Noted):
    """A step the ranking function does not lower that no proved invariant
    excludes, and no lasso within ``depth`` moves."""
    KIND = "bounded"
    depth: int
    components: list
    counterexample: dict | None
    note: str

    def as_json(self) -> dict:
        return {"kind": self.KIND, "depth": self.depth, "ranking": self.components,
                "counterexample": self.counterexample, "note": self.note}



@dataclass(frozen=True)
class TwoSuccessors(Evidence):
    """One choice from a well-formed state with two successors (whether the state
    is reachable was not checked)."""
    KIND = "witness"
    NOTE: ClassVar[str] = ("two successors of one choice from a well-formed state; whether "
                           "the state is reachable was not checked")
    action: list
    state: tuple
    successors: list

    def as_json(self) -> dict:
        return {"kind": self.KIND, "action": self.action, "state": self.state,
                "successors": self.successors, "note": self.NOTE}

    def summary(self) -> str:
        return self.NOTE


@dataclass(frozen=True)
class ConformanceBug(Noted):
    """Z3 and the engine disagree on a trace (``replay``: the deal, the moves
    and Z3's states, where known)."""
    KIND = "conformance_bug"
    note: str
    replay: tuple | None = None

    def as_json(self) -> dict:
        out = {"kind": self.KIND, "note": self.note}
        if self.replay is not None:
            out["deal"], out["actions"], out["z3_states"] = self.replay
        return out



@dataclass(frozen=True)
class NotChecked(Noted):
    """The engine does not decide the property (``note`` says why)."""
    KIND = "not_checked"
    note: str

    def as_json(self) -> dict:
        return {"kind": self.KIND, "note": self.note}



# -- a property's result ----------------------------------------------------------------

@dataclass(frozen=True)
class OtherEngine:
    """With both engines, what the engine whose result was not kept said."""
    engine: str
    verdict: Verdict
    kind: str

    def as_json(self) -> dict:
        return {"engine": self.engine, "verdict": self.verdict, "kind": self.kind}

    def text(self) -> str:
        """"symbolic engine: HOLDS (inductive)" without the engine's name."""
        return f"{self.verdict}" + (f" ({self.kind})" if self.kind else "")


@dataclass(frozen=True)
class PropertyResult:
    """One property's result: its verdict, the engine that decided it, what it
    says, the evidence, and with both engines what the other one said."""
    id: str
    verdict: Verdict
    engine: str
    statement: str
    evidence: Evidence
    other: OtherEngine | None = None

    @property
    def trace(self) -> Trace | None:
        """A violation's trace, told (None without one)."""
        return self.evidence.trace

    def as_json(self) -> dict:
        ev = self.evidence.as_json()
        if self.other is not None:
            ev["other_engine"] = self.other.as_json()
        out = {"id": self.id, "verdict": self.verdict, "engine": self.engine,
               "statement": self.statement, "evidence": ev}
        if self.trace is not None:
            out["trace"] = self.trace.as_json()
        return out

    def beside(self, other: PropertyResult) -> PropertyResult:
        """This result, noting what ``other`` (the other engine's) said."""
        return replace(self, other=OtherEngine(other.engine, other.verdict,
                                               other.evidence.kind))


#: the evidence the explicit search gives, by kind: what a result read back from
#: JSON (a sweep's cache) is rebuilt as
EXPLICIT_EVIDENCE: dict[str, Callable[[dict], Evidence]] = {
    Exhaustive.KIND: Exhaustive.from_json, Bounded.KIND: Bounded.from_json,
    Found.KIND: Found.from_json}


def explicit_result(d: dict, trace: Trace | None) -> PropertyResult:
    """An explicit search's result as ``as_json`` gave it, read back (the
    violation's ``trace`` given, with its engine states where they were kept)."""
    ev = d["evidence"]
    if ev["kind"] == Shortest.KIND:
        assert trace is not None  # a shortest trace is always in the JSON
        evidence: Evidence = Shortest.from_json(ev, trace)
    else:
        evidence = EXPLICIT_EVIDENCE[ev["kind"]](ev)
    other = ev.get("other_engine")
    return PropertyResult(d["id"], Verdict(d["verdict"]), d["engine"], d["statement"],
                          evidence, None if other is None else OtherEngine(
                              other["engine"], Verdict(other["verdict"]), other["kind"]))


# -- a check's report ------------------------------------------------------------------------

@dataclass(frozen=True)
class SearchStats:
    """The explicit search's figures: states stored, transitions, terminal states,
    dead ends, depth, seconds, deals, symmetry (and how many states the search
    would have stored without it), and whether it was exhausted or what limit
    stopped it."""
    states: int
    transitions: int
    terminal: int
    deadlocks: int
    depth: int
    seconds: float
    initial_states: int
    symmetry: bool
    symmetries: int
    states_without_symmetry: int
    complete: bool
    limit: str | None

    def as_json(self) -> dict:
        return {"states": self.states, "transitions": self.transitions,
                "terminal": self.terminal, "deadlocks": self.deadlocks, "depth": self.depth,
                "seconds": round(self.seconds, 3), "initial_states": self.initial_states,
                "symmetry": self.symmetry, "symmetries": self.symmetries,
                "states_without_symmetry": self.states_without_symmetry,
                "complete": self.complete, "limit": self.limit}


@dataclass(frozen=True)
class SymbolicStats:
    """The symbolic run's figures: queries, seconds in the solver and in all, the
    bounded search's depth, the invariants proved (and dropped), SMT-LIB2 files
    written."""
    queries: int = 0
    solver_seconds: float = 0.0
    seconds: float = 0.0
    bmc_depth: int = 0
    invariants: list = field(default_factory=list)
    dropped: dict = field(default_factory=dict)
    smt2_files: int = 0

    def as_json(self) -> dict:
        return {"queries": self.queries, "solver_seconds": round(self.solver_seconds, 3),
                "seconds": round(self.seconds, 3), "bmc_depth": self.bmc_depth,
                "invariants": self.invariants, "smt2_files": self.smt2_files}


@dataclass(frozen=True)
class Coverage:
    """Which rules took part in some step of the search (``fired``), which never
    did (a check of those may be vacuous), and whether firings were sampled."""
    fired: tuple[str, ...]
    never_fired: tuple[str, ...]
    sampled: bool

    def as_json(self) -> dict:
        return {"fired": list(self.fired), "never_fired": list(self.never_fired),
                "sampled": self.sampled}


class StateGraph(Protocol):
    """The explored state graph, read-only (for ``--graph`` and the HTML report's
    picture): states numbered 0 .. ``states - 1`` breadth-first."""

    @property
    def states(self) -> int: ...
    @property
    def symmetry(self) -> bool: ...
    @property
    def deadlocks(self) -> frozenset[int]: ...
    def depth(self, i: int) -> int: ...
    def parent(self, i: int) -> int: ...
    def state(self, i: int) -> tuple: ...
    def number_of(self, s) -> int | None: ...
    def edges(self) -> list[tuple[int, int]]: ...
    def post_pass_edges(self) -> list[tuple[int, int]]: ...


@dataclass(frozen=True)
class Report:
    """What one check found: the ``results`` (a verdict per property) of
    ``variant`` by ``engine``, the compiled ``game`` (None when a stop came before
    it was compiled), the explicit search's figures and rule coverage, the
    symbolic run's figures, with both engines the symbolic engine's own results
    (``also``), what stopped the command if anything did, and the explored graph
    (``graph``: None without an explicit search)."""
    variant: Variant
    engine: Engine
    results: tuple[PropertyResult, ...]
    game: Game | None = None
    search: SearchStats | None = None
    coverage: Coverage | None = None
    symbolic: SymbolicStats | None = None
    also: tuple[PropertyResult, ...] = ()
    stopped_by: str | None = None
    graph: StateGraph | None = field(default=None, compare=False, repr=False)

    @property
    def started(self) -> bool:
        """Whether a search began (else every result is UNKNOWN, naming the stop)."""
        return self.search is not None or self.symbolic is not None

    def stats_json(self) -> dict:
        if self.search is not None:
            out = self.search.as_json()
        elif self.symbolic is not None:
            out = self.symbolic.as_json()
        else:
            return {"complete": False, "limit": self.stopped_by, "stopped_by": self.stopped_by}
        if self.stopped_by is not None:
            out["stopped_by"] = self.stopped_by
        if self.search is not None and self.symbolic is not None:
            out["symbolic"] = self.symbolic.as_json()
        return out

    def as_json(self) -> dict:
        v = self.variant
        out = {"variant": v.name, "config": v.config.as_dict(), "readings": dict(v.explicit),
               "engine": self.engine, "properties": [r.as_json() for r in self.results],
               "stats": self.stats_json()}
        if self.coverage is not None:
            out["coverage"] = self.coverage.as_json()
        return out


def exit_code(results) -> int:
    """The CLI's exit code for these results: 1 a violation, 3 an unknown, else 0."""
    if any(r.verdict is Verdict.VIOLATED for r in results):
        return 1
    if any(r.verdict is Verdict.UNKNOWN for r in results):
        return 3
    return 0


__all__ = ["Verdict", "Engine", "Evidence", "Exhaustive", "Bounded", "Found", "Shortest",
           "Replayed", "Support", "Inductive", "DeadlockProof", "Bracket", "Proof", "Ranking",
           "PROOFS", "Unproved", "DeadlockCandidate", "RankingCounterexample", "TwoSuccessors",
           "ConformanceBug", "NotChecked", "OtherEngine", "PropertyResult", "explicit_result",
           "SearchStats", "SymbolicStats", "Coverage", "StateGraph", "Report", "exit_code"]
