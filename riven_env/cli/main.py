"""Entry point of the ``riven`` command.

Each command group lives in its own module with a ``register(app)`` function, so that
the modules stay small and a command's heavy imports happen only when it runs.
"""

from __future__ import annotations

import importlib

import typer

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
    "riven_env.cli.analytics",
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
    app()


if __name__ == "__main__":
    main()
