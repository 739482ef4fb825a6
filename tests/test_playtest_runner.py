"""Parallel runs: same per-game results for any worker count and backend; resume; failures."""

from __future__ import annotations

import pytest
from playtest_fake_game import FAKE_SCENARIO

from riven_env.errors import RivenError
from riven_env.playtest.config import PlaytestConfig, game_seed, parse_override
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import GameFailedError, PlaytestError
from riven_env.playtest.runner import run_playtest

FAKE = "playtest_fake_game:play_game"


def _config(tmp_path, **changes) -> PlaytestConfig:
    values = dict(scenario=FAKE_SCENARIO, blue="oracle:aggressive", red="random", games=24,
                  seed=5, workers=1, db=tmp_path / "runs.duckdb", player=FAKE)  # fmt: skip
    values.update(changes)
    return PlaytestConfig(**values)


def _per_game(db_path, run_id):
    with ResultsDB(db_path, read_only=True) as db:
        rows = db.query(
            "SELECT game_index, seed, winner, draw, reason, rounds, first_side, blue_points, "
            "red_points, decisions, summary FROM games WHERE run_id = ? ORDER BY game_index",
            [run_id],
        )
        sides = db.query(
            "SELECT * EXCLUDE (run_id) FROM game_sides WHERE run_id = ? ORDER BY game_index, side",
            [run_id],
        )
    return rows, sides


def test_seeds_depend_only_on_run_seed_and_index():
    assert game_seed(5, 3) == game_seed(5, 3)
    assert len({game_seed(5, i) for i in range(100)}) == 100
    assert game_seed(5, 0) != game_seed(6, 0)
    assert 0 <= game_seed(2**40, 7) < 2**63


def test_override_values_are_typed():
    assert parse_override("turnover=sbh") == ("turnover", "sbh")
    assert parse_override("move = 6") == ("move", 6)
    assert parse_override("x=0.5") == ("x", 0.5)
    assert parse_override("flag=true") == ("flag", True)
    with pytest.raises(PlaytestError, match="KEY=VALUE"):
        parse_override("novalue")


def test_one_and_two_workers_give_identical_games(tmp_path):
    one = run_playtest(_config(tmp_path, workers=1), progress=False)
    two = run_playtest(_config(tmp_path, workers=2, batch_size=5), progress=False)
    assert one.run_id != two.run_id
    assert _per_game(tmp_path / "runs.duckdb", one.run_id) == _per_game(
        tmp_path / "runs.duckdb", two.run_id
    )
    assert one.summary.games == 24 and one.to_json()["wins"] == two.to_json()["wins"]


def test_resume_plays_only_missing_games(tmp_path):
    first = run_playtest(_config(tmp_path, games=10), progress=False)
    resumed = run_playtest(_config(tmp_path, games=25), progress=False, resume=True)
    assert resumed.run_id == first.run_id
    assert (resumed.played, resumed.skipped, resumed.summary.games) == (15, 10, 25)
    fresh = run_playtest(_config(tmp_path, games=25), progress=False)
    assert _per_game(tmp_path / "runs.duckdb", fresh.run_id) == _per_game(
        tmp_path / "runs.duckdb", first.run_id
    )
    again = run_playtest(_config(tmp_path, games=25), progress=False, resume=True)
    assert again.played == 0 and again.run_id == fresh.run_id


def test_resume_refuses_another_experiment(tmp_path):
    first = run_playtest(_config(tmp_path, games=3), progress=False)
    with pytest.raises(PlaytestError, match="different experiment"):
        run_playtest(_config(tmp_path, games=3, seed=9), progress=False, run_id=first.run_id)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"scenario": "nope"}, "unknown scenario"),
        ({"blue": "bogus"}, "unknown agent"),
        ({"overrides": {"nonsense": 1}}, "unknown rules key"),
        ({"player": "no_such_module:play"}, "cannot import"),
    ],
)
def test_bad_input_raises_and_leaves_no_run(tmp_path, changes, message):
    with pytest.raises(RivenError, match=message):
        run_playtest(_config(tmp_path, workers=2, **changes), progress=False)
    with ResultsDB(tmp_path / "runs.duckdb", read_only=True) as db:
        assert db.runs() == []


def test_a_crash_keeps_finished_games(tmp_path):
    config = _config(tmp_path, games=6, player="playtest_crashing_game:play_game", batch_size=2)
    with pytest.raises(GameFailedError, match="ZeroDivisionError") as failure:
        run_playtest(config, progress=False)
    assert failure.value.game_index == 3
    with ResultsDB(tmp_path / "runs.duckdb", read_only=True) as db:
        (run,) = db.runs()
        assert db.finished_indices(run["run_id"]) == {0, 1, 2}


def test_real_games_are_identical_for_one_and_two_workers(tmp_path):
    base = dict(scenario="duel-1v1", blue="random", red="greedy", games=4, seed=1,
                player="riven_env.game.runner:play_game")  # fmt: skip
    one = run_playtest(_config(tmp_path, workers=1, **base), progress=False)
    two = run_playtest(_config(tmp_path, workers=2, batch_size=1, **base), progress=False)
    rows_one, sides_one = _per_game(tmp_path / "runs.duckdb", one.run_id)
    assert len(rows_one) == 4 and len(sides_one) == 8
    assert (rows_one, sides_one) == _per_game(tmp_path / "runs.duckdb", two.run_id)


@pytest.mark.slow
def test_ray_backend_matches_local(tmp_path):
    pytest.importorskip("ray")
    local = run_playtest(_config(tmp_path, games=12), progress=False)
    ray_run = run_playtest(
        _config(tmp_path, games=12, workers=2, backend="ray", batch_size=3), progress=False
    )
    assert _per_game(tmp_path / "runs.duckdb", local.run_id) == _per_game(
        tmp_path / "runs.duckdb", ray_run.run_id
    )
