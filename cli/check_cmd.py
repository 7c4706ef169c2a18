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
import time

import click
from tqdm import tqdm

from itcp.checks.explicit.explore import Limits
from itcp.checks.explicit.graph import ExploredGraph
from itcp.checks.explicit.partitioned import search
from itcp.checks.explicit.verdicts import search_verdicts, verdicts
from itcp.checks.results import (
    Bounded,
    Coverage,
    Engine,
    PropertyResult,
    Report,
    SearchStats,
    Verdict,
    exit_code,
)
from itcp.model.engine.engine import Game
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
    config_options,
    emit_json,
    force_option,
    load_with,
    memory_option,
    ray_cluster,
    variant_argument,
)
from .limits import SEARCH_SHARE, Budget, in_use, memory_option_value, show_size
from .output import FileOut, Outputs


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


def _itf_files(variant: str, game, vs) -> dict[str, str]:
    """Each violation's trace as <variant>-<property>.itf.json."""
    return {verdict_file_name(variant, x.id, ".itf.json"): json.dumps(itf(game, x.trace), indent=1)
            for x in vs if x.trace is not None}


def _symbolic_verdicts(*args, **kwargs):
    """``symbolic_verdicts``, imported when first asked for: Z3 costs a tenth of a
    second to import, and an explicit check never needs it."""
    from itcp.checks.symbolic.checker import symbolic_verdicts  # lazy (tests/test_layers.py LAZY)

    return symbolic_verdicts(*args, **kwargs)


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
def check(variant, config_flags, engine, properties, max_states, depth, timeout, max_memory,
          emit_smt2, no_symmetry, workers, ray_address, checkpoint_dir, checkpoint_every, resume_dir,
          as_json, itf_dir, graph_file, scenario_dir, html_file, force):
    known = property_ids()
    for p in properties:
        if p not in known:
            best = nearest(p, known)
            raise InputError(f"--property: unknown property {p!r}; {valid_names(known)}",
                             hint=f"did you mean {best!r}?" if best else None)
    if graph_file is not None and engine == "symbolic":
        raise InputError("--graph exports the explicit search's graph",
                         hint="use --engine explicit or all with --graph")
    if graph_file is not None:
        if max_states is not None and max_states > GRAPH_LIMIT:
            raise InputError(f"--graph exports at most {GRAPH_LIMIT:,} states, and "
                             f"--max-states {max_states:,} is more",
                             hint=f"use --max-states {GRAPH_LIMIT} or less with --graph")
        max_states = max_states or GRAPH_LIMIT
    explicit_only = [o for o, given in (("--workers", workers), ("--ray", ray_address),
                                        ("--checkpoint", checkpoint_dir),
                                        ("--resume", resume_dir)) if given]
    if engine == "symbolic" and explicit_only:
        raise InputError(f"{', '.join(explicit_only)}: options of the explicit search",
                         hint="use --engine explicit or all with them")
    v = _load(variant, config_flags)
    # the cluster is joined once every input is known good
    transport = ray_cluster(ray_address).transport() if ray_address is not None else None
    if transport is not None and workers is None:
        workers = transport.cpus
    workers = workers or 1
    identity = search_identity(v, not no_symmetry)
    resume = read_checkpoint(resume_dir, identity) if resume_dir is not None else None
    ckpt = None
    if checkpoint_dir is not None or resume_dir is not None:
        target = checkpoint_dir if checkpoint_dir is not None else resume_dir
        same = resume_dir is not None and (checkpoint_dir is None or
                                           os.path.realpath(checkpoint_dir)
                                           == os.path.realpath(resume_dir))
        ckpt = Checkpoints(target, identity, checkpoint_every, force=force and not same,
                           resuming=same, option="--checkpoint" if checkpoint_dir else "--resume")
    budget = Budget(timeout, memory_option_value(max_memory))
    wanted = list(properties) or list(known)
    with Outputs(force) as out:
        # every output path is checked before the work starts
        itf = out.folder(itf_dir, "--itf", names=[verdict_file_name(v.name, p, ".itf.json")
                                                  for p in wanted]) \
            if itf_dir is not None else None
        graph = out.file(graph_file, "--graph") if graph_file is not None else None
        saves = out.folder(scenario_dir, "--save-scenarios",
                           names=[verdict_file_name(v.name, p) for p in wanted]) \
            if scenario_dir is not None else None
        smt = out.folder(emit_smt2, "--emit-smt2", patterns=["*.smt2"]) \
            if emit_smt2 is not None else None
        html = out.file(html_file, "--html") if html_file is not None else None
        with budget:
            if engine == "symbolic":
                return _check_symbolic(v, properties, depth, budget, smt, as_json, itf, saves,
                                       html, out)
            return _check_explicit(v, engine, properties, max_states, depth, budget, smt,
                                   no_symmetry, workers, as_json, itf, graph, saves, html, out,
                                   ckpt, resume, transport)


def _game(v, budget):
    """The compiled game, or None when a stop came first (the compile may be cut
    short: it can take seconds at a big table, and --timeout counts it)."""
    return _interruptible(budget, Game.from_variant, v)


def _interruptible(budget, fn, *args, **kwargs):
    """``fn(...)`` where a stop may cut it short: its value, or None when a stop
    reached it (its own handling, if any, having been bypassed)."""
    try:
        with budget.interruptible():
            return fn(*args, **kwargs)
    except KeyboardInterrupt:
        budget.reason = budget.reason or "interrupted (Ctrl-C)"
        return None


def _not_started(v, properties, budget, as_json, engine):
    """The report when a stop came before the search began: every property UNKNOWN."""
    reason = budget.reason
    vs = tuple(PropertyResult(p, Verdict.UNKNOWN, engine, "", Bounded(
        reason, note=f"stopped by {reason} before the search began"))
        for p in (list(properties) or property_ids()))
    report = Report(v, Engine(engine), vs, stopped_by=reason)
    if as_json:
        emit_json(report.as_json())
    else:
        click.echo(check_text(report))
    sys.exit(exit_code(vs))


def explicit_check(v, wanted, max_states, depth, budget, symmetry=True, progress=None,
                   searched=None, workers=1, part_progress=None, checkpoints=None, resume=None,
                   transport=None):
    """The explicit-state check of variant ``v`` inside ``budget`` (``check``'s and
    ``sweep``'s): the game compiled, every state searched within the limits, then a
    verdict per property (those ``wanted``, else all), each limit named as the user
    set it.  ``progress`` is the search's callback; ``searched()`` is called when the
    search ends.  Returns (game, exploration, verdicts); the last two are None when
    a stop came before the search began (and the game too, before it was compiled)."""
    game = _game(v, budget)
    if game is None:
        return None, None, None
    on_level = None
    if checkpoints is not None:
        def on_level(ex, level):
            now = time.monotonic()
            if checkpoints.due(now):
                checkpoints.write(ex, level(), now)
    spread = {} if transport is None else {"transport": transport, "warm": 0}
    ex = _interruptible(budget, search, game, Limits(max_states, depth, budget.search_timeout()),
                        workers=workers, symmetry=symmetry, progress=progress,
                        part_progress=part_progress, resume=resume, on_level=on_level, **spread)
    if searched is not None:
        searched()
    if ex is None:
        return game, None, None
    if checkpoints is not None and not ex.complete and ex.level is not None:
        # stopped (a signal, a limit): the top of the level it was in, for --resume
        checkpoints.write(ex, ex.level, time.monotonic())
    ex.limit = budget.limit_text(ex.limit)
    vs = _interruptible(budget, verdicts, ex, wanted, stopped=lambda: budget.reason)
    if vs is None:  # stopped as the analysis began or ended
        vs = search_verdicts(ex, wanted, budget.reason)
    return game, ex, vs


def _timeout_name(budget) -> str | None:
    """The time limit as the user set it (``--timeout S``), for the results to name."""
    return None if budget.timeout is None else f"--timeout {budget.timeout:g}"


def _check_explicit(v, engine, properties, max_states, depth, budget, smt, no_symmetry,
                    workers, as_json, itf_out, graph, saves, html, out, checkpoints=None,
                    resume=None, transport=None):
    update, bar, parts = _progress()
    wanted = list(properties) or None
    game, ex, vs = explicit_check(v, wanted, max_states, depth, budget, not no_symmetry,
                                  update, bar.close if bar is not None else None, workers,
                                  parts if workers > 1 else None, checkpoints, resume,
                                  transport)
    if ex is None:
        if bar is not None:
            bar.close()
        return _not_started(v, properties, budget, as_json, engine)
    sym_stats, svs = None, []
    if engine == "all":
        got = _interruptible(budget, _symbolic_verdicts, game, wanted, depth,
                             budget.search_timeout(), smt, stopped=lambda: budget.reason,
                             timeout_name=_timeout_name(budget))
        if got is not None:
            svs, sym_stats = got
            vs = merge(vs, svs)
    search = SearchStats(ex.states, ex.transitions, ex.terminal, len(ex.deadlocks), ex.depth,
                         ex.seconds, ex.initial, ex.symmetry, ex.permutations,
                         ex.unreduced_states, ex.complete, ex.limit)
    rules_all = sorted({r.id for r in game.spec.rules if r.fragments})
    coverage = Coverage(tuple(sorted(ex.fired)),
                        tuple(r for r in rules_all if r not in ex.fired), ex.coverage_sampled)
    report = Report(v, Engine(engine), tuple(vs), game, search, coverage, sym_stats,
                    tuple(svs), budget.reason, ExploredGraph(ex))
    return _finish(report, budget, smt, as_json, itf_out, graph, saves, html, out)


def _finish(report: Report, budget, smt, as_json, itf_out, graph, saves, html, out):
    """Write the files asked for, print the report, exit with its code."""
    v, game, vs = report.variant, report.game, report.results
    saved, not_saved = _scenario_texts(saves, v, game, vs, budget)
    if itf_out is not None:
        for name, text in _itf_files(v.name, game, vs).items():
            itf_out.write(name, text)
    if graph is not None:
        _write_graph(report.graph, graph)
    paths = [saves.write(n, t) for n, t in saved.items()] if saved is not None else None
    written = _write_html(html, budget, lambda: check_page(report))
    out.commit()
    if as_json:
        emit_json(report.as_json() | _saved_json(paths, not_saved) | written)
    else:
        click.echo(check_text(report, smt.path if smt is not None else None)
                   + saved_text(paths, not_saved) + html_text(written))
    sys.exit(exit_code(vs))


def _write_html(html, budget, page) -> dict:
    """The report page ``page()``, if asked for, into its staged file (a stop while
    it is drawn leaves it out); what to say of it in JSON."""
    if html is None:
        return {}
    text = _interruptible(budget, page)
    if text is None:
        return {"html_note": f"not written: stopped by {budget.reason}"}
    html.write(text)
    return {"html": str(html.path)}


def _scenario_texts(saves, v, game, vs, budget):
    """(file name -> text of each violation's scenario, or None; why none were
    saved, or None).  Built and replayed before anything is written; a stop
    while they are built saves none (and says so)."""
    if saves is None:
        return None, None
    if budget.reason is not None:
        return None, f"not saved: stopped by {budget.reason}"
    texts = _interruptible(budget, lambda: checked_texts(
        saves.folder, verdict_scenarios(saves.folder, v, game, vs)))
    if texts is None:
        return None, f"not saved: stopped by {budget.reason}"
    return texts, None


def _saved_json(saved, not_saved=None) -> dict:
    if not_saved is not None:
        return {"scenarios": [], "scenarios_note": not_saved}
    return {} if saved is None else {"scenarios": [str(p) for p in saved]}


def merge(explicit: list, symbolic: list) -> list:
    """One result per property: a violation from either engine wins, then a proof
    from either (a replayed trace or an exhaustion/induction), else UNKNOWN."""
    by_id = {x.id: x for x in symbolic}
    out = []
    for x in explicit:
        y = by_id.get(x.id)
        if y is None:
            out.append(x)
            continue
        best = x
        for verdict in (Verdict.VIOLATED, Verdict.HOLDS):
            hit = [z for z in (x, y) if z.verdict is verdict]
            if hit:
                best = hit[0]
                break
        out.append(best.beside(y if best is x else x))
    return out


def _check_symbolic(v, properties, depth, budget, smt, as_json, itf_out, saves, html, out):
    game = _game(v, budget)
    if game is None:
        return _not_started(v, properties, budget, as_json, "symbolic")
    progress = None
    if sys.stderr.isatty() and not as_json:
        progress = lambda msg: click.echo(f"\r  {msg:<70}", err=True, nl=False)
    got = _interruptible(budget, _symbolic_verdicts, game, list(properties) or None, depth,
                         budget.search_timeout(), smt, progress, stopped=lambda: budget.reason,
                         timeout_name=_timeout_name(budget))
    if progress is not None:
        click.echo("\r" + " " * 74 + "\r", err=True, nl=False)
    if got is None:
        return _not_started(v, properties, budget, as_json, "symbolic")
    vs, st = got
    report = Report(v, Engine.SYMBOLIC, tuple(vs), game, symbolic=st, stopped_by=budget.reason)
    return _finish(report, budget, smt, as_json, itf_out, None, saves, html, out)


check.uses_budget = True  # a signal while the program starts: a report, all UNKNOWN
