"""The search's columns of numbers (parent links, post-Pass edges, deals)."""
from __future__ import annotations

import pickle
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from itcp.checks.explicit import statestore
from itcp.checks.explicit.column import Column


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(-2**31, 2**31 - 1), max_size=700), max_size=8),
       st.integers(0, 3000))
def test_a_column_reads_like_the_array_it_replaces(batches, cut):
    col, ref = Column(), array("i")
    for b in batches:
        col.extend(np.array(b, dtype=np.int64))
        ref.extend(b)
    assert len(col) == len(ref) and list(col) == list(ref) and col == ref
    assert col.view().tolist() == ref.tolist()
    if len(ref):
        assert col[len(ref) - 1] == ref[-1] and col[-1] == ref[-1] and col[0] == ref[0]
    del col[cut:], ref[cut:]
    assert list(col) == list(ref)
    assert list(pickle.loads(pickle.dumps(col))) == list(ref)


def test_past_the_small_size_a_column_grows_in_a_reserved_mapping(monkeypatch):
    monkeypatch.setattr(statestore, "MAPPED_PAST", 4096)
    monkeypatch.setattr(statestore, "RESERVE_ROWS", 1 << 20)
    col = Column()
    for k in range(10):
        col.extend(np.arange(k * 1000, (k + 1) * 1000))
    assert col.view().tolist() == list(range(10_000))
    if col._mapped:   # Linux: only the pages written are counted
        assert col.nbytes == 40_960
        data = col._data
        col.extend(np.arange(10_000, 200_000))   # within the mapping: not moved
        assert col._data is data
    assert col.view().tolist() == list(range(200_000))


def test_an_index_out_of_range_and_a_cut_in_the_middle_are_refused():
    col = Column([1, 2, 3])
    with pytest.raises(IndexError):
        col[3]
    with pytest.raises(IndexError):
        col[-4]
    with pytest.raises(TypeError):
        del col[0:1]
