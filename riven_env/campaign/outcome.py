"""What one mission did to each model, read from its event log alone.

:func:`read_outcome` walks a mission's events (``docs/event-log.md``) and returns, for each
model of the warband's side, how it ended (``active``, ``down``, ``stabilised``, ``out``,
``fled``, ``extracted``), the enemy models it took Down, the Criticals it rolled, and for
the side the objectives it scored, whether it won and (solo hero) the unspent personal
Momentum. The post-battle sequence reads nothing else, so a log replays to the same result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: How a model can end a mission.
ENDINGS: tuple[str, ...] = ("active", "down", "stabilised", "out", "fled", "extracted")


@dataclass(frozen=True)
class ModelOutcome:
    """How one model ended a mission."""

    id: str
    ending: str
    kills: int = 0
    criticals: int = 0


@dataclass(frozen=True)
class MissionOutcome:
    """The warband side's result of one mission."""

    side: str
    winner: str | None
    draw: bool
    reason: str
    rounds: int | None
    points: Mapping[str, int]
    objectives: tuple[str, ...]
    models: Mapping[str, ModelOutcome] = field(default_factory=dict)
    momentum: Mapping[str, int] = field(default_factory=dict)

    @property
    def won(self) -> bool:
        return self.winner == self.side

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "draw": self.draw,
            "reason": self.reason,
            "rounds": self.rounds,
            "points": dict(self.points),
            "objectives": list(self.objectives),
            "models": {
                k: {"ending": m.ending, "kills": m.kills, "criticals": m.criticals}
                for k, m in self.models.items()
            },
        }


def read_outcome(events: Sequence[Mapping[str, Any]], side: str = "blue") -> MissionOutcome:
    """The outcome of one mission for ``side`` (the warband's), from its events."""
    start = events[0]
    sides = {m["id"]: m["side"] for m in start["models"]}
    ending = {mid: "active" for mid, s in sides.items() if s == side}
    kills = dict.fromkeys(ending, 0)
    crits = dict.fromkeys(ending, 0)
    objectives: list[str] = []
    momentum: dict[str, int] = dict(start.get("momentum", {}))
    end: Mapping[str, Any] = {}
    for event in events:
        kind = event["type"]
        if kind == "down" and event["model"] in ending:
            ending[event["model"]] = "down"
        elif kind == "stabilise" and event["model"] in ending:
            ending[event["model"]] = "stabilised"
        elif kind == "removed" and event["model"] in ending:
            ending[event["model"]] = str(event["reason"])
        elif kind == "wound":
            source = event.get("source")
            if (
                source in kills
                and event.get("wounds_left") == 0
                and sides.get(event["model"]) not in (None, side)
            ):
                kills[source] += 1
        elif kind in ("test", "shot", "melee"):
            who = {"test": event.get("model"), "shot": event.get("shooter")}.get(
                kind, event.get("winner")
            )
            critical = event.get("outcome" if kind == "melee" else "result") == "critical"
            if critical and who in crits:
                crits[who] += 1
        elif kind == "objective" and event.get("side") == side:
            if event["objective"] not in objectives:
                objectives.append(str(event["objective"]))
        elif kind == "momentum":
            momentum[str(event["owner"])] = int(event["value"])
        elif kind == "game_end":
            end = event
    models = {mid: ModelOutcome(mid, ending[mid], kills[mid], crits[mid]) for mid in ending}
    return MissionOutcome(
        side=side,
        winner=end.get("winner"),
        draw=bool(end.get("draw", False)),
        reason=str(end.get("reason", "unfinished")),
        rounds=end.get("rounds"),
        points=dict(end.get("points") or {}),
        objectives=tuple(objectives),
        models=models,
        momentum=momentum,
    )


__all__ = ["ENDINGS", "MissionOutcome", "ModelOutcome", "read_outcome"]
