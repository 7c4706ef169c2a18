"""``itcp-check rules``: the rulebook as the checker sees it.

Lists every rule (id, the sentences it formalises, its choice point and
reading), every choice point with its readings, and the shipped variants.
``--explain RULE`` reads one rule beside its text: its sentences, its choice
point and readings, where it was written, the actions it touches and its
fragments in the spec language.  ``--markdown`` prints the choice-point
catalogue (docs/choice-points.md is this output); ``--dump-engine`` prints the
Python the engine compiler generates, ``--dump-successors`` the explorer's
packed successor functions, each with comments naming the rules its fragments
come from.
"""
from __future__ import annotations

import re
import textwrap

import click

from itcp.model.engine.engine import build_spec, generated_source
from itcp.model.search.packed import PackedSource
from itcp.spec.choices import CHOICE_POINTS, ChoicePoint
from itcp.spec.errors import InputError, nearest, valid_names
from itcp.spec.lang import TRUE, Define, Guard, Rule, Update, elaborate, included
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


# -- one rule, explained ------------------------------------------------------------

#: the width ``--explain`` wraps its prose and formulas to
EXPLAIN_WIDTH = 100
#: a bound variable as the AST prints it: its hint and a number (``r285``)
_BOUND = re.compile(r"(?<![\w$#])([a-z]+)(\d+)\b")


def find_rule(variant: Variant, rule_id: str) -> Rule:
    """The rule ``rule_id`` of the rule set at the variant's table."""
    rules = {r.id: r for r in build_ruleset(variant.config).rules}
    if rule_id not in rules:
        best = nearest(rule_id, rules)
        raise InputError(f"--explain: unknown rule {rule_id!r}; {valid_names(rules)}",
                         hint=f"did you mean {best!r}?" if best else None)
    return rules[rule_id]


def actions_touched(variant: Variant, r: Rule) -> tuple[list[str], list[str]]:
    """The actions the rule's guards and updates name, and those whose guards,
    updates or conditions call a definition it gives, in the variant's whole game
    with the rule's reading chosen."""
    rs = build_ruleset(variant.config)
    order = [a.name for a in rs.actions]
    direct = {a for f in r.fragments if isinstance(f, (Guard, Update)) for a in f.actions}
    if not any(isinstance(f, Define) for f in r.fragments):
        return [a for a in order if a in direct], []
    readings = dict(variant.readings)
    if r.choice is not None and r.reading is not None:
        readings[r.choice] = r.reading
    spec = elaborate(rs, readings, "game")
    through = {a.name for a in spec.actions
               if r.id in a.used_defs | a.cond_defs | set().union(*a.update_defs.values())}
    return [a for a in order if a in direct], [a for a in order if a in through]


def _wrapped(text: str, indent: int, hang: int = 2) -> list[str]:
    return textwrap.wrap(text, EXPLAIN_WIDTH, initial_indent=" " * indent,
                         subsequent_indent=" " * (indent + hang), break_long_words=False,
                         break_on_hyphens=False) or [""]


def fragment_lines(f, signatures: dict) -> list[str]:
    """One fragment as the spec language prints it (a node's ``repr`` is its
    s-expression)."""
    if isinstance(f, Guard):
        return [f"  guard {', '.join(f.actions)}", *_wrapped(repr(f.expr), 4)]
    if isinstance(f, Update):
        head = f"  update {f.var} in {', '.join(f.actions)}"
        head += f", priority {f.priority}" if f.priority else ""
        when = [] if f.when == TRUE else _wrapped(f"when {f.when!r}", 4, 5)
        return [head, *when, *_wrapped(f":= {f.value!r}", 4, 3)]
    names = signatures[f.name].names
    shown = {p.name: n for p, n in zip(f.params, names)}
    body = re.sub(r"\b\w+\b", lambda m: shown.get(m.group(0), m.group(0)), repr(f.body))
    return [f"  define {f.name}({', '.join(names)})", *_wrapped("= " + body, 4, 2)]


def _renumbered(lines: list[str]) -> list[str]:
    """The bound variables numbered from 1 in the order they appear: the AST's
    numbers count every variable the process ever made, so they differ between
    runs that build other rules first."""
    seen: dict[str, str] = {}

    def name(m):
        return seen.setdefault(m.group(0), f"{m.group(1)}{len(seen) + 1}")
    return [_BOUND.sub(name, line) for line in lines]


def explain(variant: Variant, rule_id: str) -> str:
    """The rule read beside its text: its sentences, its choice point and
    readings, where it was written, the actions it touches and its fragments."""
    r = find_rule(variant, rule_id)
    rs = build_ruleset(variant.config)
    where = f"{r.src_loc[0]}:{r.src_loc[1]}" if r.src_loc else "(where it was written is unknown)"
    out = [f"Rule {r.id}  ({where})", *_wrapped(r.doc, 0, 0)]
    if r.choice is None:
        state = "included (it belongs to no reading)"
    else:
        chosen = variant.readings[r.choice]
        state = (f"included ({r.choice} = {chosen})" if chosen == r.reading
                 else f"not included (it reads {r.choice} = {chosen})")
    out += [f"In variant {variant.name}: {state}", "", "Sentences"]
    for sid in r.sentences:
        out += _wrapped(f"{sid}  \"{SENTENCES[sid]}\"", 2, len(sid) + 3)
    out.append("")
    if r.choice is None:
        out += ["Choice point: none (the rule holds under every reading)", ""]
    else:
        cp = CHOICE_POINTS[r.choice]
        out += _wrapped(f"Choice point {cp.id}: {cp.question}", 0)
        out.append(table([(">" if rd.id == r.reading else "", rd.id,
                           rd.text + (" (literal)" if rd.id == cp.literal else ""))
                          for rd in cp.readings], indent=2, last_wrap=EXPLAIN_WIDTH - 30))
        out += _wrapped(f"Why {cp.literal} is the literal reading: {cp.why}", 2)
        if cp.note:
            out += _wrapped(f"Note: {cp.note}.", 2)
        out.append("")
    direct, through = actions_touched(variant, r)
    out += ["Actions it touches",
            *_wrapped(f"by its guards and updates: {', '.join(direct) or '(none)'}", 2),
            *_wrapped(f"through its definitions: {', '.join(through) or '(none)'}", 2), ""]
    out.append(f"The rule in the spec language ({len(r.fragments)} fragment"
               f"{'' if len(r.fragments) == 1 else 's'})")
    out += _renumbered([line for f in r.fragments for line in fragment_lines(f, rs.signatures)])
    return "\n".join(out)


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
@click.option("--explain", "explain_rule", metavar="RULE", default=None,
              help="Explain one rule: its sentences, its choice point and readings, where it "
                   "is written, the actions it touches and the rule in the spec language.")
def rules(variant, config_flags, as_json, dump_engine, dump_successors, as_markdown,
          explain_rule):
    if sum((as_json, dump_engine, dump_successors, as_markdown, explain_rule is not None)) > 1:
        raise click.UsageError("choose at most one of --json, --dump-engine, --dump-successors, "
                               "--markdown, --explain")
    v = load(variant, config_flags)
    if explain_rule is not None:
        click.echo(explain(v, explain_rule))
    elif dump_successors:
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
