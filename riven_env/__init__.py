"""RIVEN Lab: a rules engine, tabletop and environments for the RIVEN skirmish wargame.

This package init stays light on purpose: importing :mod:`riven_env.rules`,
:mod:`riven_env.table` or :mod:`riven_env.game` must never pull in gymnasium,
pettingzoo, torch or matplotlib (a test enforces it). The Gymnasium and PettingZoo
adapters live in :mod:`riven_env.envs`; ``import riven_env.envs`` registers
``riven/Skirmish-v0``.
"""

from riven_env.errors import (
    IllegalActionError,
    MissingExtraError,
    ProfileError,
    RivenError,
    RulesDataError,
    ScenarioError,
    TerrainError,
)

__version__ = "0.1.0"

__all__ = [
    "IllegalActionError",
    "MissingExtraError",
    "ProfileError",
    "RivenError",
    "RulesDataError",
    "ScenarioError",
    "TerrainError",
    "__version__",
]
