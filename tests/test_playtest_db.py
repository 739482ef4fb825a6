"""The results database: schema, per-game tables, export."""

from __future__ import annotations

import csv

import pytest
from playtest_fake_game import FAKE_SCENARIO

from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import TABLES, ResultsDB
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.runner import run_playtest


@pytest.fixture
def stored(tmp_path):
    config = PlaytestConfig(scenario=FAKE_SCENARIO, blue="oracle:tactical", red="random", games=8,
                            seed=2, workers=1, db=tmp_path / "r.duckdb",
                            overrides={"blue_edge": 0.1},
                            player="playtest_fake_game:play_game")  # fmt: skip
    return run_playtest(config, progress=False)


def test_every_table_holds_the_run(stored):
    with ResultsDB(stored.config.db, read_only=True) as db:
        run = db.run(stored.run_id)
        assert run["games_requested"] == 8 and run["overrides"] == '{"blue_edge": 0.1}'
        assert run["code_version"].startswith("0.")
        for table in TABLES:
            (row,) = db.query(
                f"SELECT count(*) AS n FROM {table} WHERE run_id = ?", [stored.run_id]
            )
            assert row["n"] > 0, table
        sides = db.query(
            "SELECT count(*) AS n, sum(won::INT) AS wins FROM game_sides WHERE run_id = ?",
            [stored.run_id],
        )[0]
        assert sides["n"] == 16 and sides["wins"] == sum(stored.summary.wins.values())
        models = db.query("SELECT count(*) AS n FROM game_models WHERE run_id = ?", [stored.run_id])
        assert models[0]["n"] == 8 * 4
        summaries = db.summaries(stored.run_id)
        assert [s.seed for s in summaries] == [g["seed"] for g in db.games(stored.run_id)]


def test_latest_run_and_unknown_run(stored):
    with ResultsDB(stored.config.db, read_only=True) as db:
        assert db.run()["run_id"] == stored.run_id
        with pytest.raises(PlaytestError, match="not in"):
            db.run("missing")


def test_export_parquet_and_csv(stored, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    with ResultsDB(stored.config.db, read_only=True) as db:
        paths = db.export_all(tmp_path / "out", [stored.run_id])
        csv_path = db.export_table("games", tmp_path / "games.csv", [stored.run_id], ("summary",))
        with pytest.raises(PlaytestError, match="suffix"):
            db.export_table("games", tmp_path / "games.xlsx")
        with pytest.raises(PlaytestError, match="no column"):
            db.export_table("games", tmp_path / "g.csv", exclude=("nope",))
    assert sorted(p.name for p in paths) == sorted(f"{t}.parquet" for t in TABLES)
    parquet = tmp_path / "out" / "games.parquet"
    count = duckdb.connect().execute(f"SELECT count(*) FROM '{parquet}'").fetchall()
    assert count[0][0] == 8
    with csv_path.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 8 and "summary" not in rows[0] and "winner" in rows[0]


def test_missing_database_is_an_error(tmp_path):
    with pytest.raises(PlaytestError, match="does not exist"):
        ResultsDB(tmp_path / "none.duckdb", read_only=True)
