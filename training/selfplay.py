"""Self-play: the learner trains against a pool of its own earlier snapshots.

Every ``selfplay.snapshot_every`` timesteps the learner is saved to ``OUT/snapshots/`` and the
pool becomes the ``selfplay.pool_size`` most recent snapshots (plus, with
``selfplay.include_opponent``, the ``--opponent`` agent such as the Oracle). Each environment
draws one opponent from the pool per episode. The learner's results against each pool member
are counted from the finished episodes and logged as ``selfplay/win_rate/NAME``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from riven_env.envs.opponents import OpponentPool


class SelfPlayPool:
    """The snapshots and the fixed opponent a self-playing learner faces.

    Args:
        opponent: The fixed opponent spec (kept when ``include_opponent``).
        pool_size: Most recent snapshots kept.
        include_opponent: Keep ``opponent`` in the pool.
        opponent_weight: Its weight (each snapshot weighs 1).
    """

    def __init__(
        self, opponent: str, pool_size: int, include_opponent: bool, opponent_weight: float
    ) -> None:
        self.opponent = opponent
        self.pool_size = pool_size
        self.include_opponent = include_opponent
        self.opponent_weight = opponent_weight
        self.snapshots: list[str] = []
        self._results: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])

    def add_snapshot(self, path: str | Path) -> None:
        """Add a saved snapshot (keeping the ``pool_size`` most recent)."""
        self.snapshots.append(f"ppo:{path}")
        self.snapshots = self.snapshots[-self.pool_size :] if self.pool_size > 0 else []

    def pool(self) -> OpponentPool:
        """The current pool as the environments take it."""
        specs = list(self.snapshots)
        weights = [1.0] * len(specs)
        if self.include_opponent or not specs:
            specs.append(self.opponent)
            weights.append(self.opponent_weight if specs[:-1] else 1.0)
        return OpponentPool(specs, weights)

    def record(self, info: dict[str, Any]) -> None:
        """Count a finished episode's result (from an env's final ``info``)."""
        result = info.get("result")
        if result is None:
            return
        counts = self._results[self.short_name(info.get("opponent", "?"))]
        if result["winner"] is None:
            counts[1] += 1
        elif result["winner"] == info.get("learner_side"):
            counts[0] += 1
        else:
            counts[2] += 1

    def win_rates(self, reset: bool = True) -> dict[str, tuple[float, int]]:
        """Name -> (win rate, games) since the last reset."""
        rates = {
            name: (wins / max(1, wins + draws + losses), wins + draws + losses)
            for name, (wins, draws, losses) in self._results.items()
        }
        if reset:
            self._results.clear()
        return rates

    @staticmethod
    def short_name(spec: str) -> str:
        """``ppo:out/snapshots/step_20000.safetensors`` -> ``step_20000``; other specs unchanged."""
        if spec.startswith("ppo:"):
            return Path(spec[4:]).stem
        return spec
