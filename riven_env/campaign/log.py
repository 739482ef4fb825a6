"""The campaign log: JSON Lines, one record a line (schema: docs/campaigns.md, "Log").

Records are written with the game log's serialiser (:func:`riven_env.game.dumps_event`:
floats rounded, fixed key order), so the same campaign gives the same bytes in any process.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from riven_env.game import dumps_event


def dumps_records(records: Iterable[Mapping[str, Any]]) -> str:
    """The log text of ``records`` (one JSON object a line, each line ending in a newline)."""
    return "".join(dumps_event(record) + "\n" for record in records)


def write_campaign_log(records: Iterable[Mapping[str, Any]], path: str | Path) -> Path:
    """Write ``records`` to ``path`` as JSON Lines; return the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(dumps_records(records))
    return out


def mission_events(records: Iterable[Mapping[str, Any]], step: int) -> list[dict[str, Any]]:
    """The event log of one step's mission, out of a campaign log's records."""
    return [dict(r["event"]) for r in records if r["type"] == "mission_event" and r["step"] == step]


__all__ = ["dumps_records", "mission_events", "write_campaign_log"]
