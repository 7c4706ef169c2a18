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
