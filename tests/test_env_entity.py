"""``riven/Skirmish-v1``: entity observations, mission lists, and v0 left as it was."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import riven_env  # noqa: F401  (registers the environments)
from riven_env.envs.config import EnvConfigError, resolve_mission
from riven_env.rules import load_rules


def test_v1_passes_the_gymnasium_checker_and_carries_the_mask() -> None:
    env = gym.make("riven/Skirmish-v1", scenario="duel-1v1", opponent="random")
    assert env.unwrapped.obs_mode == "entity"
    assert set(env.observation_space.spaces) == {
        "models",
        "objectives",
        "global",
        "pairs",
        "terrain",
        "action_mask",
    }
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(obs["action_mask"].astype(bool), env.unwrapped.action_masks())
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, done, cut, info = env.step(action)
        if done or cut:
            obs, info = env.reset()
    # v0 keeps its Dict observation without the entity blocks.
    v0 = gym.make("riven/Skirmish-v0", scenario="duel-1v1", opponent="random")
    assert "pairs" not in v0.observation_space.spaces


def test_missions_are_drawn_per_episode_with_one_padding() -> None:
    missions = ["duel-1v1", "skirmish-5v5", "generated:field:5"]
    env = gym.make("riven/Skirmish-v1", scenario=missions, opponent="random").unwrapped
    shapes = {k: v.shape for k, v in env.observation_space.spaces.items()}
    # The largest side of any listed mission, twice.
    assert shapes["models"][0] == 12  # skirmish-5v5's red fields 6
    seen = set()
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        seen.add(info["mission"])
        assert {k: v.shape for k, v in obs.items()} == shapes
    assert seen == {"duel-1v1", "skirmish-5v5", "generated-field-fantasy-5"}
    # The same seed draws the same mission and game.
    first = env.reset(seed=4)[1]["mission"]
    assert env.reset(seed=4)[1]["mission"] == first


def test_generated_mission_specs_are_checked() -> None:
    rules = load_rules()
    assert resolve_mission("generated:ruins:2", rules).name == "generated-ruins-fantasy-2"
    assert len(resolve_mission("generated:field:2:3", rules).sides["blue"].models) == 3
    with pytest.raises(EnvConfigError, match="generated:KIND:SEED"):
        resolve_mission("generated:field", rules)
    with pytest.raises(EnvConfigError, match="generated:KIND:SEED"):
        resolve_mission("generated:field:x", rules)
