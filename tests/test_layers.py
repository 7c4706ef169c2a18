"""The package's layers are one-way: a folder is a layer, and a sub-package a
layer inside its folder.

    spec -> model -> scenarios -> checks -> report -> cli      (the package, itcp.*)
    tools, bench                                               (development, not installed)

Inside a folder, the sub-packages are in one order too (``SUBPACKAGES``):
model/ engine -> analysis -> search -> smt; checks/ explicit -> symbolic ->
questions.  A module of a folder's top level (``checks/results.py``) is a node
of its own.

Every module's imports are read from its source (``ast``: at module level and
inside functions alike) and each is mapped to its layer.  The test fails on:

* an upward import (a module importing one of a higher layer, or a sub-package
  importing a later one of its folder);
* an import cycle between modules (networkx's strongly connected components
  of the import graph, the imports inside functions included: an import
  moved into a function still makes a cycle), and a cycle between packages
  (sub-packages and the top-level modules of a folder);
* a private name (``_x``) imported from another module of the package;
* an import inside a function, unless it is in ``LAZY`` below with its reason.

``tests/`` is not checked (a test may reach into any layer, and into a
module's private helpers to test them).  An import of ``a.b.c`` counts as an
import of that module only (not of its parent packages' ``__init__``).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parent.parent

#: the layers, lowest first: the package's folders, then the development ones
LAYERS = ("spec", "model", "scenarios", "checks", "report", "cli", "tools", "bench")

#: the folders of the installed package (``itcp.<folder>``)
PACKAGE = ("spec", "model", "scenarios", "checks", "report", "cli")

#: each folder's sub-packages, lowest first
SUBPACKAGES = {
    "itcp.spec": ("rules",),
    "itcp.model": ("engine", "analysis", "search", "smt"),
    "itcp.checks": ("explicit", "symbolic", "questions"),
    "tools": ("mutation",),
}

#: (importing module, imported module) -> why the import is inside a function.
#: Only start-up order and optional extras are reasons; a cycle never is.
LAZY = {
    ("itcp.cli.entry", "itcp.cli.main"):
        "the entry point installs its signal handlers before the program is imported",
    ("itcp.report.plots", "matplotlib"): "matplotlib is the optional 'plot' extra",
    ("itcp.report.plots", "matplotlib.pyplot"): "matplotlib is the optional 'plot' extra",
    ("itcp.report.plots", "matplotlib.patches"): "matplotlib is the optional 'plot' extra",
    ("itcp.cli.check_cmd", "networkx"):
        "start-up: networkx takes about 0.2 s to import and only --graph needs it",
    ("itcp.checks.run", "itcp.checks.symbolic.checker"):
        "start-up: Z3 takes about 0.1 s to import and an explicit check never needs it",
    ("itcp.cli.common", "itcp.checks.explicit.raycluster"):
        "Ray is the optional 'cluster' extra: imported only when --ray is given",
    ("tools.browser", "playwright.sync_api"):
        "playwright is optional (the 'test' extra): only screenshots and the browser test",
    **{("tools.mutation.mutate_code", m): "cosmic-ray is installed by hand for this bench run only"
       for m in ("cosmic_ray", "cosmic_ray.work_db", "cosmic_ray.work_item")},
}

#: Imports inside a function that stay, with the reason.  Each entry must still
#: be found (a stale one fails the test).
PENDING_LAZY: dict[tuple[str, str], str] = {
}
#: Package-level cycles being taken apart (each must still be found)
PENDING_PACKAGE_CYCLES: list[list[str]] = [
]
PENDING_PRIVATE = {
}


@dataclass(frozen=True)
class Import:
    source: str       # the importing module
    target: str       # the imported module (a module of the package, or an outside one)
    name: str | None  # the name imported from it (``from target import name``), if any
    line: int
    in_function: bool

    def where(self, modules) -> str:
        path = modules[self.source].relative_to(REPO)
        what = f"{self.target}.{self.name}" if self.name else self.target
        return f"{path}:{self.line}: {self.source} imports {what}"


def _package_modules() -> dict[str, Path]:
    """Module name -> file, for the package's folders (``itcp.<folder>...``) and
    the development ones (``tools.<name>``, ``bench.<name>``)."""
    out = {}
    for folder in PACKAGE + ("tools", "bench"):
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join((["itcp"] if folder in PACKAGE else []) + parts)] = path
    return out


def _imports(modules: dict[str, Path]) -> list[Import]:
    out = []
    for mod, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_pkg = path.name == "__init__.py"

        def visit(node, in_function: bool):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Import):
                    out.extend(Import(mod, a.name, None, child.lineno, in_function)
                               for a in child.names)
                elif isinstance(child, ast.ImportFrom):
                    if child.level:
                        base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                        base = base[:len(base) - (child.level - 1)]
                        target = ".".join(base + ([child.module] if child.module else []))
                    else:
                        target = child.module
                    for a in child.names:
                        sub = f"{target}.{a.name}"
                        if sub in modules:  # ``from package import module``
                            out.append(Import(mod, sub, None, child.lineno, in_function))
                        else:
                            out.append(Import(mod, target, a.name, child.lineno, in_function))
                visit(child, in_function or isinstance(
                    child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

        visit(tree, False)
    return out


MODULES = _package_modules()
IMPORTS = _imports(MODULES)
#: imports between the package's own modules
OWN = [i for i in IMPORTS if i.target in MODULES]


def layer(module: str) -> str:
    """The folder a module is in: its layer."""
    return module.split(".")[1] if module.startswith("itcp.") else module.split(".")[0]


def node(module: str) -> str:
    """The package-level node a module belongs to: its sub-package (``itcp.checks.explicit``),
    or the module itself where it sits at the top of its folder."""
    parts = module.split(".")
    folder = ".".join(parts[:2]) if module.startswith("itcp.") else parts[0]
    depth = folder.count(".") + 1
    if folder in SUBPACKAGES and len(parts) > depth and parts[depth] in SUBPACKAGES[folder]:
        return ".".join(parts[:depth + 1])
    return module


def sublayer(module: str) -> int | None:
    """The rank of a module's sub-package in its folder (None: not in one)."""
    n = node(module)
    if n == module and n.rsplit(".", 1)[0] not in SUBPACKAGES:
        return None
    folder, sub = n.rsplit(".", 1)
    return SUBPACKAGES.get(folder, ()).index(sub) if sub in SUBPACKAGES.get(folder, ()) else None


def test_every_module_has_a_layer():
    for m in MODULES:
        assert layer(m) in LAYERS, m


def test_no_upward_import():
    up = [f"{i.where(MODULES)} ({layer(i.source)} -> {layer(i.target)})" for i in OWN
          if LAYERS.index(layer(i.target)) > LAYERS.index(layer(i.source))]
    assert not up, ("upward imports (a layer imports only its own and lower ones):\n"
                    + "\n".join(up))


def test_no_sub_package_imports_a_later_one_of_its_folder():
    up = []
    for i in OWN:
        a, b = sublayer(i.source), sublayer(i.target)
        if (a is not None and b is not None and layer(i.source) == layer(i.target)
                and b > a):
            up.append(f"{i.where(MODULES)} ({node(i.source)} -> {node(i.target)})")
    assert not up, ("a sub-package imports only its own and earlier ones of its folder "
                    "(SUBPACKAGES):\n" + "\n".join(up))


def test_every_sub_package_is_declared():
    """A folder inside a layer's folder is one of SUBPACKAGES (or a data folder)."""
    found = {node(m) for m in MODULES if node(m) != m or MODULES[m].name == "__init__.py"}
    declared = {f"{folder}.{sub}" for folder, subs in SUBPACKAGES.items() for sub in subs}
    extra = {n for n in found if n.count(".") == (2 if n.startswith("itcp.") else 1)} - declared
    assert not extra, f"sub-packages missing from SUBPACKAGES: {sorted(extra)}"


def test_no_package_level_cycle():
    """Sub-packages (and a folder's top-level modules) import each other one way."""
    g = nx.DiGraph()
    g.add_edges_from((node(i.source), node(i.target)) for i in OWN
                     if node(i.source) != node(i.target))
    cycles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1
              and sorted(c) not in PENDING_PACKAGE_CYCLES]
    assert not cycles, f"package-level import cycles: {cycles}"


def test_no_import_cycle():
    g = nx.DiGraph()
    g.add_nodes_from(MODULES)
    g.add_edges_from((i.source, i.target) for i in OWN if i.source != i.target)
    cycles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]
    shown = []
    for c in cycles:
        one = nx.find_cycle(g.subgraph(c))
        shown.append(" -> ".join([a for a, _ in one] + [one[0][0]]))
    assert not cycles, ("import cycles (move the shared piece into a module of its own):\n"
                        + "\n".join(shown))


def test_no_private_name_imported_from_another_module():
    bad = [i.where(MODULES) for i in OWN
           if i.name and i.name.startswith("_") and not i.name.startswith("__")
           and (i.source, i.target, i.name) not in PENDING_PRIVATE]
    assert not bad, ("private names imported from another module (make the name public, "
                     "with a docstring, or move its user):\n" + "\n".join(bad))


def test_imports_inside_functions_are_only_the_listed_ones():
    allowed = set(LAZY) | set(PENDING_LAZY)
    bad = [i.where(MODULES) for i in IMPORTS
           if i.in_function and (i.source, i.target) not in allowed]
    assert not bad, ("imports inside functions (move them to the module's top; if there is "
                     "a cycle, move the shared piece into a module of its own; a start-up "
                     "or optional-extra reason goes into LAZY with the reason):\n"
                     + "\n".join(bad))


@pytest.mark.parametrize("listed", sorted(LAZY) + sorted(PENDING_LAZY) + sorted(PENDING_PRIVATE))
def test_every_listed_exception_is_still_needed(listed):
    if len(listed) == 3:
        found = any((i.source, i.target, i.name) == listed for i in OWN)
    else:
        found = any(i.in_function and (i.source, i.target) == listed for i in IMPORTS)
    assert found, f"{listed} is listed in tests/test_layers.py but no longer found: delete it"



def test_the_architecture_page_tells_the_layers_the_test_enforces():
    """docs/architecture.md's table of layers is this test's ``LAYERS`` and
    ``SUBPACKAGES``, so the page says what is enforced."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 2 and cells[0] in LAYERS:
            rows[cells[0]] = cells[1]
    assert tuple(rows) == LAYERS
    for lay in LAYERS:
        assert f"`{lay}/`" in rows[lay], lay
        folder = f"itcp.{lay}" if lay in PACKAGE else lay
        for sub in SUBPACKAGES.get(folder, ()):
            assert f"`{lay}/{sub}/`" in rows[lay], (lay, sub)


@pytest.mark.parametrize("init", sorted(p for p in MODULES.values() if p.name == "__init__.py"),
                         ids=lambda p: p.parent.relative_to(REPO).as_posix())
def test_every_package_docstring_maps_its_modules(init):
    """A package's ``__init__`` docstring names each of its modules and
    sub-packages: a newcomer learns the package by reading one file."""
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    names = [p.stem for p in init.parent.glob("*.py") if p.name != "__init__.py"]
    names += [p.name for p in init.parent.iterdir() if (p / "__init__.py").is_file()]
    missing = [n for n in sorted(names) if f"``{n}``" not in doc]
    assert not missing, (f"{init.relative_to(REPO)}: its docstring does not name "
                         f"{missing} (a line each: what the module is for)")
