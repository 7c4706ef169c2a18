"""The package's layers are one-way: spec -> model -> checks -> report -> cli.

Every module's imports are read from its source (``ast``: at module level and
inside functions alike) and each is mapped to its layer.  The test fails on:

* an upward import (a module importing one of a higher layer);
* an import cycle between modules (networkx's strongly connected components
  of the import graph, the imports inside functions included: an import
  moved into a function still makes a cycle);
* a private name (``_x``) imported from another module of the package;
* an import inside a function, unless it is in ``LAZY`` below with its reason.

What is a layer (``docs/architecture.md`` tells it in words):

* ``spec``: the rulebook as data (``itcp.spec.*``); imports nothing of the package
  above it.
* ``model``: the engines compiled from the spec and the Z3 encoding.
* ``checks``: the checkers, and the scenario files they read, replay and save
  (``scenarios/format.py``, ``replay.py``, ``save.py``, ``stateful.py``: a saved
  trace is the checker's own output, written through a sink, never to disk).
* ``report``: what people look at: the HTML pages, plots, the game at the
  terminal, and the scenario writing done for people (``scenarios/contrast.py``,
  ``generate.py``).
* ``cli``: the ``itcp-check`` program.
* ``bench``: the benchmark scripts, above everything.

A module may import modules of its own layer or of a lower one.  ``tests/`` is
not checked (a test may reach into any layer, and into a module's private
helpers to test them).  An import of ``a.b.c`` counts as an import of that
module only (not of its parent packages' ``__init__``).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parent.parent

#: the layers, lowest first
LAYERS = ("spec", "model", "checks", "report", "cli", "bench")

#: the scenario modules: the package sits across two layers
SCENARIOS = {
    "itcp.scenarios": "checks",
    "itcp.scenarios.format": "checks",     # the scenario file: read and written
    "itcp.scenarios.replay": "checks",     # replaying and narrating a scenario
    "itcp.scenarios.save": "checks",       # a checker's trace as a scenario (no file I/O)
    "itcp.scenarios.stateful": "checks",   # the spec-derived Hypothesis machine
    "itcp.scenarios.contrast": "report",   # readings side by side, as a player sees them
    "itcp.scenarios.generate": "report",   # scenario files by rule-pair coverage
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
    ("itcp.cli.check_cmd", "itcp.checks.symbolic"):
        "start-up: Z3 takes about 0.1 s to import and an explicit check never needs it",
    ("itcp.cli.common", "itcp.checks.raycluster"):
        "Ray is the optional 'cluster' extra: imported only when --ray is given",
    ("itcp.report.browser", "playwright.sync_api"):
        "playwright is optional (the 'test' extra): only screenshots and the browser test",
    **{("bench.mutate_code", m): "cosmic-ray is installed by hand for this bench run only"
       for m in ("cosmic_ray", "cosmic_ray.work_db", "cosmic_ray.work_item")},
}

#: Imports inside a function that stay, with the reason.  Each entry must still
#: be found (a stale one fails the test).
PENDING_LAZY = {
    ("itcp.spec.rules", "itcp.spec.properties"): (
        "spec/properties.py reads the rules' Table, so the rules package cannot import it "
        "while it is itself being imported"),
}
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
    the benchmark scripts (``bench.<name>``)."""
    out = {}
    for folder in ("spec", "model", "checks", "scenarios", "report", "cli"):
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(["itcp"] + parts)] = path
    for path in sorted((REPO / "bench").glob("*.py")):
        out[f"bench.{path.stem}"] = path
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
    if module in SCENARIOS:
        return SCENARIOS[module]
    head = module.split(".")[1] if module.startswith("itcp.") else module.split(".")[0]
    if head == "scenarios":
        raise KeyError(f"{module}: give it a layer in SCENARIOS (tests/test_layers.py)")
    return head


def test_every_module_has_a_layer():
    for m in MODULES:
        assert layer(m) in LAYERS, m


def test_no_upward_import():
    up = [f"{i.where(MODULES)} ({layer(i.source)} -> {layer(i.target)})" for i in OWN
          if LAYERS.index(layer(i.target)) > LAYERS.index(layer(i.source))]
    assert not up, ("upward imports (a layer imports only its own and lower ones):\n"
                    + "\n".join(up))


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
    ``SCENARIOS``, so the page says what is enforced."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 2 and cells[0] in LAYERS:
            rows[cells[0]] = {c.strip().strip("`") for c in cells[1].split(",")}
    assert tuple(rows) == LAYERS
    for mod, lay in SCENARIOS.items():
        if mod != "itcp.scenarios":
            assert f"scenarios/{mod.rsplit('.', 1)[1]}.py" in rows[lay], mod
    for lay in LAYERS:
        assert f"{lay}/" in rows[lay]
