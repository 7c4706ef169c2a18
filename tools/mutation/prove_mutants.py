"""For each surviving mutant of the spec, a proof that it plays the same game, beyond small tables.

    python -m tools.mutation.prove_mutants --survivors-of RESULTS [--survivors-of LATER]
                                  --record FILE [--shard I/N] [--only TEXT]
                                  [--heavy] [--history K] [--tables M,M2,M1,M12]
                                  [--readings CP=R,CP=R]

A mutant survives when no check sees it (``tools/mutation/mutate_spec.py``), and
``tools/mutation/pin_mutants.py`` found no round telling it apart at the small tables it
could exhaust.  This tries to prove it equivalent at tables too big to exhaust
(``tools/mutation/equivalence.py``: invariants of the spec proved by induction, then one
step per changed action: the same moves are legal and lead to the same states):

* **M**: 3 players, 1 suit, ranks 2..3, hands of 2, all six option cards (the
  2-player version of this table has 166 million states; this one, more), and
  **M2**, that 2-player version (a seat shifted by one is the other player
  there: some mutants differ only at two players);
  under the three shipped variants' readings and ``official``'s with one
  reading changed (``--near N``: N choice points the mutated fragment reads),
  the mutated rule's own reading always in force;
* **the full deck** at 2 players (two copies of each option card): under the
  three shipped variants as they are.

``--heavy`` and ``--history K`` strengthen the proof (``tools/mutation/equivalence.py``);
a reading swap whose readings give the definition the same body is recorded as
proved by its form (``checks/mutants.equivalent_by_form``), checked at every
player count with M's deck and the full deck.

Per table and readings the mutant is "same" (it compiles to the spec there),
"proved", or "not proved" (why: a state the proved invariants allow where the
two differ, which may be unreachable, or no answer in time).  A mutant proved
at least once and never "not proved" is recorded as ``proved``; one that is
"same" everywhere as ``inert`` (it changes nothing at these tables and
readings); the others as ``not proved``.  The invariant proofs are the costly
part (seconds at M, minutes at the full deck) and are shared by every mutant;
``--cache FILE`` keeps the names of the invariants proved per table and
readings, so a later run proves only those again (still a proof: an invariant
that no longer holds is dropped by the same induction).
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

from itcp.model.engine.engine import Game, build_spec
from itcp.spec.lang import SpecError
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import FULL_DECK_OVERRIDES, load_variant
from tools.mutation.equivalence import Proved, StepProver
from tools.mutation.mutants import choices_read, equivalent_by_form, mutant_change, mutants_of
from tools.mutation.pin_mutants import (
    NOTES,
    OPTIONS,
    choice_points,
    reading_sets,
    readings_option,
    survivors,
    table_text,
)
from tools.mutation.report import load_notes

BASES = ("official", "clarified", "published")
M = {"players": 3, "suits": 1, "ranks": (2, 3), "hand": 2, "options": OPTIONS}
M2 = {**M, "players": 2}   # a seat shifted by one is the other player: other mutants differ
# hands of one: a discard empties the hand (rules about an empty hand, zero points)
M1 = {**M, "hand": 1}
M12 = {**M1, "players": 2}
FULL = {**FULL_DECK_OVERRIDES, "players": 2}  # hands as official deals them
TABLES = {"M": M, "M2": M2, "M1": M1, "M12": M12, "full": FULL}
SMALL = ("M", "M2", "M1", "M12")


class Tables:
    """Per table: the variant, the rule set, its mutants by id; per table and
    readings: the prover (its invariants proved once)."""

    def __init__(self, cache: Path | None, heavy: bool = False):
        self.heavy = heavy
        self.tables: dict = {}
        self.provers: dict = {}
        self.cache_file = cache
        self.cache = json.loads(cache.read_text()) if cache and cache.exists() else {}

    def table(self, name: str, overrides: dict):
        if name not in self.tables:
            v = load_variant("official", overrides)
            rs = build_ruleset(v.config)
            self.tables[name] = (v, rs, {m.id: m for m in mutants_of(rs)})
        return self.tables[name]

    def prover(self, name: str, base, readings: dict) -> StepProver:
        key = json.dumps([name, base.scope, sorted(readings.items())])
        if key not in self.provers:
            t0 = time.monotonic()
            names = self.cache.get(key)
            p = StepProver(Game(base), only=names, heavy=self.heavy)
            self.provers[key] = p
            print(f"  invariants at {name} ({len(p.invariants)}) proved in "
                  f"{time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)
            if self.cache_file is not None:
                self.cache[key] = sorted(p.invariants)
                self.cache_file.write_text(json.dumps(self.cache, indent=0, sort_keys=True))
        return self.provers[key]


def attempts(mid: str, known: Tables, choices: dict, full: bool = True, near: int = 0,
             tables=("M", "M2"), combos: int = 0, extra=()):
    """(table name, readings, a combination?) to try for one mutant, in order.
    ``extra``: readings (choice point -> reading) tried as well, each over
    ``official``'s with the rule's own reading in force.  ``combos``: then,
    under each shipped variant, every combination of the readings of the first
    ``combos`` choice points the fragment reads."""
    official = dict(load_variant("official").readings)
    for name in tables:
        _, rs, by_id = known.table(name, TABLES[name])
        m = by_id.get(mid)
        if m is not None:
            rule = next(r for r in rs.rules if r.id == m.rule)
            bases, near_sets, _ = reading_sets(choices, rule, choices_read(rs, m))
            own = {rule.choice: rule.reading} if rule.choice else {}
            for r in bases + near_sets[:near] + [{**official, **x, **own} for x in extra]:
                yield name, r, False
    for b in BASES if full else ():
        yield "full", dict(load_variant(b).readings), False
    for name in tables if combos else ():
        _, rs, by_id = known.table(name, TABLES[name])
        m = by_id.get(mid)
        if m is None:
            continue
        rule = next(r for r in rs.rules if r.id == m.rule)
        read = [c for c in choices_read(rs, m) if c != rule.choice][:combos]
        for b in BASES:
            base = {**dict(load_variant(b).readings),
                    **({rule.choice: rule.reading} if rule.choice else {})}
            for combo in itertools.product(*[sorted(choices[c]) for c in read]):
                yield name, {**base, **dict(zip(read, combo))}, True


#: where a mutant equivalent by the rules' form is checked to be so: every player
#: count, with M's deck (hands of one: eight players can be dealt) and with the
#: full deck (a rule's body may depend on both)
FORM_TABLES = {f"{deck}-{n}p": {**base, "players": n} for n in range(2, 9)
               for deck, base in (("M1", M1), ("full", FULL_DECK_OVERRIDES))}


def by_form(mid: str, known: Tables) -> str | None:
    """``equivalent_by_form``'s reason, given at every one of ``FORM_TABLES``
    whose rule set has the mutant, or None."""
    whys = set()
    for name, overrides in FORM_TABLES.items():
        _, rs, by_id = known.table(name, overrides)
        if mid in by_id:
            whys.add(equivalent_by_form(rs, by_id[mid]))
    if len(whys) != 1 or None in whys:
        return None
    return whys.pop() + " (at every player count, 2 to 8, with table M's deck and the full deck)"


def prove(mid: str, known: Tables, choices: dict, seconds: float, full: bool = True,
          near: int = 0, history: int = 0, tables=("M", "M2"), combos: int = 0,
          combo_proofs: int = 2, extra=()) -> dict:
    official = dict(load_variant("official").readings)
    form = by_form(mid, known)
    if form is not None:  # the spec itself at every table and readings: nothing to prove
        return {"id": mid, "outcome": "proved", "form": form, "proofs": []}
    rows, proved, failed = [], 0, 0
    alike, at_combos = 0, 0  # combinations that compile to the spec; proofs among them
    for name, readings, combo in attempts(mid, known, choices, full, near, tables, combos,
                                          extra):
        if combo and at_combos >= combo_proofs:
            break
        v, rs, by_id = known.table(name, TABLES[name])
        m = by_id.get(mid)
        if m is None:
            continue
        rule = next(r for r in rs.rules if r.id == m.rule)
        at = (table_text(TABLES[name], readings, official) if name != "full" else
              f"full deck, 2p, {next(b for b in BASES if dict(load_variant(b).readings) == readings)}")
        base = build_spec(v.config, readings, scope=rule.scope)
        try:
            got = mutant_change(base, rs, m)
        except SpecError:
            rows.append({"at": at, "result": "stillborn"})
            continue
        if got is None:
            if combo:  # many: counted in one row at the end
                alike += 1
            else:
                rows.append({"at": at, "result": "same"})
            continue
        ms, change = got
        at_combos += combo
        out = known.prover(name, base, readings).same_game(ms, change.actions,
                                                            change.elsewhere, seconds,
                                                            history)
        if isinstance(out, Proved):
            proved += 1
            rows.append({"at": at, "result": "proved", "invariants": out.invariants,
                         "seconds": out.seconds})
        else:
            failed += 1
            rows.append({"at": at, "result": "not proved", "action": out.action,
                         "why": out.why})
            break  # one table short of a proof: no proof; the rest would cost time only
    if alike:
        rows.append({"at": f"{alike} combinations of the readings it reads (M tables)",
                     "result": "same"})
    outcome = ("not proved" if failed else "proved" if proved else "inert")
    return {"id": mid, "outcome": outcome, "proofs": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--survivors-of", required=True, action="append", metavar="RESULTS",
                    help="a results file of tools/mutation/mutate_spec.py (later ones remove their kills)")
    ap.add_argument("--record", required=True, metavar="FILE",
                    help="one JSON line per mutant (appended to; mutants it has are skipped)")
    ap.add_argument("--cache", metavar="FILE", help="the invariants proved per table and readings")
    ap.add_argument("--seconds", type=float, default=60.0, help="per step query at most")
    ap.add_argument("--shard", default="1/1", metavar="I/N",
                    help="take every N-th survivor from the I-th (run N of these side by side)")
    ap.add_argument("--only", action="append", metavar="TEXT")
    ap.add_argument("--no-full-deck", action="store_true", help="table M only")
    ap.add_argument("--reverse", action="store_true",
                    help="the shard's mutants last first (a second process on the same shard, "
                         "with its own --record, meets the first in the middle)")
    ap.add_argument("--again", action="append", default=[], metavar="OUTCOME",
                    choices=("not proved", "inert"),
                    help="try the mutants --record has with this outcome again (after the "
                         "candidates or tables grew; use another --cache); the last row "
                         "counts (repeatable)")
    ap.add_argument("--near", type=int, default=0, metavar="N",
                    help="also official's readings with one changed, N choice points the "
                         "fragment reads (each readings' invariants cost ~30 s at M)")
    ap.add_argument("--history", type=int, default=0, metavar="K",
                    help="the state before a compared step is reached by K moves from states "
                         "the invariants allow (drops allowed states no move leads to)")
    ap.add_argument("--heavy", action="store_true",
                    help="also the invariants that do arithmetic on card sets (CONSERVATION: "
                         "every card in one place); slower to prove")
    ap.add_argument("--tables", default="M,M2", metavar="NAMES",
                    help="the tables to prove at, in order, from " + ", ".join(SMALL)
                         + " (M1, M12: M and M2 with hands of one)")
    ap.add_argument("--combos", type=int, default=0, metavar="N",
                    help="then every combination of the readings of the first N choice points "
                         "the fragment reads, under each shipped variant (proved at the first "
                         "two that compile differently)")
    ap.add_argument("--readings", action="append", default=[], metavar="CP=R[,CP=R...]",
                    help="also these readings over official's (the rule's own in force), "
                         "e.g. mercy.race=next_only,mercy.discards=every_racer (repeatable)")
    a = ap.parse_args(argv)
    tables = tuple(x.strip() for x in a.tables.split(",") if x.strip())
    if not tables or any(x not in SMALL for x in tables):
        ap.error(f"--tables takes names from {', '.join(SMALL)}, e.g. M,M2")
    want = survivors(a.survivors_of, load_notes(NOTES))
    if a.only:
        want = [m for m in want if any(s in m for s in a.only)]
    i, n = (int(x) for x in a.shard.split("/"))
    # contiguous blocks by rule: the mutants of one rule share their readings, so
    # each shard proves the invariants of the readings it needs, rarely another's
    want.sort(key=lambda m: (m.split()[1], m))
    size = -(-len(want) // n)
    want = want[(i - 1) * size:i * size]
    if a.reverse:
        want.reverse()
    record = Path(a.record)
    if record.exists():  # the last row of a mutant is its result
        last = {}
        for x in record.read_text().splitlines():
            if x.strip():
                r = json.loads(x)
                last[r["id"]] = r["outcome"]
        want = [m for m in want if m not in last
                or last[m] in a.again]
    choices = choice_points()
    extra = readings_option(ap, a.readings, choices)
    known = Tables(Path(a.cache) if a.cache else None, a.heavy)
    with open(record, "a") as out:
        for k, mid in enumerate(want, 1):
            t0 = time.monotonic()
            row = prove(mid, known, choices, a.seconds, not a.no_full_deck, a.near, a.history,
                        tables, a.combos, extra=extra)
            row["seconds"] = round(time.monotonic() - t0, 1)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"[{k}/{len(want)}] {row['outcome']:<10} {row['seconds']:5.1f}s {mid}",
                  file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
