"""``riven campaign compare`` (variants on common seeds), ``--workers``, and a killed campaign
playtest that resumes with no campaign lost or counted twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app

duckdb = pytest.importorskip("duckdb")
runner = CliRunner()
TABLES = ("campaign_runs", "campaign_steps", "campaign_models", "campaign_fates",
          "campaign_advances", "campaign_roster")  # fmt: skip


def _rows(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        con.close()


def test_unknown_key_is_one_line_with_a_suggestion(tmp_path: Path) -> None:
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["campaign", "compare", "iron-road", "--set",
                                 "fate.out.mis=injury", "--db", str(db)])  # fmt: skip
    assert result.exit_code == 2
    assert result.output.strip() == (
        "error: --set fate.out.mis: unknown campaign rules key; did you mean fate.out.miss? "
        "(or fate.out.hit, fate.down.miss)"
    )
    assert not db.exists()


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("fate.out.miss=harsh", "error: --set fate.out.miss=harsh: fate.out.miss: bad value "
         "'harsh'; allowed: recovered, convalesce, injury, dead"),
        ("recruitment.income=-1", "error: --set recruitment.income=-1: recruitment.income: "),
        ("fate.out.miss", "error: --set 'fate.out.miss': expected KEY=VALUE"),
    ],
)  # fmt: skip
def test_bad_variant_is_one_line_and_writes_nothing(
    tmp_path: Path, setting: str, message: str
) -> None:
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["campaign", "compare", "iron-road", "--set", setting,
                                 "--db", str(db)])  # fmt: skip
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith(message), result.output
    assert not db.exists()


def test_compare_needs_a_variant(tmp_path: Path) -> None:
    result = runner.invoke(app, ["campaign", "compare", "iron-road", "--db",
                                 str(tmp_path / "x.duckdb")])  # fmt: skip
    assert result.exit_code == 2 and result.output.startswith("error: --set: give at least one")


@pytest.mark.slow
def test_arms_play_the_same_seeds(tmp_path: Path) -> None:
    """A variant that sets a key to its own value plays exactly the baseline's campaigns
    (common seeds); a real change is a separate run of its own on the same seeds."""
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, [
        "campaign", "compare", "barrow-delve", "--set", "fate.fled.outcome=recovered",
        "--set", "solo.out_difficulty=brutal&fate.out.miss=dead", "--campaigns", "3",
        "--workers", "1", "--db", str(db), "--json", "--quiet", "--seed", "5",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    same, harsh = data["variants"]
    assert data["seeds"] == [5, 7]
    assert same["results"] == data["baseline"]["results"]
    assert same["mission_win_rate"] == data["baseline"]["mission_win_rate"]
    assert same["lived_through_diff"]["value"] == 0.0
    assert same["mission_win_rate_diff"]["value"] == 0.0
    assert harsh["overrides"] == {"solo.out_difficulty": "brutal", "fate.out.miss": "dead"}
    for arm in (data["baseline"], same, harsh):
        assert arm["campaigns"] == 3
        rate = arm["lived_through"]
        assert 0.0 <= rate["low"] <= rate["value"] <= rate["high"] <= 1.0
    con = duckdb.connect(str(db), read_only=True)
    keys = con.execute("SELECT run_key, list(seed ORDER BY seed) FROM campaign_runs "
                       "GROUP BY run_key ORDER BY run_key").fetchall()  # fmt: skip
    base_steps = con.execute("SELECT seed, step, result, alive FROM campaign_steps WHERE run_key "
                             "= 'barrow-delve|oracle|oracle|oracle' ORDER BY seed, step").fetchall()  # fmt: skip
    same_steps = con.execute("SELECT seed, step, result, alive FROM campaign_steps WHERE run_key "
                             "LIKE '%fate.fled.outcome=recovered' ORDER BY seed, step").fetchall()  # fmt: skip
    con.close()
    assert [k for k, _ in keys] == [
        "barrow-delve|oracle|oracle|oracle",
        "barrow-delve|oracle|oracle|oracle|fate.fled.outcome=recovered",
        "barrow-delve|oracle|oracle|oracle|solo.out_difficulty=brutal&fate.out.miss=dead",
    ]
    assert all(seeds == [5, 6, 7] for _, seeds in keys)
    assert same_steps == base_steps
    # Run again: every arm is stored, nothing is played or counted twice.
    again = runner.invoke(app, [
        "campaign", "compare", "barrow-delve", "--set", "fate.fled.outcome=recovered",
        "--campaigns", "3", "--workers", "1", "--db", str(db), "--json", "--quiet", "--seed", "5",
    ])  # fmt: skip
    assert json.loads(again.output)["baseline"] == data["baseline"]


@pytest.mark.slow
def test_two_workers_store_the_same_rows_as_one(tmp_path: Path) -> None:
    for workers in ("1", "2"):
        result = runner.invoke(app, [
            "campaign", "playtest", "iron-road", "--campaigns", "3", "--workers", workers,
            "--db", str(tmp_path / f"w{workers}.duckdb"), "--quiet", "--json",
        ])  # fmt: skip
        assert result.exit_code == 0, result.output
    one, two = _rows(tmp_path / "w1.duckdb"), _rows(tmp_path / "w2.duckdb")
    assert [r[2] for r in one["campaign_runs"]] == [0, 1, 2]
    for table in TABLES:
        assert one[table] == two[table], table
    assert one["campaign_roster"] and one["campaign_advances"]


_DRIVER = """
import sys
from riven_env.campaign.playtest import run_campaign_playtest

def done(count, total):
    print(f"stored {count}", flush=True)

run_campaign_playtest("barrow-delve", 8, sys.argv[1], workers=1, on_done=done)
"""


@pytest.mark.slow
def test_a_killed_playtest_resumes_with_no_campaign_lost_or_counted_twice(tmp_path: Path) -> None:
    killed = tmp_path / "killed.duckdb"
    child = subprocess.Popen(
        [sys.executable, "-c", _DRIVER, str(killed)], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert child.stdout is not None
    lines = [child.stdout.readline() for _ in range(2)]
    assert lines == ["stored 1\n", "stored 2\n"]
    time.sleep(0.3)  # into the next campaign (or its transaction)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    stored = _rows(killed)["campaign_runs"]
    assert 2 <= len(stored) < 8

    resumed = runner.invoke(app, ["campaign", "playtest", "barrow-delve", "--campaigns", "8",
                                  "--workers", "1", "--db", str(killed), "--json", "--quiet"])  # fmt: skip
    assert resumed.exit_code == 0, resumed.output
    out = json.loads(resumed.output)
    assert out["campaigns"] == 8 and out["played"] == 8 - len(stored)

    clean = tmp_path / "clean.duckdb"
    whole = runner.invoke(app, ["campaign", "playtest", "barrow-delve", "--campaigns", "8",
                                "--workers", "1", "--db", str(clean), "--json", "--quiet"])  # fmt: skip
    assert whole.exit_code == 0, whole.output
    assert _rows(killed) == _rows(clean)
