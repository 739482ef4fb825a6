"""Meta-game: Nash mixture, alpha-rank, dominance and cycles on known matrices."""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.analytics.matrix import Matrix, add_run
from riven_env.analytics.meta import alpha_rank, analyse, cycles, dominant, nash_mixture

RPS = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])  # row's score


def test_rock_paper_scissors_nash_and_alpha_rank_are_uniform():
    x, value = nash_mixture(RPS - 0.5)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert value == pytest.approx(0.0, abs=1e-9)
    assert alpha_rank(RPS) == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_a_dominant_strategy_takes_the_mass():
    payoff = np.array([[0.5, 0.8, 0.9], [0.2, 0.5, 0.6], [0.1, 0.4, 0.5]])
    x, _ = nash_mixture(payoff - 0.5)
    assert x == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    ranks = alpha_rank(payoff)
    assert ranks[0] > 0.99


def test_matching_pennies_mixture():
    x, value = nash_mixture(np.array([[2.0, -1.0], [-1.0, 1.0]]))
    # Row mixes 2/5, 3/5; value 1/5.
    assert x == pytest.approx([0.4, 0.6], abs=1e-6)
    assert value == pytest.approx(0.2, abs=1e-6)


def cycle_matrix(games: int) -> Matrix:
    m = Matrix(labels=["rock", "paper", "scissors"])
    # Row beats column: paper > rock, scissors > paper, rock > scissors (on both colours).
    beats = {(1, 0), (2, 1), (0, 2)}
    for i in range(3):
        for j in range(3):
            if i != j:
                add_run(m, i, j, ["blue" if (i, j) in beats else "red"] * games)
    return m


def test_cycles_and_no_dominant_roster_are_flagged():
    m = cycle_matrix(20)
    assert cycles(m) == [["rock", "scissors", "paper"]]
    assert dominant(m) == []
    game = analyse(m, "g", "s", "oracle")
    assert game.nash == pytest.approx({"rock": 1 / 3, "paper": 1 / 3, "scissors": 1 / 3}, abs=1e-6)
    assert game.cycles and game.to_json()["alpha_rank_params"]["alpha"] > 0


def test_a_roster_that_beats_all_is_dominant():
    m = Matrix(labels=["a", "b", "c"])
    for i in range(3):
        for j in range(3):
            if i != j:
                add_run(m, i, j, ["blue" if i == 0 else "red" if j == 0 else None] * 12)
    assert dominant(m) == ["a"]
    assert cycles(m, significant=False) == []


def test_score_interval_counts_draws_half_and_never_collapses():
    from riven_env.analytics.metrics import score_interval

    est = score_interval([1.0, 0.5, 0.0, 0.5])
    assert est.value == pytest.approx(0.5)
    assert 0.0 < est.low < 0.5 < est.high < 1.0
    sure = score_interval([1.0] * 4)
    assert sure.value == 1.0 and sure.low < 1.0 and sure.high == 1.0


def test_cli_meta_and_skill_trace_end_to_end(tmp_path):
    import json

    from typer.testing import CliRunner

    from riven_env.analytics.report import write_report
    from riven_env.analytics.store import has_table
    from riven_env.cli.main import app
    from riven_env.playtest.db import ResultsDB

    db = tmp_path / "m.duckdb"
    result = CliRunner().invoke(app, [
        "meta", "--scenario", "skirmish-5v5", "--rosters", "scenarios/rosters/wardens.toml",
        "scenarios/rosters/brutes.toml", "--games", "1", "--workers", "1", "--db", str(db),
        "--max-decisions", "30", "--agent", "random", "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["labels"] == ["wardens", "brutes"]
    assert sum(data["nash"].values()) == pytest.approx(1.0)
    result = CliRunner().invoke(app, [
        "skill-trace", "duel-1v1", "--agents", "random,greedy", "--games", "1",
        "--workers", "1", "--db", str(db), "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)
    assert trace["ladder"] == ["random", "greedy"] and "kendall_tau" in trace
    with ResultsDB(db) as handle:
        assert has_table(handle, "meta_strategies") and has_table(handle, "skill_trace")
        rows = handle.query("SELECT count(*) AS n FROM skill_trace")
        assert rows[0]["n"] == 2 * 3  # two ordered cells, three colours each
        last = handle.runs()[-1]
    text = write_report(db, last["run_id"], tmp_path / "r.html").read_text()
    assert 'id="skill-trace"' in text
    bad = CliRunner().invoke(app, ["meta", "--scenario", "skirmish-5v5", "--rosters",
                                   str(tmp_path / "missing.toml"), "--db", str(db)])  # fmt: skip
    assert bad.exit_code == 2 and "error:" in bad.output
