"""The repository itself: what a fresh clone holds works on any machine.

A tracked symbolic link, or a tracked file naming a folder of the machine it
was committed on, works where it was made and nowhere else (a committed link
to a local venv once broke the README's test command on every fresh machine
while CI, on the machine that made it, stayed green).  These checks read what
git tracks, so they hold for every clone.
"""
from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: the folders of the installed package (each is ``itcp.<folder>``)
LAYERED = ("spec", "model", "scenarios", "checks", "report", "cli")
THIS = Path(__file__).resolve().relative_to(REPO).as_posix()

#: absolute paths that only exist on some developer's machine (the home
#: folders of Linux, macOS and Windows, and root's)
MACHINE_PATH = re.compile(r"(?<![\w.])(/home/[\w.-]+/|/Users/[\w.-]+/|/root/|[A-Za-z]:\\Users\\)")


def tracked() -> list[tuple[str, str]]:
    """(mode, path) of every file git tracks."""
    r = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=REPO, capture_output=True, timeout=60)
    if r.returncode != 0:
        pytest.skip(f"{REPO} is not a git checkout")
    out = []
    for entry in r.stdout.decode().split("\0"):
        if entry:
            meta, path = entry.split("\t", 1)
            out.append((meta.split()[0], path))
    return out


def machine_paths() -> list[str]:
    """This machine's own absolute folders that no tracked file should name: the
    checkout's folder and the home folder."""
    places = {REPO, Path.home()}
    return sorted(str(p) for p in places if len(p.parts) > 1)


def test_no_tracked_file_is_a_symbolic_link():
    links = [path for mode, path in tracked() if mode == "120000"]
    assert not links, (f"tracked symbolic links {links}: a link works only where its target "
                       "exists; remove it (git rm) and add the local file to .gitignore")


def test_no_tracked_file_names_a_folder_of_a_developers_machine():
    found = []
    here = machine_paths()
    for mode, path in tracked():
        if path == THIS:
            continue  # its own patterns name such folders, on purpose
        where = REPO / path
        if mode == "120000":   # a link's text is its target
            data = os.readlink(where).encode() if where.is_symlink() else b""
        else:
            data = where.read_bytes() if where.is_file() else b""
        if b"\0" in data[:8192]:
            continue  # binary (a PNG)
        text = data.decode("utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            hits = [m.group(0) for m in MACHINE_PATH.finditer(line)]
            hits += [p for p in here if re.search(re.escape(p) + r"(?![\w.-])", line)]
            if hits:
                found.append(f"{path}:{n}: {', '.join(hits)}")
    assert not found, ("tracked files name folders of a developer's machine (use a path "
                       "relative to the repository, or one the program makes):\n"
                       + "\n".join(found[:40]))


def test_local_environments_and_run_outputs_are_ignored():
    """What the Quick start and the commands leave in the folder stays out of git."""
    names = [".venv/", ".venv-main", "venv/", "itcp-answers/x.toml", ".itcp-sweep-cache/x",
             ".pytest_cache/x", ".hypothesis/x", "build/x", "dist/x", "itcp.egg-info/x",
             ".ruff_cache/x", ".mypy_cache/x", ".typecheck/x", "spec/__pycache__/x.pyc"]
    r = subprocess.run(["git", "check-ignore", "--no-index", "--stdin", "-z"], cwd=REPO,
                       input="\0".join(names).encode(), capture_output=True, timeout=60)
    ignored = set(r.stdout.decode().split("\0"))
    assert set(names) <= ignored, f"not ignored: {sorted(set(names) - ignored)}"


def test_every_package_folder_is_in_the_wheel():
    """Each folder of the package's layers that holds an ``__init__.py`` is a
    package pyproject.toml installs (a sub-package left out would be missing
    from every install but the editable one)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    dirs = config["tool"]["setuptools"]["package-dir"]
    listed = set(config["tool"]["setuptools"]["packages"])
    assert listed == set(dirs), "packages and package-dir disagree"
    found = set()
    for _, path in tracked():
        p = Path(path)
        if p.name == "__init__.py" and p.parts[0] in LAYERED:
            found.add(".".join(("itcp",) + p.parent.parts))
    assert found == listed, (f"package folders not installed: {sorted(found - listed)}; "
                             f"listed but absent: {sorted(listed - found)}")
    for name, folder in dirs.items():
        assert folder == "/".join(name.split(".")[1:]), (name, folder)
