"""``riven oracle``: the Enemy Oracle's behaviour profiles as printable cards.

``riven oracle print [--profile P]... [--format md|html] [-o FILE] [--profiles FILE]``
renders the cards from the same data file that drives the simulated Oracle. Errors (an
unknown profile, a bad data file) print one line and exit with status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from riven_env.cli.common import check_output, friendly_errors


def _print_cards(
    profiles: list[str] | None, fmt: str, output: Path | None, data_file: Path | None
) -> None:
    from riven_agents.oracle.cards import FORMATS, render
    from riven_agents.oracle.profiles import load_profiles

    if fmt not in FORMATS:
        raise typer.BadParameter(f"{fmt!r}; allowed: {', '.join(FORMATS)}", param_hint="--format")
    text = render(fmt, profiles or None, data=load_profiles(data_file))
    if output is None:
        typer.echo(text, nl=False)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {output}", err=True)


def register(app: typer.Typer) -> None:
    """Add the ``oracle`` command group to the ``riven`` app."""
    group = typer.Typer(
        name="oracle",
        help="The Enemy Oracle: print its behaviour profiles as cards for solo play.",
        no_args_is_help=True,
    )

    @group.command("print")
    @friendly_errors
    def print_command(
        profile: Annotated[
            list[str] | None,
            typer.Option("--profile", "-p", help="Profile to print (repeatable; default: all)."),
        ] = None,
        fmt: Annotated[
            str, typer.Option("--format", "-f", help="Output format: md or html.")
        ] = "md",
        output: Annotated[
            Path | None,
            typer.Option("--output", "-o", help="Write to this file instead of stdout."),
        ] = None,
        profiles_file: Annotated[
            Path | None,
            typer.Option("--profiles", help="Oracle profiles TOML (default: the bundled file)."),
        ] = None,
    ) -> None:
        """Render Oracle profiles as the cards a solo player uses at the table."""
        check_output(output, "--output")
        _print_cards(profile, fmt, output, profiles_file)

    from riven_env.cli.analytics import register_audit

    register_audit(group)  # ``riven oracle audit`` (docs/metrics.md)
    app.add_typer(group)


__all__ = ["register"]
