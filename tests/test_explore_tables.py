"""The explorer's compact per-state tables read like the plain sequences they replace."""
from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from itcp.checks.explicit.explore import Depths, PostPassEdges, _allocated
from itcp.checks.explicit.statestore import StateStore


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


@given(st.lists(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), max_size=60),
                max_size=6), st.integers(1, 2))
def test_the_visited_set_numbers_each_key_once(batches, words):
    """Batches of keys (with repeats, in and across batches) get one number
    each, the first time they are seen; look-ups and a rollback agree."""
    store = StateStore(words, capacity=16)
    numbers: dict = {}
    for batch in batches:
        keys = [k[:words] for k in batch]
        cols = [np.array([k[j] for k in keys], dtype=np.int64) for j in range(words)]
        nums, new = store.insert(cols) if keys else (np.array([]), np.array([], dtype=bool))
        for k, n, fresh in zip(keys, nums.tolist(), new.tolist()):
            assert fresh == (k not in numbers)
            numbers.setdefault(k, n)
            assert numbers[k] == n
    assert store.n == len(numbers) and sorted(numbers.values()) == list(range(store.n))
    for k, n in numbers.items():
        assert store.key(n) == k
    cut = store.n // 2
    store.rollback(cut)
    probe = list(numbers)
    if probe:
        found = store.lookup([np.array([k[j] for k in probe], dtype=np.int64)
                              for j in range(words)])
        assert [n if n < cut else -1 for n in (numbers[k] for k in probe)] == found.tolist()


def test_depths_of_an_array_of_states():
    depths = Depths([0, 0, 1, 3, 3])
    assert depths.of(np.array([0, 1, 2, 3, 4])).tolist() == [0, 0, 1, 3, 3]
