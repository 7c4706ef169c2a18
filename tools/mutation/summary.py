"""The spec mutation analysis kept in the repository: one line per mutant.

A run of the analysis leaves records of several megabytes, outside the repository:
``tools/mutation/mutate_spec.py``'s results (one JSON line per mutant, and the
later runs of its survivors), ``tools/mutation/pin_mutants.py``'s searches,
``tools/mutation/prove_mutants.py``'s proofs and ``tools/mutation/check_notes.py``'s
random rounds.  ``summarise`` reduces them to what the report shows, and
``docs/mutation/spec-mutants.jsonl`` keeps that: a first line with the run (its
commands, tables and the unmutated spec's states), then one line per mutant::

    {"id": ..., "operator": ..., "rule": ..., "status": "killed", "by": "x.toml"}

``status`` is the run's final one (killed, survived, timeout, stillborn: the
equivalence notes are applied when the report is rendered, so a note written
later counts without the records).  A killed mutant says which check killed it
first (``by``); a stillborn one why (``why``); a survivor how many checks compile
it differently (``reached``), what the proof found (``proof``, and ``proved``:
the first table and readings it was proved at), what the search for a round that tells it apart found
(``search``, ``search_kind``) and, for a noted one, what random rounds saw of it
(``rounds``, and ``refuted`` with the scenario that refutes the note).
``tools/mutation/report.py`` renders the file into docs/mutation.md.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: the summary of the last full run, rendered into docs/mutation.md
SUMMARY = REPO / "docs" / "mutation" / "spec-mutants.jsonl"

#: what of a run's header the report reads
RUN_KEYS = ("command", "resumed", "update", "mutants", "scenarios", "tables", "baseline")


def merged_search(rows: list[dict]) -> dict:
    """mutant id -> its ``tools/mutation/pin_mutants.py`` row, from the rows of several
    records in order: a later row wins, except that random rounds which found
    nothing (``--sampled``: a row with "sampled", not pinned) add to an earlier row
    of the same mutant instead of hiding what that exhaustive search found."""
    out: dict = {}
    for r in rows:
        was = out.get(r["id"])
        if "sampled" in r and r["outcome"] != "pinned" and was is not None:
            out[r["id"]] = {**was, "sampled": r["sampled"]}
        else:
            out[r["id"]] = r
    return out


def searched(row: dict | None) -> str:
    """What ``tools/mutation/pin_mutants.py``'s searches found for a survivor."""
    if row is None:
        return "not searched"
    if row["outcome"] != "pinned" and row.get("sampled"):
        rounds = sum(x[1] for x in row["sampled"])
        more = (f"nothing in {rounds:,} random rounds at {len(row['sampled'])} larger "
                f"tables and readings")
        if row["outcome"] == "unseen":
            return more
        return f"{searched({k: v for k, v in row.items() if k != 'sampled'})}; {more}"
    if row["outcome"] == "pinned":
        return f"told apart at {row['at']}: tests/regression/{row['file']}"
    if row["outcome"] in ("same", "unread", "inert"):
        tables, unread = len(row["same"]), len(row.get("unread", ()))
        pairs = sum(n for _, n in row["same"])
        end = f"stopped at {row['limit']}" if row.get("limit") else "every table tried"
        parts = []
        if unread:
            parts.append(f"the value it writes is never read at {unread} tables and readings")
        if tables:
            parts.append(f"not told apart at {tables} tables exhausted ({pairs:,} state pairs)")
        if not parts:
            return f"changes no elaborated spec at the tables tried ({end})"
        return "; ".join(parts) + f" ({end})"
    return row["outcome"]


def search_kind(row: dict | None) -> str:
    """pinned, unread, same, inert or none: how a survivor's search ended."""
    if row is None:
        return "none"
    if row["outcome"] in ("pinned", "not saved"):
        return "pinned" if row["outcome"] == "pinned" else "none"
    if row["outcome"] == "unseen" or row["same"]:
        return "same"
    return "unread" if row.get("unread") else "inert"


#: where a mutant proved equivalent by the rules' form is proved
BY_FORM = "every table and readings, by the rules' form"


def proof(row: dict | None) -> str:
    """What ``tools/mutation/prove_mutants.py`` found for a survivor, in a few words."""
    if row is None:
        return "not tried"
    if row.get("form"):
        return f"equivalent at every table and readings, by the rules' form: {row['form']}"
    got = Counter(p["result"] for p in row["proofs"])
    if row["outcome"] == "proved":
        return f"proved at {got['proved']} (same at {got['same']})"
    if row["outcome"] == "inert":
        return "changes nothing at the proof tables"
    bad = next(p for p in row["proofs"] if p["result"] not in ("proved", "same"))
    why = bad.get("why", bad["result"])
    return (f"not proved at {got['not proved'] + got['stillborn']} of {len(row['proofs'])} "
            f"(first: {bad['at']}: {bad.get('action', '')}: {why})")


def rounds_seen(row: dict | None) -> str:
    """What ``tools/mutation/check_notes.py``'s random rounds saw of a noted mutant."""
    if row is None:
        return "not run"
    if row.get("refuted"):
        return f"**refuted**: {row['refuted']}"
    if not row["steps"]:
        return "compiles to the spec at every table and readings drawn" \
            if row.get("compiled_same") else "no round played"
    where = ", ".join(list(row["where"])[:3]) + (", ..." if len(row["where"]) > 3 else "")
    differed = (f"the states differed at {row['differed']:,} ({where})" if row["differed"]
                else "the states never differed")
    return f"{row['rounds']:,} rounds, {row['steps']:,} steps; {differed}; no move or fact did"


def proved_at(row: dict) -> str:
    """The first table and readings a proved mutant was proved at (``BY_FORM``)."""
    if row.get("form"):
        return BY_FORM
    return next(p["at"] for p in row["proofs"] if p["result"] == "proved")


def summarise(header: dict, rows: list[dict], search: dict | None = None,
              proofs: dict | None = None, checked: dict | None = None) -> tuple[dict, list[dict]]:
    """The run and one line per mutant, from a run's header and rows (its
    ``--update`` kills already in them) and, where given, the searches
    (``merged_search``), proofs and random rounds by mutant id."""
    run = {k: v for k, v in header.get("run", {}).items() if k in RUN_KEYS}
    if "baseline" in run:
        run["baseline"] = {name: b["states"] for name, b in run["baseline"].items()}
    run["searched"], run["proofs"], run["notes_checked"] = (
        search is not None, proofs is not None, checked is not None)
    lines = []
    for r in rows:
        line = {"id": r["id"], "operator": r["operator"], "rule": r["rule"],
                "status": r["status"]}
        if r["status"] == "killed":
            line["by"] = r["kills"][0][0] if r["kills"] else ""
        elif r["status"] == "stillborn":
            line["why"] = r["detail"]
        else:
            if r["detail"]:
                line["detail"] = r["detail"]
            line["reached"] = len(r["reached"])
            got = (proofs or {}).get(r["id"])
            if proofs is not None:
                line["proof"] = proof(got)
                if got and got.get("outcome") == "proved":
                    line["proved"] = proved_at(got)
            if search is not None and not line.get("proved"):
                line["search"] = searched(search.get(r["id"]))
                line["search_kind"] = search_kind(search.get(r["id"]))
            seen = (checked or {}).get(r["id"])
            if seen is not None:
                line["rounds"] = rounds_seen(seen)
                if seen.get("refuted"):
                    line["refuted"] = seen["refuted"]
        lines.append(line)
    return run, lines


def write_summary(path: Path, run: dict, lines: list[dict]) -> None:
    """The run's line, then one line per mutant, written whole (a temporary file
    renamed into place)."""
    text = "\n".join(json.dumps(x, ensure_ascii=False)
                     for x in [{"run": run}] + lines) + "\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def read_summary(path: Path) -> tuple[dict, list[dict]]:
    """The run and the mutants' lines of a summary ``write_summary`` wrote."""
    run, lines = {}, []
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        obj = json.loads(text)
        if n == 1 and "run" in obj:
            run = obj["run"]
        else:
            lines.append(obj)
    return run, lines


__all__ = ["BY_FORM", "SUMMARY", "merged_search", "proof", "proved_at", "read_summary",
           "rounds_seen", "search_kind", "searched", "summarise", "write_summary"]
