"""Answering a question: a witness, a proof, or the limit that stopped us.

The question's formulas are attached to the variant's spec as extra
properties, so the generated engine, the explorer and the symbolic checker
answer it exactly as they check the built-in properties:

* ``can P`` is a violation of ``always not P``: the breadth-first search's
  first violation is a shortest witness (saved as a scenario that replays);
  an exhausted search without one is a proof within the table, and the
  symbolic checker is asked for a 1-inductive proof at each requested size
  (by default 2..8 players with the full deck), naming the minimised core's
  rules, their rulebook sentences and readings.
* ``always P`` / ``never P`` the same, with the roles of YES and NO swapped.
* ``after E, eventually P`` is decided on the explored graph: from every
  state an E-step leads to, every path must reach a P-state.  A cycle or a
  dead end avoiding P is a counterexample (a lasso: a stem and a loop);
  otherwise the exhausted graph is the proof.
* ``differs CP`` compares the choice point's readings (``checks/questions/diff.py``).

Every answer states its scope in plain words.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import networkx as nx

from itcp.model.engine.engine import Game, build_spec
from itcp.scenarios.format import to_toml
from itcp.scenarios.save import end_expectation, trace_scenario
from itcp.scenarios.story import story
from itcp.spec.errors import ConfigError
from itcp.spec.properties import Kind
from itcp.spec.rulebook import rule_core
from itcp.spec.variants import FULL_DECK_OVERRIDES, Variant, load_variant

from ..explicit.explore import Exploration, Limits, concrete_trace, explore, path_to, state
from ..results import Inductive, Verdict
from ..symbolic.checker import symbolic_verdicts
from .answer import Answer, answer_word, slug
from .diff import differs_answer
from .language import Question, compile_question, mentions_cards, parse

#: player counts of the symbolic proofs by default
PROOF_SIZES = tuple(range(2, 9))


def table_scope(config) -> str:
    lo, hi = config.ranks
    suits = f"{config.suits} suit{'s' * (config.suits > 1)}"
    opts = ", ".join(n.replace("_", " ").title() for n, _ in config.options) or "no option cards"
    return (f"in every game with {config.players} players, {suits}, ranks {lo}-{hi}, "
            f"hand {config.hand}, {opts}")


def sizes_scope(sizes) -> str:
    sizes = sorted(sizes)
    if not sizes:
        return ""
    if sizes == list(range(sizes[0], sizes[-1] + 1)) and len(sizes) > 1:
        who = f"{sizes[0]}-{sizes[-1]} players"
    else:
        who = ", ".join(map(str, sizes)) + (" players" if sizes != [1] else " player")
    return f"in every game with {who} and the full deck"


# -- helpers --------------------------------------------------------------------------

# -- witnesses ---------------------------------------------------------------------------

def witness_trace(ex: Exploration, pid: str):
    """(states, actions) of the shortest violation of ``pid`` the search found."""
    game = ex.game
    w = ex.violations[pid]
    steps, last = concrete_trace(ex, path_to(ex, w[1]))
    states = [s for s, _ in steps] + [last]
    actions = [a for _, a in steps]
    if w[0] == "step":
        a, s2 = next((b, x) for b, x in game.successors(last)
                     if not game.check_property(pid, last, x))
        states.append(s2)
        actions.append(a)
    return states, actions


def save_witness(variant: Variant, game, states, actions, question: str, title: str,
                 save, name: str) -> str:
    """The trace as a scenario file, handed to the sink ``save`` (see
    ``scenarios/save.py``: the CLI's writes it all or nothing); its path."""
    sc = trace_scenario(variant, game, states, actions, end_expectation(game, states[-1]),
                        save.folder, title, question)
    return save.write(name, to_toml(sc))


# -- the search ------------------------------------------------------------------------

@dataclass
class Options:
    limits: Limits = field(default_factory=Limits)
    symmetry: bool = True
    proof_sizes: tuple = PROOF_SIZES
    proof_timeout: float | None = 600.0
    #: the table of the symbolic proofs, at each of ``proof_sizes`` players
    proof_table: dict = field(default_factory=lambda: dict(FULL_DECK_OVERRIDES))
    #: where witness scenarios go: a sink (``folder``, ``write(name, text)``;
    #: ``scenarios.save.Collected`` keeps them in memory), or None
    save: object = None
    progress: Callable[[str], None] | None = None
    #: what stopped the search when it was interrupted (a signal, the memory
    #: limit): a function returning its name, or None for "Ctrl-C"
    stopped: Callable[[], str | None] | None = None


def ask(text_or_q, variant: Variant, opts: Options | None = None) -> Answer:
    return ask_many([text_or_q], variant, opts)[0]


def ask_many(questions, variant: Variant, opts: Options | None = None,
             stems=None) -> list[Answer]:
    """Answer several questions at one table with one compiled game and one search
    (each question's formulas are properties ``Q1``, ``Q2``, ... of the same spec)."""
    opts = opts or Options()
    qs = [q if isinstance(q, Question) else parse(q) for q in questions]
    out: dict[int, Answer] = {}
    for i, q in enumerate(qs):
        if q.form == "differs":
            out[i] = differs_answer(q, variant, opts, stems[i] if stems else None)
    rest = [i for i in range(len(qs)) if i not in out]
    if rest:
        spec0 = build_spec(variant.config, dict(variant.readings))
        extra, pids = [], {}
        for i in rest:
            pid = "QUESTION" if len(rest) == 1 else f"QUESTION{i + 1}"
            f = compile_question(qs[i], spec0, pid)
            extra += [f["goal"]] + ([f["event"]] if f["event"] is not None else [])
            pids[i] = pid
        game = Game(spec0.with_properties(extra))
        sym = opts.symmetry and not any(
            mentions_cards(p) for i in rest for p in (qs[i].pred, qs[i].event) if p is not None)
        # every chance node a state of its own: the liveness graph's edges are moves
        ex = explore(game, opts.limits, symmetry=sym, track_rules=False, fold=False,
                     stopped=opts.stopped)  # a stop named as what caused it, not Ctrl-C
        for i in rest:
            if qs[i].form == "after":
                out[i] = _liveness(qs[i], variant, game, ex, opts, pids[i],
                                   stems[i] if stems else None)
            else:
                out[i] = _safety(qs[i], variant, game, ex, opts, pids[i],
                                 stems[i] if stems else None)
    return [out[i] for i in range(len(qs))]


def _exhaustive(ex) -> dict:
    return {"kind": "exhaustive", "states": ex.states, "transitions": ex.transitions,
            "depth": ex.depth, "symmetry": ex.symmetry,
            "scope": table_scope(ex.game.config)}


def _safety(q: Question, variant, game, ex, opts, pid="QUESTION", stem=None) -> Answer:
    if pid in ex.violations:
        return _witnessed(q, variant, game, ex, opts, pid, stem)
    yes_if_found = q.form == "can"
    tbl = game.config.describe()
    proofs = symbolic_proofs(q, variant, opts)
    proved = [p["players"] for p in proofs if p["verdict"] == "proved"]
    counter = [p for p in proofs if p["verdict"] == "violated"]
    searched = (f"  the search stopped at {ex.limit} after {ex.states:,} states (depth "
                f"{ex.depth}): no answer at this table" if not ex.complete else
                f"  exhaustive: every deal and every play at {tbl}: {ex.states:,} states, "
                f"depth {ex.depth}" + (" (symmetry reduction on)" if ex.symmetry else ""))
    proof_lines = []
    for p in proofs:
        if p["verdict"] == "proved":
            proof_lines.append(f"  proved by induction (Z3) at {p['table']}: "
                               f"core rules {', '.join(p['rules']) or '(none)'}")
            if p.get("invariants"):
                proof_lines.append(f"    using the proved invariants {', '.join(p['invariants'])}")
        else:
            proof_lines.append(f"  Z3 at {p['players']} players, {_table_label(opts)}: "
                               f"{p['verdict'].upper()}: {p['note']}")
    if counter:
        # Z3 found (and the engine replayed) what the small table could not show
        c = counter[0]
        verdict = Verdict.VIOLATED
        scope = f"a game with {c['players']} players at {_table_label(opts)} (bounded model checking)"
        ev = {"kind": "witness", "scenario": None, "engine": "symbolic", "story": c["story"],
              "proofs": proofs}
        lines = [f"{answer_word(verdict, yes_if_found).upper()}: {q.text}",
                 f"  variant {variant.name}", searched]
        lines += proof_lines + ["  " + x for x in c["story"]] + [f"  scope: {scope}"]
        return Answer(q.text, variant.name, verdict, yes_if_found, scope, ev, lines, None, tbl)
    if not ex.complete and not proved:
        ev = {"kind": "bounded", "limit": ex.limit, "states": ex.states, "depth": ex.depth,
              "proofs": proofs}
        lines = [f"UNKNOWN: {q.text}", f"  variant {variant.name}; table {tbl}", searched]
        lines += proof_lines
        return Answer(q.text, variant.name, Verdict.UNKNOWN, yes_if_found,
                      f"nothing beyond {ex.states:,} states at this table ({ex.limit})",
                      ev, lines, None, tbl)
    verdict = Verdict.HOLDS
    parts = [table_scope(game.config)] if ex.complete else []
    if proved:
        full = opts.proof_table == dict(FULL_DECK_OVERRIDES)
        parts.append(sizes_scope(proved) if full else "by induction " + "; ".join(
            table_scope(load_variant_table(variant, opts.proof_table, n)).removeprefix("in ")
            for n in proved))
    scope = "; and ".join(parts)
    ev = {"kind": "inductive" if proofs and len(proved) == len(proofs) or not ex.complete
          else "exhaustive", "proofs": proofs}
    if ex.complete:
        ev["exhaustive"] = _exhaustive(ex)
    if proved:
        core = sorted({r for p in proofs if p["verdict"] == "proved" for r in p["rules"]})
        ev.update(rule_core(game.spec, core))
    lines = [f"{answer_word(verdict, yes_if_found).upper()}: {q.text}",
             f"  variant {variant.name}", searched] + proof_lines
    if proved:
        lines.append("  the proofs rest on:")
        for sid, text in ev["sentences"].items():
            lines.append(f"    [{sid}] {text}")
        for cp, r in ev["readings"].items():
            lines.append(f"    reading {cp} = {r}")
    lines.append(f"  scope: {scope}")
    return Answer(q.text, variant.name, verdict, yes_if_found, scope, ev, lines, None, tbl)


def _witnessed(q: Question, variant, game, ex, opts, pid: str, stem) -> Answer:
    """The answer when the search reached the question's state: YES (it can
    happen) or NO (a counterexample), with the shortest witness told and saved."""
    yes_if_found = q.form == "can"
    tbl = game.config.describe()
    states, actions = witness_trace(ex, pid)
    what = "it happens" if yes_if_found else "a counterexample"
    ending = (f"{q.text}: yes, at step {len(actions)}" if yes_if_found
              else f"{q.text}: no, it fails at step {len(actions)}")
    told = story(game, states, actions, ending)
    path = None
    if opts.save is not None:
        path = save_witness(variant, game, states, actions, q.text,
                            f"{q.text} ({variant.name}): {what}", opts.save,
                            f"{stem or slug(q.text)}--{slug(variant.name)}.toml")
    ev = {"kind": "witness", "scenario": path, "length": len(actions),
          "story": list(told.story), "rules": told.rules, "readings": told.readings}
    scope = (f"{table_scope(game.config)} (a shortest witness of {len(actions)} moves, "
             f"found by breadth-first search)")
    lines = [f"{answer_word(Verdict.VIOLATED, yes_if_found).upper()}: {q.text}",
             f"  variant {variant.name}; table {tbl}",
             f"  witness: {len(actions)} moves (shortest)"
             + (f", saved as {path}" if path else "")]
    lines += ["  " + x for x in told.story]
    if path:
        lines.append(f"  replay it: itcp-check replay {path} --story")
    return Answer(q.text, variant.name, Verdict.VIOLATED, yes_if_found, scope, ev, lines, path,
                  tbl, told)


def _table_label(opts) -> str:
    return ("the full deck" if opts.proof_table == dict(FULL_DECK_OVERRIDES)
            else ", ".join(f"{k} {v}" for k, v in opts.proof_table.items()))


def load_variant_table(variant, table, n):
    return load_variant(variant.path or variant.name, dict(table, players=n)).config


def _question_goal(q: Question, spec) -> list:
    """The question's goal as the property ``QUESTION`` of ``spec``."""
    return [compile_question(q, spec, "QUESTION")["goal"]]


def symbolic_proofs(q: Question, variant: Variant, opts: Options) -> list[dict]:
    """The symbolic checker at each requested size with the full deck."""
    out = []
    for n in opts.proof_sizes:
        table = dict(opts.proof_table, players=n)
        try:
            v = load_variant(variant.path or variant.name, table)
        except ConfigError as e:
            out.append({"players": n, "verdict": "unknown", "note": f"no such table: {e.message}"})
            continue
        spec0 = build_spec(v.config, dict(v.readings))
        game = Game(spec0.with_properties(_question_goal(q, spec0),
                                          partial(_question_goal, q)))
        if opts.progress:
            opts.progress(f"symbolic proof at {n} players, full deck")
        vs, _ = symbolic_verdicts(game, wanted=["QUESTION"], timeout=opts.proof_timeout)
        v0 = vs[0]
        ev = v0.evidence
        if v0.verdict is Verdict.HOLDS and isinstance(ev, Inductive):
            out.append({"players": n, "table": v.config.describe(),
                        "verdict": "proved", "kind": ev.kind, "rules": ev.support.rules,
                        "invariants": ev.support.invariants, "k": ev.k})
        elif v0.verdict is Verdict.VIOLATED:
            out.append({"players": n, "verdict": "violated", "kind": ev.kind,
                        "note": "the symbolic checker found a trace (replayed by the engine)",
                        "story": list(v0.trace.story) if v0.trace is not None else []})
        else:
            note = ev.summary() or ev.limit or "no answer"
            if ev.depth_reached is not None and ev.depth_reached < 0:
                note = (f"stopped by {ev.limit} before Z3 finished a proof or any "
                        "bounded depth")
            out.append({"players": n, "verdict": "unknown", "limit": ev.limit,
                        "note": note})
    return out


# -- liveness ----------------------------------------------------------------------------

def _liveness(q: Question, variant, game, ex, opts, pid="QUESTION", stem=None) -> Answer:
    tbl = game.config.describe()
    if not ex.complete:
        ev = {"kind": "bounded", "limit": ex.limit, "states": ex.states, "depth": ex.depth}
        return Answer(q.text, variant.name, Verdict.UNKNOWN, False,
                      f"nothing beyond {ex.states:,} states at this table ({ex.limit})", ev,
                      [f"UNKNOWN: {q.text}", f"  the search stopped at {ex.limit}"], None, tbl)
    g, roots, sinks = _event_graph(game, ex, pid)
    region, parent = _after_event(g, roots, lambda i: game.check_property(pid, state(ex, i)))

    def stem_of(i):
        out = []
        while i is not None:
            out.append(i)
            i = parent[i]
        out.reverse()
        return roots[out[0]][:-1] + out

    sub = g.subgraph(region)
    dead = sorted((i for i in region if i in sinks or game.is_terminal(state(ex, i))),
                  key=lambda i: len(stem_of(i)))
    cycle = _shortest_loop(sub, stem_of)
    exh = _exhaustive(ex)
    exh["method"] = ("every state reached after the event, on every path, reaches the goal: "
                     "no cycle and no dead end among the states after the event where the goal "
                     "has not yet held")
    exh["after_event_states"] = len(region)
    if cycle is None and not dead:
        scope = table_scope(game.config) + " (the explored graph, exhausted)"
        ev = dict(exh)
        lines = [f"YES: {q.text}", f"  variant {variant.name}",
                 f"  proof: exhaustive over the explored graph at {tbl}: {ex.states:,} states; "
                 f"no cycle and no dead end avoids the goal after the event "
                 f"({len(region):,} states lie between an event and the goal)",
                 f"  scope: {scope}"]
        return Answer(q.text, variant.name, Verdict.HOLDS, False, scope, ev, lines, None, tbl)
    return _never_reached(q, variant, game, ex, opts, stem, cycle, dead, stem_of)


def _event_graph(game, ex, pid: str):
    """The explored graph of ``ex`` without its terminal states' edges: (the
    graph, the states right after the event -> the path of state numbers to each,
    the live states with no move)."""
    event = next(p for p in game.spec.properties if p.id == pid + "_EVENT")
    index, key_of = ex._index, ex.key_of
    g = nx.DiGraph()
    roots: dict[int, list] = {}  # region root -> the path of state numbers to it
    sinks = []
    for i in range(ex.states):
        s = state(ex, i)
        if event.kind is Kind.STATE and game.check_property(pid + "_EVENT", s):
            roots.setdefault(i, path_to(ex, i))
        if game.is_terminal(s):
            continue
        succ = list(game.successors(s))
        if not succ:
            sinks.append(i)
        for _a, s2 in succ:
            j = index[key_of(s2)]
            g.add_edge(i, j)
            if event.kind is Kind.STEP and game.check_property(pid + "_EVENT", s, s2):
                if j not in roots or len(roots[j]) > len(path_to(ex, i)) + 1:
                    roots[j] = path_to(ex, i) + [j]
    return g, roots, sinks


def _after_event(g, roots: dict, goal):
    """The region: the states reached after the event without the goal (``goal(i)``
    of a state number) having held, breadth-first from the roots, nearest first;
    (the region, each state's parent in it: None for a root)."""
    region: set[int] = set()
    parent: dict[int, int | None] = {}
    frontier: list[int] = []
    for r in sorted(roots, key=lambda r: len(roots[r])):
        if not goal(r):
            region.add(r)
            parent[r] = None
            frontier.append(r)
    while frontier:
        nxt = []
        for i in frontier:
            for j in (g.successors(i) if i in g else ()):
                if j not in region and not goal(j):
                    region.add(j)
                    parent[j] = i
                    nxt.append(j)
        frontier = nxt
    return region, parent


def _shortest_loop(sub, stem_of) -> list | None:
    """A loop of ``sub`` entered where the stem is shortest, gone round the short
    way (its state numbers from the entry), or None when ``sub`` has none."""
    looping = [c for c in nx.strongly_connected_components(sub)
               if len(c) > 1 or any(sub.has_edge(n, n) for n in c)]
    if not looping:
        return None
    entry = min(set().union(*looping), key=lambda i: (len(stem_of(i)), i))
    comp = sub.subgraph(next(c for c in looping if entry in c))
    best = None
    for nxt in sorted(comp.successors(entry)):
        back = nx.shortest_path(comp, nxt, entry)
        if best is None or len(back) < len(best):
            best = back
    assert best is not None   # the entry is in a loop: it has a successor there
    return [entry] + best[:-1]


def _never_reached(q: Question, variant, game, ex, opts, stem, cycle, dead,
                   stem_of) -> Answer:
    """NO, with the counterexample: a lasso round ``cycle`` if there is one, else
    the first of the ``dead`` ends, told and saved (``opts.save``)."""
    tbl = game.config.describe()
    if cycle is not None:
        nums = stem_of(cycle[0]) + cycle[1:] + [cycle[0]]
        loop_from = len(stem_of(cycle[0])) - 1
        ending = (f"the position after step {loop_from} recurs: play can go round this loop "
                  f"forever after the event, and the goal never holds")
        kind = "lasso"
    else:
        nums = stem_of(dead[0])
        loop_from = None
        last = state(ex, dead[0])
        ending = ("the round is over and the goal never held after the event"
                  if game.is_terminal(last) else
                  "no move is legal, and the goal never held after the event")
        kind = "dead end"
    steps, last = concrete_trace(ex, nums)
    states = [s for s, _ in steps] + [last]
    actions = [a for _, a in steps]
    told = story(game, states, actions, ending, loop_from)
    path = None
    if opts.save is not None and kind == "dead end":
        path = save_witness(variant, game, states, actions, q.text,
                            f"{q.text} ({variant.name}): a counterexample", opts.save,
                            f"{stem or slug(q.text)}--{slug(variant.name)}.toml")
    elif opts.save is not None:
        # a lasso's scenario plays the stem and one turn of the loop
        path = save_witness(variant, game, states, actions, q.text,
                            f"{q.text} ({variant.name}): a lasso, the loop from step "
                            f"{loop_from} repeats forever", opts.save,
                            f"{stem or slug(q.text)}--{slug(variant.name)}.toml")
    scope = f"{table_scope(game.config)} (a {kind} found on the exhausted graph)"
    ev = {"kind": "witness", "shape": kind, "scenario": path, "length": len(actions),
          "story": list(told.story)}
    if loop_from is not None:
        ev["loop_starts_at_step"] = loop_from
    lines = [f"NO: {q.text}", f"  variant {variant.name}; table {tbl}",
             f"  counterexample: a {kind}" + (f" (the loop starts after step {loop_from})"
                                              if loop_from is not None else "")
             + (f", saved as {path}" if path else "")]
    lines += ["  " + x for x in told.story]
    lines.append(f"  scope: {scope}")
    return Answer(q.text, variant.name, Verdict.VIOLATED, False, scope, ev, lines, path, tbl,
                  told)


__all__ = ["ask", "ask_many", "Answer", "Options", "table_scope"]
