"""The play page in a real browser: Debian's headless Chromium driven by Playwright.

The app runs on 127.0.0.1 on a port the OS picks (tests/web_harness.py), so these tests run
in parallel. Without Chromium they skip, or fail where ``$RIVEN_REQUIRE_CHROMIUM`` is set (CI).
"""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright")

from web_harness import browser_page, live_app, live_server  # noqa: E402

pytestmark = pytest.mark.browser

READY = (
    "() => { const s = window.rivenPlay && window.rivenPlay.state();"
    " return s && !window.rivenPlay.busy() && (s.your_turn || s.over); }"
)


def page_state(page) -> dict:
    return json.loads(page.text_content("#page-state"))


def wait_ready(page) -> dict:
    page.wait_for_function(READY, timeout=60_000)
    return page_state(page)


def click_decision(page, position: int = 0) -> dict:
    """Click the n-th decision button; wait for the board's answer."""
    before = page_state(page)["decisions"]
    page.locator("#decisions button").nth(position).click()
    page.wait_for_function(f"() => window.rivenPlay.state().decisions > {before}", timeout=60_000)
    return wait_ready(page)


def test_a_person_plays_by_clicking_and_the_board_and_log_change(tmp_path) -> None:
    with live_server() as url, browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/?mission=duel-1v1&engine=python&seed=3&opponent=oracle&speed=120&start=1")
        state = wait_ready(page)
        assert state["your_turn"] and state["legal"] > 0
        # A request the game refuses gets one line naming what is allowed; the game goes on.
        status = page.evaluate(
            "async (id) => { const r = await fetch('/api/games/' + id + '/decide', {method: 'POST',"
            " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({index: 999})});"
            " return [r.status, (await r.json()).error]; }",
            state["id"],
        )
        assert status[0] == 400 and "allowed: index 0.." in status[1] and "\n" not in status[1]
        positions = {m[0]: (m[1], m[2]) for m in state["models"]}
        log_before = page.locator("#log li").count()
        assert log_before >= 1
        # The board is the replay's drawing, with the models placed on it.
        assert page.locator("svg#board #terrain").count() == 1
        assert page.locator("svg#board .model").count() == len(positions)
        # Focusing a decision shows its exact odds.
        page.locator("#decisions button").nth(2).focus()
        assert "Mettle" in page.text_content("#odds")
        # Click a model on the board: the list shows that model's choices.
        page.locator('svg#board .model[data-model="blue-champion"] .base').click()
        labels = page.locator("#decisions button").all_text_contents()
        assert labels and all("blue-champion" in text for text in labels)
        # Activate on 3 dice, then keep clicking the first choice (by mouse and by key).
        page.locator("#decisions button", has_text="activates on 3 dice").click()
        state = wait_ready(page)
        for k in range(6):
            if state["over"]:
                break
            if k % 2:
                before = state["decisions"]
                page.keyboard.press("1")
                page.wait_for_function(f"() => window.rivenPlay.state().decisions > {before}")
                state = wait_ready(page)
            else:
                state = click_decision(page, 0)
        moved = {m[0]: (m[1], m[2]) for m in state["models"]}
        assert moved != positions, "no model moved on the board"
        assert page.locator("#log li").count() > log_before
        drawn = page.locator('svg#board .model[data-model="blue-champion"]').get_attribute("data-x")
        assert float(drawn) == pytest.approx(moved["blue-champion"][0], abs=1e-3)
        # The opponent's explanation is shown.
        assert page.text_content("#explanation").strip()
        page.screenshot(path=str(tmp_path / "board.png"))
        assert (tmp_path / "board.png").stat().st_size > 10_000
        assert errors == []


@pytest.mark.slow
def test_a_whole_duel_is_played_through_the_page_and_exported() -> None:
    with live_server() as url, browser_page() as page:
        page.goto(f"{url}/?mission=duel-1v1&engine=python&seed=5&speed=120&start=1")
        page.select_option("#speed", "120")
        state = wait_ready(page)
        for _ in range(400):
            if state["over"]:
                break
            state = click_decision(page, 0)
        assert state["over"], "the game did not end"
        assert "game over" in page.text_content("#st-turn")
        log = page.evaluate(
            "async (id) => await (await fetch('/api/games/' + id + '/log.jsonl')).text()",
            state["id"],
        )
        lines = [json.loads(line) for line in log.splitlines()]
        assert lines[-1]["type"] == "game_end"
        assert page.locator("#log li").count() == len(lines)


# ---------------------------------------------------------------------- board and games
PREVIEWS_READY = (
    "() => { const s = JSON.parse(document.getElementById('page-state').textContent);"
    " return s.over || !s.your_turn || s.previews_at === s.decisions; }"
)
# Whether the board marker of decision `index` is what a click at its centre hits.
MARKER_HIT = """(index) => {
  const m = document.querySelector('#previews circle[data-index="' + index + '"]');
  if (!m) return false;
  const r = m.getBoundingClientRect();
  return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === m;
}"""


def legal_of(page) -> list[dict]:
    return page.evaluate(
        "() => window.rivenPlay.state().legal.map(d => ({index: d.index, kind: d.kind,"
        " option: d.option, label: d.label}))"
    )


def momentum_spend(legal: list[dict]) -> dict | None:
    return next(
        (
            d
            for d in legal
            if d["kind"] == "spend"
            and d["option"]
            and (d["option"].startswith("reroll") or d["option"] == "boost")
        ),
        None,
    )


def decide_by_click(page, index: int, *, ready: bool = True) -> tuple[dict, str]:
    """Make decision ``index``: on the board when its marker is drawn there, else its button;
    return the page's state (once the opponent has played too, with ``ready``)."""
    page.wait_for_function(PREVIEWS_READY, timeout=60_000)
    before = page_state(page)["decisions"]
    where = "board" if page.evaluate(MARKER_HIT, index) else "button"
    if where == "board":
        page.locator(f'#previews circle[data-index="{index}"]').click()
    else:
        page.locator(f'#decisions button[data-index="{index}"]').click()
    page.wait_for_function(f"() => window.rivenPlay.state().decisions > {before}", timeout=60_000)
    return (wait_ready(page) if ready else page_state(page)), where


def test_destinations_and_targets_are_drawn_and_clicked_on_the_board() -> None:
    import httpx

    with live_server() as url, browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # Play over HTTP to a position where a shot is offered, then open that game's page.
        rng = random.Random(1)
        with httpx.Client(base_url=url, timeout=60) as http:
            body = {"scenario": "skirmish-5v5", "engine": "python", "seed": 11}
            state = http.post("/api/games", json=body).json()["state"]
            gid = state["id"]
            for _ in range(300):
                kinds = {d["kind"] for d in state["legal"]}
                if state["your_turn"] and "shoot" in kinds and "move" in kinds:
                    break
                if state["your_turn"]:
                    pick = {"index": rng.randrange(len(state["legal"])), "at": state["decisions"]}
                    state = http.post(f"/api/games/{gid}/decide", json=pick).json()["state"]
                else:
                    state = http.post(f"/api/games/{gid}/step").json()["state"]
            assert "shoot" in {d["kind"] for d in state["legal"]}
            previews = http.get(f"/api/games/{gid}/previews").json()
        page.goto(f"{url}/?game={gid}&speed=0")
        wait_ready(page)
        page.wait_for_function(PREVIEWS_READY, timeout=60_000)
        assert page_state(page)["decisions"] == state["decisions"]
        # Every move's end is a marker; every shot a sight line (its cover) and a marker
        # labelled with the cover and the chance to hit.
        moves = [p for p in previews["previews"] if "to" in p]
        shots = [p for p in previews["previews"] if p.get("cover") and "to" not in p]
        assert moves and shots
        assert page.locator("#previews .dest").count() >= 1
        assert page.locator("#previews .sight").count() == len(shots)
        shot = next(d for d in state["legal"] if d["kind"] == "shoot")
        label = page.locator(f'#previews g[data-index="{shot["index"]}"] .preview-label')
        cover = next(p for p in shots if p["index"] == shot["index"])["cover"]
        assert "cover" in label.text_content() and "hit " in label.text_content()
        assert f"sight cover-{cover}" in page.locator(
            f'#previews g[data-index="{shot["index"]}"] line'
        ).get_attribute("class")
        # Hovering the shot's marker shows its odds and its line of sight.
        page.locator(f'#previews circle[data-index="{shot["index"]}"]').hover()
        odds = page.text_content("#odds")
        assert "Agility" in odds and "line of sight clear" in odds
        # Clicking a destination on the board makes that move: the model ends on the marker.
        move = next(p for p in moves if page.evaluate(MARKER_HIT, p["index"]))
        after, where = decide_by_click(page, move["index"], ready=False)
        assert where == "board"
        placed = {m[0]: (m[1], m[2]) for m in after["models"]}
        assert placed[move["model"]] == pytest.approx(tuple(move["to"]), abs=1e-3)
        assert errors == []


def play_game_by_clicks(
    page, rng: random.Random, *, stop_after: int | None = None, undo: bool = False
) -> dict:
    """Play by clicks (the board's markers where drawn, else the buttons) until the game ends
    or ``stop_after`` of the person's decisions; a Momentum spend is taken when offered; with
    ``undo``, the first decision made without dice is undone once and made again.

    Returns the page's state with ``clicks``, ``board_clicks``, ``spends`` and ``undone``.
    """
    counts = {"clicks": 0, "board_clicks": 0, "spends": 0, "undone": 0}
    state = wait_ready(page)
    while not state["over"] and (stop_after is None or counts["clicks"] < stop_after):
        legal = legal_of(page)
        spend = momentum_spend(legal)
        index = spend["index"] if spend else rng.randrange(len(legal))
        state, where = decide_by_click(page, index)
        counts["clicks"] += 1
        counts["board_clicks"] += where == "board"
        counts["spends"] += spend is not None
        if undo and not counts["undone"] and page.locator("#undo").is_enabled():
            before = state["decisions"]
            page.locator("#undo").click()
            page.wait_for_function(f"() => window.rivenPlay.state().decisions < {before}")
            again = wait_ready(page)
            assert again["your_turn"] and "Undone" in page.text_content("#explanation")
            state, _ = decide_by_click(page, index)  # the same decision again
            assert state["decisions"] == before
            counts["undone"] += 1
    state.update(counts)
    return state


def server_log(app, game_id: str) -> str:
    return app.state.sessions.get(game_id).log_text()


@pytest.mark.slow
def test_a_full_skirmish_against_the_oracle_with_undo_momentum_save_resume_export(
    tmp_path,
) -> None:
    """skirmish-5v5 seed 11: the person's seeded random clicks meet a Momentum reroll (the
    14th decision); undo, save and resume through the page, the export equals the server's."""
    with live_app() as (url, app), browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/?mission=skirmish-5v5&engine=python&seed=11&speed=120&start=1")
        rng = random.Random(11)
        first = play_game_by_clicks(page, rng, stop_after=8, undo=True)
        assert first["undone"] == 1 and not first["over"]
        # Save through the page (a download), resume it through the page's file input.
        wait_ready(page)
        with page.expect_download() as saving:
            page.locator("#save").click()
        saved = tmp_path / "save.json"
        saving.value.save_as(saved)
        assert json.loads(saved.read_text())["format"] == "riven-web-save"
        old_id = first["id"]
        page.set_input_files("#resume-file", str(saved))
        page.wait_for_function(f"() => window.rivenPlay.state().id !== '{old_id}'")
        resumed = wait_ready(page)
        assert resumed["decisions"] == first["decisions"]
        assert resumed["models"] == first["models"]
        rest = play_game_by_clicks(page, rng)
        assert rest["over"] and rest["spends"] >= 1, "no Momentum spend was offered"
        assert first["board_clicks"] + rest["board_clicks"] > 0
        # The exported log (the page's link, a download) is the server's log.
        with page.expect_download() as exporting:
            page.locator("#export-log").click()
        exported = tmp_path / "game.jsonl"
        exporting.value.save_as(exported)
        assert exported.read_text() == server_log(app, rest["id"])
        events = [json.loads(line) for line in exported.read_text().splitlines()]
        assert events[-1]["type"] == "game_end"
        assert events[0]["agents"] == {"blue": "human", "red": "oracle"}
        spends = [e for e in events if e["type"] == "decision" and e["kind"] == "spend"]
        assert any(e["side"] == "blue" and "accept" not in e["decision"] for e in spends)
        assert errors == []


@pytest.mark.slow
def test_a_full_dungeon_crawl_against_the_oracle_by_clicks() -> None:
    with live_app() as (url, app), browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/?mission=dungeon-crawl&engine=python&seed=3&speed=120&start=1")
        end = play_game_by_clicks(page, random.Random(3))
        assert end["over"] and end["clicks"] > 5
        assert "game over" in page.text_content("#st-turn")
        log = page.evaluate(
            "async (id) => await (await fetch('/api/games/' + id + '/log.jsonl')).text()",
            end["id"],
        )
        assert log == server_log(app, end["id"])
        assert page.locator("#log li").count() == len(log.splitlines())
        assert errors == []


SUGGESTED = (
    "() => { const s = JSON.parse(document.getElementById('page-state').textContent);"
    " return s.over || s.suggestions_at === s.decisions; }"
)


@pytest.mark.slow
def test_hot_seat_with_suggestions_to_the_end_then_stored_in_the_playtest_database(
    tmp_path,
) -> None:
    pytest.importorskip("duckdb")
    from riven_env.playtest.db import ResultsDB

    db = tmp_path / "web.duckdb"
    with live_app(results_db=db) as (url, app), browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(
            f"{url}/?mission=duel-1v1&engine=python&seed=2&opponent=human&suggest=expert:8&start=1"
        )
        state = wait_ready(page)
        assert "Hot-seat" in page.text_content("#subtitle")
        assert page.locator("#opponent-box").is_hidden()
        rng, sides, followed = random.Random(2), set(), 0
        while not state["over"]:
            sides.add(state["to_play"])
            assert state["your_turn"]
            heading = page.text_content("#decisions-heading")
            assert heading.endswith("'s decisions") and heading != "Your decisions"
            if followed < 4:  # the expert's first suggestion, from the list beside the buttons
                page.wait_for_function(SUGGESTED, timeout=60_000)
                top = page.locator("#suggestion-list button")
                assert 1 <= top.count() <= 3
                chip = page.locator("#decisions button .suggest-chip", has_text="suggested #1")
                assert chip.count() == 1
                before = state["decisions"]
                top.first.click()
                page.wait_for_function(f"() => window.rivenPlay.state().decisions > {before}")
                state = wait_ready(page)
                followed += 1
            else:
                state = click_decision(page, rng.randrange(state["legal"]))
        assert sides == {"blue", "red"}
        # The finished game goes into the playtest database from the page's button.
        page.locator("#record").click()
        page.wait_for_function("() => document.getElementById('record-result').textContent")
        run_id = page_state(page)["recorded"]
        assert run_id and run_id in page.text_content("#record-result")
        assert page.locator("#record").is_disabled()
        assert errors == []
    with ResultsDB(db, read_only=True) as results:
        run = results.run(run_id)
        assert (run["blue"], run["red"]) == ("human", "human")
        assert len(results.games(run_id)) == 1
