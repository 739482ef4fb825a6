"""Write a game's event log as one self-contained, interactive HTML replay.

The page needs no network: CSS and JavaScript are inlined from the files in ``assets/``, the
table is inline SVG built from the ``game_start`` event, and the events themselves are embedded
as JSON. The page script folds the events into a state per event, so the replay can be played,
stepped back and forth, or jumped to any event. Same events in, same bytes out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from riven_env.replay.board import svg_board, svg_legend
from riven_env.replay.labels import label_layout
from riven_env.replay.narrate import describe_events
from riven_env.replay.spec import BoardSpec, ReplayError, read_board

__all__ = ["EVENTS_ELEMENT_ID", "render_replay", "write_replay"]

EVENTS_ELEMENT_ID = "riven-events"
"""Id of the ``<script type="application/json">`` element that holds the events."""


@cache
def _asset(name: str) -> str:
    """Read a packaged asset (the page template, its CSS or its script)."""
    return resources.files("riven_env.replay").joinpath("assets", name).read_text(encoding="utf-8")


def _json_default(value: Any) -> Any:
    """Serialise numpy scalars and arrays, which game code may leave in events."""
    if hasattr(value, "tolist") and callable(value.tolist):
        return value.tolist()
    if isinstance(value, tuple | set | frozenset):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _script_json(value: Any, where: str) -> str:
    """JSON that is safe inside a ``<script>`` element.

    ``<``, ``>`` and ``&`` become ``\\u`` escapes, so no string in the data (a scenario title
    with ``</script>``, say) can close the element or open a comment; ``JSON.parse`` reads
    the escapes back as the same characters.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=_json_default)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"{where} cannot be written as JSON: {exc}") from exc
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _check_events(events: Sequence[Mapping[str, Any]]) -> None:
    for i, event in enumerate(events):
        if not isinstance(event, Mapping):
            raise ReplayError(
                f"events[{i}] = {event!r} cannot be replayed; expected an event object"
            )
        kind = event.get("type")
        if not isinstance(kind, str) or not kind:
            raise ReplayError(
                f"events[{i}].type = {kind!r} cannot be replayed; expected an event type string "
                "(see docs/event-log.md)"
            )
        for key, value in event.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise ReplayError(f"events[{i}].{key} = {value!r}; expected a finite number")


def momentum_pools(
    events: Sequence[Mapping[str, Any]], board: BoardSpec
) -> tuple[dict[str, str], dict[str, Any]]:
    """Whose pool each side's Momentum is, and every pool's starting value.

    ``game_start.momentum`` names the pools (a side, or its hero's model id in solo-hero
    mode) with their start; an older log without it gives them from the first ``momentum``
    event of each owner (its value less its change), and a pool never changed starts at 0.

    Returns:
        ``({side: owner}, {owner: starting Momentum})``.
    """
    side_of = {model.id: model.side for model in board.models}
    declared = events[0].get("momentum")
    start: dict[str, Any] = dict(declared) if isinstance(declared, Mapping) else {}
    if not start:
        for event in events:
            owner = event.get("owner")
            if event.get("type") == "momentum" and isinstance(owner, str) and owner not in start:
                value, delta = event.get("value"), event.get("delta")
                numbers = all(isinstance(v, int | float) for v in (value, delta))
                start[owner] = value - delta if numbers else 0  # type: ignore[operator]
    owners = {side.id: side.id for side in board.sides}
    for owner in start:
        if owner in side_of:
            owners[side_of[owner]] = owner
    return owners, start


def _agent_text(start: Mapping[str, Any], side: str) -> str:
    """``oracle: tactical`` (the agent and the Oracle profile it resolved), or the agent."""
    agents = start.get("agents")
    agent = agents.get(side) if isinstance(agents, Mapping) else None
    profiles = start.get("oracle_profiles")
    played = profiles.get(side) if isinstance(profiles, Mapping) else None
    profile = played.get("side") if isinstance(played, Mapping) else None
    if agent and profile and str(profile) not in str(agent):
        return f"{agent}: {profile}"
    return str(agent or "")


def _subtitle(start: Mapping[str, Any], board: BoardSpec) -> str:
    sides = " vs ".join(
        f"{side.name} ({_agent_text(start, side.id)})" if _agent_text(start, side.id) else side.name
        for side in board.sides
    )
    parts = [
        sides,
        f"scenario {start.get('scenario')}" if start.get("scenario") else "",
        f"{start.get('setting')}" if start.get("setting") else "",
        f"mode {start.get('mode')}" if start.get("mode") else "",
        f"seed {start.get('seed')}" if start.get("seed") is not None else "",
        f'table {board.width:g}" x {board.height:g}"',
    ]
    return " · ".join(p for p in parts if p)


def render_replay(events: Sequence[Mapping[str, Any]], *, title: str | None = None) -> str:
    """Return the HTML of a self-contained replay of an event log.

    Args:
        events: The event log (``docs/event-log.md``); the first event must be ``game_start``.
            Events of types the replay does not know are listed with a generic sentence.
        title: Page title; defaults to the scenario title in ``game_start``.

    Returns:
        One HTML document with inline CSS, script, SVG and the events as JSON. The output is
        deterministic: the same events give the same string.

    Raises:
        ReplayError: The log is empty, does not start with ``game_start``, has an event without
            a ``type``, or ``game_start`` lacks a field the table drawing needs.
    """
    events = list(events)
    board = read_board(events)
    _check_events(events)
    start = events[0]
    owners, momentum_start = momentum_pools(events, board)
    config = {
        "width": board.width,
        "height": board.height,
        "sides": {side.id: {"name": side.name, "colour": side.colour} for side in board.sides},
        "side_order": [side.id for side in board.sides],
        "momentum_owner": owners,
        "momentum_start": momentum_start,
        "labels": label_layout(board, events).to_json(),
    }
    page_title = title or board.title
    script = _asset("replay.js")
    style = _asset("replay.css")
    if "</script" in script.lower() or "</style" in style.lower():
        raise ReplayError("replay assets must not contain '</script' or '</style'")
    return Template(_asset("replay.html")).substitute(
        title=escape(page_title),
        subtitle=escape(_subtitle(start, board)),
        style=style,
        board=svg_board(board),
        legend=svg_legend(board),
        config_json=_script_json(config, "replay config"),
        events_json=_script_json(events, "events"),
        texts_json=_script_json(describe_events(events), "event texts"),
        script=script,
    )


def write_replay(
    events: Sequence[Mapping[str, Any]], path: str | Path, *, title: str | None = None
) -> Path:
    """Write the replay of an event log to ``path`` (parent folders are created).

    Args:
        events: The event log; see :func:`render_replay`.
        path: Where to write the ``.html`` file.
        title: Page title; defaults to the scenario title.

    Returns:
        The path written.

    Raises:
        ReplayError: The log cannot be replayed (see :func:`render_replay`).
    """
    out = Path(path)
    page = render_replay(events, title=title)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8", newline="\n")
    return out
