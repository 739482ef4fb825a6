"""Oracle games played wholly in the native core (issue 13): the Python engine's log, byte for byte.

``play()`` on a native game whose two agents sit in the core (the Enemy Oracle, plain
``oracle`` or ``native-oracle``, with each side's own profiles or a forced one, and the random
agent) plays the whole game in one native call (``play_seats``, cpp/riven/oracle/play.cpp):
``riven::oracle::decide`` on the loop's own state with the core's routing, the
``oracle_decision`` explanation worded in the core. Its event log (``dumps_event``) equals the
Python engine's with the Python Oracle, seed for seed, on every bundled mission; the Oracle
deciding per decision on the native state (``act_in_core``, no export) gives the same log; and
the batched environment with an Oracle opponent equals N single Python environments.
"""

from __future__ import annotations

from typing import Any

import pytest

from riven_env.engines import new_game, play_game
from riven_env.game.events import dumps_event
from riven_env.game.runner import agent_seeds, play
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import batch_lockstep, missions  # noqa: E402

# Missions light enough for the default run; the others are slow-marked.
LIGHT = ("duel-1v1", "skirmish-5v5", "ranged-vs-melee", "open-field")


def _agents(blue: str, red: str, seed: int) -> dict[str, Any]:
    from riven_agents.registry import make_agent

    seeds = agent_seeds(seed)
    return {
        side: make_agent(spec, side, seeds[side]) for side, spec in (("blue", blue), ("red", red))
    }


def _log(scenario: str, blue: str, red: str, seed: int, engine: str) -> list[str]:
    return [dumps_event(e) for e in play_game(scenario, blue, red, seed, engine=engine)]


def _in_core(scenario: str, blue: str, red: str, seed: int) -> list[str]:
    """The native game through play_in_core itself (asserting it really played it all)."""
    from riven_env.native.play import play_in_core

    state = new_game(scenario, seed, engine="native")
    agents = _agents(blue, red, seed)
    lines = [dumps_event(e) for e in state.drain_events()]
    found = play_in_core(state, agents)
    assert found is not None, "the agents did not sit in the core"
    assert state.is_terminal
    return lines + [dumps_event(e) for e in found[0]]


def _check_mission(mission: str, seeds: tuple[int, ...]) -> int:
    games = 0
    for seed in seeds:
        python = _log(mission, "oracle", "oracle", seed, "python")
        native = _log(mission, "oracle", "oracle", seed, "native")
        assert native == python, (mission, seed)
        assert any('"type":"oracle_decision"' in line for line in native)
        games += 1
    return games


@pytest.mark.parametrize("mission", LIGHT)
def test_oracle_games_in_the_core_write_the_python_log(mission: str) -> None:
    assert _check_mission(mission, (0, 1, 2)) == 3


@pytest.mark.slow
@pytest.mark.parametrize("mission", [m for m in missions() if m not in LIGHT])
def test_oracle_games_in_the_core_write_the_python_log_on_every_mission(mission: str) -> None:
    assert _check_mission(mission, (0, 1, 2)) == 3


@pytest.mark.parametrize(
    ("blue", "red"),
    [
        ("oracle", "random"),
        ("random", "native-oracle"),
        ("oracle:tactical", "oracle:beast"),
        ("native-oracle:defensive", "oracle"),
    ],
)
def test_mixed_seats_and_forced_profiles(blue: str, red: str) -> None:
    for seed in (3, 4):
        python = _log("skirmish-5v5", blue, red, seed, "python")
        # play_game's first event names the agents: compare from the core's own start.
        assert _in_core("skirmish-5v5", blue, red, seed)[1:] == python[1:], (blue, red, seed)
        assert _log("skirmish-5v5", blue, red, seed, "native") == python


def test_the_oracle_per_decision_on_the_native_state_is_the_python_oracle() -> None:
    # on_decision keeps play() deciding one decision at a time: each Oracle decides in the
    # core from the NativeGameState (no Python view is built), with its words.
    from riven_env.native.loop import NativeGameState

    for blue, red in (("oracle", "native-oracle"), ("native-oracle:aggressive", "random")):
        logs = []
        for engine in ("python", "native"):
            state = new_game("ruins", 5, engine=engine)
            exported = []
            if engine == "native":
                assert isinstance(state, NativeGameState)
                built = NativeGameState.python_state

                def spy(self, built=built, exported=exported):  # counts Python views built
                    exported.append(1)
                    return built(self)

                NativeGameState.python_state = spy  # type: ignore[method-assign]
            try:
                events = play(state, _agents(blue, red, 5), on_decision=lambda s: None)
            finally:
                if engine == "native":
                    NativeGameState.python_state = built  # type: ignore[method-assign]
            logs.append([dumps_event(e) for e in events])
            if engine == "native":
                assert exported == [], "the Oracle exported the native state"
        assert logs[0] == logs[1], (blue, red)


def test_streams_come_back_from_the_core() -> None:
    # After a game in the core each agent's stream is where the Python game leaves it.
    finals = []
    for engine in ("python", "native"):
        state = new_game("duel-1v1", 9, engine=engine)
        agents = _agents("oracle", "random", 9)
        play(state, agents)
        finals.append([a.rng.bit_generator.state for a in agents.values()])
    assert finals[0] == finals[1]


def test_max_decisions_stops_the_core_where_python_stops() -> None:
    logs = []
    for engine in ("python", "native"):
        state = new_game("skirmish-5v5", 2, engine=engine)
        events = play(state, _agents("oracle", "oracle", 2), max_decisions=37)
        logs.append([dumps_event(e) for e in events])
        assert not state.is_terminal
    assert logs[0] == logs[1]


def test_costs_are_counted_per_side_in_the_core() -> None:
    costs: dict[str, dict[str, Any]] = {}
    state = new_game("duel-1v1", 1, engine="native")
    events = play(state, _agents("oracle", "oracle", 1), costs=costs)
    decisions = sum(1 for e in events if e["type"] == "oracle_decision")
    assert sum(c["decisions"] for c in costs.values()) == decisions > 0
    assert all(c["seconds"] >= 0 and c["cpu_seconds"] >= 0 for c in costs.values())


# ---------------------------------------------------------------- the batched env
def _lockstep(
    scenario: str, opponent: str, learner_side: str, steps: int, n: int = 3, seed: int = 21
) -> int:
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.envs.vector import RivenVectorEnv

    batch = RivenVectorEnv(n, scenario, opponent, engine="native", learner_side=learner_side)
    assert batch.backend == "batched"
    envs = [
        RivenSkirmishEnv(
            scenario, opponent, learner_side=learner_side, obs_mode="flat", engine="python"
        )
        for _ in range(n)
    ]
    episodes = batch_lockstep(batch, envs, seed, steps)
    batch.close()
    return episodes


@pytest.mark.parametrize(
    ("scenario", "opponent", "learner_side", "steps"),
    [
        ("duel-1v1", "oracle", "random", 150),
        ("skirmish-5v5", "oracle:tactical", "blue", 80),
        ("ranged-vs-melee", "oracle", "red", 60),
    ],
)
def test_batch_with_an_oracle_opponent_equals_single_python_envs(
    scenario: str, opponent: str, learner_side: str, steps: int
) -> None:
    episodes = _lockstep(scenario, opponent, learner_side, steps)
    assert episodes >= 1


# ---------------------------------------------------------------- the commands
def test_playtest_on_the_native_engine_gives_the_python_results(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    from riven_env.cli.main import app

    results = {}
    for engine in ("python", "native"):
        out = CliRunner().invoke(
            app,
            ["playtest", "--scenario", "duel-1v1", "--blue", "oracle", "--red", "oracle", "--games", "4",
             "--workers", "1", "--seed", "3", "--engine", engine, "--db",
             str(tmp_path / f"{engine}.duckdb"), "--json", "--quiet"],
        )  # fmt: skip
        assert out.exit_code == 0, out.output
        report = json.loads(out.stdout)
        results[engine] = {
            k: report[k] for k in ("games", "wins", "draws", "win_rate", "mean_rounds")
        }
    assert results["native"] == results["python"]


def test_balance_check_takes_the_engine_and_stores_it(tmp_path) -> None:
    import json

    from riven_env.balance.check import check_balance
    from riven_env.playtest.db import ResultsDB

    found = {}
    for engine in ("python", "native"):
        db = tmp_path / f"{engine}.duckdb"
        result = check_balance(
            "duel-1v1", pairs=3, workers=1, progress=False, db_path=db, engine=engine
        )
        assert result.estimate.games == 6
        found[engine] = result.estimate.to_dict()["win_rate"]
        with ResultsDB(db) as store:
            engines = {json.loads(r["config"])["engine"] for r in store.runs()}
        assert engines == {engine}
    assert found["native"] == found["python"]
