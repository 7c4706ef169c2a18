"""The search spread over processes finds what one process finds, number for number.

``checks/explicit/partitioned.py`` gives each part (a process) the states its hash names
and merges every level in the order one process stores it; so the two searches
must agree on everything they report: the keys in state-number order, parents,
depths, post-Pass edges, deadlocks, first violations (hence every shortest
trace), counts and verdicts.  Held here on small tables with every option card
between them, with and without symmetry reduction, folding and the batch code,
and through ``itcp-check check --workers`` in a real process.
"""
from __future__ import annotations

import _thread
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from itcp.checks.explicit import explore as E
from itcp.checks.explicit import partitioned as P
from itcp.checks.explicit.explore import Limits, explore
from itcp.checks.explicit.partitioned import (
    PartError,
    PartPlan,
    ProcessParts,
    _stops_deferred,
    _whole_messages,
    explore_partitioned,
    search,
)
from itcp.checks.explicit.verdicts import verdicts
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

ALL = (("mercy", 1), ("justice", 1), ("repentance", 1), ("unbelief", 1), ("pride_cycle", 1),
       ("secret_combination", 1))
TABLES = [  # (variant, table, symmetry, fast, fold, parts)
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                        options=(("unbelief", 1), ("pride_cycle", 1))), True, True, True, 2),
    ("clarified", Config(players=3, suits=1, ranks=(2, 2), hand=1,
                         options=(("mercy", 1), ("justice", 1), ("secret_combination", 1))),
     False, True, True, 3),
    ("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                        charity=False), True, True, True, 2),
    ("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                        charity=False), True, True, True, 5),
    ("published", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[3:],
                         charity=False), False, False, True, 2),
    ("official", Config(players=2, suits=1, ranks=(2, 2), hand=1,
                        options=(("justice", 1), ("repentance", 1), ("unbelief", 1))),
     False, True, False, 3),
]

def _game(variant, cfg):
    return Game.make(cfg, dict(load_variant(variant).readings))


@pytest.mark.parametrize("variant,cfg,symmetry,fast,fold,workers", TABLES,
                         ids=["official-default", "clarified-3p", "official-three-cards",
                              "five-parts", "published-generic", "official-unfolded"])
def test_parts_find_what_one_process_finds(variant, cfg, symmetry, fast, fold, workers,
                                           search_report):
    game = _game(variant, cfg)
    one = explore(game, symmetry=symmetry, fast=fast, fold=fold)
    many = explore_partitioned(game, workers, symmetry=symmetry, fast=fast, fold=fold, warm=0)
    assert one.complete and many.complete
    coverage = not (one.coverage_sampled or many.coverage_sampled)
    assert search_report(many, coverage) == search_report(one, coverage)
    assert [many.number_of(k) for k in many.keys] == list(range(many.states))


def test_numbers_do_not_depend_on_the_chunks(monkeypatch, search_report):
    """A state's number is fixed by the breadth-first order alone: a search cut
    into chunks of 64 states numbers every state as one of 32,768."""
    game = _game("official", Config(players=3, suits=1, ranks=(2, 2), hand=1,
                                    options=(("repentance", 1), ("secret_combination", 1))))
    big = explore(game, symmetry=False, track_rules=False)
    monkeypatch.setattr(E, "CHUNK_STATES", 64)
    small = explore(game, symmetry=False, track_rules=False)
    assert search_report(small) == search_report(big)



def test_parts_number_as_one_process_whatever_their_chunks(monkeypatch, search_report):
    """A part expands chunks spanning its share of one process's chunk and
    stores a level a batch of ``CLOSE_ROWS`` at a time: cut small, so that every
    level spans many of each, the parts still number every state as one process."""
    game = _game("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                                    charity=False))
    one = explore(game, symmetry=False, track_rules=False)
    monkeypatch.setattr(P, "CHUNK_STATES", 16)
    monkeypatch.setattr(P, "CLOSE_ROWS", 24)
    many = explore_partitioned(game, 3, symmetry=False, track_rules=False, warm=0)
    assert one.complete and many.complete
    assert search_report(many) == search_report(one)

def test_a_limit_stops_between_levels_and_nothing_holds():
    game = _game("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                                    charity=False))
    ex = explore_partitioned(game, 2, Limits(max_states=2000), warm=0)
    assert not ex.complete and ex.limit == "--max-states 2000"
    one = explore(game)
    # what it stored is a prefix of the complete search: the same numbers
    assert list(ex.keys) == list(one.keys)[:ex.states]
    assert {v.verdict for v in verdicts(ex)} <= {"UNKNOWN", "VIOLATED"}
    depth = explore_partitioned(game, 2, Limits(max_depth=3), warm=0)
    assert depth.limit == "--depth 3" and depth.depth_of.deepest() == 3


class _InterruptedThenGone:
    """Parts whose search is interrupted as it asks for the third level's
    expansion, and which cannot then be settled: they end before they tell the
    coordinator their counts (as after a memory-limit stop on a big table)."""

    def __init__(self, game, plan):
        self.inner = ProcessParts(game, plan)
        self.pids, self.shared = self.inner.pids, self.inner.shared
        self.expansions = 0

    def call(self, name, args):
        if name == "expand":
            self.expansions += 1
            if self.expansions == 3:
                raise KeyboardInterrupt
        return self.inner.call(name, args)

    def settle(self):
        raise PartError("the parts are gone")

    def close(self, kill=False):
        self.inner.close(kill=True)


def test_parts_that_end_untold_leave_counts_that_agree_with_the_states():
    """The states stored and the moves counted agree even when the parts end
    before they are asked for their counts: the counts are those of the last
    expansion the parts finished, as one process counts them at that level."""
    game = _game("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                                    charity=False))
    ex = explore_partitioned(game, 2, warm=0, transport=_InterruptedThenGone)
    assert ex.interrupted and not ex.complete
    one = explore(game, Limits(max_depth=ex.depth))
    assert (ex.states, ex.transitions, ex.terminal) == (one.states, one.transitions, one.terminal)
    assert ex.transitions >= ex.states - len(ex.deal_action)


def test_the_first_levels_in_this_process_then_the_parts(search_report):
    """The default: the first states searched here (the successor code compiled
    once), the rest in the parts; a table that ends first needs no parts."""
    game = _game("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                                    options=(("unbelief", 1), ("pride_cycle", 1))))
    one = search_report(explore(game))
    assert search_report(explore_partitioned(game, 2, warm=5000)) == one
    assert search_report(explore_partitioned(game, 2)) == one   # all of it here


def test_one_worker_is_the_one_process_search(search_report):
    game = _game("official", Config(players=2, suits=2, ranks=(2, 2), hand=1))
    assert search_report(search(game, workers=1)) == search_report(explore(game))


def _itcp(*args, **kw):
    exe = os.path.join(os.path.dirname(sys.executable), "itcp-check")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, **kw)


def test_check_with_workers_reports_what_one_process_reports(tmp_path):
    """The whole command, as a user runs it: the same JSON report (but the time).
    The table has 933,598 states: past the first 200,000 the parts take over."""
    args = ["check", "official", "--players", "3", "--suits", "1", "--ranks", "2..2",
            "--hand", "1", "--options", "mercy,justice,pride_cycle,secret_combination", "--json"]
    out = []
    for w in ("1", "2"):
        r = _itcp(*args, "--workers", w, cwd=tmp_path)
        assert r.returncode in (0, 1), r.stderr
        d = json.loads(r.stdout)
        d["stats"].pop("seconds")
        out.append(d)
    assert out[0] == out[1]
    assert out[0]["stats"]["complete"]


def test_workers_must_be_a_positive_count(tmp_path):
    r = _itcp("check", "--workers", "0", cwd=tmp_path)
    assert r.returncode == 2 and "--workers" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_sigterm_stops_the_parts_and_reports_unknown(tmp_path):
    """SIGTERM midway: a report with UNKNOWN verdicts naming the signal (exit 1:
    FROZEN's violation, found early, stands), and no part process left behind."""
    exe = os.path.join(os.path.dirname(sys.executable), "itcp-check")
    p = subprocess.Popen([exe, "check", "official", "--players", "2", "--suits", "1",
                          "--ranks", "2..3", "--hand", "2", "--options", "all", "--workers", "2",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=tmp_path, start_new_session=True)
    try:
        # part 1 forks once the first states are searched (part 0 runs in the command's
        # own process): wait for it (seconds on an idle machine, longer on a loaded
        # one), then a little more so the search is midway
        deadline = time.monotonic() + 90
        while len(children := _children(p.pid)) < 1 and time.monotonic() < deadline \
                and p.poll() is None:
            time.sleep(0.2)
        assert len(children) == 1, children   # the forked part is running
        time.sleep(2)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
        assert p.returncode == 1, err
        d = json.loads(out)
        assert d["stats"]["stopped_by"] == "SIGTERM"
        assert {x["verdict"] for x in d["properties"]} == {"UNKNOWN", "VIOLATED"}
        assert any(x["verdict"] == "UNKNOWN" and "SIGTERM" in x["evidence"].get("limit", "")
                   for x in d["properties"])
        assert not [c for c in children if os.path.exists(f"/proc/{c}")]
    finally:   # a failed assertion leaves no search running behind the test
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out += [int(x) for x in f.read().split()]
    return out


def test_part_0_runs_in_this_process_and_the_others_are_forked():
    game = _game("official", Config(players=2, suits=2, ranks=(2, 2), hand=1))
    parts = ProcessParts(game, PartPlan(3, True, True, True, True, False, 2))
    try:
        assert parts.pids[0] == os.getpid() and len(parts.procs) == 2
        assert [c["states"] for c in parts.call("counts", [()] * 3)] == [0, 0, 0]
    finally:
        parts.close()
    assert not any(p.is_alive() for p in parts.procs)


def test_a_failure_after_the_parts_started_ends_them(monkeypatch):
    """The parts ignore the stop signals (the coordinator ends them): a failure
    between their start and the search's own clean-up must end them itself, or
    the command, exiting, would wait for them for ever (seen with a bug there)."""
    game = _game("official", Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL[:3],
                                    charity=False))
    made = []

    class Recorded(ProcessParts):
        def __init__(self, *args):
            super().__init__(*args)
            made.append(self)

    def broken(*args):
        raise RuntimeError("a bug in the coordinator's set-up")

    monkeypatch.setattr(P, "_Coordinator", broken)
    with pytest.raises(RuntimeError, match="set-up"):
        explore_partitioned(game, 3, warm=0, transport=Recorded)
    (parts,) = made
    assert len(parts.procs) == 2 and not any(p.is_alive() for p in parts.procs)
    assert not parts.kept   # glibc's settings back (``heap.py``)


_COORDINATOR = """
import os, sys, time
from itcp.checks.explicit.partitioned import PartPlan, ProcessParts
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant
game = Game.make(Config(players=2, suits=2, ranks=(2, 2), hand=1),
                 dict(load_variant("official").readings))
parts = ProcessParts(game, PartPlan(3, True, True, True, True, False, 2))
print(*parts.pids[1:], flush=True)
time.sleep(120)
"""


def _ended(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in "ZX"   # a zombie has ended
    except FileNotFoundError:
        return True


def test_a_killed_coordinator_leaves_no_part_behind():
    """SIGKILL (or the kernel's out-of-memory killer) ends the coordinator with
    no chance to tell its parts: each part then sees its pipe close and ends,
    instead of waiting for ever with its share of the states in memory."""
    p = subprocess.Popen([sys.executable, "-c", _COORDINATOR], stdout=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        pids = [int(x) for x in p.stdout.readline().split()]
        assert len(pids) == 2 and not any(_ended(pid) for pid in pids)
        p.kill()
        p.wait()
        deadline = time.monotonic() + 30
        while not all(_ended(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert all(_ended(pid) for pid in pids)
    finally:
        try:   # what is left of the group, if anything (a failed assertion)
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass



def test_a_stop_while_a_message_is_passed_comes_after_it():
    """The budget's watchdog stops the command with ``_thread.interrupt_main``
    (no signal: a blocked signal mask does not hold it back), and a signal this
    thread blocks is taken by another thread, whose handler runs here all the
    same: either, raised between reading an answer and counting it, left the
    coordinator waiting for ever for an answer it had read.  Both come after
    the block."""
    done = []
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with _whole_messages():
                _thread.interrupt_main()
                for _ in range(10_000):   # bytecodes at which a pending stop is raised
                    pass
                done.append(True)
    finally:
        signal.signal(signal.SIGINT, before)
    assert done == [True]

def test_a_stop_during_the_local_share_ends_its_expansion_and_comes_after_it():
    """A signal while part 0's share runs here sets the parts' stop flag (an
    expansion ends after its chunk) and is raised only once the share is done,
    so part 0 is never left half-way through a step."""
    stop, done = threading.Event(), []
    # Python's own Ctrl-C handler, whatever a test before this one in the same
    # process left (a Ray cluster started in-process installs handlers of its own)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with _stops_deferred(stop):
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
                done.append(stop.is_set())
    finally:
        signal.signal(signal.SIGINT, before)
    assert done == [True]
