"""Regenerate the command outputs shown in README.md (and other Markdown files).

A README that shows what a command prints is only true if the printing is
redone whenever the rules change, so this script reruns every command shown
and writes back what it prints; nobody edits an output by hand.

A shown command is a line ``$ itcp-check ...`` inside a fenced block that has
no language tag; its output is every line up to the next ``$`` line or the
end of the block.  Where the README elides part of an output with a line
``...``, the regenerated output keeps as many lines before and after the
``...`` as it kept before (and a part shown between two ``...`` lines is
found again by its opening words).  The commands run in one fresh temporary folder
per file, in order, through the shell (so ``saved/*.toml`` expands), with
this environment's ``itcp-check`` first on the PATH.

    python scripts/readme_outputs.py                 # README.md in place
    python scripts/readme_outputs.py --check FILE    # exit 1 if FILE is stale
                                                     #   (timings ignored)
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = "```"
PROMPT = "$ "
ELIDED = "..."
#: what differs between two runs of the same command: wall times ("0.8 s"), and the
#: figures of a timing row ("seconds  0.501", "steps/second  24,546")
VOLATILE = re.compile(r"\b\d+(\.\d+)? ?(s|ms|seconds)\b"
                      r"|^(\s*(?:seconds|[\w ()]+/second)\s+)[\d,.]+$", re.MULTILINE)


def segments(block: list[str]) -> list[tuple[str, list[str]]]:
    """The (command, output lines) pairs of one fenced block."""
    out: list[tuple[str, list[str]]] = []
    for line in block:
        if line.startswith(PROMPT):
            out.append((line[len(PROMPT):], []))
        elif out:
            out[-1][1].append(line)
    return out


def shaped(old: list[str], new: list[str]) -> list[str]:
    """``new`` cut the way ``old`` was: the same number of lines before the first
    ``...`` and after the last; a part shown between two ``...`` is found again
    by its first line's opening words (up to the first digit or bracket)."""
    marks = [line for line in old if line.strip() == ELIDED]
    if not marks:
        return new
    parts: list[list[str]] = [[]]
    for line in old:
        if line.strip() == ELIDED:
            parts.append([])
        else:
            parts[-1].append(line)
    head, middle, tail = parts[0], parts[1:-1], parts[-1]
    if len(head) + len(tail) >= len(new):
        return new
    out, at = new[:len(head)] + [marks[0]], len(head)
    for part, mark in zip(middle, marks[1:]):
        key = re.split(r"[\d(\[]", part[0], maxsplit=1)[0] if part else ""
        found = next((i for i in range(at, len(new) - len(tail))
                      if key and new[i].startswith(key)), None)
        if found is None:
            continue
        out += new[found:found + len(part)] + [mark]
        at = found + len(part)
    return out + (new[len(new) - len(tail):] if tail else [])


def trailing_blanks(lines: list[str]) -> list[str]:
    """The blank lines that end ``lines`` (kept between two commands of a block)."""
    n = len(lines)
    while n and not lines[n - 1].strip():
        n -= 1
    return lines[n:]


def run(command: str, cwd: Path) -> list[str]:
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(command, shell=True, cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=3600)
    text = (done.stdout + done.stderr).rstrip("\n")
    return text.split("\n") if text else []


def regenerate(text: str, cwd: Path, log=print) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line != FENCE:
            continue
        j = i
        while j < len(lines) and lines[j] != FENCE:
            j += 1
        block = lines[i:j]
        segs = segments(block)
        if segs and block[0].startswith(PROMPT) and any(c.startswith("itcp-check") for c, _ in segs):
            for command, old in segs:
                log(f"$ {command}")
                out.append(PROMPT + command)
                gap = trailing_blanks(old)
                body = old[:len(old) - len(gap)]
                out.extend(shaped(body, run(command, cwd)) + gap)
        else:
            out.extend(block)
        i = j
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, default=[ROOT / "README.md"])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if an output differs (timings ignored)")
    args = ap.parse_args(argv)
    stale = False
    for path in args.files:
        text = path.read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory() as tmp:
            new = regenerate(text, Path(tmp), log=lambda m: print(m, file=sys.stderr))
        if args.check:
            if VOLATILE.sub("T", new) != VOLATILE.sub("T", text):
                print(f"{path}: outputs are stale", file=sys.stderr)
                stale = True
        elif new != text:
            path.write_text(new, encoding="utf-8")
            print(f"{path}: outputs regenerated", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
