"""Entry point of the ``riven`` command.

Each command group lives in its own module with a ``register(app)`` function, so that
the modules stay small and a command's heavy imports happen only when it runs.

Every command reports errors the same way (:class:`RivenGroup`): one line ``error: ...`` on
stderr and exit status 2, whether the command line is wrong (an unknown option, a bad
value) or the input is (a RivenError, through :func:`~riven_env.cli.common.friendly_errors`).
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup, TyperOption

try:  # typer >= 0.20 vendors click as typer._click; older typer uses click itself
    from typer._click import Context
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - depends on the installed typer
    from click import ClickException, Context, UsageError
    from click.exceptions import NoArgsIsHelpError

from riven_env import __version__
from riven_env.cli.common import EXIT_INTERRUPTED

#: Exit status of bad usage and bad input, everywhere.
EXIT_USAGE = 2


def _plain_flags(command: Any, ctx: Any = None) -> None:
    """Show flags as ``--json``, not ``--json <bool>``, in the help of every command.

    Typer's rich help prints a type for every option, booleans included; an empty metavar
    makes it print none. Applied to the whole command tree once, before parsing.
    """
    ctx = Context(command, info_name=command.name, parent=ctx)
    for param in command.get_params(ctx):
        if isinstance(param, TyperOption) and param.is_flag and not param.count:
            param.metavar = ""
    _refuse_flags_as_values(command)
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            _plain_flags(sub, ctx)


def _refuse_flags_as_values(command: Any) -> None:
    """Make ``command`` refuse a flag where an option's value belongs, naming both.

    Without this, click takes ``--blue`` in ``riven playtest --scenario --blue oracle`` as
    the scenario's name and then reports "Missing option '--blue'". Wraps the command's
    ``parse_args`` once (the whole tree is walked by :func:`_plain_flags`).
    """
    if getattr(command, "_riven_flag_check", False):
        return
    original = command.parse_args

    def parse_args(ctx: Any, args: list[str]) -> Any:
        params = command.get_params(ctx)
        names = {n for p in params for n in (*p.opts, *p.secondary_opts) if n.startswith("-")}
        takes = {
            n: max(1, p.nargs)
            for p in params
            if isinstance(p, TyperOption) and not p.is_flag and not p.count
            for n in p.opts
        }
        i = 0
        while i < len(args) and args[i] != "--":
            wanted = takes.get(args[i], 0)
            for value in args[i + 1 : i + 1 + wanted]:
                if value in names:
                    raise UsageError(f"{args[i]} needs a value; got the flag {value}", ctx)
            i += 1 + wanted
        return original(ctx, args)

    command.parse_args = parse_args
    command._riven_flag_check = True


def _one_line(message: str) -> str:
    return " ".join(line.strip() for line in message.strip().splitlines() if line.strip())


def _usage_hint(exc: Any) -> str:
    ctx = exc.ctx
    if ctx is None:
        return ""
    return f" (see '{ctx.command_path} --help')"


class RivenGroup(TyperGroup):
    """The ``riven`` group: plain flags in help, and one error format for every command."""

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        _plain_flags(self)
        try:
            result = super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except NoArgsIsHelpError:
            code = EXIT_USAGE  # the help is already printed
        except UsageError as exc:
            typer.echo(f"error: {_one_line(exc.format_message())}{_usage_hint(exc)}", err=True)
            code = EXIT_USAGE
        except ClickException as exc:  # a FileError and the like: bad input too
            typer.echo(f"error: {_one_line(exc.format_message())}", err=True)
            code = EXIT_USAGE
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            code = EXIT_INTERRUPTED
        else:
            # Non-standalone click returns the code of an explicit Exit, else the result.
            code = result if isinstance(result, int) else 0
            if not standalone_mode:
                return result
        if not standalone_mode:
            raise SystemExit(code)
        sys.exit(code)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"riven {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="riven",
    cls=RivenGroup,
    help="RIVEN Lab: rules engine, agents, playtests and training for the RIVEN wargame.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_show_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """RIVEN Lab: rules engine, agents, playtests and training for the RIVEN wargame."""


# Modules that register commands on the app, in help order.
COMMAND_MODULES = (
    "riven_env.cli.odds",
    "riven_env.cli.scenarios",
    "riven_env.cli.play",
    "riven_env.cli.agents",
    "riven_env.cli.oracle",
    "riven_env.cli.playtest",
    "riven_env.cli.balance",
    "riven_env.cli.train",
    "riven_env.cli.stress",
    "riven_env.cli.bench",
    "riven_env.cli.analytics",
    "riven_env.cli.serve",
    "riven_env.cli.campaign",
)

for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as _exc:
        if _exc.name != _name:
            raise
        continue  # a command group not built yet
    _module.register(app)


def main() -> None:
    """Run the ``riven`` command line."""
    try:
        app(prog_name="riven")
    except SystemExit as exc:
        if exc.code != EXIT_INTERRUPTED:
            raise
        # A command stopped by Ctrl-C has said what is saved and ended its workers. Leave
        # now: a KeyboardInterrupt raised inside an extension's embedded code (an import of
        # scipy, a DuckDB call) marks itself as unhandled even though it was handled, and
        # the interpreter would then kill itself with SIGINT at exit instead of exiting 130.
        # Daemon workers that never got going would be ended by multiprocessing's exit
        # hook, which os._exit skips: end them here.
        for child in multiprocessing.active_children():
            child.terminate()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
