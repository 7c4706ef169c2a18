"""The one side-by-side search (checks/questions/divergence.py): shortest differences, honest limits,
and the two lenses on real games."""
from __future__ import annotations

from itcp.checks.questions.divergence import Exact, Observable, first_difference


class Graph:
    """A toy lens: places are numbers, ``edges`` the moves, ``bad`` the places that differ
    when reached, ``split`` those that differ when expanded, ``ends`` the finished ones."""

    def __init__(self, edges, bad=(), split=(), ends=()):
        self.edges, self.bad, self.split, self.ends = edges, set(bad), set(split), set(ends)

    def start(self):
        return 0

    def reached(self, n):
        return "bad" if n in self.bad else None

    def ended(self, n):
        return n in self.ends

    def expand(self, n):
        if n in self.split:
            return "split", ()
        return None, [(f"{n}->{m}", m) for m in self.edges.get(n, ())]


LONG_AND_SHORT = {0: [1, 2], 1: [3], 2: [4], 3: [5], 4: [], 5: []}


def test_the_first_difference_is_a_shortest_one():
    # 5 is bad but three moves away; 4 is bad and two moves away
    s = first_difference(Graph(LONG_AND_SHORT, bad={4, 5}), max_nodes=100)
    assert s.found.node == 4 and s.found.what == "bad"
    assert [a for _, a in s.found.path] == ["0->2", "2->4"]
    s = first_difference(Graph(LONG_AND_SHORT, split={3}), max_nodes=100)
    assert s.found.node == 3 and s.found.what == "split" and len(s.found.path) == 2


def test_exhausted_only_without_a_limit():
    s = first_difference(Graph(LONG_AND_SHORT), max_nodes=100)
    assert s.found is None and s.limit is None and s.nodes == 6
    s = first_difference(Graph(LONG_AND_SHORT, bad={5}), max_nodes=4)
    assert s.found is None and s.limit == "max_nodes 4"
    # a place at the depth bound with moves left is a limit, a finished one is not
    s = first_difference(Graph(LONG_AND_SHORT, bad={5}), max_nodes=100, max_moves=2)
    assert s.found is None and s.limit == "max_moves 2"
    s = first_difference(Graph(LONG_AND_SHORT, ends={3, 4}), max_nodes=100, max_moves=2)
    assert s.found is None and s.limit is None


def _games(cp, ra, rb):
    from itcp.model.engine.engine import Game
    from itcp.spec.variants import load_variant
    v = load_variant("official", {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1,
                                  "options": (("pride_cycle", 1),)})
    out = []
    for r in (ra, rb):
        readings = dict(v.readings)
        readings[cp] = r
        out.append(Game.make(v.config, readings))
    return out


def test_both_lenses_on_real_games():
    ga, gb = _games("pride.passer", "gives_not_receives", "skipped")
    same = first_difference(Exact(ga, ga), max_nodes=100_000)
    assert same.found is None and same.limit is None and same.nodes > 1
    exact = first_difference(Exact(ga, gb, ("a", "b")), max_nodes=100_000)
    seen = first_difference(Observable(ga, gb), max_nodes=100_000)
    assert exact.found is not None and seen.found is not None
    # a player sees a difference no earlier than the states differ
    assert len(seen.found.path) >= len(exact.found.path)
    # the hidden-variable-blind lens follows pairs of states, first of all the deals
    assert all(isinstance(n, tuple) and len(n) == 2 for n, _ in seen.found.path)
    assert seen.found.path[0][1][0] == "deal"
