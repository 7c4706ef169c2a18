"""The rulings: a catalogue of disputes, answered under the shipped variants.

``disputes.toml`` (data, shipped with the package) lists the arguments this
rulebook invites, each as a question in the question language and the small
table it is settled at.  ``rulings`` answers every one under ``official``,
``published`` and ``clarified`` with the explicit engine (a shortest witness,
saved as a scenario file beside the document, or an exhaustive search of the
table: deterministic, so the generated document can be checked for
freshness), and ``render`` writes the Markdown document.  Z3 proofs for the
full deck are left to ``itcp-check ask``: their running time depends on the
machine, and the document must not.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from itcp.spec.choices import CHOICE_POINTS
from itcp.spec.errors import InputError, did_you_mean
from itcp.spec.rulebook import SENTENCES
from itcp.spec.tomlpos import index_lines, load_toml, read_input
from itcp.spec.variants import load_variant, parse_options, parse_ranks

from ..explicit.explore import Limits
from .ask import Options, ask_many
from .language import parse

VARIANTS = ("official", "published", "clarified")
KEYS = ("id", "title", "argument", "sentences", "question", "table", "choice_points")
TABLE_KEYS = ("players", "suits", "ranks", "hand", "options")
#: a dispute's table is tiny; a search bigger than this is a catalogue mistake
MAX_STATES = 200_000
CATALOGUE = "disputes.toml"


@dataclass(frozen=True)
class Dispute:
    id: str
    title: str
    argument: str
    sentences: tuple
    question: str
    table: dict
    choice_points: tuple
    where: str

    def table_text(self) -> str:
        t = self.table
        return ", ".join(f"{k} {v}" for k, v in t.items())


#: a dispute's id names its scenario files: one plain name
ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,59}")
_SHAPES = {"id": str, "title": str, "argument": str, "question": str, "sentences": list,
           "choice_points": list, "table": dict}


def load_catalogue(path: str | os.PathLike | None = None) -> list[Dispute]:
    """The catalogue, validated: every value of the right kind, every question
    parses, every name exists, every table can be dealt, every id a plain
    file name (it names the dispute's scenario files)."""
    if path is None:
        text = resources.files("itcp.checks.questions").joinpath(CATALOGUE).read_text(encoding="utf-8")
        label = f"checks/questions/{CATALOGUE}"
    else:
        label = str(path)
        text = read_input(path, "disputes catalogue")
    data = load_toml(text, label, InputError,
                     "a catalogue is TOML: one [[dispute]] table per dispute")
    lines = index_lines(text)
    for key in data:
        if key != "dispute":
            raise InputError(f"unknown key {key!r}; valid: dispute", f"{label}:{lines.get(key, 0)}",
                             "each dispute is a [[dispute]] table")
    items = data.get("dispute", [])
    if not isinstance(items, list) or not all(isinstance(d, dict) for d in items):
        raise InputError("dispute must be an array of tables", f"{label}:{lines.get('dispute', 0)}",
                         "write each dispute as a [[dispute]] table")
    if not items:
        raise InputError("the catalogue has no dispute", label,
                         "add [[dispute]] tables (see checks/questions/disputes.toml)")
    out, seen = [], set()
    for k, d in enumerate(items, 1):
        where = f"{label}:{lines.get(f'dispute.{k}', 0)}"

        def at(key, k=k):
            return f"{label}:{lines.get(f'dispute.{k}.{key}', lines.get(f'dispute.{k}', 0))}"
        for key in d:
            if key not in KEYS:
                raise InputError(f"unknown key {key!r}", at(key), did_you_mean(key, KEYS))
        for key in KEYS:
            if key not in d:
                raise InputError(f"dispute {k} has no {key}", where, f"add {key} = ...")
            want = _SHAPES[key]
            if not isinstance(d[key], want) or (want is list and not all(
                    isinstance(x, str) for x in d[key])):
                kind = {str: "a string", list: "a list of strings", dict: "a table"}[want]
                raise InputError(f"{key} must be {kind}", at(key),
                                 f'e.g. {key} = {_EXAMPLE[key]}')
        if not ID_RE.fullmatch(d["id"]):
            raise InputError(f"id {d['id']!r} is not a plain name: it names the dispute's "
                             "scenario files", at("id"),
                             "use lower-case letters, digits, - and _ (at most 60), e.g. "
                             'id = "pride-passer"')
        if d["id"] in seen:
            raise InputError(f"two disputes have the id {d['id']!r}", at("id"))
        seen.add(d["id"])
        for sid in d["sentences"]:
            if sid not in SENTENCES:
                raise InputError(f"unknown sentence {sid!r}", at("sentences"),
                                 did_you_mean(sid, SENTENCES))
        for cp in d["choice_points"]:
            if cp not in CHOICE_POINTS:
                raise InputError(f"unknown choice point {cp!r}", at("choice_points"),
                                 did_you_mean(cp, CHOICE_POINTS))
        parse(d["question"], where=at("question"))
        for key in d["table"]:
            if key not in TABLE_KEYS:
                raise InputError(f"unknown table key {key!r}", at("table"),
                                 did_you_mean(key, TABLE_KEYS))
        try:
            load_variant("official", _overrides(dict(d["table"])))
        except InputError as e:
            raise InputError(f"table: {e.message}", at("table"), e.hint) from None
        out.append(Dispute(d["id"], d["title"], d["argument"], tuple(d["sentences"]),
                           d["question"], dict(d["table"]), tuple(d["choice_points"]), where))
    return out


_EXAMPLE = {"id": '"pride-passer"', "title": '"Pride Cycle and the passer"',
            "argument": '"..."', "question": "\"can the passer's hand change\"",
            "sentences": '["pride.1", "pass.2"]', "choice_points": '["pride.passer"]',
            "table": '{ players = 2, suits = 1, ranks = "2..3", hand = 1, '
                     'options = "pride_cycle" }'}


def _overrides(table: dict) -> dict:
    out = dict(table)
    if "ranks" in out:
        out["ranks"] = parse_ranks(out["ranks"])
    if "options" in out:
        out["options"] = parse_options(out["options"])
    return out


def rulings(disputes: list[Dispute], save, variants=VARIANTS, progress=None) -> dict:
    """(dispute id, variant) -> Answer; questions at one table share one search;
    the witness scenarios go to the sink ``save`` (``scenarios/save.py``)."""
    out = {}
    for vname in variants:
        groups: dict = {}
        for d in disputes:
            key = tuple(sorted(d.table.items()))
            groups.setdefault(key, []).append(d)
        for key, ds in groups.items():
            v = load_variant(vname, _overrides(dict(key)))
            if progress:
                progress(f"{vname}: {', '.join(d.id for d in ds)}")
            qs = [parse(d.question, where=d.where) for d in ds]
            opts = Options(limits=Limits(max_states=MAX_STATES), proof_sizes=(), save=save)
            for d, a in zip(ds, ask_many(qs, v, opts, stems=[d.id for d in ds])):
                out[(d.id, vname)] = a
    return out


# -- the document ---------------------------------------------------------------------------

def _cell(a, rel) -> str:
    ev = a.evidence
    ans = a.answer.upper()
    if ev.get("comparisons") and ev.get("scenarios"):
        return f"**{ans}** ([a distinguishing play]({rel}/{Path(ev['scenarios'][0]).name}))"
    if ev.get("kind") == "witness" and ev.get("scenario"):
        n = ev.get("length", 0)
        what = "lasso" if ev.get("shape") == "lasso" else f"{n} move{'s' * (n != 1)}"
        return f"**{ans}** ([{what}]({rel}/{Path(ev['scenario']).name}))"
    if ev.get("kind") == "witness" and ev.get("scenarios"):
        return f"**{ans}** ([scenario]({rel}/{Path(ev['scenarios'][0]).name}))"
    exh = ev.get("exhaustive", ev)
    if "states" in exh and ev.get("kind") in ("exhaustive", "inductive"):
        return f"**{ans}** (exhaustive, {exh['states']:,} states)"
    if ev.get("kind") == "exhaustive":
        return f"**{ans}** (exhaustive)"
    return f"**{ans}** ({ev.get('limit') or ev.get('kind')})"


def render(disputes: list[Dispute], answers: dict, rel: str, variants=VARIANTS) -> str:
    out = ["# Rulings: the disputes this rulebook invites, settled by the checker", "",
           "Generated by `itcp-check disputes` from the catalogue `checks/questions/disputes.toml`; "
           "do not edit by hand (a test checks this file is up to date).", "",
           "Each dispute is a question in the question language (`itcp-check ask --help`), "
           "answered under the three shipped variants at the small table named with it. "
           "**YES** with a witness: the shortest play where it happens, found by "
           "breadth-first search and saved as a scenario file beside this document "
           f"(`{rel}/`; replay any of them with `itcp-check replay FILE --story`). "
           "**NO** with a proof: the search visited every state reachable from every deal "
           "at that table (exhaustive, symmetry reduction on unless the question names a "
           "card). `after E, eventually P` questions are decided on the explored graph: a "
           "counterexample is a lasso (a loop that avoids P for ever) or a dead end. "
           "`differs` compares two readings of one choice point side by side. "
           "The verdicts hold for the table stated, no more: for Z3 proofs at the full deck "
           "and 2-8 players run `itcp-check ask \"QUESTION\" VARIANT` (those take as long "
           "as the solver needs, so they are not part of this document).", ""]
    readings = {v: load_variant(v).explicit for v in variants}
    out += ["| # | dispute | question | " + " | ".join(variants) + " |",
            "|---|---|---|" + "---|" * len(variants)]
    for i, d in enumerate(disputes, 1):
        cells = [_cell(answers[(d.id, v)], rel) for v in variants]
        out.append(f"| {i} | [{d.title}](#{i}-{_anchor(d.title)}) | `{d.question}` | "
                   + " | ".join(cells) + " |")
    out.append("")
    for i, d in enumerate(disputes, 1):
        out += [f"## {i}. {d.title}", "", d.argument, ""]
        for sid in d.sentences:
            out.append(f"> [{sid}] {SENTENCES[sid]}  ")
        out += ["", f"Question: `{d.question}`  ", f"Table: {d.table_text()}  ",
                "Choice points at stake: " + ", ".join(
                    f"`{cp}` ({', '.join(f'{v}: {readings[v].get(cp, _literal(cp))}' for v in variants)})"
                    for cp in d.choice_points), ""]
        for v in variants:
            a = answers[(d.id, v)]
            out.append(f"- **{v}**: {_cell(a, rel)}. Scope: {a.scope}.")
            ev = a.evidence
            if ev.get("kind") == "witness" and ev.get("story"):
                out += ["", "  ```"] + [f"  {x}" for x in ev["story"]] + ["  ```", ""]
            elif ev.get("comparisons"):
                for c in ev["comparisons"]:
                    line = f"  - `{c['choice_point']}` {c['readings'][0]} vs {c['readings'][1]}: "
                    if c["result"] == "differ":
                        line += (f"differ at {c['table']}: {c['difference']['text']} ("
                                 + ", ".join(f"[{Path(p).stem.rsplit('-', 1)[-1]}]({rel}/"
                                             f"{Path(p).name})" for p in c.get("scenarios", []))
                                 + ")")
                    elif c["result"] == "agree":
                        line += "agree (exhaustive) at " + "; ".join(c.get("agreed_at", []))
                    else:
                        line += f"unknown ({c.get('limit')})"
                    out.append(line)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _literal(cp):
    return CHOICE_POINTS[cp].literal


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


def rulings_paths(out_file) -> tuple[Path, Path]:
    """(the document, its scenario folder: the document's path without ``.md``)."""
    if not str(out_file).strip():
        raise InputError("--out '': an empty path", hint="e.g. --out docs/rulings.md")
    out = Path(out_file)
    if out.suffix.lower() != ".md" or not out.stem:
        raise InputError(f"--out {out_file}: the rulings document must be a .md file",
                         hint="e.g. --out docs/rulings.md (scenarios go to docs/rulings/)")
    return out, out.with_suffix("")


def document(disputes: list[Dispute], save, doc_path, progress=None) -> str:
    """Answer the catalogue, the witness scenarios handed to the sink ``save``
    (its ``folder`` beside the document at ``doc_path``); the document's text."""
    answers = rulings(disputes, save, progress=progress)
    rel = os.path.relpath(save.folder, Path(doc_path).parent)  # links relative to it
    return render(disputes, answers, rel.replace(os.sep, "/"))


__all__ = ["load_catalogue", "rulings", "render", "document", "rulings_paths", "Dispute",
           "VARIANTS"]
