"""The explored state graph, read-only: what a report may show of a search.

A finished search's ``Exploration`` holds the search's own tables (packed keys,
parent links, the visited set); a report draws the graph (the HTML report's
picture) or exports it (``check --graph``) through this view, which answers in
state numbers and engine states and changes nothing (``checks/results.py``
``StateGraph`` is what it offers).
"""
from __future__ import annotations

from .explore import Exploration, edges, number_of, state


class ExploredGraph:
    """The states of a finished search (numbered breadth-first), their depths and
    parent links, the dead ends, every edge among them, and the edges between
    states the round-ending property observes (after a Pass)."""

    def __init__(self, ex: Exploration):
        self._ex = ex

    @property
    def states(self) -> int:
        return self._ex.states

    @property
    def symmetry(self) -> bool:
        return self._ex.symmetry

    @property
    def deadlocks(self) -> frozenset[int]:
        return frozenset(self._ex.deadlocks)

    def depth(self, i: int) -> int:
        return int(self._ex.depth_of[i])

    def parent(self, i: int) -> int:
        return int(self._ex.parent[i])

    def state(self, i: int) -> tuple:
        return state(self._ex, i)

    def number_of(self, s) -> int | None:
        """The number of the stored position the engine state ``s`` stands for, or None."""
        return number_of(self._ex, s)

    def edges(self) -> list[tuple[int, int]]:
        """Every search edge among the stored states (computed again: small graphs)."""
        return edges(self._ex)

    def post_pass_edges(self) -> list[tuple[int, int]]:
        return [(int(u), int(v)) for u, v in self._ex.post_pass_edges]


__all__ = ["ExploredGraph"]
