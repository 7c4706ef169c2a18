"""Where two games part ways: one breadth-first search, two ideas of "different".

Comparing two readings of a choice point (``itcp-check diff``, the question
``differs CP``, the disputes, and the library's ``[contrast]`` scenarios) is
always the same search: play both games side by side, breadth-first from
before the deal, and stop at the first place they differ.  Breadth-first, the
first difference is reached by a shortest play, so the scenario made of it is
the smallest one; a search that runs out of places without a difference is a
bounded proof that the two agree at that table.

What counts as a difference, and so what a place in the search is, is a
*lens*:

* ``Exact``: every legal move set, every move's successor state and, where the
  round is over, the scores.  While both agree exactly, both games are in the
  same state, so a place is one state.
* ``Observable``: what a player can see (``scenarios.replay.facts``: whose
  turn, the hands, the pile, the scores...) and the legal moves.  Hidden
  variables may differ without ever surfacing, so a place is a pair of states,
  one per game.

``first_difference`` owns the search itself: the parent map, the limits and the
path back to the start.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from itcp.scenarios.replay import facts


@dataclass
class Found:
    """The first difference: ``what`` the lens saw at ``node``, reached by ``path``."""
    path: list  # (node, action) steps from the start to ``node``
    node: Any
    what: Any


@dataclass
class DivergenceSearch:
    found: Found | None
    nodes: int  # places reached, the start included
    limit: str | None = None  # what stopped the search early; None: exhausted or found


def first_difference(lens, max_nodes: int, max_moves: int | None = None) -> DivergenceSearch:
    """Breadth-first from ``lens.start()`` to the first place ``lens`` calls different.

    ``lens.reached(node)`` is asked about each place when it is first reached,
    ``lens.expand(node)`` when it is taken from the queue; either returns what
    differs (None if nothing), ``expand`` also the ``(action, next node)``
    steps to follow.  Reaching ``max_nodes`` places stops the search; a place
    ``max_moves`` moves from the start is not expanded (unless ``lens.ended``
    says nothing follows it).  Either is reported as the search's ``limit``:
    only a search without one has seen everything.
    """
    start = lens.start()
    parent: dict[Any, tuple | None] = {start: None}
    queue = deque([(start, 0)])
    cut = False
    while queue:
        node, moves = queue.popleft()
        if max_moves is not None and moves >= max_moves:
            cut = cut or not lens.ended(node)
            continue
        what, steps = lens.expand(node)
        if what is not None:
            return DivergenceSearch(Found(_path(parent, node), node, what), len(parent))
        for action, nxt in steps:
            if nxt in parent:
                continue
            parent[nxt] = (node, action)
            what = lens.reached(nxt)
            if what is not None:
                return DivergenceSearch(Found(_path(parent, nxt), nxt, what), len(parent))
            queue.append((nxt, moves + 1))
            if len(parent) >= max_nodes:
                return DivergenceSearch(None, len(parent), f"max_nodes {max_nodes}")
    return DivergenceSearch(None, len(parent), f"max_moves {max_moves}" if cut else None)


def _path(parent, node) -> list:
    out = []
    while parent[node] is not None:
        prev, action = parent[node]
        out.append((prev, action))
        node = prev
    return out[::-1]


class Exact:
    """Differences in legal moves, successor states or final scores; a place is a state.

    ``expand`` returns ``(kind, action, legal_in)``: ``("scores", None, None)``,
    ``("legal", move, the name of the game that allows it)`` or
    ``("outcome", move, None)``.
    """

    def __init__(self, ga, gb, names=("A", "B")):
        self.ga, self.gb, self.names = ga, gb, names

    def start(self):
        return self.ga.initial_state()

    def reached(self, s):
        return None

    def ended(self, s):
        return self.ga.is_terminal(s)

    def expand(self, s):
        ga, gb = self.ga, self.gb
        if ga.is_terminal(s):
            return (("scores", None, None) if ga.scores(s) != gb.scores(s) else None), ()
        la = dict(ga.successors(s))
        lb = dict(gb.successors(s))
        if set(la) != set(lb):
            only_a = sorted(set(la) - set(lb))
            only_b = sorted(set(lb) - set(la))
            if only_a:
                return ("legal", only_a[0], self.names[0]), ()
            return ("legal", only_b[0], self.names[1]), ()
        for a in la:
            if la[a] != lb[a]:
                return ("outcome", a, None), ()
        return None, la.items()


class Observable:
    """Differences a player can see; a place is a pair (state under ga, state under gb).

    The deal is dealt alike in both games.  ``reached`` returns ``("facts",
    {fact: (under a, under b)})``, ``expand`` ``("illegal_under_b", move)`` (a
    move ga allows and gb refuses) or ``("illegal_under_a", move)``.
    """

    def __init__(self, ga, gb):
        self.ga, self.gb, self.facts = ga, gb, facts
        self.s0 = ga.initial_state()

    def start(self):
        return (self.s0, self.s0)

    def ended(self, node):
        return self.ga.is_terminal(node[0])

    def reached(self, node):
        sa, sb = node
        fa, fb = self.facts(self.ga, sa), self.facts(self.gb, sb)
        diff = {k: (fa[k], fb[k]) for k in fa if fa[k] != fb[k]}
        return ("facts", diff) if diff else None

    def expand(self, node):
        ga, gb = self.ga, self.gb
        sa, sb = node
        if sa == self.s0:  # the deal: the same under both readings
            return None, [(d, (ga.apply(sa, d, validate=False), gb.apply(sb, d, validate=False)))
                          for d in ga.legal_actions(sa)]
        if ga.is_terminal(sa):
            return None, ()
        la, lb = ga.legal_actions(sa), gb.legal_actions(sb)
        differ = legality_difference(la, lb)
        if differ is not None:
            return differ, ()
        return None, [(x, (ga.apply(sa, x, validate=False), gb.apply(sb, x, validate=False)))
                      for x in la]


def legality_difference(la, lb) -> tuple | None:
    """``("illegal_under_b", move)`` for a move of ``la`` missing from ``lb``,
    ``("illegal_under_a", move)`` for one of ``lb`` missing from ``la``, or None
    when the two lists of legal moves hold the same moves."""
    set_b = set(lb)
    for x in la:
        if x not in set_b:
            return ("illegal_under_b", x)
    set_a = set(la)
    for x in lb:
        if x not in set_a:
            return ("illegal_under_a", x)
    return None


__all__ = ["first_difference", "Found", "DivergenceSearch", "Exact", "Observable", "legality_difference"]
