"""Gymnasium and PettingZoo adapters of RIVEN (the only package that imports them).

Importing this package registers ``riven/Skirmish-v0``::

    import gymnasium as gym
    import riven_env.envs  # noqa: F401  (registers the environment)

    env = gym.make("riven/Skirmish-v0", scenario="duel-1v1", opponent="random")

or, without the import, ``gym.make("riven_env.envs:riven/Skirmish-v0")``. The PettingZoo
environment (both sides learn) is :func:`riven_env.envs.pz_env.env` /
:class:`riven_env.envs.pz_env.RivenAECEnv`. See ``docs/environments.md``.
"""

from __future__ import annotations

import gymnasium

ENV_ID = "riven/Skirmish-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="riven_env.envs.gym_env:RivenSkirmishEnv",
        # Episodes end with the game; the env truncates itself (episode.max_learner_steps).
        max_episode_steps=None,
        disable_env_checker=False,
    )

__all__ = ["ENV_ID"]
