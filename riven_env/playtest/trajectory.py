"""Score and model-count trajectories of a game, read from its event log.

A *checkpoint* is taken at the end of every turn and at the end of the game: both sides'
points and active models (on the table and not Down) at that moment. Decisiveness, lead
changes and drama (:mod:`riven_env.analytics.metrics`) are computed from this sequence.
Only events are read (schema ``docs/event-log.md``), so a log read back from disk gives
the same trajectory as one fresh from the game.

The playtest workers record it with every game (``riven_env.analytics.trajectory``
re-exports it for the analytics).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

SIDES = ("blue", "red")
# Events after which a checkpoint is taken.
CHECKPOINT_EVENTS = ("turn_end", "game_end")


@dataclass(frozen=True)
class Checkpoint:
    """Both sides' standing at one moment of a game.

    Attributes:
        step: 0-based index of the checkpoint in the game.
        round: Round it was taken in.
        blue_points: Blue's points so far.
        red_points: Red's points so far.
        blue_active: Blue models on the table and not Down.
        red_active: Red models on the table and not Down.
    """

    step: int
    round: int
    blue_points: int
    red_points: int
    blue_active: int
    red_active: int

    def lead(self) -> str | None:
        """The side ahead: more points, or on equal points more active models; else None."""
        points = self.blue_points - self.red_points
        if points:
            return "blue" if points > 0 else "red"
        models = self.blue_active - self.red_active
        if models:
            return "blue" if models > 0 else "red"
        return None

    def to_dict(self) -> dict[str, int]:
        """JSON-ready fields."""
        return asdict(self)


def trajectory_from_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, int]]:
    """Checkpoints (as dicts) of one game's event log.

    Args:
        events: The log in order, beginning with ``game_start``.

    Returns:
        One :meth:`Checkpoint.to_dict` per ``turn_end`` and ``game_end`` event, in order.
    """
    side_of: dict[str, str] = {}
    active = dict.fromkeys(SIDES, 0)
    points = dict.fromkeys(SIDES, 0)
    inactive: set[str] = set()
    out: list[dict[str, int]] = []
    for event in events:
        kind = event.get("type")
        if kind == "game_start":
            for row in event.get("models", []):
                side_of[row["id"]] = row["side"]
                if row["side"] in active:
                    active[row["side"]] += 1
        elif kind in ("down", "removed"):
            model = event.get("model")
            if model in side_of and model not in inactive and side_of[model] in active:
                inactive.add(model)
                active[side_of[model]] -= 1
        elif kind == "score" and event.get("side") in points:
            points[event["side"]] = int(event.get("total", points[event["side"]]))
        if kind in CHECKPOINT_EVENTS:
            if kind == "game_end":
                for side, value in (event.get("points") or {}).items():
                    if side in points:
                        points[side] = int(value)
            out.append(
                Checkpoint(
                    step=len(out),
                    round=int(event.get("round") or event.get("rounds") or 0),
                    blue_points=points["blue"],
                    red_points=points["red"],
                    blue_active=active["blue"],
                    red_active=active["red"],
                ).to_dict()
            )
    return out


def checkpoints(rows: Sequence[Mapping[str, Any]]) -> list[Checkpoint]:
    """Rebuild :class:`Checkpoint` objects from dicts or database rows, ordered by step."""
    fields = ("step", "round", "blue_points", "red_points", "blue_active", "red_active")
    built = [Checkpoint(**{k: int(row[k]) for k in fields}) for row in rows]
    return sorted(built, key=lambda c: c.step)
