"""The built wheel works on its own: installed into a fresh venv, run from elsewhere.

No network: the wheel is built with the current environment's setuptools
(``--no-build-isolation``) and installed with ``--no-deps``.  The new venv sees
the current environment's dependencies (click, z3, ...) through a ``.pth`` file
of plain paths; plain path lines do not run the editable install's import hook,
so ``itcp`` itself can only come from the wheel.
"""
from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                ".pytest_cache", ".hypothesis", ".benchmarks", "tmp", ".typecheck",
                                ".mypy_cache", ".ruff_cache", ".itcp-sweep-cache")


def run(cmd, **kw):
    kw.setdefault("timeout", 600)
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{cmd} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r


def clean_env() -> dict:
    env = dict(os.environ)
    for key in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"):
        env.pop(key, None)
    env["PYTHONNOUSERSITE"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory, repo):
    tmp = tmp_path_factory.mktemp("wheel")
    # build from a copy, so the build leaves nothing behind in the working tree
    src = tmp / "src"
    shutil.copytree(repo, src, ignore=IGNORE)
    dist = tmp / "dist"
    run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation",
         "-w", dist], cwd=src, env=clean_env())
    wheels = list(dist.glob("itcp-*.whl"))
    assert len(wheels) == 1, wheels

    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", venv], env=clean_env())
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    run([py, "-m", "pip", "install", "--no-deps", "--no-index", wheels[0]], env=clean_env())

    purelib = run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                  env=clean_env()).stdout.strip()
    deps = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib) / "zz_parent_env.pth").write_text("\n".join(deps) + "\n")
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    return {"wheel": wheels[0], "venv": venv, "bin": bindir, "python": py,
            "purelib": Path(purelib), "cwd": elsewhere}


def test_wheel_contains_data(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    assert "itcp/spec/rulebook.txt" in names
    for v in ("official", "published", "clarified"):
        assert f"itcp/spec/variants/{v}.toml" in names
    assert "itcp/cli/main.py" in names and "itcp/model/engine.py" in names
    # nothing generic at the top level
    assert {n.split("/")[0] for n in names} <= {"itcp", "itcp-0.1.0.dist-info"}


def test_installed_package_is_the_wheel(installed):
    r = run([installed["python"], "-c",
             "import itcp.spec, itcp.cli.main, click; from itcp.spec.rulebook import "
             "rulebook_text; print(itcp.spec.__path__[0]); print(len(rulebook_text()))"],
            cwd=installed["cwd"], env=clean_env())
    where, size = r.stdout.split()
    assert Path(where).resolve().is_relative_to(installed["venv"].resolve()), where
    assert int(size) > 0
    spec = installed["purelib"] / "itcp" / "spec"
    assert (spec / "rulebook.txt").is_file()
    assert {p.name for p in (spec / "variants").glob("*.toml")} >= {
        "official.toml", "published.toml", "clarified.toml"}


def test_installed_console_script(installed):
    exe = installed["bin"] / "itcp-check"
    assert exe.exists()
    r = run([exe, "rules"], cwd=installed["cwd"], env=clean_env())
    assert "Choice points (" in r.stdout and "deck.exhausted" in r.stdout
    r = run([exe, "rules", "--json"], cwd=installed["cwd"], env=clean_env())
    data = json.loads(r.stdout)
    assert len(data["choice_points"]) >= 24
    assert {"official", "published", "clarified"} <= {v["name"] for v in data["variants"]}
    r = run([exe, "simulate", "-n", "20", "--seed", "1", "--json"],
            cwd=installed["cwd"], env=clean_env())
    assert sum(json.loads(r.stdout)["endings"].values()) == 20
    bad = subprocess.run([str(exe), "rules", "offical"], capture_output=True, text=True,
                         cwd=installed["cwd"], env=clean_env(), timeout=120)
    assert bad.returncode == 2 and "did you mean 'official'" in bad.stderr
