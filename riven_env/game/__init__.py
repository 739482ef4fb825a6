"""The forward model of RIVEN: game state, decisions, events, the turn sequence.

Pure: imports numpy, shapely and networkx (through the tabletop), never gymnasium,
pettingzoo, torch or matplotlib.
"""

from riven_env.game.decisions import Decision
from riven_env.game.events import Event, dumps_event, read_jsonl, write_jsonl
from riven_env.game.setup import new_game
from riven_env.game.state import SIDES, GameState

__all__ = [
    "SIDES",
    "Decision",
    "Event",
    "GameState",
    "dumps_event",
    "new_game",
    "read_jsonl",
    "write_jsonl",
]
