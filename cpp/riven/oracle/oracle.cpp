#include "riven/oracle/oracle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "riven/game/queries.hpp"
#include "riven/table/geometry.hpp"

namespace riven::oracle {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// situation.py _BOUND_MARGIN: a cheap bound keeps whatever lies within its limit plus this
// margin (far above rounding), so it never leaves out what the exact query would keep.
constexpr double kBoundMargin = 1e-6;

template <class Enum, std::size_t N>
Enum from_name(const std::array<std::string_view, N>& names, std::string_view name, const char* what) {
  for (std::size_t k = 0; k < N; ++k) {
    if (names[k] == name) return static_cast<Enum>(k);
  }
  throw std::invalid_argument(std::string("unknown Oracle ") + what + " " + std::string(name));
}

using game::Decision;
using game::GameState;
using std::size_t;

/// Model indices as the Oracle keeps them (the game queries answer Python ints).
std::vector<size_t> indices(const std::vector<int>& models) {
  std::vector<size_t> out;
  out.reserve(models.size());
  for (const int j : models) out.push_back(static_cast<size_t>(j));
  return out;
}

/// situation.py Board: facts about the whole game at one decision point.
class Board {
 public:
  Board(const OracleGame& oracle, const GameState& state, const table::TableGeometry& table,
        const rules::RulesConfig& rules, const Routing& routing)
      : oracle_(oracle),
        state_(state),
        table_(table),
        rules_(rules),
        routing_(routing),
        bases_(game::bases_of(state)),
        view_(bases_.view()),
        gaps_(state.models.size()),
        engaged_(state.models.size()),
        controllers_(state.info().objectives.size(), -2) {}

  const OracleGame& oracle() const { return oracle_; }
  const GameState& state() const { return state_; }
  const table::TableGeometry& table() const { return table_; }
  const rules::RulesConfig& rules() const { return rules_; }
  const Routing& routing() const { return routing_; }
  const table::BasesView& view() const { return view_; }

  /// layout_edge_distance(i, j): math.hypot of (i - j), minus r_i, minus r_j.
  double distance(size_t i, size_t j) const { return table::edge_distance(view_, i, j); }

  const std::vector<size_t>& enemies_of(size_t i) {
    auto& slot = enemies_[static_cast<size_t>(state_.model_side(i))];
    if (!slot) slot = indices(game::enemies_of(state_, i));
    return *slot;
  }

  const std::vector<std::pair<size_t, double>>& enemy_gaps(size_t i) {
    auto& slot = gaps_[i];
    if (!slot) {
      const std::vector<size_t>& enemies = enemies_of(i);
      std::vector<std::pair<size_t, double>> found;
      found.reserve(enemies.size());  // sized once (growth by doubling cost several allocations)
      for (const size_t j : enemies) found.emplace_back(j, distance(i, j));
      slot = std::move(found);
    }
    return *slot;
  }

  const std::vector<size_t>& engaged_enemies(size_t i) {
    auto& slot = engaged_[i];
    if (!slot) {
      std::vector<size_t> found;
      const double limit = oracle_.contact_tolerance + kBoundMargin;
      for (const auto& [j, gap] : enemy_gaps(i)) {
        if (gap <= limit) {
          found = game::engaged_enemies(state_, view_, i, oracle_.contact_tolerance);
          break;
        }
      }
      slot = std::move(found);
    }
    return *slot;
  }

  bool may_reach_point(size_t i, table::Point p, double limit) const {
    if (!view_.on(i)) return false;
    const table::Point c = view_.center(i);
    return table::python_hypot(c.x - p.x, c.y - p.y) - view_.radii[i] <= limit + kBoundMargin;
  }

  int controller(size_t k) {
    if (controllers_[k] == -2) controllers_[k] = static_cast<std::int8_t>(game::controller(state_, k));
    return controllers_[k];
  }

 private:
  const OracleGame& oracle_;
  const GameState& state_;
  const table::TableGeometry& table_;
  const rules::RulesConfig& rules_;
  const Routing& routing_;
  game::BasesArrays bases_;
  table::BasesView view_;
  std::array<std::optional<std::vector<size_t>>, game::kSides> enemies_;
  std::vector<std::optional<std::vector<std::pair<size_t, double>>>> gaps_;
  std::vector<std::optional<std::vector<size_t>>> engaged_;
  std::vector<std::int8_t> controllers_;
};

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

int cover_rank(const std::string& cover) {
  if (cover == "none") return 0;
  if (cover == "soft") return 1;
  if (cover == "hard") return 2;
  throw std::invalid_argument("unknown cover level " + cover + "; allowed: none, soft, hard");
}

/// situation.py Situation: lazily computed facts about model i at this decision point.
class Situation {
 public:
  Situation(Board& board, size_t i, std::span<const Decision> legal, bool has_legal)
      : b_(board), s_(board.state()), i_(i), legal_(legal), has_legal_(has_legal) {}

  size_t i() const { return i_; }
  bool has_legal() const { return has_legal_; }
  std::span<const Decision> legal() const { return legal_; }
  Board& board() const { return b_; }
  const game::Model& model() const { return s_.models[i_]; }
  const game::Profile& profile() const { return profile_of(i_); }
  const game::Profile& profile_of(size_t j) const {
    return s_.info().profiles[static_cast<size_t>(s_.info().model_profile[j])];
  }
  int side() const { return s_.model_side(i_); }

  const std::vector<size_t>& enemies() { return b_.enemies_of(i_); }

  const std::vector<size_t>& friends() {
    if (!friends_) friends_ = indices(game::friends_of(s_, i_));
    return *friends_;
  }

  const std::vector<size_t>& active_friends() {
    if (!active_friends_) {
      std::vector<size_t> out;
      out.reserve(friends().size());
      for (const size_t j : friends()) {
        if (s_.models[j].is_active()) out.push_back(j);
      }
      active_friends_ = std::move(out);
    }
    return *active_friends_;
  }

  const std::vector<size_t>& engaged() { return b_.engaged_enemies(i_); }
  double distance(size_t j) const { return b_.distance(i_, j); }

  double nearest_enemy_distance() {
    double best = kInf;
    for (const auto& [j, gap] : b_.enemy_gaps(i_)) best = std::min(best, gap);
    return best;
  }

  std::optional<size_t> nearest_enemy() {
    std::optional<size_t> best;
    double best_gap = kInf;
    for (const auto& [j, gap] : b_.enemy_gaps(i_)) {
      if (!best || gap < best_gap || (gap == best_gap && j < *best)) {
        best = j;
        best_gap = gap;
      }
    }
    return best;
  }

  bool legal_kind(int kind) const {
    if (!has_legal_) return false;
    for (const Decision& d : legal_) {
      if (d.kind == kind) return true;
    }
    return false;
  }

  const std::vector<size_t>& charge_targets() {
    if (charge_targets_) return *charge_targets_;
    std::vector<size_t> out;
    const OracleGame& o = b_.oracle();
    if (has_legal_) {
      for (const Decision& d : legal_) {
        if (d.kind == o.kind_charge && d.target >= 0) out.push_back(static_cast<size_t>(d.target));
      }
    } else if (!forbids("charge")) {
      const double reach = game::move_allowance(s_, i_, b_.rules()) * o.charge_reach_factor;
      if (reach > 0) {
        std::vector<std::int64_t> near;
        const auto& engaged_now = engaged();
        for (const auto& [j, gap] : b_.enemy_gaps(i_)) {
          if (gap <= reach && std::find(engaged_now.begin(), engaged_now.end(), j) == engaged_now.end()) {
            near.push_back(static_cast<std::int64_t>(j));
          }
        }
        if (!near.empty()) {
          if (!b_.routing().charge_targets) throw std::invalid_argument("oracle: no charge_targets routing callback");
          for (const std::int64_t j : b_.routing().charge_targets(i_, reach, near)) out.push_back(static_cast<size_t>(j));
        }
      }
    }
    charge_targets_ = std::move(out);
    return *charge_targets_;
  }

  const std::vector<game::ShotTarget>& shots() {
    if (shots_) return *shots_;
    const OracleGame& o = b_.oracle();
    bool none = false;
    if (has_legal_) {
      none = !legal_kind(o.kind_shoot);
    } else {
      none = forbids("shoot") || !may_have_shots();
    }
    if (none) {
      shots_.emplace();
    } else {
      const auto& weapon = o.ranged[i_];
      shots_ = game::shot_targets(s_, b_.view(), b_.table(), b_.rules(), i_, weapon ? &*weapon : nullptr,
                                  o.contact_tolerance);
    }
    return *shots_;
  }

  /// The cover of a shot at j, "none" when it cannot be shot (SELECTOR_KEYS out_of_cover).
  int shot_cover_rank(size_t j) {
    for (const auto& shot : shots()) {
      if (shot.target == j) return cover_rank(shot.cover);
    }
    return 0;
  }

  bool can_attack() { return !engaged().empty() || !shots().empty() || !charge_targets().empty(); }

  int strain_max() const { return b_.oracle().strain_max[i_]; }

  bool in_cover() {
    const auto foe = nearest_enemy();
    if (!foe) return true;
    const table::BasesView& v = b_.view();
    if (!v.on(*foe) || !v.on(i_)) return true;  // sight(): not visible
    const auto [visible, rank] = b_.table().sight_between(v.center(*foe), v.radii[*foe], v.center(i_), v.radii[i_]);
    return !visible || rank > 0;
  }

  bool is_leader() const { return b_.oracle().leader[i_] != 0; }

  const std::vector<size_t>& open_objectives() {
    if (!open_) {
      std::vector<size_t> out;
      for (size_t k = 0; k < s_.info().objectives.size(); ++k) {
        if (!s_.is_looted(k)) out.push_back(k);
      }
      open_ = std::move(out);
    }
    return *open_;
  }

  const std::vector<size_t>& objectives_not_held() {
    if (!not_held_) {
      std::vector<size_t> out;
      const int own = side();
      for (const size_t k : open_objectives()) {
        const game::Objective& obj = s_.info().objectives[k];
        if (obj.kind == "hold" && may_control(own, k) && b_.controller(k) == own) continue;
        out.push_back(k);
      }
      not_held_ = std::move(out);
    }
    return *not_held_;
  }

  double objective_distance(size_t k) {
    if (objective_distances_.empty()) objective_distances_.assign(s_.info().objectives.size(), -1.0);
    double& slot = objective_distances_[k];
    if (slot < 0) {
      const game::Objective& obj = s_.info().objectives[k];
      slot = game::distance_to_point(s_, i_, {obj.x, obj.y});
    }
    return slot;
  }

  bool within_objective(size_t k, double limit) {
    const game::Objective& obj = s_.info().objectives[k];
    return b_.may_reach_point(i_, {obj.x, obj.y}, limit) && objective_distance(k) <= limit;
  }

  bool on_objective() {
    for (const size_t k : open_objectives()) {
      if (within_objective(k, s_.info().objectives[k].radius)) return true;
    }
    return false;
  }

  double nearest_objective_distance() {
    double best = kInf;
    for (const size_t k : open_objectives()) best = std::min(best, objective_distance(k));
    return best;
  }

 private:
  bool may_control(int side_index, size_t k) {
    const game::Objective& obj = s_.info().objectives[k];
    for (const int j : game::active_models(s_, side_index)) {
      if (b_.may_reach_point(static_cast<size_t>(j), {obj.x, obj.y}, obj.radius)) return true;
    }
    return false;
  }

  bool may_have_shots() {
    const auto& weapon = b_.oracle().ranged[i_];
    if (!weapon) return false;
    const double limit = weapon->range + kBoundMargin;
    for (const auto& [j, gap] : b_.enemy_gaps(i_)) {
      if (gap <= limit) return true;
    }
    return false;
  }

  /// Actions its Conditions forbid, and those its engagement forbids.
  bool forbids(std::string_view action) {
    if (!forbids_) {
      std::vector<std::string> found;
      if (model().condition_count > 0) found = game::limits(s_, i_, b_.rules()).forbids;
      if (!engaged().empty()) {
        for (const auto& name : game::engaged_forbids(b_.rules())) found.push_back(name);
      }
      forbids_ = std::move(found);
    }
    return contains(*forbids_, action);
  }

  Board& b_;
  const GameState& s_;
  size_t i_;
  std::span<const Decision> legal_;
  bool has_legal_;
  std::optional<std::vector<size_t>> friends_;
  std::optional<std::vector<size_t>> active_friends_;
  std::optional<std::vector<size_t>> charge_targets_;
  std::optional<std::vector<game::ShotTarget>> shots_;
  std::optional<std::vector<std::string>> forbids_;
  std::optional<std::vector<size_t>> open_;
  std::optional<std::vector<size_t>> not_held_;
  std::vector<double> objective_distances_;
};

// ------------------------------------------------------------------------------- predicates
bool holds_raw(Situation& s, const Check& c) {
  const GameState& st = s.board().state();
  const OracleGame& o = s.board().oracle();
  const game::Model& m = s.model();
  switch (c.predicate) {
    case Predicate::Always:
      return true;
    case Predicate::Engaged:
      return !s.engaged().empty();
    case Predicate::Outnumbered:
      return s.engaged().size() > 1;
    case Predicate::Outnumbering: {
      const int own = s.side();
      for (const size_t j : s.engaged()) {
        int helpers = 0;
        for (const size_t k : s.board().engaged_enemies(j)) {
          if (st.model_side(k) == own) ++helpers;
        }
        if (helpers > 1) return true;
      }
      return false;
    }
    case Predicate::Wounded:
      return m.wounds < s.profile().wounds;
    case Predicate::BadlyWounded:
      return 2 * m.wounds <= s.profile().wounds;
    case Predicate::EnemyInChargeReach:
      return !s.charge_targets().empty();
    case Predicate::EnemyInShot:
      return !s.shots().empty();
    case Predicate::EnemyInShotWithoutCover:
      for (const auto& shot : s.shots()) {
        if (shot.cover == "none") return true;
      }
      return false;
    case Predicate::FriendDownNearby: {
      if (s.has_legal()) return s.legal_kind(o.kind_stabilise);
      for (const size_t j : s.friends()) {
        const game::Model& f = st.models[j];
        if (f.is_down() && !f.stable && s.distance(j) <= o.stabilise_range) return true;
      }
      return false;
    }
    case Predicate::FriendNeedsRally: {
      if (s.has_legal()) return s.legal_kind(o.kind_rally);
      auto needs = [&](const game::Model& x) {
        for (size_t k = 0; k < x.condition_count; ++k) {
          if (o.rally_removes[static_cast<size_t>(x.conditions[k].id)] != 0) return true;
        }
        return false;
      };
      if (needs(m)) return true;
      for (const size_t j : s.active_friends()) {
        if (needs(st.models[j]) && s.distance(j) <= o.rally_range) return true;
      }
      return false;
    }
    case Predicate::HasCondition:
      return m.has_condition(c.id);
    case Predicate::StrainHigh:
      return m.strain + o.spend_cost > s.strain_max();
    case Predicate::Strained:
      return m.strain > 0;
    case Predicate::InCover:
      return s.in_cover();
    case Predicate::ObjectiveUncontrolled:
      return !s.objectives_not_held().empty();
    case Predicate::ObjectiveWithinMove: {
      const double allowance = game::move_allowance(st, s.i(), s.board().rules());
      for (const size_t k : s.objectives_not_held()) {
        if (s.within_objective(k, allowance + st.info().objectives[k].radius)) return true;
      }
      return false;
    }
    case Predicate::OnObjective:
      return s.on_objective();
    case Predicate::CanInteract:
      return s.legal_kind(o.kind_interact);
    case Predicate::LeaderAlive:
      for (const int j : game::active_models(st, s.side())) {
        if (o.leader[static_cast<size_t>(j)] != 0) return true;
      }
      return false;
    case Predicate::IsLeader:
      return s.is_leader();
    case Predicate::EnemiesCloserThan:
      return s.nearest_enemy_distance() < c.number;
    case Predicate::NoFriendWithin:
      for (const size_t j : s.active_friends()) {
        if (!(s.distance(j) > c.number)) return false;
      }
      return true;
    case Predicate::FriendEngagedWithin:
      for (const size_t j : s.active_friends()) {
        if (s.distance(j) <= c.number && !s.board().engaged_enemies(j).empty()) return true;
      }
      return false;
    case Predicate::SideOutnumbered:
      return game::active_models(st, s.side()).size() < s.enemies().size();
    case Predicate::MomentumAtLeast:
      return static_cast<double>(st.momentum_of(s.side())) >= c.number;
    case Predicate::HasRanged:
      return s.profile().has_ranged;
    case Predicate::ActionsLeftAtLeast: {
      const int left = st.active_model == static_cast<int>(s.i()) ? st.actions_left : 0;
      return static_cast<double>(left) >= c.number;
    }
    case Predicate::FirstAction:
      return st.active_model != static_cast<int>(s.i()) || st.taken_count == 0;
    case Predicate::Took: {
      if (st.active_model != static_cast<int>(s.i())) return false;
      for (size_t k = 0; k < st.taken_count; ++k) {
        if (st.taken_actions[k] == c.id) return true;
      }
      return false;
    }
    case Predicate::MettleAtLeast:
      return static_cast<double>(s.profile().mettle) >= c.number;
  }
  return false;
}

bool all_pass(Situation& s, const std::vector<Check>& checks) {
  for (const Check& c : checks) {
    if (holds_raw(s, c) == c.negated) return false;
  }
  return true;
}

// -------------------------------------------------------------------------------- selectors
using SelectorKey = std::array<double, 2>;

SelectorKey selector_key(Situation& s, Selector selector, size_t j) {
  const GameState& st = s.board().state();
  const game::Model& m = st.models[j];
  const game::Profile& p = s.profile_of(j);
  switch (selector) {
    case Selector::Nearest:
      return {0.0, 0.0};
    case Selector::Farthest:
      return {-s.distance(j), 0.0};
    case Selector::Weakest:
      return {static_cast<double>(m.wounds), 0.0};
    case Selector::Strongest:
      return {-static_cast<double>(m.wounds), 0.0};
    case Selector::OutOfCover:
      return {static_cast<double>(s.shot_cover_rank(j)), 0.0};
    case Selector::Leader:
      return {s.board().oracle().leader[j] != 0 ? 0.0 : 1.0, 0.0};
    case Selector::MostDangerous: {
      const int danger = std::max(p.might, p.has_ranged ? p.agility : 0);
      return {-static_cast<double>(danger), -static_cast<double>(m.wounds)};
    }
    case Selector::Easiest:
      return {static_cast<double>(p.might), 0.0};
    case Selector::Threatening: {
      double best = kInf;
      for (const size_t f : s.active_friends()) best = std::min(best, s.board().distance(j, f));
      return {best, 0.0};
    }
  }
  return {0.0, 0.0};
}

/// situation.select: min by (selector key, distance, index); nullopt when there is no candidate.
std::optional<size_t> select(Situation& s, Selector selector, const std::vector<size_t>& candidates) {
  std::optional<size_t> best;
  std::tuple<SelectorKey, double, size_t> best_key;
  for (const size_t j : candidates) {
    auto key = std::make_tuple(selector_key(s, selector, j), s.distance(j), j);
    if (!best || key < best_key) {
      best = j;
      best_key = key;
    }
  }
  return best;
}

// ------------------------------------------------------------------------------- order keys
double order_value(Situation& s, OrderKey key) {
  const game::Model& m = s.model();
  const game::Profile& p = s.profile();
  switch (key) {
    case OrderKey::Engaged:
      return s.engaged().empty() ? 1 : 0;
    case OrderKey::CanAttack:
      return s.can_attack() ? 0 : 1;
    case OrderKey::MostReliable:
      return p.mettle;
    case OrderKey::LeastReliable:
      return -p.mettle;
    case OrderKey::NearestEnemy:
      return s.nearest_enemy_distance();
    case OrderKey::FarthestEnemy:
      return -s.nearest_enemy_distance();
    case OrderKey::WoundedFirst:
      return m.wounds < p.wounds ? 0 : 1;
    case OrderKey::WoundedLast:
      return m.wounds < p.wounds ? 1 : 0;
    case OrderKey::RangedFirst:
      return p.has_ranged ? 0 : 1;
    case OrderKey::MeleeFirst:
      return p.has_ranged ? 1 : 0;
    case OrderKey::LeaderFirst:
      return s.is_leader() ? 0 : 1;
    case OrderKey::LeaderLast:
      return s.is_leader() ? 1 : 0;
    case OrderKey::OnObjectiveFirst:
      return s.on_objective() ? 0 : 1;
    case OrderKey::NearestObjective:
      return s.nearest_objective_distance();
  }
  return 0;
}

/// situation.first_in_order: the candidate smallest by the order keys, then by index, each key
/// computed only for the candidates still tied (can_attack, costly, checked in the order of the
/// cheap keys after it until one scores 0).
size_t first_in_order(std::vector<Situation>& sits, const std::vector<size_t>& slot_of,
                      const std::vector<OrderKey>& order, std::vector<size_t> tied) {
  std::sort(tied.begin(), tied.end());
  for (size_t position = 0; position < order.size(); ++position) {
    if (tied.size() == 1) break;
    const OrderKey key = order[position];
    bool costly_rest = false;
    for (size_t r = position + 1; r < order.size(); ++r) costly_rest = costly_rest || order[r] == OrderKey::CanAttack;
    if (key == OrderKey::CanAttack && !costly_rest) {
      std::vector<std::pair<std::vector<double>, size_t>> ranked;
      for (const size_t i : tied) {
        std::vector<double> values;
        for (size_t r = position + 1; r < order.size(); ++r) values.push_back(order_value(sits[slot_of[i]], order[r]));
        ranked.emplace_back(std::move(values), i);
      }
      std::sort(ranked.begin(), ranked.end());
      for (const auto& entry : ranked) {
        if (order_value(sits[slot_of[entry.second]], key) == 0) return entry.second;
      }
      return ranked.front().second;
    }
    std::vector<double> values;
    values.reserve(tied.size());
    for (const size_t i : tied) values.push_back(order_value(sits[slot_of[i]], key));
    const double best = *std::min_element(values.begin(), values.end());
    std::vector<size_t> kept;
    for (size_t k = 0; k < tied.size(); ++k) {
      if (values[k] == best) kept.push_back(tied[k]);
    }
    tied = std::move(kept);
  }
  return tied.front();
}

// --------------------------------------------------------------------------------- deciding
int find_listed(std::span<const Decision> legal, const Decision& wanted) {
  for (size_t k = 0; k < legal.size(); ++k) {
    if (legal[k] == wanted) return static_cast<int>(k);
  }
  return -1;
}

Choice unsupported(std::string reason) {
  Choice c;
  c.branch = Branch::Unsupported;
  c.reason = std::move(reason);
  return c;
}

struct Resolved {
  int index = -1;  // -1: impossible
  int target = -1;
};

double gap(table::Point a, table::Point b) { return table::python_hypot(a.x - b.x, a.y - b.y); }

std::optional<size_t> objective_goal(Situation& s) {
  const auto& open = s.open_objectives();
  if (open.empty()) return std::nullopt;
  const auto& not_held = s.objectives_not_held();
  std::optional<size_t> best;
  std::tuple<int, double, size_t> best_key;
  for (const size_t k : open) {
    const int held = std::find(not_held.begin(), not_held.end(), k) != not_held.end() ? 0 : 1;
    auto key = std::make_tuple(held, s.objective_distance(k), k);
    if (!best || key < best_key) {
      best = k;
      best_key = key;
    }
  }
  return best;
}

/// engine.py _destination: the move (or disengage) toward the destination an order names.
Resolved destination(Situation& s, const Order& order, const std::vector<int>& options) {
  const Board& b = s.board();
  const GameState& st = b.state();
  std::span<const Decision> legal = s.legal();
  Resolved out;
  table::Point goal;
  std::int64_t ref = -1;
  if (order.toward_objective) {
    const auto objective = objective_goal(s);
    if (!objective) return out;
    const auto& open = s.open_objectives();
    ref = std::find(open.begin(), open.end(), *objective) - open.begin();
    const game::Objective& obj = st.info().objectives[*objective];
    goal = {obj.x, obj.y};
  } else if (order.side != TargetSide::None) {
    const auto& pool = order.side == TargetSide::Enemy ? s.enemies() : s.friends();
    const auto picked = select(s, order.selector, pool);
    if (!picked) return out;
    ref = static_cast<std::int64_t>(*picked);
    goal = b.view().center(*picked);
    out.target = static_cast<int>(*picked);
  } else {
    for (const int k : options) {
      if (legal[static_cast<size_t>(k)].destination_kind == order.destination) {
        out.index = k;
        return out;
      }
    }
    return out;
  }
  Decision exact;
  exact.kind = static_cast<std::int16_t>(order.kind);
  exact.model = static_cast<std::int16_t>(s.i());
  exact.destination_kind = static_cast<std::int16_t>(order.destination);
  exact.destination_ref = static_cast<std::int32_t>(ref);
  for (const int k : options) {
    if (legal[static_cast<size_t>(k)] == exact) {
      out.index = k;
      return out;
    }
  }
  double allowance = game::move_allowance(st, s.i(), b.rules());
  if (order.kind == b.oracle().kind_disengage) allowance *= b.oracle().disengage_move_factor;
  if (!b.routing().destinations) throw std::invalid_argument("oracle: no destinations routing callback");
  const std::vector<DestinationPoint> points = b.routing().destinations(s.i(), allowance);
  double best_gap = gap(b.view().center(s.i()), goal);
  int best = -1;
  for (const int k : options) {
    const Decision& d = legal[static_cast<size_t>(k)];
    if (d.destination_kind < 0) continue;
    // A dict of (kind, ref) -> point: the last entry of a key wins.
    const DestinationPoint* point = nullptr;
    for (const DestinationPoint& p : points) {
      if (p.kind == d.destination_kind && p.ref == d.destination_ref) point = &p;
    }
    if (point != nullptr && gap({point->x, point->y}, goal) < best_gap) {
      best = k;
      best_gap = gap({point->x, point->y}, goal);
    }
  }
  out.index = best;
  return out;
}

/// engine.py _resolve: the legal decision an order asks for (-1 when impossible) and its target.
Resolved resolve(Situation& s, const Order& order) {
  std::span<const Decision> legal = s.legal();
  Resolved out;
  if (order.end) {
    Decision end;
    end.kind = static_cast<std::int16_t>(order.kind);
    out.index = find_listed(legal, end);
    return out;
  }
  std::vector<int> options;
  for (size_t k = 0; k < legal.size(); ++k) {
    if (legal[k].kind == order.kind) options.push_back(static_cast<int>(k));
  }
  if (options.empty()) return out;
  if (order.destination >= 0) return destination(s, order, options);
  if (order.side != TargetSide::None) {
    std::vector<size_t> targets;
    for (const int k : options) targets.push_back(static_cast<size_t>(legal[static_cast<size_t>(k)].target));
    const auto picked = select(s, order.selector, targets);
    for (const int k : options) {
      if (static_cast<size_t>(legal[static_cast<size_t>(k)].target) == *picked) {
        out.index = k;
        break;
      }
    }
    out.target = static_cast<int>(*picked);
    return out;
  }
  out.index = options.front();
  return out;
}

Choice listed(Branch branch, std::span<const Decision> legal, int index) {
  Choice c;
  c.branch = branch;
  c.index = index;
  c.decision = legal[static_cast<size_t>(index)];
  return c;
}

Choice activate(const OracleGame& o, Board& board, std::span<const Decision> legal) {
  const GameState& st = board.state();
  const int side = st.current_side();
  if (side < 0) return unsupported("the game is over");
  std::vector<size_t> eligible;
  eligible.reserve(st.models.size());  // sized once: at most every model
  for (const Decision& d : legal) {
    if (d.kind == game::kActivate && d.model >= 0) {
      const auto m = static_cast<size_t>(d.model);
      if (std::find(eligible.begin(), eligible.end(), m) == eligible.end()) eligible.push_back(m);
    }
  }
  std::sort(eligible.begin(), eligible.end());
  const int side_profile = o.side_profile[static_cast<size_t>(side)];
  if (eligible.empty()) {
    if (side_profile < 0) return unsupported("the side's Oracle profile is not in the data");
    Choice c;
    c.branch = Branch::PassAllActivated;
    c.decision.kind = game::kPass;
    c.profile = side_profile;
    return c;
  }
  for (const size_t i : eligible) {
    if (o.model_profile[i] < 0) return unsupported("a model's Oracle profile is not in the data");
  }
  std::vector<Situation> sits;
  sits.reserve(eligible.size());
  std::vector<size_t> slot_of(st.models.size(), 0);
  std::vector<size_t> ready;
  ready.reserve(eligible.size());
  for (const size_t i : eligible) {
    slot_of[i] = sits.size();
    sits.emplace_back(board, i, std::span<const Decision>(), false);
    const Profile& p = o.profiles[static_cast<size_t>(o.model_profile[i])];
    if (!(!p.hold_when.empty() && all_pass(sits.back(), p.hold_when))) ready.push_back(i);
  }
  if (side_profile < 0) return unsupported("the side's Oracle profile is not in the data");
  if (ready.empty()) {
    Choice c;
    c.branch = Branch::Hold;
    c.decision.kind = game::kPass;
    c.profile = side_profile;
    return c;
  }
  const Profile& order_profile = o.profiles[static_cast<size_t>(side_profile)];
  const size_t chosen = first_in_order(sits, slot_of, order_profile.activation_order, ready);
  Situation& sit = sits[slot_of[chosen]];
  const int profile_index = o.model_profile[chosen];
  const Profile& p = o.profiles[static_cast<size_t>(profile_index)];
  if (p.has_bonus && st.momentum_of(side) >= p.bonus_min_momentum && all_pass(sit, p.bonus_when)) {
    Decision bonus;
    bonus.kind = game::kBonus;
    bonus.model = static_cast<std::int16_t>(chosen);
    const int k = find_listed(legal, bonus);
    if (k >= 0) {
      Choice c = listed(Branch::Bonus, legal, k);
      c.model = static_cast<int>(chosen);
      c.profile = profile_index;
      return c;
    }
  }
  std::vector<int> offered;
  offered.reserve(legal.size());
  for (const Decision& d : legal) {
    if (d.kind == game::kActivate && d.model == static_cast<int>(chosen)) offered.push_back(d.dice);
  }
  std::sort(offered.begin(), offered.end());
  for (size_t k = 0; k < p.dice.size(); ++k) {
    const DiceRule& rule = p.dice[k];
    if (!all_pass(sit, rule.checks)) continue;
    int dice = -1;
    if (rule.dice >= 0) {
      dice = offered.front();
      for (const int n : offered) {
        if (n <= rule.dice) dice = n;
      }
    } else {
      unsigned mask = 0;
      for (const int n : offered) {
        if (n < 1 || n > o.max_dice) return unsupported("an offered number of dice outside 1..max_dice");
        mask |= 1U << static_cast<unsigned>(n - 1);
      }
      const int mettle = sit.profile().mettle - o.mettle_low;
      if (mettle < 0 || mettle >= o.mettle_count) return unsupported("a Mettle outside the dice policy table");
      const auto slot = static_cast<size_t>(mettle) * (std::size_t{1} << static_cast<unsigned>(o.max_dice)) + mask;
      if (slot >= rule.choices.size() || rule.choices[slot] < 0) return unsupported("a dice policy choice not tabled");
      dice = rule.choices[slot];
    }
    for (size_t d = 0; d < legal.size(); ++d) {
      if (legal[d].kind == game::kActivate && legal[d].model == static_cast<int>(chosen) && legal[d].dice == dice) {
        Choice c = listed(Branch::Dice, legal, static_cast<int>(d));
        c.model = static_cast<int>(chosen);
        c.profile = profile_index;
        c.rule = static_cast<int>(k);
        c.dice = dice;
        return c;
      }
    }
    return unsupported("the dice rule chose a number of dice the game does not offer");
  }
  return unsupported("no dice rule applies");
}

Choice action(const OracleGame& o, Board& board, std::span<const Decision> legal, rules::Pcg64& rng) {
  const GameState& st = board.state();
  if (st.active_model < 0) return unsupported("no active model in the action phase");
  const auto i = static_cast<size_t>(st.active_model);
  const int profile_index = o.model_profile[i];
  if (profile_index < 0) return unsupported("the model's Oracle profile is not in the data");
  const Profile& p = o.profiles[static_cast<size_t>(profile_index)];
  Situation sit(board, i, legal, true);
  for (size_t k = 0; k < p.priorities.size(); ++k) {
    const Rule& line = p.priorities[k];
    if (!all_pass(sit, line.checks)) continue;
    const Resolved r = resolve(sit, line.order);
    if (r.index >= 0) {
      Choice c = listed(Branch::Priority, legal, r.index);
      c.model = static_cast<int>(i);
      c.profile = profile_index;
      c.rule = static_cast<int>(k);
      c.target = r.target;
      return c;
    }
  }
  const auto faces = static_cast<std::int64_t>(p.fallback.size());
  const int roll = static_cast<int>(rng.integers(1, faces + 1));
  const Resolved r = resolve(sit, p.fallback[static_cast<size_t>(roll - 1)]);
  Choice c;
  if (r.index >= 0) {
    c = listed(Branch::Fallback, legal, r.index);
    c.target = r.target;
  } else {
    c.branch = Branch::FallbackEnd;
    c.decision.kind = static_cast<std::int16_t>(o.kind_end);
  }
  c.model = static_cast<int>(i);
  c.profile = profile_index;
  c.roll = roll;
  return c;
}

/// The options listed on a pending roll, by name (the system's oracle_choice reads them).
std::vector<std::string> listed_options(const GameState& st, std::span<const Decision> legal) {
  std::vector<std::string> options;
  for (const Decision& d : legal) {
    if (d.option >= 0) options.push_back(st.info().options[static_cast<size_t>(d.option)]);
  }
  return options;
}

/// A system's own choice as the Oracle's (OracleAgent._spend): the listed decision with that
/// option (legal[0] when none), explained by the system's rule and words.
Choice system_choice(std::span<const Decision> legal, const GameState& st, size_t chooser, int profile_index,
                     const rules::OracleChoice& choice) {
  const std::vector<std::string>& names = st.info().options;
  Choice c;
  c.branch = Branch::System;
  c.index = 0;  // next((d for d in legal if d.option == choice.option), legal[0])
  for (size_t k = 0; k < legal.size(); ++k) {
    if (legal[k].option >= 0 && names[static_cast<size_t>(legal[k].option)] == choice.option) {
      c.index = static_cast<int>(k);
      break;
    }
  }
  c.decision = legal[static_cast<size_t>(c.index)];
  c.model = static_cast<int>(chooser);
  c.profile = profile_index;
  c.system_rule = choice.rule;
  c.system_text = choice.text;
  return c;
}

/// Invictus's choice on its pending roll (OracleAgent._spend: the system's oracle_choice decides,
/// on the listed options, with the chooser's Luck now).
Choice invictus_spend(const OracleGame& o, Board& board, std::span<const Decision> legal) {
  const GameState& st = board.state();
  if (!st.pending || !st.pending->invictus) return unsupported("no Invictus pending roll in the spend phase");
  const auto chooser = static_cast<size_t>(game::chooser_of(st));
  const int profile_index = o.model_profile[chooser];
  if (profile_index < 0) return unsupported("the model's Oracle profile is not in the data");
  const rules::OracleChoice choice = rules::invictus::oracle_choice(
      game::to_invictus_roll(*st.pending), listed_options(st, legal), st.info().model_ids[chooser],
      game::luck_of(st, chooser).value_or(0), board.rules().invictus);
  return system_choice(legal, st, chooser, profile_index, choice);
}

/// New World's choice on its pending roll (OracleAgent._spend: the system's oracle_choice decides,
/// on the listed options: helpers before the roll, Luck after it, the defender's too).
Choice new_world_spend(const OracleGame& o, Board& board, std::span<const Decision> legal) {
  const GameState& st = board.state();
  if (!st.pending || !st.pending->new_world) return unsupported("no New World pending roll in the spend phase");
  const auto chooser = static_cast<size_t>(game::chooser_of(st));
  const int profile_index = o.model_profile[chooser];
  if (profile_index < 0) return unsupported("the model's Oracle profile is not in the data");
  const rules::OracleChoice choice =
      rules::new_world::oracle_choice(game::to_new_world_roll(*st.pending), listed_options(st, legal),
                                      st.info().model_ids[chooser], board.rules().new_world);
  return system_choice(legal, st, chooser, profile_index, choice);
}

/// The Riddle of Steel's choice in its Combat Round (OracleAgent._choice: the system's
/// oracle_session_choice decides, on the listed options, under the stance of the profile that
/// drives the model choosing now).
Choice ros_choice(const OracleGame& o, Board& board, std::span<const Decision> legal) {
  const GameState& st = board.state();
  if (!st.choice || board.rules().system != rules::System::RiddleOfSteel) {
    return unsupported("no Riddle of Steel Combat Round in the choice phase");
  }
  const rules::riddle_of_steel::MeleeSession& session = st.choice->session;
  const auto chooser = static_cast<size_t>(session.decider_index());
  const int profile_index = o.model_profile[chooser];
  if (profile_index < 0) return unsupported("the model's Oracle profile is not in the data");
  if (static_cast<size_t>(profile_index) >= o.words.size()) {
    return unsupported("the Oracle profiles' names are not given");
  }
  const rules::RiddleOfSteelRules& s = board.rules().riddle_of_steel;
  const std::string& stance = rules::riddle_of_steel::stance_for(o.words[static_cast<size_t>(profile_index)].name, s);
  const rules::OracleChoice choice =
      rules::riddle_of_steel::oracle_choice(session, listed_options(st, legal), stance, s);
  return system_choice(legal, st, chooser, profile_index, choice);
}

Choice spend(const OracleGame& o, Board& board, std::span<const Decision> legal) {
  const GameState& st = board.state();
  if (board.rules().system == rules::System::Invictus) return invictus_spend(o, board, legal);
  if (board.rules().system == rules::System::NewWorld) return new_world_spend(o, board, legal);
  if (board.rules().system != rules::System::Riven) return unsupported("another resolution system's spends");
  if (!st.pending) return unsupported("no pending roll in the spend phase");
  const game::TestRoll& roll = st.pending->roll;
  const auto chooser = static_cast<size_t>(game::chooser_of(st));
  const int profile_index = o.model_profile[chooser];
  if (profile_index < 0) return unsupported("the model's Oracle profile is not in the data");
  const Profile& p = o.profiles[static_cast<size_t>(profile_index)];
  const game::Model& m = st.models[chooser];
  const std::vector<std::string>& names = st.info().options;
  // The offered options other than accept.
  std::vector<int> offered;
  for (const Decision& d : legal) {
    if (d.option >= 0 && names[static_cast<size_t>(d.option)] != "accept") offered.push_back(d.option);
  }
  auto offered_named = [&](std::string_view name) {
    for (const int id : offered) {
      if (names[static_cast<size_t>(id)] == name) return id;
    }
    return -1;
  };
  const int momentum = st.momentum_of(st.model_side(chooser)) - roll.momentum_spent;
  const int strain_max = o.strain_max[chooser];
  const std::string_view kind = roll.kind.view();
  for (size_t k = 0; k < p.spend.size(); ++k) {
    const SpendRule& rule = p.spend[k];
    if ((rule.on & (1U << static_cast<unsigned>(roll.result))) == 0) continue;
    if (!(rule.any_test || contains(rule.tests, kind))) continue;
    int option = -1;
    if (rule.option == SpendOption::Reroll && momentum >= rule.min_momentum) {
      // min by (the die it rerolls, the option's name).
      std::optional<std::pair<int, std::string_view>> best;
      for (const int id : offered) {
        const std::string& name = names[static_cast<size_t>(id)];
        if (name.rfind("reroll:", 0) != 0) continue;
        const auto die = static_cast<size_t>(std::stoi(name.substr(7)));
        if (die >= roll.dice.size()) return unsupported("a reroll option naming a die the roll lacks");
        const std::pair<int, std::string_view> key{roll.dice[die], name};
        if (!best || key < *best) {
          best = key;
          option = id;
        }
      }
    } else if (rule.option == SpendOption::Boost && momentum >= rule.min_momentum) {
      option = offered_named("boost");
    } else if (rule.option == SpendOption::Strain) {
      const int id = offered_named("strain");
      if (id >= 0) {
        const int after = m.strain + roll.strain_taken + o.spend_cost;
        if (rule.allow_overflow || after <= strain_max - rule.strain_headroom) option = id;
      }
    }
    if (option >= 0) {
      Choice c;
      c.branch = Branch::Spend;
      c.decision.kind = game::kSpend;
      c.decision.option = static_cast<std::int16_t>(option);
      c.index = find_listed(legal, c.decision);
      c.model = static_cast<int>(chooser);
      c.profile = profile_index;
      c.rule = static_cast<int>(k);
      return c;
    }
  }
  Choice c;
  c.branch = Branch::Accept;
  c.decision.kind = game::kSpend;
  c.decision.option = static_cast<std::int16_t>(game::find_name(names, "accept"));
  c.index = find_listed(legal, c.decision);
  c.model = static_cast<int>(chooser);
  c.profile = profile_index;
  return c;
}

}  // namespace

Predicate predicate_from_name(std::string_view name) { return from_name<Predicate>(kPredicateNames, name, "condition"); }
Selector selector_from_name(std::string_view name) { return from_name<Selector>(kSelectorNames, name, "target selector"); }
OrderKey order_key_from_name(std::string_view name) { return from_name<OrderKey>(kOrderKeyNames, name, "order key"); }

void OracleGame::validate(const game::GameStatic& statics) const {
  const size_t n = statics.model_count();
  if (model_profile.size() != n || ranged.size() != n || leader.size() != n || strain_max.size() != n) {
    throw std::invalid_argument("OracleGame: per-model vectors must have one entry per model (" +
                                std::to_string(n) + ")");
  }
  if (rally_removes.size() != statics.conditions.size()) {
    throw std::invalid_argument("OracleGame: rally_removes must have one entry per Condition");
  }
  const auto count = static_cast<int>(profiles.size());
  for (const int p : model_profile) {
    if (p >= count) throw std::invalid_argument("OracleGame: model_profile out of range");
  }
  for (const int p : side_profile) {
    if (p >= count) throw std::invalid_argument("OracleGame: side_profile out of range");
  }
  if (max_dice < 0 || max_dice > 16) throw std::invalid_argument("OracleGame: max_dice must be 0..16");
  for (const Profile& p : profiles) {
    if (p.dice.empty()) throw std::invalid_argument("OracleGame: a profile without dice rules");
    if (p.fallback.empty()) throw std::invalid_argument("OracleGame: a profile without a fallback table");
  }
}

Choice decide(const OracleGame& oracle, const game::GameState& state, const table::TableGeometry& table,
              const rules::RulesConfig& rules, std::span<const game::Decision> legal, rules::Pcg64& rng,
              const Routing& routing) {
  if (oracle.model_profile.size() != state.models.size()) {
    throw std::invalid_argument("oracle decide: the OracleGame was built for another game");
  }
  if (legal.empty()) throw std::invalid_argument("oracle decide: no legal decisions");
  Board board(oracle, state, table, rules, routing);
  switch (state.phase) {
    case game::Phase::Activate:
      return activate(oracle, board, legal);
    case game::Phase::Action:
      return action(oracle, board, legal, rng);
    case game::Phase::Spend:
      return spend(oracle, board, legal);
    case game::Phase::Choice:
      return ros_choice(oracle, board, legal);
    case game::Phase::Over:
      return unsupported("the game is over");
  }
  return unsupported("unknown phase");
}

}  // namespace riven::oracle
