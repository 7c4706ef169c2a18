"""Where keys stand in a TOML text: line numbers for error messages.

``tomllib`` parses but keeps no positions, so errors in variant and scenario
files find their line by scanning the raw text for section headers and
``key =`` lines.  The k-th ``[[table]]`` of an array of tables is "table.k".
"""
from __future__ import annotations

import re

_PART = r'(?:"[^"]*"|\'[^\']*\'|[A-Za-z0-9_-]+)'
_KEY_RE = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")
_HEADER_RE = re.compile(rf"^\s*\[\[?\s*({_PART}(?:\s*\.\s*{_PART})*)\s*\]\]?")


def _dotted(key_text: str) -> str:
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', key_text)
    return ".".join("".join(groups) for groups in parts)  # one group matches


def index_lines(text: str) -> dict[str, int]:
    """Dotted key -> line; the k-th ``[[move]]`` (from 1) is "move.k"."""
    index: dict[str, int] = {}
    counts: dict[str, int] = {}
    section, in_multiline = "", False
    for number, line in enumerate(text.splitlines(), 1):
        if in_multiline:
            in_multiline = (line.count('"""') + line.count("'''")) % 2 == 0
            continue
        if m := _HEADER_RE.match(line):
            name = _dotted(m[1])
            if line.lstrip().startswith("[["):
                counts[name] = counts.get(name, 0) + 1
                name = f"{name}.{counts[name]}"
            section = name
            index.setdefault(section, number)
        elif m := _KEY_RE.match(line):
            key = _dotted(m[1])
            index.setdefault(f"{section}.{key}" if section else key, number)
        if (line.count('"""') + line.count("'''")) % 2 == 1:
            in_multiline = True
    return index
