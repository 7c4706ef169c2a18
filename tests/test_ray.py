"""The partitioned search on a Ray cluster finds what one process finds.

``--ray local`` starts a Ray cluster inside the process (on the loopback
interface) and runs each part as a Ray actor that builds its own game: the
same states under the same numbers, the same verdicts and traces; ``sweep
--ray`` runs its jobs as Ray tasks, to the same matrix.  One cluster serves
the whole check (starting one is most of its time).  Without Ray installed,
``--ray`` says how to install it (exit 2), and an address where no cluster
answers is refused at once.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from itcp.checks.explicit.explore import explore
from itcp.checks.explicit.partitioned import explore_partitioned
from itcp.model.engine.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

ray = pytest.importorskip("ray", reason="the 'cluster' extra (the test extra installs it)")


def _json(text: str) -> dict:
    d = json.loads(text)
    d["stats"].pop("seconds", None)
    return d


def test_on_a_local_ray_cluster(cli, search_report, tmp_path, monkeypatch):
    from itcp.checks.explicit.raycluster import connect, transport
    before = signal.getsignal(signal.SIGTERM)
    connect("local")
    try:
        # Ray's own SIGTERM handler does not replace the command's
        assert signal.getsignal(signal.SIGTERM) is before
        # the search itself, everything it reports
        game = Game.make(Config(players=3, suits=1, ranks=(2, 2), hand=1,
                                options=(("mercy", 1), ("justice", 1),
                                         ("secret_combination", 1))),
                         dict(load_variant("clarified").readings))
        one = explore(game, symmetry=False)
        many = explore_partitioned(game, 2, symmetry=False, transport=transport(), warm=0)
        coverage = not (one.coverage_sampled or many.coverage_sampled)
        assert search_report(many, coverage) == search_report(one, coverage)
        # the command (it joins the cluster this process runs): the same report
        local = cli("check", "official", "--json")
        remote = cli("check", "official", "--json", "--ray", "local", "--workers", "2")
        assert local.exit_code == remote.exit_code == 1, remote.stderr
        assert _json(remote.stdout) == _json(local.stdout)
        # sweep's jobs as Ray tasks: the same matrix as local processes
        monkeypatch.chdir(tmp_path)
        args = ["sweep", "official", "--options-subsets", "none;unbelief,pride_cycle",
                "--property", "FROZEN", "--property", "ROUND_ENDS"]
        by_process = cli(*args, "--cache", "a", "--jobs", "1")
        by_ray = cli(*args, "--cache", "b", "--ray", "local")
        assert by_process.exit_code == by_ray.exit_code == 1, by_ray.stderr
        assert by_ray.stdout == by_process.stdout
    finally:
        ray.shutdown()


def test_no_cluster_at_the_address(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "itcp-check")
    r = subprocess.run([exe, "check", "official", "--ray", "127.0.0.1:1"], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2 and "cannot reach a Ray cluster" in r.stderr
    assert "Traceback" not in r.stderr


def test_without_ray_it_says_how_to_install_it(cli, monkeypatch):
    import itcp.checks.explicit
    monkeypatch.setitem(sys.modules, "ray", None)   # import ray fails
    monkeypatch.delitem(sys.modules, "itcp.checks.explicit.raycluster", raising=False)
    monkeypatch.delattr(itcp.checks.explicit, "raycluster", raising=False)
    for args in (["check", "official"], ["sweep", "official"]):
        r = cli(*args, "--ray", "local")
        assert r.exit_code == 2
        assert "pip install 'itcp[cluster]'" in r.stderr
