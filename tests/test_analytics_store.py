"""Analytics tables beside the games: trajectories stored by the runner, metrics, export."""

from __future__ import annotations

import duckdb
from playtest_fake_game import FAKE_SCENARIO

from riven_env.analytics.metrics import facts_from_db, run_metrics, store_metrics
from riven_env.analytics.report import write_report
from riven_env.analytics.store import export_analytics, trajectories
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.runner import run_playtest

FAKE = "playtest_fake_game:play_game"


def test_runner_stores_trajectories_and_metrics_are_queryable(tmp_path):
    db_path = tmp_path / "runs.duckdb"
    config = PlaytestConfig(scenario=FAKE_SCENARIO, blue="oracle", red="random", games=8,
                            seed=3, workers=1, db=db_path, player=FAKE)  # fmt: skip
    result = run_playtest(config, progress=False)
    with ResultsDB(db_path) as db:
        paths = trajectories(db, result.run_id)
        assert sorted(paths) == list(range(8))
        facts = facts_from_db(db, result.run_id)
        assert len(facts) == 8 and all(f.trajectory for f in facts)
        # The last checkpoint carries the final points of the game.
        games = {g["game_index"]: g for g in db.games(result.run_id)}
        for index, rows in paths.items():
            assert rows[-1]["blue_points"] == games[index]["blue_points"]
        metrics = run_metrics(db, result.run_id)
        assert metrics["length"].estimate.n == 8
        store_metrics(db, result.run_id, metrics)
        store_metrics(db, result.run_id, metrics)  # replaces, never duplicates
        rows = db.query(
            "SELECT count(*) AS n FROM run_metrics WHERE run_id = ? AND part = ''", [result.run_id]
        )
        assert rows[0]["n"] == len(metrics)
        written = export_analytics(db, tmp_path / "out", "parquet")
    names = {p.stem for p in written}
    assert {"game_trajectory", "run_metrics"} <= names
    count = duckdb.sql(f"SELECT count(*) FROM '{tmp_path / 'out' / 'run_metrics.parquet'}'")
    assert count.fetchall()[0][0] > len(metrics)
    report = write_report(db_path, result.run_id, tmp_path / "r.html").read_text()
    assert 'id="game-metrics"' in report and "decisiveness" in report


def test_tables_of_an_earlier_version_gain_new_columns(tmp_path):
    from riven_env.analytics.store import ensure_tables, insert_rows

    with ResultsDB(tmp_path / "old.duckdb") as db:
        db.execute("CREATE TABLE meta_strategies (group_id VARCHAR, roster VARCHAR, nash DOUBLE, "
                   "alpha_rank DOUBLE, flags JSON)")  # fmt: skip
        ensure_tables(db)
        insert_rows(db, "meta_strategies", [("g", "skirmish-5v5", "a", 0.5, 0.4, {"x": 1})])
        row = db.query("SELECT scenario, roster, nash FROM meta_strategies")[0]
    assert row == {"scenario": "skirmish-5v5", "roster": "a", "nash": 0.5}
