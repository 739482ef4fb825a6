"""The PettingZoo AEC environment: API and seeding tests, and a played-out game."""

from __future__ import annotations

import warnings

import numpy as np
from pettingzoo.test import api_test, seed_test

from riven_env.envs.pz_env import RivenAECEnv, env


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # naming and Dict-space style hints
        api_test(env(scenario="duel-1v1"), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(scenario="duel-1v1"), num_cycles=300)


def test_both_sides_play_to_a_result_with_zero_sum_rewards() -> None:
    aec = RivenAECEnv(scenario="duel-1v1")
    aec.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = {"blue": 0.0, "red": 0.0}
    acted = set()
    for agent in aec.agent_iter(max_iter=5000):
        obs, reward, terminated, truncated, info = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        mask = obs["action_mask"]
        other = "red" if agent == "blue" else "blue"
        assert not aec.observe(other)["action_mask"].any()
        assert mask.sum() == len(aec.state.legal_decisions())
        acted.add(agent)
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    assert acted == {"blue", "red"}
    assert aec.state.is_terminal and not aec.agents
    assert totals["blue"] == -totals["red"] or aec.state.winner is None
