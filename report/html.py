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

from itcp.checks.explicit.explore import edges, number_of, state
from itcp.checks.explicit.verdicts import HOLDS, UNKNOWN, VIOLATED
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
    return {VIOLATED: trace_anchor(v.id), HOLDS: f"proof-{v.id}"}.get(v.verdict,
                                                                    f"unknown-{v.id}")


# -- verdicts ---------------------------------------------------------------------------

def verdict_note(v) -> str:
    """One line of evidence, as the text report gives it."""
    ev = v.evidence
    kind = ev.get("kind")
    if v.verdict == VIOLATED:
        n = ev.get("length", 0)
        how = {"bmc": "BMC trace, replayed by the engine"}.get(kind, "shortest trace")
        return (f"{how}: {n} move{'s' * (n != 1)}" + (" (a lasso)" if ev.get("lasso") else ""))
    if v.verdict == HOLDS:
        if kind == "exhaustive":
            extra = (f": hands hold {ev['min_hand']} to {ev['max_hand']} cards"
                     if "min_hand" in ev else "")
            return f"exhaustive over {ev['states']:,} states{extra}"
        if kind == "inductive":
            inv = ev.get("invariants") or []
            return (f"{ev.get('k', 1)}-inductive (Z3), {len(ev.get('rules', []))} rules"
                    + (f", {len(inv)} invariant{'s' * (len(inv) != 1)}" if inv else ""))
        if kind == "proof":
            return f"proved for every state (Z3), {len(ev.get('rules', []))} rules"
        if kind == "ranking":
            return (f"ranking function of {len(ev.get('ranking', []))} components (Z3), "
                    f"{len(ev.get('rules', []))} rules")
        return kind or ""
    return ev.get("note") or (f"stopped by {ev['limit']}" if ev.get("limit") else "no verdict")


def verdict_table(vs) -> str:
    rows = ['<table class="grid verdicts"><tr><th>property</th><th>verdict</th><th>engine</th>'
            '<th>evidence</th><th>what it says</th></tr>']
    for v in vs:
        if v.verdict == VIOLATED:
            ev = f'<a href="#{trace_anchor(v.id)}">{e(verdict_note(v))}</a>'
        elif v.verdict == HOLDS:
            ev = f'<a href="#proof-{e(v.id)}">{e(verdict_note(v))}</a>'
        else:
            ev = e(verdict_note(v))
        other = v.evidence.get("other_engine")
        if other:
            ev += (f'<div class="sub">{e(other["engine"])} engine: {e(other["verdict"])}'
                   + (f' ({e(other["kind"])})' if other.get("kind") else "") + "</div>")
        rows.append(f'<tr data-property="{e(v.id)}" data-verdict="{e(v.verdict)}">'
                    f'<td><code>{e(v.id)}</code></td><td>{verdict_badge(v.verdict)}</td>'
                    f"<td>{e(v.engine)}</td><td>{ev}</td><td>{e(v.statement)}</td></tr>")
    rows.append("</table>")
    return "".join(rows)


def violations_html(game: Game, vs) -> str:
    bad = [v for v in vs if v.verdict == VIOLATED and v.trace is not None]
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


def proof_html(game: Game, v) -> str:
    """What a HOLDS verdict rests on: the exhausted search's scope, or the rules
    of a symbolic proof's minimised cores with their rulebook sentences and
    readings, and the invariants it assumed (each proved)."""
    ev = v.evidence
    kind = ev.get("kind")
    head = (f'<div class="proof" id="proof-{e(v.id)}" data-property="{e(v.id)}" '
            f'data-kind="{e(kind)}"><h3><code>{e(v.id)}</code> {verdict_badge(v.verdict)}</h3>'
            f"<p>{e(v.statement)}</p>")
    body = []
    if kind == "exhaustive":
        body.append(f"<p><b>Exhaustive search.</b> {e(ev.get('scope', ''))}"
                    f"{' (symmetry reduction on)' if ev.get('symmetry') else ''}. "
                    "A proof for this table only: every rule of the variant took part in the "
                    "search, none is singled out.</p>")
        if ev.get("method"):
            body.append(f'<p class="note">{e(ev["method"])}</p>')
    elif kind in ("inductive", "proof", "ranking"):
        notes = [rule_note(game.spec, r) for r in ev.get("rules", [])
                 if _has_rule(game, r)]
        what = {"inductive": "<b>Induction (Z3).</b> Every state satisfying the invariants "
                             "below satisfies the property, and every action keeps it so",
                "proof": "<b>A per-action proof (Z3).</b> For every action, the same state "
                         "and choice give one successor",
                "ranking": "<b>A ranking function (Z3).</b> Every step between two states "
                           "after a Pass lowers the tuple ("
                           + e(", ".join(ev.get("ranking", []))) + "), compared first "
                           "component first, and no component is negative: no cycle"}[kind]
        body.append(f"<p>{what}; scope: {e(ev.get('scope', ''))}.</p>")
        if ev.get("note"):
            body.append(f'<p class="note">{e(ev["note"])}</p>')
        if ev.get("core_note"):
            body.append(f'<p class="note">{e(ev["core_note"])}</p>')
        body.append(f"<h4>The rules it rests on ({len(notes)})</h4>" + rules_list(notes, False))
        sents = _sentences_of(notes)
        if sents:
            body.append("<h4>The rulebook sentences behind them</h4>" + sents)
        stmts = ev.get("invariant_statements") or {}
        invs = ev.get("invariants") or []
        if invs:
            body.append("<h4>The invariants it assumes (each proved with it)</h4><ul>"
                        + "".join(f'<li data-invariant="{e(i)}"><code>{e(i)}</code>: '
                                  f'{e(stmts.get(i, ""))}</li>' for i in invs) + "</ul>")
        if ev.get("by_frame"):
            body.append('<p class="note">Preserved by their frame (they write nothing the '
                        f'property reads): {e(", ".join(ev["by_frame"]))}</p>')
    else:
        body.append(f"<p>{e(kind)}</p>")
    other = ev.get("other_engine")
    if other:
        body.append(f'<p class="note">The {e(other["engine"])} engine: {e(other["verdict"])}'
                    + (f' ({e(other["kind"])})' if other.get("kind") else "") + ".</p>")
    return head + "".join(body) + "</div>"


def exhaustive_html(vs) -> str:
    """The properties an exhausted search proves, in one table: the search is the
    same for all (its scope), what each adds is its own line."""
    ev = vs[0].evidence
    rows = []
    for v in vs:
        x = v.evidence
        extra = x.get("method", "")
        if "min_hand" in x:
            extra = f"hands hold {x['min_hand']} to {x['max_hand']} cards"
        other = x.get("other_engine")
        if other:
            extra += (f" (the {other['engine']} engine: {other['verdict']}"
                      + (f", {other['kind']}" if other.get("kind") else "") + ")")
        rows.append(f'<tr id="proof-{e(v.id)}" class="proof" data-property="{e(v.id)}" '
                    f'data-kind="exhaustive"><td><code>{e(v.id)}</code></td>'
                    f"<td>{e(v.statement)}</td><td class=\"sub\">{e(extra)}</td></tr>")
    return (f"<p><b>Exhaustive search</b> for {len(vs)} "
            f"propert{'ies' if len(vs) != 1 else 'y'}: {e(ev.get('scope', ''))}"
            f"{' (symmetry reduction on)' if ev.get('symmetry') else ''}. Every state "
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
    held = [v for v in vs if v.verdict == HOLDS]
    unknown = [v for v in vs if v.verdict == UNKNOWN]
    out = []
    if held:
        out.append("<h2>What each proof rests on</h2>")
        exhausted = [v for v in held if v.evidence.get("kind") == "exhaustive"]
        if exhausted:
            out.append(exhaustive_html(exhausted))
        out += [proof_html(game, v) for v in held if v not in exhausted]
        shown = {v.id for v in held if v not in exhausted}
        extra = [v for v in also if v.verdict == HOLDS and v.id not in shown
                 and v.evidence.get("kind") in ("inductive", "proof", "ranking")]
        if extra:
            out.append("<h3>The symbolic engine's proofs of the same properties</h3>")
            out += [proof_html(game, v).replace(f'id="proof-{v.id}"', f'id="z3-proof-{v.id}"')
                    for v in extra]
    if unknown:
        out.append("<h2>No verdict</h2><ul>")
        out += [f'<li id="unknown-{e(v.id)}" data-property="{e(v.id)}"><code>{e(v.id)}</code>: '
                f'{e(verdict_note(v))}</li>' for v in unknown]
        out.append("</ul>")
    return "".join(out)


def coverage_html(game: Game, coverage: dict) -> str:
    """Which rules took part in some step at this table, and which never did (a
    check of a rule that never fired may be vacuous)."""
    never = coverage.get("never_fired", [])
    fired = coverage.get("fired", [])
    sampled = (" Rule firings were sampled once no new rule appeared for a while."
               if coverage.get("sampled") else "")
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

def graph_section(ex, vs) -> str:
    """The explored state graph with each violation's path, for small runs."""
    if ex is None:
        return ""
    head = "<h2>The explored state graph</h2>"
    if ex.states > GRAPH_MAX_STATES:
        return (head + f'<p class="note" data-graph="omitted">{ex.states:,} states: too many to '
                f"draw (the picture is drawn up to {GRAPH_MAX_STATES:,} states; a smaller "
                "table, e.g. <code>--suits 1 --options pride_cycle</code>, or "
                "<code>--max-states</code> gives one). <code>--graph FILE</code> exports the "
                "graph as GraphML or DOT.</p>")
    game = ex.game
    es = edges(ex)
    dead = set(ex.deadlocks)
    nodes = {}
    for i in range(ex.states):
        s = state(ex, i)
        d = game.describe(s)
        kind = ("deadlock" if i in dead else "terminal" if game.is_terminal(s)
                else "deal" if ex.depth_of[i] == 0 else "state")
        who = game.current_player(s)
        title = (f"state {i}, {ex.depth_of[i]} move(s) after the deal: phase {d['phase']}"
                 + (f", P{who} to move" if who >= 0 else "")
                 + (f", round over ({d['ended']})" if game.is_terminal(s) else "")
                 + "; hands " + " | ".join(d["hands"]))
        nodes[i] = GraphNode(ex.depth_of[i], kind, title)
    paths: dict[str, list[int]] = {}
    for v in vs:
        if v.verdict == VIOLATED and v.trace is not None and "raw" in v.trace:
            found = [number_of(ex, s) for s in v.trace["raw"]["states"]]
            nums = [x for x in found if x is not None]
            if len(nums) == len(found):
                paths[f"{v.id} ({len(nums) - 1} moves)"] = nums
    cap = (f"{ex.states:,} states and {len(es):,} transitions, one layer per move after the "
           "deal" + (" (symmetry reduction on: a state stands for its suit and copy "
                     "permutations)" if ex.symmetry else ""))
    return (head + f"<p>{e(cap)}. Hover a state for its description; violations are drawn "
            f"in colour.</p><div class=\"graph-wrap\" data-graph=\"drawn\">"
            + graph_svg(nodes, es, paths, cap) + "</div>")


# -- the check page -----------------------------------------------------------------------

def stats_line(stats: dict) -> str:
    if "states" in stats:
        return (f"explicit-state search: {stats['states']:,} states, "
                f"{stats['transitions']:,} transitions, depth {stats['depth']}, "
                f"{stats['seconds']:.1f} s"
                + (f", symmetry reduction on ({stats['symmetries']} symmetries)"
                   if stats.get("symmetry") and stats.get("symmetries", 1) > 1 else "")
                + ("" if stats.get("complete", True) else f"; stopped by {stats['limit']}"))
    return (f"symbolic (Z3): {stats.get('queries', 0)} queries, "
            f"{stats.get('seconds', 0):.1f} s")


def check_page(variant, game: Game, vs, stats: dict, coverage: dict | None = None,
               ex=None, engine: str = "explicit", also=()) -> str:
    """The report of ``itcp-check check``: one self-contained HTML page.  ``also``:
    with ``--engine all``, the symbolic engine's own verdicts (their proofs are shown
    too, not only the merged verdict's)."""
    counts = {k: sum(v.verdict == k for v in vs) for k in (HOLDS, VIOLATED, UNKNOWN)}
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    extra = ""
    if "symbolic" in stats:
        extra = f"<br>{e(stats_line(stats['symbolic']))}"
    chips = " ".join(
        f'<a href="#{verdict_anchor(v)}">'
        f'<span class="v v-{e(v.verdict)}" title="{e(v.statement)}">{e(v.id)}</span></a>'
        for v in vs)
    body = [variant_header(variant, f"itcp-check: {variant.name}"),
            f'<p class="chips">{chips}</p>',
            "<h2>Readings</h2>", readings_html(variant),
            "<h2>Verdicts</h2>",
            f'<p class="sub">engine {e(engine)}; {e(stats_line(stats))}{extra}</p>',
            f"<p><b>{e(summary)}</b>. HOLDS only with an exhausted search or a proof; "
            "UNKNOWN names the limit that stopped it.</p>",
            verdict_table(vs), violations_html(game, vs), proofs_html(game, vs, also),
            graph_section(ex, vs)]
    if coverage is not None:
        body.append(coverage_html(game, coverage))
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
    trace = getattr(answer, "trace", None)
    if trace is not None and "raw" in trace:
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
           "coverage_html",
           "graph_section", "violations_html", "trace_anchor", "verdict_note"]
