"""``riven playtest / report / compare / tournament`` from the command line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args))


def test_playtest_json_has_the_documented_keys(tmp_path):
    db = tmp_path / "p.duckdb"
    result = _run("playtest", "--scenario", "duel-1v1", "--blue", "random", "--red", "greedy",
                  "--games", "3", "--workers", "1", "--db", str(db), "--json",
                  "--set", "turnover=sbh", "--export", str(tmp_path / "games.parquet"),
                  "--report", str(tmp_path / "r.html"))  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"games", "wins", "draws", "win_rate", "draw_rate", "mean_rounds", "sides",
                         "config", "metrics", "results"}  # fmt: skip
    assert data["results"] == {"db": str(db), "games": 3}  # where the games went
    assert data["metrics"]["length"]["n"] == 3  # docs/metrics.md
    assert data["games"] == 3 and set(data["wins"]) == {"blue", "red"}
    assert set(data["win_rate"]["blue"]) == {"rate", "low", "high"}
    assert set(data["config"]) == {"scenario", "blue", "red", "games", "seed", "workers",
                                   "backend", "overrides", "engine", "db", "run_id"}  # fmt: skip
    assert data["config"]["overrides"] == {"turnover": "sbh"}
    assert (tmp_path / "games.parquet").exists() and (tmp_path / "r.html").exists()

    report = _run("report", str(db), "-o", str(tmp_path / "again.html"),
                  "--export", str(tmp_path / "tables"), "--format", "csv")  # fmt: skip
    assert report.exit_code == 0, report.output
    assert (tmp_path / "tables" / "game_sides.csv").exists()
    assert (tmp_path / "tables" / "run_metrics.csv").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scenario", "nope", "--blue", "random", "--red", "random"], "unknown scenario"),
        (["--scenario", "duel-1v1", "--blue", "bogus", "--red", "random"], "unknown agent"),
        (["--scenario", "duel-1v1", "--blue", "random", "--red", "random", "--set", "zzz=1"],
         "zzz"),
        (["--scenario", "duel-1v1", "--blue", "random", "--red", "random", "--set", "zzz"],
         "KEY=VALUE"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_without_traceback(tmp_path, args, message):
    result = _run("playtest", *args, "--games", "2", "--db", str(tmp_path / "x.duckdb"))
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_report_of_a_missing_database_fails_cleanly(tmp_path):
    result = _run("report", str(tmp_path / "missing.duckdb"))
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_compare_and_tournament_json(tmp_path):
    db = str(tmp_path / "c.duckdb")
    result = _run("compare", "--scenario", "duel-1v1", "--blue", "random", "--red", "random",
                  "--games", "2", "--workers", "1", "--variant", "turnover=sbh", "--db", db,
                  "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["variants"][0]["label"] == "turnover=sbh" and data["baseline"]["games"] == 2
    result = _run("tournament", "--scenario", "duel-1v1", "--agents", "random,greedy",
                  "--games", "1", "--workers", "1", "--db", db, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert sorted(s["agent"] for s in data["standings"]) == ["greedy", "random"]
    assert len(data["pairings"]) == 2
