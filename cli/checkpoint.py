"""A search's checkpoint: a folder it writes as it goes, and goes on from.

``check --checkpoint DIR`` writes the explicit search's state at the top of a
level (``checks.explicit.explore.Resume``: the ``Level`` and the arrays up to
it, which the check hands over) every
``--checkpoint-every`` seconds and when a stop (Ctrl-C, a signal, a limit) ends
the search; ``check --resume DIR`` goes on from the last one written, to the
same states, verdicts and traces as a search that never stopped, in one
process or in parts (``--workers``), whichever wrote it.

The folder, and why it is safe to kill a run at any moment:

* ``keys.bin``, ``parent.bin``, ``edge_src.bin``, ``edge_dst.bin``,
  ``deadlocks.bin``, ``deals.bin``: the search's arrays, only ever appended to
  (a search's arrays only grow from level to level), so a checkpoint writes
  only what is new since the last;
* ``waiting-N.npz``: the rows waiting for the next level (rewritten each time,
  under a new number);
* ``checkpoint.json``: everything else (the level's counts, first violations,
  rule coverage), the arrays' lengths, and what the search was (variant,
  readings, table, symmetry, the code's version).  It is written last, to a
  temporary file renamed over the old one after the data reached the disk:
  until that rename the previous checkpoint stands, whole.  On resume each
  array is read up to the length the manifest gives (a killed write leaves at
  most a tail that is ignored).

Nothing of the user's is replaced: a folder that holds anything but a
checkpoint is refused, and so is a checkpoint the command was not asked to go
on from (``--force`` starts it afresh).  Checkers never write files: this
module writes what the check (``checks/run.py``) hands it.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from itcp.checks.explicit.explore import Level, Resume
from itcp.spec.errors import InputError

from .codehash import code_version
from .output import TMP_MARK, checked_folder, make_folder

MANIFEST = "checkpoint.json"
FORMAT = "itcp-checkpoint-1"
#: the arrays: file name -> (Resume field, dtype)
ARRAYS = {"keys.bin": ("keys", np.int64), "parent.bin": ("parent", np.int32),
          "edge_src.bin": ("edge_src", np.int32), "edge_dst.bin": ("edge_dst", np.int32),
          "deadlocks.bin": ("deadlocks", np.int64), "deals.bin": ("deals", np.int32)}


def search_identity(v, symmetry: bool) -> dict:
    """What a checkpoint belongs to: a search of this variant's readings at this
    table, with this symmetry, by this code."""
    return json.loads(json.dumps({"variant": v.name,
                                  "readings": dict(sorted(v.readings.items())),
                                  "config": v.config.as_dict(), "symmetry": symmetry,
                                  "code": code_version()}))


def _fail(option: str, path, message: str, hint: str) -> InputError:
    return InputError(f"{option} {path}: {message}", hint=hint)


# -- reading ------------------------------------------------------------------------

def _violations_in(data) -> dict:
    out = {}
    for pid, w in data.items():
        out[pid] = ("state", int(w[1])) if w[0] == "state" else \
            ("step", int(w[1]), (w[2][0], tuple(w[2][1])))
    return out


def read_checkpoint(folder, identity: dict, option: str = "--resume") -> Resume:
    """The search a checkpoint folder holds, checked against ``identity`` (exit 2
    naming the file and what differs when it is not this search's)."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not folder.is_dir():
        raise _fail(option, folder, "is not a folder", "give the folder --checkpoint wrote")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _fail(option, folder, f"holds no {MANIFEST}: not a checkpoint",
                    "give the folder --checkpoint wrote") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _fail(option, path, f"cannot be read as a checkpoint ({e})",
                    "the checkpoint is damaged: start the search afresh") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _fail(option, path, "is not a checkpoint of this version of itcp-check",
                    "start the search afresh")
    was = manifest.get("search", {})
    differ = [k for k in identity if was.get(k) != identity[k]]
    if differ:
        what = ", ".join(f"{k} {was.get(k)!r} (now {identity[k]!r})" if k != "code" else
                         "the code (another version of itcp-check or of the rules)"
                         for k in differ)
        raise _fail(option, path, f"is the checkpoint of another search: {what}",
                    "run the same variant, table and flags as the run that wrote it, or "
                    "start afresh without --resume")
    try:
        lv = manifest["level"]
        lengths = manifest["lengths"]
        arrays = {}
        for name, (field, dtype) in ARRAYS.items():
            n = int(lengths[field])
            width = int(manifest["width"]) if field == "keys" else 1
            raw = np.fromfile(folder / name, dtype=dtype, count=n * width)
            if len(raw) < n * width:
                raise ValueError(f"{name} holds fewer values than the manifest says")
            arrays[field] = raw.reshape(n, width) if field == "keys" else raw
        with np.load(folder / manifest["waiting"]) as z:
            parts = int(z["parts"])
            waiting = [([z[f"w{i}_{j}"] for j in range(int(manifest["width"]))],
                        z[f"src{i}"], z[f"pp{i}"]) for i in range(parts)]
        level = Level(int(lv["depth"]), int(lv["states"]), int(lv["edges"]),
                      int(lv["deadlocks"]), int(lv["deals"]), _violations_in(lv["violations"]),
                      waiting, int(lv["transitions"]), int(lv["terminal"]), int(lv["initial"]),
                      tuple(lv["hands"]), int(lv["unreduced"]), int(lv["waiting_peak"]),
                      set(lv["fired"]), {a: set(r) for a, r in lv["unseen"].items()},
                      dict(lv["quiet"]), set(lv["taken"]))
        starts = np.array(manifest["depth_starts"], dtype=np.int64)
    except (KeyError, TypeError, ValueError, OSError) as e:
        raise _fail(option, folder, f"the checkpoint is incomplete or damaged ({e})",
                    "start the search afresh") from None
    return Resume(level, arrays["keys"], arrays["parent"], starts, arrays["edge_src"],
                  arrays["edge_dst"], arrays["deadlocks"], arrays["deals"])


# -- writing ------------------------------------------------------------------------

class Checkpoints:
    """The checkpoints of one search, written into ``folder`` (checked when made:
    before the search starts)."""

    def __init__(self, folder, identity: dict, every: float, force: bool = False,
                 resuming: bool = False, option: str = "--checkpoint"):
        self.folder = checked_folder(folder, option)
        self.identity, self.every = identity, every
        self.written: dict[str, int] = {}
        self.last: float | None = None   # monotonic time of the last write
        self.count = 0
        if self.folder.is_dir():
            names = [n for n in os.listdir(self.folder) if not n.startswith(TMP_MARK)]
            ours = set(ARRAYS) | {MANIFEST}
            foreign = [n for n in names if n not in ours and not n.startswith("waiting-")]
            if foreign:
                raise _fail(option, self.folder, f"holds files that are not a checkpoint "
                            f"({', '.join(sorted(foreign)[:3])})",
                            "give a new or empty folder for the checkpoint")
            if MANIFEST in names and not resuming and not force:
                raise _fail(option, self.folder, "holds the checkpoint of an earlier search",
                            "go on from it with --resume, or add --force to start afresh "
                            "(it is replaced)")
            if MANIFEST in names and resuming:
                manifest = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
                self.written = {k: int(v) for k, v in manifest["lengths"].items()}
                self.count = int(manifest.get("count", 0))
            elif force:
                for n in names:
                    (self.folder / n).unlink()

    def due(self, now: float) -> bool:
        return self.last is None or now - self.last >= self.every

    def write(self, r: Resume, now: float) -> None:
        """A checkpoint of the search at ``r``'s level: what is new in the arrays,
        the waiting rows, then the manifest (the only rename that makes it the
        checkpoint)."""
        make_folder(self.folder)
        level = r.level
        lengths = {}
        for name, (field, dtype) in ARRAYS.items():
            a = np.ascontiguousarray(getattr(r, field), dtype=dtype)
            have = self.written.get(field, 0)
            n = len(a)
            path = self.folder / name
            with open(path, "r+b" if path.exists() else "wb") as f:
                width = a.shape[1] if a.ndim == 2 else 1
                f.truncate(have * width * a.itemsize)
                f.seek(have * width * a.itemsize)
                f.write(a[have:n].tobytes())
                f.flush()
                os.fsync(f.fileno())
            lengths[field] = n
        self.count += 1
        waiting = f"waiting-{self.count}.npz"
        rows: dict = {"parts": np.array(len(level.waiting))}
        for i, (words, src, pp) in enumerate(level.waiting):
            for j, w in enumerate(words):
                rows[f"w{i}_{j}"] = np.asarray(w)
            rows[f"src{i}"], rows[f"pp{i}"] = np.asarray(src), np.asarray(pp)
        tmp = self.folder / (TMP_MARK + waiting)
        with open(tmp, "wb") as f:
            np.savez(f, **rows)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.folder / waiting)
        manifest = {"format": FORMAT, "search": self.identity, "count": self.count,
                    "width": int(r.keys.shape[1]) if r.keys.ndim == 2 else 1,
                    "lengths": lengths, "depth_starts": [int(x) for x in r.depth_starts],
                    "waiting": waiting, "level": _level_json(level)}
        tmp = self.folder / (TMP_MARK + MANIFEST)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(manifest, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.folder / MANIFEST)
        for old in os.listdir(self.folder):
            if old.startswith("waiting-") and old != waiting:
                (self.folder / old).unlink()
        self.written = lengths
        self.last = now


def _level_json(lv: Level) -> dict:
    return {"depth": lv.depth, "states": lv.states, "edges": lv.edges,
            "deadlocks": lv.deadlocks, "deals": lv.deals,
            "violations": {p: list(w[:2]) + ([[w[2][0], list(w[2][1])]] if len(w) > 2 else [])
                           for p, w in lv.violations.items()},
            "transitions": lv.transitions, "terminal": lv.terminal, "initial": lv.initial,
            "hands": list(lv.hands), "unreduced": lv.unreduced,
            "waiting_peak": lv.waiting_peak, "fired": sorted(lv.fired),
            "unseen": {a: sorted(r) for a, r in lv.unseen.items()}, "quiet": lv.quiet,
            "taken": sorted(lv.taken)}


__all__ = ["Checkpoints", "read_checkpoint", "search_identity", "MANIFEST"]
