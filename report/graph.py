"""A picture of an explored state graph, laid out in pure Python, as SVG.

The explicit-state search numbers states breadth-first, so a state's depth
(moves after the deal) is its layer: deals at the top, each later layer one
move further.  Within a layer the states are ordered by the barycentre of
their neighbours in the layers above and below (a few sweeps down and up, as
in Sugiyama's method), which keeps most edges short.  Edges that go back up
(a loop after a Pass, a state reached again) are drawn as curves.  Paths given
(a violation's trace) are drawn on top, thick and coloured, with a legend.

Only small explorations are drawn (``GRAPH_MAX_STATES``): beyond a few hundred
states the picture is a blur and the SVG grows large.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

#: Explorations with more states than this are not drawn (the page says so).
GRAPH_MAX_STATES = 500

#: Colours of the highlighted paths, in order.
PATH_COLOURS = ("#d32f2f", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#558b2f")

NODE_KINDS = {"deal": "#1e88e5", "state": "#9e9e9e", "terminal": "#43a047",
              "deadlock": "#000000"}


@dataclass
class GraphNode:
    layer: int
    kind: str          # a key of NODE_KINDS
    title: str         # the tooltip


def _order(layers: dict[int, list[int]], nbrs: dict[int, set[int]], sweeps: int = 4):
    """Each node's place in its layer after ``sweeps`` barycentre sweeps (down, up, ...)."""
    layer_of = {i: d for d, row in layers.items() for i in row}
    pos = {i: k for row in layers.values() for k, i in enumerate(row)}
    keys = sorted(layers)
    for sweep in range(sweeps):
        down = sweep % 2 == 0
        for d in (keys[1:] if down else keys[-2::-1]):
            ref = d - 1 if down else d + 1
            row = layers[d]

            def bary(i):
                xs = [pos[j] for j in nbrs[i] if layer_of[j] == ref]
                return sum(xs) / len(xs) if xs else pos[i]
            row.sort(key=lambda i: (bary(i), pos[i]))
            for k, i in enumerate(row):
                pos[i] = k
    return pos


def layout(nodes: dict[int, GraphNode], edges) -> dict[int, tuple[float, float]]:
    """(x, y) per node: y by layer, x by the barycentre order within the layer."""
    layers: dict[int, list[int]] = {}
    for i in sorted(nodes):
        layers.setdefault(nodes[i].layer, []).append(i)
    nbrs: dict[int, set[int]] = {i: set() for i in nodes}
    for u, v in edges:
        if u in nbrs and v in nbrs and u != v:
            nbrs[u].add(v)
            nbrs[v].add(u)
    pos = _order(layers, nbrs)
    widest = max(len(r) for r in layers.values())
    out = {}
    for d, row in layers.items():
        off = (widest - len(row)) / 2
        for i in row:
            out[i] = (off + pos[i], float(d))
    return out


def graph_svg(nodes: dict[int, GraphNode], edges, paths: dict[str, list[int]] | None = None,
              caption: str = "") -> str:
    """The graph as an ``<svg>`` (scales to the page width).  ``paths`` maps a
    label (a property) to the state numbers of its trace, in order."""
    paths = paths or {}
    xy = layout(nodes, edges)
    dx, dy, margin = 14.0, 34.0, 16.0
    width = max(x for x, _ in xy.values()) * dx + 2 * margin
    height = max(y for _, y in xy.values()) * dy + 2 * margin + 18 * (len(paths) + 1)

    def at(i):
        x, y = xy[i]
        return margin + x * dx, margin + y * dy

    out = [f'<svg class="state-graph" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'xmlns="http://www.w3.org/2000/svg" role="img" '
           f'aria-label="{escape(caption or "explored state graph")}" '
           f'data-states="{len(nodes)}" data-edges="{len(edges)}">']
    out.append('<g class="edges" fill="none" stroke="#b0b0b0" stroke-width="0.6">')
    for u, v in edges:
        out.append(_edge(at(u), at(v), nodes[u].layer >= nodes[v].layer))
    out.append("</g>")
    for k, (label, nums) in enumerate(paths.items()):
        col = PATH_COLOURS[k % len(PATH_COLOURS)]
        out.append(f'<g class="path" data-path="{escape(label)}" fill="none" stroke="{col}" '
                   f'stroke-width="2.4" stroke-opacity="0.85">')
        for u, v in zip(nums, nums[1:]):
            if u in xy and v in xy:
                out.append(_edge(at(u), at(v), nodes[u].layer >= nodes[v].layer))
        out.append("</g>")
    out.append('<g class="nodes" stroke="#fff" stroke-width="0.6">')
    on_path = {i for nums in paths.values() for i in nums}
    for i in sorted(nodes):
        x, y = at(i)
        n = nodes[i]
        r = 4.2 if i in on_path else 3.0
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{NODE_KINDS[n.kind]}" '
                   f'data-state="{i}"><title>{escape(n.title)}</title></circle>')
    out.append("</g>")
    y = height - 18 * (len(paths) + 1) + 4
    legend = [(NODE_KINDS["deal"], "a deal"), (NODE_KINDS["terminal"], "round over"),
              (NODE_KINDS["deadlock"], "no legal move"), (NODE_KINDS["state"], "other state")]
    x = margin
    for col, text in legend:
        out.append(f'<circle cx="{x + 4:.1f}" cy="{y + 5:.1f}" r="4" fill="{col}"/>'
                   f'<text x="{x + 12:.1f}" y="{y + 9:.1f}" font-size="10">{escape(text)}</text>')
        x += 14 + 6.2 * len(text) + 14
    for k, label in enumerate(paths):
        col = PATH_COLOURS[k % len(PATH_COLOURS)]
        yy = y + 18 * (k + 1)
        out.append(f'<line x1="{margin:.1f}" y1="{yy + 5:.1f}" x2="{margin + 22:.1f}" '
                   f'y2="{yy + 5:.1f}" stroke="{col}" stroke-width="3"/>'
                   f'<text x="{margin + 28:.1f}" y="{yy + 9:.1f}" font-size="10">'
                   f'{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _edge(a, b, back: bool) -> str:
    (x1, y1), (x2, y2) = a, b
    if not back:
        return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
    # an edge to the same or an earlier layer: a curve out to the side
    bend = 18 + abs(y1 - y2) * 0.35
    cx = max(x1, x2) + bend
    return (f'<path d="M{x1:.1f},{y1:.1f} C{cx:.1f},{y1:.1f} {cx:.1f},{y2:.1f} '
            f'{x2:.1f},{y2:.1f}"/>')


__all__ = ["graph_svg", "layout", "GraphNode", "GRAPH_MAX_STATES"]
