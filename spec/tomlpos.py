"""Reading TOML input files: every failure a clean error, and where keys stand.

``load_toml`` parses a variant, scenario or catalogue file with every failure
an ``InputError`` at ``file:line`` (a byte-order mark named, nesting limited
before the parser could exhaust the stack).

``tomllib`` parses but keeps no positions, so errors in variant and scenario
files find their line by scanning the raw text for section headers and
``key =`` lines.  The k-th ``[[table]]`` of an array of tables is "table.k".
"""
from __future__ import annotations

import errno
import os
import re
import stat
import tomllib

from .errors import InputError

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


# -- reading a TOML text, every failure a clean error ---------------------------------------

#: how deep arrays, inline tables and dotted keys may nest in an input file
MAX_NESTING = 32
BOM = "\ufeff"


def _nesting_line(text: str, limit: int) -> int | None:
    """The line where brackets inside a value first nest deeper than ``limit``
    (table headers, strings and comments are skipped), or None."""
    depth, line, in_value, i, n = 0, 1, False, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            if depth == 0:
                in_value = False
        elif ch == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif ch in "\"'":
            triple = text.startswith(ch * 3, i)
            close = ch * 3 if triple else ch
            j = i + len(close)
            while j < n and not text.startswith(close, j):
                if ch == '"' and text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    line += 1
                    if not triple:
                        break
                j += 1
            i = j + len(close)
            continue
        elif depth == 0 and not in_value:
            in_value = ch == "="
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


def _too_deep(data, limit: int) -> str | None:
    """The top-level key under which the parsed data nests deeper than ``limit``."""
    stack = [(v, 1, k) for k, v in data.items()]
    while stack:
        value, depth, top = stack.pop()
        if depth > limit:
            return top
        if isinstance(value, dict):
            stack.extend((v, depth + 1, top) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1, top) for v in value)
    return None


def load_toml(text: str, label: str, error=None, hint: str | None = None) -> dict:
    """``tomllib.loads`` with every failure an ``error`` (an InputError class)
    at ``label:line``: a byte-order mark named as such, nesting deeper than
    ``MAX_NESTING`` (before the parser would exhaust the stack), a syntax error
    at its line.  ``hint`` says what the file should look like."""
    error = error or InputError
    if text.startswith(BOM):
        raise error("the file starts with a UTF-8 byte-order mark (BOM), which TOML does not "
                    "allow", f"{label}:1", "save the file as UTF-8 without a BOM")
    line = _nesting_line(text, MAX_NESTING)
    if line is not None:
        raise error(f"arrays or inline tables nest more than {MAX_NESTING} deep", f"{label}:{line}",
                    "no input file needs more than a few levels; flatten the value")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column \d+\)", msg)
        what = re.sub(r"\s*\(at line .*?\)", "", msg)
        raise error(f"not valid TOML: {what}", f"{label}:{m[1]}" if m else label, hint) from None
    except RecursionError:
        raise error("the file nests too deeply to read", label,
                    "no input file needs more than a few levels") from None
    top = _too_deep(data, MAX_NESTING)
    if top is not None:
        where = index_lines(text).get(top)
        raise error(f"{top!r} nests more than {MAX_NESTING} deep (tables, dotted keys or "
                    "arrays)", f"{label}:{where}" if where else label,
                    "no input file needs more than a few levels") from None
    return data


#: the largest input file read (bytes): far beyond any real variant, scenario or catalogue
MAX_INPUT_BYTES = 16 * 1024 * 1024


def read_input(location, what: str, error=None, missing=None) -> str:
    """The text of an input file (``what``: "variant file", "scenario file"...),
    every failure an ``error``: ``missing`` (an error to raise) when nothing is
    there, a folder or a device named as such, too large, not UTF-8."""
    error = error or InputError
    label = str(location)
    try:
        if hasattr(location, "is_dir") and not hasattr(location, "stat"):
            raw = location.read_bytes()  # a packaged resource
        else:
            st = os.stat(location)
            if stat.S_ISDIR(st.st_mode):
                raise error(f"a folder, not a {what}", label,
                            f"give the path of a {what} (a .toml file)")
            if not stat.S_ISREG(st.st_mode):
                raise error(f"not a regular file (a device or a pipe?), not a {what}", label,
                            f"give the path of a {what} (a .toml file)")
            if st.st_size > MAX_INPUT_BYTES:
                raise error(f"the {what} is {st.st_size:,} bytes; the limit is "
                            f"{MAX_INPUT_BYTES:,}", label)
            with open(location, "rb") as f:
                raw = f.read(MAX_INPUT_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError):
        raise (missing or error(f"no {what} {label!r}", label)) from None
    except OSError as e:
        hint = ("use a shorter path" if e.errno == errno.ENAMETOOLONG else
                "check the file's permissions" if e.errno == errno.EACCES else None)
        raise error(f"cannot read the {what}: {e.strerror or e}", label, hint) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise error(f"the {what} is not UTF-8 text (byte {e.start + 1})", f"{label}:{line}",
                    "save it as UTF-8") from None
