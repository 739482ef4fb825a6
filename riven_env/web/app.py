"""The web app of ``riven serve``: a FastAPI application over :class:`GameSession` objects.

``create_app()`` builds it; uvicorn serves it (:func:`riven_env.web.serve`). Every game is a
session with its own id and lock; the app keeps at most ``max_sessions`` of them (the least
recently used one is dropped to make room). The JSON API:

=======  ==================================  ==============================================
method   path                                what
=======  ==================================  ==============================================
GET      ``/``                               the page
GET      ``/api/options``                    bundled missions, agent specs, engines, limits
POST     ``/api/games``                      new game: ``{scenario | scenario_text, human,
                                             opponent, engine, seed}`` -> board and state
POST     ``/api/games/resume``               a saved game (``GET .../save``) -> a new session
GET      ``/api/games/{id}?since=N``         the state, with the log's sentences from event N
POST     ``/api/games/{id}/decide``          ``{"index": i, "at": n}``: the person decides
POST     ``/api/games/{id}/step``            the opponent makes one decision (explained)
POST     ``/api/games/{id}/undo``            take back the person's last decision
GET      ``/api/games/{id}/previews``        where each legal decision goes on the board
GET      ``/api/games/{id}/suggestions``     the suggesting agent's top three (``suggest``)
POST     ``/api/games/{id}/record``          store the finished game in the results database
GET      ``/api/games/{id}/save``            the seed and the decisions so far (JSON)
GET      ``/api/games/{id}/log.jsonl``       the event log, as ``riven play --log`` writes it
GET      ``/api/games/{id}/replay.html``     the HTML replay, as ``riven play --replay``
DELETE   ``/api/games/{id}``                 end the session
=======  ==================================  ==============================================

Every refusal is a 4xx JSON ``{"error": "one line"}`` naming what was allowed; a request body
larger than the CLI's file limit (``files.max_bytes``) or than ``max_body`` is refused with 413
before it is parsed; a malformed JSON body is a 400.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from typing import Any

from riven_env.extras import require

require("fastapi", "web", "riven serve")

from fastapi import FastAPI, Request  # noqa: E402
from fastapi.exceptions import RequestValidationError  # noqa: E402
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response  # noqa: E402
from starlette.concurrency import run_in_threadpool  # noqa: E402
from starlette.exceptions import HTTPException as StarletteHTTPException  # noqa: E402

from riven_env.web.session import GameSession, WebError, spec_from_json  # noqa: E402
from riven_env.web.view import board_json, state_json  # noqa: E402

__all__ = ["DEFAULT_MAX_SESSIONS", "Sessions", "create_app"]

DEFAULT_MAX_SESSIONS = 64
"""Games one server keeps at once by default (each holds a game state and its log)."""

_ID = re.compile(r"^[0-9a-f]{32}$")
_ASSETS = {"play.js": "text/javascript", "play.css": "text/css"}


def _asset(name: str) -> str:
    return resources.files("riven_env.web").joinpath(name).read_text(encoding="utf-8")


def _replay_css() -> str:
    return resources.files("riven_env.replay").joinpath("assets", "replay.css").read_text("utf-8")


class Sessions:
    """The games of one server: id -> session, least recently used first."""

    def __init__(self, max_sessions: int = DEFAULT_MAX_SESSIONS):
        self.max_sessions = max(1, int(max_sessions))
        self._lock = threading.Lock()
        self._games: OrderedDict[str, GameSession] = OrderedDict()

    def add(self, session: GameSession) -> GameSession:
        with self._lock:
            while len(self._games) >= self.max_sessions:
                self._games.popitem(last=False)
            self._games[session.id] = session
        return session

    def get(self, game_id: str) -> GameSession:
        with self._lock:
            session = self._games.get(game_id) if _ID.match(game_id) else None
            if session is None:
                raise WebError(
                    404,
                    f"no game {game_id!r} here (it ended or the server restarted); allowed: start a new game",
                )
            self._games.move_to_end(game_id)
            return session

    def drop(self, game_id: str) -> None:
        with self._lock:
            if self._games.pop(game_id, None) is None:
                raise WebError(404, f"no game {game_id!r} here")

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def _download(session: GameSession, suffix: str) -> dict[str, str]:
    """The header that saves a game's file as ``riven-<first 8 of its id><suffix>``."""
    return {"Content-Disposition": f'attachment; filename="riven-{session.id[:8]}{suffix}"'}


def create_app(
    *,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    max_body: int | None = None,
    results_db: str | Path | None = None,
) -> FastAPI:
    """Build the app.

    Args:
        max_sessions: Games kept at once (the least recently used is dropped beyond that).
        max_body: Largest request body in bytes (default and ceiling: ``files.max_bytes``,
            the largest mission file the CLI reads).
        results_db: The playtest results database finished games are stored in
            (``POST .../record``); None: this server stores none. The path is the server's
            own: no request names a file.
    """
    from riven_env.files import limit

    ceiling = int(limit("files.max_bytes"))
    body_limit = ceiling if max_body is None else min(int(max_body), ceiling)
    app = FastAPI(title="RIVEN Lab", docs_url=None, redoc_url=None, openapi_url=None)
    sessions = Sessions(max_sessions)
    app.state.sessions = sessions
    app.state.results_db = None if results_db is None else Path(results_db)
    db_lock = threading.Lock()  # one writer at a time into the results database

    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404:
            detail = f"no such page {request.url.path!r}; allowed: /, /api/options, /api/games"
        elif exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        return JSONResponse({"error": _one_line(detail)}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "query")
        return JSONResponse(
            {"error": _one_line(f"{where}: {first.get('msg', 'invalid')}")}, status_code=400
        )

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        # A bug, not a bad request: one line for the page, the traceback in the server's log.
        return JSONResponse(
            {"error": _one_line(f"internal error: {type(exc).__name__}: {exc}")[:300]},
            status_code=500,
        )

    async def body_json(request: Request, *, optional: bool = False) -> Any:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > body_limit:
            raise WebError(
                413, f"request body of {declared} bytes is too large (at most {body_limit} bytes)"
            )
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > body_limit:
                raise WebError(413, f"request body is too large (at most {body_limit} bytes)")
        if not data.strip():
            if optional:
                return {}
            raise WebError(400, "expected a JSON object as the request body")
        try:
            value = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WebError(400, f"the request body is not JSON: {_one_line(exc)}") from None
        if not isinstance(value, dict):
            raise WebError(400, f"expected a JSON object, got {type(value).__name__}")
        return value

    def since_of(request: Request) -> int:
        raw = request.query_params.get("since", "0")
        if not raw.isdigit():
            raise WebError(400, f"since={raw!r}: expected an event index (0 or more)")
        return int(raw)

    # ------------------------------------------------------------------ page
    @app.get("/", response_class=HTMLResponse)
    async def page() -> HTMLResponse:
        return HTMLResponse(_asset("index.html"))

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        if name == "replay.css":
            return Response(_replay_css(), media_type="text/css")
        if name not in _ASSETS:
            raise WebError(
                404, f"no asset {name!r}; allowed: {', '.join([*_ASSETS, 'replay.css'])}"
            )
        return Response(_asset(name), media_type=_ASSETS[name])

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        from riven_agents.registry import AGENT_DESCRIPTIONS

        from riven_env.scenario import list_bundled

        missions = [{"name": i.name, "title": i.title, "mode": i.mode} for i in list_bundled()]
        agents = [
            {"spec": spec, "about": about}
            for kind, (spec, about) in AGENT_DESCRIPTIONS.items()
            if not kind.startswith("ppo")
        ]
        return {
            "missions": missions,
            "agents": agents,
            "engines": ["auto", "python", "native"],
            "sides": ["blue", "red"],
            "max_body": body_limit,
            "results_db": None if app.state.results_db is None else str(app.state.results_db),
        }

    # ------------------------------------------------------------------ games
    def opened(session: GameSession) -> dict[str, Any]:
        return {"id": session.id, "board": board_json(session), "state": state_json(session)}

    @app.post("/api/games")
    async def new_game(request: Request) -> dict[str, Any]:
        spec = spec_from_json(await body_json(request))
        session = await run_in_threadpool(GameSession, spec)
        sessions.add(session)
        return await run_in_threadpool(opened, session)

    @app.post("/api/games/resume")
    async def resume(request: Request) -> dict[str, Any]:
        saved = await body_json(request)
        session = await run_in_threadpool(GameSession.resume, saved)
        sessions.add(session)
        return await run_in_threadpool(opened, session)

    @app.get("/api/games/{game_id}")
    async def read(game_id: str, request: Request) -> dict[str, Any]:
        session = sessions.get(game_id)
        return await run_in_threadpool(state_json, session, since_of(request))

    @app.get("/api/games/{game_id}/board")
    async def board(game_id: str) -> dict[str, Any]:
        return board_json(sessions.get(game_id))

    @app.post("/api/games/{game_id}/decide")
    async def decide(game_id: str, request: Request) -> dict[str, Any]:
        session = sessions.get(game_id)
        body = await body_json(request)
        unknown = sorted(set(body) - {"index", "at"})
        if unknown:
            raise WebError(400, f"unknown field {unknown[0]!r}; allowed: index, at")
        if "index" not in body:
            raise WebError(400, 'expected {"index": N}: the index of a legal decision')
        at = body.get("at")
        if at is not None and (isinstance(at, bool) or not isinstance(at, int)):
            raise WebError(400, f"at={at!r}: expected the number of decisions the page saw")

        def run() -> dict[str, Any]:
            with session.lock:
                since = len(session.events)
                session.apply(body["index"], at)
                return {"state": state_json(session, since)}

        return await run_in_threadpool(run)

    @app.post("/api/games/{game_id}/step")
    async def step(game_id: str, request: Request) -> dict[str, Any]:
        session = sessions.get(game_id)
        body = await body_json(request, optional=True)
        until = body.get("until", "one")
        if until not in ("one", "your_turn"):
            raise WebError(400, f"until={until!r}; allowed: one, your_turn")

        def run() -> dict[str, Any]:
            with session.lock:
                since = len(session.events)
                if until == "one":
                    steps = [session.step()]
                else:
                    steps = session.play_opponent()
                    if not steps:
                        session.step()  # raises the reason nothing was played
                return {
                    "steps": [{"decision": words, "explanation": why} for _, why, words in steps],
                    "state": state_json(session, since),
                }

        return await run_in_threadpool(run)

    @app.post("/api/games/{game_id}/undo")
    async def undo(game_id: str, request: Request) -> dict[str, Any]:
        session = sessions.get(game_id)

        def run() -> dict[str, Any]:
            with session.lock:
                words = session.undo()
                return {"undone": words, "state": state_json(session, len(session.events))}

        return await run_in_threadpool(run)

    @app.get("/api/games/{game_id}/previews")
    async def previews(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)

        def run() -> dict[str, Any]:
            with session.lock:
                return {"at": len(session.decisions), "previews": session.previews()}

        return await run_in_threadpool(run)

    @app.get("/api/games/{game_id}/suggestions")
    async def suggestions(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)
        return await run_in_threadpool(session.suggestions)

    @app.post("/api/games/{game_id}/record")
    async def record(game_id: str) -> dict[str, Any]:
        session = sessions.get(game_id)
        if app.state.results_db is None:
            raise WebError(
                409,
                "this server stores no results; allowed: start it with --db FILE "
                "(riven serve --db runs/playtests.duckdb)",
            )

        def run() -> dict[str, Any]:
            with db_lock:
                return session.record_result(app.state.results_db)

        return await run_in_threadpool(run)

    @app.get("/api/games/{game_id}/save")
    async def save(game_id: str) -> JSONResponse:
        session = sessions.get(game_id)
        return JSONResponse(session.save(), headers=_download(session, "-save.json"))

    @app.get("/api/games/{game_id}/log.jsonl")
    async def log(game_id: str) -> PlainTextResponse:
        session = sessions.get(game_id)
        text = await run_in_threadpool(session.log_text)
        return PlainTextResponse(
            text, media_type="application/x-ndjson", headers=_download(session, ".jsonl")
        )

    @app.get("/api/games/{game_id}/replay.html")
    async def replay(game_id: str) -> HTMLResponse:
        session = sessions.get(game_id)
        page = await run_in_threadpool(session.replay_html)
        return HTMLResponse(page, headers=_download(session, ".html"))

    @app.delete("/api/games/{game_id}")
    async def end(game_id: str) -> dict[str, Any]:
        sessions.drop(game_id)
        return {"ended": game_id}

    return app
