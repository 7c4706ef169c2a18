"""``itcp-check simulate``: random rounds of a variant, and how they ended."""
from __future__ import annotations

import sys

import click

from itcp.model.engine.engine import Game
from itcp.model.engine.simulate import simulate as simulate_rounds
from itcp.report import plots
from itcp.spec.errors import InputError

from .ask_cmd import parse_players
from .common import (
    COUNT,
    SEED,
    VARIANT_HELP,
    Command,
    config_options,
    emit_json,
    force_option,
    load,
    table,
    variant_argument,
)
from .output import Outputs

TOP_RULES = 12


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:5.1f}%" if n else "    -"


def _example_lines(title: str, ex: dict) -> list[str]:
    st = ex["state"]
    lines = [f"{title} (round {ex['round']}, after {ex['steps']} steps; "
             f"last action: {ex['last_action'] or 'the deal'})",
             f"  phase {st['phase']}, turn P{st['turn']}, actor P{st['actor']}, "
             f"direction {'+1' if st['dir'] > 0 else '-1'}, "
             f"passers {', '.join(f'P{p}' for p in st['passers']) or 'none'}, "
             f"deck {st['deck']} cards, pile {len(st['pile'])} cards "
             f"(top: {st['pile'][-1] if st['pile'] else 'empty'})"]
    for i, hand in enumerate(st["hands"]):
        lines.append(f"  P{i}: {hand}")
    return lines


def text_report(variant, report: dict, backend: str = "generated") -> str:
    n = report["rounds"]
    engine = "" if backend == "generated" else f", {backend} backend"
    out = [f"Simulated {n} random round{'s' * (n != 1)} of {variant.name} "
           f"(seed {report['seed']}, step cap {report['max_steps']}{engine})",
           f"Table: {variant.config.describe()}",
           "",
           f"  steps           {report['steps']}",
           f"  seconds         {report['seconds']:.3f}",
           f"  steps/second    {report['steps_per_second']:,.0f}",
           f"  mean length     {report['mean_round_length']:.1f} steps "
           f"(longest {report['max_round_length']})",
           "",
           "How rounds ended"]
    out.append(table([(e, k, _pct(k, n)) for e, k in report["endings"].items()]))
    firings = report["rule_firings"]
    if firings:
        out += ["", f"Rule firings (steps in which a rule was checked or applied; top "
                    f"{min(TOP_RULES, len(firings))}"
                    f" of {len(firings)})"]
        out.append(table([(rid, k) for rid, k in list(firings.items())[:TOP_RULES]]))
    for key, title in (("stuck_examples", "A stuck round: no legal move"),
                       ("step_cap_examples", "A round that hit the step cap")):
        if report[key]:
            out += [""] + _example_lines(title, report[key][0])
    return "\n".join(out)


@click.command("simulate", cls=Command, help=(
    "Play random rounds: deal, then uniformly random legal moves until the round ends.\n\n"
    + VARIANT_HELP + " Reports how rounds ended (pass reached, zero, deck exhausted, stuck: "
    "no legal move, step cap: too long), engine speed and how often each rule fired. "
    "Deterministic for a seed."))
@variant_argument
@click.option("-n", "--rounds", type=COUNT, default=100, show_default=True,
              help="Rounds to play.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--max-steps", type=COUNT, default=2000, show_default=True,
              help="Moves after which a round counts as 'step cap'.")
@click.option("--backend", type=click.Choice(["generated", "reference"]), default="generated",
              show_default=True,
              help="Play with the generated engine, or the reference evaluator (slow: small tables only).")
@config_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--plot", "plot_dir", metavar="DIR", default=None,
              help="Write PNG plots (matplotlib: pip install 'itcp[plot]') and the CSV behind "
                   "each to this folder: scores per seat, round length, how rounds end and how "
                   "often a Pass wins by player count, which rules fire.")
@click.option("--html", "html_file", metavar="FILE", default=None,
              help="Write the same plots (inline) and their numbers as one HTML page.")
@click.option("--plot-players", default="2..8", metavar="LIST", show_default=True,
              help='With --plot/--html: the player counts of the "by player count" plots '
                   '("2..8", "2,4" or "none"); each other count plays the same number of '
                   "rounds with the same seed (counts whose deal does not fit are skipped).")
@force_option
def simulate(variant, rounds, seed, max_steps, backend, config_flags, as_json, plot_dir,
             html_file, plot_players, force):
    counts: tuple = ()
    if plot_dir is not None or html_file is not None:
        plots.require()   # before any round: exit 2 naming the extra to install
        counts = parse_players(plot_players, "--plot-players")
    with Outputs(force) as out:
        # every output path is checked before the rounds are played
        folder = out.folder(plot_dir, "--plot", names=plots.file_names()) \
            if plot_dir is not None else None
        page = out.file(html_file, "--html") if html_file is not None else None
        _simulate(variant, rounds, seed, max_steps, backend, config_flags, as_json,
                  plot_dir, html_file, counts, folder, page, out)


def _simulate(variant, rounds, seed, max_steps, backend, config_flags, as_json, plot_dir,
              html_file, counts, folder, page, out):

    plotting = folder is not None or page is not None
    v = load(variant, config_flags)
    game = Game.from_variant(v, backend=backend)
    records = [] if plotting else None
    report = simulate_rounds(game, rounds, seed, max_steps=max_steps, records=records)
    written = []
    if plotting:
        data = by_players(v, variant, config_flags, backend, report, records, counts,
                           rounds, seed, max_steps, as_json)
        figs = plots.figures(data, game.spec)
        if folder is not None:
            for name, blob in plots.files(figs).items():
                folder.write(name, blob)
            written.append(f"{len(figs)} plots (PNG and CSV) written to {plot_dir}")
        if page is not None:
            page.write(plots.simulation_page(data, figs))
            written.append(f"HTML report written to {html_file}")
    out.commit()
    if as_json:
        extra = {}
        if plot_dir is not None:
            extra["plot"] = {"folder": str(plot_dir), "files": sorted(plots.files(figs))}
        if html_file is not None:
            extra["html"] = str(html_file)
        emit_json({"variant": v.name, "backend": backend, **report, **extra})
    else:
        click.echo(text_report(v, report, backend)
                   + "".join(f"\n\n{w}" if i == 0 else f"\n{w}"
                             for i, w in enumerate(written)))


def by_players(v, variant, config_flags, backend, report, records, counts, rounds, seed,
                max_steps, quiet) -> plots.SimulationData:
    """The command's own run, and the same variant and flags at each other player count
    of ``counts`` (same rounds, same seed; rule firings are counted at the command's
    table only)."""

    main = plots.Run(v.config.players, report, records)
    data = plots.SimulationData(v.name, v.config.describe(), main, {main.players: main})
    for n in counts:
        if n == main.players:
            continue
        try:
            other = load(variant, dict(config_flags, players=n))
        except InputError as e:
            data.skipped[n] = e.message
            continue
        if not quiet and sys.stderr.isatty():
            click.echo(f"  ... {rounds:,} rounds at {n} players", err=True)
        recs: list = []
        rep = simulate_rounds(Game.from_variant(other, backend=backend), rounds, seed, max_steps=max_steps,
                  track_rules=False, records=recs)
        data.by_players[n] = plots.Run(n, rep, recs)
    return data
