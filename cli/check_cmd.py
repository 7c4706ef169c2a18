"""``itcp-check check``: every property's verdict for a variant at a small table.

The explicit engine explores every state reachable from every deal (with
suit/copy symmetry reduction unless ``--no-symmetry``) and reports HOLDS only
when the search was exhausted, VIOLATED with the shortest trace told as a
story, or UNKNOWN naming the limit that stopped it.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, replace

import click
from tqdm import tqdm

from itcp.checks.results import Engine, Report, exit_code
from itcp.checks.run import Check, Limits
from itcp.report.html import check_page
from itcp.report.text import check_text, html_text, saved_text
from itcp.scenarios.save import checked_texts, verdict_file_name, verdict_scenarios
from itcp.scenarios.story import itf
from itcp.spec.config import Config
from itcp.spec.errors import InputError, nearest, valid_names
from itcp.spec.properties import property_ids
from itcp.spec.variants import DEFAULT_TABLE, overrides

from .checkpoint import Checkpoints, read_checkpoint, search_identity
from .common import (
    COUNT,
    NATURAL,
    SECONDS,
    VARIANT_HELP,
    WORKERS,
    Command,
    collected,
    config_options,
    emit_json,
    force_option,
    load_with,
    memory_option,
    ray_cluster,
    variant_argument,
)
from .limits import SEARCH_SHARE, Budget, in_use, memory_option_value, show_size
from .output import FileOut, FolderOut, Outputs


def start_table(flags: dict) -> dict:
    """The table a check starts from: the small default, or with --full-deck the
    variant's own table (the real deal: its players and hand size) with the full deck.
    Explicit flags apply on top of either."""
    table = {} if flags.get("full_deck") else dict(DEFAULT_TABLE)
    table.update(overrides(flags))
    return table


def _load(variant: str, flags: dict):
    return load_with(variant, start_table(flags))


def _progress():
    """On a terminal: a progress line (states, states/s, depth, memory), and for a
    partitioned search each part's states, frontier and memory."""
    if not sys.stderr.isatty():
        return None, None, None
    bar = tqdm(unit=" states", file=sys.stderr, dynamic_ncols=True, leave=False)
    shown = {"parts": ""}

    def update(states, depth, seconds):
        bar.n = states
        bar.set_postfix_str(f"depth {depth}, {show_size(in_use())}" + shown["parts"])
        bar.refresh()

    def parts(figures):
        shown["parts"] = "".join(f"; part {i}: {p.states:,} states, frontier {p.frontier:,}, "
                                 f"{show_size(p.rss)}" for i, p in enumerate(figures))
    return update, bar, parts


#: the most states ``--graph`` exports (with --graph the search stops there)
GRAPH_LIMIT = 200_000


def _write_graph(graph, out: FileOut):
    import networkx as nx  # lazy: only --graph needs it (tests/test_layers.py LAZY)

    g = nx.DiGraph()
    for i in range(graph.states):
        g.add_node(i, depth=graph.depth(i))
        if graph.parent(i) >= 0:
            g.add_edge(graph.parent(i), i)
    for u, v in graph.post_pass_edges():
        g.add_edge(u, v, post_pass=True)
    if out.path.suffix in (".dot", ".gv"):
        lines = ["digraph itcp {"] + [f"  {u} -> {v};" for u, v in g.edges] + ["}"]
        out.write("\n".join(lines) + "\n")
    else:
        nx.write_graphml(g, str(out.staging_path()))


@dataclass(frozen=True)
class CheckFlags:
    """The check command's flags, besides the variant and its table (one field per
    option, named as the option's parameter)."""
    engine: str
    properties: tuple
    max_states: int | None
    depth: int | None
    timeout: float | None
    max_memory: int | None
    emit_smt2: str | None
    no_symmetry: bool
    workers: int | None
    ray_address: str | None
    checkpoint_dir: str | None
    checkpoint_every: float
    resume_dir: str | None
    as_json: bool
    itf_dir: str | None
    graph_file: str | None
    scenario_dir: str | None
    html_file: str | None
    force: bool

    def checked(self) -> CheckFlags:
        """The flags, checked together (exit 2 naming the flag); with ``--graph`` the
        search stops at ``GRAPH_LIMIT`` states."""
        known = property_ids()
        for p in self.properties:
            if p not in known:
                best = nearest(p, known)
                raise InputError(f"--property: unknown property {p!r}; {valid_names(known)}",
                                 hint=f"did you mean {best!r}?" if best else None)
        if self.graph_file is not None and self.engine == "symbolic":
            raise InputError("--graph exports the explicit search's graph",
                             hint="use --engine explicit or all with --graph")
        flags = self
        if self.graph_file is not None:
            if self.max_states is not None and self.max_states > GRAPH_LIMIT:
                raise InputError(f"--graph exports at most {GRAPH_LIMIT:,} states, and "
                                 f"--max-states {self.max_states:,} is more",
                                 hint=f"use --max-states {GRAPH_LIMIT} or less with --graph")
            flags = replace(self, max_states=self.max_states or GRAPH_LIMIT)
        explicit_only = [o for o, given in (("--workers", self.workers),
                                            ("--ray", self.ray_address),
                                            ("--checkpoint", self.checkpoint_dir),
                                            ("--resume", self.resume_dir)) if given]
        if self.engine == "symbolic" and explicit_only:
            raise InputError(f"{', '.join(explicit_only)}: options of the explicit search",
                             hint="use --engine explicit or all with them")
        return flags


@click.command("check", cls=Command, help=(
    "Check every property of a variant and report a verdict for each.\n\n" + VARIANT_HELP
    + " Without table flags the default small table is used ("
    + Config(**DEFAULT_TABLE).describe() + "). Exit codes: 0 all hold, 1 a property is "
      "violated, 2 bad input, 3 unknown (a limit was hit, or a signal stopped it)."))
@variant_argument
@config_options
@click.option("--engine", type=click.Choice(["explicit", "symbolic", "all"]), default="explicit",
              show_default=True,
              help="Which engine decides the verdicts: explicit-state search, Z3 (BMC and "
                   "k-induction), or both (a violation from either wins; a proof from either holds).")
@click.option("--property", "properties", multiple=True, metavar="ID",
              help="Check only this property (repeatable).")
@click.option("--max-states", type=COUNT, default=None,
              help="Stop after this many distinct states (verdicts then UNKNOWN).")
@click.option("--depth", type=NATURAL, default=None,
              help="Stop at this many moves after the deal.")
@click.option("--timeout", type=SECONDS, default=None,
              help="Stop the whole command after this many seconds: the search takes at most "
                   f"{SEARCH_SHARE:.0%} of it, the analysis after it the rest; what is not "
                   "decided then is UNKNOWN.")
@memory_option
@click.option("--emit-smt2", "emit_smt2", default=None, metavar="DIR",
              help="Write each Z3 query as a self-contained SMT-LIB2 file to this folder.")
@click.option("--no-symmetry", is_flag=True, help="Explore without suit/copy symmetry reduction.")
@click.option("--workers", type=WORKERS, default=None,
              help="Spread the explicit search over this many processes, each owning a share "
                   "of the states (the same states, verdicts and traces as one process). "
                   "Default 1 (with --ray: one per CPU of the cluster).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Run the partitioned search's parts as actors on the Ray cluster at ADDRESS "
                   "(\"local\": one started in this process); needs the 'cluster' extra. "
                   "--workers parts (default: one per CPU of the cluster, at least 2).")
@click.option("--checkpoint", "checkpoint_dir", default=None, metavar="DIR",
              help="Write the explicit search's state to this folder every --checkpoint-every "
                   "seconds and when a stop ends it, so --resume can go on from there.")
@click.option("--checkpoint-every", type=SECONDS, default=300.0, show_default=True,
              help="Seconds between two checkpoints.")
@click.option("--resume", "resume_dir", default=None, metavar="DIR",
              help="Go on from the checkpoint in this folder (the same variant, table and "
                   "flags as the run that wrote it); checkpoints go on into it.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--itf", "itf_dir", default=None, metavar="DIR",
              help="Write each violation's trace in the Informal Trace Format to this folder.")
@click.option("--graph", "graph_file", default=None, metavar="FILE",
              help="Export the explored graph (GraphML, or DOT for .dot) for small runs "
                   f"(the search then stops at {GRAPH_LIMIT:,} states).")
@click.option("--save-scenarios", "scenario_dir", default=None, metavar="DIR",
              help="Save each violation's trace as a scenario file (<variant>-<PROPERTY>.toml) "
                   "in this folder; each replays to the same verdict (itcp-check replay).")
@click.option("--html", "html_file", metavar="FILE", default=None,
              help="Write the report as one self-contained HTML page: readings, verdicts, "
                   "each violation as a stepper, what each proof rests on, rule coverage "
                   "(and the state graph of a small run).")
@force_option
@collected("flags", CheckFlags)
def check(variant, config_flags, flags: CheckFlags):
    flags = flags.checked()
    v = _load(variant, config_flags)
    # the cluster is joined once every input is known good
    transport = (ray_cluster(flags.ray_address).transport() if flags.ray_address is not None
                 else None)
    workers = flags.workers or (transport.cpus if transport is not None else 1)
    ckpt, resume = _checkpoints(flags, v)
    budget = Budget(flags.timeout, memory_option_value(flags.max_memory))
    with Outputs(flags.force) as out:
        files = _files(out, flags, v)   # every output path is checked before the work starts
        with budget:
            report = _run(Check(
                v, flags.properties, Engine(flags.engine),
                Limits(flags.max_states, flags.depth, budget.search_timeout(),
                       budget.timeout_name()),
                not flags.no_symmetry, workers, transport, ckpt, resume, emit=files.smt,
                stops=budget), flags.as_json)
            return _finish(report, budget, files, flags.as_json)


def _checkpoints(flags: CheckFlags, v):
    """(where checkpoints go, the search to go on from): each None unless asked for."""
    identity = search_identity(v, not flags.no_symmetry)
    resume = read_checkpoint(flags.resume_dir, identity) if flags.resume_dir is not None else None
    if flags.checkpoint_dir is None and flags.resume_dir is None:
        return None, resume
    target = flags.checkpoint_dir if flags.checkpoint_dir is not None else flags.resume_dir
    same = flags.resume_dir is not None and (
        flags.checkpoint_dir is None
        or os.path.realpath(flags.checkpoint_dir) == os.path.realpath(flags.resume_dir))
    return Checkpoints(target, identity, flags.checkpoint_every, force=flags.force and not same,
                       resuming=same,
                       option="--checkpoint" if flags.checkpoint_dir else "--resume"), resume


def _files(out: Outputs, flags: CheckFlags, v) -> Files:
    """The files asked for, each path checked now."""
    wanted = list(flags.properties) or list(property_ids())
    return Files(
        out,
        out.folder(flags.itf_dir, "--itf", names=[verdict_file_name(v.name, p, ".itf.json")
                                                  for p in wanted])
        if flags.itf_dir is not None else None,
        out.file(flags.graph_file, "--graph") if flags.graph_file is not None else None,
        out.folder(flags.scenario_dir, "--save-scenarios",
                   names=[verdict_file_name(v.name, p) for p in wanted])
        if flags.scenario_dir is not None else None,
        out.folder(flags.emit_smt2, "--emit-smt2", patterns=["*.smt2"])
        if flags.emit_smt2 is not None else None,
        out.file(flags.html_file, "--html") if flags.html_file is not None else None)


def _run(check: Check, as_json: bool) -> Report:
    """The check, with its progress shown on a terminal."""
    if check.engine is Engine.SYMBOLIC:
        if not sys.stderr.isatty() or as_json:
            return check.run()
        report = replace(check, symbolic_progress=lambda msg: click.echo(
            f"\r  {msg:<70}", err=True, nl=False)).run()
        click.echo("\r" + " " * 74 + "\r", err=True, nl=False)
        return report
    update, bar, parts = _progress()
    report = replace(check, progress=update, part_progress=parts,
                     searched=bar.close if bar is not None else None).run()
    if bar is not None and not report.started:
        bar.close()
    return report


@dataclass(frozen=True)
class Files:
    """The files a check writes (each checked before the work starts), all
    committed together by ``out``."""
    out: Outputs
    itf: FolderOut | None = None
    graph: FileOut | None = None
    saves: FolderOut | None = None
    smt: FolderOut | None = None
    html: FileOut | None = None


def _finish(report: Report, budget: Budget, files: Files, as_json: bool):
    """Write the files asked for, print the report, exit with its code."""
    if report.started:
        saved, not_saved = _scenario_texts(files.saves, report, budget)
        # a stop while the scenarios were built stopped the command too
        report = replace(report, stopped_by=budget.reason or report.stopped_by)
        game = report.game
        assert game is not None   # a search began: the game was compiled
        if files.itf is not None:
            for x in report.results:
                if x.trace is not None:
                    files.itf.write(verdict_file_name(report.variant.name, x.id, ".itf.json"),
                                    json.dumps(itf(game, x.trace), indent=1))
        if files.graph is not None:
            _write_graph(report.graph, files.graph)
        paths = ([files.saves.write(n, t) for n, t in saved.items()]
                 if saved is not None and files.saves is not None else None)
        written = _write_html(files.html, budget, report)
        files.out.commit()
    else:   # a stop before the search began: nothing is written
        paths, not_saved, written = None, None, {}
    if as_json:
        extra = _saved_json(paths, not_saved) | written if report.started else {}
        emit_json(report.as_json() | extra)
    else:
        smt = files.smt.path if files.smt is not None else None
        click.echo(check_text(report, smt) + saved_text(paths, not_saved) + html_text(written))
    sys.exit(exit_code(report.results))


def _interruptible(budget: Budget, fn):
    """``fn()``, or None when a stop cut it short."""
    try:
        with budget.interruptible():
            return fn()
    except KeyboardInterrupt:
        budget.reason = budget.reason or "interrupted (Ctrl-C)"
        return None


def _write_html(html, budget: Budget, report: Report) -> dict:
    """The report page, if asked for, into its staged file (a stop while it is
    drawn leaves it out); what to say of it in JSON."""
    if html is None:
        return {}
    text = _interruptible(budget, lambda: check_page(report))
    if text is None:
        return {"html_note": f"not written: stopped by {budget.reason}"}
    html.write(text)
    return {"html": str(html.path)}


def _scenario_texts(saves, report: Report, budget: Budget):
    """(file name -> text of each violation's scenario, or None; why none were
    saved, or None).  Built and replayed before anything is written; a stop
    while they are built saves none (and says so)."""
    if saves is None:
        return None, None
    reason = budget.reason or report.stopped_by
    if reason is not None:
        return None, f"not saved: stopped by {reason}"
    texts = _interruptible(budget, lambda: checked_texts(
        saves.folder, verdict_scenarios(saves.folder, report.variant, report.game,
                                        report.results)))
    if texts is None:
        return None, f"not saved: stopped by {budget.reason}"
    return texts, None


def _saved_json(saved, not_saved=None) -> dict:
    if not_saved is not None:
        return {"scenarios": [], "scenarios_note": not_saved}
    return {} if saved is None else {"scenarios": [str(p) for p in saved]}


check.uses_budget = True  # a signal while the program starts: a report, all UNKNOWN
