"""The batched and single environments on the core play every ported dice engine
(``resolution`` Invictus and New World) as the Python environments do, and ``auto`` plays every
system on the core (The Riddle of Steel's choice phase included, which the environments refuse
on either engine). (Each system's own loop tests: tests/test_native_invictus_loop.py,
tests/test_native_new_world_loop.py, tests/test_native_riddle_of_steel_loop.py.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from riven_env.engines import new_game
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

if available():
    from riven_env.native.loop import NativeGameState

from native_games import batch_lockstep  # noqa: E402
from native_systems import SYSTEMS as PORTED  # noqa: E402

# Every system but RIVEN's own that the native loop plays (RIVEN's: tests/test_native_batch.py).
LOOP_SYSTEMS = tuple(PORTED)
# Those the environments play: not a system whose melee is the choice phase (they refuse it).
SYSTEMS = tuple(name for name, s in PORTED.items() if not s.choice_phase)


@pytest.mark.parametrize("system", LOOP_SYSTEMS)
def test_auto_plays_the_system_on_the_core(system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    overrides = {"resolution": system}
    from riven_env.engines import ENGINE_VARIABLE, pick_engine

    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    assert isinstance(new_game("duel-1v1", 3, overrides=overrides), NativeGameState)
    assert pick_engine("auto", ["duel-1v1"], overrides=overrides) == "native"


@pytest.mark.parametrize(
    ("scenario", "opponent", "learner_side", "steps"),
    [
        ("duel-1v1", "random", "random", 160),
        ("skirmish-5v5", "oracle", "blue", 120),
        ("duel-1v1", "oracle", "red", 160),
        ("ranged-vs-melee", "random", "blue", 200),
        ("hold-the-line", "random", "red", 160),
    ],
)
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_batched_env_plays_the_system_as_the_python_envs(
    system: str, scenario: str, opponent: str, learner_side: str, steps: int
) -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.envs.vector import RivenVectorEnv

    n, seed = 3, 5
    batch = RivenVectorEnv(
        n,
        scenario,
        opponent,
        engine="native",
        learner_side=learner_side,
        rules_overrides={"resolution": system},
    )
    assert batch.backend == "batched"
    envs = [
        RivenSkirmishEnv(
            scenario,
            opponent,
            learner_side=learner_side,
            obs_mode="flat",
            rules_overrides={"resolution": system},
            engine="python",
        )
        for _ in range(n)
    ]
    batch_lockstep(batch, envs, seed, steps)
    batch.close()


@pytest.mark.parametrize("engine", ["native", "python"])
def test_the_environments_refuse_the_choice_phase_on_either_engine(engine: str) -> None:
    from riven_env.envs.gym_env import EnvArgumentError, RivenSkirmishEnv

    with pytest.raises(EnvArgumentError, match="riddle-of-steel"):
        RivenSkirmishEnv(
            "duel-1v1", "random", rules_overrides={"resolution": "riddle-of-steel"}, engine=engine
        )


def _same(a: Any, b: Any) -> bool:
    """Observations equal: arrays, or dicts of arrays (the entity and dict modes)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("obs_mode", ["flat", "entity"])
@pytest.mark.parametrize("opponent", ["random", "oracle"])
def test_the_gymnasium_env_on_the_core_observes_the_system_as_python(
    system: str, opponent: str, obs_mode: str
) -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    def make(engine: str) -> RivenSkirmishEnv:
        return RivenSkirmishEnv(
            "ranged-vs-melee",
            opponent,
            obs_mode=obs_mode,
            rules_overrides={"resolution": system},
            engine=engine,
        )

    native, python = make("native"), make("python")
    a, _ = native.reset(seed=4)
    b, _ = python.reset(seed=4)
    assert isinstance(native.state, NativeGameState)
    rng = np.random.default_rng(4)
    pending = 0
    for _ in range(300):
        assert _same(a, b)
        assert np.array_equal(native.action_masks(), python.action_masks())
        pending += python.state.phase == "spend"
        action = int(rng.choice(np.flatnonzero(python.action_masks())))
        a, ra, ta, ua, _ = native.step(action)
        b, rb, tb, ub, _ = python.step(action)
        assert (ra, ta, ua) == (rb, tb, ub)
        if tb or ub:
            a, _ = native.reset()
            b, _ = python.reset()
    assert pending > 0  # the learner observed its pending rolls (the spend phase)
