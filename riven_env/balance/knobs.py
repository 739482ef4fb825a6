"""Apply knob values to a mission file, keeping its comments and layout.

The tuned file is the designer's own file with only the knob values changed, so it is
edited with ``tomlkit`` (a style-preserving TOML library) rather than written again from a
dict. A ``profiles.NAME.FIELD`` knob whose profile is a library profile copies the library
entry into the file's ``[profiles]`` first (a mission's own entry overrides the library's,
``docs/scenario-schema.md``), so the change stays in this mission.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import tomlkit

from riven_env.errors import ScenarioError
from riven_env.scenario.balance import Knob, parse_path
from riven_env.scenario.library import library_profiles_raw


def _plain(value: Any) -> Any:
    # tomlkit items compare and print like their values, but numbers must leave as int/float
    # (Optuna hands back numpy-free Python values already; this guards the file's own items).
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def set_value(doc: Any, knob: Knob, value: Any) -> None:
    """Set one knob's value in a tomlkit document (in place).

    Raises:
        ScenarioError: The path does not lead to a value in this document.
    """
    parts = parse_path(knob.path)
    if parts is None:
        raise ScenarioError(f"knob path {knob.path!r} is not a path")
    if parts[0] == "profiles" and len(parts) == 3:
        name = str(parts[1])
        profiles = doc.setdefault("profiles", tomlkit.table())
        if name not in profiles:
            library = library_profiles_raw()
            if name not in library:
                raise ScenarioError(
                    f"knob {knob.path!r}: no profile {name!r} in the file or library"
                )
            entry = tomlkit.table()
            for key, item in copy.deepcopy(library[name]).items():
                entry[key] = item
            profiles[name] = entry
    node = doc
    for part in parts[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            raise ScenarioError(f"knob {knob.path!r}: {part!r} not found in the file") from None
    node[parts[-1]] = _plain(value)


def apply_values(text: str, knobs: Sequence[Knob], values: Mapping[str, Any]) -> str:
    """The mission text with each knob (by path) set to ``values[path]``.

    Args:
        text: The mission file's text.
        knobs: The declared knobs.
        values: Knob path -> value; knobs not named keep their value.

    Returns:
        The edited text (comments, order and layout kept).
    """
    doc = tomlkit.parse(text)
    for knob in knobs:
        if knob.path in values:
            set_value(doc, knob, values[knob.path])
    return tomlkit.dumps(doc)


def write_candidate(text: str, name: str, folder: Path) -> Path:
    """Write a candidate mission under a content-hashed name and return its path.

    The same text always gives the same path, so a resumed search finds the games it
    already stored for a candidate (the playtest's identity includes the scenario path).
    """
    digest = hashlib.sha1(text.encode()).hexdigest()[:12]
    folder.mkdir(parents=True, exist_ok=True)
    path = (folder / f"{name}-{digest}.toml").resolve()
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path


def current_values(doc: Mapping[str, Any], knobs: Sequence[Knob]) -> dict[str, Any]:
    """Each knob's value in the document as it stands (library value for a library profile,
    ``None`` for a key the file leaves out)."""
    from riven_env.scenario.balance import resolve_path

    out: dict[str, Any] = {}
    for knob in knobs:
        parts = parse_path(knob.path) or []
        found, value, _ = resolve_path(doc, parts)
        if not found and parts[:1] == ["profiles"]:
            found, value, _ = resolve_path({"profiles": library_profiles_raw()}, parts)
        out[knob.path] = _plain(value) if found else None
    return out


__all__ = ["apply_values", "current_values", "set_value", "write_candidate"]
