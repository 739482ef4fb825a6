// agents/mcts.py MCTSAgent.act on the native loop's own state: the determinised open-loop tree
// search with the same draws from the agent's stream, the same UCT arithmetic and the same
// rollouts and leaf values, so the same decision (tests/test_agents_search.py plays the same
// games on both engines). No Python per simulation: a search is one call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "riven/agents/evaluation.hpp"
#include "riven/game/decision.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/state.hpp"
#include "riven/rules/pcg64.hpp"

namespace riven::agents {

/// MCTSAgent's settings (agents/mcts.py), with EvaluationWeights.scale.
struct MctsSettings {
  std::int64_t simulations = 100;
  std::int64_t rollout_depth = 8;
  double exploration = 1.0;
  double scale = 1.0;
};

/// agents/evaluation.py evaluate: +1 / -1 / 0 for a finished game won / lost / drawn by `side`,
/// else tanh(scale * weighted_total) kept inside [-0.999, 0.999].
double evaluate(const game::ForwardModel& fm, const game::GameState& state, int side, const EvaluationWeights& weights,
                double scale, const EvaluationGame& game);

/// MCTSAgent.act(state, legal) with more than one legal decision: the index in `legal` (the
/// state's own list, in order) of the decision chosen. `rng` is the agent's stream; it moves on
/// as act's draws move it (a seed per simulation, the untried child, the rollout, the tie).
std::size_t mcts_choose(const game::ForwardModel& fm, const game::GameState& state,
                        std::span<const game::Decision> legal, rules::Pcg64& rng, const MctsSettings& settings,
                        const EvaluationWeights& weights, const EvaluationGame& game);

}  // namespace riven::agents
