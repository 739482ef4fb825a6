"""The Agent protocol: anything that picks one legal decision from a game state."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from riven_env.game import Decision, GameState


@runtime_checkable
class Agent(Protocol):
    """A player of one side.

    Attributes:
        name: The spec the agent was made from (``"oracle:aggressive"``, ``"mcts:200"``).
        last_explanation: After :meth:`act`, an optional dict ``{model, profile, rule,
            decision, explanation}`` that the game runner records as an
            ``oracle_decision`` event (the Enemy Oracle explains every decision).
    """

    name: str
    last_explanation: dict[str, Any] | None

    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """Return one of ``legal`` for ``state.current_side``; never mutate ``state``."""
        ...


class BaseAgent(abc.ABC):
    """Shared plumbing: a name, a side, a private random stream and no explanation."""

    def __init__(self, name: str, side: str, seed: int | Sequence[int] | None = None) -> None:
        import numpy as np

        self.name = name
        self.side = side
        self.rng = np.random.default_rng(seed)
        self.last_explanation: dict[str, Any] | None = None

    @abc.abstractmethod
    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """Return one of ``legal``; subclasses decide how."""


def step_quietly(sample: GameState, decision: Decision) -> None:
    """``sample.apply(decision)`` for a search's copy: the events are dropped in the core where
    the engine can (a native game's ``apply_quiet``) instead of turned into dicts nobody reads."""
    quiet = getattr(sample, "apply_quiet", None)
    if quiet is not None:
        quiet(decision)
    else:
        sample.apply(decision)
