"""cli/output.py: every file the program writes is checked first, written whole,
and never replaces anything of the user's without --force."""
from __future__ import annotations

import os
import stat

import pytest

from itcp.cli.output import FILE_MODE, OutputError, Outputs, component


def names(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_a_folder_of_outputs_takes_new_files_and_leaves_the_others(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    (d / "mine.txt").write_text("mine")
    with Outputs() as out:
        f = out.folder(d, "--save", names=["a.toml"])
        assert f.write("a.toml", "A") == str(d / "a.toml")
        assert not (d / "a.toml").exists()  # not before the commit
        out.commit()
    assert names(tmp_path) == ["d", "d/a.toml", "d/mine.txt"]
    assert (d / "mine.txt").read_text() == "mine" and (d / "a.toml").read_text() == "A"
    # the same name again: refused up front, unless --force
    with pytest.raises(OutputError, match="already holds a.toml"):
        Outputs().folder(d, "--save", names=["a.toml"])
    with Outputs(force=True) as out:
        out.folder(d, "--save", names=["a.toml"]).write("a.toml", "B")
        out.commit()
    assert (d / "a.toml").read_text() == "B" and (d / "mine.txt").read_text() == "mine"
    assert names(tmp_path) == ["d", "d/a.toml", "d/mine.txt"]


def test_a_name_not_foreseen_is_still_not_overwritten(tmp_path):
    (tmp_path / "x.smt2").write_text("user")
    with pytest.raises(OutputError, match="already holds x.smt2"):
        Outputs().folder(tmp_path, "--emit-smt2", patterns=["*.smt2"])
    with Outputs() as out:
        f = out.folder(tmp_path, "--save")
        f.write("x.smt2", "mine")
        with pytest.raises(OutputError, match="x.smt2 exists: nothing was written"):
            out.commit()
    assert (tmp_path / "x.smt2").read_text() == "user"
    assert names(tmp_path) == ["x.smt2"]


def test_an_error_leaves_nothing_behind(tmp_path):
    target = tmp_path / "a" / "b" / "c"
    with pytest.raises(RuntimeError):
        with Outputs() as out:
            f = out.folder(target, "--out")
            doc = out.file(tmp_path / "new" / "doc.md", "--doc")
            f.write("one.toml", "1")
            doc.write("# doc")
            assert names(tmp_path)  # staged beside the targets
            raise RuntimeError("the work failed")
    assert names(tmp_path) == []  # no temporary folder, no parent made for it


def test_an_interrupt_leaves_nothing_behind(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with Outputs() as out:
            out.folder(tmp_path / "o", "--itf").write("a.json", "{}")
            raise KeyboardInterrupt
    assert names(tmp_path) == []


def test_a_file_output_needs_force_to_replace_a_file(tmp_path):
    g = tmp_path / "g.dot"
    g.write_text("user")
    with pytest.raises(OutputError, match="the file exists") as e:
        Outputs().file(g, "--graph")
    assert "--force" in e.value.render()
    with Outputs(force=True) as out:
        out.file(g, "--graph").write("digraph {}")
        out.commit()
    assert g.read_text() == "digraph {}"
    assert stat.S_IMODE(os.stat(g).st_mode) == FILE_MODE


def test_a_whole_folder_is_replaced_only_with_force(tmp_path):
    d = tmp_path / "rulings"
    d.mkdir()
    (d / "old.toml").write_text("old")
    with pytest.raises(OutputError, match="not empty"):
        Outputs().folder(d, "--out", whole=True)
    with Outputs(force=True) as out:
        out.folder(d, "--out", whole=True).write("new.toml", "new")
        out.commit()
    assert names(tmp_path) == ["rulings", "rulings/new.toml"]


def test_the_kind_of_path_is_never_forced(tmp_path):
    (tmp_path / "rulings").write_text("the user's file")
    (tmp_path / "dir").mkdir()
    for force in (False, True):
        with pytest.raises(OutputError, match="not a folder"):
            Outputs(force).folder(tmp_path / "rulings", "--out", whole=True)
        with pytest.raises(OutputError, match="is a folder"):
            Outputs(force).file(tmp_path / "dir", "--graph")
        with pytest.raises(OutputError, match="is a file"):
            Outputs(force).file(tmp_path / "rulings" / "x.dot", "--graph")
    assert (tmp_path / "rulings").read_text() == "the user's file"


def test_bad_paths_are_refused_before_any_work(tmp_path):
    for path, what in (("", "empty path"), ("x" * 300, "longer than 255"),
                       ("/".join(["y" * 200] * 25), "too long")):
        with pytest.raises(OutputError, match=what):
            Outputs().folder(path, "--itf")
    out = Outputs()
    out.folder(tmp_path / "o", "--itf")
    with pytest.raises(OutputError, match="also the path of --itf"):
        out.folder(tmp_path / "o", "--save-scenarios")


def test_names_from_input_stay_inside_the_folder(tmp_path):
    with Outputs() as out:
        f = out.folder(tmp_path / "o", "--save")
        for bad in ("../x", "a/b", "..", ".", "", "/etc/x", "x" * 300):
            with pytest.raises(OutputError, match="not a plain file name"):
                f.write(bad, "x")
    assert component("../../etc/passwd") == "etc-passwd"
    assert component("") == "unnamed" and component("a b", ".toml") == "a-b.toml"
    long = component("q" * 1000)
    assert len(long) <= 120 and long != component("q" * 999)


def test_nothing_is_made_for_a_folder_no_file_goes_in(tmp_path):
    with Outputs() as out:
        out.folder(tmp_path / "a" / "o", "--save")
        out.commit()
    assert names(tmp_path) == []
