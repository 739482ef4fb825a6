"""``--engine`` on the commands, ``engine=`` on the environments, and playtests that record it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app
from riven_env.native import available

runner = CliRunner()
native_only = pytest.mark.skipif(not available(), reason="the native core is not built")


def _run(*args: str):
    return runner.invoke(app, list(args))


@native_only
def test_play_gives_the_same_game_on_both_engines() -> None:
    results = {}
    for engine in ("python", "native"):
        out = _run("play", "--scenario", "duel-1v1", "--blue", "random", "--red", "oracle",
                   "--seed", "4", "--json", "--quiet", "--engine", engine)  # fmt: skip
        assert out.exit_code == 0, out.output
        results[engine] = json.loads(out.stdout)
        del results[engine]["cost"]  # time spent deciding
    assert results["python"] == results["native"]


def test_an_unknown_engine_is_one_line() -> None:
    out = _run("play", "--scenario", "duel-1v1", "--engine", "fast")
    assert out.exit_code == 2
    assert out.stderr.strip() == "error: engine 'fast': expected one of auto, python, native"


@native_only
def test_an_engine_that_cannot_play_the_scenario_is_one_line(
    python_only_system: dict[str, str],
) -> None:
    # The core has every bundled system: a system it lacks is registered in Python only.
    out = _run("play", "--scenario", "duel-1v1", "--engine", "native", "--set",
               "resolution=house-dice")  # fmt: skip
    assert out.exit_code == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: engine 'native' cannot play scenario 'duel-1v1'")
    assert "'house-dice'" in lines[0] and lines[0].endswith("allowed: --engine python")


@native_only
def test_playtest_records_the_engine_and_resume_keeps_to_it(tmp_path) -> None:
    db = str(tmp_path / "p.duckdb")
    common = ("playtest", "--scenario", "duel-1v1", "--blue", "random", "--red", "random",
              "--workers", "1", "--db", db, "--json", "--quiet")  # fmt: skip
    report = tmp_path / "r.html"
    first = _run(*common, "--games", "2", "--engine", "native", "--report", str(report))
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["config"]["engine"] == "native"
    assert "engine: native" in report.read_text(encoding="utf-8")
    refused = _run(*common, "--games", "3", "--resume", "--engine", "python")
    assert refused.exit_code == 2
    assert "played with engine 'native', not 'python'" in refused.stderr
    assert "--engine native" in refused.stderr
    resumed = _run(*common, "--games", "3", "--resume", "--engine", "native")
    assert resumed.exit_code == 0, resumed.output
    again = json.loads(resumed.stdout)
    assert again["config"]["run_id"] == data["config"]["run_id"] and again["games"] == 3
    # The same seeds on the Python engine: the same games (a separate run).
    python = _run(*common, "--games", "3", "--engine", "python")
    assert python.exit_code == 0, python.output
    assert json.loads(python.stdout)["wins"] == again["wins"]


@native_only
def test_pettingzoo_env_on_the_native_engine_matches_python() -> None:
    pytest.importorskip("pettingzoo")
    from riven_env.envs.pz_env import RivenAECEnv

    envs = {e: RivenAECEnv(scenario="duel-1v1", engine=e) for e in ("python", "native")}
    for env in envs.values():
        env.reset(seed=6)
    for _ in range(60):
        if not envs["python"].agents:
            break
        last = {e: env.last() for e, env in envs.items()}
        (obs, _, term, trunc, _), native = last["python"], last["native"]
        assert np.array_equal(obs["observation"], native[0]["observation"])
        assert np.array_equal(obs["action_mask"], native[0]["action_mask"])
        assert (term, trunc) == native[2:4]
        action = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1])
        for env in envs.values():
            env.step(action)
    assert envs["native"].agents == envs["python"].agents
