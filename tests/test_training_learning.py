"""Evidence that the policy learns: win rate against ``random`` on the duel, before and after.

Slow (one to two minutes on 2 cores): a few thousand MaskablePPO timesteps on ``duel-1v1`` against
``random`` with fixed seeds, then the trained and the untrained policy each play the same 60
seeded games (alternating sides) against ``random``.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

TIMESTEPS = 8192
GAMES = 60
# Measured with these seeds: the untrained (deterministic, randomly initialised) policy wins
# 0.62 of the games against random, the policy after 4096 timesteps 0.88.
MARGIN = 0.2


def test_win_rate_against_random_rises_well_above_the_untrained_policy() -> None:
    import torch
    from riven_agents.ppo import PPOAgent
    from riven_training.evaluate import evaluate_agent
    from riven_training.hyperparams import load_train_config
    from riven_training.train import _policy_kwargs, encoding_metadata, make_env_fn
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    config = load_train_config()
    make = make_env_fn("duel-1v1", "random", config["env"])
    vec = DummyVecEnv([make, make])
    metadata = encoding_metadata(vec.envs[0].unwrapped, "duel-1v1")
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        seed=0,
        device="cpu",
        policy_kwargs=_policy_kwargs(config["policy"]),
        **config["ppo"],
    )

    def win_rate() -> float:
        return evaluate_agent(
            "duel-1v1",
            lambda side: PPOAgent.from_model(model, side, metadata),
            "random",
            GAMES,
            seed=10_000,
        ).win_rate

    untrained = win_rate()
    model.learn(total_timesteps=TIMESTEPS)
    trained = win_rate()
    vec.close()
    assert trained >= untrained + MARGIN, (untrained, trained)
    assert trained >= 0.8, (untrained, trained)
