"""The default engine, ``auto``: the native core where it can play the game, Python otherwise.

The suite pins ``RIVEN_ENGINE=python`` (tests/conftest.py); these tests delete the variable to
see what a reader's shell gets, and set it to see that it still decides.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app
from riven_env.engines import (
    DEFAULT_ENGINE,
    ENGINE_VARIABLE,
    EngineError,
    default_engine,
    new_game,
    pick_engine,
)
from riven_env.game.state import GameState
from riven_env.native import NativeUnavailableError, available
from riven_env.playtest.config import PlaytestConfig
from riven_env.scenario import load_scenario

native_only = pytest.mark.skipif(not available(), reason="the native core is not built")
runner = CliRunner()

#: The core has every bundled resolution system (riven_env/native/rules.py NATIVE_SYSTEMS); a
#: system it lacks is one registered in Python only (tests/conftest.py python_only_system).
UNPORTED = "house-dice"


@pytest.fixture
def real_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)


def test_the_default_is_auto_and_the_variable_still_decides(
    real_default: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert DEFAULT_ENGINE == "auto" and default_engine() == "auto"
    monkeypatch.setenv(ENGINE_VARIABLE, "python")
    assert isinstance(new_game("duel-1v1", 3), GameState)
    monkeypatch.setenv(ENGINE_VARIABLE, "fast")
    with pytest.raises(EngineError, match=r"'fast' \(from RIVEN_ENGINE\).*auto, python, native"):
        new_game("duel-1v1", 3)


@native_only
def test_auto_plays_a_ported_mission_on_the_core(real_default: None) -> None:
    from riven_env.native.loop import NativeGameState

    state = new_game("skirmish-5v5", 3)
    assert isinstance(state, NativeGameState)
    # The same game as the reference's, event for event from the first decision on.
    reference = new_game("skirmish-5v5", 3, engine="python")
    assert state.drain_events() == reference.drain_events()
    assert state.legal_decisions() == reference.legal_decisions()
    assert pick_engine(None, [load_scenario("skirmish-5v5"), "duel-1v1"]) == "native"


def test_auto_plays_an_unported_system_on_the_reference(
    real_default: None, python_only_system: dict[str, str]
) -> None:
    state = new_game("duel-1v1", 3, overrides=python_only_system)
    assert isinstance(state, GameState)
    assert state.resolution.name == UNPORTED
    # ... and one such mission keeps a whole set of missions on the reference.
    assert pick_engine("auto", ["duel-1v1"], overrides=python_only_system) == "python"
    if available():
        with pytest.raises(NativeUnavailableError, match=f"'{UNPORTED}'"):
            new_game("duel-1v1", 3, overrides=python_only_system, engine="native")


@native_only
def test_auto_plays_every_bundled_system_on_the_core(real_default: None) -> None:
    from riven_env.native.loop import NativeGameState

    for system in ("riven", "invictus", "new-world", "riddle-of-steel"):
        state = new_game("duel-1v1", 3, overrides={"resolution": system})
        assert isinstance(state, NativeGameState), system


def test_auto_without_the_core_plays_python(
    real_default: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import riven_env.native as native

    monkeypatch.setattr(native, "available", lambda: False)
    assert isinstance(new_game("duel-1v1", 3), GameState)
    assert pick_engine(None, ["duel-1v1"]) == "python"


@native_only
def test_the_envs_settle_auto_on_one_engine(real_default: None) -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.envs.vector import RivenVectorEnv

    assert RivenSkirmishEnv("duel-1v1", "random").engine == "native"
    # The Riddle of Steel has a choice phase, which the environments refuse on either engine;
    # every system they play is native.
    new_world = {"resolution": "new-world"}
    env = RivenSkirmishEnv("duel-1v1", "random", rules_overrides=new_world)
    assert env.engine == "native"
    env.reset(seed=1)
    assert not isinstance(env.state, GameState)
    assert RivenVectorEnv(2, "duel-1v1", "random").backend == "batched"
    assert RivenVectorEnv(2, "duel-1v1", "random", rules_overrides=new_world).backend == "batched"


@native_only
def test_a_playtest_stores_the_engine_auto_settled_on(
    real_default: None, python_only_system: dict[str, str]
) -> None:
    config = PlaytestConfig(scenario="duel-1v1", blue="random", red="random", games=1)
    assert config.engine == "auto"
    assert config.settled().engine == "native"
    unported = PlaytestConfig(
        scenario="duel-1v1", blue="random", red="random", games=1, overrides=python_only_system
    )
    assert unported.settled().engine == "python"
    custom = PlaytestConfig(
        scenario="duel-1v1", blue="random", red="random", games=1, player="my.module:play"
    )
    assert custom.settled().engine == "python"  # called without engine=


@native_only
def test_commands_without_engine_play_natively_and_auto_is_accepted(
    real_default: None, tmp_path, python_only_system: dict[str, str]
) -> None:
    common = ("playtest", "--scenario", "duel-1v1", "--blue", "random", "--red", "oracle",
              "--games", "2", "--workers", "1", "--json", "--quiet")  # fmt: skip
    default = runner.invoke(app, [*common, "--db", str(tmp_path / "a.duckdb")])
    assert default.exit_code == 0, default.output
    data = json.loads(default.stdout)
    assert data["config"]["engine"] == "native"
    pinned = runner.invoke(app, [*common, "--db", str(tmp_path / "b.duckdb"), "--engine", "python"])
    assert pinned.exit_code == 0, pinned.output
    # The same seeds on either engine: the same games.
    assert json.loads(pinned.stdout)["wins"] == data["wins"]
    unported = runner.invoke(
        app,
        [*common, "--db", str(tmp_path / "c.duckdb"), "--engine", "auto",
         "--set", f"resolution={UNPORTED}"],
    )  # fmt: skip
    assert unported.exit_code == 0, unported.output
    assert json.loads(unported.stdout)["config"]["engine"] == "python"
