"""Every file and folder ``itcp-check`` writes goes through this module.

The rules (docs/reliability.md):

1. **Checked before the work.**  A command declares its outputs first
   (``Outputs.file``, ``Outputs.folder``), and each path is checked then: not
   below a file, not a folder where a file is wanted (or the reverse), its
   folder writable, the name not too long.  A bad path fails in a second, not
   after a ten-minute search.
2. **Nothing of the user's is replaced without ``--force``.**  A file output
   that exists is refused.  A folder output is a collection: the program adds
   its files to it and leaves every other file there alone, but a file of the
   same name as one it writes is refused (checked up front for the names the
   command can predict, and again before anything is moved).  A folder that a
   command writes *as a whole* (``disputes``: the scenarios of one document)
   is refused when it exists and is not empty.  ``--force`` lifts these
   refusals: an existing file is replaced; a whole folder is replaced with
   everything in it.  A file where a folder is wanted, or a folder where a
   file is wanted, is refused even with ``--force``.
3. **All or nothing.**  Everything is written into a temporary file or folder
   beside its target (``.NAME.itcp-tmp-XXXX``; for a folder that exists, a
   temporary folder inside it) and moved into place, each by one rename, only
   when the command has produced all of it.  An error or an interrupt leaves
   nothing behind: no temporary file, no half-filled folder, and no parent
   folder created for the output.  Signals are held back while the renames run.
   A folder of outputs is made only when a file goes in it.
4. **Names from input are made safe.**  A name taken from input (a variant's,
   a question's, a dispute's) that becomes part of a path is reduced to one
   plain path component (``component``), never a path of its own.

Checkers never open files: they produce text, or write through a sink this
module hands them (``FolderOut.write``), which puts it in the temporary folder.
"""
from __future__ import annotations

import errno
import fnmatch
import hashlib
import os
import re
import shutil
import signal
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path

from itcp.spec.errors import InputError

#: the longest name (bytes) of one path component on common file systems
NAME_MAX = 255
TMP_MARK = ".itcp-tmp-"
FORCE_HINT = "add --force to replace it, or choose another path"


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


#: the modes a new file and folder get, as if made by open() and mkdir()
#: (temporary files are made private; they get these as they are made)
FILE_MODE, DIR_MODE = 0o666 & ~_umask(), 0o777 & ~_umask()


class OutputError(InputError):
    """An output path that cannot be written as asked."""


def _short(path, limit: int = 120) -> str:
    text = str(path)
    return text if len(text) <= limit else text[:limit // 2] + "..." + text[-limit // 2:]


def component(text: str, suffix: str = "", limit: int = 120) -> str:
    """``text`` as one safe file-name component, ``suffix`` kept: letters,
    digits, ``-`` and ``_`` only (anything else becomes ``-``), no leading dot,
    never empty, and at most ``limit`` characters before the suffix (a longer
    name is cut and keeps a short hash of the whole, so two long names stay
    apart)."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", str(text)).strip("-") or "unnamed"
    if len(slug) > limit:
        digest = hashlib.sha1(str(text).encode("utf-8", "replace")).hexdigest()[:8]
        slug = slug[:limit - 9].rstrip("-") + "-" + digest
    return slug + suffix


def _plain(name: str) -> bool:
    """One path component that stays inside its folder."""
    return (bool(name) and name not in (".", "..") and "/" not in name and "\\" not in name
            and "\0" not in name and not name.startswith(TMP_MARK)
            and len(name.encode("utf-8", "surrogateescape")) <= NAME_MAX)


# -- checking a path ------------------------------------------------------------------

def _fail(option: str, path, message: str, hint: str | None = None) -> OutputError:
    return OutputError(f"{option} {_short(path)}: {message}", hint=hint)


def _lstat(p: Path):
    """os.lstat, or None when nothing is there; other errors pass."""
    try:
        return os.lstat(p)
    except FileNotFoundError:
        return None


def _check_path(path: Path, option: str, want: str) -> tuple[Path, list[Path]]:
    """Check that ``path`` can become a ``want`` ("file" or "folder").

    Returns (the nearest existing folder above the path, or the path itself
    for an existing folder; the missing folders between it and the path,
    outermost first, the path itself not included).  Raises OutputError
    naming the option, the path and the fix."""
    text = str(path)
    if not text.strip():
        raise _fail(option, repr(text), "an empty path", "give a file or folder name")
    if "\0" in text:
        raise _fail(option, repr(text), "a path cannot hold a NUL character")
    if any(len(part.encode("utf-8", "surrogateescape")) > NAME_MAX for part in path.parts):
        raise _fail(option, path, f"a name in this path is longer than {NAME_MAX} bytes",
                    "use shorter names")
    if len(os.fsencode(os.path.abspath(text))) >= 4000:
        raise _fail(option, path, "the path is too long", "use a shorter path")
    try:
        there = _lstat(path) is not None
        if there and want == "folder":
            if not os.path.isdir(path):
                raise _fail(option, path, "exists and is not a folder, but a folder of "
                            "files is written here",
                            "give a folder name (a new one or an existing folder)")
            if not os.access(path, os.W_OK | os.X_OK):
                raise _fail(option, path, "the folder is not writable",
                            "choose a folder you can write to")
            return path, []
        if there:  # a file is wanted
            if os.path.isdir(path):
                raise _fail(option, path, "is a folder, but a file is written here",
                            "give a file name (a new one, or an existing file with --force)")
            if os.path.exists(path) and not os.path.isfile(path):
                raise _fail(option, path, "exists and is not a regular file",
                            "give the name of a new file")
        missing: list[Path] = []
        here = path.parent
        while str(here) not in ("", ".") and _lstat(here) is None and here.parent != here:
            missing.append(here)
            here = here.parent
        if not os.path.isdir(here):
            raise _fail(option, path, f"{_short(here)} is not a folder, so nothing can be "
                        "written below it", "choose a path in a folder")
    except OutputError:
        raise
    except OSError as e:
        if e.errno == errno.ENOTDIR:
            raise _fail(option, path, "a part of this path is a file, so nothing can be "
                        "written below it", "choose a path in a folder") from None
        if e.errno == errno.ENAMETOOLONG:
            raise _fail(option, path, "the path is too long", "use a shorter path") from None
        raise _fail(option, path, f"cannot use this path: {e.strerror or e}") from None
    if not os.access(here, os.W_OK | os.X_OK):
        raise _fail(option, path, f"cannot create it: the folder {_short(here)} is not "
                    "writable (read-only?)", "choose a folder you can write to")
    missing.reverse()
    return here, missing


def checked_folder(path, option: str) -> Path:
    """``path`` checked as a folder a command writes into as it goes (a
    checkpoint): not below a file, not a file, its folder writable; the folder
    itself is made when the first file goes in it (``make_folder``)."""
    path = Path(path)
    _check_path(path, option, "folder")
    return path


def make_folder(path: Path) -> None:
    """Make ``path`` and the folders missing above it, with the modes mkdir gives."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)


# -- the outputs of one command -----------------------------------------------------------

class _Target(ABC):
    """An output a command writes: staged beside its target, then committed or discarded."""

    def __init__(self, outputs: Outputs, path, option: str):
        if not str(path).strip():  # Path("") would be the working folder
            raise _fail(option, repr(str(path)), "an empty path", "give a file or folder name")
        self.outputs, self.path, self.option = outputs, Path(path), option
        self.staging: Path | None = None

    def _parents(self, missing: list[Path]):
        self.outputs._make_parents(missing)

    @abstractmethod
    def _conflicts(self) -> list[str]:
        """What appeared at the target since it was checked (replaced without --force)."""

    @abstractmethod
    def _commit(self) -> None:
        """Move the staged output into place."""

    @abstractmethod
    def _discard(self) -> None:
        """Remove what was staged."""


class FileOut(_Target):
    """One file: written to a temporary file beside it, renamed at commit."""

    def __init__(self, outputs, path, option):
        super().__init__(outputs, path, option)
        _, self.missing = _check_path(self.path, option, "file")
        self.exists = os.path.lexists(self.path)
        if self.exists and not outputs.force:
            raise _fail(option, self.path, "the file exists", FORCE_HINT)

    def staging_path(self) -> Path:
        """A temporary file beside the target to write to (created empty)."""
        if self.staging is None:
            self._parents(self.missing)
            fd, tmp = self.outputs._mkstemp(self.path.parent or Path("."),
                                            f".{self.path.name[:60]}{TMP_MARK}",
                                            self.path.suffix, self.option, self.path)
            os.close(fd)
            self.staging = Path(tmp)
        return self.staging

    def write(self, data: str | bytes) -> str:
        p = self.staging_path()
        self.outputs._io(lambda: p.write_bytes(data if isinstance(data, bytes)
                                               else data.encode("utf-8")),
                         self.option, self.path)
        return str(self.path)

    def _conflicts(self) -> list[str]:
        if self.staging is None:
            return []
        if os.path.lexists(self.path) and not self.exists and not self.outputs.force:
            return [str(self.path)]
        if os.path.isdir(self.path):
            return [str(self.path)]
        return []

    def _commit(self):
        if self.staging is not None:
            os.replace(self.staging, self.path)
            self.staging = None

    def _discard(self):
        if self.staging is not None:
            _remove(self.staging)
            self.staging = None


class FolderOut(_Target):
    """A folder of files.  ``write(name, text)`` puts one file in it (in the
    temporary folder until commit) and returns the path it will have."""

    def __init__(self, outputs, path, option, names=(), patterns=(), whole=False):
        super().__init__(outputs, path, option)
        self.whole = whole
        self.base, self.missing = _check_path(self.path, option, "folder")
        self.existed = os.path.isdir(self.path)
        self.names: list[str] = []
        if self.existed:
            inside = sorted(os.listdir(self.path))
            if whole and inside and not outputs.force:
                raise _fail(option, self.path, "the folder exists and is not empty (the "
                            "command replaces it as a whole)",
                            "add --force to replace it and everything in it, or choose "
                            "another path")
            if not whole and not outputs.force:
                taken = [n for n in inside if n in set(names)
                         or any(fnmatch.fnmatchcase(n, p) for p in patterns)]
                if taken:
                    listing = ", ".join(taken[:3]) + (", ..." if len(taken) > 3 else "")
                    raise _fail(option, self.path, f"the folder already holds {listing}, "
                                "which this command would write",
                                "add --force to replace those files (other files are "
                                "left alone), or choose another folder")

    @property
    def folder(self) -> Path:
        """The folder the files will be in (for paths relative to it)."""
        return self.path

    def final(self, name: str) -> Path:
        return self.path / name

    def _stage(self) -> Path:
        if self.staging is None:
            if self.existed and not self.whole:
                where, prefix = self.path, TMP_MARK
            else:
                self._parents(self.missing)
                where, prefix = self.path.parent, f".{self.path.name[:60]}{TMP_MARK}"
            self.staging = self.outputs._mkdtemp(where, prefix, self.option, self.path)
        return self.staging

    def write(self, name: str, data: str | bytes) -> str:
        if not _plain(name):
            raise _fail(self.option, self.path, f"{_short(name)!r} is not a plain file name")
        folder = self._stage()
        self.outputs._io(lambda: (folder / name).write_bytes(
            data if isinstance(data, bytes) else data.encode("utf-8")), self.option, self.path)
        if name not in self.names:
            self.names.append(name)
        return str(self.path / name)

    def _conflicts(self) -> list[str]:
        if self.whole or self.outputs.force:
            return []
        if not self.existed:
            return [str(self.path)] if os.path.lexists(self.path) else []
        return [str(self.path / n) for n in self.names if os.path.lexists(self.path / n)]

    def _commit(self):
        if not self.whole and not self.names:
            self._discard()  # a folder of outputs is made only when a file goes in it
            return
        folder = self._stage()  # a folder written as a whole: made even when empty
        if self.existed and not self.whole:
            for n in self.names:
                os.replace(folder / n, self.path / n)
            os.rmdir(folder)
        elif os.path.lexists(self.path):  # whole, replacing the old folder
            old = Path(tempfile.mkdtemp(prefix=f".{self.path.name[:60]}{TMP_MARK}old-",
                                        dir=self.path.parent))
            os.replace(self.path, old / "x")
            os.replace(folder, self.path)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(folder, self.path)
        self.staging = None

    def _discard(self):
        if self.staging is not None:
            _remove(self.staging)
            self.staging = None


def _remove(p: Path):
    try:
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink()
    except FileNotFoundError:
        pass


class Outputs:
    """The outputs of one command: declared (and checked) before the work,
    written into temporary places during it, moved into place by ``commit``.
    Used as a context manager: leaving it without a commit (an error, an
    interrupt) removes everything it made."""

    def __init__(self, force: bool = False):
        self.force = force
        self.targets: list[_Target] = []
        self._made: list[Path] = []  # parent folders created, outermost first

    def file(self, path, option: str) -> FileOut:
        self._unique(path, option)
        t = FileOut(self, path, option)
        self.targets.append(t)
        return t

    def folder(self, path, option: str, names=(), patterns=(), whole: bool = False) -> FolderOut:
        """A folder of files.  ``names`` (exact) and ``patterns`` (globs) are
        the files the command may write there, checked now against what the
        folder holds; ``whole``: the folder is replaced as a whole."""
        self._unique(path, option)
        t = FolderOut(self, path, option, tuple(names), tuple(patterns), whole)
        self.targets.append(t)
        return t

    def _unique(self, path, option):
        p = os.path.abspath(str(path)) if str(path) else ""
        for t in self.targets:
            if p and os.path.abspath(str(t.path)) == p:
                raise _fail(option, path, f"is also the path of {t.option}",
                            "give each output its own path")

    # -- the file system, with its errors as input errors ----------------------------
    def _make_parents(self, missing: list[Path]):
        for d in missing:
            if not os.path.isdir(d):
                self._io(lambda d=d: os.mkdir(d), "output", d)
                self._made.append(d)

    def _mkstemp(self, where, prefix, suffix, option, target):
        def make():
            fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=where)
            os.fchmod(fd, FILE_MODE)
            return fd, tmp
        return self._io(make, option, target)

    def _mkdtemp(self, where, prefix, option, target) -> Path:
        def make():
            tmp = tempfile.mkdtemp(prefix=prefix, dir=where)
            os.chmod(tmp, DIR_MODE)
            return tmp
        return Path(self._io(make, option, target))

    @staticmethod
    def _io(fn, option, target):
        try:
            return fn()
        except OSError as e:
            raise _fail(option, target, f"cannot write: {e.strerror or e}") from None

    # -- all or nothing ------------------------------------------------------------
    def commit(self) -> None:
        """Move every output into place.  Refuses (and writes nothing) when a
        file appeared meanwhile where one would be replaced without --force."""
        clash = [c for t in self.targets for c in t._conflicts()]
        if clash:
            self.discard()
            raise OutputError(f"{_short(clash[0])} exists: nothing was written",
                              hint=FORCE_HINT)
        held = _hold_signals()
        try:
            for t in self.targets:
                try:
                    t._commit()
                except OSError as e:
                    raise _fail(t.option, t.path, f"cannot write: {e.strerror or e}") from None
            self._made = []
        finally:
            _release_signals(held)
            self.discard()

    def discard(self) -> None:
        """Remove every temporary file and folder and the parents made for them."""
        for t in self.targets:
            t._discard()
        for d in reversed(self._made):
            try:
                os.rmdir(d)
            except OSError:
                pass
        self._made = []

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, *exc) -> None:
        self.discard()


_HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _hold_signals():
    try:
        return signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except (AttributeError, ValueError, OSError):  # not the main thread, or no such call
        return None


def _release_signals(old):
    if old is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


__all__ = ["Outputs", "FileOut", "FolderOut", "OutputError", "component", "NAME_MAX",
           "checked_folder", "make_folder"]
