"""Points above 2**31 (any value a valid scenario allows) are stored; a value the database
cannot hold is one line and leaves no run behind; old 32-bit files are widened."""

from __future__ import annotations

from pathlib import Path

import duckdb
from typer.testing import CliRunner

from riven_env.cli.main import app
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import TABLES, ResultsDB
from riven_env.playtest.runner import run_playtest

ROOT = Path(__file__).resolve().parents[1]
# The most a single score may be (scenario.max_points in riven_env/data/limits.toml); a game's
# total of several such scores passes 2**31, which the 32-bit columns refused before.
MOST = 2**31 - 1
BIG = 2**31


def _duel_with_points(tmp_path: Path, points: int) -> Path:
    # The duel as it was before issue 15 tuned it: its Oracle mirror scores both the circle
    # and a casualty in one game, so two scores of ``points`` add up.
    text = (ROOT / "tests" / "data" / "pre-balance" / "duel-1v1.toml").read_text(encoding="utf-8")
    text = text.replace("points = 1", f"points = {points}")
    assert text.count(f"points = {points}") == 2  # the objective and the casualties
    path = tmp_path / "rich-duel.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_points_above_2_31_are_stored_as_played(tmp_path):
    scenario = _duel_with_points(tmp_path, MOST)
    config = PlaytestConfig(scenario=str(scenario), blue="oracle", red="oracle", games=4,
                            workers=1, db=tmp_path / "p.duckdb")  # fmt: skip
    result = run_playtest(config, progress=False)
    with ResultsDB(config.db, read_only=True) as db:
        games = db.games(result.run_id)
        sides = db.query("SELECT points FROM game_sides WHERE run_id = ?", [result.run_id])
    stored = [g["blue_points"] for g in games] + [g["red_points"] for g in games]
    assert max(stored) >= BIG and max(s["points"] for s in sides) >= BIG
    summaries = {s.points["blue"] for s in ResultsDB(config.db, read_only=True).summaries(
        result.run_id)}  # fmt: skip
    assert summaries == {g["blue_points"] for g in games}
    # riven play on the same file agrees on game 0's points.
    played = CliRunner().invoke(app, ["play", "--scenario", str(scenario), "--blue", "oracle",
                                      "--red", "oracle", "--seed", str(games[0]["seed"]),
                                      "--json"])  # fmt: skip
    assert played.exit_code == 0, played.output
    assert f'"blue": {games[0]["blue_points"]}' in played.stdout


def test_a_value_beyond_64_bits_is_one_line_and_leaves_no_half_written_run(tmp_path):
    # Two scorings of 2**62 pass 2**63 - 1. Whether scenario validation refuses the value
    # or the database does, the command says so (one line, or one line per problem when the
    # mission has several), names the points, and stores only whole games: no run row
    # without games, no game without its side rows.
    scenario = _duel_with_points(tmp_path, 2**62)
    db = tmp_path / "p.duckdb"
    result = CliRunner().invoke(app, ["playtest", "--scenario", str(scenario), "--blue", "oracle",
                                      "--red", "oracle", "--games", "4", "--workers", "1",
                                      "--db", str(db), "--json"])  # fmt: skip
    assert result.exit_code == 2, result.output
    line, *problems = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and "Traceback" not in result.output
    assert all(p.startswith("  ") for p in problems) and "points" in result.stderr
    assert not problems or line.endswith(f"invalid ({len(problems)} problems)")
    with ResultsDB(db, read_only=True) as handle:
        runs = handle.runs()
        games = handle.query("SELECT run_id, game_index FROM games")
        sides = handle.query("SELECT run_id, game_index FROM game_sides")
    assert len(runs) <= 1 and {g["run_id"] for g in games} == {r["run_id"] for r in runs}
    assert sorted(map(tuple, map(dict.values, sides))) == sorted(
        2 * [tuple(g.values()) for g in games]
    )


def test_a_32_bit_database_file_is_widened_when_opened(tmp_path):
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    for name, columns in TABLES.items():
        body = ", ".join(f"{c} {'INTEGER' if k == 'BIGINT' and c != 'seed' else k}"
                         for c, k in columns)  # fmt: skip
        con.execute(f"CREATE TABLE {name} ({body})")
    con.execute("INSERT INTO games (run_id, game_index, blue_points) VALUES ('r', 0, 7)")
    con.close()
    with ResultsDB(path) as db:
        kinds = dict(
            (row["column_name"], row["data_type"])
            for row in db.query(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = 'game_sides'"
            )
        )
        assert kinds["points"] == "BIGINT" and kinds["game_index"] == "INTEGER"
        assert db.query("SELECT blue_points FROM games") == [{"blue_points": 7}]
