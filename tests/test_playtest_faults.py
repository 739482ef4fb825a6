"""Faults in a running playtest: worker processes killed for real (SIGKILL, as an
out-of-memory kill does), retried on a fresh worker within the bound of playtest.toml, and
a clean stop with the resume hint when the bound is reached. Local processes and Ray."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from playtest_fake_game import FAKE_SCENARIO
from playtest_killing_game import KILL_RUN_SEED, deaths
from processes import HAS_PROC, alive, spawned_workers, wait_for

from riven_env.playtest.config import PlaytestConfig, check_settings, execution_settings
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import PlaytestError, WorkerLostError
from riven_env.playtest.runner import PlaytestInterrupted, run_playtest

KILLING = "playtest_killing_game:play_game"
pytestmark = pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find worker processes")


def _config(tmp_path, **changes) -> PlaytestConfig:
    values = dict(scenario=FAKE_SCENARIO, blue="oracle:aggressive", red="random", games=12,
                  seed=KILL_RUN_SEED, workers=2, batch_size=2, db=tmp_path / "runs.duckdb",
                  player=KILLING)  # fmt: skip
    values.update(changes)
    return PlaytestConfig(**values)


def _stored(db_path, run_id=None):
    with ResultsDB(db_path, read_only=True) as db:
        runs = db.runs()
        if run_id is None and runs:
            run_id = runs[-1]["run_id"]
        rows = db.query(
            "SELECT game_index, seed, winner, rounds, blue_points, red_points FROM games "
            "WHERE run_id = ? ORDER BY game_index",
            [run_id],
        )
    return runs, rows


def test_the_retry_bound_is_data():
    settings = execution_settings()
    assert settings.batch_retries >= 1 and settings.in_flight_per_worker >= 1
    with pytest.raises(PlaytestError, match="batch_retries = -1"):
        check_settings({"workers": {"batch_retries": -1, "in_flight_per_worker": 2}})
    with pytest.raises(PlaytestError, match=r"unknown key\(s\) \['retries'\]"):
        check_settings({"workers": {"batch_retries": 1, "in_flight_per_worker": 2, "retries": 1}})
    with pytest.raises(PlaytestError, match="in_flight_per_worker is missing"):
        check_settings({"workers": {"batch_retries": 1}})


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_worker_killed_from_outside_is_replaced_and_no_game_is_lost(tmp_path):
    overrides = {"delay_s": 0.2}
    config = _config(tmp_path, games=16, overrides=overrides)
    killed: list[int] = []

    def kill_one_worker() -> None:
        workers = wait_for(lambda: spawned_workers(os.getpid()), timeout_s=120)
        if workers:
            time.sleep(1.0)  # into the games (each sleeps delay_s)
            os.kill(workers[0], signal.SIGKILL)
            killed.append(workers[0])

    killer = threading.Thread(target=kill_one_worker, daemon=True)
    killer.start()
    result = run_playtest(config, progress=False)
    killer.join(timeout=5)
    assert killed and not alive(killed[0])
    runs, rows = _stored(config.db, result.run_id)
    assert [r["game_index"] for r in rows] == list(range(16)) and result.played == 16
    # The same games as a run that nobody disturbed (one worker, in this process).
    calm = run_playtest(config.with_(workers=1, overrides={}), progress=False)
    assert _stored(config.db, calm.run_id)[1] == rows


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_batch_that_kills_its_worker_every_time_stops_the_run_with_the_resume_hint(tmp_path):
    retries = execution_settings().batch_retries
    marks = tmp_path / "marks"
    marks.mkdir()
    overrides = {"kill_index": 5, "kill_times": retries + 1, "kill_dir": str(marks)}
    config = _config(tmp_path, overrides=overrides)
    with pytest.raises(WorkerLostError) as failure:
        run_playtest(config, progress=False)
    error = failure.value
    assert deaths(marks) == retries + 1
    message = str(error)
    # Games 4-5 and any batch always in flight beside them hit the limit together.
    assert "SIGKILL" in message and "; games 4-" in message and "--resume" in message
    assert "\n" not in message
    runs, rows = _stored(config.db)
    stored = [r["game_index"] for r in rows]
    assert error.saved == len(stored) and error.run_id == runs[0]["run_id"]
    assert 4 not in stored and 5 not in stored
    # The game has now used up its deaths: --resume plays exactly the missing games.
    resumed = run_playtest(config, progress=False, resume=True)
    assert resumed.run_id == error.run_id and resumed.played == 12 - len(stored)
    assert [r["game_index"] for r in _stored(config.db, resumed.run_id)[1]] == list(range(12))


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_worker_that_dies_once_is_retried_and_the_run_completes(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    config = _config(tmp_path, overrides={"kill_index": 7, "kill_times": 1, "kill_dir": str(marks)})
    result = run_playtest(config, progress=False)
    assert deaths(marks) == 1 and result.played == 12
    assert [r["game_index"] for r in _stored(config.db, result.run_id)[1]] == list(range(12))


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    from riven_env.playtest.backends import _ray_runtime_env

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env=_ray_runtime_env())  # fmt: skip
    yield ray
    ray.shutdown()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ray_retries_a_dead_worker_then_stops_with_the_resume_hint(tmp_path, local_ray):
    retries = execution_settings().batch_retries
    once = tmp_path / "once"
    once.mkdir()
    config = _config(tmp_path, backend="ray", batch_size=3,
                     overrides={"kill_index": 4, "kill_times": 1, "kill_dir": str(once)})  # fmt: skip
    result = run_playtest(config, progress=False)
    assert deaths(once) == 1 and result.played == 12
    assert [r["game_index"] for r in _stored(config.db, result.run_id)[1]] == list(range(12))

    always = tmp_path / "always"
    always.mkdir()
    config = config.with_(overrides={"kill_index": 4, "kill_times": 99, "kill_dir": str(always)})
    with pytest.raises(WorkerLostError) as failure:
        run_playtest(config, progress=False)
    assert deaths(always) == retries + 1
    message = str(failure.value)
    assert "games 3-5" in message and "--resume" in message and "\n" not in message
    runs, rows = _stored(config.db, failure.value.run_id)
    assert failure.value.saved == len(rows) and {3, 4, 5}.isdisjoint(r["game_index"] for r in rows)


def test_ctrl_c_during_a_commit_stores_the_whole_batch_then_stops(tmp_path, monkeypatch):
    original = ResultsDB._insert_columns
    interrupted: list[str] = []

    def interrupting(self, table, rows):
        original(self, table, rows)
        if table == "games" and not interrupted:  # mid-transaction: the other tables follow
            interrupted.append(table)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the signal is delivered here, inside the transaction

    monkeypatch.setattr(ResultsDB, "_insert_columns", interrupting)
    config = _config(tmp_path, workers=1, batch_size=3, player="playtest_fake_game:play_game")
    with pytest.raises(PlaytestInterrupted) as stop:
        run_playtest(config, progress=False)
    assert interrupted and "--resume" in str(stop.value)
    runs, rows = _stored(config.db)
    assert stop.value.saved == len(rows) == 3 and stop.value.run_id == runs[0]["run_id"]
    with ResultsDB(config.db, read_only=True) as db:  # every table holds the whole batch
        (sides,) = db.query("SELECT count(*) AS n FROM game_sides")
        (models,) = db.query("SELECT count(DISTINCT game_index) AS n FROM game_models")
    assert (sides["n"], models["n"]) == (6, 3)


def test_ctrl_c_before_the_first_batch_leaves_no_run(tmp_path, monkeypatch):
    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("riven_env.playtest.runner._iterate", interrupted)
    config = _config(tmp_path, workers=1, player="playtest_fake_game:play_game")
    with pytest.raises(PlaytestInterrupted, match="interrupted: 0 of 12 games are saved"):
        run_playtest(config, progress=False)
    assert _stored(config.db) == ([], [])
