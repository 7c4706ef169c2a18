"""Shared test fixtures."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from itcp.checks.verdicts import verdicts

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
    from itcp.model.engine import Game
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
        "verdicts": [(v.id, v.verdict, v.evidence.get("length")) for v in verdicts(ex)],
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
