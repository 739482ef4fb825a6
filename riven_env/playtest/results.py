"""Headline results of a stored run: win and draw rates with intervals, mean rounds."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from riven_env.playtest.config import SIDES
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.stats import Interval, mean_interval, wilson_interval


def rate_json(interval: Interval) -> dict[str, float | None]:
    """``{"rate", "low", "high"}`` of an interval (``rate`` is null with no games)."""
    rate = None if interval.n == 0 else interval.value
    return {"rate": rate, "low": interval.low, "high": interval.high}


@dataclass(frozen=True)
class RunSummary:
    """Headline numbers of one run, computed from the database.

    Attributes:
        run_id: The run.
        games: Finished games.
        wins: ``{side: wins}`` for blue and red.
        draws: Drawn games.
        win_rate: ``{side: Wilson interval}``.
        draw_rate: Wilson interval of the draw rate.
        rounds: Mean rounds with a t interval.
        first_side_wins: Games won by the side that took the first turn.
        first_side_rate: Wilson interval of the first player's win rate.
        sides: Who played each side (``runs.sides``: agent, warband name, resolved Oracle
            profile, roster; :func:`~riven_env.playtest.summary.side_rosters`), each with
            ``mean_points``, the points it scored per game (null with no games).
    """

    run_id: str
    games: int
    wins: dict[str, int]
    draws: int
    win_rate: dict[str, Interval]
    draw_rate: Interval
    rounds: Interval
    first_side_wins: int
    first_side_rate: Interval
    sides: dict[str, dict[str, Any]] = field(default_factory=dict)

    def headline_json(self) -> dict[str, Any]:
        """The documented ``--json`` keys except ``config``."""
        return {
            "games": self.games,
            "wins": dict(self.wins),
            "draws": self.draws,
            "win_rate": {side: rate_json(i) for side, i in self.win_rate.items()},
            "draw_rate": rate_json(self.draw_rate),
            "mean_rounds": None if self.rounds.n == 0 else self.rounds.value,
            "sides": self.sides,
        }


def summarise_run(db: ResultsDB, run_id: str) -> RunSummary:
    """Compute a :class:`RunSummary` from the stored games of ``run_id``."""
    games = db.games(run_id)
    n = len(games)
    wins = {side: sum(1 for g in games if g["winner"] == side) for side in SIDES}
    draws = sum(1 for g in games if g["draw"])
    first = sum(1 for g in games if g["winner"] is not None and g["winner"] == g["first_side"])
    decided_first = sum(1 for g in games if g["first_side"] is not None)
    stored = db.run(run_id).get("sides")
    sides: dict[str, dict[str, Any]] = json.loads(stored) if stored else {}
    for side in SIDES:
        points = [g[f"{side}_points"] for g in games if g[f"{side}_points"] is not None]
        sides.setdefault(side, {})["mean_points"] = sum(points) / len(points) if points else None
    return RunSummary(
        run_id=run_id,
        games=n,
        wins=wins,
        draws=draws,
        win_rate={side: wilson_interval(count, n) for side, count in wins.items()},
        draw_rate=wilson_interval(draws, n),
        rounds=mean_interval([g["rounds"] for g in games]),
        first_side_wins=first,
        first_side_rate=wilson_interval(first, decided_first),
        sides=sides,
    )
