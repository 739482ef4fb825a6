"""``riven/Skirmish-v0``: API checks, masks, rewards, illegal actions, determinism, vector envs."""

from __future__ import annotations

import hashlib
import pickle
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import riven_env.envs  # noqa: F401  (registers riven/Skirmish-v0)
from riven_env.envs.config import EnvConfigError
from riven_env.envs.gym_env import EnvArgumentError, RivenSkirmishEnv
from riven_env.errors import IllegalActionError

SMALL = "duel-1v1"


def small_env(**kwargs) -> RivenSkirmishEnv:
    kwargs.setdefault("opponent", "random")
    return RivenSkirmishEnv(SMALL, **kwargs)


def rollout_digest(env, seed: int, steps: int) -> str:
    """Hash of observations, rewards and flags over masked random actions from ``seed``."""
    digest = hashlib.sha256()
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        flat = (
            obs
            if isinstance(obs, np.ndarray)
            else np.concatenate([v.ravel() for v in obs.values()])
        )
        digest.update(flat.tobytes())
        digest.update(repr((action, reward, terminated, truncated, info["decision"])).encode())
        if terminated or truncated:
            obs, info = env.reset()
    return digest.hexdigest()


@pytest.mark.parametrize("kwargs", [{}, {"obs_mode": "flat"}, {"raster": True}])
def test_gymnasium_and_sb3_check_env(kwargs) -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(small_env(**kwargs), skip_render_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # 2-D feature blocks are intended
        sb3_check_env(small_env(**kwargs))


def test_make_with_defaults_plays_the_standard_mission_against_the_oracle() -> None:
    env = gym.make("riven/Skirmish-v0")
    obs, info = env.reset(seed=0)
    base = env.unwrapped
    assert base.scenario.name == "skirmish-5v5" and info["opponent"] == "oracle"
    assert base.observation_space.contains(obs)
    action = int(np.flatnonzero(info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(action)
    assert base.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8
    assert np.array_equal(base.action_masks(), info["action_mask"].astype(bool))
    env.close()


def test_masks_match_the_game_and_episodes_end_with_a_result() -> None:
    env = small_env(learner_side="random", opponent="random")
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=11)
    ends = 0
    sides = set()
    for _ in range(400):
        state = env.unwrapped.state
        assert state.current_side == env.learner_side
        assert int(env.action_masks().sum()) == len(state.legal_decisions())
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            result = info["result"]
            expected = (
                0.0
                if result["winner"] is None
                else (1.0 if result["winner"] == env.learner_side else -1.0)
            )
            assert reward == expected
            assert truncated == (result["reason"] == "round_limit")
            ends += 1
            sides.add(env.learner_side)
            obs, info = env.reset()
    assert ends >= 3 and sides == {"blue", "red"}


def test_illegal_actions_raise_or_are_penalised() -> None:
    env = small_env(illegal_action="raise")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="masked out"):
        env.step(illegal)
    penalised = small_env()  # the default policy: penalise and ignore
    obs, info = penalised.reset(seed=2)
    seq = penalised.state.seq
    obs2, reward, terminated, truncated, info2 = penalised.step(illegal)
    assert reward == pytest.approx(-0.1) and info2["illegal_action"] is True
    assert penalised.state.seq == seq and not terminated
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    _, reward, *_ = penalised.step(penalised.action_space.n + 5)  # out of range: same policy
    assert reward == pytest.approx(-0.1)


def test_bad_arguments_and_settings_are_named() -> None:
    with pytest.raises(EnvArgumentError, match="learner_side='green'"):
        small_env(learner_side="green")
    with pytest.raises(EnvArgumentError, match="raster=True needs obs_mode='dict'"):
        small_env(obs_mode="flat", raster=True)
    with pytest.raises(EnvConfigError, match="'shaping.luck' is unknown"):
        small_env(settings={"shaping.luck": 1.0})
    with pytest.raises(EnvConfigError, match="illegal.policy = 'ignore'"):
        small_env(illegal_action="ignore")


def test_shaping_pays_the_change_of_the_potential() -> None:
    env = small_env(settings={"shaping.wounds": 0.25, "shaping.casualties": 0.5})
    rng = np.random.default_rng(4)
    total, done = 0.0, False
    _, info = env.reset(seed=4)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    from riven_env.envs.rewards import outcome_reward, potential

    state = env.unwrapped.state
    start = new_state_potential(env)
    assert total == pytest.approx(
        outcome_reward(state, env.learner_side, env.config)
        + potential(state, env.learner_side, env.config)
        - start
    )


def new_state_potential(env) -> float:
    from riven_env.engines import new_game
    from riven_env.envs.rewards import potential

    return potential(new_game(env.scenario, env.game_seed), env.learner_side, env.config)


def test_same_seed_same_trajectory_here_and_in_another_process() -> None:
    here = rollout_digest(small_env(obs_mode="flat"), seed=21, steps=150)
    assert here == rollout_digest(small_env(obs_mode="flat"), seed=21, steps=150)
    assert here != rollout_digest(small_env(obs_mode="flat"), seed=22, steps=150)
    code = (
        "from tests.test_env_gym import rollout_digest, small_env\n"
        "print(rollout_digest(small_env(obs_mode='flat'), seed=21, steps=150))\n"
    )
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert other == here


def test_env_pickles_mid_game_and_continues_identically() -> None:
    env = small_env(obs_mode="flat")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=9)
    for _ in range(5):
        _, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        assert not (terminated or truncated)
    clone = pickle.loads(pickle.dumps(env))
    for _ in range(20):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        a = env.step(action)
        b = clone.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        if a[2] or a[3]:
            break


def _make_flat_env():
    return RivenSkirmishEnv(SMALL, "random", obs_mode="flat")


def test_sb3_subproc_vec_env_with_masks() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = SubprocVecEnv([_make_flat_env, _make_flat_env], start_method="spawn")
    try:
        vec.seed(5)
        obs = vec.reset()
        assert obs.shape[0] == 2
        for _ in range(30):
            masks = get_action_masks(vec)
            actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
            obs, rewards, dones, infos = vec.step(actions)
        assert masks.shape == (2, vec.action_space.n)
    finally:
        vec.close()


def test_gymnasium_async_vector_env() -> None:
    vec = gym.vector.AsyncVectorEnv([_make_flat_env, _make_flat_env], context="spawn")
    try:
        obs, infos = vec.reset(seed=[1, 2])
        for _ in range(40):
            masks = infos["action_mask"]
            # After an episode ends the mask is empty: the next step only resets (autoreset).
            actions = np.array([int(np.argmax(m)) for m in masks])
            obs, rewards, terminated, truncated, infos = vec.step(actions)
        assert obs.shape == (2, vec.single_observation_space.shape[0])
    finally:
        vec.close()


def test_render_modes() -> None:
    env = small_env(render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] == image.shape[1] == 24 * env.config.pixels_per_inch
    text_env = small_env(render_mode="ansi")
    text_env.reset(seed=0)
    text = text_env.render()
    assert "round 1/6" in text and "blue-champion" in text and "red-champion" in text
