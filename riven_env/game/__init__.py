"""The forward model of RIVEN: game state, decisions, events, the turn sequence.

A game on an engine choice (this reference or the native core) starts with
:func:`riven_env.engines.new_game`.

Pure: imports numpy, shapely and networkx (through the tabletop), never gymnasium,
pettingzoo, torch or matplotlib.
"""

from riven_env.game.decisions import Decision
from riven_env.game.events import Event, dumps_event, read_jsonl, write_jsonl
from riven_env.game.state import SIDES, GameState

__all__ = [
    "SIDES",
    "Decision",
    "Event",
    "GameState",
    "dumps_event",
    "read_jsonl",
    "write_jsonl",
]
