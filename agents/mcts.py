"""Determinised (open-loop) Monte Carlo tree search over decisions, with sampled dice.

Each simulation copies the root state and reseeds the copy from the agent's private stream,
so the dice of that simulation are one sample of chance. The tree is keyed by decisions only
(open loop): the same node may be reached through different dice, and the decisions legal
at a node may differ from one simulation to the next, so selection considers only the
children legal in the current sample (expanding an untried legal decision first).

* Selection: UCT, ``mean + c * sqrt(ln(parent visits) / visits)``. Values are stored from
  the root side's view; at a node where the opponent is to move, the mean is negated, so
  each side picks what is best for itself (the side to move changes on turnovers and at
  the end of a turn, so it is read from the sampled state, not from the depth).
* Rollout: uniform random decisions on the agent's stream, at most ``rollout_depth`` of them,
  then :func:`riven_agents.evaluation.evaluate` (exact at the end of the game).
* Choice: the most visited root child (ties: higher mean, then the agent's stream).

Deterministic given the agent's seed: every random draw comes from ``self.rng``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from riven_agents.base import BaseAgent, step_quietly
from riven_agents.evaluation import (
    DEFAULT_WEIGHTS,
    EvaluationWeights,
    evaluate,
    native_game,
    native_weights,
)

from riven_env.errors import AgentSpecError
from riven_env.files import limit
from riven_env.game import Decision, GameState

DEFAULT_SIMULATIONS = 100
# Decisions played at random after leaving the tree. Short: every action-phase decision
# computes candidate destinations (path planning), by far the costliest step of a game.
DEFAULT_ROLLOUT_DEPTH = 8
# UCT exploration constant for values in [-1, 1] (sqrt(2) is the textbook choice for [0, 1]).
DEFAULT_EXPLORATION = 1.0
SEED_BOUND = 2**63


@dataclass
class _Node:
    """Statistics of one decision sequence from the root (values from the root side's view)."""

    visits: int = 0
    value: float = 0.0
    children: dict[Decision, _Node] = field(default_factory=dict)

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


def parse_simulations(value: str | int | None) -> int:
    """The simulation budget from an agent spec argument (``"mcts:200"`` -> 200).

    Raises:
        AgentSpecError: Not a whole number >= 1.
    """
    if value is None:
        return DEFAULT_SIMULATIONS
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    most = int(limit("agents.max_mcts_simulations"))
    if number < 1 or number > most or (isinstance(value, str) and not value.strip().isdigit()):
        raise AgentSpecError(
            f"mcts simulations must be a whole number >= 1 and <= {most} (as in mcts:200), "
            f"got {value!r} (agents.max_mcts_simulations in riven_env/data/limits.toml)"
        )
    return number


class MCTSAgent(BaseAgent):
    """Open-loop MCTS with determinised dice.

    Args:
        name: The agent spec (``"mcts"`` or ``"mcts:N"``).
        side: The side it plays.
        seed: Seed of its private stream.
        simulations: Simulations per decision (a number or the text after ``mcts:``).
        rollout_depth: Random decisions per rollout before evaluating.
        exploration: UCT exploration constant.
        weights: Evaluation weights.

    Raises:
        AgentSpecError: ``simulations`` is not a whole number >= 1.
    """

    def __init__(
        self,
        name: str,
        side: str,
        seed: int | Sequence[int] | None = None,
        simulations: str | int | None = None,
        *,
        rollout_depth: int = DEFAULT_ROLLOUT_DEPTH,
        exploration: float = DEFAULT_EXPLORATION,
        weights: EvaluationWeights = DEFAULT_WEIGHTS,
    ) -> None:
        super().__init__(name, side, seed)
        self.simulations = parse_simulations(simulations)
        self.rollout_depth = max(0, int(rollout_depth))
        self.exploration = float(exploration)
        self.weights = weights

    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """Search ``simulations`` times from ``state`` and return the most visited decision."""
        if len(legal) == 1:
            return legal[0]
        chosen = self._search_in_core(state, legal)
        if chosen is not None:
            return chosen
        root_side = state.current_side
        root = _Node()
        for _ in range(self.simulations):
            self._simulate(state, legal, root, root_side)
        return self._best(root, legal)

    # ------------------------------------------------------------------ search
    def _search_in_core(self, state: GameState, legal: Sequence[Decision]) -> Decision | None:
        """The whole search in one native call (``riven::agents::mcts_choose``, no Python per
        simulation) on a native game offered its own legal list; None elsewhere.

        The same draws from ``self.rng`` in the same order, the same UCT arithmetic, rollouts
        and leaf values as the loop below, so the same decision, and ``self.rng`` is left
        where the loop would leave it.
        """
        if not getattr(state, "in_core", False):
            return None
        native_legal = state.core_legal(legal)
        if native_legal is None:
            return None
        from riven_env.native import load
        from riven_env.native.random import native_stream, numpy_state

        stream = native_stream(self.rng)
        with state.guard:  # the search lets the GIL go: one thread at a time on the state
            index = load().mcts_choose(
                state.model,
                state.native,
                native_legal,
                stream,
                self.simulations,
                self.rollout_depth,
                self.exploration,
                float(self.weights.scale),
                native_weights(self.weights),
                native_game(state),
            )
        self.rng.bit_generator.state = numpy_state(stream)
        return legal[index]

    def _simulate(
        self, state: GameState, legal: Sequence[Decision], root: _Node, root_side: str
    ) -> None:
        sample = state.copy()
        sample.reseed(int(self.rng.integers(0, SEED_BOUND)))
        node, path = root, [root]
        moves: Sequence[Decision] = legal
        while not sample.is_terminal:
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = untried[int(self.rng.integers(0, len(untried)))]
                node.children[move] = child = _Node()
                step_quietly(sample, move)
                path.append(child)
                break
            move = self._select(node, moves, sample.current_side == root_side)
            step_quietly(sample, move)
            node = node.children[move]
            path.append(node)
            moves = sample.legal_decisions()
        value = self._rollout(sample, root_side)
        for visited in path:
            visited.visits += 1
            visited.value += value

    def _select(self, node: _Node, moves: Sequence[Decision], root_to_move: bool) -> Decision:
        log_visits = math.log(max(1, node.visits))
        best, best_score = moves[0], -math.inf
        for move in moves:
            child = node.children[move]
            mean = child.mean() if root_to_move else -child.mean()
            score = mean + self.exploration * math.sqrt(log_visits / max(1, child.visits))
            if score > best_score:
                best, best_score = move, score
        return best

    def _rollout(self, sample: GameState, root_side: str) -> float:
        in_core = getattr(sample, "play_random", None)
        if in_core is not None:
            # A native game plays the same random decisions from the same stream in one call.
            in_core(self.rng, self.rollout_depth)
        else:
            for _ in range(self.rollout_depth):
                if sample.is_terminal:
                    break
                moves = sample.legal_decisions()
                sample.apply(moves[int(self.rng.integers(0, len(moves)))])
        return evaluate(sample, root_side, self.weights)

    def _best(self, root: _Node, legal: Sequence[Decision]) -> Decision:
        ranked = [
            (root.children[m].visits, root.children[m].mean(), m)
            for m in legal
            if m in root.children
        ]
        if not ranked:  # pragma: no cover - a budget of 1 still expands one child
            return legal[int(self.rng.integers(0, len(legal)))]
        top = max((visits, mean) for visits, mean, _ in ranked)
        tied = [m for visits, mean, m in ranked if (visits, mean) == top]
        return tied[int(self.rng.integers(0, len(tied)))]


__all__ = ["DEFAULT_SIMULATIONS", "MCTSAgent", "parse_simulations"]
