"""Where two readings of a choice point part ways: the shortest such round.

``divergence(variant, point, a, b, table)`` plays the same moves under reading
``a`` and reading ``b`` side by side, breadth-first from every deal, until a
move is legal under one reading and not the other, or the table a player sees
(whose turn, the hands, the pile, the deck, the scores...) differs.  The first
such round is written as a scenario under reading ``a`` whose ``[contrast]``
names reading ``b``: replayed as written it passes; replayed under the
contrast, its outcome differs.  This is how the library's choice-point
scenarios were found (then titled and curated by hand):

    python -m tools.contrast pride.passer gives_not_receives skipped \\
        --players 2 --suits 1 --ranks 2..2 --hand 1 --options pride_cycle

With ``--scope game`` the search plays whole games (each round's deal a
chance move, ``next_round`` between rounds), for the choice points that act
between rounds, like ``game.end``.
"""
from __future__ import annotations

import argparse
import copy
from dataclasses import dataclass

from itcp.checks.questions.divergence import Observable, first_difference
from itcp.model.engine.engine import Game
from itcp.scenarios.format import from_trace, resolve, to_toml
from itcp.scenarios.replay import facts, replay
from itcp.scenarios.save import refusal_expectation
from itcp.spec.errors import ScenarioError
from itcp.spec.variants import load_variant, overrides
from tools.tableflags import add_table_arguments, table_flags


@dataclass
class Divergence:
    states: list  # under reading a: before the deal, then one per move
    actions: list  # the deal, then the moves
    kind: str  # "facts", "illegal_under_b", "illegal_under_a"
    detail: dict  # fact -> (under a, under b), or the refused action
    nodes: int


def _games(variant, point, a, b, table, scope="round"):
    v = load_variant(variant, table)
    out = []
    for r in (a, b):
        readings = dict(v.readings)
        readings[point] = r
        out.append(Game.make(v.config, readings, scope=scope))
    return v, out[0], out[1]


def divergence(variant, point, a, b, table, max_nodes=300_000, max_depth=30, scope="round"):
    """The shortest round (or whole game, with ``scope="game"``) where reading
    ``a`` and ``b`` of ``point`` differ, or kind "none" (``detail["exhausted"]``
    only if no limit stopped the search)."""
    v, ga, gb = _games(variant, point, a, b, table, scope)
    # max_depth counts the moves after the deal; the search counts the deal too
    search = first_difference(Observable(ga, gb), max_nodes, max_moves=max_depth + 1)
    if search.found is None:
        return Divergence([], [], "none", {"exhausted": search.limit is None,
                                           "nodes": search.nodes, "limit": search.limit},
                          search.nodes)
    found = search.found
    states = [n[0] for n, _ in found.path] + [found.node[0]]
    actions = [x for _, x in found.path]
    kind, what = found.what
    if kind == "facts":
        return Divergence(states, actions, kind, what, search.nodes)
    if kind == "illegal_under_b":  # the last move: legal under a, refused under b
        states.append(ga.apply(states[-1], what))
        actions.append(what)
    return Divergence(states, actions, kind, {"action": what}, search.nodes)


def scenario(variant, point, a, b, table, div: Divergence, title=None, question=None,
             scope="round"):
    """The divergence as a scenario under reading ``a``, contrasted with ``b``."""
    v, ga, gb = _games(variant, point, a, b, table, scope)
    states, actions = div.states, div.actions
    if div.kind == "illegal_under_a":
        # written under a: the move reading b allows is refused, by a rule
        x = div.detail["action"]
        last = states[-1]
        expect = refusal_expectation(ga, last, x, len(actions))
        sc = from_trace(variant, v.config, ga, states + [last], actions + [x],
                        {"phase": "DEAL"}, title=title, question=question or "")
        sc.expect = expect
    else:
        f = facts(ga, states[-1])
        keys = list(div.detail) if div.kind == "facts" else ["phase", "turn"]
        expect = {k: f[k] for k in keys}
        sc = from_trace(variant, v.config, ga, states, actions, expect, title=title,
                        question=question or "")
    sc.readings = dict(sc.readings)
    sc.readings[point] = a
    sc.contrast = {point: b}
    resolve(sc)
    return sc


def under_contrast(sc):
    """Replay ``sc`` with its ``[contrast]`` readings: (outcome differs, what happened)."""
    other = copy.copy(sc)
    other.readings = dict(sc.readings) | dict(sc.contrast)
    other.moves = [copy.copy(m) for m in sc.moves]
    # the rule an [expect] names belongs to the scenario's own reading: under the
    # contrast only the outcome is compared (else every contrast of an illegal move
    # would "differ" by refusing the rule's name before a move is replayed)
    other.expect = {k: v for k, v in sc.expect.items() if k != "rule"}
    try:
        resolve(other)
        res = replay(other)
    except ScenarioError as e:  # a move the contrast reading refuses
        return True, e.message
    return not res.ok, res.message


def main(argv=None):  # pragma: no cover - a curation tool
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("point")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--variant", default="official")
    add_table_arguments(ap)
    ap.add_argument("--max-nodes", type=int, default=300_000)
    ap.add_argument("--scope", choices=("round", "game"), default="round",
                    help="play one round (default) or whole games")
    args = ap.parse_args(argv)
    table = overrides(table_flags(args))
    div = divergence(args.variant, args.point, args.a, args.b, table, args.max_nodes,
                     scope=args.scope)
    if div.kind == "none":
        print(f"# no difference: {div.detail}")
        return
    print(to_toml(scenario(args.variant, args.point, args.a, args.b, table, div,
                           title=f"{args.point}: {args.a} or {args.b}", scope=args.scope)))


if __name__ == "__main__":  # pragma: no cover
    main()
