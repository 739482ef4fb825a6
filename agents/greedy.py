"""Greedy one-step lookahead over determinised dice.

For each legal decision the agent applies it to ``samples`` copies of the state, each with
its own dice (``copy.reseed`` from the agent's private stream), evaluates the results with
:func:`riven_agents.evaluation.evaluate` and picks the best average. Every decision is tried
against the same ``samples`` seeds (common random numbers), so differences between decisions
are not drowned by dice noise. Ties are broken on the agent's own stream.

``samples`` defaults to 4: enough to rank a charge against a shot, while a decision costs
``samples x len(legal)`` copies and applications (moves are the expensive part).
"""

from __future__ import annotations

from collections.abc import Sequence

from riven_agents.base import BaseAgent
from riven_agents.evaluation import DEFAULT_WEIGHTS, EvaluationWeights, evaluate

from riven_env.game import Decision, GameState

DEFAULT_SAMPLES = 4
# Values closer than this are a tie (the evaluation is a float average).
TIE_TOLERANCE = 1e-9
SEED_BOUND = 2**63


class GreedyAgent(BaseAgent):
    """Pick the decision with the best average value one step ahead.

    Args:
        name: The agent spec (``"greedy"``).
        side: The side it plays.
        seed: Seed of its private stream (determinisation seeds and tie breaks).
        samples: Determinised copies per decision.
        weights: Evaluation weights.
    """

    def __init__(
        self,
        name: str,
        side: str,
        seed: int | Sequence[int] | None = None,
        *,
        samples: int = DEFAULT_SAMPLES,
        weights: EvaluationWeights = DEFAULT_WEIGHTS,
    ) -> None:
        super().__init__(name, side, seed)
        self.samples = max(1, int(samples))
        self.weights = weights

    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """Return the legal decision with the best average evaluation (never mutates ``state``)."""
        if len(legal) == 1:
            return legal[0]
        seeds = [int(s) for s in self.rng.integers(0, SEED_BOUND, size=self.samples)]
        side = state.current_side
        scores = [self.score(state, decision, seeds, side) for decision in legal]
        best = max(scores)
        tied = [d for d, v in zip(legal, scores, strict=True) if v >= best - TIE_TOLERANCE]
        return tied[int(self.rng.integers(0, len(tied)))]

    def score(self, state: GameState, decision: Decision, seeds: Sequence[int], side: str) -> float:
        """Average value for ``side`` of ``decision`` over copies reseeded with ``seeds``."""
        total = 0.0
        for seed in seeds:
            trial = state.copy()
            trial.reseed(seed)
            trial.apply(decision)
            total += evaluate(trial, side, self.weights)
        return total / len(seeds)


__all__ = ["DEFAULT_SAMPLES", "GreedyAgent"]
