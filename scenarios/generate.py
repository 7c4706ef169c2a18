"""Edge-case scenarios chosen by coverage: one per pair of rules that can interact.

What "a rule fires" means comes from the engine's own record of each step,
``Game.fired(s, a, s2)`` (never from hand-written knowledge of a card):

* a **topic** is the first part of a rule id (``pride`` for
  ``pride.open``); option cards map to topics by name (``pride_cycle`` ->
  ``pride``);
* topic T **fires** in a step when a rule of T *applied an update* in that
  step (it is one of the action's update rules and is in ``fired``), or when
  the card the step put on the pile is of T's kind and a rule of T took part
  (that covers effects carried by definitions, such as Unbelief's skip);
* the event ``pass`` is the topic ``pass`` (a player said Pass), ``zero`` the
  topic ``zero`` (a zero hand stopped the round); ``deck`` (deck exhaustion)
  is a fact of the table rather than a rule under the literal reading ("the
  text says nothing"), so it is detected from the state: after the step the
  deck is empty and the round goes on, or a ``deck.*`` rule applied.

**Two rules interact on a trace when both fire in the same round** (the later
one while the earlier one's effect may still be in force).  The pairs
covered: Pass x each option card, each pair of option cards, deck exhaustion x
each (Pass included), the zero rule x each, and the table edges "2 players" x
each and "8 players" x each (the rule fires at a table of exactly that size).

For each pair the search tries tables from the smallest up, with only the
pair's option cards in the deck, and at each runs a breadth-first search over
(state, events seen so far) from every deal, so the first trace that shows
the pair is a shortest one at that table.  Eight-player tables have too many
deals to enumerate: there the search starts from a fixed number of seeded
deals and says so.  A pair never seen is reported with why: the search was
exhausted at the largest table tried (a bound, not a proof for bigger tables),
or a limit stopped it (not found within the bound).
"""
from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass, field

from itcp.model.engine.engine import Game
from itcp.spec.rules.vocabulary import OVER
from itcp.spec.variants import load_variant

from .format import Scenario
from .replay import facts
from .save import trace_scenario

#: tables tried for a pair, smallest first (the options are the pair's cards)
LADDER = (
    {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1},
    {"players": 2, "suits": 2, "ranks": (2, 2), "hand": 1},
    {"players": 3, "suits": 1, "ranks": (2, 3), "hand": 1},
    {"players": 2, "suits": 1, "ranks": (2, 3), "hand": 2},
)
#: the eight-player edge table: 8 hands of one card and a face-up card, without
#: Charity (with it nearly every deal hands someone a zero hand and ends at once)
EIGHT = {"players": 8, "suits": 2, "ranks": (2, 5), "hand": 1, "charity": False}
EIGHT_DEALS = 200

EVENT_WORDS = {"pass": "a Pass", "deck": "an empty deck", "zero": "a zero hand",
               "2p": "two players", "8p": "eight players"}


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    family: str

    @property
    def name(self) -> str:
        return f"{self.a} x {self.b}"

    @property
    def slug(self) -> str:
        return f"{self.a}-x-{self.b}".replace("_", "-")

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(e for e in (self.a, self.b) if e not in ("2p", "8p"))

    @property
    def players(self) -> int | None:
        return {"2p": 2, "8p": 8}.get(self.a)


@dataclass
class PairOutcome:
    pair: Pair
    found: bool
    table: dict | None = None
    length: int | None = None
    file: str | None = None
    reason: str = ""
    states: int = 0
    scenario: Scenario | None = field(default=None, repr=False)

    def as_json(self) -> dict:
        status = "found" if self.found else (
            "unreachable" if "exhaust" in self.reason else "not found within bound")
        out: dict[str, object] = {"pair": self.pair.name, "family": self.pair.family,
                                  "status": status}
        if self.found:
            out.update({"file": self.file, "moves": self.length, "table": table_text(self.table)})
            if self.reason:
                out["note"] = self.reason
        else:
            out["reason"] = self.reason
        out["states_searched"] = self.states
        return out


def topic_of_kind(kind: str, topics) -> str | None:
    for t in topics:
        if kind == t or kind.startswith(t + "_"):
            return t
    return None


def option_topics(option_names, topics) -> dict[str, str]:
    """option card name -> rule topic, for the option cards the rules know."""
    out = {}
    for name in option_names:
        t = topic_of_kind(name, topics)
        if t is not None:
            out[name] = t
    return out


def all_pairs(option_topic: dict[str, str]) -> list[Pair]:
    """Every pair of rules that can interact, by family."""
    cards = list(option_topic.values())
    pairs = [Pair("pass", c, "pass x option") for c in cards]
    pairs += [Pair(a, b, "option x option") for i, a in enumerate(cards) for b in cards[i + 1:]]
    pairs += [Pair("deck", c, "deck exhaustion x each") for c in ["pass"] + cards]
    pairs += [Pair("zero", c, "zero x each") for c in ["pass", "deck"] + cards]
    pairs += [Pair("2p", c, "two-player edge") for c in ["pass"] + cards]
    pairs += [Pair("8p", c, "eight-player edge") for c in ["pass", "deck"] + cards]
    return pairs


class Events:
    """Which events a step shows, from the engine's ``fired`` record."""

    def __init__(self, game: Game):
        self.game = game
        spec = game.spec
        self.updates = {a.name: {r for ups in a.updates.values() for r, *_ in ups}
                        for a in spec.actions}
        topics = sorted({r.id.split(".")[0] for r in spec.rules}, key=len, reverse=True)
        self.kind_topic = {c.index: topic_of_kind(c.kind, topics) for c in game.config.cards}
        self.pile_i, self.deck_i, self.phase_i = (game.index[v] for v in ("pile", "deck", "phase"))

    def of(self, s, a, s2) -> set[str]:
        fired = self.game.fired(s, a, s2)
        topics_in = {r.split(".")[0] for r in fired}
        upd = self.updates[a[0]]
        out = {r.split(".")[0] for r in fired if r in upd}
        pile, pile2 = s[self.pile_i], s2[self.pile_i]
        if len(pile2) > len(pile):  # a card went onto the pile: its kind's rules took part?
            t = self.kind_topic.get(pile2[-1])
            if t is not None and t in topics_in:
                out.add(t)
        live = s2[self.phase_i] != OVER and not self.game.is_terminal(s2)
        if (live and s2[self.deck_i] == 0) or "deck" in out:
            out.add("deck")
        return out


@dataclass
class CoverageSearch:
    found: dict  # frozenset(events) -> (states, actions)
    nodes: int
    complete: bool
    limit: str | None


def search(game: Game, targets: list[frozenset], max_states: int, max_depth: int,
           deals: list | None = None, deadline: float | None = None) -> CoverageSearch:
    """Breadth-first over (state, events seen) from every deal (or the given
    deal actions); the first node whose events cover a target gives a
    shortest trace for it."""
    ev = Events(game)
    names = sorted({e for t in targets for e in t})
    bit = {e: 1 << i for i, e in enumerate(names)}
    want = {t: sum(bit[e] for e in t) for t in targets}
    found: dict = {}
    parent: dict = {}
    s0 = game.initial_state()
    frontier: deque[tuple] = deque()
    deal_actions = deals if deals is not None else game.legal_actions(s0)

    def mask_of(evs):
        m = 0
        for e in evs:
            m |= bit.get(e, 0)
        return m

    def record(node):
        m = node[1]
        for t, w in want.items():
            if t not in found and m & w == w:
                found[t] = _path(parent, node)

    for a in deal_actions:
        s = game.apply(s0, a, validate=False)
        node = (s, mask_of(ev.of(s0, a, s)))
        if node not in parent:
            parent[node] = (None, a, 0)
            frontier.append(node)
            record(node)
    limit = None
    while frontier and len(found) < len(want):
        node = frontier.popleft()
        s, m = node
        d = parent[node][2]
        if game.is_terminal(s):
            continue
        if d >= max_depth:
            limit = limit or f"--depth {max_depth}"
            continue
        for a, s2 in game.successors(s):
            n2 = (s2, m | mask_of(ev.of(s, a, s2)))
            if n2 in parent:
                continue
            parent[n2] = (node, a, d + 1)
            frontier.append(n2)
            record(n2)
        if len(parent) >= max_states:
            limit = f"--max-states {max_states}"
            break
        if deadline is not None and len(parent) % 256 == 0 and time.monotonic() > deadline:
            limit = "--timeout"
            break
    complete = not frontier and limit is None
    if len(found) == len(want):
        complete = False  # stopped early: says nothing about the rest
    return CoverageSearch(found, len(parent), complete, limit)


def _path(parent, node):
    actions, states = [], []
    while node is not None:
        prev, a, _ = parent[node]
        states.append(node[0])
        actions.append(a)
        node = prev
    states.reverse()
    actions.reverse()
    return [None] + states, actions  # states[0] (before the deal) filled by the caller


def table_text(t: dict | None) -> str:
    if t is None:
        return ""
    opts = ", ".join(t.get("options_names", [])) or "no option cards"
    return (f"{t['players']} players, {t['suits']} suit{'s' * (t['suits'] != 1)}, ranks "
            f"{t['ranks'][0]}..{t['ranks'][1]}, hand {t['hand']}, {opts}"
            + (", no Charity" if t.get("charity") is False else ""))


def _word(e: str, game: Game | None = None) -> str:
    if e in EVENT_WORDS:
        return EVENT_WORDS[e]
    if game is not None:
        for c in game.config.cards:
            if c.kind.startswith(e):
                return c.name
    return e


def generate(variant, pairs: list[Pair], option_topic: dict[str, str], max_states: int = 200_000,
             max_depth: int = 40, progress=None, seed: int = 0,
             out_dir=".") -> list[PairOutcome]:
    """CoverageSearch every pair; return one PairOutcome per pair (with its scenario when found,
    naming a variant file relative to ``out_dir``, where it will be written)."""
    topic_option = {t: o for o, t in option_topic.items()}
    groups: dict[tuple, list[Pair]] = {}
    for p in pairs:
        cards = tuple(sorted(topic_option[e] for e in p.events if e in topic_option))
        groups.setdefault((cards, p.players == 8), []).append(p)
    results: dict[Pair, PairOutcome] = {}
    for (cards, eight), group in groups.items():
        ladder = [EIGHT] if eight else [t for t in LADDER]
        todo = list(group)
        last = None
        for rung in ladder:
            table = dict(rung, options=tuple((c, 1) for c in cards))
            try:
                v = load_variant(variant.path, table)
            except Exception:  # the table cannot be dealt: try the next one
                continue
            game = Game.from_variant(v)
            rung_pairs = [p for p in todo if p.players in (None, rung["players"])]
            if not rung_pairs:
                continue
            targets = sorted({frozenset(p.events) for p in rung_pairs}, key=sorted)
            deals = None
            if eight:
                rng = random.Random(seed)
                s0 = game.initial_state()
                deals = list(dict.fromkeys(game.sample_chance(s0, rng) for _ in range(EIGHT_DEALS)))
            res = search(game, targets, max_states, max_depth, deals)
            desc = dict(table, options_names=[next(c.name for c in game.config.cards
                                                   if c.kind == k) for k in cards])
            last = (res, desc, deals is not None)
            for p in rung_pairs:
                key = frozenset(p.events)
                if key in res.found:
                    states, actions = res.found[key]
                    states[0] = game.initial_state()
                    results[p] = PairOutcome(p, True, desc, len(actions) - 1, states=res.nodes,
                                         scenario=_scenario(variant, game, p, states, actions,
                                                            out_dir),
                                         reason=(f"shortest from {EIGHT_DEALS} seeded deals, "
                                                 "not every deal" if eight else ""))
            todo = [p for p in todo if p not in results]
            if progress is not None:
                progress(f"{', '.join(cards) or 'no option cards'} at {table_text(desc)}: "
                         f"{res.nodes:,} nodes, {len(group) - len(todo)}/{len(group)} pairs")
            if not todo:
                break
        for p in todo:
            if last is None:
                results[p] = PairOutcome(p, False, reason="no table of the ladder can be dealt")
                continue
            res, desc, sampled = last
            scope = (f"from {EIGHT_DEALS} seeded deals" if sampled else "from every deal")
            if res.complete and not sampled:
                why = (f"never happens: search exhausted {res.nodes:,} (state, events) nodes "
                       f"{scope} at {table_text(desc)} (the largest table tried; a bound, "
                       "not a proof for larger tables)")
            elif res.complete:
                why = (f"not found within bound: every play {scope} at {table_text(desc)} "
                       f"exhausted ({res.nodes:,} nodes), but not every deal")
            else:
                why = (f"not found within bound: {res.limit or 'limit'} at {table_text(desc)} "
                       f"({res.nodes:,} nodes {scope})")
            results[p] = PairOutcome(p, False, desc, reason=why, states=res.nodes)
    return [results[p] for p in pairs]


def _scenario(variant, game, pair: Pair, states, actions, out_dir=".") -> Scenario:
    last = states[-1]
    f = facts(game, last)
    expect = {"phase": f["phase"]}
    if f["top"] != "none":
        expect["top"] = f["top"]
    if f["ended"] != "live":
        expect["ended"] = f["ended"]
        expect["scores"] = f["scores"]
    else:
        expect["turn"] = f["turn"]
    for p in range(game.config.players):
        expect[f"hand.{p}"] = f[f"hand.{p}"]
    words = f"{_word(pair.a, game)} and {_word(pair.b, game)}"
    if pair.players:
        title = f"{_word(pair.b, game)} at a table of {pair.players} players"
        question = (f"What does {_word(pair.b, game)} do at the {pair.players}-player edge "
                    "of the table?")
    else:
        title = f"{words[0].upper() + words[1:]} in one round"
        question = f"What happens when {words} both come into play in one round?"
    return trace_scenario(variant, game, states, actions, expect, out_dir,
                          f"{title} (generated: {pair.name})", question)


def coverage_markdown(variant_name: str, outcomes: list[PairOutcome], seconds: float) -> str:
    found = sum(o.found for o in outcomes)
    lines = [f"# Interaction coverage: {variant_name}", "",
             f"{found} of {len(outcomes)} pairs shown by a scenario; generated by "
             f"`itcp-check scenarios generate {variant_name}` in {seconds:.0f} s.", "",
             "Two rules interact on a trace when both fire in the same round (from the "
             "engine's record of the rules that took part in each step); each scenario is "
             "a shortest such trace at the smallest table tried.", "",
             "| pair | family | scenario | moves | table / why not |",
             "|---|---|---|---|---|"]
    for o in outcomes:
        if o.found:
            note = f" ({o.reason})" if o.reason else ""
            lines.append(f"| {o.pair.name} | {o.pair.family} | [{o.file}]({o.file}) | "
                         f"{o.length} | {table_text(o.table)}{note} |")
        else:
            lines.append(f"| {o.pair.name} | {o.pair.family} | - | - | {o.reason} |")
    return "\n".join(lines) + "\n"


__all__ = ["Pair", "PairOutcome", "Events", "all_pairs", "option_topics", "search", "generate",
           "coverage_markdown", "table_text", "LADDER"]
