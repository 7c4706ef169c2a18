"""``itcp-check``: the root command.

With no command it checks the ``official`` variant (the same as ``itcp-check
check official``, with the same options).
"""
from __future__ import annotations

import click
from click.core import ParameterSource

from .common import Group
from .ask_cmd import ask_cmd
from .check_cmd import check
from .diff_cmd import diff_cmd
from .disputes_cmd import disputes_cmd
from .conformance_cmd import conformance
from .play_cmd import play_cmd
from .replay_cmd import replay
from .rules_cmd import rules
from .scenarios_cmd import scenarios
from .simulate_cmd import simulate

CHECK = check


def _root_options() -> list[click.Parameter]:
    """The options a bare ``itcp-check`` takes: those of ``check``."""
    return [p for p in CHECK.params if isinstance(p, click.Option)
            and p.name not in ("help", "version")]


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
    kwargs = dict(params)
    for p in CHECK.params:
        if isinstance(p, click.Argument) and p.name == "variant":
            kwargs["variant"] = "official"
    ctx.invoke(CHECK, **kwargs)


main.params.extend(_root_options())
main.add_command(rules)
main.add_command(simulate)
main.add_command(conformance)
main.add_command(replay)
main.add_command(ask_cmd, "ask")
main.add_command(diff_cmd, "diff")
main.add_command(disputes_cmd, "disputes")
main.add_command(scenarios)
main.add_command(play_cmd, "play")
main.add_command(CHECK, "check")


if __name__ == "__main__":
    main()
