"""Generated code is loaded in one place (``model/engine/loader.py``): its lines
show in tracebacks, and ``ITCP_DUMP_GENERATED`` writes each source to a file
the traceback then names."""
from __future__ import annotations

import traceback

import pytest

from itcp.model.engine import loader
from itcp.model.engine.codegen import compile_spec
from itcp.model.engine.engine import build_spec
from itcp.spec.config import Config

SOURCE = "X = 2\n\ndef f(y):\n    return X // y  # the generated line\n"


def _failing_line(fn) -> traceback.FrameSummary:
    with pytest.raises(ZeroDivisionError) as caught:
        fn(0)
    return traceback.extract_tb(caught.value.__traceback__)[-1]


def test_generated_lines_show_in_a_traceback(monkeypatch):
    monkeypatch.delenv(loader.DUMP_ENV, raising=False)
    ns = loader.load_generated(SOURCE, "<itcp-test>")
    assert ns["f"](1) == 2
    frame = _failing_line(ns["f"])
    assert frame.filename == "<itcp-test>"
    assert frame.line == "return X // y  # the generated line"


def test_the_namespace_given_is_the_one_run_in():
    ns = {"X": 6}
    assert loader.load_generated("Y = X * 7\n", "<itcp-test>", ns) is ns
    assert ns["Y"] == 42


def test_the_dump_switch_writes_each_source_once_and_tracebacks_name_the_file(
        monkeypatch, tmp_path):
    monkeypatch.setenv(loader.DUMP_ENV, str(tmp_path / "dumps"))
    ns = loader.load_generated(SOURCE, "<itcp-test:f>")
    again = loader.load_generated(SOURCE, "<itcp-test:f>")
    files = list((tmp_path / "dumps").iterdir())
    assert len(files) == 1 and files[0].name.startswith("itcp-test-f-")
    assert files[0].read_text() == SOURCE
    for fn in (ns["f"], again["f"]):
        frame = _failing_line(fn)
        assert frame.filename == str(files[0].resolve())
        assert frame.line == "return X // y  # the generated line"


def test_the_dumped_engine_is_the_engine_run(monkeypatch, tmp_path):
    monkeypatch.setenv(loader.DUMP_ENV, str(tmp_path))
    mod = compile_spec(build_spec(Config(players=2, suits=1, ranks=(2, 3), hand=1)))
    (dumped,) = tmp_path.glob("itcp-engine-*.py")
    assert dumped.read_text() == mod.__source__
    assert mod.current.__code__.co_filename == str(dumped.resolve())
