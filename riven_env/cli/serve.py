"""``riven serve``: play a mission against an agent in the browser (docs/play.md).

Also :func:`play_in_browser`, what ``riven play --blue human`` (or ``--red human``) runs: the
same server with that game already started, its page's address printed.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import typer

from riven_env.cli.common import fail, friendly_errors

#: The address ``riven serve`` binds unless told otherwise: this machine only.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: What ``--blue`` / ``--red`` of ``riven play`` name a side played by a person.
HUMAN = "human"


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def _default_db() -> Path:
    from riven_env.playtest.config import DEFAULT_DB

    return DEFAULT_DB


@friendly_errors
def serve(
    port: int = typer.Option(
        DEFAULT_PORT, "--port", help="TCP port to listen on (0: any free port)."
    ),
    host: str = typer.Option(
        DEFAULT_HOST,
        "--host",
        help="Address to bind. The default serves this machine only; the app has no login, "
        "so bind another address only on a network you trust.",
    ),
    max_games: int = typer.Option(
        64, "--max-games", help="Games kept at once (the least recently used is dropped)."
    ),
    db: Path | None = typer.Option(
        None,
        "--db",
        help="Results database the page's 'Store in playtest database' writes finished games "
        "to (default: runs/playtests.duckdb, as riven playtest).",
    ),
) -> None:
    """Serve the play page: a person plays a mission against an agent in the browser."""
    if not 0 <= port <= 65535:
        raise fail(f"--port {port}: expected 0..65535")
    if max_games < 1:
        raise fail(f"--max-games {max_games}: expected at least 1")
    from riven_env.web.app import create_app

    app = create_app(max_sessions=max_games, results_db=db or _default_db())
    _run(app, host, port)


def _run(app: Any, host: str, port: int, page: str = "") -> None:
    """Serve ``app`` with uvicorn; print the page's URL (``page``: its path and query) once
    the socket is bound (the real port when ``port`` 0 asked for any)."""
    from riven_env.extras import require

    uvicorn = require("uvicorn", "web", "riven serve")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    startup = server.startup

    async def announce(sockets=None):
        await startup(sockets=sockets)
        bound = port
        for listener in getattr(server, "servers", []):
            for sock in listener.sockets:
                bound = sock.getsockname()[1]
                break
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"RIVEN Lab play page: http://{shown}:{bound}/{page}  (Ctrl+C stops the server)")

    server.startup = announce
    server.run()


def _free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def play_in_browser(
    scenario: str,
    blue: str,
    red: str,
    seed: int,
    engine: str | None = None,
    **unsupported: Any,
) -> None:
    """``riven play`` with a side (or both) played by a person: serve the game's page.

    Starts the play server on 127.0.0.1 (port 8765, or any free one when it is taken) with
    the game already begun, prints its page's URL and serves until Ctrl+C. Both sides
    ``human`` is hot-seat. The page exports the log and the replay; ``unsupported`` names the
    ``riven play`` options given that a browser game does not take (each refused in one line).
    """
    given = [f"--{name.rstrip('_').replace('_', '-')}" for name, v in unsupported.items() if v]
    if given:
        raise fail(
            f"{', '.join(given)}: not taken with a human side; allowed: --scenario, --blue, "
            "--red, --seed, --engine (the page exports the log and the replay)"
        )
    from riven_env.scenario import list_bundled
    from riven_env.scenario.loader import read_scenario_text
    from riven_env.web.app import create_app
    from riven_env.web.session import GameSession, spec_from_json

    people = [
        side for side, spec in (("blue", blue), ("red", red)) if spec.strip().lower() == HUMAN
    ]
    body: dict[str, Any] = {"seed": seed, "engine": engine or "auto", "human": people[0]}
    body["opponent"] = HUMAN if len(people) == 2 else (red if people[0] == "blue" else blue)
    if scenario in {info.name for info in list_bundled()}:
        body["scenario"] = scenario
    else:
        body["scenario_text"] = read_scenario_text(scenario)
    session = GameSession(spec_from_json(body))
    app = create_app(results_db=_default_db())
    app.state.sessions.add(session)
    port = DEFAULT_PORT if _free(DEFAULT_HOST, DEFAULT_PORT) else 0
    _run(app, DEFAULT_HOST, port, page=f"?game={session.id}")
