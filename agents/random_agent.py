"""Uniform random play over the legal decisions (the baseline every agent must beat)."""

from __future__ import annotations

from collections.abc import Sequence

from riven_agents.base import BaseAgent

from riven_env.game import Decision, GameState


class RandomAgent(BaseAgent):
    """Picks a legal decision uniformly at random from its own seeded stream."""

    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        return legal[int(self.rng.integers(0, len(legal)))]
