"""``itcp-check play [VARIANT]``: play a round (or a game) at the terminal against bots.

The table is the variant's own (the real game unless flags change it).  Each
rule is explained as it fires (``report/play.py``).  ``? QUESTION`` at the
prompt asks the rules through ``itcp-check ask``'s machinery, at the check
command's small default table with small limits (said with the answer).
``--replay FILE`` steps through a scenario file the same way.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import click

from itcp.checks.questions.ask import Options, ask
from itcp.checks.questions.language import parse
from itcp.checks.run import Limits
from itcp.model.engine.engine import Game
from itcp.report.play import BOTS, Replay, Session, Style, use_colour
from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import replay
from itcp.scenarios.save import variant_ref
from itcp.spec.errors import InputError

from .check_cmd import start_table
from .common import (
    NATURAL,
    SEED,
    VARIANT_HELP,
    Command,
    config_options,
    load,
    load_with,
    variant_argument,
)

#: Limits of a question asked at the play table (an answer within seconds).
ASK_MAX_STATES = 300_000
ASK_TIMEOUT = 20.0
ASK_PROOF_TIMEOUT = 20.0


def asker(variant_name: str):
    """``? QUESTION`` at the table: the question asked of the variant being played,
    at the check command's default table, the search and the Z3 proof (at that
    table, two players) within small limits."""
    def run(text: str) -> list[str]:
        try:
            q = parse(text)
            table = start_table({})
            v = load_with(variant_name, table)
        except InputError as e:
            return [f"error: {e.render()}"]
        opts = Options(limits=Limits(ASK_MAX_STATES, None, ASK_TIMEOUT), proof_sizes=(2,),
                       proof_timeout=ASK_PROOF_TIMEOUT, save=None,
                       proof_table={k: x for k, x in table.items() if k != "players"})
        head = (f"(asked of {v.name} at {v.config.describe()}, the check command's table, not "
                f"this one; search up to {ASK_MAX_STATES:,} states or {ASK_TIMEOUT:g} s, "
                f"Z3 up to {ASK_PROOF_TIMEOUT:g} s; for a fuller answer: itcp-check ask "
                f"\"{text}\" {variant_name})")
        try:
            a = ask(q, v, opts)
        except InputError as e:
            return [f"error: {e.render()}"]
        return [head] + a.lines
    return run


@click.command("play", cls=Command, help=(
    "Play a round at the terminal against bots, each rule explained as it fires.\n\n"
    + VARIANT_HELP + " The table is the variant's own (4 players and the full deck for "
    "official) unless flags change it. At the prompt: a move's number, '? QUESTION' to ask "
    "the rules (as itcp-check ask, at the small check table with small limits), t for the "
    "table, q to quit. Works on a plain pipe too. Exit codes: 0 the round ended, 2 bad "
    "input, 3 stuck (no legal move) or the move cap, 130 quit."))
@variant_argument
@config_options
@click.option("--seat", type=NATURAL, default=0, show_default=True,
              help="Your seat (P0 is the dealer; the next seat plays first).")
@click.option("--bots", type=click.Choice(BOTS), default="greedy", show_default=True,
              help="How the other seats play: uniformly random legal moves, or greedy (the "
                   "move that leaves their own hand worth the fewest points).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the deal, the deck and the bots (default: a fresh one, printed).")
@click.option("--game", "whole_game", is_flag=True,
              help="Play a whole game (rounds until the variant's game end), not one round.")
@click.option("--open", "open_hands", is_flag=True, help="Show every hand, not only yours.")
@click.option("--explain", type=click.Choice(["first", "all"]), default="first",
              show_default=True,
              help="Quote a rule's rulebook sentences the first time it fires, or every time.")
@click.option("--watch", is_flag=True, help="Bots at every seat: watch a round.")
@click.option("--replay", "replay_file", metavar="FILE", type=click.Path(dir_okay=False),
              default=None, help="Step through a scenario file instead (Enter for each move).")
def play_cmd(variant, config_flags, seat, bots, seed, whole_game, open_hands, explain, watch,
             replay_file):
    out, inp = sys.stdout, sys.stdin
    style = Style(use_colour(out))
    if replay_file is not None:
        sc = load_scenario(replay_file)
        res = replay(sc)
        session = Replay(sc.game, f"{sc.title} ({sc.variant})", -1, bots, random.Random(0),
                         inp, out, asker(variant_ref(sc.variant_obj, Path.cwd())),
                         open_hands=True, explain_all=explain == "all", style=style,
                         states=res.states, actions=sc.actions[:len(res.states) - 1],
                         interactive=True)
        code = session.play()
        click.echo(("PASS: " if res.ok else "FAIL: ") + res.message)
        sys.exit(code)
    v = load(variant, config_flags)
    if not watch and seat >= v.config.players:
        raise InputError(f"--seat {seat}: the table has {v.config.players} seats "
                         f"(P0..P{v.config.players - 1})", hint="e.g. --seat 0")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    game = Game.from_variant(v, scope="game" if whole_game else "round")
    click.echo(f"itcp-check play: {v.name} at {v.config.describe()}; seed {seed} (again: "
               f"--seed {seed}); " + ("you watch" if watch else f"you are P{seat}")
               + f", {bots} bots")
    session = Session(game, f"{v.name}, {v.config.players} players", -1 if watch else seat,
                      bots, random.Random(seed), inp, out,
                      asker(variant_ref(v, Path.cwd())), open_hands=open_hands or watch,
                      explain_all=explain == "all", style=style)
    sys.exit(session.play())


__all__ = ["play_cmd"]
