"""What every benchmark shares: timing a whole command in a child process, the
command line as ``itcp-check`` runs it, and another revision's tree to run the
same command at.

Benchmarks run from the repository root as modules (``python -m bench.workers``),
so they import this module as ``bench.common``.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: the repository root
REPO = Path(__file__).resolve().parent.parent


def run(cmd: list[str], env: dict | None = None,
        cwd: str | None = None) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stdout) of one run of ``cmd`` in a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=cwd)
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    cpu = _child_cpu.pop()  # the child has been waited for: its usage is counted
    if proc.returncode not in (0, 1, 3):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    return cpu, wall, out


class _ChildCPU:
    """CPU seconds of each finished child, from the difference in the
    accounted usage of the waited-for children."""

    def __init__(self):
        self.last = self._now()

    @staticmethod
    def _now() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    def pop(self) -> float:
        now = self._now()
        out, self.last = now - self.last, now
        return out


_child_cpu = _ChildCPU()


#: the command line as `itcp-check` runs it, but importable from any tree
LAUNCH = "import sys; from itcp.cli.entry import main; sys.argv[0] = 'itcp-check'; sys.exit(main())"


def run_itcp(args: list[str], pythonpath: str | None) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stdout) of one run of the command in a child
    (timed as ``run`` times any command)."""
    # one string-hash seed for both sides: an older revision's successor code
    # followed the order of a set of nodes, so its output changed from run to run
    env = dict(os.environ, PYTHONHASHSEED="0")
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    # in a folder of its own: `ask` saves its witness in the working folder
    with tempfile.TemporaryDirectory(prefix="itcp-bench-run-") as cwd:
        return run([sys.executable, "-c", LAUNCH, *args], env, cwd)


def package_tree(checkout: Path, into: Path) -> Path:
    """``into/itcp/<sub>`` -> the checkout's folders, as its pyproject.toml maps
    them: the other revision imports as ``itcp`` from ``into`` (found before the
    editable install of this tree)."""
    config = tomllib.loads((checkout / "pyproject.toml").read_text(encoding="utf-8"))
    for name, folder in config["tool"]["setuptools"]["package-dir"].items():
        if name.count(".") == 1:
            link = into.joinpath(*name.split("."))
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(checkout / folder, target_is_directory=True)
    return into


@contextmanager
def revision_tree(rev: str) -> Iterator[str]:
    """A folder to import revision ``rev``'s ``itcp`` from (``PYTHONPATH``): a
    temporary git worktree, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="itcp-bench-") as tmp:
        checkout = Path(tmp) / "checkout"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q",
                        str(checkout), rev], check=True)
        try:
            yield str(package_tree(checkout, Path(tmp) / "tree"))
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                            str(checkout)], check=False)
