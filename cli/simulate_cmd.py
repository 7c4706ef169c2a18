"""``itcp-check simulate``: random rounds of a variant, and how they ended."""
from __future__ import annotations

import click

from .common import (COUNT, SEED, VARIANT_HELP, Command, config_options, emit_json, load, table,
                     variant_argument)

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
def simulate(variant, rounds, seed, max_steps, backend, config_flags, as_json):
    from itcp.model.engine import Game
    from itcp.model.simulate import simulate as run

    v = load(variant, config_flags)
    game = Game.from_variant(v, backend=backend)
    report = run(game, rounds, seed, max_steps=max_steps)
    if as_json:
        emit_json({"variant": v.name, "backend": backend, **report})
    else:
        click.echo(text_report(v, report, backend))
