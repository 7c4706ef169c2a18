"""The corpus of malformed inputs (tests/inputs/): none of them breaks itcp-check.

Every case is an input a new or a hostile user could give: a variant, scenario
or dispute catalogue that is empty, nested 5,000 deep, 30 KB long, not UTF-8 or
of the wrong shape; a question 400 operators deep; a number that is nan,
negative or zero; an output path below a file, on a folder, read-only, empty
or too long.  Each must end with exit code 2, a message naming the file (and
line) or the option and what to do, no traceback, and the working folder
exactly as it was (nothing written, nothing of the user's deleted).

Most cases run in-process (click's runner, in a fresh working folder); the
read-only cases, and a sample of the others, run ``itcp-check`` in a real
subprocess (as an unprivileged user when the tests run as root, so that a
read-only folder is read-only).
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

INPUTS = Path(__file__).resolve().parent / "inputs"
SMALL = ["--players", "2", "--suits", "1", "--ranks", "2..2", "--hand", "1", "--options", "none"]
ASK = ["ask", "can a player pass", *SMALL, "--proof-players", "none"]


@dataclass
class Case:
    name: str
    args: list
    needles: tuple = ()          # each must be in the error output
    inputs: tuple = ()           # files from tests/inputs/ copied into the folder
    dirs: tuple = ()             # folders made first
    files: dict = field(default_factory=dict)  # the user's own files made first
    readonly: tuple = ()         # folders made read-only (subprocess cases only)


def V(name):
    return f"variants/{name}.toml"


# -- variants: every command that takes one reports the file, line and fix ------------------

VARIANT_NEEDLES = {
    "empty": ("empty.toml", "empty file is not a variant"),
    "blank": ("blank.toml", "empty file is not a variant"),
    "comment-only": ("comment-only.toml", "empty file is not a variant"),
    "bom": ("bom.toml:1", "byte-order mark", "without a BOM"),
    "nested-arrays": ("nested-arrays.toml:2", "nest more than 32 deep"),
    "nested-tables": ("nested-tables.toml:2", "nest more than 32 deep"),
    "dotted-deep": ("dotted-deep.toml", "nests more than 32 deep"),
    "players-0": ("players-0.toml:3", "players must be 2..8, got 0"),
    "players-negative": ("players-negative.toml:3", "players must be 2..8, got -3"),
    "players-100": ("players-100.toml:3", "players must be 2..8, got 100"),
    "players-huge": ("players-huge.toml:3", "players must be 2..8"),
    "players-string": ("players-string.toml:3", "whole number"),
    "players-float": ("players-float.toml:3", "whole number"),
    "suits-0": ("suits-0.toml:3", "suits must be 1..6"),
    "hand-too-big": ("hand-too-big.toml:4", "at most hand = 2"),
    "ranks-reversed": ("ranks-reversed.toml:3", "out of range", "2..10"),
    "options-zero-copies": ("options-zero-copies.toml:3", "1..8"),
    "options-repeated": ("options-repeated.toml:3", "listed twice", "characters cut"),
    "huge-value": ("huge-value.toml:3", "whole number", "characters cut"),
    "huge-key": ("huge-key.toml:2", "unknown key", "characters cut"),
    "huge-reading": ("huge-reading.toml:3", "not a reading of pass.when", "characters cut"),
    "extends-long": ("extends-long.toml:2", "extends:", "too long", "shorter path"),
    "extends-long-path": ("extends-long-path.toml:2", "extends:", "too long"),
    "extends-missing": ("extends-missing.toml:2", "no variant file", "relative to this file"),
    "extends-self": ("extends-self.toml:2", "cycle"),
    "extends-number": ("extends-number.toml:2", "must be a string"),
    "extends-folder": ("extends-folder.toml:2", "a folder, not a variant file"),
    "extends-nul": ("extends-nul.toml:2", "not a variant name or path"),
    "cycle-a": ("cycle-b.toml:2", "cycle"),
    "readings-array": ("readings-array.toml:2", "must be a table"),
    "unknown-reading": ("unknown-reading.toml:3", "not a reading", "choose one of"),
    "unknown-choice": ("unknown-choice.toml:3", "unknown choice point", "did you mean"),
    "unknown-top-key": ("unknown-top-key.toml:1", "unknown key", "did you mean 'description'"),
    "not-toml": ("not-toml.toml:1", "not valid TOML"),
    "nul-in-string": ("nul-in-string.toml:1", "not valid TOML"),
    "control-char": ("control-char.toml:1", "not valid TOML"),
    "not-utf8": ("not-utf8.toml:1", "not UTF-8"),
    "binary": ("binary.toml", "not UTF-8"),
}
VARIANT_COMMANDS = {
    "check": ["check", "{v}"], "rules": ["rules", "{v}"], "simulate": ["simulate", "{v}", "-n", "1"],
    "conformance": ["conformance", "{v}", "--max-states", "5"],
    "ask": ["ask", "can a player pass", "{v}", "--proof-players", "none"],
    "generate": ["scenarios", "generate", "{v}", "--out", "gen"],
    "diff": ["diff", "{v}", "official"], "bare": ["--players", "2", "{v}"],
}


def variant_cases():
    out = []
    for name, needles in VARIANT_NEEDLES.items():
        inputs = (V(name),) + ((V("cycle-b"),) if name == "cycle-a" else ())
        for cmd, args in VARIANT_COMMANDS.items():
            if cmd == "bare":
                continue  # the bare form takes no VARIANT argument: see below
            out.append(Case(f"variant-{name}-{cmd}", [a.format(v=f"{name}.toml") for a in args],
                            needles, inputs, dirs=("sub",) if name == "extends-folder" else ()))
    out += [
        Case("variant-folder", ["check", "afolder"], ("afolder", "a folder, not a variant file"),
             dirs=("afolder",)),
        Case("variant-folder-toml", ["rules", "x.toml"], ("x.toml", "a folder"), dirs=("x.toml",)),
        Case("variant-working-folder", ["check", "."], (".", "a folder")),
        Case("variant-device", ["check", "/dev/null"], ("/dev/null", "not a regular file")),
        Case("variant-missing", ["check", "nope.toml"], ("nope.toml", "no variant file")),
        Case("variant-unknown-name", ["check", "offical"], ("no variant named", "did you mean")),
        Case("variant-huge-name", ["check", "x" * 60000], ("no variant named", "characters cut")),
        Case("variant-huge-path", ["rules", "x" * 60000 + ".toml"], ("too long",)),
        Case("variant-empty-name", ["check", ""], ("not a variant name or path",)),
        Case("diff-second-bad", ["diff", "official", "players-0.toml"], ("players-0.toml:3",),
             (V("players-0"),)),
    ]
    return out


# -- numbers: one rule for every numeric option of every command ----------------------------------

NUMERIC = {  # command prefix -> option -> bad values
    ("check", *SMALL): {"--max-states": ["-5", "0", "nan", "1e3", "x"],
                        "--depth": ["-1", "nan", "1.5"],
                        "--timeout": ["nan", "inf", "-inf", "-1", "0", "1e400", "abc"],
                        "--max-memory": ["-1", "0", "10X", "nan", "1K"]},
    tuple(ASK): {"--max-states": ["-5", "0"], "--depth": ["-1"], "--timeout": ["nan", "-1", "0"],
                 "--proof-timeout": ["nan", "-1", "0", "inf"], "--max-memory": ["0"],
                 "--proof-players": ["9", "1..9", "2..", "x", "8..2", "2,2", "2..99999999"]},
    ("simulate", *SMALL): {"-n": ["-1", "0", "nan"], "--max-steps": ["0", "-3"],
                           "--seed": ["-1", "1e100", "x", str(2 ** 64)]},
    ("conformance", *SMALL): {"--max-states": ["0", "-1"], "--playouts": ["-1", "nan"],
                              "--max-solutions": ["0"], "--seed": ["x", "-2"]},
    ("diff", "official", "clarified"): {"--max-states": ["-1", "0", "nan"]},
    ("scenarios", "generate", "--out", "gen"): {"--max-states": ["0"], "--depth": ["0", "-1"]},
    ("rules",): {"--players": ["0", "-3", "100", "nan", "2.5"], "--suits": ["0", "7"],
                 "--ranks": ["10..2", "a", "2..", "1..3", "2.." + "9" * 5000],
                 "--hand": ["0", "-1", "100"],
                 "--options": ["bogus", "mercy=0", "mercy=9", "mercy,mercy", "mercy=x",
                               ",".join(["mercy"] * 3000)]},
}


def number_cases():
    out = []
    for prefix, options in NUMERIC.items():
        for opt, values in options.items():
            for val in values:
                out.append(Case(f"number-{prefix[0]}{opt}={val[:12]}", [*prefix, opt, val],
                                (opt if opt != "-n" else "-n",)))
    return out


# -- questions ------------------------------------------------------------------------------

def question_cases():
    deep = {
        "empty": ("", ("the question is empty",)),
        "blank": ("   ", ("the question is empty",)),
        "not-400": ("can " + "not " * 400 + "someone has passed", ("more than 32 deep",)),
        "parens-2000": ("can " + "(" * 2000 + "someone has passed" + ")" * 2000,
                        ("more than 32 deep",)),
        "parens-right-nested": ("can " + "(someone has passed or " * 40 + "someone has passed"
                                + ")" * 40, ("more than 32 deep",)),
        "too-long": ("can " + " and ".join(["someone has passed"] * 1000), ("the limit is 20,000",)),
        "huge-word": ("can someone has passed and " + "x" * 60000, ("characters",)),
        "control": ("can a\x01player pass", ("unexpected character",)),
        "unicode": ("can ∀ pass", ("unexpected character",)),
        "unknown-word": ("can the passer's hnd change", ("column 18", "did you mean 'hand'")),
        "differs-unknown": ("differs nope.x", ("unknown choice point",)),
        "differs-huge": ("differs " + "x" * 19000, ("unknown choice point", "characters cut")),
        "after-no-eventually": ("after a pass, the round ends", ("eventually",)),
        "ends-early": ("can the", ("ends too early",)),
    }
    return [Case(f"question-{name}", ["ask", q, *SMALL, "--proof-players", "none"], needles)
            for name, (q, needles) in deep.items()]


# -- dispute catalogues -----------------------------------------------------------------------

CATALOGUE_NEEDLES = {
    "id-dotdot": ("id-dotdot.toml:2", "not a plain name"),
    "id-slash": ("id-slash.toml:2", "not a plain name"),
    "id-absolute": ("id-absolute.toml:2", "not a plain name"),
    "id-empty": ("id-empty.toml:2", "not a plain name"),
    "id-dot": ("id-dot.toml:2", "not a plain name"),
    "id-number": ("id-number.toml:2", "id must be a string"),
    "question-number": ("question-number.toml:6", "question must be a string"),
    "question-bad": ("question-bad.toml:6", "column"),
    "question-deep": ("question-deep.toml:6", "more than 32 deep"),
    "table-players-0": ("table-players-0.toml:7", "players must be 2..8"),
    "table-players-string": ("table-players-string.toml:7", "whole number"),
    "table-not-a-table": ("table-not-a-table.toml:7", "table must be a table"),
    "table-unknown-key": ("table-unknown-key.toml:7", "unknown table key"),
    "sentences-string": ("sentences-string.toml:5", "list of strings"),
    "sentence-unknown": ("sentence-unknown.toml:5", "unknown sentence"),
    "choice-number": ("choice-number.toml:8", "list of strings"),
    "dispute-number": ("dispute-number.toml:1", "array of tables"),
    "no-dispute": ("no-dispute.toml", "no dispute"),
    "duplicate-id": ("duplicate-id.toml", "two disputes have the id"),
    "missing-key": ("missing-key.toml", "has no title"),
    "nested": ("nested.toml:1", "nest more than 32 deep"),
    "bom": ("bom.toml:1", "byte-order mark"),
}


def catalogue_cases():
    out = []
    for name, needles in CATALOGUE_NEEDLES.items():
        f = f"catalogues/{name}.toml"
        out.append(Case(f"catalogue-{name}", ["disputes", "--catalogue", f"{name}.toml",
                                              "--out", "out/r.md"], needles, (f,)))
        out.append(Case(f"catalogue-{name}-list", ["disputes", "--catalogue", f"{name}.toml",
                                                   "--list"], needles, (f,)))
    out += [Case("catalogue-folder", ["disputes", "--catalogue", "d", "--list"],
                 ("a folder, not a disputes catalogue",), dirs=("d",)),
            Case("catalogue-missing", ["disputes", "--catalogue", "nope.toml", "--list"],
                 ("no disputes catalogue",))]
    return out


# -- scenarios ----------------------------------------------------------------------------

SCENARIO_NEEDLES = {
    "empty": ("empty.toml", "missing 'title'"),
    "bom": ("bom.toml:1", "byte-order mark"),
    "nested": ("nested.toml:3", "nest more than 32 deep"),
    "no-title": ("no-title.toml", "missing 'title'"),
    "huge-variant": ("huge-variant.toml", "characters cut"),
    "bad-move": ("bad-move.toml", "characters cut"),
    "not-toml": ("not-toml.toml:1", "not valid TOML"),
    "not-utf8": ("not-utf8.toml:1", "not UTF-8"),
}


def scenario_cases():
    return [Case(f"scenario-{name}", ["replay", f"{name}.toml"], needles,
                 (f"scenarios/{name}.toml",)) for name, needles in SCENARIO_NEEDLES.items()]


# -- output paths -----------------------------------------------------------------------------

#: every option that writes: (command up to the option, file or folder, names it writes)
WRITERS = {
    "itf": (["check", *SMALL, "--itf"], "folder", "official-FROZEN.itf.json"),
    "save-scenarios": (["check", *SMALL, "--save-scenarios"], "folder", "official-FROZEN.toml"),
    "graph": (["check", *SMALL, "--graph"], "file", None),
    "emit-smt2": (["check", *SMALL, "--engine", "symbolic", "--emit-smt2"], "folder",
                  "001-bmc-FROZEN-d1.smt2"),
    "ask-save": ([*ASK, "--save"], "folder", "can-a-player-pass--official.toml"),
    "generate": (["scenarios", "generate", "--only", "pass x unbelief", "--out"], "folder",
                 "coverage.md"),
    "diff-save": (["diff", "official", "published", "--save"], "subfolder", None),
    "disputes": (["disputes", "--catalogue", "good.toml", "--out"], "document", None),
}
USER = {"f": "the user's file\n", "good.toml": (INPUTS / "catalogues" / "good.toml").read_text()}


def output_cases():
    out = []
    for name, (args, kind, written) in WRITERS.items():
        opt = next(a for a in reversed(args) if a.startswith("--"))
        target = {"document": "o.md", "file": "o.dot"}.get(kind, "o")
        cases = [
            ("below-a-file", "f/" + target, ("is a file",)),
            ("empty", "", ("an empty path",)),
            ("too-long", "x" * 300 + ("/o.md" if kind == "document" else ""), ("longer than 255",)),
            ("path-too-long", "/".join(["y" * 200] * 25) + ("/o.md" if kind == "document" else ""),
             ("too long",)),
        ]
        if kind in ("file", "document"):
            cases += [("folder-for-a-file", "d" + (".md" if kind == "document" else ""),
                       ("is a folder",)),
                      ("existing-file", "f.md" if kind == "document" else "f", ("exists", "--force"))]
        elif kind == "folder":
            cases += [("file-for-a-folder", "f", ("not a folder",)),
                      ("existing-names", "d", ("already holds", "--force"))]
        else:  # diff: DIR/A-vs-B
            cases += [("file-for-a-folder", "f", ("is a file",))]
        for what, path, needles in cases:
            files = dict(USER)
            if what == "existing-file" and kind == "document":
                files["f.md"] = "the user's rulings\n"
            if what == "existing-names":
                files[f"d/{written}"] = "the user's\n"
            out.append(Case(f"output-{name}-{what}", [*args, path], (opt, *needles),
                            files=files, dirs=("d", "d.md")))
    out += [
        # the user's file "rulings" where the document's scenario folder goes: never deleted
        Case("output-disputes-user-file-rulings", ["disputes", "--catalogue", "good.toml",
                                                   "--out", "rulings.md"],
             ("rulings", "not a folder"), files={**USER, "rulings": "mine\n"}),
        Case("output-disputes-user-folder-rulings", ["disputes", "--catalogue", "good.toml",
                                                     "--out", "rulings.md", "--force"],
             ("rulings", "not a folder"), files={**USER, "rulings": "mine\n"}),
        Case("output-disputes-nonempty-folder", ["disputes", "--catalogue", "good.toml",
                                                 "--out", "rulings.md"],
             ("rulings", "not empty", "--force"), files={**USER, "rulings/mine.txt": "mine\n"}),
        Case("output-disputes-not-markdown", ["disputes", "--catalogue", "good.toml", "--out",
                                              "r.txt"], (".md file",), files=USER),
        Case("output-two-options-one-folder", ["check", *SMALL, "--itf", "o", "--save-scenarios",
                                               "o"], ("also the path of --itf",)),
        Case("output-graph-too-many-states", ["check", *SMALL, "--graph", "g.dot",
                                              "--max-states", "300000"], ("at most 200,000",)),
        Case("output-graph-symbolic", ["check", *SMALL, "--engine", "symbolic", "--graph", "g.dot"],
             ("--graph",)),
    ]
    return out


ALL = variant_cases() + number_cases() + question_cases() + catalogue_cases() \
    + scenario_cases() + output_cases()


def listing(root: Path) -> list:
    """Every path under ``root`` with its kind, size and modification time."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            st = p.lstat()
            out.append((str(p.relative_to(root)), p.is_dir(), st.st_size, st.st_mtime_ns))
    return sorted(out)


def setup(case: Case, root: Path):
    for d in case.dirs:
        (root / d).mkdir(parents=True, exist_ok=True)
    for name in case.inputs:
        shutil.copy(INPUTS / name, root / Path(name).name)
    for name, text in case.files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def check_outcome(case: Case, code: int, err: str, out: str, before, after):
    shown = err + out
    assert code == 2, f"{case.name}: exit {code}\n{shown[-3000:]}"
    assert "Traceback" not in shown, f"{case.name}: a traceback\n{shown[-3000:]}"
    assert "error" in err.lower(), f"{case.name}: no error message\n{shown[-2000:]}"
    assert max(map(len, err.splitlines() or [""])) <= 400, f"{case.name}: a huge line echoed"
    for needle in case.needles:
        assert needle in err, f"{case.name}: {needle!r} not in\n{err[-2000:]}"
    assert after == before, f"{case.name}: the working folder changed"


def test_the_corpus_is_large():
    assert len(ALL) >= 400
    assert len({c.name for c in ALL}) == len(ALL)


#: in-process cases, several per test so the runner's set-up is shared
BATCH = 40


@pytest.mark.parametrize("batch", range(0, len(ALL), BATCH),
                         ids=lambda i: f"{ALL[i].name}..")
def test_malformed_inputs_in_process(batch, tmp_path, monkeypatch, cli):
    failures = []
    for k, case in enumerate(ALL[batch:batch + BATCH]):
        root = tmp_path / f"c{k}"
        root.mkdir()
        setup(case, root)
        monkeypatch.chdir(root)
        before = listing(root)
        r = cli(*case.args)
        try:
            if r.exception is not None and not isinstance(r.exception, SystemExit):
                raise AssertionError(f"{case.name}: {type(r.exception).__name__}: {r.exception}")
            check_outcome(case, r.exit_code, r.stderr, r.stdout, before, listing(root))
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n\n".join(failures)


# -- in a real process --------------------------------------------------------------------------

@functools.cache
def _runner() -> tuple[list[str] | None, str]:
    """How to run the program so that a read-only folder is read-only, and why
    not when it cannot be: (prefix, reason).

    Not root: as is.  Root: still as root, but with every capability dropped
    (``setpriv --bounding-set=-all``), so that a folder's mode binds root as it
    binds its owner, while root keeps its own files: the program, even in a
    folder only root may enter (a clone in root's home, mode 700), stays
    reachable, where an unprivileged user could not open it."""
    if os.geteuid() != 0:
        return [], ""
    if not shutil.which("setpriv"):
        return None, "running as root without setpriv (util-linux): a read-only folder is writable"
    prefix = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--"]
    probe = subprocess.run(prefix + ["true"], capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        return None, ("running as root, and the capabilities cannot be dropped here "
                      f"(setpriv: {probe.stderr.strip() or probe.returncode}): "
                      "a read-only folder is writable")
    return prefix, ""


READONLY = [
    Case("readonly-folder-itf", ["check", *SMALL, "--itf", "ro/o"], ("--itf", "not writable"),
         dirs=("ro",), readonly=("ro",)),
    Case("readonly-cwd-save", ["check", *SMALL, "--save-scenarios", "o"],
         ("--save-scenarios", "not writable"), readonly=(".",)),
    Case("readonly-cwd-graph", ["check", *SMALL, "--graph", "g.dot"], ("--graph", "not writable"),
         readonly=(".",)),
    Case("readonly-folder-ask", [*ASK, "--save", "ro"], ("--save", "not writable"),
         dirs=("ro",), readonly=("ro",)),
    Case("readonly-cwd-disputes", ["disputes", "--catalogue", "good.toml", "--out", "r.md"],
         ("--out", "not writable"), files=USER, readonly=(".",)),
    Case("readonly-folder-generate", ["scenarios", "generate", "--out", "ro/g"],
         ("--out", "not writable"), dirs=("ro",), readonly=("ro",)),
]
SUBPROCESS = READONLY + [c for c in ALL if c.name in (
    "variant-nested-arrays-check", "variant-players-0-check", "question-not-400",
    "output-disputes-user-file-rulings", "output-itf-below-a-file", "number-check--timeout=nan",
    "catalogue-id-dotdot")]


def _console() -> list[str]:
    exe = Path(sys.executable).with_name("itcp-check")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "itcp.cli.main"]


def run_case(case: Case, tmp_path: Path, console: list[str], env: dict):
    """Run one case's command in a real process, in a fresh folder under
    ``tmp_path``, and check that it fails cleanly and changes nothing."""
    prefix, why_not = _runner() if case.readonly else ([], "")
    if prefix is None:
        pytest.skip(why_not)
    root = tmp_path / "w"
    root.mkdir()
    setup(case, root)
    for d in case.readonly:
        os.chmod(root / d, 0o555)
    before = listing(root)
    env = dict(env, PYTHONDONTWRITEBYTECODE="1", HOME=str(tmp_path))
    try:
        r = subprocess.run(prefix + console + case.args, cwd=root, capture_output=True,
                           text=True, timeout=120, env=env)
        check_outcome(case, r.returncode, r.stderr, r.stdout, before, listing(root))
    finally:
        for d in case.readonly:
            os.chmod(root / d, 0o755)


@pytest.mark.parametrize("case", SUBPROCESS, ids=lambda c: c.name)
def test_malformed_inputs_in_a_subprocess(case, tmp_path):
    run_case(case, tmp_path, _console(), dict(os.environ))


@pytest.mark.slow
@pytest.mark.parametrize("case", READONLY, ids=lambda c: c.name)
def test_read_only_outputs_from_a_private_folder(case, private_install):
    """The read-only cases with the program installed in a folder only its owner
    may enter (mode 700, as a clone in root's home is): the clean error, never
    "Permission denied" on the program itself."""
    assert private_install["private"].stat().st_mode & 0o777 == 0o700
    work = private_install["private"] / f"case-{case.name}"
    work.mkdir()
    run_case(case, work, [str(private_install["bin"] / "itcp-check")], private_install["env"])
