"""Random rounds that try to refute the equivalence notes of docs/mutation-notes.toml.

    python -m tools.mutation.check_notes [--only TEXT] [--seconds S] [--seed N]
                                [--record FILE] [--out DIR] [--shard I/N]

A note argues by hand that a mutant of the spec plays the same game as the spec
under every table and readings.  An argument can be wrong; this plays the spec
and the noted mutant side by side (``checks/distinguish.sampled_difference``,
the same deal, moves and chance outcomes) at tables larger and more varied than
the mutation run's (two to five players, one or two suits, several copies of
Mercy, Justice, Pride Cycle and Secret Combination, so that effects chain),
under readings drawn at random for every choice point with the mutated rule's
own reading in force, the moves drawn with a bias towards the moves effects come
from (answers, option cards discarded or given; a Pass rarely).  Whole games for
a rule of whole games (``game.*``).

A round the two play differently (a move one refuses, a state that differs in
what a scenario states) refutes the note: it is saved as a scenario in ``--out``
(never over a file) and the command exits 1.  Otherwise each row says what the
rounds saw, the evidence a note cites: the rounds and steps played, the steps at
which the two games' states differed at all (in a variable no scenario states),
and which variables differed in which phases, which is what most notes claim
("they differ only in resume, only in DISCARD").  Evidence, not proof: a note's
argument is the proof.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from itcp.model.engine.engine import Game, build_spec
from itcp.spec.lang import SpecError
from itcp.spec.rules.vocabulary import PHASE_NAMES
from tools.mutation.distinguish import PlayedDifferently, sampled_difference
from tools.mutation.mutants import mutant_spec, pinned_stem
from tools.mutation.pin_mutants import NOTES, Tables, choice_points, scenario, table_named
from tools.mutation.report import load_notes

#: the tables, as ``pin_mutants._table`` takes them ((players, ranks, hand), option
#: cards with copies, suits): effects that chain (a Justice answered by a Mercy
#: whose race winner forms a team) need copies
TABLES = (
    ((2, (2, 3), 2), ("mercy", "justice", "repentance", "unbelief", "pride_cycle",
                      "secret_combination"), 1),
    ((3, (2, 3), 2), ("mercy=2", "justice=2", "repentance", "unbelief", "pride_cycle",
                      "secret_combination"), 1),
    ((4, (2, 3), 2), ("mercy=2", "justice=3", "repentance", "unbelief", "pride_cycle=2",
                      "secret_combination"), 2),
    ((5, (2, 3), 2), ("mercy=3", "justice=3", "repentance", "unbelief", "pride_cycle",
                      "secret_combination=2"), 2),
    ((3, (2, 4), 3), ("mercy=2", "justice=2", "repentance", "unbelief", "pride_cycle",
                      "secret_combination"), 2),
)


def biased(option_cards: frozenset):
    """A move chooser: answers and moves that play an option card are three
    times as likely as others, a Pass a fifth as likely."""
    def choose(state, legal, rng):
        weights = [0.2 if a[0] == "pass" else
                   3.0 if a[0] == "answer" or (a[0] in ("discard", "give")
                                               and a[1][0] in option_cards) else 1.0
                   for a in legal]
        return rng.choices(legal, weights)[0]
    return choose


class Watch:
    """What differed between the two games' states, step by step."""

    def __init__(self, g: Game):
        self.names = g.var_names
        self.phase = g.index["phase"]
        self.steps = self.differed = 0
        self.where: Counter = Counter()

    def __call__(self, action, sa, sb) -> None:
        self.steps += 1
        if sa == sb:
            return
        self.differed += 1
        phase = PHASE_NAMES[sa[self.phase]]
        for name, x, y in zip(self.names, sa, sb):
            if x != y:
                self.where[f"{name} in {phase}"] += 1


def check(mid: str, choices: dict, seconds: float, rng, out: Path,
          known: Tables | None = None) -> dict:
    """Random rounds for one noted mutant until ``seconds`` are spent (``known``:
    the tables' rule sets and mutants, built once for every mutant)."""
    known = Tables() if known is None else known
    start = time.monotonic()
    row: dict = {"id": mid, "rounds": 0, "steps": 0, "differed": 0, "where": Counter(),
                 "attempts": 0, "compiled_same": 0}
    while time.monotonic() - start < seconds:
        table = table_named(*rng.choice(TABLES))
        got = known.get(table)
        m = got[2].get(mid) if got is not None else None
        if m is None:
            row["attempts"] += 1
            continue
        assert got is not None   # the mutant was found in it
        v, rs, _ = got
        rule = next(r for r in rs.rules if r.id == m.rule)
        readings = {cp: rng.choice(sorted(rds)) for cp, rds in choices.items()}
        if rule.choice:
            readings[rule.choice] = rule.reading
        row["attempts"] += 1
        try:
            base = build_spec(v.config, readings, scope=rule.scope)
            ms = mutant_spec(base, rs, m)
        except SpecError:
            continue
        if ms is None:
            row["compiled_same"] += 1
            continue
        g, gm = Game(base), Game(ms)
        # compiled before the rounds' clock starts: on a slow machine compiling
        # took longer than the tenth of the time the rounds get, and none was played
        _ = (g.impl, gm.impl)
        watch = Watch(g)
        options = frozenset(c.index for c in v.config.cards if c.is_option)
        found = sampled_difference(g, gm, rng, rounds=10**9,
                                   deadline=time.monotonic() + min(2.0, seconds / 10),
                                   choose=biased(options), watch=watch)
        row["steps"] += watch.steps
        row["differed"] += watch.differed
        row["where"].update(watch.where)
        if isinstance(found, PlayedDifferently):
            path = out / f"{pinned_stem(mid)}.toml"
            if not path.exists():
                path.write_text(scenario(v.config, g, mid, found), encoding="utf-8")
            row.update(refuted=str(path), table=table, readings=readings)
            break
        row["rounds"] += found.rounds
    row["where"] = dict(row["where"].most_common())
    row["seconds"] = round(time.monotonic() - start, 1)
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", metavar="TEXT",
                    help="only the noted mutants whose id contains TEXT (repeatable)")
    ap.add_argument("--seconds", type=float, default=60.0, help="time per mutant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", metavar="FILE", help="one JSON line per mutant")
    ap.add_argument("--shard", default="1/1", metavar="I/N", help="the I-th of N parts")
    ap.add_argument("--out", default="refuted", metavar="DIR",
                    help="where a round that refutes a note is saved as a scenario")
    a = ap.parse_args(argv)
    ids = sorted(load_notes(NOTES))
    if a.only:
        ids = [m for m in ids if any(s in m for s in a.only)]
    i, n = (int(x) for x in a.shard.split("/"))
    ids = ids[i - 1::n]
    choices = choice_points()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    record = open(a.record, "a") if a.record else None
    refuted, known = 0, Tables()
    for n, mid in enumerate(ids, 1):
        row = check(mid, choices, a.seconds, random.Random(f"{a.seed} {mid}"), out, known)
        refuted += "refuted" in row
        print(f"[{n}/{len(ids)}] {mid}: "
              + (f"REFUTED, {row['refuted']}" if "refuted" in row else
                 f"{row['rounds']} rounds, {row['steps']} steps, {row['differed']} differed "
                 f"({', '.join(list(row['where'])[:4]) or 'never'})"), flush=True)
        if record:
            record.write(json.dumps(row) + "\n")
            record.flush()
    return 1 if refuted else 0


if __name__ == "__main__":
    sys.exit(main())
