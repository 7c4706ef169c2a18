"""``--html`` on check, ask and the bare command, end to end; every report path
checked before the work and written all or nothing."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("itcp-check")
TINY = ["--players", "2", "--suits", "1", "--ranks", "2..2", "--hand", "1",
        "--options", "pride_cycle"]


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write may have left behind."""
    return [p.name for p in folder.rglob(".*") if p.name.endswith(".tmp")
            or p.name.startswith(".itcp-probe-")]


def test_bare_command_writes_the_report(tmp_path):
    """The README's form, at the default table: the page has every verdict and
    the FROZEN trace; the text report says where the page is."""
    r = subprocess.run([str(EXE), "--html", "report.html"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 1, r.stderr   # the official text violates properties
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "HTML report written to report.html" in r.stdout
    assert 'id="trace-FROZEN"' in page and 'data-property="NO_DEADLOCK"' in page
    assert "2 players, 2 suits, ranks 2-2, hand 1, Unbelief, Pride Cycle" in page
    mode = stat.S_IMODE((tmp_path / "report.html").stat().st_mode)
    assert mode & 0o044, oct(mode)       # readable by others, as a plain write makes it
    assert leftovers(tmp_path) == []


def test_check_html_json_names_the_file(cli, tmp_path):
    out = tmp_path / "sub" / "r.html"
    r = cli("check", *TINY, "--html", str(out), "--json")
    assert r.exit_code == 1, r.output
    import json
    assert json.loads(r.stdout)["html"] == str(out)
    assert out.is_file() and 'data-graph="drawn"' in out.read_text()


def test_ask_html_shows_the_witness(cli, tmp_path):
    out = tmp_path / "answer.html"
    r = cli("ask", "can the passer's hand change", "official", *TINY, "--save",
            str(tmp_path / "answers"), "--html", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert 'data-answer="yes"' in page and 'id="trace-answer"' in page
    assert "can-the-passer-s-hand-change--official.toml" in page


# -- bad paths: exit 2, a message naming the option and the path, nothing written ----------

@pytest.mark.parametrize("command", [["check", *TINY], ["ask", "can the passer's hand change",
                                                        "official", *TINY]])
def test_directory_given_as_file(cli, tmp_path, command):
    r = cli(*command, "--html", str(tmp_path))
    assert r.exit_code == 2 and "--html" in r.stderr and "is a folder" in r.stderr
    assert "Traceback" not in r.stderr + r.output
    assert list(tmp_path.iterdir()) == []


def test_path_below_a_regular_file(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    r = cli("check", *TINY, "--html", str(tmp_path / "notes.txt" / "r.html"))
    assert r.exit_code == 2 and "a part of this path is a file" in r.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_unwritable_place(cli, tmp_path):
    if os.geteuid() == 0:
        where = Path("/sys/itcp-report.html")   # not writable even by root
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        where = ro / "r.html"
    r = cli("check", *TINY, "--html", str(where))
    assert r.exit_code == 2 and "cannot write" in r.stderr, r.stderr
    assert not where.exists()


def test_existing_file_needs_force(cli, tmp_path):
    out = tmp_path / "r.html"
    out.write_text("mine")
    r = cli("check", *TINY, "--html", str(out))
    assert r.exit_code == 2 and "the file exists" in r.stderr and "--force" in r.stderr
    assert out.read_text() == "mine"
    r = cli("check", *TINY, "--html", str(out), "--force")
    assert r.exit_code == 1 and out.read_text().startswith("<!DOCTYPE html>")
    assert leftovers(tmp_path) == []


def test_bad_path_in_a_subprocess_exits_2_before_the_search(tmp_path):
    r = subprocess.run([str(EXE), "--html", str(tmp_path)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and "error: --html " in r.stderr and "is a folder" in r.stderr
    assert "Traceback" not in r.stderr
    assert "explicit-state search" not in r.stdout   # refused before any work
