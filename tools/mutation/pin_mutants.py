"""For each surviving mutant of the spec, the shortest round it plays differently, as a scenario.

    python -m tools.mutation.pin_mutants --survivors-of RESULTS [--survivors-of LATER]
                                [--out tests/regression] [--record FILE]
                                [--sampled SECONDS [--readings CP=R,...]]
                                [--skip-proved RECORD] [--shard I/N]

A mutant survives when no check sees it (``tools/mutation/mutate_spec.py``).  This looks
for a round that tells it from the spec (``tools/mutation/distinguish.py``: a
breadth-first search of the pairs of states the spec and the mutant reach by
the same moves), at small tables holding the option card the mutated rule is
about, under the readings of ``official``, ``clarified`` and ``published`` and
of ``official`` with one reading changed, each with the mutated rule's own
reading (the choice points the mutated fragment reads first), until the two
disagree (a rule of whole games, ``game.*``, over whole games):

* a move the spec allows is refused by the mutant: the scenario plays it, and
  expects the spec's state after it;
* the mutant allows a move the spec refuses: the scenario ends with it and
  expects it refused (``illegal_at``);
* the state's facts differ (turn, actor, phase, how the round ended, passers,
  pile, deck, hands, scores): the scenario expects the spec's.

Each trace is written as a scenario (``scenarios/format.py``'s ``from_trace``)
named after the mutant, never over an existing file.  The scenario is made from
the spec itself: it *pins* the rule as the spec states it (a later change of
that rule fails it), it does not judge whether the rule reads the rulebook
right; that is what the library's hand-written scenarios do.

Where the mutant changes only the value an update writes and that variable is
dead after the move (``checks/distinguish.unread_write``: liveness), the table
and readings are recorded as such without a search (``unread``).  A mutant for
which no round is found is *not shown to be equivalent*: the search exhausted
every pair at each table and readings it tried (``same``) within ``--seconds``,
but a larger table or other readings may still tell it apart.  ``--record
FILE`` writes one JSON line per mutant: what was found, and for the others
every table and readings exhausted or unread (the evidence an equivalence note
in docs/mutation-notes.toml starts from).  Later files of
``--survivors-of`` remove the mutants they killed (a ``--survivors-of`` run of
tools/mutation/mutate_spec.py); mutants with an equivalence note are skipped, and with
``--skip-proved RECORD`` those ``tools/mutation/prove_mutants.py`` proved.

``--sampled SECONDS`` looks further instead: random rounds played side by side
(``checks/distinguish.sampled_difference``) at the tables the equivalence
proofs use (3 and 2 players, 1 suit, ranks 2..3, hands of 2 and of 1, all six
option cards: far too many states to exhaust), under the same readings plus
those of ``--readings`` (``--wide``: at 4 players and with two suits instead),
for at most SECONDS per mutant.  A round found is a
real round of the spec and is saved as above (not the shortest: a random one);
none found is recorded as ``unseen`` with the rounds played.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from itcp.model.engine.engine import Game, build_spec
from itcp.scenarios.format import from_trace, to_toml
from itcp.scenarios.replay import facts
from itcp.spec.config import OPTION_VALUES
from itcp.spec.errors import InputError
from itcp.spec.lang import SpecError
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import load_variant
from tools.mutation.distinguish import (
    PlayedDifferently,
    Same,
    first_difference,
    sampled_difference,
    unread_write,
)
from tools.mutation.mutants import (
    choices_read,
    mutant_spec,
    mutants_of,
    pinned_stem,
    written_value,
)
from tools.mutation.report import load_notes

REPO = Path(__file__).resolve().parents[2]
NOTES = REPO / "docs" / "mutation-notes.toml"
OPTIONS = tuple(OPTION_VALUES)  # the option cards, as the spec's configuration names them
#: the option card a rule is about, by the first part of its id (None: every card)
CARD_OF = {"mercy": "mercy", "justice": "justice", "repentance": "repentance",
           "unbelief": "unbelief", "pride": "pride_cycle", "secret": "secret_combination"}
BASES = ("official", "clarified", "published")


SMALL = ((2, (2, 2), 1), (3, (2, 2), 1))
#: the tables of the random rounds (``--sampled``), (size, suits): the equivalence
#: proofs' M, M2, M1, M12; or (``--wide``) four players, and two suits (a deck that
#: lasts: longer rounds)
SAMPLED = (((3, (2, 3), 2), 1), ((2, (2, 3), 2), 1), ((3, (2, 3), 1), 1), ((2, (2, 3), 1), 1))
WIDE = (((4, (2, 3), 2), 1), ((3, (2, 3), 2), 2), ((2, (2, 3), 3), 2), ((4, (2, 3), 1), 2))
LARGER = ((2, (2, 3), 2), (4, (2, 2), 1), (3, (2, 3), 1))


def table_named(size, opts, suits=1):
    players, ranks, hand = size
    return {"players": players, "suits": suits, "ranks": ranks, "hand": hand, "options": opts}


def tables(rule_id: str, stage: str):
    """Small tables, smallest first, holding the card the rule is about (a rule of
    no card: each card alone, then none).  ``stage``: "small" (the card with each
    other card, then alone), "triples" (the card with two others: a rule that
    acts between two other cards, e.g. a Justice answered by a Mercy whose race
    winner forms a team) or "larger" (more ranks, hands or players)."""
    card = CARD_OF.get(rule_id.split(".")[0])
    if card:
        sets = [(card, o) for o in OPTIONS if o != card] + [(card,)]
    else:
        sets = [(o,) for o in OPTIONS] + [()]
    if stage == "small":
        for size in SMALL:
            for opts in sets:
                yield table_named(size, opts)
    elif stage == "triples":
        others = [o for o in OPTIONS if o != card]
        triples = ([(card, a, b) for i, a in enumerate(others) for b in others[i + 1:]]
                   if card else [(a, b) for i, a in enumerate(OPTIONS) for b in OPTIONS[i + 1:]])
        for size in SMALL:
            for opts in triples:
                yield table_named(size, opts)
    else:
        for size in LARGER:
            for opts in sets:
                yield table_named(size, opts)
        for opts in ((), (card,) if card else ()):
            yield table_named(SMALL[0], opts, suits=2)


def reading_sets(choices: dict, rule, read: list[str]) -> tuple[list, list, list]:
    """The readings to try, the rule's own reading forced: the three shipped
    variants'; ``official``'s with one reading changed, of a choice point the
    mutated fragment reads (``read``, in its order); the same of every other
    choice point."""
    seen: set = set()

    def fresh(rs):
        out = []
        for r in rs:
            if rule.choice:
                r = {**r, rule.choice: rule.reading}
            key = tuple(sorted(r.items()))
            if key not in seen:
                seen.add(key)
                out.append(r)
        return out
    bases = [dict(load_variant(n).readings) for n in BASES]
    swaps = [(cp, {**bases[0], cp: r}) for cp, readings in sorted(choices.items())
             for r in sorted(readings) if bases[0].get(cp) != r]
    rank = {cp: i for i, cp in enumerate(read)}
    near = sorted((x for x in swaps if x[0] in rank), key=lambda x: rank[x[0]])
    return (fresh(bases), fresh([r for _, r in near]),
            fresh([r for cp, r in swaps if cp not in rank]))


def combos(rule_id: str, bases, near, far):
    """(table, readings) in the order they are tried: the shipped and the near
    readings at the small tables, the shipped ones with two other cards and at
    the larger tables, the near ones with two other cards, and last the far
    readings at the small tables."""
    order = (("small", bases + near), ("triples", bases), ("larger", bases),
             ("triples", near), ("small", far))
    for stage, readings in order:
        for table in tables(rule_id, stage):
            for r in readings:
                yield table, r


def table_text(table: dict, readings: dict, base: dict) -> str:
    opts = ", ".join(table["options"]) or "no options"
    lo, hi = table["ranks"]
    swaps = ", ".join(f"{k}={v}" for k, v in sorted(readings.items()) if base.get(k) != v)
    return (f"{table['players']}p {table['suits']}s {lo}..{hi} h{table['hand']} [{opts}] "
            f"official{' + ' + swaps if swaps else ''}")


WHAT = {"facts": "the state's facts differ from the spec's after the last move",
        "illegal": "its last move, refused by the spec, is allowed by the mutant",
        "refused": "its last move, allowed by the spec, is refused by the mutant",
        "bounds": "after its last move the mutant's state leaves a variable's declared bounds"}


def scenario(config, g: Game, mutant_id: str, d: PlayedDifferently) -> str:
    if d.kind == "illegal":
        expect = {"illegal_at": len(d.actions) - 1}
    else:  # a seat of nobody (between the rounds of a game) is not a fact a scenario states
        expect = {k: x for k, x in facts(g, d.states[-1]).items()
                  if not (k in ("turn", "actor") and not 0 <= x < config.players)
                  and not (k == "top" and x == "none")}  # an empty pile: ``pile = []`` says it
    rule = mutant_id.split()[1]
    sc = from_trace("official", config, g, d.states, d.actions, expect,
                    title=f"Pins {rule}: a round where it decides the outcome",
                    question=f"Generated from the spec (tools/mutation/pin_mutants.py) for the "
                             f"mutant `{mutant_id}`: {WHAT[d.kind]}.")
    return to_toml(sc)


class Tables:
    """Rule sets and mutants per table, built once."""

    def __init__(self):
        self._by_table: dict = {}
        self._games: dict = {}

    def game(self, table: dict, readings: dict, scope: str) -> Game:
        """The spec's engine at a table and readings, compiled once."""
        key = json.dumps([table, sorted(readings.items()), scope], sort_keys=True)
        if key not in self._games:
            self._games[key] = Game(build_spec(self.get(table)[0].config, readings, scope=scope))
        return self._games[key]

    def get(self, table: dict):
        key = json.dumps(table, sort_keys=True)
        if key not in self._by_table:
            try:
                v = load_variant("official", table)
            except InputError:  # too few cards for the hands
                self._by_table[key] = None
            else:
                rs = build_ruleset(v.config)
                self._by_table[key] = (v, rs, {m.id: m for m in mutants_of(rs)})
        return self._by_table[key]


def tell_apart(mid: str, known: Tables, choices: dict, seconds: float, max_pairs: int):
    """(PlayedDifferently, config, game) or (None, evidence) for one mutant."""
    start = time.monotonic()
    official = dict(load_variant("official").readings)
    same, unread, tried = [], [], 0
    rule_id = mid.split()[1]
    got = next((x for x in map(known.get, tables(rule_id, "small"))
                if x is not None and mid in x[2]), None)
    if got is None:
        return None, {"same": same, "unread": unread, "tried": tried, "limit": None}
    rule = next(r for r in got[1].rules if r.id == got[2][mid].rule)
    sets = reading_sets(choices, rule, choices_read(got[1], got[2][mid]))
    for table, readings in combos(rule_id, *sets):
        got = known.get(table)
        if got is None:
            continue
        v, rs, by_id = got
        m = by_id.get(mid)
        if m is None:
            continue
        if time.monotonic() - start > seconds:
            return None, {"same": same, "unread": unread, "tried": tried,
                          "limit": f"{seconds:g} s"}
        # a rule of whole games (game.*) is told apart only over rounds
        base = build_spec(v.config, readings, scope=rule.scope)
        try:
            ms = mutant_spec(base, rs, m)
        except SpecError:
            continue
        if ms is None:  # the mutant changes nothing the elaborated spec keeps here
            continue
        tried += 1
        target = written_value(rs, m)
        if target is not None and unread_write(base, *target):
            unread.append(table_text(table, readings, official))
            continue
        g = Game(base)
        found = first_difference(g, Game(ms), max_pairs)
        if isinstance(found, PlayedDifferently):
            return (found, v.config, g), {"at": table_text(table, readings, official)}
        if isinstance(found, Same):
            same.append([table_text(table, readings, official), found.pairs])
    return None, {"same": same, "unread": unread, "tried": tried, "limit": None}


def tell_apart_sampled(mid: str, known: Tables, choices: dict, seconds: float,
                       extra=(), seed: int = 1, each: float = 4.0, wide: bool = False,
                       first=()):
    """(PlayedDifferently, config, game) or (None, evidence) for one mutant: random
    rounds side by side at the ``SAMPLED`` tables with every option card, under
    the shipped readings, then ``extra`` (over ``official``'s), then
    ``official``'s with one reading the fragment reads changed (the rule's own
    in force), ``each`` seconds at each (table, readings) where it compiles
    differently, until ``seconds`` are spent; ``wide``: at the ``WIDE`` tables instead;
    ``first``: readings (over ``official``'s) tried before all these."""
    start = time.monotonic()
    official = dict(load_variant("official").readings)
    unseen: list = []
    rng = random.Random(f"{seed} {mid}")
    for table, v, rs, m, readings in _sampled_attempts(mid, known, choices, extra, wide, first):
        if time.monotonic() - start > seconds:
            break
        rule = next(r for r in rs.rules if r.id == m.rule)
        g = known.game(table, readings, rule.scope)
        try:
            ms = mutant_spec(g.spec, rs, m)
        except SpecError:
            continue
        if ms is None:
            continue
        found = sampled_difference(g, Game(ms), rng, rounds=10**9,
                                   deadline=time.monotonic() + each)
        at = table_text(table, readings, official)
        if isinstance(found, PlayedDifferently):
            return (found, v.config, g), {"at": at, "sampled": unseen}
        unseen.append([at, found.rounds, found.states])
    return None, {"sampled": unseen, "same": [], "unread": [], "tried": len(unseen),
                  "limit": f"{seconds:g} s"}


def _sampled_attempts(mid: str, known: Tables, choices: dict, extra, wide: bool, first=()):
    """(table, variant, rule set, mutant, readings) in the order ``--sampled`` tries them."""
    official = dict(load_variant("official").readings)
    found = []
    for size, suits in WIDE if wide else SAMPLED:
        got = known.get(table_named(size, OPTIONS, suits))
        if got is not None and mid in got[2]:
            found.append((table_named(size, OPTIONS, suits), *got))
    if not found:
        return
    _, _, rs0, by_id0 = found[0]
    rule = next(r for r in rs0.rules if r.id == by_id0[mid].rule)
    bases, near, _ = reading_sets(choices, rule, choices_read(rs0, by_id0[mid]))
    own = {rule.choice: rule.reading} if rule.choice else {}
    for readings in [{**official, **x, **own} for x in first] + bases + [
            {**official, **x, **own} for x in extra] + near:
        for table, v, rs, by_id in found:
            yield table, v, rs, by_id[mid], readings


def failed_proof_readings(records: list[str]) -> dict:
    """mutant id -> the readings (as changes to ``official``'s) under which a
    ``tools/mutation/prove_mutants.py`` proof failed: a state the invariants allow where
    the mutant plays differently, which random rounds under those readings may
    reach."""
    out: dict = {}
    for path in records:
        for x in Path(path).read_text().splitlines():
            if not x.strip():
                continue
            r = json.loads(x)
            for p in r.get("proofs", ()):
                if p["result"] in ("proved", "same") or " official" not in p["at"]:
                    continue
                _, _, swaps = p["at"].partition(" official")
                pairs = [y.split("=", 1) for y in swaps.removeprefix(" + ").split(", ") if "=" in y]
                readings = dict(pairs)
                if readings not in out.setdefault(r["id"], []):
                    out[r["id"]].append(readings)
    return out


def proved(records: list[str]) -> set:
    """The mutants whose last row in these ``tools/mutation/prove_mutants.py`` records is proved."""
    last: dict = {}
    for path in records:
        for x in Path(path).read_text().splitlines():
            if x.strip():
                r = json.loads(x)
                last[r["id"]] = r.get("outcome")
    return {m for m, o in last.items() if o == "proved"}


def survivors(files: list[str], notes: dict) -> list[str]:
    rows = [json.loads(x) for x in Path(files[0]).read_text().splitlines()[1:] if x.strip()]
    want = {r["id"] for r in rows if r.get("status") in ("survived", "timeout")}
    for later in files[1:]:
        for x in Path(later).read_text().splitlines()[1:]:
            if x.strip() and json.loads(x).get("status") == "killed":
                want.discard(json.loads(x)["id"])
    return sorted(want - set(notes))


def choice_points() -> dict:
    """choice point -> its readings, as the rule set names them."""
    choices: dict = {}
    for r in build_ruleset(load_variant("official").config).rules:
        if r.choice:
            choices.setdefault(r.choice, set()).add(r.reading)
    return choices


def readings_option(ap, texts: list[str], choices: dict) -> list[dict]:
    """``--readings CP=R[,CP=R...]`` (repeatable) as dicts; a bad one is the
    parser's error."""
    out = []
    for text in texts:
        pairs = [x.split("=", 1) for x in text.split(",") if x.strip()]
        bad = [x for x in pairs if len(x) != 2 or x[1] not in choices.get(x[0], ())]
        if bad:
            ap.error(f"--readings {text!r}: {'='.join(bad[0])} is not a choice point's reading")
        out.append(dict(pairs))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--survivors-of", required=True, action="append", metavar="RESULTS",
                    help="a results file of tools/mutation/mutate_spec.py (later ones remove their kills)")
    ap.add_argument("--out", default=str(REPO / "tests" / "regression"))
    ap.add_argument("--record", metavar="FILE",
                    help="one JSON line per mutant: what was found (appended to; the "
                         "mutants it has already are not searched again)")
    ap.add_argument("--seconds", type=float, default=20.0, help="time per mutant")
    ap.add_argument("--max-pairs", type=int, default=200_000, help="pairs per table at most")
    ap.add_argument("--only", action="append", metavar="TEXT")
    ap.add_argument("--sampled", type=float, metavar="SECONDS",
                    help="random rounds side by side at the proofs' larger tables instead, "
                         "SECONDS per mutant")
    ap.add_argument("--readings", action="append", default=[], metavar="CP=R[,CP=R...]",
                    help="with --sampled: also these readings over official's")
    ap.add_argument("--each", type=float, default=2.0, metavar="SECONDS",
                    help="with --sampled: random rounds at each table and readings")
    ap.add_argument("--wide", action="store_true",
                    help="with --sampled: at four players and with two suits instead")
    ap.add_argument("--first", action="append", default=[], metavar="CP=R[,CP=R...]",
                    help="with --sampled: these readings over official's before all others")
    ap.add_argument("--from-proofs", action="append", default=[], metavar="RECORD",
                    help="with --sampled: first the readings under which the mutant's proof "
                         "failed in RECORD (tools/mutation/prove_mutants.py)")
    ap.add_argument("--skip-proved", action="append", default=[], metavar="RECORD",
                    help="leave out the mutants tools/mutation/prove_mutants.py proved in RECORD")
    ap.add_argument("--shard", default="1/1", metavar="I/N", help="the I-th of N parts")
    a = ap.parse_args(argv)
    want = survivors(a.survivors_of, load_notes(NOTES))
    if a.skip_proved:
        done = proved(a.skip_proved)
        want = [m for m in want if m not in done]
    if a.only:
        want = [m for m in want if any(s in m for s in a.only)]
    i, n = (int(x) for x in a.shard.split("/"))
    want = want[i - 1::n]
    if a.record and Path(a.record).exists():  # go on with a search cut short
        done = {json.loads(x)["id"] for x in Path(a.record).read_text().splitlines()
                if x.strip()}
        want = [m for m in want if m not in done]
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    choices = choice_points()
    extra = readings_option(ap, a.readings, choices)
    first = readings_option(ap, a.first, choices)
    failed = failed_proof_readings(a.from_proofs)
    for readings in (r for rs in failed.values() for r in rs):
        bad = [f"{k}={v}" for k, v in readings.items() if v not in choices.get(k, ())]
        if bad:
            ap.error(f"--from-proofs: {bad[0]} is not a choice point's reading")
    known, pinned = Tables(), 0
    record = open(a.record, "a") if a.record else None
    for n, mid in enumerate(want, 1):
        t0 = time.monotonic()
        if a.sampled is not None:
            found, evidence = tell_apart_sampled(mid, known, choices, a.sampled, extra,
                                                 first=first + failed.get(mid, []),
                                                 each=a.each, wide=a.wide)
        else:
            found, evidence = tell_apart(mid, known, choices, a.seconds, a.max_pairs)
        row = {"id": mid, "seconds": round(time.monotonic() - t0, 1), **evidence}
        if found is not None:
            d, config, g = found
            path = out / f"{pinned_stem(mid)}.toml"
            row["outcome"] = "pinned"
            if path.exists():
                row["file"] = f"{path.name} (kept: it exists)"
            else:
                try:
                    path.write_text(scenario(config, g, mid, d), encoding="utf-8")
                    row["file"] = path.name
                    pinned += 1
                except InputError as e:
                    row["outcome"], row["error"] = "not saved", str(e)
        else:
            row["outcome"] = ("unseen" if evidence.get("sampled") else
                              "same" if evidence["same"] else
                              "unread" if evidence["unread"] else "inert")
        print(f"[{n}/{len(want)}] {row['outcome']:<9} {row['seconds']:5.1f}s {mid}"
              + (f"  at {row['at']}" if "at" in row else
                 f"  ({sum(x[1] for x in evidence['sampled'])} random rounds at "
                 f"{len(evidence['sampled'])} tables and readings)" if evidence.get("sampled") else
                 f"  ({len(evidence['same'])} "
                 f"tables exhausted, {len(evidence['unread'])} with the value unread)"),
              file=sys.stderr, flush=True)
        if record:
            record.write(json.dumps(row) + "\n")
            record.flush()
    print(f"{pinned} of {len(want)} survivors pinned in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
