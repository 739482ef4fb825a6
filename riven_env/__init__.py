"""RIVEN Lab: a rules engine, tabletop and environments for the RIVEN skirmish wargame.

This package init stays light on purpose: importing :mod:`riven_env.rules`,
:mod:`riven_env.table` or :mod:`riven_env.game` must never pull in gymnasium,
pettingzoo, torch or matplotlib (a test enforces it). The Gymnasium and PettingZoo
adapters live in :mod:`riven_env.envs`.

``import riven_env`` registers ``riven/Skirmish-v0`` with Gymnasium without importing it:
at once if gymnasium is loaded, else when it is imported (:mod:`riven_env.registration`).
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
from riven_env.registration import register_on_gymnasium_import

__version__ = "0.1.0"

register_on_gymnasium_import()

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
