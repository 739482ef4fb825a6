"""Entry point of the ``riven`` command.

Each command group lives in its own module with a ``register(app)`` function, so that
the modules stay small and a command's heavy imports happen only when it runs.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import sys

import typer

from riven_env.cli.common import EXIT_INTERRUPTED

app = typer.Typer(
    name="riven",
    help="RIVEN Lab: rules engine, agents, playtests and training for the RIVEN wargame.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# Modules that register commands on the app, in help order.
COMMAND_MODULES = (
    "riven_env.cli.odds",
    "riven_env.cli.scenarios",
    "riven_env.cli.play",
    "riven_env.cli.oracle",
    "riven_env.cli.playtest",
    "riven_env.cli.train",
    "riven_env.cli.stress",
    "riven_env.cli.bench",
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
        app()
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
