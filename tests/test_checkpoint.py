"""A search stopped and gone on from a checkpoint ends as a search that never stopped.

``check --checkpoint DIR`` writes the search at the top of a level as it goes
and when a stop ends it; ``check --resume DIR`` goes on from there, in one
process or in parts.  Held here: a search paused at several depths and resumed
in the other mode; the whole command stopped by a limit and resumed, and killed
outright (SIGKILL: only the interval checkpoint survives) and resumed, each
giving the uninterrupted run's JSON report; and the bad inputs, each exit 2
with a message and the folder unchanged.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from itcp.checks.explicit.explore import Pause, explore, resume_point
from itcp.checks.explicit.partitioned import explore_partitioned
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

#: a table whose search takes a few seconds (killed midway); the quick tests use
#: the default table (138,562 states)
TABLE = ["--players", "3", "--suits", "1", "--ranks", "2..2", "--hand", "1",
         "--options", "mercy,justice,pride_cycle,secret_combination"]


def _itcp(*args, cwd, timeout=300):
    exe = os.path.join(os.path.dirname(sys.executable), "itcp-check")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def _report_json(text: str) -> dict:
    d = json.loads(text)
    d["stats"].pop("seconds")
    return d


def _uninterrupted(cwd, *table) -> dict:
    r = _itcp("check", "official", *table, "--json", cwd=cwd)
    assert r.returncode == 1, r.stderr   # the official text's contradictions
    return _report_json(r.stdout)


@pytest.mark.parametrize("at", [0, 11])
def test_paused_in_one_mode_resumed_in_the_other(at, search_report):
    game = Game.make(Config(players=2, suits=2, ranks=(2, 2), hand=1,
                            options=(("unbelief", 1), ("pride_cycle", 1))),
                     dict(load_variant("official").readings))
    full = search_report(explore(game))

    def pause(ex, level):
        if level().depth == at:
            raise Pause

    one = explore(game, on_level=pause)
    assert one.limit == "paused" and not one.complete
    assert search_report(explore_partitioned(game, 2, resume=resume_point(one))) == full
    parts = explore_partitioned(game, 2, on_level=pause, warm=0)
    assert search_report(explore(game, resume=resume_point(parts))) == full


def test_a_stopped_check_resumes_to_the_same_report(tmp_path):
    uninterrupted = _uninterrupted(tmp_path)
    r = _itcp("check", "official", "--json", "--max-states", "40000", "--checkpoint", "ck",
              cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    stopped = json.loads(r.stdout)["stats"]
    assert not stopped["complete"] and stopped["limit"] == "--max-states 40000"
    assert (tmp_path / "ck" / "checkpoint.json").is_file()
    r = _itcp("check", "official", "--json", "--resume", "ck", "--workers", "2", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert _report_json(r.stdout) == uninterrupted
    assert not [n for n in os.listdir(tmp_path / "ck") if n.startswith(".itcp-tmp-")]


@pytest.mark.slow
def test_a_killed_check_resumes_from_its_last_checkpoint(tmp_path):
    """SIGKILL: no chance to write anything more; the checkpoint written on the
    way is whole, and the search goes on from it."""
    uninterrupted = _uninterrupted(tmp_path, *TABLE)
    exe = os.path.join(os.path.dirname(sys.executable), "itcp-check")
    p = subprocess.Popen([exe, "check", "official", *TABLE, "--json", "--checkpoint", "ck",
                          "--checkpoint-every", "0.3"], cwd=tmp_path,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    manifest = tmp_path / "ck" / "checkpoint.json"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        if manifest.exists() and json.loads(manifest.read_text())["count"] >= 3:
            break
        time.sleep(0.05)
    assert p.poll() is None, "the search ended before it could be killed midway"
    p.send_signal(signal.SIGKILL)
    p.wait()
    written = json.loads(manifest.read_text())["level"]["states"]
    assert 0 < written < uninterrupted["stats"]["states"]
    r = _itcp("check", "official", *TABLE, "--json", "--resume", "ck", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert _report_json(r.stdout) == uninterrupted


def _listing(folder):
    return sorted((p.name, p.stat().st_size) for p in folder.iterdir())


def test_bad_checkpoint_folders_are_refused(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep me")
    r = _itcp("check", "--checkpoint", "notes", cwd=tmp_path)
    assert r.returncode == 2 and "not a checkpoint" in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / "notes" / "mine.txt").read_text() == "keep me"
    r = _itcp("check", "--resume", "notes", cwd=tmp_path)
    assert r.returncode == 2 and "checkpoint.json" in r.stderr
    (tmp_path / "file").write_text("x")
    r = _itcp("check", "--checkpoint", "file/ck", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_a_checkpoint_is_only_resumed_by_its_own_search(tmp_path):
    r = _itcp("check", "official", "--max-states", "20000", "--checkpoint", "ck",
              cwd=tmp_path)
    assert (tmp_path / "ck" / "checkpoint.json").is_file(), r.stderr
    before = _listing(tmp_path / "ck")
    r = _itcp("check", "clarified", "--resume", "ck", cwd=tmp_path)
    assert r.returncode == 2 and "another search" in r.stderr and "clarified" in r.stderr
    r = _itcp("check", "official", "--no-symmetry", "--resume", "ck", cwd=tmp_path)
    assert r.returncode == 2 and "symmetry" in r.stderr
    # an earlier search's checkpoint is not replaced without --force
    r = _itcp("check", "official", "--checkpoint", "ck", cwd=tmp_path)
    assert r.returncode == 2 and "--force" in r.stderr
    assert _listing(tmp_path / "ck") == before


@pytest.mark.parametrize("call,checkpoints", [("expand", False), ("close", False),
                                              ("expand", True)])
def test_an_interrupt_in_any_step_of_a_level_goes_back_to_its_top(call, checkpoints,
                                                                    search_report, monkeypatch):
    """Ctrl-C (or a signal) while the parts are at any step of a level: the
    search goes back to the top of that level, and going on from there ends
    as the search that was never stopped.  (An expansion first numbers the
    level closed before it: the forked part does, the coordinator never hears
    of it, and asks again.  With a checkpoint at every level's top, the level
    is numbered there instead.)"""
    from itcp.checks.explicit import partitioned as P
    game = Game.make(Config(players=2, suits=2, ranks=(2, 2), hand=1,
                            options=(("unbelief", 1), ("pride_cycle", 1))),
                     dict(load_variant("official").readings))
    full = search_report(explore(game))
    real = P.ProcessParts.call
    seen = []

    def call_then_interrupt(self, name, args):
        if name == call:
            seen.append(name)
            if len(seen) == 9:   # the forked part runs the step; the coordinator is stopped
                assert name != "expand" or len(args[1]) == (2 if checkpoints else 3)
                for i, (conn, a) in enumerate(zip(self.conns, args[1:])):
                    conn.send((name, tuple(a)))
                    self.owed[i] += 1
                raise KeyboardInterrupt
        return real(self, name, args)
    monkeypatch.setattr(P.ProcessParts, "call", call_then_interrupt)
    on_level = (lambda ex, level: level()) if checkpoints else None
    stopped = explore_partitioned(game, 2, warm=0, on_level=on_level)
    monkeypatch.setattr(P.ProcessParts, "call", real)
    assert stopped.interrupted and stopped.level is not None
    assert search_report(explore_partitioned(game, 2, resume=resume_point(stopped),
                                             warm=0)) == full


def test_a_limit_in_parts_writes_the_level_to_go_on_from(tmp_path):
    """``--workers 2`` stopped by ``--max-states`` past the first 200,000 states
    (the parts' share): its last checkpoint is the top of the level it was in,
    and ``--resume`` goes on to the uninterrupted report."""
    uninterrupted = _uninterrupted(tmp_path, *TABLE)
    r = _itcp("check", "official", *TABLE, "--json", "--max-states", "400000", "--workers", "2",
              "--checkpoint", "ck", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    stopped = json.loads(r.stdout)["stats"]
    written = json.loads((tmp_path / "ck" / "checkpoint.json").read_text())["level"]["states"]
    assert 200_000 < written <= stopped["states"] < uninterrupted["stats"]["states"]
    r = _itcp("check", "official", *TABLE, "--json", "--resume", "ck", "--workers", "2",
              cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert _report_json(r.stdout) == uninterrupted
