"""Run mypy on the ``itcp`` package as it is installed.

The repository maps its top-level folders (spec/, model/, ...) onto the subpackages
of one namespace package, ``itcp`` (pyproject.toml's ``package-dir``).  Python finds
them through the editable install's import hook, which mypy cannot follow; so this
script lays out the same package as a tree of symbolic links in ``.typecheck/``
(git-ignored) and runs mypy on it with the configuration in pyproject.toml.

    python scripts/typecheck.py            # the whole package
    python scripts/typecheck.py spec model # only these subpackages

Exit status: mypy's (0 when clean).
"""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TREE = REPO / ".typecheck"


def package_dirs() -> dict[str, Path]:
    """``itcp.spec`` -> spec/, ... as pyproject.toml declares them."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    dirs = config["tool"]["setuptools"]["package-dir"]
    return {name: REPO / folder for name, folder in dirs.items()}


def build_tree() -> Path:
    """``.typecheck/itcp/<sub>`` -> the repository's folder, one link per top-level subpackage."""
    root = TREE / "itcp"
    root.mkdir(parents=True, exist_ok=True)
    # itcp is a namespace package; without an __init__ here mypy prefers the data
    # folder spec/variants/ over the module spec/variants.py (its namespace search
    # ranks the folder first), and never checks the module
    (root / "__init__.py").touch()
    for name, folder in package_dirs().items():
        parts = name.split(".")
        if len(parts) != 2:  # itcp.spec.rules lives inside spec/ already
            continue
        link = root / parts[1]
        if link.is_symlink() and link.resolve() == folder.resolve():
            continue
        if link.is_symlink():
            link.unlink()
        link.symlink_to(folder, target_is_directory=True)
    return TREE


def main(argv: list[str]) -> int:
    tree = build_tree()
    subs = argv or sorted(n.split(".")[1] for n in package_dirs() if n.count(".") == 1)
    args = [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml")]
    for sub in subs:
        args += ["-p", f"itcp.{sub}"]
    return subprocess.run(args, cwd=tree).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
