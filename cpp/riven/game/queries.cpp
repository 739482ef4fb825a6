#include "riven/game/queries.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "riven/rules/shooting.hpp"

namespace riven::game {

Bases bases_of(const GameState& state) {
  Bases out;
  const std::size_t n = state.models.size();
  out.centers.resize(2 * n);
  out.radii.resize(n);
  out.on_table.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Model& m = state.models[i];
    out.centers[2 * i] = m.x;
    out.centers[2 * i + 1] = m.y;
    out.radii[i] = m.radius;
    out.on_table[i] = m.on_table ? 1 : 0;
  }
  return out;
}

std::vector<std::size_t> active_models(const GameState& state, int side) {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < state.models.size(); ++j) {
    if (state.model_side(j) == side && state.models[j].is_active()) out.push_back(j);
  }
  return out;
}

std::vector<std::size_t> enemies_of(const GameState& state, std::size_t i) {
  return active_models(state, 1 - state.model_side(i));
}

std::vector<std::size_t> friends_of(const GameState& state, std::size_t i) {
  std::vector<std::size_t> out;
  const int side = state.model_side(i);
  for (std::size_t j = 0; j < state.models.size(); ++j) {
    if (j != i && state.model_side(j) == side && state.models[j].on_table) out.push_back(j);
  }
  return out;
}

std::vector<std::size_t> engaged_enemies(const GameState& state, const table::BasesView& bases, std::size_t i,
                                         double contact_tolerance) {
  std::vector<std::size_t> out;
  const int side = state.model_side(i);
  for (const std::size_t j : table::contacts(bases, i, contact_tolerance)) {
    if (state.model_side(j) != side && state.models[j].is_active()) out.push_back(j);
  }
  return out;
}

double distance_to_point(const GameState& state, std::size_t i, table::Point point) {
  const Model& m = state.models[i];
  // float(np.hypot(...)): the C library's hypot, as numpy.
  const double d = std::hypot(m.x - point.x, m.y - point.y);
  return std::max(0.0, d - m.radius);
}

std::vector<std::string> condition_names(const GameState& state, std::size_t i) {
  const Model& m = state.models[i];
  std::vector<std::string> out;
  out.reserve(m.condition_count);
  for (std::size_t c = 0; c < m.condition_count; ++c) {
    out.push_back(state.info().conditions[static_cast<std::size_t>(m.conditions[c].id)]);
  }
  return out;
}

rules::ConditionLimits limits(const GameState& state, std::size_t i, const rules::RulesConfig& rules) {
  return rules::condition_limits(condition_names(state, i), rules);
}

double move_allowance(const GameState& state, std::size_t i, const rules::RulesConfig& rules) {
  const double move = state.info().profiles[static_cast<std::size_t>(state.info().model_profile[i])].move;
  const double penalty = state.models[i].condition_count == 0 ? 0.0 : limits(state, i, rules).move_penalty;
  return std::max(0.0, move - penalty);
}

const std::vector<std::string>& engaged_forbids(const rules::RulesConfig& rules) { return rules.engagement.forbids; }

std::size_t chooser_of(const GameState& state) {
  if (!state.pending) throw std::invalid_argument("chooser_of: no roll is pending");
  return static_cast<std::size_t>(state.pending->model);
}

namespace {

bool contains(const std::vector<std::string>& names, const char* name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<ShotTarget> shot_targets(const GameState& state, const table::BasesView& bases,
                                     const table::TableGeometry& table, const rules::RulesConfig& rules,
                                     std::size_t i, const rules::Weapon* ranged, double contact_tolerance) {
  std::vector<ShotTarget> targets;
  if (ranged == nullptr) return targets;
  if (contains(engaged_forbids(rules), "shoot") && !engaged_enemies(state, bases, i, contact_tolerance).empty()) {
    return targets;
  }
  const int side = state.model_side(i);
  bool own_read = false;
  std::vector<std::size_t> own_contacts;
  for (const std::size_t j : enemies_of(state, i)) {
    if (!rules::in_range(*ranged, table::edge_distance(bases, i, j))) continue;
    std::vector<std::size_t> engaged_with;
    for (const std::size_t k : table::contacts(bases, j, contact_tolerance)) {
      if (state.model_side(k) == side) engaged_with.push_back(k);
    }
    if (!engaged_with.empty()) {
      if (!own_read) {
        own_contacts = table::contacts(bases, i, contact_tolerance);
        own_read = true;
      }
      bool adjacent = false;
      for (const std::size_t k : engaged_with) {
        if (std::find(own_contacts.begin(), own_contacts.end(), k) != own_contacts.end()) adjacent = true;
      }
      if (!rules::may_shoot_into_melee(adjacent, rules)) continue;
    }
    // sight(): (False, "none") when either model is off the table (enemies are active: on it).
    if (!bases.on(i) || !bases.on(j)) continue;
    const auto [visible, rank] = table.sight_between(bases.center(i), bases.radii[i], bases.center(j), bases.radii[j]);
    if (!visible) continue;
    static const std::string kCoverNames[3] = {"none", "soft", "hard"};
    const std::string& cover = kCoverNames[std::clamp(rank, 0, 2)];
    targets.push_back({j, rules::effective_cover(cover, condition_names(state, j), ranged, rules)});
  }
  return targets;
}

int controller(const GameState& state, std::size_t k) {
  const Objective& obj = state.info().objectives[k];
  bool present[kSides] = {false, false};
  for (std::size_t j = 0; j < state.models.size(); ++j) {
    if (state.models[j].is_active() && distance_to_point(state, j, {obj.x, obj.y}) <= obj.radius) {
      present[state.model_side(j)] = true;
    }
  }
  if (present[0] == present[1]) return -1;
  return present[0] ? 0 : 1;
}

}  // namespace riven::game
