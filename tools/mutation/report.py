"""The mutation analysis of the spec as markdown: score, operators, survivors.

Reads the results of ``tools/mutation/mutate_spec.py`` (one JSON object per mutant) and
the equivalence notes (``docs/mutation-notes.toml``), written by hand::

    [[equivalent]]
    mutants = ["negate_when turn.advance update[pass].first_passer@0", ...]
    why = "..."

A surviving (or timed-out) mutant with a note is *equivalent*: left out of
the score with its argument shown.  A note on a mutant the results have as killed (or timed
out) is reported as wrong; notes on mutants a sampled run did not run are not
shown.  The score is killed / (mutants -
stillborn - equivalent); a mutant that timed out counts as not killed.
"""
from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

from itcp.spec.errors import InputError

BEGIN = "<!-- BEGIN GENERATED: tools/mutation/mutate_spec.py --report; do not edit by hand -->"
END = "<!-- END GENERATED -->"

OPERATOR_ORDER = ("drop_guard", "negate_guard", "negate_when", "drop_update", "shift_seat",
                  "swap_reading")


def load_notes(path: Path) -> dict:
    """mutant id -> (the argument, the note's line)."""
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"the notes are not TOML: {e}", str(path)) from None
    out = {}
    for i, entry in enumerate(data.get("equivalent", []), 1):
        ids, why = entry.get("mutants"), entry.get("why")
        if not (isinstance(ids, list) and ids and all(isinstance(x, str) for x in ids)
                and isinstance(why, str) and why.strip()):
            raise InputError(f"equivalent #{i}: needs mutants = [\"id\", ...] and why = \"...\"",
                             str(path))
        for x in ids:
            if x in out:
                raise InputError(f"equivalent #{i}: {x!r} has a note already", str(path))
            out[x] = (" ".join(why.split()), i)
    return out


def _status(row: dict, notes: dict, proofs: dict | None = None) -> str:
    """killed, survived, timeout, stillborn; "equivalent" for a survivor with a note;
    "proved" for one ``tools/mutation/prove_mutants.py`` proved to play the same game."""
    if row["status"] in ("survived", "timeout"):
        if row["id"] in notes:
            return "equivalent"
        if proofs and proofs.get(row["id"], {}).get("outcome") == "proved":
            return "proved"
    return row["status"]


def summary(rows: list[dict], notes: dict, proofs: dict | None = None) -> dict:
    """The counts and the score: killed / (mutants - stillborn - equivalent - proved)."""
    st = Counter(_status(r, notes, proofs) for r in rows)
    scored = len(rows) - st["stillborn"] - st["equivalent"] - st["proved"]
    unexplained = st["survived"] + st["timeout"]
    return {"mutants": len(rows), "killed": st["killed"], "survived": st["survived"],
            "equivalent": st["equivalent"], "proved": st["proved"],
            "stillborn": st["stillborn"], "timeout": st["timeout"], "scored": scored,
            "score": st["killed"] / scored if scored else 1.0, "unexplained": unexplained}


def _row(cells) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def _table(head, rows) -> list[str]:
    return [_row(head), _row(["---"] * len(head))] + [_row(r) for r in rows]


def _operator_table(rows: list[dict], notes: dict, proofs: dict | None = None) -> list[str]:
    """Per mutation operator: how many mutants, and how each ended."""
    by_op: dict[str, Counter] = {}
    for r in rows:
        by_op.setdefault(r["operator"], Counter())[_status(r, notes, proofs)] += 1
    lines = []
    for op in OPERATOR_ORDER:
        c = by_op.get(op, Counter())
        n = sum(c.values())
        scored = n - c["stillborn"] - c["equivalent"] - c["proved"]
        lines.append([f"`{op}`", n, c["killed"], c["survived"], c["timeout"],
                      c["equivalent"] + c["proved"], c["stillborn"],
                      f"{c['killed'] / scored:.1%}" if scored else "-"])
    return _table(["operator", "mutants", "killed", "survived", "timeout", "equivalent",
                   "stillborn", "score"], lines)


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


def _searched(row: dict | None) -> str:
    """What ``tools/mutation/pin_mutants.py``'s searches found for a survivor."""
    if row is None:
        return "not searched"
    if row["outcome"] != "pinned" and row.get("sampled"):
        rounds = sum(x[1] for x in row["sampled"])
        more = (f"nothing in {rounds:,} random rounds at {len(row['sampled'])} larger "
                f"tables and readings")
        if row["outcome"] == "unseen":
            return more
        return f"{_searched({k: v for k, v in row.items() if k != 'sampled'})}; {more}"
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


def _proof(row: dict | None) -> str:
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


def _search_kind(row: dict | None) -> str:
    if row is None:
        return "none"
    if row["outcome"] in ("pinned", "not saved"):
        return "pinned" if row["outcome"] == "pinned" else "none"
    if row["outcome"] == "unseen" or row["same"]:
        return "same"
    return "unread" if row.get("unread") else "inert"


def _checked(row: dict | None) -> str:
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


def render(header: dict, rows: list[dict], notes: dict, before: list[dict] | None = None,
           search: dict | None = None, proofs: dict | None = None,
           checked: dict | None = None) -> str:
    run = header.get("run", {})
    s = summary(rows, notes, proofs)
    out = [BEGIN, "", f"Command: `{run.get('command', 'python -m tools.mutation.mutate_spec')}`"]
    if run.get("update"):
        out += ["", f"Its survivors and time-outs run again, with the scenarios added since "
                f"(their kills replace the first run's rows): `{run['update']}`"]
    for command in run.get("resumed", ()):
        out += ["", f"Resumed on the spec as it was later (the mutants it had gained): "
                f"`{command}`"]
    out.append("")
    if run.get("mutants"):
        out += [f"Mutants run: {len(rows)} of the {run['mutants']} the spec has at these "
                f"tables; {run.get('scenarios', '?')} library scenarios in the first run.", ""]
    out.append(f"**Mutation score: {s['killed']} / {s['scored']} = {s['score']:.1%}** "
               f"({s['mutants']} mutants: {s['killed']} killed, {s['survived']} survived, "
               f"{s['timeout']} timed out, {s['equivalent']} equivalent by a note, "
               + (f"{s['proved']} proved equivalent beyond the small tables, " if proofs else "")
               + f"{s['stillborn']} stillborn).")
    if proofs:
        plain = summary(rows, notes)
        out += ["", f"Counting the mutants proved equivalent as survivors: {plain['killed']} / "
                f"{plain['scored']} = {plain['score']:.1%}."]
    out.append("")
    out += _operator_table(rows, notes, proofs)
    out.append("")
    killers = Counter(r["kills"][0][0] for r in rows if r["status"] == "killed" and r["kills"])
    kinds = Counter("scenarios" if k.endswith(".toml") else "property verdicts"
                    for k in (r["kills"][0][0] for r in rows
                              if r["status"] == "killed" and r["kills"]))
    out.append(f"First kill by scenarios: {kinds['scenarios']}; by property verdicts: "
               f"{kinds['property verdicts']} (checks run scenarios first and stop at the "
               "first kill).")
    if run.get("baseline"):
        out += ["", "Property tables (the unmutated spec's states under each variant):", ""]
        tables = run.get("tables", {})
        rows_t = []
        for name, doc in tables.items():
            states = [f"{v.split('@')[0]} {b['states']:,}" for v, b in run["baseline"].items()
                      if v.endswith("@" + name)]
            rows_t.append([name, doc, ", ".join(states)])
        out += _table(["table", "config", "states"], rows_t)
    out += ["", "Most first kills: " + ", ".join(f"{k} ({n})" for k, n in
                                                 killers.most_common(8)) + "."]
    # survivors
    surv = [r for r in rows if _status(r, notes, proofs) in ("survived", "timeout")]
    out += ["", f"### Survivors without a note ({len(surv)})", ""]
    if surv and search is not None:
        kinds = Counter(_search_kind(search.get(r["id"])) for r in surv)
        out += [f"Of these, the search told {kinds['pinned']} apart (a pinned round not "
                f"yet run against them); for {kinds['unread']} the value the mutated update "
                f"writes is never read at any table and readings tried (liveness); "
                f"{kinds['same']} were not told apart at any table and readings it exhausted "
                f"or by random rounds at larger ones (some also unread at others); "
                f"{kinds['inert']} change no elaborated spec at the tables tried; "
                f"{kinds['none']} were not searched.", ""]
        out += ["The last column: what the search for a round that tells the mutant from the "
                "spec (`tools/mutation/pin_mutants.py`, `tools/mutation/distinguish.py`) found. \"Not told "
                "apart\" is evidence that the mutant is equivalent, not a proof: it holds at "
                "the tables and readings searched.", ""]
        head = ["mutant", "status", "checks that compile it differently", "pair search"]
        if proofs is not None:
            head.append("proof beyond the small tables")
        out += _table(head, [[f"`{r['id']}`", r["status"] + (f" ({r['detail']})" if r["detail"]
                                                            else ""),
                              len(r["reached"]) or "none", _searched(search.get(r["id"]))]
                             + ([_proof(proofs.get(r["id"]))] if proofs is not None else [])
                             for r in surv])
    elif surv:
        out += _table(["mutant", "status", "checks that compile it differently"],
                      [[f"`{r['id']}`", r["status"] + (f" ({r['detail']})" if r["detail"] else ""),
                        len(r["reached"]) or "none"] for r in surv])
    else:
        out.append("None: every mutant is killed, stillborn, or has an equivalence note.")
    if proofs is not None:
        pr = [r for r in rows if _status(r, notes, proofs) == "proved"]
        out += ["", f"### Proved equivalent beyond the small tables ({len(pr)})", "",
                "Each proved by `tools/mutation/prove_mutants.py` "
                "(`tools/mutation/equivalence.py`): at every "
                "table and readings below where it compiles differently from the spec, from "
                "every state the spec's proved invariants allow, each move it changes is legal "
                "exactly when the spec's and leads to the same state; so it reaches the "
                "spec's states by the spec's moves there, and no scenario or verdict can tell "
                "it apart. Where it was proved:", ""]
        if pr:
            out += _table(["mutant", "proved at (same elsewhere)"],
                          [[f"`{r['id']}`", "; ".join(p["at"] for p in proofs[r["id"]]["proofs"]
                                                      if p["result"] == "proved")]
                           for r in pr])
    eq = [r for r in rows if _status(r, notes) == "equivalent"]
    out += ["", f"### Equivalent mutants ({len(eq)})", "",
            "Each with the argument of `docs/mutation-notes.toml` (note number)"
            + (" and what random rounds that tried to refute it saw (`tools/mutation/check_notes.py`: "
               "the spec and the mutant side by side under random readings at two to five "
               "players; evidence, not proof)" if checked is not None else "") + "."]
    out.append("")
    if eq:   # with a column for what the random rounds saw, where they ran
        out += _table(["mutant", "note"] + ["random rounds"] * (checked is not None) + ["why"],
                      [[f"`{r['id']}`", notes[r["id"]][1]]
                       + ([_checked(checked.get(r["id"]))] if checked is not None else [])
                       + [notes[r["id"]][0]] for r in eq])
    wrong = sorted(m for m, r in (checked or {}).items() if r.get("refuted") and m in notes)
    if wrong:
        out += ["", "Notes that random rounds refute (the round is in the scenario named): "
                + ", ".join(f"`{x}`" for x in wrong)]
    stale = sorted(r["id"] for r in rows if r["id"] in notes and r["status"] == "killed")
    if stale:
        out += ["", "Notes on mutants a check kills here: the note is wrong: "
                + ", ".join(f"`{x}`" for x in stale)]
    sb = [r for r in rows if r["status"] == "stillborn"]
    if sb:
        out += ["", f"### Stillborn mutants ({len(sb)})", ""]
        out += _table(["mutant", "why"], [[f"`{r['id']}`", r["detail"]] for r in sb])
    if before is not None:
        now = {r["id"]: r for r in rows}
        was = [b for b in before if b["status"] in ("survived", "timeout")]
        out += ["", f"### Survivors of the first run and what was done ({len(was)})", ""]
        out += _table(["mutant", "now", "by"],
                      [[f"`{b['id']}`", _status(now[b["id"]], notes) if b["id"] in now else "?",
                        (now[b["id"]]["kills"][0][0] if b["id"] in now and now[b["id"]]["kills"]
                         else notes.get(b["id"], ("", ""))[0][:80])] for b in was])
    out += ["", END]
    return "\n".join(out) + "\n"


def write_docs(path: Path, generated: str) -> None:
    """Put ``generated`` between the markers of ``path`` (appended if it has none)."""
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + generated.rstrip("\n") + tail
    else:
        text = (text.rstrip("\n") + "\n\n" if text else "") + generated
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


__all__ = ["BEGIN", "END", "load_notes", "merged_search", "render", "summary", "write_docs"]
