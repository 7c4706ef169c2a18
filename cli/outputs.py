"""Where the report's files go: checked before the work, written all or nothing.

``--html FILE`` and ``--plot DIR`` name a path the user chose.  Before a
command does its work, ``check_file``/``check_folder`` make sure the file or
folder can be written there: not a directory given as FILE, not a file given
as DIR, not a path below a regular file, a writable place (tried by creating
and removing a temporary file, which also catches read-only file systems and
places even root cannot write), and nothing of the user's overwritten without
``--force``.  Each failure is an ``InputError`` (exit 2) naming the option and
the path.  After the work, ``write_file`` writes a temporary file beside the
target and renames it into place (``os.replace``); ``write_folder`` builds every
file in a temporary folder beside DIR and then moves it into place: a failure
leaves nothing half-written.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from itcp.spec.errors import InputError


def _existing_ancestor(path: Path, option: str) -> Path:
    """The nearest existing folder above ``path``; an error if it is not a folder."""
    for up in path.parents:
        if up.exists() or up.is_symlink():
            if not up.is_dir():
                raise InputError(f"{option}: cannot write {path}: {up} is a file, not a folder",
                                 hint="choose a path inside a folder")
            return up
    return Path(".")  # pragma: no cover - the root exists


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _probe(folder: Path, path: Path, option: str) -> None:
    """Can a file be created in ``folder``?  (Tried, then removed.)"""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".itcp-probe-")
    except OSError as err:
        raise InputError(f"{option}: cannot write {path}: {err.strerror or err} in {folder}",
                         hint="choose a folder you can write to") from None
    os.close(fd)
    os.unlink(tmp)


def check_file(path: str | os.PathLike, option: str, force: bool) -> Path:
    """Check that ``path`` can receive a file (before any work is done)."""
    p = Path(path)
    if str(path).endswith(os.sep) or p.is_dir():
        raise InputError(f"{option}: {path} is a folder; {option} wants a file name",
                         hint=f"e.g. {option} {p / 'report.html'}")
    if p.exists() and not force:
        raise InputError(f"{option}: {path} already exists",
                         hint="add --force to overwrite it, or choose another name")
    if p.exists() and not p.is_file():
        raise InputError(f"{option}: {path} exists and is not a regular file")
    _probe(_existing_ancestor(p, option), p, option)
    return p


def check_folder(path: str | os.PathLike, option: str, force: bool, names=()) -> Path:
    """Check that ``path`` can receive a folder of files named ``names``."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"{option}: {path} is a file; {option} wants a folder",
                         hint="choose a folder name (it is created)")
    if p.is_dir():
        clash = sorted(n for n in names if (p / n).exists())
        if clash and not force:
            raise InputError(f"{option}: {path} already holds {', '.join(clash[:4])}"
                             + (", ..." if len(clash) > 4 else ""),
                             hint="add --force to overwrite those files, or choose another "
                                  "folder")
        _probe(p, p, option)
    else:
        _probe(_existing_ancestor(p, option), p, option)
    return p


def write_file(path: str | os.PathLike, data: str | bytes, option: str = "--html",
               force: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically: a temporary file beside it, renamed
    into place.  The checks of ``check_file`` are made again (the disk may have
    changed while the command worked)."""
    p = check_file(path, option, force)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as err:
        raise InputError(f"{option}: cannot write {path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        # the mode a plain open() would give (mkstemp's is private), or the old file's
        os.chmod(tmp, p.stat().st_mode & 0o7777 if p.exists() else 0o666 & ~_umask())
        os.replace(tmp, p)
    except BaseException as err:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise InputError(f"{option}: cannot write {path}: {err.strerror or err}") from None
        raise
    return p


def write_folder(path: str | os.PathLike, files: dict[str, str | bytes], option: str = "--plot",
                 force: bool = False) -> list[Path]:
    """Write ``files`` (name -> content) into the folder ``path``: every file is
    written into a temporary folder beside it first; then a new folder is renamed
    into place whole, or into an existing folder each file is renamed in (files of
    other names there are left alone; those of the same names need ``force``)."""
    p = check_folder(path, option, force, files)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp"))
    except OSError as err:
        raise InputError(f"{option}: cannot write {path}: {err.strerror or err}") from None
    try:
        os.chmod(tmp, 0o777 & ~_umask())   # mkdtemp's folder is private
        for name, data in files.items():
            (tmp / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        if p.is_dir():
            for name in files:
                os.replace(tmp / name, p / name)
            tmp.rmdir()
        else:
            os.replace(tmp, p)
    except BaseException as err:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(err, OSError):
            raise InputError(f"{option}: cannot write {path}: {err.strerror or err}") from None
        raise
    return [p / n for n in files]


__all__ = ["check_file", "check_folder", "write_file", "write_folder"]
