"""The search for a post-Pass cycle (ROUND_ENDS' lasso) against networkx.

``find_post_pass_cycle`` peels the post-Pass graph in arrays, so it scales to
the tens of millions of edges a big table has; here, on small random graphs,
what it leaves is checked against the textbook answer: the states that some
cycle reaches and that reach some cycle.
"""
from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from itcp.checks.explicit.column import Column
from itcp.checks.explicit.explore import Depths, PostPassEdges
from itcp.checks.explicit.verdicts import _peeled, find_post_pass_cycle


@st.composite
def graphs(draw):
    """(states, edges, levels): a small directed graph, self-loops and
    repeated edges allowed, and the number of states at each depth."""
    n = draw(st.integers(1, 14))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                          max_size=30))
    levels = draw(st.lists(st.integers(0, 3), min_size=1, max_size=n))
    return n, edges, levels


def _between_cycles(n: int, edges: list) -> set:
    """The states on a cycle or on a path from one cycle to another."""
    g = nx.MultiDiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    cyclic = {v for c in nx.strongly_connected_components(g) for v in c
              if len(c) > 1 or g.has_edge(v, v)}
    reached = set(cyclic).union(*[nx.descendants(g, v) for v in cyclic])
    reaching = set(cyclic).union(*[nx.ancestors(g, v) for v in cyclic])
    return reached & reaching


class _Searched:
    """What ``find_post_pass_cycle`` reads of an exploration."""

    def __init__(self, n: int, edges: list, levels: list):
        self.states = n
        self.post_pass_edges = PostPassEdges(Column([u for u, _ in edges]),
                                             Column([v for _, v in edges]))
        self.depth_of = Depths([_level(v, levels) for v in range(n)])


def _level(state: int, levels: list) -> int:
    """The depth of ``state`` when ``levels[d]`` states lie at depth d (the rest deepest)."""
    seen = 0
    for d, k in enumerate(levels):
        seen += k
        if state < seen:
            return d
    return len(levels) - 1


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_the_peeling_leaves_the_states_between_cycles(g):
    n, edges, _ = g
    src = np.array([u for u, _ in edges], dtype=np.int32)
    dst = np.array([v for _, v in edges], dtype=np.int32)
    s, t, nodes = _peeled(src, dst, n)
    left = _between_cycles(n, edges)
    assert sorted(nodes.tolist()) == nodes.tolist() == sorted(left)
    kept = sorted((int(nodes[a]), int(nodes[b])) for a, b in zip(s, t))
    assert kept == sorted((u, v) for u, v in edges if u in left and v in left)


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_a_cycle_is_found_exactly_when_there_is_one(g):
    n, edges, levels = g
    ex = _Searched(n, edges, levels)
    found = find_post_pass_cycle(ex)
    if not _between_cycles(n, edges):
        assert found is None
        return
    assert found is not None
    loop = found + [found[0]]
    assert all((u, v) in set(edges) for u, v in zip(loop, loop[1:]))
    # the loop is a shortest way from its entry back to it
    g = nx.DiGraph(edges)
    entry = found[0]
    shortest = min(1 + nx.shortest_path_length(g, w, entry) for w in g.successors(entry)
                   if nx.has_path(g, w, entry))
    assert len(found) == shortest
