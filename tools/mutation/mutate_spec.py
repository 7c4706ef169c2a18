"""Mutation analysis of the spec: are the checks strong enough to catch a wrong rule?

    python -m tools.mutation.mutate_spec --workers 2 --out mutation-spec.jsonl
    python -m tools.mutation.mutate_spec --report mutation-spec.jsonl \
        --summary docs/mutation/spec-mutants.jsonl --docs docs/mutation.md

Every mutant of the spec (``tools/mutation/mutants.py``: a guard dropped or negated, an
update's condition negated, an update dropped, a seat shifted by one, a
reading's definition given another reading's body) is run against the library's
scenarios (and the rounds ``tools/mutation/pin_mutants.py`` generated for earlier
survivors, ``tests/regression/``) and the properties' verdicts at small tables
(``tools/mutation/mutation.py``).
The run writes one JSON line per mutant to ``--out`` as it goes (``--resume``
goes on with a file a run left unfinished); ``--report`` turns such a file and
the equivalence notes (``docs/mutation-notes.toml``: the arguments, written by
hand, that a surviving mutant cannot be killed) into the mutation score, per
operator, and the table of survivors (``--docs FILE`` writes it into the
generated part of that file).  The records stay outside the repository:
``--summary FILE`` writes what the report shows of them, one line per mutant
(``tools/mutation/summary.py``), and ``python -m tools.mutation.report`` renders
the docs from that file alone.

After scenarios are added for the survivors, ``--survivors-of RESULTS --out
LATER`` runs those mutants again (``--scenario FILE ... --no-tables``: only
the new scenarios, the checks the first run did not have), and ``--report
RESULTS --update LATER`` reports the first run with the kills of the later one.

Options to run a part: ``--only TEXT`` (mutants whose id contains TEXT,
repeatable), ``--operator OP`` (repeatable), ``--sample N --seed S`` (the
first N mutants of an order shuffled with seed S: a larger N with the same
seed and ``--resume`` extends a smaller run).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import time
from pathlib import Path

from tools.mutation import mutation as M
from tools.mutation.mutants import OPERATORS, pinned_stem
from tools.mutation.report import counts, load_notes, render, write_docs
from tools.mutation.summary import merged_search, summarise, write_summary

REPO = Path(__file__).resolve().parents[2]
LIBRARY = REPO / "scenarios" / "library"
#: rounds generated from the spec that pin a rule a survivor changed (tools/mutation/pin_mutants.py)
PINNED = REPO / "tests" / "regression"
NOTES = REPO / "docs" / "mutation-notes.toml"


def _progress(o, done, total):
    line = f"[{done}/{total}] {o.status:<9} {o.seconds:6.1f}s {o.mutant.id}"
    if o.kills:
        line += f"  <- {o.kills[0][0]}"
    print(line, file=sys.stderr, flush=True)


def read_results(path: Path) -> tuple[dict, list[dict]]:
    header, rows = {}, []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise SystemExit(f"error: {path}:{n}: not a JSON line ({e.msg}); "
                             "a run cut short may leave a half line: delete it and --resume") from e
        if n == 1 and "run" in obj:
            header = obj
        elif "resumed" in obj:  # a --resume of the run, on the spec as it was then
            run = header.setdefault("run", {})
            run["mutants"] = obj["resumed"]["mutants"]
            run.setdefault("resumed", []).append(obj["resumed"]["command"])
        else:
            rows.append(obj)
    return header, rows


def _own(job):
    """One survivor against the round pinned for it (``--own-pinned``)."""
    mid, path, seconds = job
    base = M.baseline([path], ())
    m = next((x for x in M.all_mutants(base) if x.id == mid), None)
    if m is None:
        raise SystemExit(f"error: {path}: its table has no mutant {mid!r}")
    return M.run_mutant(base, m, seconds)


def run_own_pinned(a) -> int:
    """Each survivor of ``--survivors-of`` against the round pinned for it alone:
    the quick way to count what ``tools/mutation/pin_mutants.py`` killed."""
    out = Path(a.out)
    if out.exists() and not a.force:
        print(f"error: {out} exists; --force starts it again", file=sys.stderr)
        return 2
    _, earlier = read_results(Path(a.survivors_of))
    again = sorted(r["id"] for r in earlier if r["status"] in ("survived", "timeout"))
    jobs = [(mid, PINNED / f"{pinned_stem(mid)}.toml", a.seconds) for mid in again
            if (PINNED / f"{pinned_stem(mid)}.toml").exists()]
    header = {"run": {"command": " ".join(["python", "tools/mutation/mutate_spec.py"] + sys.argv[1:]),
                      "mutants": len(jobs), "scenarios": len(jobs), "tables": {},
                      "seconds_per_mutant": a.seconds, "workers": a.workers}}
    print(f"{len(jobs)} of {len(again)} survivors have a pinned round", file=sys.stderr)
    tmp = out.with_name(out.name + ".part")
    with tmp.open("w") as f:
        f.write(json.dumps(header) + "\n")
        with mp.get_context("fork").Pool(a.workers) as pool:
            for n, o in enumerate(pool.imap_unordered(_own, jobs), 1):
                f.write(json.dumps(o.as_json()) + "\n")
                _progress(o, n, len(jobs))
    tmp.replace(out)
    return 0


def run(a) -> int:
    out = Path(a.out)
    if out.exists() and not (a.resume or a.force):
        print(f"error: {out} exists; --resume goes on with it, --force starts it again",
              file=sys.stderr)
        return 2
    files = ([Path(x) for x in a.scenario] if a.scenario else
             sorted(LIBRARY.glob("*.toml")) + sorted(PINNED.glob("*.toml")))
    tables = () if a.no_tables else M.TABLES
    start = time.monotonic()
    print(f"baseline: {len(files)} scenarios, tables "
          f"{', '.join(t.name for t in tables) or 'none'}", file=sys.stderr, flush=True)
    base = M.baseline(files, tables)
    todo = M.all_mutants(base)
    total = len(todo)
    if a.operator:
        todo = [m for m in todo if m.operator in a.operator]
    if a.only:
        todo = [m for m in todo if any(s in m.id for s in a.only)]
    if a.survivors_of:
        _, earlier = read_results(Path(a.survivors_of))
        again = {r["id"] for r in earlier if r["status"] in ("survived", "timeout")}
        todo = [m for m in todo if m.id in again]
    if a.sample:
        # the first N of one seeded order of every mutant: a run of --sample N is
        # the start of a run of --sample M > N with the same seed (--resume goes on)
        todo = random.Random(a.seed).sample(todo, len(todo))[:a.sample]
    done = set()
    if a.resume and out.exists():
        _, rows = read_results(out)
        done = {r["id"] for r in rows}
        todo = [m for m in todo if m.id not in done]
    header = {"run": {"command": " ".join(["python", "tools/mutation/mutate_spec.py"] + sys.argv[1:]),
                      "mutants": total, "scenarios": len(files),
                      "tables": {t.name: t.doc for t in tables},
                      "variants": sorted({c.name.split("@")[0] for c in base.checks
                                          if c.kind == "properties"}),
                      "baseline": {c.name: {"states": c.states, "verdicts": c.verdicts}
                                   for c in base.checks if c.kind == "properties"},
                      "seconds_per_mutant": a.seconds, "workers": a.workers}}
    print(f"{len(todo)} mutants to run ({total} in all, {len(done)} done before); baseline "
          f"{time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    mode = "a" if (a.resume and out.exists()) else "w"
    with out.open(mode) as f:
        if mode == "w":
            f.write(json.dumps(header) + "\n")
        elif todo:  # the spec may have grown since: the record says how many it has now
            f.write(json.dumps({"resumed": {"command": header["run"]["command"],
                                            "mutants": total}}) + "\n")

        def progress(o, n, t):
            f.write(json.dumps(o.as_json()) + "\n")
            f.flush()
            os.fsync(f.fileno())
            _progress(o, n, t)

        M.run(base, todo, a.workers, a.seconds, a.all_kills, progress)
    print(f"done in {time.monotonic() - start:.0f} s: {out}", file=sys.stderr)
    return 0


def report(a) -> int:
    header, rows = read_results(Path(a.report))
    if a.update:
        # runs of the first run's survivors (--survivors-of) after the library grew:
        # their kills replace the first run's rows (a mutant a later run does not
        # kill keeps its row: a later run may run only the checks added since,
        # --scenario and --no-tables)
        newer, commands = {}, []
        for later_path in a.update:
            later_header, later = read_results(Path(later_path))
            newer.update({r["id"]: r for r in later if r["status"] == "killed"})
            commands.append(later_header.get("run", {}).get("command", later_path))
        rows = [newer.get(r["id"], r) for r in rows]
        header = {"run": {**header.get("run", {}), "update": commands}}
    search = None
    if a.search:  # tools/mutation/pin_mutants.py --record: the last search per mutant
        search = merged_search([json.loads(x) for path in a.search
                                for x in Path(path).read_text().splitlines() if x.strip()])
    # tools/mutation/prove_mutants.py --record: the proofs per mutant; tools/mutation/check_notes.py
    # --record: the random rounds per noted mutant (a later file's row wins)
    proofs = _rows_by_id(a.proofs) if a.proofs else None
    checked = _rows_by_id(a.notes_check) if a.notes_check else None
    run, lines = summarise(header, rows, search, proofs, checked)
    if a.summary:
        write_summary(Path(a.summary), run, lines)
        print(f"wrote {a.summary}", file=sys.stderr)
    notes = load_notes(Path(a.notes))
    text = render(run, lines, notes)
    if a.docs:
        write_docs(Path(a.docs), text)
        print(f"wrote {a.docs}", file=sys.stderr)
    elif not a.summary:
        print(text)
    s = counts(lines, notes)
    print(f"score {s['killed']}/{s['scored']} = {s['score']:.1%}; survivors without a note: "
          f"{s['unexplained']}", file=sys.stderr)
    return 0


def _rows_by_id(paths: list[str]) -> dict:
    """mutant id -> its row, from JSON-lines records (a later row of an id wins)."""
    out = {}
    for path in paths:
        for x in Path(path).read_text().splitlines():
            if x.strip():
                r = json.loads(x)
                out[r["id"]] = r
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="mutation-spec.jsonl", help="results, one JSON line each")
    ap.add_argument("--resume", action="store_true", help="go on with --out's unfinished run")
    ap.add_argument("--force", action="store_true", help="start --out again if it exists")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=300.0, help="time limit per mutant")
    ap.add_argument("--all-kills", action="store_true",
                    help="run every check on every mutant (not only up to the first kill)")
    ap.add_argument("--operator", action="append", choices=OPERATORS)
    ap.add_argument("--only", action="append", metavar="TEXT")
    ap.add_argument("--survivors-of", metavar="RESULTS",
                    help="only the mutants that survived (or timed out) in RESULTS")
    ap.add_argument("--own-pinned", action="store_true",
                    help="with --survivors-of: each survivor against its own pinned round only")
    ap.add_argument("--scenario", action="append", metavar="FILE",
                    help="only these scenario files (default: the whole library)")
    ap.add_argument("--no-tables", action="store_true",
                    help="no property tables: scenarios only")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--report", metavar="RESULTS", help="report on a results file, run nothing")
    ap.add_argument("--notes", default=str(NOTES), help="the equivalence notes (TOML)")
    ap.add_argument("--summary", metavar="FILE",
                    help="with --report: write the summary, one line per mutant, to FILE "
                         "(docs/mutation/spec-mutants.jsonl is the one the docs render)")
    ap.add_argument("--docs", metavar="FILE", help="with --report: write into FILE's generated part")
    ap.add_argument("--update", metavar="RESULTS", action="append",
                    help="with --report: kills of a later --survivors-of run replace the "
                         "first run's rows (repeatable)")
    ap.add_argument("--search", metavar="RECORD", action="append",
                    help="with --report: tools/mutation/pin_mutants.py --record's file, shown per survivor "
                         "(repeatable; a later file's row of a mutant wins, except that "
                         "random rounds finding nothing, --sampled, add to the row)")
    ap.add_argument("--proofs", metavar="RECORD", action="append",
                    help="with --report: tools/mutation/prove_mutants.py --record's file (repeatable); "
                         "a survivor proved there counts as equivalent")
    ap.add_argument("--notes-check", metavar="RECORD", action="append",
                    help="with --report: tools/mutation/check_notes.py --record's file (repeatable): "
                         "the random rounds that tried to refute each note")
    a = ap.parse_args(argv)
    if a.workers < 1 or a.seconds <= 0 or a.sample < 0:
        ap.error("--workers must be at least 1, --seconds positive, --sample not negative")
    if a.own_pinned:
        if not a.survivors_of:
            ap.error("--own-pinned needs --survivors-of")
        return run_own_pinned(a)
    return report(a) if a.report else run(a)


if __name__ == "__main__":
    sys.exit(main())
