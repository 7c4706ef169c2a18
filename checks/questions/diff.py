"""Comparing readings: where do two variants (or two readings) part ways?

For one choice point, the base variant is played twice: once with its own
reading and once with the other reading, everything else equal.  Both games
are compiled from the same spec, so their states are the same tuples; a
breadth-first search over the first game's reachable states (from before the
deal) compares, at every state, the legal moves of both games, the state each
move leads to, and, where the round is over, the scores.  The first state
where they differ is reached by a shortest path, so the scenario is the
smallest one: a move legal in one and not the other, or a move with a
different outcome, or a different score.  If the search exhausts the table
with no difference, both readings give the same reachable game and the same
scores there: a bounded proof that they agree at that table.

The tables tried for a choice point are the smallest where its rules can act
(the option cards it is about, two then three players).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from itcp.model.engine.engine import Game
from itcp.scenarios.format import to_toml
from itcp.scenarios.save import end_expectation, refusal_expectation, trace_scenario
from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.errors import ConfigError, InputError
from itcp.spec.variants import Variant, load_variant

from ..results import Verdict
from .answer import Answer, answer_word, slug
from .divergence import Exact, first_difference

DIFF_MAX_STATES = 200_000


def cp_tables(cp: str) -> list[dict]:
    """The small tables a choice point is compared at, smallest first: the
    option cards it is about (``ChoicePoint.options``) and what else its
    readings need (``ChoicePoint.table``), at two players, then three."""
    point = CHOICE_POINTS[cp]
    base = {"suits": 2, "ranks": (2, 2), "hand": 1, "options": point.options}
    base.update(dict(point.table))
    two = dict(base, players=2)
    three = dict(base, players=3)
    return [two] if cp.endswith(".two") else [two, three]


@dataclass
class Difference:
    kind: str  # "legal", "outcome", "scores"
    text: str
    path: list  # (state, action) steps to the state where they differ
    state: tuple
    action: tuple | None = None
    legal_in: str | None = None  # which side allows the move (kind "legal")


#: how a comparison's verdict reads: the property compared is "the readings agree"
RESULTS = {Verdict.VIOLATED: "differ", Verdict.HOLDS: "agree", Verdict.UNKNOWN: "unknown"}


@dataclass
class Comparison:
    """Two readings ``a`` and ``b`` of the choice point ``cp`` compared at a table:
    the verdict of "they agree" (``result``: differ, agree or unknown), the states
    searched, the first difference and its scenarios, or the limit hit."""
    cp: str
    a: str  # reading ids
    b: str
    table: str
    verdict: Verdict
    states: int = 0
    difference: Difference | None = None
    scenarios: list = field(default_factory=list)
    limit: str | None = None
    tables_agreed: list = field(default_factory=list)

    @property
    def result(self) -> str:
        """"differ", "agree" or "unknown"."""
        return RESULTS[self.verdict]

    def as_json(self) -> dict:
        out = {"choice_point": self.cp, "readings": [self.a, self.b], "result": self.result,
               "table": self.table, "states": self.states}
        if self.difference is not None:
            out["difference"] = {"kind": self.difference.kind, "text": self.difference.text,
                                 "length": len(self.difference.path) + (
                                     1 if self.difference.action else 0)}
            out["scenarios"] = self.scenarios
        if self.tables_agreed:
            out["agreed_at"] = self.tables_agreed
        if self.limit:
            out["limit"] = self.limit
        return out


def compare_games(ga: Game, gb: Game, names=("A", "B"), max_states=DIFF_MAX_STATES):
    """(Difference | None, states visited, limit | None): a BFS over ``ga``'s states."""
    search = first_difference(Exact(ga, gb, names), max_states)
    if search.found is None:
        limit = f"--max-states {max_states}" if search.limit else None
        return None, search.nodes, limit
    path, s = search.found.path, search.found.node
    kind, a, side = search.found.what
    if kind == "scores":
        sa, sb = ga.scores(s), gb.scores(s)
        text = (f"the same finished round scores {list(sa)} under {names[0]} but {list(sb)} "
                f"under {names[1]}")
        return Difference("scores", text, path, s), search.nodes, None
    if kind == "legal":
        other = names[1] if side == names[0] else names[0]
        g = ga if side == names[0] else gb
        text = f"{g.action_str(a)} is legal under {side} but not under {other}"
        return Difference("legal", text, path, s, a, side), search.nodes, None
    sa, sb = ga.apply(s, a, validate=False), gb.apply(s, a, validate=False)
    what = [v for v, x, y in zip(ga.var_names, sa, sb) if x != y]
    text = f"{ga.action_str(a)} leads to different states ({', '.join(what)} differ)"
    return Difference("outcome", text, path, s, a), search.nodes, None


def _scenarios(cmp: Comparison, base: Variant, ga, gb, d: Difference, save,
               stem) -> list[str]:
    """The distinguishing play as one scenario per side, handed to the sink
    ``save`` (``scenarios/save.py``); their paths."""
    steps = d.path + ([(d.state, d.action)] if d.action is not None else [])
    actions = [a for _, a in steps]
    out = []
    for label, g in ((cmp.a, ga), (cmp.b, gb)):
        s, states = g.initial_state(), [g.initial_state()]
        legal = True
        for a in actions:
            if a not in g.legal_actions(s):
                legal = False
                break
            s = g.apply(s, a)
            states.append(s)
        if legal:
            expect = end_expectation(g, states[-1])
        else:
            expect = refusal_expectation(g, states[-1], actions[-1], len(actions) - 1)
        title = f"{cmp.cp}: {label} ({d.text})"
        sc = trace_scenario(base, g, states, actions, expect, save.folder, title,
                            f"Do the readings {cmp.a} and {cmp.b} of {cmp.cp} differ?")
        out.append(save.write(f"{stem}--{label}.toml", to_toml(sc)))
    return out


def compare_readings(base: Variant, cp: str, ra: str, rb: str, save=None, stem=None,
                     max_states=DIFF_MAX_STATES, configs=None) -> Comparison:
    """Compare reading ``ra`` with ``rb`` of ``cp``, all else as in ``base``, at
    ``configs`` (by default the choice point's small tables, smallest first)."""
    if configs is None:
        configs = []
        for table in cp_tables(cp):
            try:
                configs.append(load_variant(base.path or base.name, table).config)
            except ConfigError:
                continue
    agreed: list[str] = []
    last = None
    for config in configs:
        ra_map, rb_map = dict(base.readings), dict(base.readings)
        ra_map[cp], rb_map[cp] = ra, rb
        ga = Game.make(config, ra_map)
        gb = Game.make(config, rb_map)
        d, n, limit = compare_games(ga, gb, (ra, rb), max_states)
        tbl = config.describe()
        if d is not None:
            c = Comparison(cp, ra, rb, tbl, Verdict.VIOLATED, n, d, tables_agreed=agreed)
            if save is not None:
                c.scenarios = _scenarios(c, base, ga, gb, d, save,
                                         stem or cp.replace(".", "-"))
            return c
        if limit is not None:
            return Comparison(cp, ra, rb, tbl, Verdict.UNKNOWN, n, limit=limit,
                              tables_agreed=agreed)
        agreed.append(f"{tbl} ({n:,} states)")
        last = Comparison(cp, ra, rb, tbl, Verdict.HOLDS, n, tables_agreed=list(agreed))
    if last is None:
        raise InputError(f"no table to compare {cp} at")
    return last


def diff_variants(va: Variant, vb: Variant, save=None, max_states=DIFF_MAX_STATES):
    """One comparison per choice point where the variants' readings differ."""
    out = []
    for cp in CHOICE_POINTS:
        a, b = va.readings[cp], vb.readings[cp]   # a loaded variant reads every point
        if a != b:
            stem = f"{cp.replace('.', '-')}"
            out.append(compare_readings(va, cp, a, b, save, stem, max_states))
    return out


def differs_answer(q, variant: Variant, opts, stem=None):
    """``differs CP``: does any other reading of CP change the game, all else equal?"""
    cp = CHOICE_POINTS[q.choice]
    mine = variant.readings[cp.id]
    comps = [compare_readings(variant, cp.id, mine, r, opts.save,
                              f"{stem or slug(q.text)}--{slug(variant.name)}-{r}",
                              opts.limits.max_states or DIFF_MAX_STATES, [variant.config])
             for r in cp.reading_ids if r != mine]
    lines: list[str] = []
    evidence: dict[str, Any] = {"comparisons": [c.as_json() for c in comps]}
    differ = [c for c in comps if c.verdict is Verdict.VIOLATED]
    unknown = [c for c in comps if c.verdict is Verdict.UNKNOWN]
    if differ:
        c = differ[0]
        verdict = Verdict.VIOLATED
        scope = f"at {c.table} (a shortest distinguishing play, by breadth-first search)"
        evidence.update(kind="witness", scenario=c.scenarios[0] if c.scenarios else None,
                        scenarios=c.scenarios)
    elif unknown:
        verdict = Verdict.UNKNOWN
        scope = f"nothing beyond {unknown[0].states:,} states ({unknown[0].limit})"
        evidence.update(kind="bounded", limit=unknown[0].limit)
    else:
        verdict = Verdict.HOLDS
        scope = "in every game at " + "; ".join(sorted({t for c in comps for t in c.tables_agreed}))
        evidence.update(kind="exhaustive")
    lines.append(f"{answer_word(verdict, True).upper()}: {q.text}")
    lines.append(f"  variant {variant.name}: {cp.id} = {mine} compared with every other reading")
    for c in comps:
        lines += ["  " + x for x in describe(c)]
    lines.append(f"  scope: {scope}")
    return Answer(q.text, variant.name, verdict, True, scope, evidence, lines,
                  evidence.get("scenario"), "")


def describe(c: Comparison) -> list[str]:
    head = f"{c.cp}: {c.a} vs {c.b}: "
    if c.verdict is Verdict.VIOLATED:
        d = c.difference
        assert d is not None   # a comparison that differs has its difference
        n = len(d.path) + (1 if d.action is not None else 0)
        out = [head + f"DIFFER at {c.table}, after {n} move(s) counting the deal: {d.text}"]
        out += [f"    scenario: {p}" for p in c.scenarios]
        return out
    if c.verdict is Verdict.HOLDS:
        return [head + "AGREE (same reachable game and scores, exhaustive) at "
                + "; ".join(c.tables_agreed)]
    return [head + f"UNKNOWN at {c.table}: stopped by {c.limit} after {c.states:,} states"]


__all__ = ["diff_variants", "compare_readings", "compare_games", "differs_answer", "describe",
           "Comparison", "cp_tables"]
