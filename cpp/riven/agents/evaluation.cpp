#include "riven/agents/evaluation.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "riven/game/queries.hpp"

namespace riven::agents {

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

double wound_chance(const EvaluationGame& game, const game::GameState& state, std::size_t shooter,
                    const std::string& cover) {
  for (std::size_t c = 0; c < game.covers.size(); ++c) {
    if (game.covers[c] == cover) {
      const std::size_t profile = at(state.statics->model_profile[shooter]);
      return game.wound_chance[profile * game.covers.size() + c];
    }
  }
  throw std::invalid_argument("evaluation: cover '" + cover + "' is not in shooting.cover_tn");
}

}  // namespace

void EvaluationGame::validate(const game::GameStatic& statics) const {
  if (covers.empty()) throw std::invalid_argument("EvaluationGame: no cover names (shooting.cover_tn)");
  if (wound_chance.size() != statics.profiles.size() * covers.size()) {
    throw std::invalid_argument("EvaluationGame: wound_chance has " + std::to_string(wound_chance.size()) +
                                " entries, expected profiles x covers = " +
                                std::to_string(statics.profiles.size() * covers.size()));
  }
  if (!(diagonal > 0.0)) throw std::invalid_argument("EvaluationGame: the table's diagonal must be > 0");
}

double threat(const game::ForwardModel& fm, const game::GameState& state, int side, const EvaluationGame& game) {
  double total = 0.0;
  for (const int i : game::active_models(state, side)) {
    const std::size_t shooter = at(i);
    if (!fm.ranged[at(state.statics->model_profile[shooter])]) continue;
    // max((chance for each target), default=0.0): the first of the largest, as Python's max.
    bool any = false;
    double best = 0.0;
    for (const auto& [target, cover] : game::shot_targets(fm, state, shooter)) {
      const double chance = wound_chance(game, state, shooter, cover);
      if (!any || chance > best) best = chance;
      any = true;
    }
    total += best;
  }
  int wounds = 0;
  for (const int j : game::side_models(state, 1 - side)) wounds += game::profile_of(state, at(j)).wounds;
  return total / static_cast<double>(wounds != 0 ? wounds : 1);
}

double holding(const game::ForwardModel& fm, const game::GameState& state, int side) {
  const game::GameStatic& info = state.info();
  double total = 0.0;
  for (const game::VictoryCondition& condition : fm.victory) {
    if (condition.type != "hold") continue;
    // from_round and points arrive as `from_round or 1` and `points or 0` (riven_env/native/loop.py).
    const int first = std::max(state.round, condition.from_round);
    const int scorings = std::max(0, info.round_limit - first + 1);
    if (scorings == 0) continue;
    for (std::size_t k = 0; k < info.objectives.size(); ++k) {
      const game::Objective& obj = info.objectives[k];
      if (obj.kind == "hold" && game::controller(state, k) == side) {
        total += static_cast<double>(obj.points * std::max(1, condition.points) * scorings);
      }
    }
  }
  return total;
}

SideFeatures side_features(const game::ForwardModel& fm, const game::GameState& state, int side,
                           const EvaluationWeights& weights, const EvaluationGame& game) {
  const game::ModelList models = game::side_models(state, side);
  int start_wounds = 0;
  int wounds = 0;
  int active = 0;
  int on_table = 0;
  std::vector<std::size_t> actives;
  for (const int i : models) {
    const game::Model& m = state.models[at(i)];
    start_wounds += game::profile_of(state, at(i)).wounds;
    if (m.is_active()) {
      wounds += m.wounds;
      active += 1;
      actives.push_back(at(i));
    }
    if (m.is_on_table_status()) on_table += 1;  // ModelState.on_table: Active or Down
  }
  const double start = static_cast<double>(start_wounds != 0 ? start_wounds : 1);
  const double count = static_cast<double>(models.empty() ? 1 : models.size());
  SideFeatures out;
  out.wounds = static_cast<double>(wounds) / start;
  out.models = static_cast<double>(active) / count;
  out.on_table = static_cast<double>(on_table) / count;
  out.points = static_cast<double>(state.points[at(side)]);
  out.momentum = static_cast<double>(state.momentum_of(side));
  out.tempo = state.active_model >= 0 && state.model_side(at(state.active_model)) == side
                  ? static_cast<double>(state.actions_left)
                  : 0.0;
  const game::GameStatic& info = state.info();
  for (std::size_t k = 0; k < info.objectives.size(); ++k) {
    const game::Objective& obj = info.objectives[k];
    if (obj.kind != "hold") continue;
    if (game::controller(state, k) == side) out.objectives += 1.0;
    double nearest = game.diagonal;
    bool any = false;
    for (const std::size_t i : actives) {
      const double d = game::distance_to_point(state, i, {obj.x, obj.y});
      if (!any || d < nearest) nearest = d;
      any = true;
    }
    out.proximity += std::max(0.0, 1.0 - nearest / game.diagonal);
  }
  if (weights.holding != 0.0) out.holding = holding(fm, state, side);
  if (weights.threat != 0.0) out.threat = threat(fm, state, side, game);
  return out;
}

double weighted_total(const game::ForwardModel& fm, const game::GameState& state, int side,
                      const EvaluationWeights& weights, const EvaluationGame& game) {
  if (side < 0 || side >= game::kSides) throw std::invalid_argument("evaluation: side must be 0 or 1");
  const SideFeatures mine = side_features(fm, state, side, weights, game);
  const SideFeatures theirs = side_features(fm, state, 1 - side, weights, game);
  // sum(weight * (mine - theirs) for name in mine): Python's dict order, one rounding at a time.
  double total = 0.0;
  total += weights.wounds * (mine.wounds - theirs.wounds);
  total += weights.models * (mine.models - theirs.models);
  total += weights.on_table * (mine.on_table - theirs.on_table);
  total += weights.points * (mine.points - theirs.points);
  total += weights.momentum * (mine.momentum - theirs.momentum);
  total += weights.tempo * (mine.tempo - theirs.tempo);
  total += weights.objectives * (mine.objectives - theirs.objectives);
  total += weights.proximity * (mine.proximity - theirs.proximity);
  if (weights.holding != 0.0) total += weights.holding * (mine.holding - theirs.holding);
  if (weights.threat != 0.0) total += weights.threat * (mine.threat - theirs.threat);
  return total;
}

}  // namespace riven::agents
