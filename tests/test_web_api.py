"""The play app's JSON API (riven_env/web, docs/play.md), through FastAPI's TestClient.

Every game is seeded and the person's choices come from a seeded random stream, so each test
plays the same game every run; no test opens a port or writes a shared file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from riven_env.game.events import dumps_event  # noqa: E402
from riven_env.replay import render_replay  # noqa: E402
from riven_env.web.app import create_app  # noqa: E402
from riven_env.web.session import GameSession, GameSpec, rolls_dice  # noqa: E402

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(max_sessions=8))


def new_game(client: TestClient, **spec) -> dict:
    body = {
        "scenario": "duel-1v1",
        "human": "blue",
        "opponent": "oracle",
        "engine": "python",
        "seed": 3,
    }
    body.update(spec)
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def one_line_refusal(response, status: int) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert "\n" not in error and "Traceback" not in error and error
    return error


def play(
    client: TestClient, game_id: str, state: dict, rng: random.Random, limit: int = 10_000
) -> dict:
    """Play to the end (or ``limit`` requests): random legal picks for the person, the
    opponent stepped one decision at a time."""
    for _ in range(limit):
        if state["over"]:
            break
        if state["your_turn"]:
            pick = rng.randrange(len(state["legal"]))
            response = client.post(
                f"/api/games/{game_id}/decide", json={"index": pick, "at": state["decisions"]}
            )
        else:
            response = client.post(f"/api/games/{game_id}/step")
        assert response.status_code == 200, response.text
        state = response.json()["state"]
    return state


def full_log(client: TestClient, game_id: str) -> list[dict]:
    text = client.get(f"/api/games/{game_id}/log.jsonl").text
    return [json.loads(line) for line in text.splitlines()]


def _native_available() -> bool:
    try:
        from riven_env.native import available
    except ImportError:
        return False
    return available()


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_whole_duel_against_the_oracle_to_the_end(client: TestClient, engine: str) -> None:
    if engine == "native" and not _native_available():
        pytest.skip("the native core is not built")
    opened = new_game(client, engine=engine)
    assert opened["state"]["engine"] == engine
    assert opened["board"]["svg"].startswith('<svg id="board"')
    state = play(client, opened["id"], opened["state"], random.Random(1))
    assert state["over"] and state["result"]["reason"]
    assert state["legal"] == [] and not state["your_turn"]
    log = full_log(client, opened["id"])
    assert log[0]["type"] == "game_start" and log[-1]["type"] == "game_end"
    assert log[0]["agents"] == {"blue": "human", "red": "oracle"}
    # The Oracle's explanations are in the log, before the decisions they explain.
    explained = [e for e in log if e["type"] == "oracle_decision"]
    assert explained and all(e["explanation"] for e in explained)
    after_end = client.post(f"/api/games/{opened['id']}/decide", json={"index": 0})
    assert "game is over" in one_line_refusal(after_end, 409)


@pytest.mark.slow
def test_a_whole_skirmish_against_the_oracle_to_the_end(client: TestClient) -> None:
    opened = new_game(client, scenario="skirmish-5v5", seed=11)
    state = play(client, opened["id"], opened["state"], random.Random(5))
    assert state["over"]
    log = full_log(client, opened["id"])
    assert log[-1]["type"] == "game_end" and log[-1]["winner"] == state["result"]["winner"]


def test_the_state_names_whose_turn_and_reads_every_legal_decision(client: TestClient) -> None:
    state = new_game(client)["state"]
    assert state["your_turn"] and state["to_play"] == "blue"
    labels = [d["label"] for d in state["legal"]]
    assert "blue-champion activates on 2 dice" in labels
    odds = state["legal"][1]["odds"]
    assert odds["kind"] == "activation"
    assert sum(
        v for k, v in odds["odds"].items() if k not in ("expected_actions", "p_turn_passes")
    ) == pytest.approx(1)
    assert [e["type"] for e in state["log"]][0] == "game_start"


def test_illegal_out_of_turn_and_malformed_requests_get_one_line_4xx(client: TestClient) -> None:
    opened = new_game(client)
    gid, state = opened["id"], opened["state"]
    n = len(state["legal"])
    error = one_line_refusal(client.post(f"/api/games/{gid}/decide", json={"index": n}), 400)
    assert f"allowed: index 0..{n - 1}" in error and "blue-champion activates on 1 die" in error
    one_line_refusal(client.post(f"/api/games/{gid}/decide", json={"index": -1}), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", json={"index": "0"}), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", json={"index": True}), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", json={}), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", json={"index": 0, "x": 1}), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", content=b"{not json"), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", content=b"\xff\xfe"), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", json=[0]), 400)
    # The opponent's move while it is the person's turn, and a stale request.
    assert "your turn" in one_line_refusal(client.post(f"/api/games/{gid}/step"), 409)
    one_line_refusal(client.post(f"/api/games/{gid}/decide", json={"index": 0, "at": 7}), 409)
    # Play until it is the opponent's turn, then decide out of turn.
    rng = random.Random(2)
    while state["your_turn"]:
        state = client.post(
            f"/api/games/{gid}/decide", json={"index": rng.randrange(len(state["legal"]))}
        ).json()["state"]
    error = one_line_refusal(client.post(f"/api/games/{gid}/decide", json={"index": 0}), 409)
    assert "allowed: step" in error
    # Unknown games, pages, methods and query values.
    one_line_refusal(client.get("/api/games/" + "0" * 32), 404)
    one_line_refusal(client.get("/api/games/../../etc/passwd"), 404)
    one_line_refusal(client.get("/static/../app.py"), 404)
    one_line_refusal(client.get("/nowhere"), 404)
    one_line_refusal(client.put(f"/api/games/{gid}/decide"), 405)
    one_line_refusal(client.get(f"/api/games/{gid}?since=x"), 400)
    one_line_refusal(client.post(f"/api/games/{gid}/step", json={"until": "forever"}), 400)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"scenario": "no-such-mission"}, "unknown mission"),
        ({"human": "green"}, "allowed: blue, red"),
        ({"opponent": "nobody"}, "unknown agent"),
        ({"opponent": "ppo:/etc/passwd"}, "not offered"),
        ({"engine": "warp"}, "allowed: auto, python, native"),
        ({"seed": -1}, "seed"),
        ({"seed": "1"}, "seed"),
        ({"colour": "blue"}, "unknown field"),
        ({"scenario_text": "[scenario]\nname = 3\n"}, "mission file refused"),
        ({"scenario_text": "not = [toml"}, "mission file refused"),
    ],
)
def test_a_bad_new_game_is_refused_in_one_line(client: TestClient, spec: dict, words: str) -> None:
    body = {"scenario": "duel-1v1", "engine": "python", **spec}
    assert words in one_line_refusal(client.post("/api/games", json=body), 400)


def test_an_uploaded_mission_file_plays_and_a_too_large_one_is_refused() -> None:
    text = (SCENARIOS / "duel-1v1.toml").read_text(encoding="utf-8")
    client = TestClient(create_app(max_body=len(text) + 500))
    opened = new_game(client, scenario=None, scenario_text=text)
    assert opened["state"]["scenario"] == "duel-1v1"
    big = {"scenario_text": text + "#" * 1000, "engine": "python"}
    assert "too large" in one_line_refusal(client.post("/api/games", json=big), 413)


def _first_dice_free_decision(state: dict) -> int | None:
    return next((d["index"] for d in state["legal"] if d["kind"] in ("move", "end", "aim")), None)


def test_undo_takes_back_a_decision_without_dice_and_refuses_after_a_roll(
    client: TestClient,
) -> None:
    opened = new_game(client, seed=4)
    gid, state = opened["id"], opened["state"]
    assert "no decision" in one_line_refusal(client.post(f"/api/games/{gid}/undo"), 409)
    # Activating rolls the dice: no undo.
    state = client.post(f"/api/games/{gid}/decide", json={"index": 2}).json()["state"]
    assert not state["undo"]["allowed"] and "dice were rolled" in state["undo"]["reason"]
    assert "dice were rolled" in one_line_refusal(client.post(f"/api/games/{gid}/undo"), 409)
    rng = random.Random(3)
    while _first_dice_free_decision(state) is None or not state["your_turn"]:
        state = play(client, gid, state, rng, limit=1)
        assert not state["over"]
    before = client.get(f"/api/games/{gid}").json()
    choice = _first_dice_free_decision(state)
    after = client.post(f"/api/games/{gid}/decide", json={"index": choice}).json()["state"]
    assert after["decisions"] == before["decisions"] + 1
    if not after["undo"]["allowed"]:  # that move set off a roll (a morale test, say)
        pytest.fail(f"no dice-free decision to undo: {after['undo']['reason']}")
    undone = client.post(f"/api/games/{gid}/undo")
    assert undone.status_code == 200, undone.text
    restored = client.get(f"/api/games/{gid}").json()
    for key in ("models", "legal", "decisions", "events_total", "to_play", "momentum", "points"):
        assert restored[key] == before[key], key
    # The log lost the undone decision's events; the game goes on from the same place.
    assert len(full_log(client, gid)) == before["events_total"]


def test_rolls_dice_reads_every_kind_of_roll() -> None:
    assert rolls_dice({"type": "activation", "dice": [3, 5], "bonus": False})
    assert not rolls_dice({"type": "activation", "dice": [], "bonus": True})
    assert rolls_dice({"type": "test", "dice": [1, 6]})
    assert rolls_dice({"type": "melee", "attacker_dice": [2, 2], "defender_dice": [1, 1]})
    assert rolls_dice({"type": "out_check", "die": 4})
    assert not rolls_dice({"type": "move", "path": [[0, 0], [1, 1]]})


def test_save_and_resume_gives_the_same_state_and_log(client: TestClient) -> None:
    opened = new_game(client, scenario="skirmish-5v5", seed=8)
    gid = opened["id"]
    state = play(client, gid, opened["state"], random.Random(9), limit=40)
    saved = client.get(f"/api/games/{gid}/save").json()
    assert saved["game"]["seed"] == 8 and len(saved["decisions"]) == state["decisions"]
    resumed = client.post("/api/games/resume", json=saved)
    assert resumed.status_code == 200, resumed.text
    again = resumed.json()
    assert again["id"] != gid
    mine = client.get(f"/api/games/{gid}").json()
    theirs = client.get(f"/api/games/{again['id']}").json()
    for key in ("models", "legal", "decisions", "to_play", "round", "phase", "points", "momentum"):
        assert theirs[key] == mine[key], key
    assert full_log(client, again["id"]) == full_log(client, gid)
    # The resumed game plays on exactly as the original does.
    a = play(client, gid, mine, random.Random(10))
    b = play(client, again["id"], theirs, random.Random(10))
    assert a["result"] == b["result"]
    assert full_log(client, gid) == full_log(client, again["id"])


def test_a_tampered_save_is_refused(client: TestClient) -> None:
    opened = new_game(client)
    gid = opened["id"]
    play(client, gid, opened["state"], random.Random(1), limit=6)
    saved = client.get(f"/api/games/{gid}/save").json()
    bad = json.loads(json.dumps(saved))
    bad["decisions"][0]["index"] = 99
    assert "saved decision 0" in one_line_refusal(client.post("/api/games/resume", json=bad), 400)
    assert "not a saved game" in one_line_refusal(
        client.post("/api/games/resume", json={"x": 1}), 400
    )


def test_the_export_is_the_servers_log_and_its_replay(client: TestClient) -> None:
    opened = new_game(client, seed=5)
    gid = opened["id"]
    play(client, gid, opened["state"], random.Random(4))
    app_sessions = client.app.state.sessions
    session = app_sessions.get(gid)
    text = client.get(f"/api/games/{gid}/log.jsonl").text
    assert text == "".join(dumps_event(e) + "\n" for e in session.events)
    assert client.get(f"/api/games/{gid}/replay.html").text == render_replay(session.events)
    # The state's text log holds one sentence per event of that log.
    state = client.get(f"/api/games/{gid}?since=0").json()
    assert len(state["log"]) == len(text.splitlines())


def test_two_sessions_are_independent(client: TestClient) -> None:
    a = new_game(client, seed=7)
    b = new_game(client, seed=7)
    assert a["id"] != b["id"] and a["state"]["legal"] == b["state"]["legal"]
    play(client, a["id"], a["state"], random.Random(1), limit=12)
    untouched = client.get(f"/api/games/{b['id']}").json()
    assert untouched["decisions"] == b["state"]["decisions"]
    assert untouched["models"] == b["state"]["models"]
    # The same choices in the second game give the same game as in the first.
    first = play(client, a["id"], client.get(f"/api/games/{a['id']}").json(), random.Random(2))
    log_a = full_log(client, a["id"])
    rng = random.Random(1)
    state = play(client, b["id"], untouched, rng, limit=12)
    state = play(client, b["id"], state, random.Random(2))
    assert state["result"] == first["result"] and full_log(client, b["id"]) == log_a


def test_the_opponent_plays_its_whole_turn_with_explanations(client: TestClient) -> None:
    opened = new_game(client, scenario="duel-1v1", human="red", seed=3)
    gid, state = opened["id"], opened["state"]
    if state["your_turn"]:
        state = play(client, gid, state, random.Random(0), limit=1)
        while state["your_turn"]:
            state = play(client, gid, state, random.Random(0), limit=1)
    reply = client.post(f"/api/games/{gid}/step", json={"until": "your_turn"}).json()
    assert reply["steps"] and all(s["explanation"]["explanation"] for s in reply["steps"])
    assert reply["state"]["your_turn"] or reply["state"]["over"]


def test_sessions_are_bounded_and_the_oldest_goes_first() -> None:
    client = TestClient(create_app(max_sessions=2))
    first, second, third = (new_game(client, seed=s)["id"] for s in (1, 2, 3))
    one_line_refusal(client.get(f"/api/games/{first}"), 404)
    assert client.get(f"/api/games/{second}").status_code == 200
    assert client.get(f"/api/games/{third}").status_code == 200
    assert client.delete(f"/api/games/{third}").status_code == 200
    one_line_refusal(client.get(f"/api/games/{third}"), 404)


def test_the_page_and_its_assets_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<script src="/static/play.js">' in page.text
    for name in ("play.js", "play.css", "replay.css"):
        assert client.get(f"/static/{name}").status_code == 200
    options = client.get("/api/options").json()
    assert "skirmish-5v5" in [m["name"] for m in options["missions"]]
    assert not any(a["spec"].startswith("ppo") for a in options["agents"])


def test_a_session_plays_without_the_web_framework() -> None:
    session = GameSession(GameSpec(scenario="duel-1v1", engine="python", seed=2, opponent="random"))
    rng = random.Random(0)
    while not session.over:
        if session.to_play == session.human:
            session.apply(rng.randrange(len(session.legal())))
        else:
            session.step()
    assert session.events[-1]["type"] == "game_end"


# ---------------------------------------------------------------------- the board's previews
def play_to(client: TestClient, opened: dict, rng: random.Random, want, limit: int = 500) -> dict:
    """Play (random legal picks) until ``want(state)`` holds on the person's turn."""
    gid, state = opened["id"], opened["state"]
    for _ in range(limit):
        if state["your_turn"] and want(state):
            return state
        assert not state["over"], "the game ended first"
        if state["your_turn"]:
            pick = {"index": rng.randrange(len(state["legal"])), "at": state["decisions"]}
            state = client.post(f"/api/games/{gid}/decide", json=pick).json()["state"]
        else:
            state = client.post(f"/api/games/{gid}/step").json()["state"]
    raise AssertionError("never reached")


@pytest.mark.parametrize("engine", ["python", "native"])
def test_previews_give_each_move_its_end_and_each_shot_its_sight_and_cover(
    client: TestClient, engine: str
) -> None:
    if engine == "native" and not _native_available():
        pytest.skip("the native core is not built")
    opened = new_game(client, scenario="skirmish-5v5", seed=11, engine=engine)
    kinds = lambda s: {d["kind"] for d in s["legal"]}  # noqa: E731
    state = play_to(client, opened, random.Random(1), lambda s: {"shoot", "move"} <= kinds(s))
    gid = opened["id"]
    found = client.get(f"/api/games/{gid}/previews").json()
    assert found["at"] == state["decisions"]
    by_index = {p["index"]: p for p in found["previews"]}
    legal = state["legal"]
    for d in legal:
        if d["kind"] == "move":
            p = by_index[d["index"]]
            assert p["model"] == d["model"] and len(p["to"]) == 2 and len(p["path"]) >= 1
            assert p["path"][0] == pytest.approx(p["from"]) and p["path"][-1] == p["to"]
        if d["kind"] == "shoot":
            p = by_index[d["index"]]
            assert p["target"] == d["target"] and p["visible"] is True
            assert p["cover"] in ("none", "soft", "hard")
            assert d["odds"]["cover"] == p["cover"]  # the odds are taken against that cover
        if d["kind"] == "charge" and d["index"] in by_index:  # from base contact: no path
            p = by_index[d["index"]]
            assert p["target"] == d["target"] and p["path"][-1] == p["to"]
    # The preview is the move the game then makes: the model ends where it said.
    move = next(d for d in legal if d["kind"] == "move")
    after = client.post(f"/api/games/{gid}/decide", json={"index": move["index"]}).json()["state"]
    placed = {m["id"]: [m["x"], m["y"]] for m in after["models"]}
    assert placed[move["model"]] == pytest.approx(by_index[move["index"]]["to"], abs=1e-3)


def test_previews_leave_the_game_as_it_was(client: TestClient) -> None:
    """A game whose previews are read at every decision plays exactly as one whose are not."""
    logs = []
    for look in (False, True):
        opened = new_game(client, scenario="skirmish-5v5", seed=11)
        gid, state, rng = opened["id"], opened["state"], random.Random(2)
        while not state["over"]:
            if state["your_turn"]:
                if look:
                    client.get(f"/api/games/{gid}/previews")
                pick = {"index": rng.randrange(len(state["legal"])), "at": state["decisions"]}
                state = client.post(f"/api/games/{gid}/decide", json=pick).json()["state"]
            else:
                if look:  # out of turn: nothing to draw
                    assert client.get(f"/api/games/{gid}/previews").json()["previews"] == []
                state = client.post(f"/api/games/{gid}/step").json()["state"]
        logs.append(client.get(f"/api/games/{gid}/log.jsonl").text)
    assert logs[0] == logs[1]


# ---------------------------------------------------------------------- hot-seat, suggestions
def test_hot_seat_both_sides_are_played_here_and_resume(client: TestClient) -> None:
    opened = new_game(client, opponent="human", seed=4)
    gid, state = opened["id"], opened["state"]
    assert state["hotseat"] and state["humans"] == ["blue", "red"]
    refused = client.post(f"/api/games/{gid}/step")
    assert "hot-seat" in one_line_refusal(refused, 409)
    rng, sides = random.Random(4), set()
    while not state["over"]:
        assert state["your_turn"] and state["legal"]
        sides.add(state["to_play"])
        pick = {"index": rng.randrange(len(state["legal"])), "at": state["decisions"]}
        state = client.post(f"/api/games/{gid}/decide", json=pick).json()["state"]
    assert sides == {"blue", "red"}
    log = full_log(client, gid)
    assert log[0]["agents"] == {"blue": "human", "red": "human"}
    assert not [e for e in log if e["type"] == "oracle_decision"]
    resumed = client.post("/api/games/resume", json=client.get(f"/api/games/{gid}/save").json())
    assert resumed.status_code == 200, resumed.text
    again = resumed.json()["id"]
    assert (
        client.get(f"/api/games/{again}/log.jsonl").text
        == client.get(f"/api/games/{gid}/log.jsonl").text
    )


def test_the_expert_suggests_its_top_three_in_a_person_against_person_game(
    client: TestClient,
) -> None:
    opened = new_game(client, opponent="human", suggest="expert:12", seed=2)
    gid, state = opened["id"], opened["state"]
    assert state["suggest"] == "expert:12"
    searched = 0
    for _ in range(6):
        found = client.get(f"/api/games/{gid}/suggestions").json()
        assert found["at"] == state["decisions"] and found["side"] == state["to_play"]
        assert 1 <= len(found["top"]) <= 3
        indices = [t["index"] for t in found["top"]]
        assert len(set(indices)) == len(indices)
        legal = {d["index"]: d["label"] for d in state["legal"]}
        assert all(legal[t["index"]] == t["label"] for t in found["top"])
        if found["top"][0]["visits"] is not None:
            searched += 1
            visits = [t["visits"] for t in found["top"]]
            assert visits == sorted(visits, reverse=True) and sum(visits) <= 12
        # Asking again at the same position gives the same answer (no second search).
        assert client.get(f"/api/games/{gid}/suggestions").json() == found
        pick = {"index": found["top"][0]["index"], "at": state["decisions"]}
        state = client.post(f"/api/games/{gid}/decide", json=pick).json()["state"]
        if state["over"]:
            break
    assert searched >= 1


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"suggest": "oracle"}, "allowed: expert or expert:BUDGET"),
        ({"suggest": "expert:lots"}, "allowed: expert or expert:BUDGET"),
        ({"suggest": 3}, "expected an agent spec"),
    ],
)
def test_a_bad_suggestion_agent_is_refused(client: TestClient, spec: dict, words: str) -> None:
    body = {"scenario": "duel-1v1", "engine": "python", "opponent": "human", **spec}
    assert words in one_line_refusal(client.post("/api/games", json=body), 400)


def test_suggestions_of_a_game_without_them_are_refused(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert "no suggestions" in one_line_refusal(client.get(f"/api/games/{gid}/suggestions"), 409)


# ---------------------------------------------------------------------- the playtest database
def test_a_finished_game_goes_into_the_playtest_database_as_a_one_game_run(tmp_path) -> None:
    pytest.importorskip("duckdb")
    from riven_env.playtest.db import ResultsDB

    db = tmp_path / "results.duckdb"
    client = TestClient(create_app(results_db=db))
    opened = new_game(client, seed=6)
    gid = opened["id"]
    early = client.post(f"/api/games/{gid}/record")
    assert "not over" in one_line_refusal(early, 409)
    state = play(client, gid, opened["state"], random.Random(6))
    stored = client.post(f"/api/games/{gid}/record")
    assert stored.status_code == 200, stored.text
    run_id = stored.json()["run_id"]
    assert client.post(f"/api/games/{gid}/record").json()["run_id"] == run_id  # once only
    assert client.get(f"/api/games/{gid}").json()["recorded"]["run_id"] == run_id
    with ResultsDB(db, read_only=True) as results:
        run = results.run(run_id)
        assert (run["blue"], run["red"], run["label"]) == ("human", "oracle", "web")
        games = results.games(run_id)
        assert len(games) == 1 and games[0]["seed"] == 6
        assert games[0]["winner"] == state["result"].get("winner")
        sides = results.query(
            "SELECT side, agent FROM game_sides WHERE run_id = ? ORDER BY side", [run_id]
        )
        assert [(s["side"], s["agent"]) for s in sides] == [("blue", "human"), ("red", "oracle")]


def test_a_server_without_a_database_refuses_to_store_in_one_line(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert "--db" in one_line_refusal(client.post(f"/api/games/{gid}/record"), 409)
