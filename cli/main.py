"""``itcp-check``: the root command.

With no command it checks the ``official`` variant (the same as ``itcp-check
check official``, with the same options).
"""
from __future__ import annotations

import importlib

import click
from click.core import ParameterSource

from .check_cmd import check
from .common import Group

CHECK = check

#: The other commands, by name: (module in this package, command object),
#: loaded when the command line names one (or --help lists them), so a check
#: does not pay for importing every other command's machinery.
LAZY_COMMANDS = {
    "rules": ("rules_cmd", "rules"),
    "rulebook": ("rulebook_cmd", "rulebook"),
    "simulate": ("simulate_cmd", "simulate"),
    "conformance": ("conformance_cmd", "conformance"),
    "replay": ("replay_cmd", "replay"),
    "ask": ("ask_cmd", "ask_cmd"),
    "diff": ("diff_cmd", "diff_cmd"),
    "disputes": ("disputes_cmd", "disputes_cmd"),
    "scenarios": ("scenarios_cmd", "scenarios"),
    "play": ("play_cmd", "play_cmd"),
    "sweep": ("sweep_cmd", "sweep"),
}


class RootGroup(Group):
    """The root group: ``check`` is loaded with it, every other command when
    it is used (click's lazy subcommand pattern)."""

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx, name):
        if name in LAZY_COMMANDS and name not in self.commands:
            module, attr = LAZY_COMMANDS[name]
            cmd = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
            self.add_command(cmd, name)
        return super().get_command(ctx, name)


def _root_options() -> list[click.Parameter]:
    """The options a bare ``itcp-check`` takes: those of ``check``."""
    return [p for p in CHECK.params if isinstance(p, click.Option)
            and p.name not in ("help", "version")]


@click.group("itcp-check", cls=RootGroup, invoke_without_command=True,
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
    kwargs = dict(params)
    for p in CHECK.params:
        if isinstance(p, click.Argument) and p.name == "variant":
            kwargs["variant"] = "official"
    ctx.invoke(CHECK, **kwargs)


main.params.extend(_root_options())
main.add_command(CHECK, "check")


if __name__ == "__main__":
    main()
