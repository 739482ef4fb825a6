"""The Enemy Oracle profile names a scenario may assign to a side or a model.

The names are read from the Oracle's own data file, ``agents/oracle/data/profiles.toml``
(its ``[profiles.NAME]`` tables), so that a designer who adds an Oracle profile can use it
in scenarios at once. ``riven_env.scenario`` must not import the ``agents`` package (it is a
higher layer), so the file is located with :func:`importlib.util.find_spec`, which does not
execute the package.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from riven_env.errors import RivenError
from riven_env.files import read_toml

#: Fallback used only while ``agents/oracle/data/profiles.toml`` does not exist (or cannot
#: be read): the behaviour profiles named by the project's rules interpretation.
FALLBACK_ORACLE_PROFILES: tuple[str, ...] = (
    "aggressive",
    "cautious",
    "tactical",
    "defensive",
    "beast",
    "rampage",
    "guardian",
)


def oracle_profiles_file() -> Path | None:
    """Locate the Enemy Oracle's profile data file without importing ``agents``.

    Returns:
        The path of ``agents/oracle/data/profiles.toml``, or ``None`` when the ``agents``
        package or the file is absent.
    """
    try:
        spec = importlib.util.find_spec("riven_agents")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / "oracle" / "data" / "profiles.toml"
        if candidate.is_file():
            return candidate
    return None


@lru_cache(maxsize=8)
def _names_in(path: Path, mtime_ns: int) -> tuple[str, ...] | None:
    # mtime_ns is part of the cache key so that an edited file is read again.
    del mtime_ns
    try:
        data = read_toml(path, what="Oracle profiles file")
    except RivenError:
        return None
    profiles = data.get("profiles")
    if not isinstance(profiles, dict) or not profiles:
        return None
    return tuple(sorted(str(name) for name in profiles))


def oracle_profile_names() -> tuple[str, ...]:
    """Return the Oracle profile names scenarios may use, sorted.

    Returns:
        The ``[profiles.NAME]`` keys of the Oracle's data file, or
        :data:`FALLBACK_ORACLE_PROFILES` when that file is missing or unreadable.
    """
    path = oracle_profiles_file()
    if path is not None:
        names = _names_in(path, path.stat().st_mtime_ns)
        if names:
            return names
    return tuple(sorted(FALLBACK_ORACLE_PROFILES))


__all__ = ["FALLBACK_ORACLE_PROFILES", "oracle_profile_names", "oracle_profiles_file"]
