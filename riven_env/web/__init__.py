"""Play RIVEN in the browser: ``riven serve`` (docs/play.md).

:mod:`riven_env.web.session` holds the game logic of one person's game against an agent
(no web framework needed); :mod:`riven_env.web.app` is the FastAPI app over it and
:func:`serve` runs it on uvicorn. The page, its script and its styles are package data
(``index.html``, ``play.js``, ``play.css``; the board's styles are the replay's).
Needs the ``web`` extra: ``pip install "riven-lab[web]"``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "create_app", "serve"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def create_app(**kwargs: Any) -> Any:
    """The FastAPI app (see :func:`riven_env.web.app.create_app`)."""
    from riven_env.web.app import create_app as build

    return build(**kwargs)


def serve(
    host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, log_level: str = "warning", **kwargs: Any
) -> None:
    """Serve the app with uvicorn until interrupted (127.0.0.1 by default: this machine only)."""
    from riven_env.extras import require

    uvicorn = require("uvicorn", "web", "riven serve")
    uvicorn.run(create_app(**kwargs), host=host, port=port, log_level=log_level)
