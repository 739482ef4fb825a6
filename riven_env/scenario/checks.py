"""Field-level checking of scenario data: allowed keys, types, ranges and choices.

A scenario section is described by a mapping of key -> :class:`FieldSpec`. :func:`read_section`
checks one TOML table against it and records every problem in a :class:`Problems` collector
(instead of stopping at the first), so that ``riven scenarios validate`` can report all the
independent mistakes of a file at once. Every problem names the file, the field path (for
example ``sides.blue.models[2].profile``), the bad value and what was allowed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from riven_env.errors import ScenarioError, did_you_mean

FieldKind = Literal["str", "int", "number", "bool", "str_list", "point", "rect", "table", "tables"]

#: How each field kind is described to the user in an error message.
KIND_WORDS: dict[str, str] = {
    "str": "a string",
    "int": "an integer",
    "number": "a number",
    "bool": "true or false",
    "str_list": "a list of strings",
    "point": "a point [x, y] of two numbers",
    "rect": "a rectangle [x0, y0, x1, y1] of four numbers",
    "table": "a table",
    "tables": "a list of tables ([[...]] entries)",
}


@dataclass(frozen=True)
class FieldSpec:
    """What one key of a scenario table may hold.

    Attributes:
        kind: The value's kind (see :data:`KIND_WORDS`).
        required: Whether the key must be present.
        default: The value used when an optional key is absent.
        choices: For strings, the allowed values.
        minimum: For numbers, the smallest allowed value (inclusive).
        maximum: For numbers, the largest allowed value (inclusive).
        pattern: For strings, a regular expression the whole value must match.
        pattern_words: How :attr:`pattern` is described in an error message.
        max_items: For lists (``tables``, ``str_list``), the most entries allowed.
        limit_key: The key of ``riven_env/data/limits.toml`` that :attr:`maximum` or
            :attr:`max_items` comes from, named in the message.
    """

    kind: FieldKind
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    pattern: str | None = None
    pattern_words: str = ""
    max_items: int | None = None
    limit_key: str | None = None


@dataclass
class Problems:
    """Collects the validation problems of one scenario source.

    Attributes:
        source: The file name (or ``"<string>"``) every problem is reported against.
        errors: The problems found so far, in the order they were found.
    """

    source: str
    errors: list[ScenarioError] = field(default_factory=list)

    def add(self, message: str, path: str | None) -> None:
        """Record one problem.

        Args:
            message: What is wrong and what is allowed.
            path: The field path at fault, or ``None`` for the file as a whole.
        """
        self.errors.append(ScenarioError(message, file=self.source, field=path))

    def add_verbatim(self, message: str, path: str | None) -> None:
        """Record a problem whose message already starts with its field path.

        Used for messages from the rules and table engines, which name the ``where`` they
        were given; the path is kept on the error's ``field`` without printing it twice.

        Args:
            message: The full message, starting with the field path.
            path: The field path at fault.
        """
        error = ScenarioError(message, file=self.source)
        error.field = path
        self.errors.append(error)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def count(self) -> int:
        """Return the number of problems recorded so far."""
        return len(self.errors)


def show(value: Any) -> str:
    """Render a bad value for an error message, shortened when it is long."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def join_path(path: str, key: str | int) -> str:
    """Append a key or a list index to a field path (``a.b`` + ``c`` / ``a.b`` + ``[2]``)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def is_number(value: Any) -> bool:
    """Return whether ``value`` is a finite int or float (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def _numbers(value: Any, size: int) -> tuple[float, ...] | None:
    if not isinstance(value, list | tuple) or len(value) != size:
        return None
    if not all(is_number(item) for item in value):
        return None
    return tuple(float(item) for item in value)


def convert(value: Any, spec: FieldSpec) -> tuple[bool, Any, str]:
    """Check one value against its spec.

    Args:
        value: The value read from TOML.
        spec: What the value may be.

    Returns:
        ``(ok, converted, reason)``: the converted value when ``ok`` (numbers as float,
        points and rectangles as tuples, string lists as tuples), otherwise a reason naming
        what was expected.
    """
    kind = spec.kind
    expected = f"expected {KIND_WORDS[kind]}"
    converted: Any
    if kind == "str":
        if not isinstance(value, str):
            return False, None, expected
        if spec.choices is not None and value not in spec.choices:
            return False, None, f"allowed: {', '.join(spec.choices)}"
        if spec.pattern is not None and re.fullmatch(spec.pattern, value) is None:
            return False, None, f"expected {spec.pattern_words or spec.pattern}"
        return True, value, ""
    if kind == "bool":
        return (True, value, "") if isinstance(value, bool) else (False, None, expected)
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return False, None, expected
        converted = value
    elif kind == "number":
        if not is_number(value):
            return False, None, expected
        converted = float(value)
    elif kind == "str_list":
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return False, None, expected
        if spec.max_items is not None and len(value) > spec.max_items:
            return False, None, _too_many(len(value), spec)
        return True, tuple(value), ""
    elif kind == "point":
        point = _numbers(value, 2)
        return (True, point, "") if point is not None else (False, None, expected)
    elif kind == "rect":
        rect = _numbers(value, 4)
        if rect is None:
            return False, None, expected
        if not (rect[0] < rect[2] and rect[1] < rect[3]):
            return False, None, "expected x0 < x1 and y0 < y1"
        return True, rect, ""
    elif kind == "table":
        return (True, value, "") if isinstance(value, dict) else (False, None, expected)
    elif kind == "tables":
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            return False, None, expected
        if spec.max_items is not None and len(value) > spec.max_items:
            return False, None, _too_many(len(value), spec)
        return True, value, ""
    else:  # pragma: no cover - FieldKind is closed
        raise ValueError(f"unknown field kind {kind!r}")
    if spec.minimum is not None and converted < spec.minimum:
        return False, None, f"must be at least {_bound(spec.minimum)}"
    if spec.maximum is not None and converted > spec.maximum:
        return False, None, f"must be at most {_bound(spec.maximum)}{_limit_source(spec)}"
    return True, converted, ""


def _bound(value: float) -> str:
    """A bound as written in the data (``2147483647``, not ``2.14748e+09``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _limit_source(spec: FieldSpec) -> str:
    """Where a bound comes from, for the message (empty for bounds that are not limits)."""
    return f" ({spec.limit_key} in riven_env/data/limits.toml)" if spec.limit_key else ""


def _too_many(count: int, spec: FieldSpec) -> str:
    return f"{count} entries; at most {spec.max_items} allowed{_limit_source(spec)}"


def check_keys(
    data: Mapping[str, Any], allowed: Sequence[str], path: str, problems: Problems
) -> bool:
    """Refuse the keys of ``data`` that are not in ``allowed``.

    Returns:
        ``True`` when every key is allowed.
    """
    unknown = [key for key in data if key not in allowed]
    for key in unknown:
        problems.add(
            f"unknown key {key!r}{did_you_mean(str(key), allowed)}; allowed keys: "
            f"{', '.join(allowed)}",
            join_path(path, key),
        )
    return not unknown


def read_section(
    data: Any,
    specs: Mapping[str, FieldSpec],
    path: str,
    problems: Problems,
) -> tuple[dict[str, Any], bool]:
    """Check a TOML table against its field specs.

    Args:
        data: The table read from the file (anything; a non-table is reported).
        specs: The allowed keys and what each may hold.
        path: The field path of the table, for messages (``""`` for the top level).
        problems: Where problems are recorded.

    Returns:
        ``(values, ok)``: the converted values of the valid keys, with defaults filled in
        for absent optional keys, and whether the whole table was valid.
    """
    if not isinstance(data, dict):
        problems.add(f"expected a table, got {show(data)}", path or None)
        return {}, False
    before = problems.count()
    check_keys(data, list(specs), path, problems)
    values: dict[str, Any] = {}
    for key, spec in specs.items():
        where = join_path(path, key)
        if key not in data:
            if spec.required:
                problems.add(f"required key {key!r} is missing ({KIND_WORDS[spec.kind]})", where)
            else:
                values[key] = spec.default
            continue
        ok, converted, reason = convert(data[key], spec)
        if ok:
            values[key] = converted
        else:
            problems.add(f"bad value {show(data[key])}; {reason}", where)
    return values, problems.count() == before


class ScenarioProblems(ScenarioError):
    """Several independent problems found in one scenario source.

    Attributes:
        errors: Every problem, each a :class:`ScenarioError` naming its file and field.
    """

    def __init__(self, errors: list[ScenarioError], source: str):
        self.errors = list(errors)
        lines = "\n".join(f"  {error}" for error in self.errors)
        super().__init__(f"{len(self.errors)} problems:\n{lines}")
        self.file = source


def combined_error(problems: Problems) -> ScenarioError:
    """Return one error for a non-empty collector: the problem itself when it is alone."""
    if problems.count() == 1:
        return problems.errors[0]
    return ScenarioProblems(problems.errors, problems.source)


__all__ = [
    "KIND_WORDS",
    "FieldKind",
    "FieldSpec",
    "Problems",
    "ScenarioProblems",
    "check_keys",
    "combined_error",
    "convert",
    "is_number",
    "join_path",
    "read_section",
    "show",
]
