"""Game events and their JSON Lines serialisation (schema: ``docs/event-log.md``).

Events are plain dicts so that agents, summaries, replays and the database read them
without importing game classes. Floats are rounded when written so that logs are
byte-identical across processes and platforms for the same seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from riven_env.files import read_jsonl as read_jsonl_file

Event = dict[str, Any]

SCHEMA_VERSION = 1
FLOAT_DIGITS = 4


def _clean(value: Any) -> Any:
    """Round floats and turn tuples into lists, recursively, for a stable JSON form."""
    if isinstance(value, float):
        rounded = round(value, FLOAT_DIGITS)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return _clean(value.item())
    return value


def clean_event(event: Mapping[str, Any]) -> Event:
    """Return the JSON-ready form of an event (rounded floats, lists, plain scalars)."""
    return _clean(event)


def dumps_event(event: Mapping[str, Any]) -> str:
    """Serialise one event to a single JSON line (no trailing newline)."""
    return json.dumps(clean_event(event), separators=(",", ":"), ensure_ascii=False)


def write_jsonl(events: Iterable[Mapping[str, Any]], path: str | Path) -> Path:
    """Write events to ``path`` as JSON Lines and return the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as handle:
        for event in events:
            handle.write(dumps_event(event))
            handle.write("\n")
    return out


def read_jsonl(path: str | Path) -> list[Event]:
    """Read a JSON Lines event log.

    Raises:
        DataFileError: The file is missing, a directory, or a line is not a JSON object;
            the message names the file and the line.
    """
    return read_jsonl_file(path, what="event log (JSON Lines)")
