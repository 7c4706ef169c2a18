"""``itcp-check``: the root command.

With no command it checks the ``official`` variant (the same as ``itcp-check
check official``, with the same options).  The ``check`` command lives in
``itcp.cli.check_cmd``; until that module exists a bare ``itcp-check`` prints a
summary of the spec and says the checker is not available (exit 3: no verdict).
"""
from __future__ import annotations

import importlib

import click
from click.core import ParameterSource

from .common import (EXIT_UNKNOWN, Group, config_option_objects, emit_json, load,
                     pop_config_flags)
from .rules_cmd import rules, rule_records, summary
from .simulate_cmd import simulate

try:
    _check_mod = importlib.import_module(f"{__package__}.check_cmd")
    CHECK: click.Command | None = getattr(_check_mod, "check", None)
    CHECK_UNAVAILABLE = None if CHECK is not None else "itcp.cli.check_cmd defines no `check`"
except ImportError as e:  # not written yet, or something it needs is missing
    CHECK = None
    CHECK_UNAVAILABLE = ("not written yet" if e.name == f"{__package__}.check_cmd"
                         else f"it cannot be imported: {e}")


def _root_options() -> list[click.Parameter]:
    """The options a bare ``itcp-check`` takes: those of ``check`` (when it exists)."""
    if CHECK is not None:
        return [p for p in CHECK.params if isinstance(p, click.Option)
                and p.name not in ("help", "version")]
    return config_option_objects() + [
        click.Option(["--json", "as_json"], is_flag=True, help="Machine-readable output.")]


@click.group("itcp-check", cls=Group, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]},
             help="A formally checked rulebook for the card game 'It Came to Pass'.\n\n"
                  "With no command: check the official variant (the same as "
                  "'itcp-check check official'; the options below are check's).")
@click.version_option(package_name="itcp", prog_name="itcp-check")
@click.pass_context
def main(ctx: click.Context, **params):
    if ctx.invoked_subcommand is not None:
        given = [p.opts[0] for p in ctx.command.params
                 if p.name in params and ctx.get_parameter_source(p.name)
                 not in (ParameterSource.DEFAULT, None)]
        if given:
            raise click.UsageError(
                f"{', '.join(given)}: options before the command apply only to a bare "
                f"itcp-check; "
                f"put them after '{ctx.invoked_subcommand}'")
        return
    if CHECK is not None:
        kwargs = dict(params)
        for p in CHECK.params:
            if isinstance(p, click.Argument) and p.name == "variant":
                kwargs["variant"] = "official"
        ctx.invoke(CHECK, **kwargs)
        return
    _no_checker(ctx, params)


def _no_checker(ctx: click.Context, params: dict) -> None:
    flags = pop_config_flags(params)
    variant = load("official", flags)
    why = f"the checker (itcp-check check) is not available: {CHECK_UNAVAILABLE}"
    if params.get("as_json"):
        emit_json({"variant": variant.name, "config": variant.config.as_dict(),
                   "rules": len(rule_records(variant)),
                   "checker": {"available": False, "reason": CHECK_UNAVAILABLE},
                   "verdicts": None})
    else:
        click.echo(summary(variant))
        click.echo("")
        click.echo(why + ".")
        click.echo("Try: itcp-check rules | itcp-check simulate -n 1000 | itcp-check --help")
    ctx.exit(EXIT_UNKNOWN)


main.params.extend(_root_options())
main.add_command(rules)
main.add_command(simulate)
if CHECK is not None:
    main.add_command(CHECK, "check")


if __name__ == "__main__":
    main()
