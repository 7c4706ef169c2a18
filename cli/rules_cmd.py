"""``itcp-check rules``: the rulebook as the checker sees it.

Lists every rule (id, the sentences it formalises, its choice point and
reading), every choice point with its readings, and the shipped variants.
``--markdown`` prints the choice-point catalogue (docs/choice-points.md is this
output); ``--dump-engine`` prints the Python the engine compiler generates,
``--dump-successors`` the explorer's packed successor functions, each with
comments naming the rules its fragments come from.
"""
from __future__ import annotations

import click

from itcp.model.engine.engine import build_spec, generated_source
from itcp.model.search.packed import PackedSource
from itcp.spec.choices import CHOICE_POINTS, ChoicePoint
from itcp.spec.lang import included
from itcp.spec.rulebook import SENTENCES
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import Variant, list_variants, load_variant

from .common import VARIANT_HELP, Command, config_options, emit_json, load, table, variant_argument

MARKDOWN_FILE = "docs/choice-points.md"
REGENERATE = f"itcp-check rules --markdown > {MARKDOWN_FILE}"


# -- the data -----------------------------------------------------------------------

def shipped_variants() -> list[Variant]:
    return [load_variant(name) for name in list_variants()]


def rule_records(variant: Variant) -> list[dict]:
    """Every rule of every reading at this variant's table."""
    rs = build_ruleset(variant.config)
    return [{
        "id": r.id,
        "sentences": list(r.sentences),
        "choice": r.choice,
        "reading": r.reading,
        "doc": r.doc,
        "scope": r.scope,
        # in the variant's full game (round rules and game rules)
        "included": included(r, dict(variant.readings), "game"),
    } for r in rs.rules]


def choice_point_record(cp: ChoicePoint, variant: Variant | None = None) -> dict:
    rec = {
        "id": cp.id,
        "question": cp.question,
        "sentences": list(cp.sentences),
        "sentence_texts": {sid: SENTENCES.get(sid, "") for sid in cp.sentences},
        "readings": [{"id": r.id, "text": r.text, "literal": r.id == cp.literal}
                     for r in cp.readings],
        "literal": cp.literal,
        "origin": cp.origin,
        "note": cp.note,
        "why_literal": cp.why,
    }
    if variant is not None:
        rec["reading"] = variant.readings[cp.id]
    return rec


def variant_record(v: Variant) -> dict:
    return {
        "name": v.name,
        "description": v.description,
        "extends": v.extends,
        "readings": dict(v.explicit),
        "config": v.config.as_dict(),
    }


def rules_data(variant: Variant) -> dict:
    return {
        "variant": variant_record(variant),
        "rules": rule_records(variant),
        "choice_points": [choice_point_record(cp, variant) for cp in CHOICE_POINTS.values()],
        "variants": [variant_record(v) for v in shipped_variants()],
    }


# -- text ---------------------------------------------------------------------------

def short_sentences(ids) -> str:
    """("secret.1", "secret.2", "pass.2") -> "secret.1,2 pass.2"."""
    groups: dict[str, list[str]] = {}
    for sid in ids:
        head, _, tail = sid.rpartition(".")
        groups.setdefault(head, []).append(tail)
    return " ".join(f"{head}.{','.join(tails)}" for head, tails in groups.items())


def text_report(variant: Variant) -> str:
    data = rules_data(variant)
    out = [f"Variant {variant.name}: {variant.description}",
           f"Table: {variant.config.describe()}", ""]

    rules = data["rules"]
    n_in = sum(r["included"] for r in rules)
    out.append(f"Rules ({len(rules)}; {n_in} in this variant, marked *)")
    out.append(table([("*" if r["included"] else "", r["id"], short_sentences(r["sentences"]),
                       r["doc"]) for r in rules],
                     headers=("in", "rule", "sentences", "what it says"), last_wrap=72))
    out.append("")

    cps = data["choice_points"]
    out.append(f"Choice points ({len(cps)}; literal reading first; > marks this "
               "variant's reading)")
    for cp in cps:
        origin = "" if cp["origin"] == "design" else f"  ({cp['origin']})"
        out.append(f"  {cp['id']}  [{', '.join(cp['sentences'])}]  {cp['question']}{origin}")
        out.append(table([(">" if r["id"] == cp["reading"] else "", r["id"], r["text"])
                          for r in cp["readings"]], indent=6))
    out.append("")

    out.append("Variants (readings not named take the literal one)")
    rows = []
    for v in data["variants"]:
        set_ = ", ".join(f"{k}={r}" for k, r in v["readings"].items()) or "(none: all literal)"
        rows.append((v["name"], v["description"]))
        rows.append(("", "readings: " + set_))
    out.append(table(rows, last_wrap=90))
    return "\n".join(out)


def summary(variant: Variant) -> str:
    """A few lines: what the spec holds (for a bare ``itcp-check``)."""
    rules = rule_records(variant)
    return "\n".join([
        f"itcp: the rulebook of It Came to Pass as {len(rules)} rules and "
        f"{len(CHOICE_POINTS)} choice points.",
        f"Variant {variant.name}: {variant.description}",
        f"Table: {variant.config.describe()}",
        f"Shipped variants: {', '.join(list_variants())}",
    ])


# -- markdown -----------------------------------------------------------------------

def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(variant: Variant) -> str:
    """The choice-point catalogue (docs/choice-points.md)."""
    shipped = shipped_variants()
    rules = rule_records(variant)
    by_reading: dict[tuple, list[str]] = {}
    for rec in rules:
        if rec["choice"]:
            by_reading.setdefault((rec["choice"], rec["reading"]), []).append(rec["id"])

    out = [
        "# Choice points",
        "",
        "<!-- Generated: do not edit. Regenerate with:",
        f"     {REGENERATE}",
        "-->",
        "",
        "Every place where the rulebook of *It Came to Pass* is silent or can be read two ways",
        "is a **choice point**: the sentence(s) it interprets and two or more **readings**.",
        "The first reading is the literal one (which may be \"the text says nothing\").",
        "A variant picks one reading per choice point; choice points it does not name take",
        "the literal reading. Each reading is implemented by the rules listed under it",
        f"(rule ids as in `itcp-check rules`, at the table of variant `{variant.name}`:",
        f"{variant.config.describe()}).",
        "",
        "In the table, a variant's reading is in bold where it is not the literal one.",
        "",
        "| choice point | question | literal | " + " | ".join(v.name for v in shipped) + " |",
        "|---|---|---|" + "---|" * len(shipped),
    ]
    for cp in CHOICE_POINTS.values():
        cells = []
        for v in shipped:
            chosen = v.readings[cp.id]
            cells.append(f"`{chosen}`" if chosen == cp.literal else f"**`{chosen}`**")
        out.append(f"| [`{cp.id}`](#{cp.id.replace('.', '')}) | {_cell(cp.question)} | "
                   f"`{cp.literal}` | " + " | ".join(cells) + " |")
    out.append("")

    for cp in CHOICE_POINTS.values():
        out += [f"## {cp.id}", "", _cell(cp.question), ""]
        for sid in cp.sentences:
            out.append(f"> **{sid}**: {SENTENCES.get(sid, '(sentence not in the rulebook)')}")
            out.append(">")
        if out[-1] == ">":
            out.pop()
        out.append("")
        out += [f"Why `{cp.literal}` is the literal reading: {_cell(cp.why)}", ""]
        out += ["| reading | meaning | variants | rules |", "|---|---|---|---|"]
        for r in cp.readings:
            name = f"`{r.id}`" + (" (literal)" if r.id == cp.literal else "")
            picked = [v.name + ("" if cp.id in v.explicit else " (by default)")
                      for v in shipped if v.readings[cp.id] == r.id]
            impl = by_reading.get((cp.id, r.id), [])
            out.append(f"| {name} | {_cell(r.text)} | {', '.join(picked) or '-'} | "
                       + (", ".join(f"`{i}`" for i in impl) or "-") + " |")
        out.append("")
        extra = []
        if cp.origin != "design":
            extra.append(f"Origin: {cp.origin} (not in the starting design's table).")
        if cp.note:
            extra.append(f"Note: {cp.note}.")
        if extra:
            out += [" ".join(extra), ""]
    return "\n".join(out).rstrip("\n") + "\n"


# -- the command --------------------------------------------------------------------

@click.command("rules", cls=Command, help=(
    "List the rules, the choice points and their readings, and the shipped variants.\n\n"
    + VARIANT_HELP + " Rules marked * are the ones the variant includes."))
@variant_argument
@config_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--dump-engine", is_flag=True,
              help="Print the Python source the engine compiler generates for this variant.")
@click.option("--dump-successors", is_flag=True,
              help="Print the Python source of the explorer's packed successor functions "
                   "(model/search/packed.py) for this variant.")
@click.option("--markdown", "as_markdown", is_flag=True,
              help=f"Print the choice-point catalogue as Markdown ({MARKDOWN_FILE}).")
def rules(variant, config_flags, as_json, dump_engine, dump_successors, as_markdown):
    if sum((as_json, dump_engine, dump_successors, as_markdown)) > 1:
        raise click.UsageError(
            "choose at most one of --json, --dump-engine, --dump-successors, --markdown")
    v = load(variant, config_flags)
    if dump_successors:
        click.echo(PackedSource(build_spec(v.config, dict(v.readings)), store=True).build(),
                   nl=False)
    elif dump_engine:
        click.echo(generated_source(v.config, dict(v.readings)), nl=False)
    elif as_markdown:
        click.echo(markdown(v), nl=False)
    elif as_json:
        emit_json(rules_data(v))
    else:
        click.echo(text_report(v))
