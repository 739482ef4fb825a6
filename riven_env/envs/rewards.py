"""Rewards of the environments: the game result, plus optional potential-based shaping."""

from __future__ import annotations

from typing import Any

from riven_env.encoding.layout import enemy_of
from riven_env.envs.config import EnvConfig
from riven_env.game.model_state import DOWN, FLED, OUT

# Statuses that count as a casualty for shaping (an extracted model is a success, not a loss).
CASUALTY_STATUSES = frozenset({DOWN, OUT, FLED})
# Reasons a game ends at its round limit (the environments report these as truncation).
ROUND_LIMIT_REASONS = frozenset({"round_limit"})


def outcome_reward(state: Any, side: str, config: EnvConfig) -> float:
    """The result reward of a finished game for ``side`` (0 while the game goes on)."""
    if not state.is_terminal:
        return 0.0
    if state.winner is None:
        return config.draw
    return config.win if state.winner == side else config.loss


def potential(state: Any, side: str, config: EnvConfig) -> float:
    """The shaping potential of ``state`` for ``side`` (0 when shaping is off).

    The potential is a weighted sum of advantages (victory points, wounds inflicted, models
    put out of action); a step's shaping reward is the change of it, so the shaping over a
    game telescopes to its final value.
    """
    if not config.shaping:
        return 0.0
    enemy = enemy_of(side)
    value = config.shaping_points * (state.points[side] - state.points[enemy])
    if config.shaping_wounds or config.shaping_casualties:
        lost = {side: 0, enemy: 0}
        fallen = {side: 0, enemy: 0}
        for model in state.models:
            lost[model.side] += model.profile.wounds - max(0, model.wounds)
            fallen[model.side] += 1 if model.status in CASUALTY_STATUSES else 0
        value += config.shaping_wounds * (lost[enemy] - lost[side])
        value += config.shaping_casualties * (fallen[enemy] - fallen[side])
    return float(value)


def ended_by_round_limit(state: Any) -> bool:
    """Whether a finished game ended because the rounds ran out."""
    return state.is_terminal and state.end_reason in ROUND_LIMIT_REASONS
