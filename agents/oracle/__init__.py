"""The Enemy Oracle: data-driven, explainable behaviour profiles for solo play.

The profiles live in ``agents/oracle/data/profiles.toml``; the same data drives
:class:`OracleAgent` in simulations and the printed cards (:mod:`riven_agents.oracle.cards`).
See ``docs/oracle.md``.
"""

from __future__ import annotations

from riven_agents.oracle.engine import OracleAgent
from riven_agents.oracle.profiles import (
    DATA_FILE,
    OracleData,
    OracleDataError,
    OracleProfile,
    load_profiles,
    profile_names,
)

__all__ = [
    "DATA_FILE",
    "OracleAgent",
    "OracleData",
    "OracleDataError",
    "OracleProfile",
    "load_profiles",
    "profile_names",
]
