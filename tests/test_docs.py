"""The generated parts of the docs are fresh: each is rendered again from its
source and compared with the page.

- docs/architecture.md's module map, from the modules' docstrings:
  ``python scripts/module_map.py`` writes it again;
- docs/mutation.md's score tables, from the summary of the last mutation run
  (docs/mutation/spec-mutants.jsonl) and the notes (docs/mutation-notes.toml):
  ``python -m tools.mutation.report`` writes them again.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tools.mutation import report
from tools.mutation.summary import SUMMARY, read_summary

REPO = Path(__file__).resolve().parent.parent


def _load(path: Path):
    """A module of the repository that is not in a package (a script, a test)."""
    name = f"_docs_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


module_map = _load(REPO / "scripts" / "module_map.py")


def test_the_module_map_is_generated_from_the_docstrings():
    assert module_map.main(["--check"]) == 0, (
        "docs/architecture.md's module map is stale: run python scripts/module_map.py")


def test_the_module_map_follows_the_layers_the_layer_test_enforces():
    """The map's folders are tests/test_layers.py's layers in their order, each
    folder before its sub-packages in their order; then scripts/."""
    layers = _load(REPO / "tests" / "test_layers.py")
    want = []
    for lay in layers.LAYERS:
        want.append(lay)
        folder = f"itcp.{lay}" if lay in layers.PACKAGE else lay
        want += [f"{lay}/{sub}" for sub in layers.SUBPACKAGES.get(folder, ())]
    assert module_map.FOLDERS == (*want, "scripts")
    assert module_map.PACKAGE == layers.PACKAGE


def test_the_module_map_names_every_module_with_its_docstrings_first_paragraph(tmp_path):
    (tmp_path / "spec" / "rules").mkdir(parents=True)
    (tmp_path / "spec" / "__init__.py").write_text('"""The rulebook\nas data.\n\nMore."""\n')
    (tmp_path / "spec" / "ast.py").write_text('"""The ``Node`` type.\n\nDetails."""\nX = 1\n')
    (tmp_path / "spec" / "rules" / "turn.py").write_text('"""The turn."""\n')
    text = module_map.render(tmp_path)
    assert text.startswith(module_map.BEGIN) and text.endswith(module_map.END + "\n")
    assert ("### `spec/` (`itcp.spec`)\n\nThe rulebook as data.\n\n"
            "- `ast.py`: The `Node` type.\n\n### `spec/rules/` (`itcp.spec.rules`)\n\n"
            "- `turn.py`: The turn.\n") in text
    assert "Details" not in text and "More" not in text
    page = "# A\n\n" + module_map.BEGIN + "\nold\n" + module_map.END + "\n\nAfter.\n"
    assert module_map.with_map(page, text) == "# A\n\n" + text + "\nAfter.\n"


def test_the_module_map_refuses_a_module_without_a_docstring_or_an_unmapped_folder(tmp_path):
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "bare.py").write_text("X = 1\n")
    with pytest.raises(module_map.MapError, match="spec/bare.py: no docstring"):
        module_map.render(tmp_path)
    (tmp_path / "spec" / "bare.py").write_text('"""Bare."""\n')
    (tmp_path / "spec" / "extra").mkdir()
    (tmp_path / "spec" / "extra" / "m.py").write_text('"""M."""\n')
    with pytest.raises(module_map.MapError, match="spec/extra"):
        module_map.render(tmp_path)
    with pytest.raises(module_map.MapError, match="no markers"):
        module_map.with_map("# A page without markers\n", "")


def test_the_mutation_page_is_rendered_from_the_summary_and_the_notes(capsys):
    assert report.main(["--check"]) == 0, (
        "docs/mutation.md is stale: run python -m tools.mutation.report")


def test_the_mutation_summary_is_one_line_per_mutant_of_the_run():
    run, lines = read_summary(SUMMARY)
    assert run["mutants"] == len(lines) == len({x["id"] for x in lines})
    assert all(x["status"] in ("killed", "survived", "timeout", "stillborn") for x in lines)
    assert all(x.get("by") for x in lines if x["status"] == "killed")
    assert all("proof" in x for x in lines if x["status"] in ("survived", "timeout"))
