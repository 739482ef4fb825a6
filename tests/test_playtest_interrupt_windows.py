"""Ctrl-C in the moments around a playtest's games: the database's open and close, the
measures after the last game, the printing of the result.

A CI run caught one: SIGINT landing while the results file was closed (DuckDB checks for
signals as it checkpoints; ``ResultsDB.close`` holds the signal and raises it once closed),
outside the run's own handler, so the command exited 130 without a word. Each window is
driven here without timing: the signal is raised (or sent to this process) from inside it.
"""

from __future__ import annotations

import json
import os
import signal

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.runner import PlaytestInterrupted, run_playtest

GAMES = 3


def _config(db) -> PlaytestConfig:
    return PlaytestConfig(scenario="duel-1v1", blue="oracle", red="oracle", games=GAMES,
                          workers=1, db=db)  # fmt: skip


def _command(db) -> list[str]:
    return ["playtest", "--scenario", "duel-1v1", "--blue", "oracle", "--red", "oracle",
            "--games", str(GAMES), "--workers", "1", "--db", str(db), "--json", "--quiet"]  # fmt: skip


def test_ctrl_c_while_the_results_file_closes_counts_what_it_holds(tmp_path, monkeypatch):
    closed = ResultsDB.close
    calls = []

    def close_then_interrupted(self: ResultsDB) -> None:
        closed(self)
        calls.append(self)
        if len(calls) == 1:  # the run's own file: the held SIGINT is raised once it is closed
            raise KeyboardInterrupt

    monkeypatch.setattr(ResultsDB, "close", close_then_interrupted)
    with pytest.raises(PlaytestInterrupted) as stopped:
        run_playtest(_config(tmp_path / "p.duckdb"), progress=False)
    assert stopped.value.saved == GAMES and stopped.value.run_id is not None
    assert f"{GAMES} of {GAMES} games of run {stopped.value.run_id} are saved" in str(stopped.value)


def test_ctrl_c_while_the_run_is_measured_exits_130_with_the_saved_count(tmp_path, monkeypatch):
    import riven_env.analytics.metrics as metrics

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(metrics, "attach_metrics", interrupted)
    result = CliRunner().invoke(app, _command(tmp_path / "p.duckdb"))
    assert result.exit_code == 130, result.output
    (line,) = result.stderr.strip().splitlines()
    assert f"interrupted: {GAMES} of {GAMES} games" in line and "--resume" in line


def test_ctrl_c_while_the_result_is_printed_prints_it_whole_and_ends_as_finished(
    tmp_path, monkeypatch
):
    import riven_env.cli.playtest as playtest_cli

    printed = playtest_cli.echo_json

    def signalled_then_printed(obj) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # held until the result is printed
        printed(obj)

    monkeypatch.setattr(playtest_cli, "echo_json", signalled_then_printed)
    result = CliRunner().invoke(app, _command(tmp_path / "p.duckdb"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == GAMES and data["results"]["games"] == GAMES
