"""The other side of a single-learner environment: an agent spec, an agent, or a pool.

An environment's ``opponent`` is one of:

* an agent spec (``"oracle"``, ``"random"``, ``"ppo:PATH"``...), built fresh for every episode
  with a seed derived from the game seed (so a seeded episode replays exactly);
* an :class:`OpponentPool` of specs with weights, one drawn per episode from the
  environment's random stream (self-play against earlier snapshots);
* an agent object (``act(state, legal)``), used as it is for every episode.

Policies loaded from ``ppo:PATH`` are cached per process: they are deterministic, and loading
a model file for every episode would dominate the step time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from riven_env.errors import AgentSpecError

_POLICY_CACHE: dict[tuple[str, str], Any] = {}
_POLICY_CACHE_LIMIT = 32


@dataclass
class OpponentPool:
    """Agent specs to draw an opponent from, one per episode.

    Attributes:
        specs: Agent specs (``"ppo:runs/a/snapshots/step_20000.safetensors"``, ``"oracle"``).
        weights: Relative weight of each spec (default: equal).
    """

    specs: list[str]
    weights: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.specs:
            raise AgentSpecError("an opponent pool needs at least one agent spec")
        if not self.weights:
            self.weights = [1.0] * len(self.specs)
        if len(self.weights) != len(self.specs) or any(w < 0 for w in self.weights):
            raise AgentSpecError(
                f"opponent pool weights {self.weights} must be {len(self.specs)} numbers >= 0"
            )
        if sum(self.weights) <= 0:
            raise AgentSpecError("opponent pool weights must not all be 0")

    def draw(self, rng: np.random.Generator) -> str:
        """One spec, drawn by weight."""
        p = np.asarray(self.weights, dtype=np.float64)
        return self.specs[int(rng.choice(len(self.specs), p=p / p.sum()))]


def describe(opponent: Any) -> str:
    """A short name of an opponent setting, for info dicts and logs."""
    if isinstance(opponent, str):
        return opponent
    if isinstance(opponent, OpponentPool):
        return f"pool[{len(opponent.specs)}]"
    return str(getattr(opponent, "name", type(opponent).__name__))


def build_opponent(spec: str, side: str, seed: Sequence[int] | int | None) -> Any:
    """Make the agent named ``spec`` for ``side`` (trained policies come from a cache).

    Raises:
        AgentSpecError: The spec names no known agent.
    """
    from riven_agents.registry import POLICY_KINDS, make_agent, parse_agent_spec

    kind, _ = parse_agent_spec(spec)
    if kind not in POLICY_KINDS:
        return make_agent(spec, side, seed)
    key = (spec, side)
    agent = _POLICY_CACHE.get(key)
    if agent is None:
        if len(_POLICY_CACHE) >= _POLICY_CACHE_LIMIT:
            _POLICY_CACHE.pop(next(iter(_POLICY_CACHE)))
        agent = make_agent(spec, side, seed)
        _POLICY_CACHE[key] = agent
    return agent


def episode_opponent(
    opponent: Any, side: str, seed: Sequence[int] | int | None, rng: np.random.Generator
) -> tuple[Any, str]:
    """The agent for one episode and its name.

    Args:
        opponent: A spec, an :class:`OpponentPool` or an agent object.
        side: The side it plays.
        seed: The agent's private seed for this episode.
        rng: The environment's random stream (draws from a pool).
    """
    if isinstance(opponent, OpponentPool):
        spec = opponent.draw(rng)
        return build_opponent(spec, side, seed), spec
    if isinstance(opponent, str):
        return build_opponent(opponent, side, seed), opponent
    if not callable(getattr(opponent, "act", None)):
        raise AgentSpecError(
            f"opponent {opponent!r} is neither an agent spec, an OpponentPool nor an agent "
            "with act(state, legal)"
        )
    return opponent, describe(opponent)
