"""The mutation analysis of the spec as markdown: score, operators, survivors.

    python -m tools.mutation.report            # docs/mutation.md's generated part, again
    python -m tools.mutation.report --check    # exit 1 if that part is stale

Renders the summary of the last run (``docs/mutation/spec-mutants.jsonl``, one line
per mutant: ``tools/mutation/summary.py``) and the equivalence notes
(``docs/mutation-notes.toml``), written by hand::

    [[equivalent]]
    mutants = ["negate_when turn.advance update[pass].first_passer@0", ...]
    why = "..."

A surviving (or timed-out) mutant with a note is *equivalent*: left out of
the score, with its note's argument shown.  A note on a mutant the summary has as
killed is reported as wrong; notes on mutants the run did not run are not
shown.  A survivor ``tools/mutation/prove_mutants.py`` proved to play the same game
is *proved*, left out of the score as a noted one is.  The score is killed /
(mutants - stillborn - equivalent - proved); a mutant that timed out counts as not
killed.
"""
from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from pathlib import Path

from itcp.spec.errors import InputError
from tools.mutation.summary import REPO, SUMMARY, read_summary

BEGIN = "<!-- BEGIN GENERATED: python -m tools.mutation.report; do not edit by hand -->"
END = "<!-- END GENERATED -->"
DOCS = REPO / "docs" / "mutation.md"
NOTES = REPO / "docs" / "mutation-notes.toml"

OPERATOR_ORDER = ("drop_guard", "negate_guard", "negate_when", "drop_update", "shift_seat",
                  "swap_reading")


def load_notes(path: Path) -> dict:
    """mutant id -> (the argument, the note's number)."""
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


def status(line: dict, notes: dict) -> str:
    """killed, survived, timeout, stillborn; "equivalent" for a survivor with a note;
    "proved" for one ``tools/mutation/prove_mutants.py`` proved to play the same game."""
    if line["status"] in ("survived", "timeout"):
        if line["id"] in notes:
            return "equivalent"
        if line.get("proved"):
            return "proved"
    return line["status"]


def counts(lines: list[dict], notes: dict, proofs: bool = True) -> dict:
    """The counts and the score: killed / (mutants - stillborn - equivalent - proved);
    with ``proofs`` false, a proved mutant counts as the survivor it was."""
    st = Counter(status(x if proofs else {**x, "proved": None}, notes) for x in lines)
    scored = len(lines) - st["stillborn"] - st["equivalent"] - st["proved"]
    unexplained = st["survived"] + st["timeout"]
    return {"mutants": len(lines), "killed": st["killed"], "survived": st["survived"],
            "equivalent": st["equivalent"], "proved": st["proved"],
            "stillborn": st["stillborn"], "timeout": st["timeout"], "scored": scored,
            "score": st["killed"] / scored if scored else 1.0, "unexplained": unexplained}


def _row(cells) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def _table(head, rows) -> list[str]:
    return [_row(head), _row(["---"] * len(head))] + [_row(r) for r in rows]


def _operator_table(lines: list[dict], notes: dict) -> list[str]:
    """Per mutation operator: how many mutants, and how each ended."""
    by_op: dict[str, Counter] = {}
    for x in lines:
        by_op.setdefault(x["operator"], Counter())[status(x, notes)] += 1
    rows = []
    for op in OPERATOR_ORDER:
        c = by_op.get(op, Counter())
        n = sum(c.values())
        scored = n - c["stillborn"] - c["equivalent"] - c["proved"]
        rows.append([f"`{op}`", n, c["killed"], c["survived"], c["timeout"],
                     c["equivalent"] + c["proved"], c["stillborn"],
                     f"{c['killed'] / scored:.1%}" if scored else "-"])
    return _table(["operator", "mutants", "killed", "survived", "timeout", "equivalent",
                   "stillborn", "score"], rows)


def _run(run: dict, lines: list[dict]) -> list[str]:
    """What was run: the command, its resumptions and later runs, the tables."""
    out = [f"Run: `{run.get('command', 'python -m tools.mutation.mutate_spec')}`"]
    for command in run.get("resumed", ()):
        out += ["", f"Resumed on the spec as it was later (the mutants it had gained): "
                f"`{command}`"]
    if run.get("update"):
        out += ["", f"Its survivors and time-outs ran again in {len(run['update'])} later "
                "runs, against the scenarios and pinned rounds added since (their kills "
                "replace the first run's rows; the commands are in the summary's first line)."]
    if run.get("mutants"):
        out += ["", f"Mutants run: {len(lines)} of the {run['mutants']} the spec has at these "
                f"tables; {run.get('scenarios', '?')} library scenarios in the first run."]
    return out


def _kills(run: dict, lines: list[dict]) -> list[str]:
    """Which checks killed first, and the property tables' states."""
    firsts = [x["by"] for x in lines if x["status"] == "killed" and x.get("by")]
    scenarios = sum(1 for k in firsts if k.endswith(".toml"))
    out = [f"First kill by scenarios: {scenarios}; by property verdicts: "
           f"{len(firsts) - scenarios} (checks run scenarios first and stop at the first kill)."]
    if run.get("baseline"):
        out += ["", "Property tables (the unmutated spec's states under each variant):", ""]
        rows = []
        for name, doc in run.get("tables", {}).items():
            states = [f"{v.split('@')[0]} {n:,}" for v, n in run["baseline"].items()
                      if v.endswith("@" + name)]
            rows.append([name, doc, ", ".join(states)])
        out += _table(["table", "config", "states"], rows)
    top = Counter(firsts).most_common(8)
    return out + ["", "Most first kills: " + ", ".join(f"{k} ({n})" for k, n in top) + "."]


def _survivors(run: dict, lines: list[dict], notes: dict) -> list[str]:
    """The survivors without a note or a proof, with what was found of each."""
    surv = [x for x in lines if status(x, notes) in ("survived", "timeout")]
    out = [f"### Survivors without a note ({len(surv)})", ""]
    if not surv:
        return out + ["None: every mutant is killed, stillborn, proved or has an "
                      "equivalence note."]
    head = ["mutant", "status", "checks that compile it differently"]
    if run.get("searched"):
        kinds = Counter(x.get("search_kind", "none") for x in surv)
        out += [f"Of these, the search told {kinds['pinned']} apart (a pinned round not "
                f"yet run against them); for {kinds['unread']} the value the mutated update "
                f"writes is never read at any table and readings tried (liveness); "
                f"{kinds['same']} were not told apart at any table and readings it exhausted "
                f"or by random rounds at larger ones (some also unread at others); "
                f"{kinds['inert']} change no elaborated spec at the tables tried; "
                f"{kinds['none']} were not searched.", "",
                "The column \"pair search\": what the search for a round that tells the "
                "mutant from the spec (`tools/mutation/pin_mutants.py`, "
                "`tools/mutation/distinguish.py`) found. \"Not told apart\" is evidence "
                "that the mutant is equivalent, not a proof: it holds at the tables and "
                "readings searched.", ""]
        head.append("pair search")
    if run.get("proofs"):
        head.append("proof beyond the small tables")
    rows = [[f"`{x['id']}`", x["status"] + (f" ({x['detail']})" if x.get("detail") else ""),
             x["reached"] or "none"]
            + ([x.get("search", "not searched")] if run.get("searched") else [])
            + ([x.get("proof", "not tried")] if run.get("proofs") else [])
            for x in surv]
    return out + _table(head, rows)


def _proved(lines: list[dict], notes: dict) -> list[str]:
    """The survivors proved to play the same game: how, and where first."""
    pr = [x for x in lines if status(x, notes) == "proved"]
    where = Counter(x["proved"].split(" + ", 1)[0] for x in pr)
    out = [f"### Proved equivalent beyond the small tables ({len(pr)})", "",
           "Each proved by `tools/mutation/prove_mutants.py` "
           "(`tools/mutation/equivalence.py`): at every table and readings where it "
           "compiles differently from the spec, from every state the spec's proved "
           "invariants allow, each move it changes is legal exactly when the spec's and "
           "leads to the same state; so it reaches the spec's states by the spec's moves "
           "there, and no scenario or verdict can tell it apart; or equivalent by the rules' "
           "form (`equivalent_by_form` in `tools/mutation/mutants.py`). Where each was "
           "proved first (its line in `docs/mutation/spec-mutants.jsonl` says at how many "
           "tables and readings):", ""]
    return out + _table(["proved first at (the readings vary)", "mutants"],
                        [[w, n] for w, n in where.most_common()]) if pr else out


def _equivalent(run: dict, lines: list[dict], notes: dict) -> list[str]:
    """The mutants an equivalence note covers, and each note's argument once."""
    eq = [x for x in lines if status(x, notes) == "equivalent"]
    checked = bool(run.get("notes_checked"))
    out = [f"### Equivalent mutants ({len(eq)})", "",
           "Each with the number of its note in `docs/mutation-notes.toml` (the arguments "
           "follow the table)"
           + (" and what random rounds that tried to refute it saw "
              "(`tools/mutation/check_notes.py`: the spec and the mutant side by side under "
              "random readings at two to five players; evidence, not proof)"
              if checked else "") + ".", ""]
    if not eq:
        return out
    out += _table(["mutant", "note"] + ["random rounds"] * checked,
                  [[f"`{x['id']}`", notes[x["id"]][1]]
                   + [x.get("rounds", "not run")] * checked for x in eq])
    used = sorted({notes[x["id"]] for x in eq}, key=lambda w: w[1])
    out += ["", "The notes' arguments:", ""]
    for why, number in used:
        out += [f"**Note {number}.** {why}", ""]
    return out[:-1]


def render(run: dict, lines: list[dict], notes: dict) -> str:
    """The generated part of docs/mutation.md, markers included."""
    s = counts(lines, notes)
    out = [BEGIN, ""] + _run(run, lines) + [""]
    out.append(f"**Mutation score: {s['killed']} / {s['scored']} = {s['score']:.1%}** "
               f"({s['mutants']} mutants: {s['killed']} killed, {s['survived']} survived, "
               f"{s['timeout']} timed out, {s['equivalent']} equivalent by a note, "
               + (f"{s['proved']} proved equivalent beyond the small tables, "
                  if run.get("proofs") else "")
               + f"{s['stillborn']} stillborn).")
    if run.get("proofs"):
        plain = counts(lines, notes, proofs=False)
        out += ["", f"Counting the mutants proved equivalent as survivors: {plain['killed']} / "
                f"{plain['scored']} = {plain['score']:.1%}."]
    out += [""] + _operator_table(lines, notes) + [""] + _kills(run, lines)
    out += [""] + _survivors(run, lines, notes)
    if run.get("proofs"):
        out += [""] + _proved(lines, notes)
    out += [""] + _equivalent(run, lines, notes)
    wrong = sorted(x["id"] for x in lines if x.get("refuted") and x["id"] in notes)
    if wrong:
        out += ["", "Notes that random rounds refute (the round is in the scenario named): "
                + ", ".join(f"`{x}`" for x in wrong)]
    stale = sorted(x["id"] for x in lines if x["id"] in notes and x["status"] == "killed")
    if stale:
        out += ["", "Notes on mutants a check kills here: the note is wrong: "
                + ", ".join(f"`{x}`" for x in stale)]
    sb = [x for x in lines if x["status"] == "stillborn"]
    if sb:
        out += ["", f"### Stillborn mutants ({len(sb)})", ""]
        out += _table(["mutant", "why"], [[f"`{x['id']}`", x["why"]] for x in sb])
    out += ["", END]
    return "\n".join(out) + "\n"


def with_generated(text: str, generated: str) -> str:
    """``text`` with ``generated`` between its markers (appended if it has none)."""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        return head + generated.rstrip("\n") + rest.split(END, 1)[1]
    return (text.rstrip("\n") + "\n\n" if text else "") + generated


def write_docs(path: Path, generated: str) -> None:
    """Put ``generated`` between the markers of ``path`` (appended if it has none)."""
    text = with_generated(path.read_text() if path.exists() else "", generated)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--summary", default=str(SUMMARY), help="the run's summary (JSON lines)")
    ap.add_argument("--notes", default=str(NOTES), help="the equivalence notes (TOML)")
    ap.add_argument("--docs", default=str(DOCS), help="the page whose generated part is written")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if the page's generated part is stale")
    a = ap.parse_args(argv)
    run, lines = read_summary(Path(a.summary))
    generated = render(run, lines, load_notes(Path(a.notes)))
    docs = Path(a.docs)
    if a.check:
        text = docs.read_text() if docs.exists() else ""
        if BEGIN not in text or with_generated(text, generated) != text:
            print(f"{a.docs} is stale: run python -m tools.mutation.report", file=sys.stderr)
            return 1
        return 0
    write_docs(docs, generated)
    print(f"wrote {a.docs}", file=sys.stderr)
    return 0


__all__ = ["BEGIN", "END", "counts", "load_notes", "main", "render", "status", "with_generated",
           "write_docs"]

if __name__ == "__main__":
    sys.exit(main())
