"""The unit profile library: weapons and model profiles by name.

The shared library is ``scenarios/profiles.toml``; a scenario file may add or override
entries in its own ``[weapons]`` and ``[profiles]`` tables. Parsing and per-field validation
of each entry is the rules engine's job (``Weapon.from_dict``, ``ModelProfile.from_dict``,
``check_hero``); this module walks the tables, collects every problem with its field path
(``profiles.hero.might``) and merges the scenario's entries over the library's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from riven_env.errors import RivenError, ScenarioError
from riven_env.files import read_toml
from riven_env.rules.config import RulesConfig
from riven_env.rules.profiles import ModelProfile, Weapon, check_hero
from riven_env.scenario.checks import Problems, check_keys, combined_error, join_path, show

#: The keyword that marks a hero profile (checked with ``check_hero``).
HERO_KEYWORD = "hero"


@dataclass(frozen=True)
class ProfileLibrary:
    """Weapons and model profiles by name.

    Attributes:
        weapons: Weapon name -> weapon.
        profiles: Profile name -> profile.
        source: Where the entries came from (a file, or several joined by ``" + "``).
    """

    weapons: Mapping[str, Weapon]
    profiles: Mapping[str, ModelProfile]
    source: str


def report_engine_error(exc: RivenError, path: str, problems: Problems) -> None:
    """Record an error raised by the rules or table engine for the entry at ``path``.

    The engines start their messages with the ``where`` they were given (here the field
    path), often extended by the key at fault (``profiles.hero.might = 7: ...``); the
    message is kept verbatim and the longest field path it names becomes the error's field.
    """
    message = str(exc)
    if not message.startswith(path):
        problems.add(message, path)
        return
    extension = re.match(r"(\.[A-Za-z0-9_-]+|\[\d+\])*", message[len(path) :])
    problems.add_verbatim(message, path + (extension.group(0) if extension else ""))


def _parse_entries(
    data: Mapping[str, Any],
    inherited_weapons: Mapping[str, Weapon],
    problems: Problems,
    rules: RulesConfig,
) -> tuple[dict[str, Weapon], dict[str, ModelProfile]]:
    weapons: dict[str, Weapon] = {}
    profiles: dict[str, ModelProfile] = {}
    weapon_table = data.get("weapons", {})
    if not isinstance(weapon_table, dict):
        problems.add(f"expected a table of weapons, got {show(weapon_table)}", "weapons")
        weapon_table = {}
    for name, entry in weapon_table.items():
        path = join_path("weapons", name)
        if not isinstance(entry, dict):
            problems.add(f"expected a table describing a weapon, got {show(entry)}", path)
            continue
        try:
            weapons[name] = Weapon.from_dict(name, entry, path)
        except RivenError as exc:
            report_engine_error(exc, path, problems)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            problems.add(f"malformed weapon {show(entry)} ({exc})", path)
    known_weapons = {**inherited_weapons, **weapons}
    profile_table = data.get("profiles", {})
    if not isinstance(profile_table, dict):
        problems.add(f"expected a table of profiles, got {show(profile_table)}", "profiles")
        profile_table = {}
    for name, entry in profile_table.items():
        path = join_path("profiles", name)
        if not isinstance(entry, dict):
            problems.add(f"expected a table describing a profile, got {show(entry)}", path)
            continue
        try:
            profile = ModelProfile.from_dict(name, entry, known_weapons, path, rules)
        except RivenError as exc:
            report_engine_error(exc, path, problems)
            continue
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            problems.add(f"malformed profile {show(entry)} ({exc})", path)
            continue
        if HERO_KEYWORD in profile.keywords:
            try:
                check_hero(profile, rules)
            except RivenError as exc:
                report_engine_error(exc, path, problems)
                continue
        profiles[name] = profile
    return weapons, profiles


def read_entries(
    data: Mapping[str, Any],
    problems: Problems,
    rules: RulesConfig,
    base: ProfileLibrary | None = None,
) -> ProfileLibrary:
    """Parse the ``[weapons]`` and ``[profiles]`` tables of a document over a base library.

    Entries of ``data`` override same-named entries of ``base``; its profiles may use the
    base's weapons. Base profiles keep the weapons they were built with.

    Args:
        data: A parsed TOML document (only ``weapons`` and ``profiles`` are read).
        problems: Where problems are recorded (with field paths such as ``profiles.hero``).
        rules: Rules data, for hero creation checks.
        base: The library to extend, or ``None``.

    Returns:
        The merged library; entries with problems are left out.
    """
    inherited_weapons = dict(base.weapons) if base else {}
    weapons, profiles = _parse_entries(data, inherited_weapons, problems, rules)
    if base is None:
        return ProfileLibrary(weapons, profiles, problems.source)
    source = base.source if not (weapons or profiles) else f"{base.source} + {problems.source}"
    return ProfileLibrary({**base.weapons, **weapons}, {**base.profiles, **profiles}, source)


def default_library_path() -> Path:
    """Return the path of the bundled library ``scenarios/profiles.toml``."""
    from riven_scenarios import PROFILE_LIBRARY

    return PROFILE_LIBRARY


@lru_cache(maxsize=4)
def _raw_cached(path: Path, mtime_ns: int) -> dict[str, Any]:
    del mtime_ns  # part of the cache key only
    data = read_toml(path, what="profile library", error=ScenarioError)
    profiles = data.get("profiles", {})
    return profiles if isinstance(profiles, dict) else {}


def library_profiles_raw(path: str | Path | None = None) -> dict[str, Any]:
    """The ``[profiles]`` table of a library file as written (default: the bundled one).

    ``riven balance`` copies an entry from it into a mission's own ``[profiles]`` before it
    changes one of the entry's values. Treat the result as read-only.
    """
    file = Path(path) if path is not None else default_library_path()
    return _raw_cached(file, file.stat().st_mtime_ns)


@lru_cache(maxsize=16)
def _load_cached(path: Path, mtime_ns: int, rules: RulesConfig) -> ProfileLibrary:
    del mtime_ns  # part of the cache key only: an edited file is read again
    source = str(path)
    data = read_toml(path, what="profile library", error=ScenarioError)
    problems = Problems(source)
    check_keys(data, ["weapons", "profiles"], "", problems)
    library = read_entries(data, problems, rules)
    if problems:
        raise combined_error(problems)
    return library


def load_library(path: str | Path | None = None, *, rules: RulesConfig) -> ProfileLibrary:
    """Load and validate a profile library file (cached per file version and rules).

    Args:
        path: The library file; the bundled ``scenarios/profiles.toml`` when ``None``.
        rules: Rules data, for hero creation checks.

    Returns:
        The library.

    Raises:
        ScenarioError: The file is missing, not TOML, or holds invalid entries (every
            problem is listed).
    """
    resolved = Path(path) if path is not None else default_library_path()
    try:
        mtime = resolved.stat().st_mtime_ns
    except OSError as exc:
        raise ScenarioError(
            f"cannot read the profile library: {exc.strerror}", file=str(resolved)
        ) from exc
    return _load_cached(resolved, mtime, rules)


__all__ = [
    "report_engine_error",
    "HERO_KEYWORD",
    "ProfileLibrary",
    "default_library_path",
    "library_profiles_raw",
    "load_library",
    "read_entries",
]
