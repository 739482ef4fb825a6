"""Bundled RIVEN missions and the shared unit profile library.

The mission files (``*.toml``) and ``profiles.toml`` are package data next to this module,
so they install with the package. Load them through :mod:`riven_env.scenario`
(``load_scenario("skirmish-5v5")``), not by reading the files directly.
"""

from __future__ import annotations

from pathlib import Path

#: The folder that holds the bundled mission files and ``profiles.toml``.
BUNDLED_DIR: Path = Path(__file__).resolve().parent

#: The unit profile library every scenario draws its models from.
PROFILE_LIBRARY: Path = BUNDLED_DIR / "profiles.toml"

#: Example rosters (one side's warband each) for ``riven meta --rosters NAME ...``.
ROSTERS_DIR: Path = BUNDLED_DIR / "rosters"


def bundled_dir() -> Path:
    """Return the folder that holds the bundled mission files.

    Returns:
        The absolute path of the ``scenarios`` package folder.
    """
    return BUNDLED_DIR


__all__ = ["BUNDLED_DIR", "PROFILE_LIBRARY", "ROSTERS_DIR", "bundled_dir"]
