"""The jobs of ``itcp-check sweep``: one explicit-state check per table, run in
worker processes, each result cached by job.

A job is one table (players, suits, ranks, hand, option cards) of one variant
with its own limits.  ``run_job`` runs it in a worker process: the variant is
loaded at that table and checked through the front door ``check`` uses
(``checks/run.py``), inside a ``Budget`` of the job's own (``--timeout`` per
job, a share of the memory).  Its result is plain JSON: the verdicts as ``check --json`` shows
them, each violation's raw trace (engine states and moves, to draw it again)
and, when asked, its scenario file's text (made and replayed by the code
``check --save-scenarios`` uses).

``Cache`` keeps each finished job's result in a folder as ``job-<key>.json``,
where the key is a hash of the variant's readings, the whole table, the limits
and the code's version (every source file of the package): a later sweep with
the same job reads it instead of running it again.  An entry is written
through ``output.py`` (a temporary file renamed into place), so it is whole or
absent; one that does not read back is ignored (and the job run again).
Results stopped by a signal are never cached.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from pathlib import Path

from itcp.checks.results import PropertyResult, Verdict, explicit_result
from itcp.checks.run import Check, Limits
from itcp.scenarios.save import checked_texts, verdict_file_name, verdict_scenarios
from itcp.scenarios.story import Trace
from itcp.spec.config import OPTION_TITLES
from itcp.spec.variants import load_variant

from .codehash import code_version
from .limits import SIGNALS, Budget
from .output import Outputs

#: the format of a cache entry (bumped when it changes)
ENTRY_FORMAT = 1
#: the folder ``--cache`` defaults to, under the working folder
DEFAULT_CACHE = ".itcp-sweep-cache"
#: the stop reasons that are not the job's own limits: such a result is not cached
SIGNAL_REASONS = tuple(SIGNALS.values())

# -- tables -------------------------------------------------------------------------

def table_label(table: dict) -> str:
    """A table in words, as ``Config.describe`` puts it (it may not be dealable)."""
    lo, hi = table["ranks"]
    opts = ", ".join(OPTION_TITLES[n] + (f"x{k}" if k > 1 else "")
                     for n, k in table["options"]) or "no option cards"
    return (f"{table['players']} players, {table['suits']} suit{'s' * (table['suits'] > 1)}, "
            f"ranks {lo}-{hi}, hand {table['hand']}, {opts}")


def table_slug(table: dict) -> str:
    """A table as a short plain name for files: ``2p-1s-r2-3-h1-mercy-justice2``."""
    lo, hi = table["ranks"]
    opts = "-".join(n.replace("_", "") + (str(k) if k > 1 else "")
                    for n, k in table["options"]) or "none"
    return f"{table['players']}p-{table['suits']}s-r{lo}-{hi}-h{table['hand']}-{opts}"


def table_json(table: dict) -> dict:
    lo, hi = table["ranks"]
    return {"players": table["players"], "suits": table["suits"], "ranks": f"{lo}..{hi}",
            "hand": table["hand"], "options": {n: k for n, k in table["options"]}}


def scenario_name(variant_name: str, table: dict, pid: str) -> str:
    """``<variant>-<table>-<PROPERTY>.toml``: one scenario file per violation."""
    return verdict_file_name(f"{variant_name}-{table_slug(table)}", pid)


def job_key(variant, wanted, limits: dict) -> str:
    """The cache key of checking ``variant`` (loaded at the job's table) with
    ``limits``: its readings, its whole table, the properties, the limits and
    the code's version."""
    what = {"format": ENTRY_FORMAT, "code": code_version(),
            "readings": dict(sorted(variant.readings.items())),
            "config": variant.config.as_dict(), "properties": sorted(wanted or []),
            "limits": limits}
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:32]


# -- one job, in a worker -----------------------------------------------------------

def worker_init() -> None:
    """A worker ignores Ctrl-C between jobs (the sweep itself stops them); a
    job's ``Budget`` takes the signals over while it runs."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _plain(x):
    """Engine states and moves (nested tuples) as JSON lists."""
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    return x


def _tuples(x):
    if isinstance(x, list):
        return tuple(_tuples(y) for y in x)
    return x


def run_job(job: dict) -> dict:
    """Check one table: ``job`` holds the variant's reference, the table, the
    properties wanted, the limits, and where scenarios will be saved (or None)."""
    start = time.monotonic()
    v = load_variant(job["variant"], job["table"])
    budget = Budget(job["timeout"], job["memory"], start=start)
    if job["memory"] is not None and not job["memory_given"]:
        budget.limit_given = False  # the sweep's share of the memory, not --max-memory
    with budget:
        report = Check(v, tuple(job["properties"] or ()), limits=Limits(
            job["max_states"], None, budget.search_timeout(), budget.timeout_name()),
            stops=budget).run()
    reason = budget.reason or report.stopped_by
    result = {"format": ENTRY_FORMAT, "key": job["key"], "table": table_json(job["table"]),
              "status": "checked", "pid": os.getpid()}
    st = report.search
    if st is None:
        result["stats"] = {"complete": False, "limit": reason, "stopped_by": reason}
        result["verdicts"] = []
    else:
        result["stats"] = {"states": st.states, "transitions": st.transitions,
                           "depth": st.depth, "seconds": round(st.seconds, 3),
                           "symmetries": st.symmetries, "complete": st.complete,
                           "limit": st.limit}
        if reason is not None:
            result["stats"]["stopped_by"] = reason
        result["verdicts"] = [_verdict_json(x) for x in report.results]
        if job["scenarios"] is not None:
            result["scenarios"] = _scenarios(job, v, report.game, report.results, reason)
    result["interrupted"] = reason in SIGNAL_REASONS
    result["seconds"] = round(time.monotonic() - start, 3)
    return result


def _scenarios(job, v, game, vs, reason) -> dict:
    """Each violation's scenario text (``check --save-scenarios``'s code: made,
    loaded back and replayed as if in the folder), named for the table; none
    when a stop cut the job short (as ``check`` does)."""
    out = {"for": job["scenarios_for"], "files": {}}
    if reason is not None:
        out["note"] = f"not saved: stopped by {reason}"
        return out
    folder = job["scenarios"]
    texts = checked_texts(folder, verdict_scenarios(folder, v, game, vs))
    for x in vs:
        name = verdict_file_name(v.name, x.id)
        if x.verdict is Verdict.VIOLATED and name in texts:
            out["files"][scenario_name(v.name, job["table"], x.id)] = texts[name]
    return out


def _verdict_json(x: PropertyResult) -> dict:
    out = x.as_json()
    t = x.trace
    if t is not None and t.states is not None and t.actions is not None:
        raw = {"states": _plain(list(t.states)), "actions": _plain(list(t.actions))}
        # kept only when it reads back as the engine's own values
        if _tuples(raw["states"]) == t.states and _tuples(raw["actions"]) == t.actions:
            out["raw"] = raw
    return out


def verdict_of(d: dict) -> PropertyResult:
    """A result as ``run_job`` returned it, back as a ``PropertyResult`` (a
    violation's trace with its engine states, when they were kept)."""
    trace = None
    if "trace" in d:
        raw = d.get("raw")
        trace = Trace.from_json(d["trace"], _tuples(raw["states"]) if raw else None,
                                _tuples(raw["actions"]) if raw else None)
    return explicit_result(d, trace)


# -- the cache ------------------------------------------------------------------------

class Cache:
    """Finished jobs' results in a folder, one ``job-<key>.json`` each."""

    def __init__(self, folder):
        self.folder = Path(folder)

    def path(self, key: str) -> Path:
        return self.folder / f"job-{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            entry = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key \
                or entry.get("format") != ENTRY_FORMAT:
            return None
        return entry

    def put(self, key: str, result: dict) -> None:
        """Write the entry whole (a temporary file renamed into place) or not at all."""
        with Outputs(force=True) as out:
            f = out.file(self.path(key), "--cache")
            f.write(json.dumps(result, separators=(",", ":")))
            out.commit()


__all__ = ["run_job", "worker_init", "Cache", "job_key", "code_version", "table_label",
           "table_slug", "table_json", "scenario_name", "verdict_of", "DEFAULT_CACHE",
           "SIGNAL_REASONS"]
