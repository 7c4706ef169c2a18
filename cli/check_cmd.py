"""``itcp-check check``: every property's verdict for a variant at a small table.

The explicit engine explores every state reachable from every deal (with
suit/copy symmetry reduction unless ``--no-symmetry``) and reports HOLDS only
when the search was exhausted, VIOLATED with the shortest trace told as a
story, or UNKNOWN naming the limit that stopped it.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from itcp.checks.explore import Limits, explore
from itcp.checks.verdicts import HOLDS, VIOLATED, exit_code, verdicts
from itcp.model.engine import Game
from itcp.spec.config import Config
from itcp.report.html import check_page
from itcp.spec.errors import InputError, nearest, valid_names

from .outputs import check_file, write_file
from .common import (VARIANT_HELP, Command, config_options, emit_json, load_with, overrides,
                     variant_argument)

#: The table ``itcp-check`` checks by default: small enough to exhaust in well
#: under a minute, large enough to show the official text's contradictions
#: (a passer's hand changed by Pride Cycle; a turn with no legal discard).
DEFAULT_TABLE = {"players": 2, "suits": 2, "ranks": (2, 2), "hand": 1,
                 "options": (("unbelief", 1), ("pride_cycle", 1))}

PROPERTY_IDS = ("FROZEN", "NO_DEADLOCK", "ROUND_ENDS", "CONSERVATION", "DETERMINED",
                "TURN_DEFINED", "ZERO_STOPS", "HAND_BOUNDS", "SCORE_DEFINED")


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
    if not sys.stderr.isatty():
        return None, None
    from tqdm import tqdm
    bar = tqdm(unit=" states", file=sys.stderr, dynamic_ncols=True, leave=False)

    def update(states, depth, seconds):
        bar.n = states
        bar.set_postfix_str(f"depth {depth}")
        bar.refresh()
    return update, bar


def _write_itf(folder: str, variant: str, vs) -> None:
    """Each violation's trace as <variant>-<property>.itf.json in ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for x in vs:
        if x.trace is not None:
            (out / f"{variant}-{x.id}.itf.json").write_text(json.dumps(x.trace["itf"], indent=1))


def _write_graph(ex, path: str):
    import networkx as nx
    g = nx.DiGraph()
    if ex.states > 200_000:
        raise InputError(f"--graph: {ex.states:,} states are too many to export "
                         "(limit 200,000); use a smaller table or --max-states")
    for i in range(ex.states):
        g.add_node(i, depth=int(ex.depth_of[i]))
        if ex.parent[i] >= 0:
            g.add_edge(int(ex.parent[i]), i)
    for u, v in ex.post_pass_edges:
        g.add_edge(u, v, post_pass=True)
    if path.endswith(".dot") or path.endswith(".gv"):
        lines = ["digraph itcp {"] + [f"  {u} -> {v};" for u, v in g.edges] + ["}"]
        Path(path).write_text("\n".join(lines) + "\n")
    else:
        nx.write_graphml(g, path)


@click.command("check", cls=Command, help=(
    "Check every property of a variant and report a verdict for each.\n\n" + VARIANT_HELP
    + " Without table flags the default small table is used ("
    + Config(**DEFAULT_TABLE).describe() + "). Exit codes: 0 all hold, 1 a property is "
      "violated, 2 bad input, 3 unknown (a limit was hit)."))
@variant_argument
@config_options
@click.option("--engine", type=click.Choice(["explicit", "symbolic", "all"]), default="explicit",
              show_default=True,
              help="Which engine decides the verdicts: explicit-state search, Z3 (BMC and "
                   "k-induction), or both (a violation from either wins; a proof from either holds).")
@click.option("--property", "properties", multiple=True, metavar="ID",
              help="Check only this property (repeatable).")
@click.option("--max-states", type=click.IntRange(min=1), default=None,
              help="Stop after this many distinct states (verdicts then UNKNOWN).")
@click.option("--depth", type=click.IntRange(min=0), default=None,
              help="Stop at this many moves after the deal.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Stop after this many seconds.")
@click.option("--emit-smt2", "emit_smt2", type=click.Path(file_okay=False), default=None,
              help="Write each Z3 query as a self-contained SMT-LIB2 file to this folder.")
@click.option("--no-symmetry", is_flag=True, help="Explore without suit/copy symmetry reduction.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--itf", "itf_dir", type=click.Path(file_okay=False), default=None,
              help="Write each violation's trace in the Informal Trace Format to this folder.")
@click.option("--graph", "graph_file", type=click.Path(dir_okay=False), default=None,
              help="Export the explored graph (GraphML, or DOT for .dot) for small runs.")
@click.option("--save-scenarios", "scenario_dir", type=click.Path(file_okay=False), default=None,
              help="Save each violation's trace as a scenario file (<variant>-<PROPERTY>.toml) "
                   "in this folder; each replays to the same verdict (itcp-check replay).")
@click.option("--html", "html_file", metavar="FILE", default=None,
              help="Write the report as one self-contained HTML page: readings, verdicts, "
                   "each violation as a stepper, what each proof rests on, rule coverage "
                   "(and the state graph of a small run).")
@click.option("--force", is_flag=True, help="Overwrite the --html file if it exists.")
def check(variant, config_flags, engine, properties, max_states, depth, timeout, emit_smt2,
          no_symmetry, as_json, itf_dir, graph_file, scenario_dir, html_file, force):
    if html_file is not None:
        check_file(html_file, "--html", force)
    for p in properties:
        if p not in PROPERTY_IDS:
            best = nearest(p, PROPERTY_IDS)
            raise InputError(f"--property: unknown property {p!r}; {valid_names(PROPERTY_IDS)}",
                             hint=f"did you mean {best!r}?" if best else None)
    v = _load(variant, config_flags)
    game = Game.from_variant(v)
    if engine == "symbolic":
        return _check_symbolic(v, game, properties, depth, timeout, emit_smt2, as_json, itf_dir,
                               scenario_dir, html_file, force)
    update, bar = _progress()
    ex = explore(game, Limits(max_states, depth, timeout), symmetry=not no_symmetry,
                 progress=update)
    if bar is not None:
        bar.close()
    vs = verdicts(ex, list(properties) or None)
    sym_stats, svs = None, []
    if engine == "all":
        from itcp.checks.symbolic import symbolic_verdicts
        svs, sym_stats = symbolic_verdicts(game, list(properties) or None, depth, timeout,
                                           emit_smt2)
        vs = merge(vs, svs)
    if itf_dir:
        _write_itf(itf_dir, v.name, vs)
    saved = _save_scenarios(scenario_dir, v, game, vs)
    if graph_file:
        _write_graph(ex, graph_file)
    stats = {"states": ex.states, "transitions": ex.transitions, "terminal": ex.terminal,
             "deadlocks": len(ex.deadlocks), "depth": ex.depth, "seconds": round(ex.seconds, 3),
             "initial_states": ex.initial, "symmetry": ex.symmetry,
             "symmetries": ex.permutations, "states_without_symmetry": ex.unreduced_states,
             "complete": ex.complete, "limit": ex.limit}
    if sym_stats is not None:
        stats["symbolic"] = sym_stats.as_json()
    rules_all = sorted({r.id for r in game.spec.rules if r.fragments})
    coverage = {"fired": sorted(ex.fired), "never_fired": [r for r in rules_all
                                                          if r not in ex.fired],
                "sampled": ex.coverage_sampled}
    html = _write_html(html_file, force,
                       lambda: check_page(v, game, vs, stats, coverage, ex, engine, svs))
    if as_json:
        emit_json({"variant": v.name, "config": v.config.as_dict(),
                   "readings": dict(v.explicit), "engine": engine,
                   "properties": [x.as_json() for x in vs], "stats": stats,
                   "coverage": coverage, **_saved_json(saved), **html})
    else:
        click.echo(text_report(v, vs, stats, coverage) + _saved_text(saved) + _html_text(html))
    sys.exit(exit_code(vs))


def _write_html(path, force, page) -> dict:
    """Write the report page ``page()`` (if asked for); what to say of it in JSON."""
    if path is None:
        return {}
    write_file(path, page(), "--html", force)
    return {"html": str(path)}


def _html_text(html: dict) -> str:
    return f"\n\nHTML report written to {html['html']}" if html else ""


def _save_scenarios(folder, v, game, vs):
    if not folder:
        return None
    from itcp.scenarios.save import save_verdict_scenarios
    return save_verdict_scenarios(folder, v, game, vs)


def _saved_json(saved) -> dict:
    return {} if saved is None else {"scenarios": [str(p) for p in saved]}


def _saved_text(saved) -> str:
    if saved is None:
        return ""
    return "\n\n" + (f"{len(saved)} scenario file(s) saved: " + ", ".join(str(p) for p in saved)
                      if saved else "no violation: no scenario saved")


def merge(explicit: list, symbolic: list) -> list:
    """One verdict per property: a violation from either engine wins, then a proof
    from either (a replayed trace or an exhaustion/induction), else UNKNOWN."""
    by_id = {x.id: x for x in symbolic}
    out = []
    for x in explicit:
        y = by_id.get(x.id)
        best = x
        if y is not None:
            for verdict in (VIOLATED, HOLDS):
                hit = [z for z in (x, y) if z.verdict == verdict]
                if hit:
                    best = hit[0]
                    break
        best.evidence = dict(best.evidence)
        if y is not None:
            other = y if best is x else x
            best.evidence["other_engine"] = {"engine": other.engine, "verdict": other.verdict,
                                             "kind": other.evidence.get("kind")}
        out.append(best)
    return out


def _check_symbolic(v, game, properties, depth, timeout, emit_smt2, as_json, itf_dir,
                    scenario_dir=None, html_file=None, force=False):
    from itcp.checks.symbolic import symbolic_verdicts
    progress = None
    if sys.stderr.isatty() and not as_json:
        progress = lambda msg: click.echo(f"\r  {msg:<70}", err=True, nl=False)
    vs, st = symbolic_verdicts(game, list(properties) or None, depth, timeout, emit_smt2,
                               progress)
    if progress is not None:
        click.echo("\r" + " " * 74 + "\r", err=True, nl=False)
    if itf_dir:
        _write_itf(itf_dir, v.name, vs)
    saved = _save_scenarios(scenario_dir, v, game, vs)
    stats = st.as_json()
    html = _write_html(html_file, force,
                       lambda: check_page(v, game, vs, stats, None, None, "symbolic"))
    if as_json:
        emit_json({"variant": v.name, "config": v.config.as_dict(),
                   "readings": dict(v.explicit), "engine": "symbolic",
                   "properties": [x.as_json() for x in vs], "stats": stats,
                   **_saved_json(saved), **html})
    else:
        lines = [f"itcp-check: variant {v.name} at {v.config.describe()}",
                 f"symbolic (Z3): {stats['queries']} queries, {stats['seconds']:.1f} s"
                 + (f", BMC to depth {stats['bmc_depth']}" if stats["bmc_depth"] else ""), ""]
        width = max(len(x.id) for x in vs)
        for x in vs:
            ev = x.evidence
            if x.verdict == HOLDS and ev.get("kind") == "proof":
                note = f"proved for every state; rules: {', '.join(ev['rules'])}"
            elif x.verdict == HOLDS:
                note = (f"{ev['k']}-inductive; rules: {', '.join(ev['rules'])}"
                        + (f"; invariants: {', '.join(ev['invariants'])}" if ev["invariants"]
                           else ""))
            elif x.verdict == VIOLATED:
                note = (f"BMC trace: {ev['length']} move{'s' if ev['length'] != 1 else ''}, "
                        "replayed by the engine")
            else:
                note = ev.get("note", "")
            lines.append(f"  {x.id:<{width}}  {x.verdict:<8}  {note}")
        lines += violation_stories(vs)
        if stats["smt2_files"]:
            lines += ["", f"{stats['smt2_files']} SMT-LIB2 file(s) written to {emit_smt2}"]
        click.echo("\n".join(lines) + _saved_text(saved) + _html_text(html))
    sys.exit(exit_code(vs))


def violation_stories(vs) -> list[str]:
    """Each violated property's statement and its trace told as a story."""
    lines = []
    for x in vs:
        if x.verdict == VIOLATED:
            lines += ["", f"{x.id}: {x.statement}"] + ["  " + s for s in x.trace["story"]]
    return lines


def text_report(v, vs, stats, coverage) -> str:
    lines = [f"itcp-check: variant {v.name} at {v.config.describe()}",
             f"explicit-state search: {stats['states']:,} states, {stats['transitions']:,} "
             f"transitions, depth {stats['depth']}, {stats['seconds']:.1f} s"
             + (f", symmetry reduction on ({stats['symmetries']} symmetries; "
                f"{stats['states_without_symmetry']:,} states without)"
                if stats["symmetry"] and stats["symmetries"] > 1 else ", no symmetry reduction")
             + ("" if stats["complete"] else f"; STOPPED by {stats['limit']}"), ""]
    width = max(len(x.id) for x in vs)
    for x in vs:
        ev = x.evidence
        if x.verdict == HOLDS:
            extra = ""
            if x.id == "HAND_BOUNDS":
                extra = f": hands hold {ev['min_hand']} to {ev['max_hand']} cards"
            note = f"exhaustive over {ev['states']:,} states{extra}"
        elif x.verdict == VIOLATED:
            note = f"shortest trace: {ev['length']} move{'s' * (ev['length'] != 1)}" + (" (a lasso)" if ev.get("lasso") else "")
        else:
            note = ev.get("note", "")
        lines.append(f"  {x.id:<{width}}  {x.verdict:<8}  {note}")
    lines += violation_stories(vs)
    never = coverage["never_fired"]
    sampled = (" (rule firings were sampled once no new rule appeared for a while)"
               if coverage["sampled"] else "")
    lines += ["", f"coverage: {len(coverage['fired'])} rules fired; {len(never)} never fired at "
                  f"this table{sampled} (checks may be vacuous for them)"
              + (":" if never else ".")]
    if never:
        import textwrap
        lines += textwrap.wrap(", ".join(never), 100, initial_indent="  ",
                               subsequent_indent="  ")
    return "\n".join(lines)
