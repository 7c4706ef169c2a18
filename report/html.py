"""The HTML report of a check (``itcp-check check --html``) and of an answer
(``itcp-check ask --html``).

Built from the objects the command already computed: the variant, the game,
the verdicts (with their traces and evidence), the search's statistics and rule
coverage, and for small runs the exploration itself (its state graph).  The
page shows, in order: the variant, its readings and table; the verdict table;
each violation's trace as a stepper; what each proof rests on (rules, rulebook
sentences, invariants); the state graph (small runs); rule coverage.
"""
from __future__ import annotations

from itcp.checks.results import (
    Exhaustive,
    Inductive,
    Ranking,
    Report,
    SearchStats,
    StateGraph,
    SymbolicStats,
    Verdict,
)
from itcp.model.engine.engine import Game
from itcp.spec.rulebook import rule_core

from .graph import GRAPH_MAX_STATES, GraphNode, graph_svg
from .page import (
    document,
    e,
    readings_html,
    rules_list,
    sentence_html,
    stepper_html,
    variant_header,
    verdict_badge,
)
from .view import rule_note, told_view


def trace_anchor(pid: str, suffix: str = "") -> str:
    return f"trace-{pid}" + (f"-{suffix}" if suffix else "")


def verdict_anchor(v) -> str:
    """Where the page shows a verdict's evidence."""
    return {Verdict.VIOLATED: trace_anchor(v.id), Verdict.HOLDS: f"proof-{v.id}"}.get(
        v.verdict, f"unknown-{v.id}")


# -- verdicts ---------------------------------------------------------------------------

def verdict_table(vs) -> str:
    rows = ['<table class="grid verdicts"><tr><th>property</th><th>verdict</th><th>engine</th>'
            '<th>evidence</th><th>what it says</th></tr>']
    for v in vs:
        note = e(v.evidence.brief())
        if v.verdict is Verdict.VIOLATED:
            ev = f'<a href="#{trace_anchor(v.id)}">{note}</a>'
        elif v.verdict is Verdict.HOLDS:
            ev = f'<a href="#proof-{e(v.id)}">{note}</a>'
        else:
            ev = note
        if v.other is not None:
            ev += f'<div class="sub">{e(v.other.engine)} engine: {e(v.other.text())}</div>'
        rows.append(f'<tr data-property="{e(v.id)}" data-verdict="{e(v.verdict)}">'
                    f'<td><code>{e(v.id)}</code></td><td>{verdict_badge(v.verdict)}</td>'
                    f"<td>{e(v.engine)}</td><td>{ev}</td><td>{e(v.statement)}</td></tr>")
    rows.append("</table>")
    return "".join(rows)


def violations_html(game: Game, vs) -> str:
    bad = [v for v in vs if v.verdict is Verdict.VIOLATED and v.trace is not None]
    if not bad:
        return ""
    out = ["<h2>Violations, step by step</h2>"]
    for v in bad:
        out.append(stepper_html(told_view(game, v.trace), trace_anchor(v.id),
                                f"{v.id}: {v.statement}"))
    return "".join(out)


def _sentences_of(notes) -> str:
    seen: dict[str, str] = {}
    for n in notes:
        for sid, text in n.sentences:
            seen.setdefault(sid, text)
    return "".join(sentence_html(s, t) for s, t in sorted(seen.items()))


#: what each kind of symbolic proof shows, in a sentence
PROOF_WHAT = {"inductive": "<b>Induction (Z3).</b> Every state satisfying the invariants "
                           "below satisfies the property, and every action keeps it so",
              "proof": "<b>A per-action proof (Z3).</b> For every action, the same state "
                       "and choice give one successor",
              "ranking": "<b>A ranking function (Z3).</b> Every step between two states "
                         "after a Pass lowers the tuple ({}), compared first "
                         "component first, and no component is negative: no cycle"}


def proof_html(game: Game, v, anchor: str | None = None) -> str:
    """What a HOLDS verdict rests on: the exhausted search's scope, or the rules
    of a symbolic proof's minimised cores with their rulebook sentences and
    readings, and the invariants it assumed (each proved).  ``anchor``: the
    section's id (by default ``proof-<ID>``)."""
    ev = v.evidence
    kind = ev.kind
    head = (f'<div class="proof" id="{e(anchor or f"proof-{v.id}")}" data-property="{e(v.id)}" '
            f'data-kind="{e(kind)}"><h3><code>{e(v.id)}</code> {verdict_badge(v.verdict)}</h3>'
            f"<p>{e(v.statement)}</p>")
    body = []
    support = ev.rests_on()
    if isinstance(ev, Exhaustive):
        body.append(f"<p><b>Exhaustive search.</b> {e(ev.scope)}"
                    f"{' (symmetry reduction on)' if ev.symmetry else ''}. "
                    "A proof for this table only: every rule of the variant took part in the "
                    "search, none is singled out.</p>")
        if ev.method:
            body.append(f'<p class="note">{e(ev.method)}</p>')
    elif support is not None:
        notes = [rule_note(game.spec, r) for r in support.rules if _has_rule(game, r)]
        what = PROOF_WHAT[kind].format(
            e(", ".join(ev.components)) if isinstance(ev, Ranking) else "")
        body.append(f"<p>{what}; scope: {e(support.scope)}.</p>")
        if support.note:
            body.append(f'<p class="note">{e(support.note)}</p>')
        if support.core_note:
            body.append(f'<p class="note">{e(support.core_note)}</p>')
        body.append(f"<h4>The rules it rests on ({len(notes)})</h4>" + rules_list(notes, False))
        sents = _sentences_of(notes)
        if sents:
            body.append("<h4>The rulebook sentences behind them</h4>" + sents)
        invs, stmts = support.invariants, support.statements
        if invs:
            body.append("<h4>The invariants it assumes (each proved with it)</h4><ul>"
                        + "".join(f'<li data-invariant="{e(i)}"><code>{e(i)}</code>: '
                                  f'{e(stmts.get(i, ""))}</li>' for i in invs) + "</ul>")
        if isinstance(ev, Inductive) and ev.by_frame:
            body.append('<p class="note">Preserved by their frame (they write nothing the '
                        f'property reads): {e(", ".join(ev.by_frame))}</p>')
    else:
        body.append(f"<p>{e(kind)}</p>")
    if v.other is not None:
        body.append(f'<p class="note">The {e(v.other.engine)} engine: {e(v.other.text())}.</p>')
    return head + "".join(body) + "</div>"


def exhaustive_html(vs) -> str:
    """The properties an exhausted search proves, in one table: the search is the
    same for all (its scope), what each adds is its own line."""
    ev = vs[0].evidence
    rows = []
    for v in vs:
        x = v.evidence
        extra = x.range_text() or x.method or ""
        if v.other is not None:
            o = v.other
            extra += (f" (the {o.engine} engine: {o.verdict}"
                      + (f", {o.kind}" if o.kind else "") + ")")
        rows.append(f'<tr id="proof-{e(v.id)}" class="proof" data-property="{e(v.id)}" '
                    f'data-kind="exhaustive"><td><code>{e(v.id)}</code></td>'
                    f"<td>{e(v.statement)}</td><td class=\"sub\">{e(extra)}</td></tr>")
    return (f"<p><b>Exhaustive search</b> for {len(vs)} "
            f"propert{'ies' if len(vs) != 1 else 'y'}: {e(ev.scope)}"
            f"{' (symmetry reduction on)' if ev.symmetry else ''}. Every state "
            "reachable from every deal was visited and the property checked there: a proof "
            "for this table only, resting on every rule of the variant (none singled "
            "out).</p>"
            '<table class="grid"><tr><th>property</th><th>what it says</th><th></th></tr>'
            + "".join(rows) + "</table>")


def _has_rule(game: Game, rid: str) -> bool:
    return any(r.id == rid for r in game.spec.rules)


def proofs_html(game: Game, vs, also=()) -> str:
    """Every HOLDS verdict's evidence; ``also`` are the other engine's verdicts
    (``--engine all``), whose symbolic proofs are shown beside an exhaustion."""
    held = [v for v in vs if v.verdict is Verdict.HOLDS]
    unknown = [v for v in vs if v.verdict is Verdict.UNKNOWN]
    out = []
    if held:
        out.append("<h2>What each proof rests on</h2>")
        exhausted = [v for v in held if isinstance(v.evidence, Exhaustive)]
        if exhausted:
            out.append(exhaustive_html(exhausted))
        out += [proof_html(game, v) for v in held if v not in exhausted]
        shown = {v.id for v in held if v not in exhausted}
        extra = [v for v in also if v.verdict is Verdict.HOLDS and v.id not in shown
                 and v.evidence.rests_on() is not None]
        if extra:
            out.append("<h3>The symbolic engine's proofs of the same properties</h3>")
            out += [proof_html(game, v, f"z3-proof-{v.id}") for v in extra]
    if unknown:
        out.append("<h2>No verdict</h2><ul>")
        out += [f'<li id="unknown-{e(v.id)}" data-property="{e(v.id)}"><code>{e(v.id)}</code>: '
                f'{e(v.evidence.brief())}</li>' for v in unknown]
        out.append("</ul>")
    return "".join(out)


def coverage_html(game: Game, coverage) -> str:
    """Which rules took part in some step at this table, and which never did (a
    check of a rule that never fired may be vacuous)."""
    never, fired = coverage.never_fired, coverage.fired
    sampled = (" Rule firings were sampled once no new rule appeared for a while."
               if coverage.sampled else "")
    out = [f"<h2>Rule coverage</h2><p>{len(fired)} rules fired; <b>{len(never)}</b> never "
           f"fired at this table (checks may be vacuous for them).{sampled}</p>"]
    if never:
        out.append('<div class="never">' + rules_list(
            [rule_note(game.spec, r) for r in never if _has_rule(game, r)], False) + "</div>")
    if fired:
        out.append("<details><summary>the rules that fired</summary>"
                   + rules_list([rule_note(game.spec, r) for r in fired if _has_rule(game, r)],
                                False) + "</details>")
    return "".join(out)


# -- the state graph -------------------------------------------------------------------------

def graph_section(graph: StateGraph | None, game: Game, vs) -> str:
    """The explored state graph with each violation's path, for small runs."""
    if graph is None:
        return ""
    head = "<h2>The explored state graph</h2>"
    if graph.states > GRAPH_MAX_STATES:
        return (head + f'<p class="note" data-graph="omitted">{graph.states:,} states: too many '
                f"to draw (the picture is drawn up to {GRAPH_MAX_STATES:,} states; a smaller "
                "table, e.g. <code>--suits 1 --options pride_cycle</code>, or "
                "<code>--max-states</code> gives one). <code>--graph FILE</code> exports the "
                "graph as GraphML or DOT.</p>")
    es = graph.edges()
    dead = graph.deadlocks
    nodes = {}
    for i in range(graph.states):
        s = graph.state(i)
        d = game.describe(s)
        depth = graph.depth(i)
        kind = ("deadlock" if i in dead else "terminal" if game.is_terminal(s)
                else "deal" if depth == 0 else "state")
        who = game.current_player(s)
        title = (f"state {i}, {depth} move(s) after the deal: phase {d['phase']}"
                 + (f", P{who} to move" if who >= 0 else "")
                 + (f", round over ({d['ended']})" if game.is_terminal(s) else "")
                 + "; hands " + " | ".join(d["hands"]))
        nodes[i] = GraphNode(depth, kind, title)
    paths: dict[str, list[int]] = {}
    for v in vs:
        t = v.trace
        if v.verdict is Verdict.VIOLATED and t is not None and t.states is not None:
            found = [graph.number_of(s) for s in t.states]
            nums = [x for x in found if x is not None]
            if len(nums) == len(found):
                paths[f"{v.id} ({len(nums) - 1} moves)"] = nums
    cap = (f"{graph.states:,} states and {len(es):,} transitions, one layer per move after the "
           "deal" + (" (symmetry reduction on: a state stands for its suit and copy "
                     "permutations)" if graph.symmetry else ""))
    return (head + f"<p>{e(cap)}. Hover a state for its description; violations are drawn "
            f"in colour.</p><div class=\"graph-wrap\" data-graph=\"drawn\">"
            + graph_svg(nodes, es, paths, cap) + "</div>")


# -- the check page -----------------------------------------------------------------------

def search_stats_line(st: SearchStats) -> str:
    return (f"explicit-state search: {st.states:,} states, "
            f"{st.transitions:,} transitions, depth {st.depth}, "
            f"{st.seconds:.1f} s"
            + (f", symmetry reduction on ({st.symmetries} symmetries)"
               if st.symmetry and st.symmetries > 1 else "")
            + ("" if st.complete else f"; stopped by {st.limit}"))


def symbolic_stats_line(st: SymbolicStats) -> str:
    return f"symbolic (Z3): {st.queries} queries, {st.seconds:.1f} s"


def check_page(report: Report) -> str:
    """The report of ``itcp-check check``: one self-contained HTML page.  With
    ``--engine all``, the symbolic engine's own results (``report.also``) have
    their proofs shown too, not only the merged verdict's."""
    variant, game, vs = report.variant, report.game, report.results
    assert game is not None   # a page is drawn only for a check that compiled its game
    counts = {k: sum(v.verdict is k for v in vs) for k in Verdict}
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    if report.search is not None:
        line = search_stats_line(report.search)
        if report.symbolic is not None:
            line = f"{e(line)}<br>{e(symbolic_stats_line(report.symbolic))}"
        else:
            line = e(line)
    else:
        assert report.symbolic is not None
        line = e(symbolic_stats_line(report.symbolic))
    chips = " ".join(
        f'<a href="#{verdict_anchor(v)}">'
        f'<span class="v v-{e(v.verdict)}" title="{e(v.statement)}">{e(v.id)}</span></a>'
        for v in vs)
    body = [variant_header(variant, f"itcp-check: {variant.name}"),
            f'<p class="chips">{chips}</p>',
            "<h2>Readings</h2>", readings_html(variant),
            "<h2>Verdicts</h2>",
            f'<p class="sub">engine {e(report.engine)}; {line}</p>',
            f"<p><b>{e(summary)}</b>. HOLDS only with an exhausted search or a proof; "
            "UNKNOWN names the limit that stopped it.</p>",
            verdict_table(vs), violations_html(game, vs), proofs_html(game, vs, report.also),
            graph_section(report.graph, game, vs)]
    if report.coverage is not None:
        body.append(coverage_html(game, report.coverage))
    return document(f"itcp-check {variant.name}: {summary}", "".join(body), game.config.cards)


# -- the answer page --------------------------------------------------------------------------

def answer_page(variant, game: Game, answer) -> str:
    """The report of ``itcp-check ask``: the question, the answer and its
    evidence (a witness or counterexample as a stepper, or what the proofs rest
    on), and the scope."""
    ev = answer.evidence
    body = [variant_header(variant, f"{answer.answer.upper()}: {answer.question}"),
            f'<p class="answer" data-answer="{e(answer.answer)}">'
            f'<span class="v v-{e(answer.answer)}">{e(answer.answer.upper())}</span> '
            f"<b>{e(answer.question)}</b></p>",
            f"<p><b>Scope:</b> {e(answer.scope)}</p>"]
    trace = answer.trace
    if trace is not None and trace.states is not None:
        shape = ev.get("shape") or ("witness" if ev.get("kind") == "witness" else "trace")
        title = {"witness": "The witness", "lasso": "The counterexample (a lasso)",
                 "dead end": "The counterexample (a dead end)"}.get(shape, "The trace")
        body.append(f"<h2>{e(title)}, step by step</h2>"
                    + stepper_html(told_view(game, trace), "trace-answer", answer.question))
        if answer.scenario:
            body.append(f"<p>Saved as <code>{e(answer.scenario)}</code>: "
                        f"<code>itcp-check replay {e(answer.scenario)} --story</code> tells "
                        "it again.</p>")
    exh = ev.get("exhaustive") or (ev if ev.get("kind") == "exhaustive" else None)
    if exh:
        body.append("<h2>The exhausted search</h2>"
                    f"<p>{e(exh.get('scope', ''))}: {exh.get('states', 0):,} states, depth "
                    f"{exh.get('depth', 0)}.</p>"
                    + (f'<p class="note">{e(exh["method"])}</p>' if exh.get("method") else ""))
    proofs = ev.get("proofs") or []
    if proofs:
        rows = ['<table class="grid proofs"><tr><th>players</th><th>Z3</th><th>core rules / '
                "note</th><th>invariants used</th></tr>"]
        for p in proofs:
            what = (", ".join(p.get("rules", [])) if p["verdict"] == "proved"
                    else p.get("note", ""))
            rows.append(f'<tr data-players="{p["players"]}"><td>{p["players"]}</td>'
                        f'<td>{e(p["verdict"])}</td><td>{e(what)}</td>'
                        f'<td>{e(", ".join(p.get("invariants", []) or []))}</td></tr>')
        rows.append("</table>")
        body.append("<h2>Proofs by induction</h2>" + "".join(rows))
    if ev.get("rules") and ev.get("kind") != "witness":
        core = rule_core(game.spec, ev["rules"])
        notes = [rule_note(game.spec, r) for r in core["rules"]]
        body.append("<h2>What the proofs rest on</h2>" + rules_list(notes, False)
                    + "<h4>The rulebook sentences</h4>" + _sentences_of(notes))
    if ev.get("comparisons"):
        body.append("<h2>The readings compared</h2><pre>"
                    + e("\n".join(answer.lines)) + "</pre>")
    body.append("<h2>The answer as the terminal gives it</h2><details><summary>show</summary>"
                f"<pre>{e(chr(10).join(answer.lines))}</pre></details>")
    return document(f"{answer.answer.upper()}: {answer.question}", "".join(body),
                    game.config.cards)


__all__ = ["check_page", "answer_page", "verdict_table", "proof_html", "exhaustive_html",
           "coverage_html", "graph_section", "violations_html", "trace_anchor",
           "search_stats_line", "symbolic_stats_line"]
