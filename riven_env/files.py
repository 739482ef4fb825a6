"""The one safe reader of data files (TOML, JSON, JSON Lines) and the size limits.

Every reader of a user's file goes through here, so that a bad file is always one error of
the :mod:`riven_env.errors` hierarchy naming the file and what is wrong, never a Python
error: a missing file, a directory, a device, a file too large, bytes that are not UTF-8
text, malformed TOML or JSON, non-finite JSON numbers (``NaN``), and data nested so deep
that parsing it would recurse without end (``RecursionError``).

:func:`limits` returns the upper bounds of ``riven_env/data/limits.toml`` (file size and
nesting here; table, scenario and agent sizes for their readers).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from riven_env.errors import DataFileError, RivenError, ScenarioError

LIMITS_FILE = "limits.toml"


@functools.lru_cache(maxsize=1)
def limits() -> Mapping[str, Mapping[str, Any]]:
    """The size limits of ``riven_env/data/limits.toml`` (read once per process).

    Returns:
        ``{section: {key: bound}}``; treat as read-only.
    """
    text = resources.files("riven_env").joinpath("data", LIMITS_FILE).read_text("utf-8")
    return tomllib.loads(text)


def limit(dotted: str) -> Any:
    """One bound of the limits file by dotted key (``"scenario.max_rounds"``)."""
    section, _, key = dotted.partition(".")
    return limits()[section][key]


def _a(what: str) -> str:
    """``what`` with its indefinite article (``"a rules file"``, ``"an event log"``)."""
    return f"{'an' if what[:1].lower() in 'aeiou' else 'a'} {what}"


def _error(error: type[RivenError], source: str, problem: str) -> RivenError:
    """Build ``error`` for ``problem`` in the file ``source``."""
    if issubclass(error, ScenarioError):
        return error(problem, file=source)
    return error(f"{source}: {problem}")


def read_bytes(
    path: str | Path, *, what: str = "data file", error: type[RivenError] = DataFileError
) -> bytes:
    """Read a regular file whole, refusing what is not one.

    Args:
        path: The file.
        what: What the file should be, for messages (``"rules file"``).
        error: The error class raised (a :class:`~riven_env.errors.RivenError`).

    Raises:
        RivenError: The path is missing, a directory or not a regular file, unreadable, or
            larger than ``files.max_bytes``.
    """
    file = Path(path)
    source = str(path)
    try:
        if file.is_dir():
            raise _error(error, source, f"is a directory, not {_a(what)}")
        if not file.exists():
            raise _error(
                error, source, f"cannot read the {what}: not found (no such file or directory)"
            )
        if not file.is_file():
            raise _error(error, source, f"not a regular file (expected {_a(what)})")
        size = file.stat().st_size
        most = int(limit("files.max_bytes"))
        if size > most:
            raise _error(
                error, source, f"{size} bytes is too large for {_a(what)} (at most {most} bytes)"
            )
        return file.read_bytes()
    except OSError as exc:
        raise _error(error, source, f"cannot read the {what}: {exc.strerror or exc}") from exc


def decode_text(
    data: bytes, source: str, *, what: str = "data file", error: type[RivenError] = DataFileError
) -> str:
    """Decode UTF-8 bytes, refusing binary data with the offending byte's offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(
            error, source, f"not a UTF-8 text file (byte {exc.start}); {_a(what)} is text"
        ) from exc


def read_text(
    path: str | Path, *, what: str = "data file", error: type[RivenError] = DataFileError
) -> str:
    """Read a UTF-8 text file (see :func:`read_bytes` and :func:`decode_text`)."""
    return decode_text(read_bytes(path, what=what, error=error), str(path), what=what, error=error)


def check_depth(
    value: Any, source: str, *, error: type[RivenError] = DataFileError, where: str = ""
) -> None:
    """Refuse data nested deeper than ``files.max_depth`` (tables and lists).

    Walked without recursion, so that the check itself cannot overflow the stack.
    """
    most = int(limit("files.max_depth"))
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Mapping):
            children: Any = node.values()
        elif isinstance(node, list | tuple):
            children = node
        else:
            continue
        if depth >= most:
            raise _error(
                error, source, f"{where}data nested deeper than {most} levels of tables and lists"
            )
        stack.extend((child, depth + 1) for child in children)


def parse_toml(
    text: str, source: str, *, what: str = "data file", error: type[RivenError] = DataFileError
) -> dict[str, Any]:
    """Parse TOML text, refusing malformed or too deeply nested documents.

    Raises:
        RivenError: Not valid TOML, or nested deeper than ``files.max_depth``.
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _error(error, source, f"not valid TOML: {exc}") from exc
    except RecursionError as exc:
        most = int(limit("files.max_depth"))
        raise _error(
            error, source, f"not usable as {_a(what)}: nested deeper than {most} levels"
        ) from exc
    check_depth(doc, source, error=error)
    return doc


def read_toml(
    path: str | Path, *, what: str = "data file", error: type[RivenError] = DataFileError
) -> dict[str, Any]:
    """Read and parse a TOML file (see :func:`read_text` and :func:`parse_toml`)."""
    return parse_toml(read_text(path, what=what, error=error), str(path), what=what, error=error)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-finite number {name} (JSON has none)")


def parse_json(
    text: str,
    source: str,
    *,
    what: str = "JSON file",
    error: type[RivenError] = DataFileError,
    where: str = "",
) -> Any:
    """Parse JSON text, refusing malformed documents, ``NaN``/``Infinity`` and deep nesting.

    Args:
        text: The JSON document.
        source: The file it came from, for messages.
        what: What the document should be.
        error: The error class raised.
        where: A prefix for the problem, such as ``"line 3: "``.
    """
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as exc:
        most = int(limit("files.max_depth"))
        raise _error(error, source, f"{where}nested deeper than {most} levels") from exc
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        raise _error(error, source, f"{where}not valid JSON: {exc}") from exc
    if isinstance(value, float) and not math.isfinite(value):  # pragma: no cover - 1e999
        raise _error(error, source, f"{where}non-finite number {value!r}")
    check_depth(value, source, error=error, where=where)
    return value


def read_json(
    path: str | Path, *, what: str = "JSON file", error: type[RivenError] = DataFileError
) -> Any:
    """Read and parse a JSON file (see :func:`read_text` and :func:`parse_json`)."""
    return parse_json(read_text(path, what=what, error=error), str(path), what=what, error=error)


def read_jsonl(
    path: str | Path,
    *,
    what: str = "JSON Lines log",
    error: type[RivenError] = DataFileError,
) -> list[dict[str, Any]]:
    """Read a JSON Lines file of objects (an event log), one per non-blank line.

    Unlike the other readers it reads line by line, so a long log has no size limit.

    Raises:
        RivenError: The path is not a readable file, a line is not UTF-8 text or not a JSON
            object; the message names the line.
    """
    source = str(path)
    file = Path(path)
    if file.is_dir():
        raise _error(error, source, f"is a directory, not {_a(what)}")
    if not file.exists():
        raise _error(
            error, source, f"cannot read the {what}: not found (no such file or directory)"
        )
    records: list[dict[str, Any]] = []
    try:
        with file.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                where = f"line {number}: "
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise _error(
                        error,
                        source,
                        f"{where}not UTF-8 text (byte {exc.start}); {_a(what)} is text",
                    ) from exc
                if not line.strip():
                    continue
                value = parse_json(line, source, what=what, error=error, where=where)
                if not isinstance(value, dict):
                    raise _error(
                        error, source, f"{where}expected a JSON object, got {type(value).__name__}"
                    )
                records.append(value)
    except OSError as exc:
        raise _error(error, source, f"cannot read the {what}: {exc.strerror or exc}") from exc
    return records


__all__ = [
    "LIMITS_FILE",
    "check_depth",
    "decode_text",
    "limit",
    "limits",
    "parse_json",
    "parse_toml",
    "read_bytes",
    "read_json",
    "read_jsonl",
    "read_text",
    "read_toml",
]
