"""Mutation testing of the checker's Python code (cosmic-ray), a sample per module.

    pip install cosmic-ray          # once; not a dependency of itcp, not in CI
    python -m tools.mutation.mutate_code --sample 30 --seed 1 --out mutation-code.json

For each module below, cosmic-ray lists every mutant of it (its operators:
numbers, comparisons, boolean and binary operators, ``break``/``continue``,
exceptions, ...), a seeded random sample of ``--sample`` is kept (the others
are marked skipped in its session database), and each kept mutant is tested
with the module's tests: killed when they fail (or time out), survived when
they pass.  Everything runs in a copy of the committed tree (``git archive
HEAD``) in a temporary folder, imported from there (``PYTHONPATH``), so the
working tree is never written to, even if the run is cut short.

Why these modules and tests: the verdicts are decided by the explicit search
(``checks/explicit/explore.py``, its visited set ``checks/explicit/statestore.py``), the symmetry
reduction and the state keys it relies on (``model/analysis/symmetry.py``,
``model/search/searchkey.py``), the verdict logic (``checks/explicit/verdicts.py``), the partial
evaluation and liveness analysis before it (``model/analysis/specialise.py``,
``model/analysis/liveness.py``) and the batch successor code (``model/search/vectorized.py``);
the stories name rules by ``model/engine/steprules.py``; questions, divergences,
playouts and the spec's mutants have their own modules.  Each is tested here
by the in-process tests that exercise it in seconds (the CLI tests of the same
files run the checker again in a subprocess, minutes per mutant).  The whole of
checks/ and model/ would be some ten thousand mutants at 10 to 20 s each.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("spec", "model", "checks", "scenarios", "report", "cli")
CHECK_TESTS = ("tests/test_check.py -k 'shortest or symmetry_reduction or counts or limits "
               "or permutations or canonical or packing_round'")
#: module -> the tests that exercise it (pytest arguments)
MODULES = {
    "checks/explicit/verdicts.py": CHECK_TESTS,
    "checks/explicit/explore.py": CHECK_TESTS,
    "checks/explicit/statestore.py": CHECK_TESTS,
    "model/analysis/symmetry.py": CHECK_TESTS,
    "model/analysis/specialise.py": "tests/test_specialise.py",
    "model/analysis/liveness.py": "tests/test_positions.py",
    "model/search/searchkey.py": "tests/test_positions.py",
    "model/engine/steprules.py": "tests/test_steprules.py",
    "model/engine/simulate.py": "tests/test_simulate.py",
    "model/search/vectorized.py": "tests/test_vectorized.py",
    "checks/questions/language.py": "tests/test_questions.py",
    "checks/questions/divergence.py": "tests/test_divergence.py",
    "tools/mutation/mutants.py": "tests/test_mutation.py",
}


def _sh(cmd, cwd, env, timeout=None):
    return subprocess.run(cmd, cwd=cwd, env=env, shell=isinstance(cmd, str),
                          capture_output=True, text=True, timeout=timeout)


def _copy(dest: Path) -> None:
    """The committed tree in ``dest``, importable as ``itcp`` from there."""
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=REPO, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    (dest / "itcp").mkdir()
    for p in PACKAGES:
        (dest / "itcp" / p).symlink_to(Path("..") / p)


def _sample(db: Path, keep: int, seed: int) -> tuple[int, int]:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult
    with use_db(str(db), WorkDB.Mode.open) as w:
        ids = sorted(item.job_id for item in w.pending_work_items)
        chosen = set(random.Random(seed).sample(ids, min(keep, len(ids))))
        for job in ids:
            if job not in chosen:
                w.set_result(job, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    return len(ids), len(chosen)


def run_module(work: Path, module: str, tests: str, keep: int, seed: int, timeout: float,
               env: dict) -> dict:
    name = module.replace("/", "_")
    cfg, db = work / f"{name}.toml", work / f"{name}.sqlite"
    test_cmd = f"{sys.executable} -m pytest -x -q -p no:randomly -p no:cacheprovider -n 0 {tests}"
    cfg.write_text(f'[cosmic-ray]\nmodule-path = ["{module}"]\ntimeout = {timeout}\n'
                   f'excluded-modules = []\ntest-command = "{test_cmd.replace(chr(34), chr(39))}"\n'
                   '[cosmic-ray.distributor]\nname = "local"\n')
    cr = [sys.executable, "-m", "cosmic_ray.cli"]
    start = time.monotonic()
    r = _sh(cr + ["init", str(cfg), str(db)], work, env)
    if r.returncode:
        raise SystemExit(f"cosmic-ray init failed for {module}: {r.stderr[-2000:]}")
    total, kept = _sample(db, keep, seed)
    r = _sh(cr + ["baseline", str(cfg)], work, env)
    if r.returncode:
        raise SystemExit(f"the tests of {module} fail unmutated: {r.stdout[-2000:]}"
                         f"{r.stderr[-2000:]}")
    r = _sh(cr + ["exec", str(cfg), str(db)], work, env)
    if r.returncode:
        raise SystemExit(f"cosmic-ray exec failed for {module}: {r.stderr[-2000:]}")
    dump = _sh(cr + ["dump", str(db)], work, env).stdout
    outcomes, survivors = Counter(), []
    for line in dump.splitlines():
        item, result = json.loads(line)
        if not result or result["worker_outcome"] == "skipped":
            continue
        outcome = result.get("test_outcome") or result["worker_outcome"]
        outcomes[outcome] += 1
        if outcome == "survived":
            m = item["mutations"][0]
            survivors.append(f"{m['module_path']}:{m['start_pos'][0]} {m['operator_name']} "
                             f"in {m.get('definition_name') or '?'}")
    tested = outcomes["killed"] + outcomes["survived"]
    return {"module": module, "tests": tests, "mutants": total, "sampled": kept,
            "outcomes": dict(outcomes),
            "score": round(outcomes["killed"] / tested, 3) if tested else None,
            "survivors": sorted(survivors), "seconds": round(time.monotonic() - start, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=30, help="mutants per module")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant's tests")
    ap.add_argument("--module", action="append", choices=sorted(MODULES),
                    help="only these modules (default: all of MODULES)")
    ap.add_argument("--out", default="mutation-code.json")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args(argv)
    if a.sample < 1 or a.timeout <= 0:
        ap.error("--sample must be at least 1 and --timeout positive")
    out = Path(a.out)
    if out.exists() and not a.force:
        print(f"error: {out} exists; --force replaces it", file=sys.stderr)
        return 2
    try:
        import cosmic_ray  # noqa: F401
    except ImportError:
        print("error: cosmic-ray is not installed (pip install cosmic-ray): it is not a "
              "dependency of itcp",
              file=sys.stderr)
        return 2
    results = []
    with tempfile.TemporaryDirectory(prefix="itcp-mutate-code-") as tmp:
        work = Path(tmp)
        _copy(work)
        env = dict(os.environ, PYTHONPATH=str(work), PYTHONDONTWRITEBYTECODE="1")
        for module in a.module or MODULES:
            res = run_module(work, module, MODULES[module], a.sample, a.seed, a.timeout, env)
            results.append(res)
            print(f"{module}: {res['outcomes']} of {res['sampled']} sampled "
                  f"({res['mutants']} in all), score {res['score']}, {res['seconds']} s",
                  file=sys.stderr, flush=True)
    summary = {"command": " ".join(["python", "tools/mutation/mutate_code.py"] + (argv or sys.argv[1:])),
               "modules": results}
    tmp_out = out.with_suffix(out.suffix + ".tmp")
    tmp_out.write_text(json.dumps(summary, indent=1) + "\n")
    tmp_out.replace(out)
    for r in sorted(results, key=lambda r: (r["score"] is None, r["score"])):
        print(f"{r['module']:<22} score {r['score']}  {r['outcomes']}  "
              f"({r['sampled']} of {r['mutants']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
