"""Shared test fixtures."""
from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from itcp.checks.explicit.verdicts import verdicts

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root (where pyproject.toml is)."""
    return REPO


@pytest.fixture
def cli():
    """Run ``itcp-check ARGS`` in-process: ``cli("rules", "--json")`` -> click Result."""
    from itcp.cli.main import main

    try:  # click < 8.2 mixes stderr into output unless told not to
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()

    def run(*args: str, **kwargs):
        return runner.invoke(main, list(args), catch_exceptions=True, **kwargs)

    return run


def tracked_files(repo: Path) -> list[str]:
    """The files git tracks in ``repo`` (paths relative to it), as they are in
    the working tree: what a fresh clone holds, never whatever else lies in the
    folder (a virtual environment, a developer's link, run outputs)."""
    r = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=repo, capture_output=True,
                       timeout=60)
    if r.returncode != 0:
        pytest.skip(f"{repo} is not a git checkout: cannot tell which files are tracked")
    return [n for n in r.stdout.decode().split("\0") if n and (repo / n).exists()]


def copy_tracked(repo: Path, dest: Path) -> Path:
    """Copy what git tracks in ``repo`` into ``dest`` (made), links as links."""
    for name in tracked_files(repo):
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, target, follow_symlinks=False)
    return dest


def clean_env() -> dict:
    """The environment without anything that points Python at this checkout."""
    env = dict(os.environ)
    for key in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"):
        env.pop(key, None)
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _run_ok(cmd, **kw) -> subprocess.CompletedProcess:
    """Run ``cmd``; fail the test with its output unless it exits 0."""
    kw.setdefault("timeout", 600)
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{cmd} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="session")
def run_ok():
    """``run_ok(cmd, **kw)``: run a command, failing the test unless it exits 0."""
    return _run_ok


@pytest.fixture(scope="session")
def private_install(tmp_path_factory) -> dict:
    """The package as a user gets it, inside a folder only its owner may enter.

    A copy of what git tracks (never the folder's other contents) is built into
    a wheel, and the wheel installed into a fresh venv, both inside one folder
    of mode 700, as a clone in root's home directory is.  No network: the
    wheel is built with the current environment's setuptools
    (``--no-build-isolation``) and installed with ``--no-deps``; the new venv
    sees the current environment's dependencies through a ``.pth`` file of
    plain paths (plain path lines do not run the editable install's import
    hook, so ``itcp`` itself can only come from the wheel).
    """
    private = tmp_path_factory.mktemp("private")
    os.chmod(private, 0o700)
    src = copy_tracked(REPO, private / "clone")
    dist = private / "dist"
    _run_ok([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation",
            "-w", dist], cwd=src, env=clean_env())
    wheels = list(dist.glob("itcp-*.whl"))
    assert len(wheels) == 1, wheels

    venv = private / "venv"
    _run_ok([sys.executable, "-m", "venv", venv], env=clean_env())
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    _run_ok([py, "-m", "pip", "install", "--no-deps", "--no-index", wheels[0]], env=clean_env())

    purelib = _run_ok([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     env=clean_env()).stdout.strip()
    deps = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib) / "zz_parent_env.pth").write_text("\n".join(deps) + "\n")
    elsewhere = private / "elsewhere"
    elsewhere.mkdir()
    return {"private": private, "wheel": wheels[0], "venv": venv, "bin": bindir, "python": py,
            "purelib": Path(purelib), "cwd": elsewhere, "env": clean_env()}


class DirSink:
    """A sink that writes each file straight into ``folder`` (for tests that read
    the files a checker emits; the program itself writes through cli/output.py)."""

    def __init__(self, folder):
        self.folder = Path(folder)

    def write(self, name: str, text: str) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / name).write_text(text, encoding="utf-8")
        return str(self.folder / name)


@pytest.fixture(scope="session")
def dir_sink():
    """``dir_sink(folder)``: a sink writing straight into ``folder``."""
    return DirSink


@pytest.fixture(scope="session")
def sums_game():
    """A table whose steps compare point sums: a Secret Combination team keeps the
    lower-scoring hand (clarified otherwise; 10 cards against its scout table's 8).
    Elsewhere the only sums are "at zero points", which the encoding states
    without a sum (``SmtSpec.eq``)."""
    from itcp.cli.common import load_with
    from itcp.model.engine.engine import Game
    from itcp.spec.config import Config
    readings = dict(load_with("clarified", {}).readings)
    readings["secret.best"] = "lower_score"
    return Game.make(Config(players=3, suits=2, ranks=(2, 3), hand=2,
                            options=(("unbelief", 1), ("secret_combination", 1))), readings)


def pytest_collection_modifyitems(config, items):
    """The tests marked slow run first: the two workers start on the long ones and
    fill in with the short ones, so neither is left running one long test at the
    end while the other idles (longest first keeps the suite's wall time down)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _search_report(ex, coverage: bool = True):
    out = {
        "keys": list(ex.keys), "parent": list(ex.parent), "depth": list(ex.depth_of),
        "transitions": ex.transitions, "terminal": ex.terminal, "initial": ex.initial,
        "deadlocks": list(ex.deadlocks), "violations": ex.violations,
        "edges": list(ex.post_pass_edges), "hands": (ex.hand_min, ex.hand_max),
        "complete": ex.complete, "limit": ex.limit, "depth_reached": ex.depth,
        "unreduced": ex.unreduced_states, "deals": list(ex.deal_action),
        "verdicts": [(v.id, v.verdict, v.evidence.as_json().get("length")) for v in verdicts(ex)],
    }
    if coverage:   # each part samples its coverage on its own: compared when exhaustive
        out["fired"] = ex.fired
    return out


@pytest.fixture(scope="session")
def search_report():
    """``search_report(ex)``: everything an explicit search reports (keys in
    state-number order, parents, depths, edges, deadlocks, first violations,
    counts, verdicts; rule coverage unless ``coverage=False``), to hold two
    searches to each other."""
    return _search_report
