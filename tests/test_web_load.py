"""Many games at once in one play server (riven serve): none loses or mixes its state.

50 games are played concurrently to the end over HTTP (httpx, one thread per game) against
one uvicorn server on 127.0.0.1 (a free port), each person's choices random legal clicks
from a stream seeded by the game. Each finished session's log must equal a replay of its own
saved decisions (a fresh session resumed from the save), and name its own seed and sides.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from web_harness import live_app  # noqa: E402

from riven_env.web.session import GameSession  # noqa: E402

GAMES = 50


def play_one(url: str, k: int) -> dict:
    """Game ``k``: duel-1v1 seed 100+k, either side, either engine; random legal clicks."""
    rng = random.Random(k)
    spec = {
        "scenario": "duel-1v1",
        "human": "blue" if k % 2 == 0 else "red",
        "opponent": "oracle",
        "engine": "python" if k % 3 else "native",
        "seed": 100 + k,
    }
    times: list[float] = []
    with httpx.Client(base_url=url, timeout=120) as http:
        reply = http.post("/api/games", json=spec)
        assert reply.status_code == 200, reply.text
        state = reply.json()["state"]
        gid = state["id"]
        for _ in range(5000):
            if state["over"]:
                break
            started = time.perf_counter()
            if state["your_turn"]:
                pick = {"index": rng.randrange(len(state["legal"])), "at": state["decisions"]}
                reply = http.post(f"/api/games/{gid}/decide", json=pick)
            else:
                reply = http.post(f"/api/games/{gid}/step")
            times.append(1000 * (time.perf_counter() - started))
            assert reply.status_code == 200, reply.text
            state = reply.json()["state"]
            assert state["id"] == gid and state["seed"] == spec["seed"]
        save = http.get(f"/api/games/{gid}/save").json()
        log = http.get(f"/api/games/{gid}/log.jsonl").text
    return {"k": k, "spec": spec, "state": state, "save": save, "log": log, "times": times}


@pytest.mark.slow
def test_fifty_concurrent_games_keep_their_own_state() -> None:
    started = time.perf_counter()
    with live_app(max_sessions=GAMES + 4) as (url, app):
        with ThreadPoolExecutor(max_workers=GAMES) as pool:
            games = list(pool.map(lambda k: play_one(url, k), range(GAMES)))
        assert len(app.state.sessions) == GAMES
    wall = time.perf_counter() - started
    ids = {g["state"]["id"] for g in games}
    assert len(ids) == GAMES
    for game in games:
        assert game["state"]["over"], f"game {game['k']} did not end"
        first = json.loads(game["log"].splitlines()[0])
        assert first["seed"] == game["spec"]["seed"]
        human = game["spec"]["human"]
        assert first["agents"][human] == "human"
        # A replay of its own saved decisions gives the same log, event for event.
        assert GameSession.resume(game["save"]).log_text() == game["log"], game["k"]
    times = sorted(t for g in games for t in g["times"])
    p95 = times[round(0.95 * (len(times) - 1))]
    print(
        f"\n{GAMES} concurrent games, {len(times)} requests in {wall:.1f} s: "
        f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
    )
