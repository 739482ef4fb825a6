"""Game states and environments pickle and deep-copy on both engines (issue 39.2).

``docs/environments.md``: "The environment pickles and deep-copies (mid-game too, on both
engines)". A native game state travels as its Python ``GameState`` and is exported back; a
native env replays its episode's start and the learner's actions. Either way the copy goes on
byte for byte as the original: the same events (as JSON) or the same observations, rewards and
flags after the same further actions.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from riven_env.native import available

ENGINES = [
    "python",
    pytest.param(
        "native", marks=pytest.mark.skipif(not available(), reason="the native core is not built")
    ),
]
ROUND_TRIPS: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "deepcopy": copy.deepcopy,
}


def _play(state: Any, steps: int, seed: int) -> str:
    """``steps`` random legal decisions on ``state``: their events as JSON text."""
    rng = np.random.default_rng(seed)
    events: list[dict] = []
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_decisions()
        events += state.apply(legal[int(rng.integers(len(legal)))])
    return json.dumps(
        [events, state.result if state.is_terminal else None], sort_keys=True, default=str
    )


@pytest.mark.parametrize("how", list(ROUND_TRIPS))
@pytest.mark.parametrize("engine", ENGINES)
def test_a_game_state_round_trips_mid_game(engine: str, how: str) -> None:
    from riven_env.engines import new_game

    game = new_game("ruins", seed=4, engine=engine)
    _play(game, 25, 1)
    twin = ROUND_TRIPS[how](game)
    assert type(twin) is type(game)
    assert _play(twin, 400, 2) == _play(game, 400, 2)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_new_game_state_pickles(engine: str) -> None:
    from riven_env.engines import new_game

    game = new_game("ruins", seed=4, engine=engine)
    twin = pickle.loads(pickle.dumps(game))
    assert _play(twin, 400, 3) == _play(game, 400, 3)


def _run(env: Any, steps: int, seed: int) -> list[Any]:
    """``steps`` random masked-legal steps of ``env`` (a reset after each episode's end)."""
    rng = np.random.default_rng(seed)
    out: list[Any] = []
    for _ in range(steps):
        mask = env.unwrapped.action_masks()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        parts = obs.values() if isinstance(obs, dict) else [obs]
        flat = b"".join(np.ascontiguousarray(p).tobytes() for p in parts)
        out.append((flat, reward, terminated, truncated, info.get("decision")))
        if terminated or truncated:
            env.reset()
            out.append("reset")
    return out


@pytest.mark.parametrize("how", list(ROUND_TRIPS))
@pytest.mark.parametrize(
    "settings",
    [{}, {"obs_mode": "flat", "learner_side": "random"}, {"opponent": "greedy"}],
    ids=["dict", "flat-random-side", "python-opponent"],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_an_env_round_trips_mid_game(engine: str, settings: dict, how: str) -> None:
    import gymnasium as gym

    import riven_env  # noqa: F401 (registers riven/Skirmish-v0)

    env = gym.make("riven/Skirmish-v0", engine=engine, **settings)
    env.reset(seed=3)
    _run(env, 6, 5)
    twin = ROUND_TRIPS[how](env)
    assert twin.unwrapped.engine == engine
    assert _run(twin, 60, 9) == _run(env, 60, 9)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_env_round_trips_before_reset(engine: str) -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    env = RivenSkirmishEnv(engine=engine)
    twin = pickle.loads(pickle.dumps(env))
    assert twin.reset(seed=2)[0]["global"].tobytes() == env.reset(seed=2)[0]["global"].tobytes()
    assert _run(twin, 30, 1) == _run(env, 30, 1)


@pytest.mark.parametrize("how", list(ROUND_TRIPS))
def test_a_python_vector_env_round_trips_mid_game(how: str) -> None:
    from riven_env.envs.vector import RivenVectorEnv

    vec = RivenVectorEnv(2, engine="python")
    vec.reset(seed=5)
    rng = np.random.default_rng(0)

    def steps(env: Any, n: int) -> list[Any]:
        out = []
        for _ in range(n):
            masks = env.action_masks()
            actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
            obs, rewards, terminated, truncated, _ = env.step(actions)
            out.append((obs.tolist(), rewards.tolist(), terminated.tolist(), truncated.tolist()))
        return out

    steps(vec, 3)
    twin = ROUND_TRIPS[how](vec)
    state = rng.bit_generator.state
    ours = steps(vec, 6)
    rng.bit_generator.state = state
    assert steps(twin, 6) == ours


@pytest.mark.skipif(not available(), reason="the native core is not built")
@pytest.mark.parametrize("how", list(ROUND_TRIPS))
def test_a_batched_vector_env_says_it_does_not_pickle(how: str) -> None:
    from riven_env.envs.vector import PICKLE_REFUSAL, RivenVectorEnv

    vec = RivenVectorEnv(2, engine="native")
    assert vec.backend == "batched"
    vec.reset(seed=5)
    with pytest.raises(TypeError, match="does not pickle"):
        ROUND_TRIPS[how](vec)
    assert "backend='python'" in PICKLE_REFUSAL
    vec.close()
