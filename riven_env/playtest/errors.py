"""Errors raised by the playtest layer.

They derive from :class:`riven_env.errors.RivenError`, so the command line prints them as
one line and exits non-zero, exactly like bad rules or scenario data.
"""

from __future__ import annotations

from riven_env.errors import RivenError


class PlaytestError(RivenError):
    """A playtest cannot run or its results cannot be read; the message says why."""


class GameFailedError(PlaytestError):
    """A game raised an error inside a worker.

    Attributes:
        game_index: Index of the failed game within its run.
        seed: The game's seed (replay it with ``riven play`` to debug).
        detail: The worker's error message (or the traceback of an unexpected crash).
    """

    def __init__(self, game_index: int, seed: int, detail: str):
        self.game_index = game_index
        self.seed = seed
        self.detail = detail
        super().__init__(f"game {game_index} (seed {seed}) failed: {detail}")
