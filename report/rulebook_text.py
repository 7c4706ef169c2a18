"""The literate rulebook (``report/rulebook.py``) as the terminal shows it and as
Markdown (docs/rulebook.md is the Markdown of ``official``).

Both tell, per sentence: the rules citing it (``*`` marks those in the variant),
each with its author's words, its English, whether it fired in the search, the
scenarios that exercise it and its mutants; then the choice points citing it with
their readings (``>`` marks the variant's), why the literal one is literal and
the scenarios that tell the readings apart.
"""
from __future__ import annotations

import textwrap

from .rulebook import ChoiceEntry, Rulebook, RuleEntry, SentenceEntry, first_said

#: the width the terminal text is wrapped to
WIDTH = 100
#: scenario files listed by name before the rest are counted
SHOWN_FILES = 6
#: the command that writes docs/rulebook.md
MARKDOWN_FILE = "docs/rulebook.md"
REGENERATE = f"itcp-check rulebook --markdown > {MARKDOWN_FILE}"


def files(names, shown: int = SHOWN_FILES) -> str:
    """"a.toml, b.toml and 3 more" (or "none")."""
    names = list(names)
    if not names:
        return "none"
    head = ", ".join(names[:shown])
    return head + (f" and {len(names) - shown} more" if len(names) > shown else "")


def sentence_summary(s: SentenceEntry, variant: str) -> str:
    """"3 rules (2 in official, 1 fired); 2 choice points; 12 scenarios; mutants: ..."."""
    n = len(s.rules)
    parts = [f"{n} rule{'s' * (n != 1)} ({len(s.in_variant)} in {variant}, "
             f"{len(s.fired)} fired)"]
    if s.choices:
        parts.append(f"{len(s.choices)} choice point{'s' * (len(s.choices) != 1)}")
    parts.append(f"{len(s.scenarios)} scenario{'s' * (len(s.scenarios) != 1)}")
    parts.append(f"mutants: {s.mutants.text()}")
    return "; ".join(parts)


def header_lines(book: Rulebook) -> list[str]:
    ev = book.evidence
    return [f"The rulebook of It Came to Pass, sentence by sentence: variant {book.variant}",
            f"  {book.description}",
            f"  rules said at: {book.readings_table}",
            f"  fired: {book.run.text()}",
            f"  scenarios: the {ev.library} library scenarios, each replayed",
            f"  mutants: the spec's mutation run ({ev.run or 'none recorded'})"]


# -- the terminal -------------------------------------------------------------------

def _wrap(text: str, indent: int, hang: int = 2) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=" " * indent,
                         subsequent_indent=" " * (indent + hang), break_long_words=False,
                         break_on_hyphens=False) or [""]


def rule_lines(r: RuleEntry, variant: str) -> list[str]:
    mark = "*" if r.included else " "
    reading = f"  reading {r.choice} = {r.reading}" if r.choice else ""
    out = [f"  {mark} {r.id}{reading}  [{r.state}]"]
    out += _wrap(f"In its author's words: {r.doc}", 6)
    for st in r.english.statements:
        if len(st.items) < 2:
            out += _wrap(st.text(), 6)
        else:
            out += _wrap(st.head, 6)
            for item in st.items:
                out += _wrap(f"- {item}", 8)
    out += _wrap(f"Scenarios: {files(r.scenarios)}", 6)
    out += _wrap(f"Mutants: {r.mutants.text() if r.mutants else 'not in the mutation run'}", 6)
    out += _wrap(f"Written at {r.where}", 6) if r.where else []
    return out


def choice_lines(c: ChoiceEntry, variant: str) -> list[str]:
    out = _wrap(f"Choice point {c.id}: {c.question}", 2)
    width = max(len(rd.id) for rd in c.readings)
    for rd in c.readings:
        tags = [t for t, on in (("literal", rd.literal), (f"{variant}'s", rd.chosen)) if on]
        text = rd.text + (f" ({'; '.join(tags)})" if tags else "")
        out += _wrap(f"{'>' if rd.chosen else ' '} {rd.id.ljust(width)}  {text}", 4,
                     width + 4)
    out += _wrap(f"Why {c.literal} is literal: {c.why}", 4)
    if c.note:
        out += _wrap(f"Note: {c.note}.", 4)
    told = [f"{x.file} ({x.readings[0][0]} vs {x.readings[0][1]})" for x in c.contrasts]
    out += _wrap("Told apart by: " + (", ".join(told) if told else
                                      "no library scenario (no round at the tables searched "
                                      "tells the readings apart)"), 4)
    return out


def sentence_lines(s: SentenceEntry, variant: str, said: dict[str, str]) -> list[str]:
    """The sentence, its rules and choice points; one said in full under another
    sentence (``said``: ``first_said``) is only named."""
    out = _wrap(f"[{s.id}] \"{s.text}\"", 0, 4)
    out += _wrap(sentence_summary(s, variant), 2)
    for r in s.rules:
        where = said[f"rule:{r.id}"]
        out += (rule_lines(r, variant) if where == s.id else
                _wrap(f"{'*' if r.included else ' '} {r.id}: said under {where}", 2))
    for c in s.choices:
        where = said[f"choice:{c.id}"]
        out += (choice_lines(c, variant) if where == s.id else
                _wrap(f"Choice point {c.id}: said under {where}", 2))
    return out


def ends_lines(book: Rulebook) -> list[str]:
    out = ["Sentences no rule cites: " + (", ".join(s.id for s in book.uncited) or "none")]
    out.append("Rules that cite no sentence of the rulebook: "
               + (", ".join(r.id for r in book.citing_none) or "none"))
    return out


def rulebook_text(book: Rulebook, only: tuple[str, ...] = ()) -> str:
    """The rulebook at the terminal (``only``: those sentences)."""
    head = header_lines(book)
    out = _wrap(head[0], 0) + [line for text in head[1:] for line in _wrap(text.strip(), 2)]
    out.append("")
    shown = [s for s in book.sentences if not only or s.id in only]
    said = first_said(shown)
    for s in shown:
        out += sentence_lines(s, book.variant, said) + [""]
    out += ends_lines(book)
    return "\n".join(out)


# -- Markdown -----------------------------------------------------------------------

def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def anchor(sid: str) -> str:
    """A sentence's heading anchor as GitHub makes it ("pride.1" -> "pride1")."""
    return sid.replace(".", "")


def rulebook_markdown(book: Rulebook) -> str:
    """The rulebook as Markdown (docs/rulebook.md)."""
    v = book.variant
    out = ["# The literate rulebook", "",
           "<!-- Generated: do not edit. Regenerate with:", f"     {REGENERATE}", "-->", "",
           "The rulebook of *It Came to Pass*, sentence by sentence, each followed by the "
           "rules that cite it (said in English, generated from the spec) and the choice "
           "points that read it. Variant "
           f"`{v}` ({book.description}): its rules are marked **in**, its readings **>**.", "",
           f"- The rules are said at: {book.readings_table}.",
           f"- *fired*: the rule took part in a step of the {book.run.text()}.",
           f"- *scenarios*: the library scenarios whose replay fires the rule (of the "
           f"{book.evidence.library} in `scenarios/library/`).",
           "- *mutants*: the spec's mutation analysis ([mutation.md](mutation.md)): the rule's "
           "mutants by how they ended.", "",
           "| sentence | rules (in variant, fired) | choice points | scenarios | mutants "
           "(killed, survived) |",
           "|---|---|---|---|---|"]
    for s in book.sentences:
        m = s.mutants
        mutants = f"{m.killed}, {m.survived + m.timeout}" if m.total else "-"
        out.append(f"| [`{s.id}`](#{anchor(s.id)}) | {len(s.rules)} ({len(s.in_variant)}, "
                   f"{len(s.fired)}) | {len(s.choices)} | {len(s.scenarios)} | {mutants} |")
    out.append("")
    said = first_said(book.sentences)
    for s in book.sentences:
        out += [f"## {s.id}", "", f"> {s.text}", "", sentence_summary(s, v) + ".", ""]
        for r in s.rules:
            where = said[f"rule:{r.id}"]
            out += _md_rule(r, v) if where == s.id else _md_again(r.id, where)
        for c in s.choices:
            where = said[f"choice:{c.id}"]
            out += _md_choice(c, v) if where == s.id else _md_again(c.id, where)
    out += ["## Loose ends", "",
            "Sentences no rule cites: " + (", ".join(f"`{s.id}`" for s in book.uncited)
                                           or "none") + ".", "",
            "Rules that cite no sentence of the rulebook: "
            + (", ".join(f"`{r.id}`" for r in book.citing_none) or "none") + "."]
    return "\n".join(out).rstrip("\n") + "\n"


def _md_rule(r: RuleEntry, variant: str) -> list[str]:
    tag = "**in**" if r.included else "not in"
    reading = f", reading `{r.choice} = {r.reading}`" if r.choice else ""
    out = [f"### `{r.id}`", "", f"{tag} `{variant}`{reading}; {r.state}; written at "
           f"`{r.where}`.", "", f"*In its author's words:* {r.doc}", ""]
    for st in r.english.statements:
        if len(st.items) < 2:
            out.append(f"- {st.text()}")
        else:
            out += [f"- {st.head}"] + [f"  - {item}" for item in st.items]
    out += ["", f"Scenarios: {files([f'`{x}`' for x in r.scenarios])}. "
            f"Mutants: {r.mutants.text() if r.mutants else 'not in the mutation run'}.", ""]
    return out


def _md_again(what: str, where: str) -> list[str]:
    return [f"`{what}`: said under [{where}](#{anchor(where)}).", ""]


def _md_choice(c: ChoiceEntry, variant: str) -> list[str]:
    out = [f"### Choice point `{c.id}`", "", _md(c.question), "",
           "| | reading | meaning | rules |", "|---|---|---|---|"]
    for rd in c.readings:
        name = f"`{rd.id}`" + (" (literal)" if rd.literal else "")
        out.append(f"| {'>' if rd.chosen else ''} | {name} | {_md(rd.text)} | "
                   + (", ".join(f"`{x}`" for x in rd.rules) or "-") + " |")
    out += ["", f"Why `{c.literal}` is literal: {_md(c.why)}", ""]
    if c.note:
        out += [f"Note: {_md(c.note)}.", ""]
    told = [f"`{x.file}` ({x.readings[0][0]} vs {x.readings[0][1]})" for x in c.contrasts]
    out += ["Told apart by: " + (", ".join(told) if told else
                                 "no library scenario (no round at the tables searched tells "
                                 "the readings apart)") + ".", ""]
    return out


__all__ = ["rulebook_text", "rulebook_markdown", "sentence_summary", "header_lines", "files",
           "anchor", "MARKDOWN_FILE", "REGENERATE", "WIDTH"]
