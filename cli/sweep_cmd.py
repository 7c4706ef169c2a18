"""``itcp-check sweep``: the check at many tables as one job, a matrix of verdicts.

Every combination of the ranges given (players x suits x ranks x hand x each
subset of the option cards) is one job: the explicit-state check ``check``
runs, at that table, with the job's own limits.  Jobs run in worker processes
(``--jobs``) and each finished job is cached (``sweep_jobs.Cache``), so a sweep
that was stopped (Ctrl-C, SIGTERM) runs again without redoing what it had
finished.  The result is a matrix, property x table, each cell HOLDS, VIOLATED
with the trace's length, UNKNOWN with the limit that stopped it, or skipped
(a table the deck cannot deal), as text, JSON, CSV and HTML.  See docs/sweep.md.
"""
from __future__ import annotations

import csv
import io
import itertools
import json
import multiprocessing
import os
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

import click
from tqdm import tqdm

from itcp.checks.results import Verdict
from itcp.model.engine.engine import Game
from itcp.report.sweep import SKIPPED, Cell, SweepColumn, cell, drawable, sweep_page
from itcp.scenarios.save import variant_ref
from itcp.spec.config import OPTION_VALUES
from itcp.spec.errors import ConfigError, InputError, nearest, valid_names
from itcp.spec.properties import property_ids
from itcp.spec.variants import Variant, load_variant, parse_options, parse_ranks

from .common import (
    COUNT,
    SECONDS,
    VARIANT_HELP,
    Command,
    collected,
    force_option,
    load_with,
    memory_option,
    ray_cluster,
    variant_argument,
)
from .limits import available_memory, interrupted_text, memory_option_value, show_size
from .output import Outputs
from .sweep_jobs import (
    DEFAULT_CACHE,
    Cache,
    job_key,
    run_job,
    scenario_name,
    table_json,
    table_label,
    verdict_of,
    worker_init,
)

#: the share of the memory available at the start that the jobs running at once share
MEMORY_SHARE = 0.8


# -- reading the flags ------------------------------------------------------------------

def int_range(text: str, option: str, lo: int, hi: int, example: str) -> list[int]:
    """ "2..4" or "3" -> [2, 3, 4] or [3], each within lo..hi."""
    s = str(text).strip()
    first, dots, last = s.partition("..")
    try:
        a = int(first)
        b = int(last) if dots else a
    except ValueError:
        raise InputError(f"{option}: cannot read {s[:40]!r}",
                         hint=f"give N or LO..HI, e.g. {option} {example}") from None
    if not lo <= a <= b <= hi:
        raise InputError(f"{option} {s[:40]}: must be within {lo}..{hi}, lowest first",
                         hint=f"e.g. {option} {example}")
    return list(range(a, b + 1))


def rank_list(text: str) -> list[tuple[int, int]]:
    """ "2..2,2..3" -> [(2, 2), (2, 3)]."""
    out = []
    for item in str(text).split(","):
        if not item.strip():
            continue
        try:
            r = parse_ranks(item)
        except InputError as e:
            raise InputError(f"--ranks: {e.message}",
                             hint="give LO..HI or a comma list of them, e.g. --ranks 2..2,2..3"
                             ) from None
        if r in out:
            raise InputError(f"--ranks: {r[0]}..{r[1]} is listed twice",
                             hint="name each range once")
        out.append(r)
    if not out:
        raise InputError("--ranks: no range given", hint="e.g. --ranks 2..3")
    return out


def copies_of(items) -> dict[str, int]:
    """--copies CARD=N (repeatable) -> {card: N}."""
    out: dict[str, int] = {}
    for item in items:
        if "=" not in item:
            raise InputError(f"--copies {item[:40]!r}: give CARD=N",
                             hint="e.g. --copies justice=2")
        try:
            ((name, n),) = parse_options(item)
        except InputError as e:
            raise InputError(f"--copies: {e.message}", hint=e.hint) from None
        except ValueError:
            raise InputError(f"--copies {item[:40]!r}: give one CARD=N",
                             hint="repeat --copies for another card") from None
        if name in out:
            raise InputError(f"--copies: {name} is given twice", hint="give each card once")
        out[name] = n
    return out


def option_subsets(text: str, copies: dict[str, int]) -> list[tuple]:
    """--options-subsets: "all" (every subset of the option cards), "N" or "N..M"
    (every subset of that many cards), or subsets separated by ";", each as
    --options takes it ("none;mercy;mercy,justice").  --copies apply to all."""
    cards = list(OPTION_VALUES)
    s = str(text).strip()
    if s.lower() == "all" or s.replace("..", "").isdigit():
        sizes = (range(len(cards) + 1) if s.lower() == "all"
                 else int_range(s, "--options-subsets", 0, len(cards), "2"))
        subsets = [tuple((c, 1) for c in sub) for k in sizes
                   for sub in itertools.combinations(cards, k)]
    else:
        subsets = []
        for item in s.split(";"):
            if not item.strip():
                continue
            try:
                sub = parse_options(item)
            except InputError as e:
                raise InputError(f"--options-subsets: {e.message}",
                                 hint=e.hint or 'e.g. --options-subsets "none;mercy,justice"'
                                 ) from None
            subsets.append(sub)
        if not subsets:
            raise InputError("--options-subsets: no subset given",
                             hint='give all, a size, or a list, e.g. "none;mercy;mercy,justice"')
    out = []
    for sub in subsets:
        sub = tuple((n, copies.get(n, k)) for n, k in sub)
        if sub in out:
            shown = ",".join(n for n, _ in sub) or "none"
            raise InputError(f"--options-subsets: the subset {shown} is listed twice",
                             hint="name each subset once")
        out.append(sub)
    return out


def check_properties(properties) -> list[str]:
    for p in properties:
        if p not in property_ids():
            best = nearest(p, property_ids())
            raise InputError(f"--property: unknown property {p!r}; {valid_names(property_ids())}",
                             hint=f"did you mean {best!r}?" if best else None)
    return list(dict.fromkeys(properties))


# -- the cells --------------------------------------------------------------------------

class TableJob:
    """One table of the sweep: its job, and its result once known."""

    def __init__(self, table: dict):
        self.table = table
        self.label = table_label(table)
        self.variant: Variant | None = None
        self.key: str | None = None
        self.skipped: str | None = None
        self.result: dict | None = None
        self.cached = False
        self.not_run: str | None = None  # why it has no result (a stop)

    def results(self) -> list:
        """The table's results (``PropertyResult``), read back from its job's result."""
        return [verdict_of(d) for d in (self.result or {}).get("verdicts", [])]

    def cells(self, properties) -> dict[str, Cell]:
        """property -> its cell of the matrix."""
        if self.skipped is not None:
            return {p: Cell(SKIPPED, reason=self.skipped) for p in properties}
        if self.result is None or not self.result["verdicts"]:
            why = self.not_run or (self.result or {}).get("stats", {}).get("limit")
            return {p: Cell(Verdict.UNKNOWN, limit=why) for p in properties}
        return {r.id: cell(r) for r in self.results()}


def text_matrix(variant, columns, properties, summary) -> str:
    limits: dict[str, str] = {}
    rows = []
    for c in columns:
        cells = c.cells(properties)
        label = c.label + (f"  (skipped: {c.skipped})" if c.skipped else "")
        rows.append([cells[p].text(limits) if p in cells else "" for p in properties]
                    + [label])
    headers = list(properties) + ["table"]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers[:-1])]
    fmt = lambda r: "  ".join(x.ljust(w) for x, w in zip(r, widths)) + "  " + r[-1]  # noqa: E731
    lines = [f"itcp-check sweep: variant {variant.name}, {summary['tables']} table"
             f"{'s' * (summary['tables'] != 1)}: {summary['checked']} checked "
             f"({summary['run']} run, {summary['cached']} from the cache), "
             f"{summary['skipped']} skipped"
             + (f", {summary['not_run']} not run" if summary["not_run"] else ""),
             f"limits per job: {summary['limits_text']}", "",
             "  " + fmt(headers), "  " + fmt(["-" * w for w in widths] + ["-----"])]
    lines += ["  " + fmt(r).rstrip() for r in rows]
    counts = summary["cells"]
    lines += ["", "cells: " + ", ".join(f"{n} {k}" for k, n in counts.items())
              + "; VIOLATED N: the shortest trace has N moves"]
    if limits:
        lines += ["UNKNOWN: what stopped the job before its search was exhausted:"]
        lines += [f"  [{m}] {lim}" for lim, m in limits.items()]
    return "\n".join(lines)


def csv_text(columns, properties) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["table", "players", "suits", "ranks", "hand", "options", "property", "verdict",
                "trace_length", "limit", "reason"])
    for c in columns:
        t = table_json(c.table)
        opts = ",".join(n + (f"={k}" if k > 1 else "") for n, k in t["options"].items())
        cells = c.cells(properties)
        for p in properties:
            if p not in cells:
                continue
            x = cells[p]
            w.writerow([c.label, t["players"], t["suits"], t["ranks"], t["hand"], opts or "none",
                        p, x.verdict, "" if x.length is None else x.length, x.limit or "",
                        x.reason or ""])
    return buf.getvalue()


def json_report(variant, columns, properties, summary, scenarios) -> dict:
    tables = []
    for c in columns:
        d = {"label": c.label, **table_json(c.table)}
        if c.skipped is not None:
            d.update(status="skipped", reason=c.skipped)
        elif c.result is None:
            d.update(status="not run", reason=c.not_run)
        else:
            d.update(status="checked", cached=c.cached, stats=c.result["stats"])
        d["cells"] = {p: x.as_json() for p, x in c.cells(properties).items()}
        tables.append(d)
    out = {"variant": variant.name, "readings": dict(variant.explicit),
           "properties": list(properties), "limits": summary["limits"],
           "summary": {k: summary[k] for k in ("tables", "checked", "run", "cached", "skipped",
                                               "not_run", "cells")},
           "tables": tables}
    if scenarios is not None:
        out["scenarios"] = scenarios
    return out


# -- running the jobs ---------------------------------------------------------------------

def _progress(total: int):
    if not sys.stderr.isatty() or total == 0:
        return None
    return tqdm(total=total, unit=" jobs", file=sys.stderr, dynamic_ncols=True, leave=False)


def _stop_workers() -> None:
    """End this sweep's worker processes (only the children it started), at once."""
    for p in multiprocessing.active_children():
        p.kill()
    for p in multiprocessing.active_children():
        p.join(5)


def run_jobs(todo: list[tuple[TableJob, dict]], jobs: int, cache: Cache) -> str | None:
    """Run each job not cached, ``jobs`` at a time, caching each as it ends.
    Returns what stopped the sweep (a signal), or None when every job ran."""
    if not todo:
        return None
    bar = None
    workers = min(jobs, len(todo))
    pool = ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("fork"),
                               initializer=worker_init)
    futures = {}
    try:
        for col, job in todo:
            futures[pool.submit(run_job, job)] = col
        bar = _progress(len(todo))
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in done:
                col = futures[f]
                try:
                    result = f.result()
                except BrokenProcessPool:
                    col.not_run = "the job's worker process died (out of memory?)"
                    continue
                if result.get("interrupted"):
                    col.not_run = result["stats"].get("stopped_by") or "interrupted"
                    continue
                assert col.key is not None  # every job run was keyed before it ran
                cache.put(col.key, result)
                col.result = result
            if bar is not None:
                # a job handed to the pool counts as running while it waits for a worker
                running = min(workers, sum(f.running() for f in pending))
                bar.n = len(futures) - len(pending)
                bar.set_postfix_str(f"{running} running")
                bar.refresh()
        pool.shutdown(wait=True)
        return None
    except KeyboardInterrupt:
        _stop_workers()
        # the pool's manager thread ends once it sees its workers gone: waiting for it
        # here keeps the interpreter's exit from waking it through a closed pipe (a
        # traceback on stderr after the report)
        pool.shutdown(wait=True, cancel_futures=True)
        reason, _ = interrupted_text()
        for col in futures.values():
            if col.result is None and col.not_run is None:
                col.not_run = reason
        return reason
    except BaseException:  # an error in a job: no worker is left running
        _stop_workers()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        if bar is not None:
            bar.close()


def run_jobs_on_ray(todo: list[tuple[TableJob, dict]], address: str, cache: Cache) -> str | None:
    """``run_jobs`` with each job a Ray task on the cluster at ``address``
    (``--ray``); cached the same way as each ends."""
    if not todo:
        return None
    cluster = ray_cluster(address)
    ray, task = cluster.ray, cluster.ray.remote(run_job)
    bar = _progress(len(todo))
    refs = {task.remote(job): col for col, job in todo}
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            for ref in done:
                col = refs[ref]
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as e:
                    col.not_run = f"the job failed on the Ray cluster ({type(e).__name__})"
                    continue
                if result.get("interrupted"):
                    col.not_run = result["stats"].get("stopped_by") or "interrupted"
                    continue
                assert col.key is not None
                cache.put(col.key, result)
                col.result = result
            if bar is not None:
                bar.n = len(refs) - len(pending)
                bar.refresh()
        return None
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        reason, _ = interrupted_text()
        for col in refs.values():
            if col.result is None and col.not_run is None:
                col.not_run = reason
        return reason
    finally:
        if bar is not None:
            bar.close()


# -- the command ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SweepFlags:
    """The sweep command's flags, besides the variant (one field per option,
    named as the option's parameter)."""
    players: str
    suits: str
    ranks: str
    hand: str
    subsets: str
    copies: tuple
    properties: tuple
    max_states: int | None
    timeout: float | None
    max_memory: int | None
    jobs: int | None
    ray_address: str | None
    cache_dir: str
    json_file: str | None
    csv_file: str | None
    html_file: str | None
    scenario_dir: str | None
    force: bool

    def tables(self) -> list[dict]:
        """Every combination of the ranges given: one table each (exit 2 on a
        range that cannot be read)."""
        return [dict(players=p, suits=s, ranks=r, hand=h, options=o)
                for p in int_range(self.players, "--players", 2, 8, "2..4")
                for s in int_range(self.suits, "--suits", 1, 6, "1..2")
                for r in rank_list(self.ranks)
                for h in int_range(self.hand, "--hand", 1, 20, "1..2")
                for o in option_subsets(self.subsets, copies_of(self.copies))]


@click.command("sweep", cls=Command, help=(
    "Check a variant at many tables: every combination of the player counts, suits, "
    "ranks, hand sizes and option-card subsets given is one job (the check 'itcp-check "
    "check' runs, with its own limits), run in parallel processes and cached, so a stopped "
    "sweep resumes where it was.  Prints a matrix: each property at each table HOLDS, "
    "VIOLATED with its trace's length, UNKNOWN with its limit, or skipped (a table the deck "
    "cannot deal).\n\n" + VARIANT_HELP + " Exit codes: 0 all hold, 1 a property is "
    "violated, 2 bad input, 3 some unknown and none violated."))
@variant_argument
@click.option("--players", default="2", show_default=True, metavar="LO..HI",
              help="Player counts, e.g. 2..4 (within 2..8).")
@click.option("--suits", default="1", show_default=True, metavar="LO..HI",
              help="Suit counts, e.g. 1..2 (within 1..6).")
@click.option("--ranks", default="2..2", show_default=True, metavar="LO..HI[,LO..HI]",
              help="Rank ranges, each a table, e.g. 2..2,2..3.")
@click.option("--hand", default="1", show_default=True, metavar="LO..HI",
              help="Hand sizes, e.g. 1..2.")
@click.option("--options-subsets", "subsets", default="all", show_default=True,
              metavar="all|N|LIST",
              help='Which subsets of the option cards: "all" (every subset: 64), a size N or '
                   'N..M (every subset of that many cards), or subsets separated by ";", '
                   'each as --options takes it, e.g. "none;mercy;mercy,justice".')
@click.option("--copies", multiple=True, metavar="CARD=N",
              help="Copies of an option card in every subset that holds it (repeatable).")
@click.option("--property", "properties", multiple=True, metavar="ID",
              help="Check only this property (repeatable).")
@click.option("--max-states", type=COUNT, default=None,
              help="Each job stops after this many distinct states (its verdicts then "
                   "UNKNOWN).")
@click.option("--timeout", type=SECONDS, default=None,
              help="Each job stops after this many seconds (as check --timeout).")
@memory_option
@click.option("--jobs", type=COUNT, default=None,
              help="Jobs run at once, each in its own process (default: the CPU count).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Run the jobs as tasks on the Ray cluster at ADDRESS (\"local\": one "
                   "started in this process) instead of local processes; needs the "
                   "'cluster' extra.")
@click.option("--cache", "cache_dir", default=DEFAULT_CACHE, show_default=True, metavar="DIR",
              help="Folder of finished jobs' results: a job found there is not run again.")
@click.option("--json", "json_file", default=None, metavar="FILE",
              help="Write the matrix as JSON to this file.")
@click.option("--csv", "csv_file", default=None, metavar="FILE",
              help="Write the matrix as CSV (a row per table and property) to this file.")
@click.option("--html", "html_file", default=None, metavar="FILE",
              help="Write the matrix as one HTML page, each violation's trace a stepper.")
@click.option("--save-scenarios", "scenario_dir", default=None, metavar="DIR",
              help="Save each violation's trace as a scenario file "
                   "(<variant>-<table>-<PROPERTY>.toml) in this folder.")
@force_option
@collected("flags", SweepFlags)
def sweep(variant, flags: SweepFlags):
    wanted = check_properties(flags.properties)
    columns = [TableJob(t) for t in flags.tables()]
    base = load_with(variant, {})  # the variant file itself: its errors exit 2
    memory_option_value(flags.max_memory)
    jobs = flags.jobs or os.cpu_count() or 1
    max_memory = flags.max_memory
    if max_memory is None:
        free = available_memory()
        max_memory = int(MEMORY_SHARE * free / min(jobs, len(columns))) if free else None
    for c in columns:
        try:
            c.variant = load_variant(variant, c.table)
        except ConfigError as e:
            c.skipped = e.problem
    checkable = [c for c in columns if c.skipped is None]
    if not checkable:
        raise InputError(f"no table of this sweep can be dealt: {columns[0].skipped}",
                         hint="use more suits or ranks, fewer players, or smaller hands")
    limits = {"max_states": flags.max_states, "timeout": flags.timeout,
              "max_memory": flags.max_memory}
    limits_text = _limits_shown(flags.max_states, flags.timeout, flags.max_memory)
    with Outputs(flags.force) as out:
        # every output path is checked before the work starts
        Outputs().folder(flags.cache_dir, "--cache")
        names = [scenario_name(base.name, c.table, p) for c in checkable
                 for p in (wanted or property_ids())]
        saves = (out.folder(flags.scenario_dir, "--save-scenarios", names=names)
                 if flags.scenario_dir is not None else None)
        jf = out.file(flags.json_file, "--json") if flags.json_file is not None else None
        cf = out.file(flags.csv_file, "--csv") if flags.csv_file is not None else None
        hf = out.file(flags.html_file, "--html") if flags.html_file is not None else None
        cache = Cache(flags.cache_dir)
        todo = _todo(variant, base, checkable, wanted, limits, max_memory, saves, cache)
        stopped = (run_jobs_on_ray(todo, flags.ray_address, cache)
                   if flags.ray_address is not None else run_jobs(todo, jobs, cache))
        props = [p for p in property_ids() if not wanted or p in wanted]
        summary = _summary(columns, props, limits, limits_text)
        saved, notes = _save_scenarios(saves, columns) if saves is not None else (None, [])
        if jf is not None:
            jf.write(_json_text(json_report(base, columns, props, summary, saved)))
        if cf is not None:
            cf.write(csv_text(columns, props))
        if hf is not None:
            hf.write(html_report(base, columns, saves, hf))
        out.commit()
    click.echo(text_matrix(base, columns, props, summary)
               + _outcome_text(flags, saves, saved, notes, stopped, summary))
    counts = summary["cells"]
    sys.exit(1 if counts[Verdict.VIOLATED] else 3 if counts[Verdict.UNKNOWN] else 0)


def _todo(variant, base, checkable, wanted, limits, max_memory, saves, cache) -> list:
    """The jobs to run: each table not found in the cache (with its scenarios,
    when they are asked for), as (column, job)."""
    scen_for = None
    if saves is not None:
        shipped = variant_ref(base, saves.folder) == base.name
        scen_for = "*" if shipped else str(Path(saves.folder).resolve())
    todo = []
    for c in checkable:
        c.key = job_key(c.variant, wanted, limits)
        entry = cache.get(c.key)
        if entry is not None and (scen_for is None or (
                "scenarios" in entry and entry["scenarios"]["for"] in ("*", scen_for))):
            c.result, c.cached = entry, True
            continue
        todo.append((c, {"key": c.key, "variant": variant, "table": c.table,
                         "properties": wanted or None, "max_states": limits["max_states"],
                         "timeout": limits["timeout"], "memory": max_memory,
                         "memory_given": limits["max_memory"] is not None,
                         "scenarios": str(saves.folder) if saves is not None else None,
                         "scenarios_for": scen_for}))
    return todo


def _outcome_text(flags: SweepFlags, saves, saved, notes, stopped, summary) -> str:
    """What the sweep says after its matrix: the scenarios saved, the files
    written, and whether a stop left jobs to run again."""
    text = ""
    if saved is not None:
        text += (f"\n\n{len(saved)} scenario file(s) saved in {saves.path}" if saved
                 else "\n\nno violation saved: no scenario file written")
        if notes:
            text += "\n" + "\n".join(f"  {n}" for n in notes)
    written = [f for f in (flags.json_file, flags.csv_file, flags.html_file) if f is not None]
    if written:
        text += "\n\nwritten: " + ", ".join(written)
    if stopped is not None:
        text += (f"\n\nSTOPPED ({stopped}): {summary['not_run']} job(s) not finished; "
                 "run the same command again to finish them (finished jobs are cached)")
    return text


def _limits_shown(max_states, timeout, max_memory) -> str:
    """The limits every job ran with, as the matrix's header says them
    (``max_memory`` None: the default share of the memory that was free)."""
    shown = []
    if max_states is not None:
        shown.append(f"--max-states {max_states:,}")
    if timeout is not None:
        shown.append(f"--timeout {timeout:g}")
    shown.append(f"--max-memory {show_size(max_memory)}" if max_memory is not None else
                 f"memory: the jobs running at once share {MEMORY_SHARE:.0%} of what was free")
    return ", ".join(shown)


def _summary(columns, props, limits, limits_text) -> dict:
    """How many tables were checked, run, cached, skipped or not run, and the cells
    per verdict."""
    counts: dict[str, int] = {k: 0 for k in (*Verdict, SKIPPED)}
    for c in columns:
        for x in c.cells(props).values():
            counts[x.verdict] += 1
    return {"tables": len(columns), "checked": sum(c.result is not None for c in columns),
            "run": sum(c.result is not None and not c.cached for c in columns),
            "cached": sum(c.cached for c in columns),
            "skipped": sum(c.skipped is not None for c in columns),
            "not_run": sum(c.skipped is None and c.result is None for c in columns),
            "cells": counts, "limits": limits, "limits_text": limits_text}


def _save_scenarios(saves, columns) -> tuple[list, list[str]]:
    """Write every job's violation scenarios into ``saves``: (paths, notes)."""
    saved, notes = [], []
    for c in columns:
        sc = (c.result or {}).get("scenarios")
        if sc is None:
            continue
        for name, text in sc["files"].items():
            saved.append(saves.write(name, text))
        if sc.get("note"):
            notes.append(f"{c.label}: {sc['note']}")
    return saved, notes


def _json_text(obj) -> str:
    return json.dumps(obj, indent=2) + "\n"


def html_report(base, columns, saves, hf) -> str:
    """The matrix page (report/sweep.py).  A violation saved as a scenario links
    to its file; any other is drawn as a stepper, which needs the table's game:
    it is compiled again here (about a second a table)."""
    cols = []
    for c in columns:
        if c.skipped is not None or c.result is None or not c.result["verdicts"]:
            why = (f"skipped: {c.skipped}" if c.skipped is not None
                   else f"not checked: {c.not_run or c.result['stats'].get('limit')}")
            cols.append(SweepColumn(c.label, None, [], why,
                                    config=c.variant.config if c.variant is not None else None))
            continue
        vs = c.results()
        links = {}
        if saves is not None:
            files = (c.result.get("scenarios") or {}).get("files", {})
            for x in vs:
                name = scenario_name(base.name, c.table, x.id)
                if name in files:
                    links[x.id] = os.path.relpath(saves.final(name), Path(hf.path).parent)
        # a trace whose engine states were not kept is shown as its cell alone
        drawn = [x for x in vs if x.verdict is Verdict.VIOLATED and x.id not in links
                 and drawable(x)]
        game = Game.from_variant(c.variant) if drawn else None
        st = c.result["stats"]
        note = (f"{st['states']:,} states, {st['seconds']:.1f} s" if "states" in st else "")
        cols.append(SweepColumn(c.label, game, vs, note + (" (cached)" if c.cached else ""),
                                links, c.variant.config))
    return sweep_page(cols, f"itcp-check sweep: variant {base.name}")


__all__ = ["sweep", "int_range", "rank_list", "option_subsets", "copies_of"]
