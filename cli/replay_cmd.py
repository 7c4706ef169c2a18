"""``itcp-check replay FILE...``: replay scenario files and check what they expect.

Exit codes: 0 every scenario passes, 1 a scenario's expectation does not come
out, 2 a bad file (the message names file:line and the step).  Every file is
replayed even after a failure; the worst outcome decides the exit code.
"""
from __future__ import annotations

import sys

import click

from itcp.scenarios.format import load_scenario
from itcp.scenarios.replay import narrate
from itcp.scenarios.replay import replay as replay_scenario
from itcp.spec.errors import InputError

from .common import EXIT_OK, EXIT_USAGE, EXIT_VIOLATED, Command, emit_json, report_input_error


@click.command("replay", cls=Command, help=(
    "Replay scenario files (scenarios/library/*.toml) and check their expected outcome.\n\n"
    "Exit codes: 0 all pass, 1 an expectation fails, 2 a bad file (file:line and step)."))
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--story", is_flag=True, help="Tell each scenario as a story of the game.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def replay_command(files, story, as_json):
    code = EXIT_OK
    out = []
    for path in files:
        try:
            sc = load_scenario(path)
            res = replay_scenario(sc)
            told = narrate(sc) if story else None
        except InputError as e:
            code = max(code, EXIT_USAGE)
            if as_json:
                out.append({"file": path, "ok": False, "error": e.render(),
                            "step": getattr(e, "step", None)})
            else:
                report_input_error(e)
            continue
        if not res.ok:
            code = max(code, EXIT_VIOLATED)
        if as_json:
            item = res.as_json()
            if told is not None:
                item["story"] = told
            out.append(item)
        else:
            if told is not None:
                click.echo("\n".join(told))
                click.echo("")
            else:
                click.echo(("PASS " if res.ok else "FAIL ") + res.message)
    if as_json:
        emit_json({"scenarios": out, "passed": sum(1 for x in out if x.get("ok")),
                   "total": len(out)})
    elif len(files) > 1 and code == EXIT_OK:
        click.echo(f"all {len(files)} scenarios pass")
    sys.exit(code)


replay = replay_command

__all__ = ["replay"]
