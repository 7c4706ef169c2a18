"""Shared test fixtures."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

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


def pytest_collection_modifyitems(config, items):
    """The tests marked slow run first: the two workers start on the long ones and
    fill in with the short ones, so neither is left running one long test at the
    end while the other idles (longest first keeps the suite's wall time down)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
