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


class WorkerLostError(PlaytestError):
    """A worker process died (killed, out of memory) and its batch failed every retry.

    The backend raises it with ``detail`` only; the runner adds what is saved and how to
    go on, so that the message is the one line a user needs.

    Attributes:
        detail: Which worker died, how, and which games it was playing.
        run_id: The run (``None`` until the runner adds it).
        saved: Games of the run stored in the database.
        games: Games the run asked for.
    """

    def __init__(
        self,
        detail: str,
        *,
        run_id: str | None = None,
        saved: int | None = None,
        games: int | None = None,
    ):
        self.detail = detail
        self.run_id = run_id
        self.saved = saved
        self.games = games
        text = detail
        if run_id is not None:
            text += (
                f"; {saved} of {games} games of run {run_id} are saved; "
                "run the same command again with --resume to play the rest"
            )
        super().__init__(text)
