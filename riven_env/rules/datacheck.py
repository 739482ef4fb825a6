"""Typed field readers for data tables (rules TOML, profile tables).

Each reader takes the table, the key, and ``where`` (the file and dotted path of the table)
and either returns the value with its proper Python type or raises an error that names
``where.key``, the bad value, and what was allowed. The error class is a parameter so that
the same readers serve rules data (:class:`RulesDataError`) and profiles
(:class:`ProfileError`).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

from riven_env.errors import RivenError, RulesDataError

_MISSING = object()


#: The integers the native core holds (C++ ``int``, 32 bits): every integer in rules data,
#: an override and the env's settings must lie in this range, or in a tighter documented one.
INT_MIN = -(2**31)
INT_MAX = 2**31 - 1


def check_int_range(node: Any, where: str, path: str = "") -> None:
    """Refuse any integer in ``node`` (nested tables and lists) outside the core's range.

    Raises:
        RulesDataError: Naming the dotted key, the value and the allowed range.
    """
    if isinstance(node, Mapping):
        for key, value in node.items():
            check_int_range(value, where, f"{path}.{key}" if path else str(key))
    elif isinstance(node, (list, tuple)):
        for index, value in enumerate(node):
            check_int_range(value, where, f"{path}[{index}]")
    elif isinstance(node, int) and not isinstance(node, bool) and not INT_MIN <= node <= INT_MAX:
        raise RulesDataError(
            f"{where} {path} = {node}: expected an integer in [{INT_MIN}, {INT_MAX}]"
            " (the range the native core holds)"
        )


def fail(
    where: str, key: str, value: object, allowed: str, error: type[RivenError] = RulesDataError
) -> RivenError:
    """Build the standard error for a bad value (the caller raises it)."""
    return error(f"{where}.{key} = {value!r}: expected {allowed}")


def _fetch(table: Mapping[str, Any], key: str, where: str, default: object, error: type) -> Any:
    if key in table:
        return table[key]
    if default is _MISSING:
        raise error(f"{where}.{key} is missing")
    return default


def read_int(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    low: int | None = None,
    high: int | None = None,
    default: object = _MISSING,
    error: type[RivenError] = RulesDataError,
) -> int:
    """Read an integer within ``[low, high]`` (either bound may be open)."""
    value = _fetch(table, key, where, default, error)
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(where, key, value, f"an integer{_range_text(low, high)}", error)
    if (low is not None and value < low) or (high is not None and value > high):
        raise fail(where, key, value, f"an integer{_range_text(low, high)}", error)
    return value


def read_float(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    low: float | None = None,
    high: float | None = None,
    default: object = _MISSING,
    error: type[RivenError] = RulesDataError,
) -> float:
    """Read a finite number (int or float) within ``[low, high]``, returned as float.

    NaN and the infinities are refused whatever the bounds: ``nan < low`` is false, so a
    bare range check would let them through.
    """
    value = _fetch(table, key, where, default, error)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(where, key, value, f"a number{_range_text(low, high)}", error)
    if not math.isfinite(value):
        raise fail(where, key, value, f"a finite number{_range_text(low, high)}", error)
    if (low is not None and value < low) or (high is not None and value > high):
        raise fail(where, key, value, f"a number{_range_text(low, high)}", error)
    return float(value)


def read_bool(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    default: object = _MISSING,
    error: type[RivenError] = RulesDataError,
) -> bool:
    """Read a boolean."""
    value = _fetch(table, key, where, default, error)
    if not isinstance(value, bool):
        raise fail(where, key, value, "true or false", error)
    return value


def read_str(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    choices: Collection[str] | None = None,
    default: object = _MISSING,
    error: type[RivenError] = RulesDataError,
) -> str:
    """Read a string, optionally one of ``choices``."""
    value = _fetch(table, key, where, default, error)
    if not isinstance(value, str):
        raise fail(where, key, value, _choice_text(choices) if choices else "a string", error)
    if choices is not None and value not in choices:
        raise fail(where, key, value, _choice_text(choices), error)
    return value


def read_str_list(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    choices: Collection[str] | None = None,
    default: object = _MISSING,
    unique: bool = True,
    error: type[RivenError] = RulesDataError,
) -> tuple[str, ...]:
    """Read a list of strings, each optionally one of ``choices``."""
    value = _fetch(table, key, where, default, error)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise fail(where, key, value, "a list of strings", error)
    if choices is not None:
        for item in value:
            if item not in choices:
                raise error(f"{where}.{key} contains {item!r}: expected {_choice_text(choices)}")
    if unique and len(set(value)) != len(value):
        raise fail(where, key, value, "a list without repeats", error)
    return tuple(value)


def read_table(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    default: object = _MISSING,
    error: type[RivenError] = RulesDataError,
) -> Mapping[str, Any]:
    """Read a sub-table."""
    value = _fetch(table, key, where, default, error)
    if not isinstance(value, Mapping):
        raise fail(where, key, value, "a table", error)
    return value


def refuse_unknown_keys(
    table: Mapping[str, Any],
    allowed: Collection[str],
    where: str,
    error: type[RivenError] = RulesDataError,
) -> None:
    """Refuse keys a table must not have (catches typos such as ``melee_modifer``)."""
    for key in table:
        if key not in allowed:
            raise error(
                f"{where}.{key} is not a known field; allowed: {', '.join(sorted(allowed))}"
            )


def read_die_table(
    table: Mapping[str, Any], where: str, faces: int, error: type[RivenError] = RulesDataError
) -> dict[int, Any]:
    """Read a die table keyed by face (``"1"`` .. ``"6"``); every face exactly once."""
    by_face: dict[int, Any] = {}
    for key, value in table.items():
        face = int(key) if isinstance(key, str) and key.isdigit() else None
        if face is None or not 1 <= face <= faces:
            raise error(f"{where}: key {key!r} is not a face of a d{faces} (allowed 1..{faces})")
        by_face[face] = value
    missing = [face for face in range(1, faces + 1) if face not in by_face]
    if missing:
        raise error(
            f"{where}: a d{faces} table must cover faces 1..{faces} exactly once; "
            f"missing {', '.join(map(str, missing))}"
        )
    return dict(sorted(by_face.items()))


def _range_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f" in {low}..{high}"
    if low is not None:
        return f" >= {low}"
    if high is not None:
        return f" <= {high}"
    return ""


def _choice_text(choices: Collection[str]) -> str:
    return "one of " + ", ".join(repr(c) for c in sorted(choices))
