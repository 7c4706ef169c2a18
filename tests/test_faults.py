"""A check stopped from outside, by its time limit or by its memory limit still
gives a whole report: every undecided property UNKNOWN, naming what stopped it."""
from __future__ import annotations

import _thread
import json
import mmap
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from itcp.cli import entry, limits

#: a table whose search takes minutes: stopped long before it is exhausted
BIG = ["official", "--players", "2", "--suits", "1", "--ranks", "2..3", "--hand", "2",
       "--options", "all"]


def _console() -> list[str]:
    exe = Path(sys.executable).with_name("itcp-check")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "itcp.cli.entry"]


def _stopped_report(text: str, reason: str) -> dict:
    """The report is whole JSON; what the search did not decide is UNKNOWN naming ``reason``."""
    report = json.loads(text)
    # the search stops itself at its share of --timeout; a watchdog or a signal is "stopped_by"
    assert reason in (report["stats"]["limit"], report["stats"].get("stopped_by")), report["stats"]
    verdicts = {p["id"]: p for p in report["properties"]}
    assert len(verdicts) == 9
    for p in verdicts.values():
        if p["verdict"] == "UNKNOWN":
            assert p["evidence"]["limit"] == reason, p
        else:  # what the search found before the stop stands
            assert p["verdict"] == "VIOLATED", p
    assert any(p["verdict"] == "UNKNOWN" for p in verdicts.values())
    return report


@pytest.mark.slow
@pytest.mark.parametrize("sig, name", [(signal.SIGTERM, "SIGTERM")])
def test_a_signal_mid_search_gives_the_partial_report(tmp_path, sig, name):
    """(SIGHUP and SIGINT take the same path: see the Budget test below.)"""
    p = subprocess.Popen(_console() + ["check", *BIG, "--json"], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(5)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    assert "Traceback" not in err
    report = _stopped_report(out, name)
    assert p.returncode == (1 if any(x["verdict"] == "VIOLATED"
                                     for x in report["properties"]) else 3)


@pytest.mark.slow
def test_timeout_bounds_the_whole_command(tmp_path):
    start = time.monotonic()
    r = subprocess.run(_console() + ["check", *BIG, "--timeout", "4", "--json"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    wall = time.monotonic() - start
    assert r.returncode in (1, 3), r.stderr
    _stopped_report(r.stdout, "--timeout 4")
    # within S, give or take the start of Python and a loaded machine (this table's
    # search alone runs for minutes)
    assert wall < 4 + limits.GRACE + 10, wall


def test_timeout_cuts_the_analysis_after_the_search_short(cli, monkeypatch):
    """The search ends by itself (exhausted); the cycle search after it would run
    for ever: at --timeout S it is stopped, ROUND_ENDS is UNKNOWN naming the
    limit, and what the search decided stands."""
    from itcp.checks.explicit import verdicts as V

    def endless(ex):
        while True:
            time.sleep(0.01)
    monkeypatch.setattr(V, "find_post_pass_cycle", endless)
    start = time.monotonic()
    r = cli("check", "--suits", "1", "--timeout", "5", "--json")
    assert r.exit_code == 1, r.output
    # without the stop the analysis runs for ever; the margin covers compiling and
    # searching on a loaded machine (the suite's other worker, CI's neighbours)
    assert time.monotonic() - start < 5 + 10
    report = json.loads(r.stdout)
    assert report["stats"]["complete"] and report["stats"]["stopped_by"] == "--timeout 5"
    got = {p["id"]: (p["verdict"], p["evidence"].get("limit")) for p in report["properties"]}
    assert got["ROUND_ENDS"] == ("UNKNOWN", "--timeout 5")
    assert got["FROZEN"][0] == "VIOLATED" and got["CONSERVATION"] == ("HOLDS", None)


def test_the_memory_limit_stops_the_search(cli, monkeypatch):
    """The watchdog sees the process grow past --max-memory (here, a resident
    size that jumps past it once the search has finished its first level) and
    stops the search."""
    from itcp.checks import run as front_door
    levels = []
    real_search = front_door.search

    def search(*args, progress=None, **kwargs):
        return real_search(*args, progress=lambda *a: levels.append(a), **kwargs)
    monkeypatch.setattr(front_door, "search", search)
    monkeypatch.setattr(limits, "resident", lambda: 3 << 30 if levels else 0)
    r = cli("check", *BIG, "--max-memory", "2G", "--json")
    assert r.exit_code in (1, 3), r.output
    report = _stopped_report(r.stdout, "memory limit (--max-memory: 2.0 GB)")
    assert report["stats"]["limit"] == "memory limit (--max-memory: 2.0 GB)"
    assert 0 < report["stats"]["states"]


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps_rollup"), reason="needs Linux's smaps_rollup")
def test_pages_two_processes_share_are_counted_once():
    """A partitioned search's parts share their key array and mailboxes:
    ``in_use`` counts such a page once, ``resident`` once per process."""
    size = 64 << 20
    shared = mmap.mmap(-1, size)   # MAP_SHARED, anonymous, like the key array
    shared.write(b"x" * size)
    ready, told = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child touches every page, then waits to be killed
        sum(shared[i] for i in range(0, size, mmap.PAGESIZE))
        os.write(told, b"1")
        time.sleep(60)
        os._exit(0)
    try:
        assert os.read(ready, 1) == b"1"
        resident, fair = limits.resident(), limits.in_use()
        assert resident - fair > size // 2, (resident, fair)
        assert fair > size
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(ready)
        os.close(told)


def test_the_memory_limit_counts_shared_pages_once(monkeypatch):
    """Resident sizes past the limit stop nothing while the memory in use, the
    shared pages counted once, is under it; once that passes it, the search stops."""
    monkeypatch.setattr(limits, "resident", lambda: 3 << 30)
    used = [1 << 30]
    monkeypatch.setattr(limits, "in_use", lambda: used[0])
    with limits.Budget(max_memory=2 << 30) as b:
        with b.interruptible():
            time.sleep(10 * limits.POLL)
        assert b.reason is None
        used[0] = 3 << 30
        with pytest.raises(KeyboardInterrupt):
            with b.interruptible():
                time.sleep(limits.FAIR_POLL + 20 * limits.POLL)
        assert b.reason == "memory limit (--max-memory: 2.0 GB)"


def test_a_signal_while_the_program_starts_still_gives_a_report(cli, monkeypatch):
    """A SIGTERM that came while the program was being imported (noted by
    cli/entry.py) stops the check before its search: every verdict UNKNOWN."""
    monkeypatch.setattr(entry, "PENDING", [signal.SIGTERM])
    monkeypatch.setattr(limits, "PENDING", entry.PENDING)
    r = cli("check", "--suits", "1", "--json")
    assert r.exit_code == 3, r.output
    report = json.loads(r.stdout)
    assert {p["verdict"] for p in report["properties"]} == {"UNKNOWN"}
    assert {p["evidence"]["limit"] for p in report["properties"]} == {"SIGTERM"}
    assert not entry.PENDING


def test_a_signal_outside_the_interruptible_parts_is_held():
    with limits.Budget() as b:
        os.kill(os.getpid(), signal.SIGTERM)  # held: nothing raised here
        time.sleep(0.05)
        assert b.reason == "SIGTERM"
        with pytest.raises(KeyboardInterrupt):
            with b.interruptible():  # acted on as the next stoppable part begins
                pass
        with pytest.raises(KeyboardInterrupt):
            with b.interruptible():
                os.kill(os.getpid(), signal.SIGHUP)
                time.sleep(1)
        assert b.reason == "SIGTERM"  # the first stop is the one named
    assert signal.getsignal(signal.SIGTERM) is not b._on_signal


def test_the_search_gets_its_share_of_the_timeout():
    from itcp.checks.explicit.explore import SearchPlan
    from itcp.checks.run import Limits
    b = limits.Budget(timeout=100, start=time.monotonic())
    assert 89 < b.search_timeout() <= 90
    # the search's share is named as the user set the whole
    assert Limits(timeout=87.3, timeout_name=b.timeout_name()).timeout_text() == "--timeout 100"
    assert Limits(timeout=87.3).timeout_text() == "--timeout 87.3"
    # an interrupt is named as what caused it
    stopped = SearchPlan(stopped=lambda: b.reason)
    assert stopped.interrupted() == "interrupted (Ctrl-C)"
    b.reason = "SIGTERM"
    assert stopped.interrupted() == "SIGTERM"


def test_sizes():
    assert limits.parse_size("2G") == 2 << 30 and limits.parse_size("500M") == 500 << 20
    assert limits.parse_size("1.5g") == 3 << 29 and limits.parse_size("123") == 123
    for bad in ("", "x", "-1", "0", "1Q", "nan"):
        with pytest.raises(ValueError):
            limits.parse_size(bad)
    assert limits.default_memory_limit() is None or limits.default_memory_limit() > 0


def test_a_stop_the_watchdog_fires_as_an_interruptible_part_ends_stays_in_the_budget(
        monkeypatch):
    """The watchdog looks (armed, inside an interruptible part?) and then
    interrupts the main thread; if the main thread left the part and the budget
    in between, the interrupt came after the budget had put the old handlers
    back: a KeyboardInterrupt raised wherever the program then was (seen in the
    suite as one inside another test's garbage-collector callback).  Here the
    interrupt is held back until the main thread has tried to leave."""
    go = threading.Event()
    interrupt = _thread.interrupt_main

    def late_interrupt():
        go.wait(5)
        interrupt()

    monkeypatch.setattr(_thread, "interrupt_main", late_interrupt)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with limits.Budget() as b:
            b._armed = True
            try:
                with b.interruptible():
                    watchdog = threading.Thread(target=b._fire, args=("a stop",))
                    watchdog.start()
                    time.sleep(0.1)   # it has looked, and waits to interrupt
                    threading.Timer(0.3, go.set).start()
            except KeyboardInterrupt:
                pass   # came as the part ended: the caller's to catch
        escaped = False
        try:
            watchdog.join()
            for _ in range(100_000):   # bytecodes at which a pending interrupt is raised
                pass
        except KeyboardInterrupt:
            escaped = True
    finally:
        signal.signal(signal.SIGINT, before)
    assert not escaped
    assert b.reason == "a stop"
