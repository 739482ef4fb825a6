"""``riven agents``: the agent specs the commands that play games accept (docs/agents.md)."""

from __future__ import annotations

import typer

from riven_env.cli.common import echo_json, friendly_errors


def register(app: typer.Typer) -> None:
    app.command("agents")(agents)


@friendly_errors
def agents(
    as_json: bool = typer.Option(False, "--json", help="Print the list as one JSON object."),
) -> None:
    """List the agents (spec, what it is); strength and cost per decision: docs/agents.md."""
    from riven_agents.oracle import profile_names
    from riven_agents.registry import AGENT_DESCRIPTIONS

    rows = [
        {"kind": kind, "spec": spec, "description": text}
        for kind, (spec, text) in AGENT_DESCRIPTIONS.items()
    ]
    if as_json:
        echo_json({"agents": rows, "oracle_profiles": list(profile_names())})
        return
    width = max(len(row["spec"]) for row in rows)
    for row in rows:
        typer.echo(f"{row['spec']:<{width}}  {row['description']}")
    typer.echo(f"Oracle profiles: {', '.join(profile_names())}")
