"""The scenario loader's own defaults (``riven_env/scenario/data/defaults.toml``).

Values a scenario file may leave out that are not rules numbers: the default mode and first
side, a side's default Enemy Oracle profile, objective kind and points, and the spacing of
automatic placement. Rules numbers (move, objective radius ...) come from the rules data.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@lru_cache(maxsize=1)
def loader_defaults() -> dict[str, Any]:
    """Return the loader defaults, read once per process.

    Returns:
        The parsed ``defaults.toml`` (treat as read-only).
    """
    text = resources.files("riven_env.scenario.data").joinpath("defaults.toml").read_text("utf-8")
    return tomllib.loads(text)


__all__ = ["loader_defaults"]
