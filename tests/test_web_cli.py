"""``riven serve``: binds 127.0.0.1, prints the URL, refuses bad options in one line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")


def test_a_bad_port_is_one_line_with_exit_status_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "riven_env.cli.main", "serve", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["error: --port 70000: expected 0..65535"]


def test_serve_binds_localhost_and_prints_the_url() -> None:
    code = "from riven_env.cli.main import main; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if line or process.poll() is not None:
                break
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, (
            f"no URL printed: {line!r} {process.stderr.read() if process.poll() is not None else ''}"
        )
        with urllib.request.urlopen(found.group(0) + "api/options", timeout=30) as reply:
            options = json.loads(reply.read())
        assert "duel-1v1" in [m["name"] for m in options["missions"]]
        # Finished games are stored where riven playtest stores its runs, unless --db says.
        assert options["results_db"].endswith("playtests.duckdb")
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_play_with_a_human_side_serves_that_game_and_prints_its_page() -> None:
    code = "from riven_env.cli.main import main; main()"
    command = [sys.executable, "-c", code, "play", "--scenario", "duel-1v1", "--seed", "4"]
    command += ["--blue", "human", "--red", "oracle:tactical", "--engine", "python"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = process.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+/)\?game=([0-9a-f]{32})", line)
        assert found, f"no URL printed: {line!r}"
        base, game_id = found.groups()
        with urllib.request.urlopen(f"{base}api/games/{game_id}", timeout=30) as reply:
            state = json.loads(reply.read())
        assert (state["human"], state["opponent"], state["seed"]) == ("blue", "oracle:tactical", 4)
        assert state["engine"] == "python" and state["your_turn"]
        with urllib.request.urlopen(found.group(0), timeout=30) as reply:
            assert b"/static/play.js" in reply.read()  # the page, which loads ?game=
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_play_with_a_human_side_refuses_what_a_browser_game_does_not_take() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "riven_env.cli.main", "play", "--red", "human", "--log", "x.jsonl"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: --log: not taken with a human side; allowed: --scenario")
