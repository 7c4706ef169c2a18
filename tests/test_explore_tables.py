"""The explorer's compact per-state tables read like the plain sequences they replace."""
from __future__ import annotations

from array import array

import pytest
from hypothesis import given, strategies as st

from itcp.checks.explore import Depths, PostPassEdges, _allocated


@given(st.lists(st.integers(0, 3), max_size=40), st.integers(0, 45))
def test_depths_read_as_the_depth_sequence(steps, cut):
    depths, d = [], 0
    for step in steps:  # a breadth-first search's depths never go down
        d += step // 3
        depths.append(d)
    kept = Depths(depths)
    assert list(kept) == depths and len(kept) == len(depths)
    assert [kept[i] for i in range(len(depths))] == depths
    assert kept.deepest() == (depths[-1] if depths else 0)
    kept.truncate(cut)
    assert list(kept) == depths[:cut]
    kept.add(kept.deepest() + 1, 2)
    assert list(kept) == depths[:cut] + [kept.deepest()] * 2


def test_depths_refuse_to_go_back():
    kept = Depths([0, 1, 1])
    with pytest.raises(ValueError):
        kept.add(0)
    with pytest.raises(IndexError):
        kept[3]


def test_post_pass_edges_read_as_pairs():
    edges = PostPassEdges(array("i", [0, 1]), array("i", [1, 0]))
    assert list(edges) == [(0, 1), (1, 0)] and len(edges) == 2 and edges
    assert edges == [(0, 1), (1, 0)] and not PostPassEdges(array("i"), array("i"))


def test_objects_are_counted_at_their_allocated_size():
    assert [_allocated(n) for n in (28, 32, 40, 44, 48)] == [32, 32, 48, 48, 48]


@given(st.lists(st.integers(1, 5), min_size=1, max_size=8), st.data())
def test_pending_targets_are_looked_for_in_every_state_once(levels, data):
    """The windows of the look-up cover every stored state exactly once, the
    level just found first, then the older levels newest first."""
    from itcp.checks.explore import Exploration, _windows
    ex = Exploration(game=None, symmetry=False)
    for d, size in enumerate(levels):
        ex.depth_of.add(d, size)
    ex.keys.extend(range(sum(levels)))
    start = data.draw(st.sampled_from(list(ex.depth_of.starts) + [0]))
    spans = list(_windows(ex, start))
    covered = [i for lo, hi in spans for i in range(lo, hi)]
    assert sorted(covered) == list(range(len(ex.keys)))
    assert spans[0] == (start, len(ex.keys))
    assert all(a[0] >= b[1] for a, b in zip(spans[1:], spans[2:]))
