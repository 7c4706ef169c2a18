"""The HTML report's renderers: what a page shows for a known trace (the tables,
the rules and sentences of each step), a proof, the state graph, coverage and a
sweep's matrix."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from itcp.checks.results import Verdict
from itcp.checks.run import Check, Limits
from itcp.cli.common import load_with
from itcp.model.engine.engine import Game
from itcp.report.graph import GRAPH_MAX_STATES, GraphNode, graph_svg, layout
from itcp.report.html import check_page, proof_html
from itcp.report.view import table_view, told_view
from itcp.spec.rulebook import SENTENCES

#: The smallest table where the official text breaks FROZEN (Pride Cycle): a few
#: hundred states, so its graph is drawn too.
TINY = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1,
        "options": (("pride_cycle", 1),)}


class Dom(HTMLParser):
    """The start tags of a page, in order, with their attributes; the text."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def having(self, attr: str, value: str | None = None) -> list[dict]:
        return [a for _, a in self.tags if attr in a and (value is None or a[attr] == value)]


@pytest.fixture(scope="module")
def tiny():
    v = load_with("official", TINY)
    report = Check(v).run()
    page = check_page(report)
    return {"variant": v, "game": report.game, "graph": report.graph, "vs": report.results,
            "page": page, "dom": Dom(page), "coverage": report.coverage,
            "states": report.search.states}


def test_page_is_self_contained(tiny):
    page = tiny["page"]
    assert page.startswith("<!DOCTYPE html>")
    # nothing fetched: no external scripts, styles, fonts or images
    assert not re.search(r'(src|href)="(https?:)?//', page)
    assert "@import" not in page and "url(" not in page
    assert "<script>" in page and "<style>" in page
    # every card of the table is defined once, and every drawn card uses a defined one
    dom = tiny["dom"]
    symbols = {a["id"] for t, a in dom.tags if t == "symbol"}
    from itcp.report.cards import symbol_id
    assert symbols == {symbol_id(c) for c in tiny["game"].config.cards}
    assert len(symbols) == tiny["game"].config.n_cards
    used = {a["href"].lstrip("#") for t, a in dom.tags if t == "use"}
    assert used <= symbols


def test_header_verdicts_and_readings(tiny):
    dom, v = tiny["dom"], tiny["variant"]
    text = "".join(dom.text)
    assert v.config.describe() in text and v.description in text
    rows = {a["data-property"]: a["data-verdict"] for a in dom.having("data-verdict")}
    assert rows == {x.id: x.verdict for x in tiny["vs"]}
    assert rows["FROZEN"] == Verdict.VIOLATED
    # every choice point with the variant's reading
    assert {a["data-choice"] for a in dom.having("data-choice")} == set(v.readings)


def test_frozen_stepper_shows_the_trace_as_the_engine_plays_it(tiny):
    """Each step of the FROZEN stepper shows the hands, the pile's top card, the
    passers and who moves as the engine's states say, and names the rules of the
    story with the rulebook sentences they cite."""
    game, dom = tiny["game"], tiny["dom"]
    frozen = next(x for x in tiny["vs"] if x.id == "FROZEN")
    trace = frozen.trace
    stepper = dom.having("id", "trace-FROZEN")
    assert len(stepper) == 1 and stepper[0]["data-steps"] == str(len(trace.actions))
    # the tables, in page order, belong to the steppers; FROZEN's come first
    tables = [a for t, a in dom.tags if "data-pile-top" in a]
    seats = [a for t, a in dom.tags if "data-seat" in a]
    n = game.config.players
    for k, s in enumerate(trace.states):
        d = game.describe(s)
        t = tables[k]
        assert t["data-deck"] == str(d["deck"])
        assert t["data-pile-top"] == (d["pile"][-1] if d["pile"] else "")
        assert t["data-passers"] == ",".join(map(str, d["passers"]))
        for p in range(n):
            seat = seats[k * n + p]
            assert seat["data-seat"] == str(p)
            want = "" if d["hands"][p] == "nothing" else d["hands"][p]
            assert seat["data-hand"] == want
            assert seat["data-passed"] == str(p in d["passers"]).lower()
            assert seat["data-to-act"] == str(game.current_player(s) == p).lower()
    steps = [a for a in dom.having("data-step") if a["data-step"] != "0"][:len(trace.actions)]
    for st, told in zip(steps, trace.steps):
        assert st["data-rules"].split() == list(told.rules)
    page = tiny["page"]
    # a reading rule of the trace, with the reading's words and its sentence
    last = trace.steps[-1]
    reading_rules = [r for r in last.rules if game.spec.rule(r).choice]
    assert reading_rules
    for rid in reading_rules:
        r = game.spec.rule(rid)
        assert f'data-reading="{r.choice}={r.reading}"' in page
        for sid in r.sentences:
            assert f'data-sentence="{sid}"' in page
    assert trace.ending.replace("[", "").split()[0] in page
    assert "FROZEN violated" in page


def test_told_view_matches_the_engine(tiny):
    game = tiny["game"]
    frozen = next(x for x in tiny["vs"] if x.id == "FROZEN")
    tv = told_view(game, frozen.trace)
    assert len(tv.steps) == frozen.trace.length
    last = tv.steps[-1]
    passers = tv.deal.passers or last.after.passers
    assert passers, "the FROZEN trace has a passer"
    p = passers[0]
    assert last.before.seats[p].hand_names != last.after.seats[p].hand_names
    for st in tv.steps:
        for note in st.rules:
            assert note.doc == game.spec.rule(note.id).doc
            assert [t for _, t in note.sentences] == [SENTENCES[s] for s in
                                                      game.spec.rule(note.id).sentences]


def test_table_view_counts_every_card(tiny):
    game = tiny["game"]
    s = next(game.initial_states())
    tv = table_view(game, s)
    held = sum(len(x.cards) for x in tv.seats)
    assert held + tv.deck + len(tv.pile) == game.config.n_cards


def test_graph_is_drawn_for_a_small_run_with_the_violation_highlighted(tiny):
    graph, dom = tiny["graph"], tiny["dom"]
    assert graph.states <= GRAPH_MAX_STATES
    svg = dom.having("data-states")
    assert svg and svg[0]["data-states"] == str(graph.states)
    circles = [a for t, a in dom.tags if t == "circle" and "data-state" in a]
    assert len(circles) == graph.states
    frozen = next(x for x in tiny["vs"] if x.id == "FROZEN")
    paths = [a["data-path"] for a in dom.having("data-path")]
    assert any(p.startswith("FROZEN") for p in paths)
    nums = [graph.number_of(s) for s in frozen.trace.states]
    assert None not in nums and graph.depth(nums[0]) == 0


def test_graph_is_omitted_beyond_the_threshold(tiny):
    from itcp.report.html import graph_section

    class Big:
        states = GRAPH_MAX_STATES + 1
    assert 'data-graph="omitted"' in graph_section(Big(), tiny["game"], [])


def test_layout_layers_by_depth():
    nodes = {i: GraphNode(d, "state", str(i)) for i, d in enumerate([0, 0, 1, 1, 1, 2])}
    es = [(0, 2), (1, 3), (1, 4), (3, 5), (5, 1)]
    xy = layout(nodes, es)
    assert {i: y for i, (_, y) in xy.items()} == {i: float(n.layer) for i, n in nodes.items()}
    assert len({xy[i] for i in nodes}) == len(nodes)   # no two nodes on one spot
    svg = graph_svg(nodes, es, {"P": [1, 3, 5]})
    assert svg.count("<circle") == len(nodes) + 4     # the nodes and the legend's dots
    assert 'data-path="P"' in svg and "<path" in svg   # the edge back up is a curve


def test_coverage_lists_rules_that_never_fired(tiny):
    dom = tiny["dom"]
    never = tiny["coverage"].never_fired
    page = tiny["page"]
    assert f"<b>{len(never)}</b> never" in page
    for rid in never:
        assert dom.having("data-rule", rid)


def test_exhaustive_proofs_name_their_scope(tiny):
    held = [x for x in tiny["vs"] if x.verdict is Verdict.HOLDS]
    page, dom = tiny["page"], tiny["dom"]
    assert "Exhaustive search" in page and f"{tiny['states']:,} states" in page
    assert [a["data-property"] for a in dom.having("data-kind", "exhaustive")] == \
        [x.id for x in held]
    # each verdict's link in the table leads to its evidence
    for x in tiny["vs"]:
        want = "trace-" + x.id if x.verdict is Verdict.VIOLATED else "proof-" + x.id
        assert dom.having("id", want), want


@pytest.mark.slow
def test_inductive_proof_names_rules_sentences_and_invariants():
    """A symbolic proof's evidence: the rules of its cores, their sentences and
    the invariants (a real proof from the symbolic checker at a tiny table; 5 s)."""
    from itcp.checks.symbolic.checker import symbolic_verdicts
    game = Game.from_variant(load_with("clarified", dict(TINY, options=())))
    vs, _ = symbolic_verdicts(game, ["SCORE_DEFINED"], timeout=60)
    v = vs[0]
    ev = v.evidence.as_json()
    assert v.verdict is Verdict.HOLDS and ev["kind"] == "inductive"
    html = proof_html(game, v)
    dom = Dom(html)
    assert [a["data-rule"] for a in dom.having("data-rule")] == ev["rules"]
    cited = {s for r in ev["rules"] for s in game.spec.rule(r).sentences}
    assert {a["data-sentence"] for a in dom.having("data-sentence")} == cited
    assert [a["data-invariant"] for a in dom.having("data-invariant")] == ev["invariants"]
    # with --engine all the merged verdict is the exhaustion; the Z3 proof is shown too
    from itcp.report.html import proofs_html
    (explicit,) = Check(load_with("clarified", dict(TINY, options=())), ("SCORE_DEFINED",),
                        game=game).run().results
    both = proofs_html(game, [explicit], also=[v])
    assert 'id="proof-SCORE_DEFINED"' in both and 'id="z3-proof-SCORE_DEFINED"' in both
    assert both.count('data-rule="') == len(ev["rules"])


def test_sweep_matrix_cells_link_to_their_traces(tiny):
    """Four tables: the tiny one (FROZEN violated), the same without option cards,
    the tiny one again with its traces linked elsewhere, and the tiny one stopped
    by a state limit (every verdict UNKNOWN, naming the limit)."""
    from itcp.report.sweep import SweepColumn, cell_anchor, sweep_page
    cols = [SweepColumn("tiny", tiny["game"], tiny["vs"], note=f"{tiny['states']} states")]
    plain = Check(load_with("official", dict(TINY, options=()))).run()
    cols.append(SweepColumn("no option cards", plain.game, plain.results))
    cols.append(SweepColumn("tiny, linked", tiny["game"], tiny["vs"],
                            links={"FROZEN": "saved/official-FROZEN.itf.json"}))
    cols.append(SweepColumn("tiny, 50 states", tiny["game"],
                            Check(tiny["variant"], limits=Limits(max_states=50),
                                  game=tiny["game"]).run().results))
    page = sweep_page(cols, "sweep of official", tiny["variant"])
    dom = Dom(page)
    cells = {(a["data-property"], int(a["data-column"])): a.get("data-verdict")
             for t, a in dom.tags if t == "td" and "data-column" in a}
    for k, c in enumerate(cols):
        for v in c.verdicts:
            assert cells[(v.id, k)] == v.verdict
    assert cells[("FROZEN", 0)] == Verdict.VIOLATED and cells[("FROZEN", 3)] == "UNKNOWN"
    frozen = next(v for v in tiny["vs"] if v.id == "FROZEN")
    # the violated cell links to the stepper drawn on the page, with the trace's length
    anchor = cell_anchor("FROZEN", 0)
    assert f'href="#{anchor}"' in page and dom.having("id", anchor)
    assert f"{frozen.evidence.as_json()['length']} moves" in page
    # a cell with a link elsewhere points there and draws no stepper
    assert 'href="saved/official-FROZEN.itf.json"' in page
    assert not dom.having("id", cell_anchor("FROZEN", 2))
    # an UNKNOWN cell names its limit
    limited = [a for t, a in dom.tags if t == "td" and a.get("data-column") == "3"]
    assert len(limited) == len(cols[3].verdicts)
    assert page.count("--max-states 50") >= len(limited)
    # every card drawn in any column has its picture
    symbols = {a["id"] for t, a in dom.tags if t == "symbol"}
    assert {a["href"].lstrip("#") for t, a in dom.tags if t == "use"} <= symbols
