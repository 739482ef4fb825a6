"""Time from a click to the board's answer in the play app (riven serve, docs/play.md).

Serves the app on 127.0.0.1 (a free port), plays one whole seeded game and prints the median
and 95th percentile of:

* ``api``: each request's round trip over HTTP (the person's ``decide`` and each opponent
  ``step``), the person's choices picked at random from the legal list (seeded);
* ``browser`` (with ``--browser``): in Debian's headless Chromium through Playwright, each click
  on a decision button until the page has drawn the answer (``#page-state`` updated).

``--screenshot PATH`` also saves a PNG of the live board after a few clicks, its destinations
drawn (docs/images/), and beside it ``play-odds.png`` (the odds panel of an activation choice
before the first click), ``play-target.png`` (the first shot or melee target offered: its
sight line, cover and odds) and ``play-hotseat.png`` (hot-seat with the expert's suggestions).

    python benchmarks/web_latency.py --scenario skirmish-5v5 --seed 11 --browser \
        --screenshot docs/images/play-board.png
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time
from pathlib import Path


def serve() -> tuple[str, object, threading.Thread]:
    import uvicorn

    from riven_env.web.app import create_app

    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning")
    )
    server.install_signal_handlers = lambda: None
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}", server, thread


def percentiles(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (
        f"n={len(ms)} median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"
    )


def api_game(url: str, scenario: str, seed: int, engine: str) -> dict[str, list[float]]:
    import httpx

    rng = random.Random(seed)
    times: dict[str, list[float]] = {"decide": [], "step": []}
    with httpx.Client(base_url=url, timeout=60) as http:
        opened = http.post(
            "/api/games",
            json={"scenario": scenario, "seed": seed, "engine": engine, "opponent": "oracle"},
        ).json()
        gid, state = opened["id"], opened["state"]
        while not state["over"]:
            started = time.perf_counter()
            if state["your_turn"]:
                reply = http.post(
                    f"/api/games/{gid}/decide",
                    json={"index": rng.randrange(len(state["legal"])), "at": state["decisions"]},
                )
                kind = "decide"
            else:
                reply = http.post(f"/api/games/{gid}/step")
                kind = "step"
            times[kind].append(1000 * (time.perf_counter() - started))
            reply.raise_for_status()
            state = reply.json()["state"]
        print(
            f"api game: {scenario} seed {seed} engine {state['engine']}: {state['result_text']}, "
            f"{state['decisions']} decisions"
        )
    return times


PREVIEWS_READY = (
    "() => { const s = JSON.parse(document.getElementById('page-state').textContent);"
    " return s.over || !s.your_turn || s.previews_at === s.decisions; }"
)


def browser_game(
    url: str, scenario: str, seed: int, engine: str, shot: Path | None
) -> dict[str, list[float]]:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from web_harness import browser_page

    rng = random.Random(seed)
    times: dict[str, list[float]] = {"board": [], "previews": []}
    ready = (
        "() => { const s = window.rivenPlay && window.rivenPlay.state();"
        " return s && !window.rivenPlay.busy() && (s.your_turn || s.over); }"
    )
    taken: set[str] = set()

    def screenshot(page, name: str) -> None:
        path = shot.with_name(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))
        taken.add(name)
        print(f"screenshot: {path}")

    with browser_page() as page:
        page.goto(f"{url}/?mission={scenario}&engine={engine}&seed={seed}&start=1")
        page.select_option("#speed", "120")
        page.wait_for_function(ready, timeout=60_000)
        clicks = 0
        if shot is not None:  # the odds panel of an activation choice, before the first click
            page.locator("#decisions button", has_text="on 3 dice").first.focus()
            screenshot(page, "play-odds.png")
        while True:
            state = json.loads(page.text_content("#page-state"))
            if state["over"]:
                break
            page.wait_for_function(PREVIEWS_READY, timeout=60_000)
            if shot is not None and "play-target.png" not in taken:
                aims = page.locator("#previews .aim")
                if aims.count():  # a shot or melee target: its sight line, cover and odds
                    aims.first.hover()
                    screenshot(page, "play-target.png")
            if (
                shot is not None
                and shot.name not in taken
                and clicks >= 12
                and page.locator("#previews .dest").count() >= 3
            ):
                page.locator("#decisions button").first.focus()
                screenshot(page, shot.name)
            buttons = page.locator("#decisions button")
            pick = rng.randrange(buttons.count())
            before = state["decisions"]
            started = time.perf_counter()
            buttons.nth(pick).click()
            page.wait_for_function(
                f"() => JSON.parse(document.getElementById('page-state').textContent).decisions > {before}",
                polling="raf",
                timeout=60_000,
            )
            times["board"].append(1000 * (time.perf_counter() - started))
            after = json.loads(page.text_content("#page-state"))
            if after["your_turn"]:  # the destinations of the next decisions drawn too
                page.wait_for_function(PREVIEWS_READY, polling="raf", timeout=60_000)
                times["previews"].append(1000 * (time.perf_counter() - started))
            clicks += 1
            page.wait_for_function(ready, timeout=60_000)
        print(f"browser game: {state['result']}, {state['decisions']} decisions, {clicks} clicks")
        if shot is not None:
            hotseat_screenshot(page, url, shot.with_name("play-hotseat.png"))
    return times


def hotseat_screenshot(page, url: str, path: Path) -> None:
    """Hot-seat with the expert's suggestions beside the buttons, a few decisions in."""
    page.goto(
        f"{url}/?mission=skirmish-5v5&engine=python&seed=4&opponent=human&suggest=expert:30&start=1"
    )
    suggested = (
        "() => { const t = document.getElementById('page-state').textContent;"
        " if (!t) return false; const s = JSON.parse(t);"
        " return s.suggestions_at === s.decisions && s.previews_at === s.decisions; }"
    )
    for _ in range(3):
        page.wait_for_function(suggested, timeout=120_000)
        before = json.loads(page.text_content("#page-state"))["decisions"]
        page.locator("#suggestion-list button").first.click()
        page.wait_for_function(
            f"() => JSON.parse(document.getElementById('page-state').textContent).decisions > {before}"
        )
    page.wait_for_function(suggested, timeout=120_000)
    page.locator("#suggestion-list button").first.hover()
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="skirmish-5v5")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--engine", default="python")
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--screenshot", type=Path)
    args = parser.parse_args()
    url, server, thread = serve()
    try:
        times = api_game(url, args.scenario, args.seed, args.engine)
        print("api decide (click -> new state):", percentiles(times["decide"]))
        print("api step (one opponent decision):", percentiles(times["step"]))
        print("api all requests:", percentiles(times["decide"] + times["step"]))
        if args.browser or args.screenshot:
            clicks = browser_game(url, args.scenario, args.seed, args.engine, args.screenshot)
            print("browser click -> board drawn:", percentiles(clicks["board"]))
            if clicks["previews"]:
                print("browser click -> next destinations drawn:", percentiles(clicks["previews"]))
    finally:
        server.should_exit = True
        thread.join(timeout=10)


if __name__ == "__main__":
    main()
