"""Generate the module map of docs/architecture.md from the modules' docstrings.

A list of modules written by hand drifts from the tree: a module added, moved or
renamed is not in it.  This script writes the map between the page's markers
from the code itself: each folder and sub-package in the layers' order (the
order ``tests/test_layers.py`` enforces, each folder before its sub-packages),
then the development folders, each with the first paragraph of its
``__init__.py`` docstring and one line per module, the first paragraph of the
module's docstring (the line that says what it is for).

    python scripts/module_map.py           # write docs/architecture.md's map
    python scripts/module_map.py --check   # exit 1 if the map is stale
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- BEGIN GENERATED: python scripts/module_map.py; do not edit by hand -->"
END = "<!-- END GENERATED -->"

#: the folders mapped, lowest layer first, each folder before its sub-packages
#: (tests/test_layers.py's LAYERS and SUBPACKAGES), then the development folders
FOLDERS = (
    "spec", "spec/rules",
    "model", "model/engine", "model/analysis", "model/search", "model/smt",
    "scenarios",
    "checks", "checks/explicit", "checks/symbolic", "checks/questions",
    "report",
    "cli",
    "tools", "tools/mutation",
    "bench",
    "scripts",
)
#: the folders of the installed package: ``spec/rules/`` is ``itcp.spec.rules``
PACKAGE = ("spec", "model", "scenarios", "checks", "report", "cli")


class MapError(Exception):
    """The tree cannot be mapped: a folder of modules not in ``FOLDERS``, or a
    module without a docstring."""


def first_paragraph(path: Path, root: Path = ROOT) -> str:
    """The first paragraph of a module's docstring, on one line, its ``code``
    in Markdown's `code`."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    if not doc or not doc.strip():
        raise MapError(f"{path.relative_to(root).as_posix()}: no docstring "
                       "(say what the module is for)")
    text = " ".join(doc.strip().split("\n\n")[0].split())
    return re.sub(r"``(.+?)``", r"`\1`", text)


def module_folders(root: Path = ROOT) -> list[str]:
    """Every folder holding Python modules under the mapped top-level folders."""
    tops = {f.split("/")[0] for f in FOLDERS}
    found = {p.parent.relative_to(root).as_posix()
             for top in tops for p in (root / top).rglob("*.py")}
    return sorted(f for f in found if "__pycache__" not in f)


def import_name(folder: str) -> str:
    """How the folder's modules are imported."""
    dotted = folder.replace("/", ".")
    if folder.split("/")[0] in PACKAGE:
        return f"`itcp.{dotted}`"
    if folder == "scripts":
        return "run as `python scripts/NAME.py`"
    return f"`{dotted}`, not installed"


def render(root: Path = ROOT) -> str:
    """The map, markers included."""
    unmapped = [f for f in module_folders(root) if f not in FOLDERS]
    if unmapped:
        raise MapError(f"folders of modules not in scripts/module_map.py's FOLDERS: {unmapped} "
                       "(add each in the layers' order of tests/test_layers.py)")
    out = [BEGIN, ""]
    for folder in FOLDERS:
        here = root / folder
        init = here / "__init__.py"
        out += [f"### `{folder}/` ({import_name(folder)})", ""]
        if init.exists():
            out += [first_paragraph(init, root), ""]
        modules = sorted(p for p in here.glob("*.py") if p.name != "__init__.py")
        out += [f"- `{p.name}`: {first_paragraph(p, root)}" for p in modules]
        if modules:
            out.append("")
    return "\n".join(out + [END]) + "\n"


def with_map(text: str, generated: str) -> str:
    """``text`` with ``generated`` between its markers."""
    if BEGIN not in text or END not in text.split(BEGIN, 1)[1]:
        raise MapError(f"{PAGE.relative_to(ROOT)} has no markers {BEGIN} ... {END}")
    head, rest = text.split(BEGIN, 1)
    return head + generated.rstrip("\n") + rest.split(END, 1)[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if the page's map is stale")
    a = ap.parse_args(argv)
    try:
        text = PAGE.read_text(encoding="utf-8")
        new = with_map(text, render())
    except MapError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.check:
        if new != text:
            print("docs/architecture.md's module map is stale: run python scripts/module_map.py",
                  file=sys.stderr)
            return 1
        return 0
    if new != text:
        tmp = PAGE.with_name(PAGE.name + ".tmp")
        tmp.write_text(new, encoding="utf-8")
        tmp.replace(PAGE)
    print("wrote docs/architecture.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
