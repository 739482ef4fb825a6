"""`riven bench` end to end, at toy sizes (speed is not asserted); stress-oracle: test_stress_oracle.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app


@pytest.mark.slow
def test_bench_json_has_every_measure() -> None:
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "--scenario",
            "duel-1v1",
            "--env-steps",
            "60",
            "--games",
            "1",
            "--scaling-games",
            "2",
            "--kaz-steps",
            "200",
            "--memory-games",
            "2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    for key in ("env_steps_per_s", "oracle_games_per_s", "kaz_steps_per_s", "kaz_ratio", "scaling"):
        assert key in report
    assert report["kaz_ratio"] == pytest.approx(
        report["env_steps_per_s"] / report["kaz_steps_per_s"]
    )
    assert report["pz_kaz_ratio"] == pytest.approx(
        report["pz_steps_per_s"] / report["kaz_steps_per_s"]
    )
    assert report["details"]["pettingzoo"]["steps"] == 60
    assert set(report["scaling"]["games_per_s"]) == {"1", "2"}
    assert all(v > 0 for v in report["scaling"]["games_per_s"].values())
    memory = report["memory"]
    assert memory["games"] == 2 and memory["warmup_games"] == 1
    if memory["rss_mib"] is not None:  # the OS reports it (Linux, macOS)
        assert memory["rss_mib"] > 0 and memory["rss_mib_after_warmup"] > 0
        assert memory["growth_mib"] == pytest.approx(
            memory["rss_mib"] - memory["rss_mib_after_warmup"]
        )


@pytest.mark.slow
def test_whatif_replays_every_workload_byte_for_byte(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/whatif.py is only a measurement if a replayed pass is the same game."""
    import importlib.util

    from riven_env.game import actions
    from riven_env.game.state import GameState

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "whatif.py"
    spec = importlib.util.spec_from_file_location("riven_whatif", path)
    whatif = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(whatif)
    before = (actions._find_destination, GameState._compute_legal)

    report = whatif.main(
        ["--scenario", "duel-1v1", "--games", "2", "--steps", "30", "--repeat", "1", "--json"]
    )

    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(report))
    assert [r["workload"] for r in report["results"]] == list(whatif.WORKLOADS)
    for result in report["results"]:
        assert len(result["rows"]) == len(whatif.COMBINATIONS)
        assert all(row["same"] for row in result["rows"]), result
        assert result["rows"][0]["free"] == [] and result["rows"][0]["speedup"] == 1.0
        assert result["calls_per_unit"]["legal"] > 0
    games = report["results"][0]["calls_per_unit"]
    assert games["oracle"] == pytest.approx(games["legal"])  # the Oracle decides every time
    assert report["results"][1]["calls_per_unit"]["observation"] > 0
    assert (actions._find_destination, GameState._compute_legal) == before  # put back
