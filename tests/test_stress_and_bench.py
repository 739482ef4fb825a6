"""`riven bench` end to end, at toy sizes (speed is not asserted); stress-oracle: test_stress_oracle.py."""

from __future__ import annotations

import json

import pytest
from benchmark_scripts import load_benchmark
from typer.testing import CliRunner

from riven_env.cli.main import app


@pytest.mark.slow
def engines_cpu(report: dict, engine: str, measure: str) -> float:
    """A per-engine CPU rate of the bench's details."""
    return report["details"]["engines"][engine][measure]["steps_per_cpu_s"]


def test_bench_json_has_every_measure() -> None:
    from riven_env.bench import QUICK, TARGETS

    result = CliRunner().invoke(app, ["bench", "--scenario", "duel-1v1", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    for key in ("env_steps_per_s", "oracle_games_per_s", "kaz_steps_per_s", "kaz_ratio", "scaling"):
        assert key in report
    assert report["quick"] is True
    assert report["kaz_ratio"] == pytest.approx(
        report["env_steps_per_s"] / report["kaz_steps_per_s"]
    )
    assert report["pz_kaz_ratio"] == pytest.approx(
        report["pz_steps_per_s"] / report["kaz_steps_per_s"]
    )
    assert report["details"]["pettingzoo"]["steps"] == QUICK["env_steps"]
    assert set(report["scaling"]["games_per_s"]) == {"1", "2"}
    assert all(v > 0 for v in report["scaling"]["games_per_s"].values())
    # Issue 13: both engines in one run, the speed-ups, the batched env, memory per game.
    assert set(report["speedup"]) == {
        "env_steps_vs_random",
        "env_steps_vs_oracle",
        "oracle_games",
        "mcts_simulations",
        "batched_env_steps_vs_oracle",
        "train_timesteps",
    }
    assert all(v > 0 for v in report["speedup"].values())
    assert report["batched_oracle"]["backend"] == "batched"
    assert report["speedup"]["batched_env_steps_vs_oracle"] == pytest.approx(
        report["batched_oracle"]["steps_per_cpu_s"] / engines_cpu(report, "python", "env_oracle")
    )
    engines = report["details"]["engines"]
    assert report["speedup"]["env_steps_vs_random"] == pytest.approx(
        engines["native"]["env_random"]["steps_per_cpu_s"]
        / engines["python"]["env_random"]["steps_per_cpu_s"]
    )
    # riven train on both engines: the time split of each, the native one on the batch.
    training = report["train"]
    assert training["vec_env"] == {"python": "SubprocVecEnv", "native": "RivenSB3VecEnv"}
    for engine in ("python", "native"):
        assert training[engine]["timesteps"] >= QUICK["train_timesteps"]
        assert set(training[engine]["seconds"]) == {"env", "policy", "update", "housekeeping"}
    assert report["speedup"]["train_timesteps"] == pytest.approx(
        training["native"]["timesteps_per_s"] / training["python"]["timesteps_per_s"]
    )
    assert report["batched"]["games"] == 64 and report["batched"]["backend"] == "batched"
    assert report["batched"]["steps_per_s"] > 0
    assert report["batched_kaz_ratio"] == pytest.approx(
        report["batched"]["steps_per_cpu_s"] / report["kaz_steps_per_cpu_s"]
    )
    assert set(report["engines"]) == {"python", "native"}
    assert report["memory_per_game"]["native_bytes"] > 0
    assert report["memory_per_game"]["python_bytes"] > 0
    from riven_env.bench import ORACLE_ON_NATIVE

    assert report["oracle"] == ORACLE_ON_NATIVE
    for key in TARGETS:
        assert key in report["targets"] and isinstance(report["met"][key], bool)
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
    from riven_env.game import actions
    from riven_env.game.state import GameState

    whatif = load_benchmark("whatif")
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
