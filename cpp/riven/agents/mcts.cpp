#include "riven/agents/mcts.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "riven/game/events.hpp"
#include "riven/game/loop.hpp"
#include "riven/game/queries.hpp"
#include "riven/rules/seeding.hpp"

namespace riven::agents {

namespace {

// agents/mcts.py SEED_BOUND (2**63) less one: its draw integers(0, SEED_BOUND) includes this.
constexpr std::int64_t kLargestSeed = std::numeric_limits<std::int64_t>::max();
constexpr double kNonTerminalBound = 0.999;  // evaluate's clamp

// _Node: statistics of one decision sequence from the root (values from the root side's view);
// children by decision, in the order they were expanded (a dict's order), as indices into the
// tree's node pool.
struct Node {
  std::int64_t visits = 0;
  double value = 0.0;
  std::vector<std::pair<game::Decision, std::size_t>> children;

  [[nodiscard]] double mean() const { return visits ? value / static_cast<double>(visits) : 0.0; }
  [[nodiscard]] const std::size_t* child(const game::Decision& d) const {
    for (const auto& [decision, at] : children) {
      if (decision == d) return &at;
    }
    return nullptr;
  }
};

class Search {
 public:
  Search(const game::ForwardModel& fm, const game::GameState& root, std::span<const game::Decision> legal,
         rules::Pcg64& rng, const MctsSettings& settings, const EvaluationWeights& weights, const EvaluationGame& game)
      : fm_(fm), root_(root), legal_(legal), rng_(rng), settings_(settings), weights_(weights), game_(game) {
    nodes_.reserve(static_cast<std::size_t>(std::max<std::int64_t>(1, settings.simulations)) + 1U);
    nodes_.emplace_back();
  }

  std::size_t choose() {
    const int root_side = root_.current_side();
    for (std::int64_t k = 0; k < settings_.simulations; ++k) simulate(root_side);
    return best();
  }

 private:
  // MCTSAgent._simulate.
  void simulate(int root_side) {
    game::GameState sample = root_;
    const std::array<std::uint64_t, 1> seed{static_cast<std::uint64_t>(rng_.integers_closed(0, kLargestSeed))};
    sample.rng = rules::seeded_pcg64(seed);
    std::size_t node = 0;
    path_.assign(1, 0);
    std::vector<game::Decision> owned;
    std::span<const game::Decision> moves = legal_;
    while (!sample.over) {
      untried_.clear();
      for (const game::Decision& m : moves) {
        if (nodes_[node].child(m) == nullptr) untried_.push_back(m);
      }
      if (!untried_.empty()) {
        const game::Decision move =
            untried_[static_cast<std::size_t>(rng_.integers(0, static_cast<std::int64_t>(untried_.size())))];
        const std::size_t child = nodes_.size();
        nodes_.emplace_back();
        nodes_[node].children.emplace_back(move, child);
        step(sample, move, moves);
        path_.push_back(child);
        break;
      }
      const game::Decision move = select(nodes_[node], moves, sample.current_side() == root_side);
      step(sample, move, moves);
      node = *nodes_[node].child(move);
      path_.push_back(node);
      if (sample.over) break;  // the Python loop lists the finished game's decisions (none) and stops
      owned = game::legal_decisions(fm_, sample);
      moves = owned;
    }
    const double value = rollout(sample, root_side);
    for (const std::size_t visited : path_) {
      nodes_[visited].visits += 1;
      nodes_[visited].value += value;
    }
  }

  // MCTSAgent._select: UCT over the children legal in this sample, the first best in order.
  [[nodiscard]] game::Decision select(const Node& node, std::span<const game::Decision> moves,
                                      bool root_to_move) const {
    const double log_visits = std::log(static_cast<double>(std::max<std::int64_t>(1, node.visits)));
    game::Decision best = moves.front();
    double best_score = -std::numeric_limits<double>::infinity();
    for (const game::Decision& move : moves) {
      const Node& child = nodes_[*node.child(move)];
      const double mean = root_to_move ? child.mean() : -child.mean();
      const double score =
          mean + settings_.exploration *
                     std::sqrt(log_visits / static_cast<double>(std::max<std::int64_t>(1, child.visits)));
      if (score > best_score) {
        best = move;
        best_score = score;
      }
    }
    return best;
  }

  // MCTSAgent._rollout on a native game: play_random on the agent's stream, then evaluate.
  double rollout(game::GameState& sample, int root_side) {
    game::EventLog quiet = game::EventLog::discarding();
    game::play_random(fm_, sample, rng_, settings_.rollout_depth, quiet);
    return evaluate(fm_, sample, root_side, weights_, settings_.scale, game_);
  }

  // riven_agents.base.step_quietly: the decision applied, its events dropped.
  // (`moves`: the sample's legal decisions, listed by the caller.)
  void step(game::GameState& sample, const game::Decision& move, std::span<const game::Decision> moves) const {
    game::EventLog quiet = game::EventLog::discarding();
    game::apply(fm_, sample, move, quiet, moves);
  }

  // MCTSAgent._best: the most visited root child, then the higher mean, then the agent's stream.
  std::size_t best() {
    const Node& root = nodes_.front();
    std::vector<std::size_t> ranked;
    bool any = false;
    std::int64_t top_visits = 0;
    double top_mean = 0.0;
    for (std::size_t k = 0; k < legal_.size(); ++k) {
      const std::size_t* at = root.child(legal_[k]);
      if (at == nullptr) continue;
      const Node& child = nodes_[*at];
      const double mean = child.mean();
      if (!any || child.visits > top_visits || (child.visits == top_visits && mean > top_mean)) {
        top_visits = child.visits;
        top_mean = mean;
        any = true;
      }
      ranked.push_back(k);
    }
    if (!any) {
      return static_cast<std::size_t>(rng_.integers(0, static_cast<std::int64_t>(legal_.size())));
    }
    std::vector<std::size_t> tied;
    for (const std::size_t k : ranked) {
      const Node& child = nodes_[*root.child(legal_[k])];
      if (child.visits == top_visits && child.mean() == top_mean) tied.push_back(k);
    }
    return tied[static_cast<std::size_t>(rng_.integers(0, static_cast<std::int64_t>(tied.size())))];
  }

  const game::ForwardModel& fm_;
  const game::GameState& root_;
  std::span<const game::Decision> legal_;
  rules::Pcg64& rng_;
  const MctsSettings& settings_;
  const EvaluationWeights& weights_;
  const EvaluationGame& game_;
  std::vector<Node> nodes_;
  std::vector<std::size_t> path_;
  std::vector<game::Decision> untried_;
};

}  // namespace

double evaluate(const game::ForwardModel& fm, const game::GameState& state, int side, const EvaluationWeights& weights,
                double scale, const EvaluationGame& game) {
  if (state.over) {
    if (state.winner < 0) return 0.0;
    return state.winner == side ? 1.0 : -1.0;
  }
  const double total = weighted_total(fm, state, side, weights, game);
  return std::max(-kNonTerminalBound, std::min(kNonTerminalBound, std::tanh(scale * total)));
}

std::size_t mcts_choose(const game::ForwardModel& fm, const game::GameState& state,
                        std::span<const game::Decision> legal, rules::Pcg64& rng, const MctsSettings& settings,
                        const EvaluationWeights& weights, const EvaluationGame& game) {
  if (legal.size() < 2) throw std::invalid_argument("mcts_choose: a search needs two legal decisions or more");
  if (settings.simulations < 1) throw std::invalid_argument("mcts_choose: simulations must be 1 or more");
  return Search(fm, state, legal, rng, settings, weights, game).choose();
}

}  // namespace riven::agents
