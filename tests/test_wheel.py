"""The built wheel works on its own: installed into a fresh venv, run from elsewhere.

The wheel is built from what git tracks only (a fresh clone's files), inside
a folder of mode 700, and installed into a venv in that same folder: the
``private_install`` fixture of tests/conftest.py.
"""
from __future__ import annotations

import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(private_install):
    return private_install


def test_wheel_contains_data(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    assert "itcp/spec/rulebook.txt" in names
    for v in ("official", "published", "clarified"):
        assert f"itcp/spec/variants/{v}.toml" in names
    assert "itcp/cli/main.py" in names and "itcp/model/engine/engine.py" in names
    assert "itcp/checks/questions/disputes.toml" in names
    assert "itcp/report/rule-evidence.json" in names
    # every module of the package's folders, and nothing of the development tools
    assert not [n for n in names if n.startswith(("itcp/tools", "itcp/bench", "itcp/tests"))]
    # nothing generic at the top level
    assert {n.split("/")[0] for n in names} <= {"itcp", "itcp-0.1.0.dist-info"}


def test_installed_package_is_the_wheel(installed, run_ok):
    r = run_ok([installed["python"], "-c",
             "import itcp.spec, itcp.cli.main, click; from itcp.spec.rulebook import "
             "rulebook_text; print(itcp.spec.__path__[0]); print(len(rulebook_text()))"],
            cwd=installed["cwd"], env=installed["env"])
    where, size = r.stdout.split()
    assert Path(where).resolve().is_relative_to(installed["venv"].resolve()), where
    assert int(size) > 0
    spec = installed["purelib"] / "itcp" / "spec"
    assert (spec / "rulebook.txt").is_file()
    assert {p.name for p in (spec / "variants").glob("*.toml")} >= {
        "official.toml", "published.toml", "clarified.toml"}


def test_installed_console_script(installed, run_ok):
    exe = installed["bin"] / "itcp-check"
    assert exe.exists()
    r = run_ok([exe, "rules"], cwd=installed["cwd"], env=installed["env"])
    assert "Choice points (" in r.stdout and "deck.exhausted" in r.stdout
    r = run_ok([exe, "rules", "--json"], cwd=installed["cwd"], env=installed["env"])
    data = json.loads(r.stdout)
    assert len(data["choice_points"]) >= 24
    assert {"official", "published", "clarified"} <= {v["name"] for v in data["variants"]}
    r = run_ok([exe, "simulate", "-n", "20", "--seed", "1", "--json"],
            cwd=installed["cwd"], env=installed["env"])
    assert sum(json.loads(r.stdout)["endings"].values()) == 20
    # the literate rulebook reads its evidence and the scenario library from the wheel
    r = run_ok([exe, "rulebook", "--sentence", "pride.1"], cwd=installed["cwd"],
               env=installed["env"])
    assert "Told apart by: reading-pride-timing.toml" in r.stdout
    assert re.search(r"\n      Mutants: \d+ killed of \d+ mutants", r.stdout), r.stdout
    bad = subprocess.run([str(exe), "rules", "offical"], capture_output=True, text=True,
                         cwd=installed["cwd"], env=installed["env"], timeout=120)
    assert bad.returncode == 2 and "did you mean 'official'" in bad.stderr
