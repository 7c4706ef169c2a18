"""The partitioned search on a Ray cluster finds what one process finds.

``--ray local`` starts a Ray cluster inside the process (on the loopback
interface) and runs each part as a Ray actor that builds its own game: the
same states under the same numbers, the same verdicts and traces.  Without
Ray installed, ``--ray`` says how to install it (exit 2), and an address where
no cluster answers is refused at once.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from itcp.checks.explore import explore
from itcp.checks.partitioned import explore_partitioned
from itcp.model.engine import Game
from itcp.spec.config import Config
from itcp.spec.variants import load_variant

ray = pytest.importorskip("ray", reason="the 'cluster' extra (the test extra installs it)")


@pytest.fixture(scope="module")
def cluster():
    from itcp.checks.raycluster import connect, transport
    connect("local")
    yield transport()
    ray.shutdown()


@pytest.mark.parametrize("variant,cfg,symmetry", [
    ("official", Config(players=2, suits=2, ranks=(2, 2), hand=1,
                        options=(("unbelief", 1), ("pride_cycle", 1))), True),
    ("clarified", Config(players=3, suits=1, ranks=(2, 2), hand=1,
                         options=(("mercy", 1), ("justice", 1), ("secret_combination", 1))),
     False),
], ids=["official-default", "clarified-3p"])
def test_actors_find_what_one_process_finds(cluster, search_report, variant, cfg, symmetry):
    game = Game.make(cfg, dict(load_variant(variant).readings))
    one = explore(game, symmetry=symmetry)
    many = explore_partitioned(game, 2, symmetry=symmetry, transport=cluster, warm=0)
    coverage = not (one.coverage_sampled or many.coverage_sampled)
    assert search_report(many, coverage) == search_report(one, coverage)


def _itcp(*args, cwd, env=None):
    exe = os.path.join(os.path.dirname(sys.executable), "itcp-check")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env=env)


@pytest.mark.slow
def test_check_on_a_local_ray_cluster(tmp_path):
    """The whole command: ``--ray local`` gives the JSON report of one process."""
    out = []
    for extra in ([], ["--ray", "local", "--workers", "2"]):
        r = _itcp("check", "official", "--json", *extra, cwd=tmp_path)
        assert r.returncode == 1, r.stderr   # the official text's contradictions
        d = json.loads(r.stdout)
        d["stats"].pop("seconds")
        out.append(d)
    assert out[0] == out[1]


def test_no_cluster_at_the_address(tmp_path):
    r = _itcp("check", "official", "--ray", "127.0.0.1:1", cwd=tmp_path)
    assert r.returncode == 2 and "cannot reach a Ray cluster" in r.stderr
    assert "Traceback" not in r.stderr


def test_without_ray_it_says_how_to_install_it(tmp_path, cli, monkeypatch):
    import itcp.checks
    monkeypatch.setitem(sys.modules, "ray", None)   # import ray fails
    monkeypatch.delitem(sys.modules, "itcp.checks.raycluster", raising=False)
    monkeypatch.delattr(itcp.checks, "raycluster", raising=False)
    r = cli("check", "official", "--ray", "local")
    assert r.exit_code == 2
    assert "pip install 'itcp[cluster]'" in r.stderr


@pytest.mark.slow
def test_sweep_on_a_local_ray_cluster(tmp_path):
    """``sweep --ray local``: each job a Ray task, the same matrix as local processes."""
    args = ["sweep", "official", "--options-subsets", "none;unbelief,pride_cycle",
            "--property", "FROZEN", "--property", "ROUND_ENDS"]
    local = _itcp(*args, "--cache", "a", cwd=tmp_path)
    remote = _itcp(*args, "--cache", "b", "--ray", "local", cwd=tmp_path)
    assert local.returncode == remote.returncode == 1, remote.stderr
    assert local.stdout == remote.stdout
