"""Gymnasium and PettingZoo adapters of RIVEN (the only package that imports them).

``import riven_env`` registers ``riven/Skirmish-v0`` (importing this package does too)::

    import gymnasium as gym
    import riven_env  # noqa: F401  (registers the environment)

    env = gym.make("riven/Skirmish-v0", scenario="duel-1v1", opponent="random")

or, without the import, ``gym.make("riven_env.envs:riven/Skirmish-v0")``. The PettingZoo
environment (both sides learn) is :func:`riven_env.envs.pz_env.env` /
:class:`riven_env.envs.pz_env.RivenAECEnv`. See ``docs/environments.md``.
"""

from __future__ import annotations

from riven_env.registration import ENV_ID, register_env

register_env()

__all__ = ["ENV_ID"]
