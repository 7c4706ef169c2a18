"""checks/run.py: the one front door for checking.  A ``Check`` in, an immutable
``Report`` out: the results, the search's figures, coverage and a read-only
view of the graph; stops from outside, limits named as set, checkpoints."""
from __future__ import annotations

import dataclasses
from contextlib import contextmanager

import pytest

from itcp.checks.explicit.explore import Resume
from itcp.checks.results import Engine, Report, Verdict
from itcp.checks.run import Check, Limits, NoStops
from itcp.spec.properties import property_ids
from itcp.spec.variants import load_variant

TINY = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1, "options": (("pride_cycle", 1),)}


@pytest.fixture(scope="module")
def official():
    return load_variant("official", TINY)


@pytest.fixture(scope="module")
def report(official) -> Report:
    return Check(official).run()


class StopAt:
    """Stops that come in the ``n``-th part a stop may cut short (1: the compile)."""

    def __init__(self, n: int, reason: str = "SIGTERM"):
        self.n, self.seen, self.why = n, 0, reason
        self.reason: str | None = None

    @contextmanager
    def interruptible(self):
        self.seen += 1
        if self.seen == self.n:
            self.reason = self.why
            raise KeyboardInterrupt
        yield


def test_a_check_gives_a_report(report, official):
    assert report.started and report.engine is Engine.EXPLICIT
    assert [r.id for r in report.results] == list(property_ids())
    by_id = {r.id: r for r in report.results}
    assert by_id["FROZEN"].verdict is Verdict.VIOLATED and by_id["FROZEN"].trace is not None
    assert report.search.complete and report.search.states == report.graph.states
    assert report.coverage.fired and report.stopped_by is None
    assert report.as_json()["variant"] == official.name
    # immutable: a report is a value
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.results = ()   # type: ignore[misc]


def test_the_graph_is_a_view_of_the_search(report):
    g = report.graph
    frozen = next(r for r in report.results if r.id == "FROZEN")
    nums = [g.number_of(s) for s in frozen.trace.states]
    assert None not in nums and g.depth(nums[0]) == 0
    assert all(g.parent(j) >= 0 for j in nums[1:])
    assert set(g.deadlocks) <= set(range(g.states))


def test_properties_and_limits(official):
    r = Check(official, ("FROZEN", "CONSERVATION"), limits=Limits(max_states=50)).run()
    assert [x.id for x in r.results] == ["FROZEN", "CONSERVATION"]
    cons = r.results[1]
    assert cons.verdict is Verdict.UNKNOWN and cons.evidence.limit == "--max-states 50"
    assert not r.search.complete and r.search.limit == "--max-states 50"


def test_a_time_limit_is_named_as_the_user_set_it(official):
    r = Check(official, ("CONSERVATION",),
              limits=Limits(timeout=1e-9, timeout_name="--timeout 5")).run()
    assert r.search.limit == "--timeout 5" and r.results[0].evidence.limit == "--timeout 5"
    # unnamed: as the search counted it
    r = Check(official, ("CONSERVATION",), limits=Limits(timeout=1e-9)).run()
    assert r.search.limit.startswith("--timeout ")


def test_a_stop_before_the_search_leaves_every_property_unknown(official):
    r = Check(official, stops=StopAt(1)).run()
    assert not r.started and r.stopped_by == "SIGTERM" and r.game is None
    assert {x.verdict for x in r.results} == {Verdict.UNKNOWN}
    assert r.results[0].evidence.summary() == "stopped by SIGTERM before the search began"
    assert r.stats_json() == {"complete": False, "limit": "SIGTERM", "stopped_by": "SIGTERM"}


def test_a_stop_in_the_analysis_keeps_what_the_search_showed(official):
    stops = StopAt(3)   # the compile, the search, then the analysis
    r = Check(official, stops=stops).run()
    assert r.started and r.search.complete and r.stopped_by == "SIGTERM"
    by_id = {x.id: x for x in r.results}
    assert by_id["FROZEN"].verdict is Verdict.VIOLATED and by_id["FROZEN"].trace is None
    assert by_id["FROZEN"].evidence.limit == "SIGTERM"
    assert by_id["CONSERVATION"].verdict is Verdict.HOLDS
    assert by_id["ROUND_ENDS"].verdict is Verdict.UNKNOWN


def test_checkpoints_are_handed_over_and_resumed(official, report):
    class Sink:
        def __init__(self):
            self.written: list[Resume] = []

        def due(self, now):
            return True

        def write(self, resume, now):
            self.written.append(resume)

    sink = Sink()
    Check(official, ("CONSERVATION",), checkpoints=sink).run()
    assert sink.written and all(isinstance(r, Resume) for r in sink.written)
    middle = sink.written[len(sink.written) // 2]
    again = Check(official, resume=middle).run()
    assert again.search.states == report.search.states
    assert [(x.id, x.verdict) for x in again.results] == \
        [(x.id, x.verdict) for x in report.results]


def test_progress_is_told_and_the_end_of_the_search(official):
    seen, ended = [], []
    Check(official, ("FROZEN",), progress=lambda *a: seen.append(a),
          searched=lambda: ended.append(True), stops=NoStops()).run()
    assert seen and ended == [True]
    assert [d for _, d, _ in seen] == sorted(d for _, d, _ in seen)


@pytest.mark.slow
def test_both_engines_merge_and_say_what_the_other_said(official):
    r = Check(official, ("ZERO_STOPS", "FROZEN"), engine=Engine.ALL).run()
    assert r.symbolic is not None and [x.id for x in r.also] == ["FROZEN", "ZERO_STOPS"]
    by_id = {x.id: x for x in r.results}
    assert by_id["ZERO_STOPS"].verdict is Verdict.HOLDS
    assert by_id["ZERO_STOPS"].other.engine == "symbolic"
    assert r.stats_json()["symbolic"]["queries"] > 0


@pytest.mark.slow
def test_a_symbolic_proof_beside_a_stopped_search_is_told_as_itself(cli):
    """With both engines, where the explicit search stopped and Z3 proved the
    property, the text names the proof (the report once failed on it)."""
    r = cli("check", "--engine", "all", "--max-states", "100", "--property", "ZERO_STOPS",
            "--suits", "1")
    assert r.exit_code == 0, r.output
    assert "STOPPED by --max-states 100" in r.stdout
    assert "ZERO_STOPS  HOLDS     1-inductive; rules: " in r.stdout
