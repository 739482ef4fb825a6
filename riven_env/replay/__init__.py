"""Self-contained HTML replays of RIVEN games.

``write_replay(events, "game.html")`` turns an event log (``docs/event-log.md``) into one HTML
file with no external references: the table as SVG, the models re-placed by replaying the
events in the page, and controls to play, pause and step through the game.
"""

from __future__ import annotations

from riven_env.replay.html import EVENTS_ELEMENT_ID, render_replay, write_replay
from riven_env.replay.narrate import describe_event, describe_events, side_names
from riven_env.replay.spec import BoardSpec, ReplayError, read_board

__all__ = [
    "EVENTS_ELEMENT_ID",
    "BoardSpec",
    "ReplayError",
    "describe_event",
    "describe_events",
    "read_board",
    "render_replay",
    "side_names",
    "write_replay",
]
