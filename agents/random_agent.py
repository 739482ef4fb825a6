"""Uniform random play over the legal decisions (the baseline every agent must beat)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from riven_agents.base import BaseAgent

from riven_env.game import Decision, GameState


class RandomAgent(BaseAgent):
    """Picks a legal decision uniformly at random from its own seeded stream."""

    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        return legal[int(self.rng.integers(0, len(legal)))]

    def core_seat(self, state: Any) -> tuple[None, Any] | None:
        """This agent's seat in a game played wholly in the core: no Oracle, its own stream
        (the core picks ``legal[integers(0, len(legal))]`` as :meth:`act` does), or None when
        ``state`` is not a native game or a subclass decides otherwise."""
        if type(self) is not RandomAgent or not getattr(state, "in_core", False):
            return None
        from riven_env.native.random import native_stream

        return None, native_stream(self.rng)

    def seat_done(self, stream: Any) -> None:
        """Take the private stream back from the core after it played this agent's side."""
        from riven_env.native.random import numpy_state

        self.rng.bit_generator.state = numpy_state(stream)
