"""Loading the rules data (TOML), applying overrides, and the frozen :class:`RulesConfig`.

The rules data file holds every number and table of the game. :func:`load_rules` reads it,
applies overrides (dotted keys such as ``"activation.turnover"`` or unique leaf keys such as
``"turnover"``, with values that may be strings from a command line), validates every
section, and returns a :class:`RulesConfig`: frozen, hashable, picklable and cheap to share
between every copy of a game state.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from riven_env.errors import RulesDataError
from riven_env.rules.resolution import system_spec
from riven_env.rules.rules_data import (  # noqa: F401  (re-exported)
    DEFAULT_RULES_FILE,
    RulesConfig,
    _read_toml,
    bundled_rules_data,
    default_rules_path,
)
from riven_env.rules.validation import validate_rules

#: What errors of an override (``--set KEY=VALUE``, ``overrides=``) name instead of a file.
OVERRIDE_SOURCE = "rules override"

_TRUE_STRINGS = frozenset({"true", "yes", "on", "1"})
_FALSE_STRINGS = frozenset({"false", "no", "off", "0"})


@functools.lru_cache(maxsize=1)
def bundled_rules() -> RulesConfig:
    """The bundled rules without overrides, loaded once per process and shared."""
    return load_rules()


def load_rules(
    path: str | Path | None = None, overrides: Mapping[str, object] | None = None
) -> RulesConfig:
    """Load, override and validate a rules data file.

    Args:
        path: A TOML rules file; ``None`` loads the bundled ``riven-v0.1.toml``.
        overrides: Values to replace, keyed by dotted key (``"activation.turnover"``) or by a
            leaf name that occurs once in the data (``"turnover"``). Values may be strings
            (``"sbh"``, ``"3"``, ``"true"``); they are coerced to the type of the value they
            replace.

    Returns:
        The validated, frozen rules.

    Raises:
        RulesDataError: The file is missing or not TOML, an override key is unknown or
            ambiguous, a value cannot be coerced, or any value breaks the rules schema.
    """
    source_path = Path(path) if path is not None else default_rules_path()
    source = str(source_path)
    raw = _read_toml(source_path)
    # The resolution system first: its own data file adds its section to the RIVEN base
    # before the overrides are read, so that they may name the section's keys too.
    section_source = _merge_system_section(raw, overrides or {}, source)
    applied: dict[str, object] = {}
    for key, value in (overrides or {}).items():
        # Errors of an override name the override (the key and value the user typed), not
        # the rules file: the file is fine, and its installed path is long and beside the point.
        dotted = resolve_override_key(raw, str(key), "")
        coerced = coerce_override(dotted, value, _lookup(raw, dotted), "")
        _assign(raw, dotted, coerced)
        applied[dotted] = coerced

    if not applied:
        validate_rules(raw, source)
    else:
        try:
            validate_rules(raw, source)
        except RulesDataError:
            # Blame the file when it is invalid by itself, else the overrides.
            validate_rules(_read_toml(source_path), source)
            try:
                validate_rules(raw, OVERRIDE_SOURCE)
            except RulesDataError as exc:
                raise RulesDataError(str(exc)) from None
            raise
    _validate_system_section(raw, section_source)
    return RulesConfig(raw=raw, source=source, overrides=applied)


_RESOLUTION_KEYS = ("resolution", "meta.resolution")


def _chosen_resolution(raw: Mapping[str, Any], overrides: Mapping[str, object]) -> object:
    """The system named by the overrides (``resolution`` / ``meta.resolution``) or the data."""
    for key in _RESOLUTION_KEYS:
        if key in overrides:
            return overrides[key]
    meta = raw.get("meta")
    return meta.get("resolution") if isinstance(meta, Mapping) else None


def _merge_system_section(raw: dict[str, Any], overrides: Mapping[str, object], source: str) -> str:
    """Add the chosen system's bundled section to ``raw`` unless the data already holds it.

    Returns:
        Where the section came from (for error messages): its file, or ``source``.

    Raises:
        RulesDataError: The system's file is missing, is not TOML, or holds anything besides
            its one section.
    """
    name = _chosen_resolution(raw, overrides)
    if not isinstance(name, str):
        return source  # validation names the bad value
    try:
        spec = system_spec(name)
    except RulesDataError as exc:
        raise RulesDataError(f"{source}: meta.resolution = {name!r}: {exc}") from exc
    if spec.section is None or spec.rules_file is None or spec.section in raw:
        return source
    path = default_rules_path().parent / spec.rules_file
    data = _read_toml(path)
    extra = sorted(set(data) - {spec.section})
    if extra or spec.section not in data:
        raise RulesDataError(
            f"{path}: a resolution system's file holds exactly one table, [{spec.section}]; "
            f"found {', '.join(sorted(data)) or 'nothing'}"
        )
    raw[spec.section] = data[spec.section]
    return str(path)


def _validate_system_section(raw: Mapping[str, Any], section_source: str) -> None:
    """Run the chosen system's validator on its section (which must be there)."""
    spec = system_spec(str(raw["meta"]["resolution"]))
    if spec.section is None:
        return
    if not isinstance(raw.get(spec.section), Mapping):
        raise RulesDataError(
            f"{section_source}: resolution {spec.name!r} needs the table [{spec.section}]"
        )
    if spec.validate is not None:
        spec.validate(raw[spec.section], section_source, raw)


def leaf_keys(raw: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    """Yield the dotted key of every plain value (non-table) in nested rules data."""
    for key, value in raw.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from leaf_keys(value, f"{dotted}.")
        else:
            yield dotted


def _where(source: str) -> str:
    # Messages about an override say so themselves; a file is named only when there is one.
    return f"{source}: " if source else ""


def resolve_override_key(raw: Mapping[str, Any], key: str, source: str) -> str:
    """Turn an override key (dotted, or a unique leaf name) into its canonical dotted key.

    Raises:
        RulesDataError: The key is unknown, names a table rather than a value, or is a leaf
            name shared by several keys (the message lists them).
    """
    all_leaves = list(leaf_keys(raw))
    if "." in key:
        if key in all_leaves:
            return key
        if _exists(raw, key):
            raise RulesDataError(
                f"{_where(source)}override {key!r} names a table; override one of its values "
                f"(e.g. {next(k for k in all_leaves if k.startswith(key + '.'))!r})"
            )
        raise RulesDataError(
            f"{_where(source)}unknown override key {key!r}{_suggest(key, all_leaves)}"
        )
    candidates = [leaf for leaf in all_leaves if leaf.rsplit(".", 1)[-1] == key]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise RulesDataError(
            f"{_where(source)}unknown override key {key!r}{_suggest(key, all_leaves)}"
        )
    raise RulesDataError(
        f"{_where(source)}override key {key!r} is ambiguous; use one of: {', '.join(candidates)}"
    )


def coerce_override(dotted: str, value: object, current: object, source: str) -> object:
    """Coerce an override value to the type of the value it replaces.

    Strings from a command line become bools (``true/false/yes/no/on/off/1/0``), ints,
    floats, or lists (comma-separated) as the replaced value requires.

    Raises:
        RulesDataError: The value cannot be read as that type.
    """

    def refuse(expected: str) -> RulesDataError:
        return RulesDataError(
            f"{_where(source)}override {dotted} = {value!r}: expected {expected} "
            f"(the default is {current!r})"
        )

    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE_STRINGS | _FALSE_STRINGS:
            return value.strip().lower() in _TRUE_STRINGS
        raise refuse("a boolean (true/false)")
    if isinstance(current, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise refuse("an integer")
    if isinstance(current, float):
        number: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            with contextlib.suppress(ValueError):
                number = float(value.strip())
        # float("nan") and float("inf") parse; no rules number may be either.
        if number is not None and math.isfinite(number):
            return number
        raise refuse("a number (finite: not nan or inf)")
    if isinstance(current, str):
        if isinstance(value, str):
            return value
        raise refuse("a string")
    if isinstance(current, list):
        if isinstance(value, (list, tuple)):
            return list(value)
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        raise refuse("a list (or a comma-separated string)")
    raise refuse(f"a value of type {type(current).__name__}")


def _exists(raw: Mapping[str, Any], dotted: str) -> bool:
    node: Any = raw
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def _lookup(raw: Mapping[str, Any], dotted: str) -> Any:
    node: Any = raw
    for part in dotted.split("."):
        node = node[part]
    return node


def _assign(raw: dict[str, Any], dotted: str, value: object) -> None:
    *parents, leaf = dotted.split(".")
    node = raw
    for part in parents:
        node = node[part]
    node[leaf] = value


def _suggest(key: str, leaves: list[str]) -> str:
    """``"; did you mean activation.turnover?"``: the closest key first (by its last part)."""
    by_tail: dict[str, list[str]] = {}
    for leaf in leaves:
        by_tail.setdefault(leaf.rsplit(".", 1)[-1], []).append(leaf)
    tails = difflib.get_close_matches(key.rsplit(".", 1)[-1], list(by_tail), n=3)
    close = [leaf for tail in tails for leaf in by_tail[tail]][:6]
    if not close:
        return ""
    others = f" (or {', '.join(close[1:])})" if len(close) > 1 else ""
    return f"; did you mean {close[0]}?{others}"
