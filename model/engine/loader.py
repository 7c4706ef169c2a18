"""Loading generated code: the one place that compiles and runs the Python the
spec's compilers write.

The engine, the packed and batch successor code, the search's key and packing
functions and the observation tests are all generated source.  Each is run
here, compiled under a name of its own (``<itcp-engine>``,
``<itcp-batch:succ_PLAY_turn0>``) and registered with ``linecache``, so a
traceback through generated code shows the generated lines.

With the environment variable ``ITCP_DUMP_GENERATED`` naming a folder, each
source is also written there, as ``<its name>-<a hash of its text>.py``, and
compiled under that file's path: a traceback then points at a file one can
open beside it (Amaranth's ``AMARANTH_pysim_dump`` does the same for its
simulator).  Nothing else changes: the code run is the same.
"""
from __future__ import annotations

import hashlib
import linecache
import os
import re
from pathlib import Path

#: the environment variable naming the folder generated sources are dumped into
DUMP_ENV = "ITCP_DUMP_GENERATED"


def load_generated(source: str, filename: str, namespace: dict | None = None) -> dict:
    """Run ``source`` in ``namespace`` (a fresh dict when None) and give the
    namespace: compiled under ``filename`` (or, with ``ITCP_DUMP_GENERATED``
    set, under the path of its dumped copy), its lines known to tracebacks."""
    namespace = {} if namespace is None else namespace
    folder = os.environ.get(DUMP_ENV)
    if folder:
        filename = dump(source, filename, Path(folder))
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def dump(source: str, filename: str, folder: Path) -> str:
    """Write ``source`` into ``folder`` under a name made of ``filename`` and a
    hash of the text (a source compiled twice is one file); its path."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", filename).strip("-") or "generated"
    digest = hashlib.sha1(source.encode("utf-8")).hexdigest()[:12]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}-{digest}.py"
    if not path.exists():
        path.write_text(source, encoding="utf-8")
    return str(path.resolve())


__all__ = ["load_generated", "DUMP_ENV"]
