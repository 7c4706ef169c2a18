"""The version of the code a result depends on: a cache entry or a checkpoint
made by other code (another release, an edited rule) is not used again."""
from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

import itcp.checks as checks_pkg
import itcp.model as model_pkg
import itcp.scenarios as scenarios_pkg
import itcp.spec as spec_pkg

#: the code a job's result depends on: these packages whole, and these files of cli/
_PACKAGES = (spec_pkg, model_pkg, checks_pkg, scenarios_pkg)
_CLI_FILES = ("check_cmd.py", "limits.py", "sweep_jobs.py", "checkpoint.py")
_version: list[str] = []


def code_version() -> str:
    """The package's version and a hash of every file of the code a job's result
    depends on (rules, engine, checks, scenarios, the job itself), so a cache
    entry made by other code (another release, an edited rule) is not used."""
    if _version:
        return _version[0]
    h = hashlib.sha256()
    try:
        h.update(metadata.version("itcp").encode())
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
        pass
    files = [(Path(root), path) for pkg in _PACKAGES for root in sorted(pkg.__path__)
             for path in sorted(Path(root).rglob("*"))]
    here = Path(__file__).parent
    files += [(here, here / name) for name in _CLI_FILES]
    for root, path in files:
        if path.suffix in (".py", ".toml", ".txt") and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(root)).encode() + b"\0")
            h.update(path.read_bytes() + b"\0")
    _version.append(h.hexdigest()[:16])
    return _version[0]



__all__ = ["code_version"]
