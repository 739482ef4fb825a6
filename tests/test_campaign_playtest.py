"""``riven campaign playtest``: campaigns into DuckDB, resumable, per-step rates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app

duckdb = pytest.importorskip("duckdb")
runner = CliRunner()


@pytest.mark.slow
def test_playtest_stores_and_resumes_without_counting_twice(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    args = [
        "campaign",
        "playtest",
        "barrow-delve",
        "--workers",
        "1",
        "--db",
        str(db),
        "--json",
        "--quiet",
    ]
    first = runner.invoke(app, [*args, "--campaigns", "2"])
    assert first.exit_code == 0, first.output
    again = json.loads(runner.invoke(app, [*args, "--campaigns", "3"]).output)
    assert (again["played"], again["campaigns"]) == (1, 3)
    con = duckdb.connect(str(db))
    seeds = [r[0] for r in con.execute("SELECT seed FROM campaign_runs ORDER BY seed").fetchall()]
    steps = con.execute("SELECT count(*) FROM campaign_steps").fetchone()[0]
    con.close()
    assert seeds == [0, 1, 2]
    assert steps == sum(s["played"] for s in again["steps"])
    rate = again["steps"][0]["win_rate"]
    assert rate["n"] == 3 and 0.0 <= rate["low"] <= rate["value"] <= rate["high"] <= 1.0


def test_playtest_bad_count_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "campaign",
            "playtest",
            "barrow-delve",
            "--campaigns",
            "0",
            "--db",
            str(tmp_path / "x.duckdb"),
        ],
    )
    assert result.exit_code == 2
    assert result.output.strip().startswith("error: --campaigns 0")
    assert not (tmp_path / "x.duckdb").exists()
