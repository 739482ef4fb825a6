#include "riven/encoding/observation.hpp"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "riven/require.hpp"

namespace riven::encoding {

namespace {

using game::GameState;
using game::GameStatic;
using game::Model;
using game::Phase;
using game::Status;

constexpr std::array<std::string_view, 4> kAttributes{"might", "agility", "wit", "resolve"};
constexpr std::array<std::string_view, 3> kCovers{"none", "soft", "hard"};
constexpr std::array<std::string_view, 4> kPhases{"activate", "action", "spend", "over"};
constexpr std::size_t kProfileColumns = 13;

template <typename T>
float f32(T value) {
  return static_cast<float>(value);
}

/// The Python encoder's phase column (PHASES has no "choice").
int phase_column(Phase phase) {
  switch (phase) {
    case Phase::Activate:
      return 0;
    case Phase::Action:
      return 1;
    case Phase::Spend:
      return 2;
    case Phase::Over:
      return 3;
    case Phase::Choice:
      break;
  }
  return -1;
}

}  // namespace

ObservationEncoder::ObservationEncoder(EncoderSpec spec, std::shared_ptr<const GameStatic> statics,
                                       std::vector<float> terrain)
    : spec_(std::move(spec)), statics_(std::move(statics)), terrain_(std::move(terrain)) {
  require(statics_ != nullptr, "observation encoder: no game static part");
  statics_->validate();
  const GameStatic& st = *statics_;
  diagonal_ = std::hypot(st.table_width, st.table_height);
  const auto s = static_cast<std::size_t>(spec_.models_per_side);
  std::array<std::size_t, 2> per_side{0, 0};
  for (const std::uint8_t side : st.model_sides) {
    ++per_side[side];
  }
  require(spec_.models_per_side >= 1 && per_side[0] <= s && per_side[1] <= s,
          "observation encoder: models_per_side " + std::to_string(spec_.models_per_side) +
              " is smaller than a side of the scenario");
  require(spec_.objectives >= 1, "observation encoder: objectives must be at least 1");
  require(spec_.max_dice >= 1 && spec_.momentum_cap >= 1 && spec_.max_spends >= 1,
          "observation encoder: max_dice, momentum_cap and max_spends must be at least 1");
  if (spec_.raster) {
    const auto r = static_cast<std::size_t>(spec_.raster_size);
    require(spec_.raster_size >= 4 && terrain_.size() == kTerrainChannels * r * r,
            "observation encoder: the raster needs terrain layers of shape (5, size, size)");
  }

  // Column names, as ObservationEncoder.model_features (observation.py).
  auto& mf = model_features_;
  mf = {"present", "own"};
  col_status_ = mf.size();
  for (const auto name : game::kStatusNames) {
    mf.push_back("status_" + std::string(name));
  }
  col_x_ = mf.size();
  mf.insert(mf.end(), {"x", "y"});
  col_dx_ = mf.size();
  mf.insert(mf.end(), {"dx_acting", "dy_acting", "distance_acting"});
  col_nearest_ = mf.size();
  mf.push_back("distance_nearest_enemy");
  col_wounds_ = mf.size();
  mf.insert(mf.end(), {"wounds", "wounds_fraction", "stable", "strain_fraction"});
  col_condition_ = mf.size();
  for (const auto& name : st.conditions) {
    mf.push_back("condition_" + name);
  }
  col_activated_ = mf.size();
  mf.insert(mf.end(), {"activated", "can_activate", "acting", "engaged", "engaged_count"});
  col_seen_ = mf.size();
  mf.push_back("seen_by_nearest_enemy");
  col_cover_ = mf.size();
  for (const auto name : kCovers) {
    mf.push_back("cover_" + std::string(name));
  }
  col_profile_ = mf.size();
  for (const auto name : kAttributes) {
    mf.emplace_back(name);
  }
  mf.insert(mf.end(), {"mettle_quality", "move", "base", "melee_modifier", "has_ranged", "ranged_range",
                       "ranged_modifier"});
  for (const auto& k : spec_.keyword_features) {
    mf.push_back("keyword_" + k);
  }
  require(mf.size() - col_profile_ == kProfileColumns, "observation encoder: expected two keyword features");

  auto& of = objective_features_;
  of = {"present", "x", "y", "radius"};
  ocol_kind_ = of.size();
  for (const auto& k : spec_.objective_kinds) {
    of.push_back("kind_" + k);
  }
  ocol_points_ = of.size();
  of.push_back("points");
  ocol_looted_ = of.size();
  of.push_back("looted");
  ocol_within_ = of.size();
  of.insert(of.end(), {"own_within", "enemy_within", "controlled_own", "controlled_enemy", "distance_nearest_own",
                       "distance_nearest_enemy"});

  std::vector<std::string> actions;  // the rules' actions but "end"
  action_column_.assign(st.actions.size(), -1);
  for (std::size_t a = 0; a < st.actions.size(); ++a) {
    if (st.actions[a] != "end") {
      action_column_[a] = static_cast<int>(actions.size());
      actions.push_back(st.actions[a]);
    }
  }
  action_count_ = actions.size();
  auto& gf = global_features_;
  gf = {"round_fraction", "rounds_left_fraction"};
  gcol_phase_ = gf.size();
  for (const auto name : kPhases) {
    gf.push_back("phase_" + std::string(name));
  }
  gcol_own_turn_ = gf.size();
  gf.insert(gf.end(), {"own_turn", "own_side_first", "second_turn_of_round", "actions_left", "turn_passes_after",
                       "momentum_own", "momentum_enemy", "points_own", "points_enemy", "points_difference",
                       "active_own", "active_enemy"});
  gcol_taken_ = gf.size();
  for (const auto& a : actions) {
    gf.push_back("taken_" + a);
  }
  gcol_pending_ = gf.size();
  gf.push_back("pending_own");
  for (const auto name : game::kBandNames) {
    gf.push_back("pending_band_" + std::string(name));
  }
  gf.insert(gf.end(), {"pending_margin", "pending_spends"});
  for (const auto& a : actions) {
    gf.push_back("pending_action_" + a);
  }

  model_width_ = mf.size();
  objective_width_ = of.size();
  split_models_ = 2 * s * model_width_;
  split_objectives_ = split_models_ + static_cast<std::size_t>(spec_.objectives) * objective_width_;
  flat_size_ = split_objectives_ + gf.size();

  // Per-scenario constants (constants.py build_constants and ObservationEncoder._frame).
  const std::size_t n = st.model_count();
  const Scales& sc = spec_.scales;
  const double width = st.table_width;
  const double height = st.table_height;
  objective_count_ = std::min(st.objectives.size(), static_cast<std::size_t>(spec_.objectives));
  full_wounds_.resize(n);
  strain_max_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const game::Profile& p = st.profiles[static_cast<std::size_t>(st.model_profile[i])];
    full_wounds_[i] = f32(std::max(1, p.wounds));
    strain_max_[i] = f32(std::max(1.0, p.wit * spec_.strain_per_wit));
  }
  for (int side = 0; side < 2; ++side) {
    auto& templ = templates_[static_cast<std::size_t>(side)];
    auto& offsets = offsets_[static_cast<std::size_t>(side)];
    templ.assign(flat_size_, 0.0F);
    offsets.assign(n, 0);
    std::size_t own_slot = 0;
    std::size_t enemy_slot = s;
    for (std::size_t i = 0; i < n; ++i) {  // own slots first, then enemy slots, in model order
      const bool own = st.model_sides[i] == side;
      const std::size_t row = own ? own_slot++ : enemy_slot++;
      offsets[i] = row * model_width_;
    }
    for (std::size_t i = 0; i < n; ++i) {
      float* row = templ.data() + offsets[i];
      const game::Profile& p = st.profiles[static_cast<std::size_t>(st.model_profile[i])];
      row[0] = 1.0F;
      row[1] = st.model_sides[i] == side ? 1.0F : 0.0F;
      float* prof = row + col_profile_;
      prof[0] = f32(p.might / sc.attribute);
      prof[1] = f32(p.agility / sc.attribute);
      prof[2] = f32(p.wit / sc.attribute);
      prof[3] = f32(p.resolve / sc.attribute);
      prof[4] = f32((sc.mettle + 1 - p.mettle) / sc.mettle);
      prof[5] = f32(p.move / sc.move);
      prof[6] = f32(p.base_diameter / sc.base);
      prof[7] = f32((p.has_melee ? p.melee_modifier : 0) / sc.weapon_modifier);
      prof[8] = p.has_ranged ? 1.0F : 0.0F;
      prof[9] = p.has_ranged ? f32(p.ranged_range / sc.weapon_range) : 0.0F;
      prof[10] = p.has_ranged ? f32(p.ranged_modifier / sc.weapon_modifier) : 0.0F;
      for (std::size_t k = 0; k < spec_.keyword_features.size(); ++k) {
        const auto& kw = p.keywords;
        prof[11 + k] = std::find(kw.begin(), kw.end(), spec_.keyword_features[k]) != kw.end() ? 1.0F : 0.0F;
      }
    }
    for (std::size_t k = 0; k < objective_count_; ++k) {
      const game::Objective& o = st.objectives[k];
      float* row = templ.data() + split_models_ + k * objective_width_;
      const double x = side == 1 ? width - o.x : o.x;
      const double y = side == 1 ? height - o.y : o.y;
      row[0] = 1.0F;
      row[1] = f32(x / width);
      row[2] = f32(y / height);
      row[3] = f32(o.radius / sc.move);
      const int kind = game::find_name(spec_.objective_kinds, o.kind);
      if (kind >= 0) {
        row[ocol_kind_ + static_cast<std::size_t>(kind)] = 1.0F;
      }
      row[ocol_points_] = f32(o.points / sc.objective_points);
    }
  }
  if (spec_.raster) {  // raster.py cell_centres
    const auto r = static_cast<std::size_t>(spec_.raster_size);
    grid_x_.resize(r);
    grid_y_.resize(r);
    for (std::size_t k = 0; k < r; ++k) {
      grid_x_[k] = (static_cast<double>(k) + 0.5) * (width / static_cast<double>(r));
      grid_y_[k] = (static_cast<double>(k) + 0.5) * (height / static_cast<double>(r));
    }
  }
}

std::size_t ObservationEncoder::raster_size_bytes() const {
  if (!spec_.raster) {
    return 0;
  }
  const auto r = static_cast<std::size_t>(spec_.raster_size);
  return kRasterChannels * r * r;
}

void ObservationEncoder::check_state(const GameState& state) const {
  // The encoder's constants hold for any game of its scenario: the same models on the same sides
  // with the same profiles, the same objectives and table (first side and round limit are read
  // from the state's own static part).
  require(state.statics != nullptr, "observation encoder: the state has no static part");
  if (state.statics == statics_) {
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(verified_->mutex);
    for (const auto& known : verified_->statics) {
      if (known == state.statics) return;
    }
  }
  const GameStatic& other = *state.statics;
  const GameStatic& mine = *statics_;
  bool same = other.model_sides == mine.model_sides && other.model_ids == mine.model_ids &&
              other.objectives.size() == mine.objectives.size() && other.table_width == mine.table_width &&
              other.table_height == mine.table_height && other.conditions == mine.conditions &&
              other.actions == mine.actions && state.model_count() == mine.model_count();
  for (std::size_t i = 0; same && i < mine.model_count(); ++i) {
    same = other.profiles[static_cast<std::size_t>(other.model_profile[i])].name ==
           mine.profiles[static_cast<std::size_t>(mine.model_profile[i])].name;
  }
  require(same, [&] {
    return "observation encoder: the state is of another scenario than the encoder's (" +
           std::to_string(state.model_count()) + " models, the encoder's has " + std::to_string(mine.model_count()) +
           ")";
  });
  const std::lock_guard<std::mutex> lock(verified_->mutex);
  if (verified_->statics.size() < kVerified) verified_->statics.push_back(state.statics);
}

namespace {
// np.maximum(v, -1) then np.minimum(v, 1), NaN kept: four lanes at a time where the CPU has SSE
// (maxps(lo, v) is lo > v ? lo : v and minps(hi, v) is hi < v ? hi : v, the scalar tests'
// very choices, a NaN lane included), then one at a time.
void clamp_unit(std::span<float> out) {
  std::size_t k = 0;
#if defined(__SSE__)
  const __m128 lo = _mm_set1_ps(-1.0F);
  const __m128 hi = _mm_set1_ps(1.0F);
  for (; k + 4 <= out.size(); k += 4) {
    const __m128 v = _mm_loadu_ps(out.data() + k);
    _mm_storeu_ps(out.data() + k, _mm_min_ps(hi, _mm_max_ps(lo, v)));
  }
#endif
  for (; k < out.size(); ++k) {
    float& v = out[k];
    v = v < -1.0F ? -1.0F : v;
    v = v > 1.0F ? 1.0F : v;
  }
}

}  // namespace

void LengthMemo::refresh(const GameState& state) {
  const std::size_t n = state.model_count();
  const std::size_t k = state.statics->objectives.size();
  constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  if (statics_ != state.statics || models_ != n || objectives_ != k) {
    statics_ = state.statics;
    models_ = n;
    objectives_ = k;
    x_bits_.resize(n);
    y_bits_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      x_bits_[i] = std::bit_cast<std::uint64_t>(state.models[i].x);
      y_bits_[i] = std::bit_cast<std::uint64_t>(state.models[i].y);
    }
    pairs_.assign(n * n, kUnknown);
    objective_.assign(n * k, kUnknown);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = std::bit_cast<std::uint64_t>(state.models[i].x);
    const auto y = std::bit_cast<std::uint64_t>(state.models[i].y);
    if (x == x_bits_[i] && y == y_bits_[i]) continue;
    x_bits_[i] = x;
    y_bits_[i] = y;
    for (std::size_t j = 0; j < n; ++j) {
      pairs_[i * n + j] = kUnknown;
      pairs_[j * n + i] = kUnknown;
    }
    std::fill_n(objective_.begin() + static_cast<std::ptrdiff_t>(i * k), k, kUnknown);
  }
}

double LengthMemo::between(const GameState& state, std::size_t i, std::size_t j) {
  // Kept at (min, max): the subtraction low index minus high index, as the pair scan does it.
  const std::size_t a = std::min(i, j);
  const std::size_t b = std::max(i, j);
  double& length = pairs_[a * models_ + b];
  if (std::isnan(length)) {
    length = std::hypot(state.models[a].x - state.models[b].x, state.models[a].y - state.models[b].y);
  }
  return length;
}

double LengthMemo::to_objective(const GameState& state, std::size_t i, std::size_t k, const game::Objective& o) {
  double& length = objective_[i * objectives_ + k];
  if (std::isnan(length)) {
    length = std::hypot(o.x - state.models[i].x, o.y - state.models[i].y);
  }
  return length;
}

ObservationEncoder::Nearby ObservationEncoder::nearby(const GameState& state, LengthMemo* lengths) const {
  // situation.py nearest_enemies: each on-table model's nearest active enemy (the first of
  // equals), the gap clamped at 0 (np.maximum's tie rule), and how many are within contact.
  // Each pair of enemies is measured once (hypot(-dx, -dy) == hypot(dx, dy) exactly) and offered
  // to both ends; a model meets its candidates in increasing index order either way (those
  // below it as the outer loop reaches them, then those above it), as the per-model scan did.
  check_state(state);
  const std::size_t n = state.model_count();
  const double diagonal = diagonal_;
  Nearby result{Recycled<int>(n, -1), Recycled<double>(n, diagonal), Recycled<int>(n, 0)};
  Recycled<double> best(n, std::numeric_limits<double>::infinity());
  const auto offer = [&](std::size_t i, std::size_t j, double centres) {
    const double raw = centres - state.models[i].radius - state.models[j].radius;
    if (raw <= spec_.contact_tolerance) ++result.engaged[i];
    const double clamped = raw > 0.0 ? raw : 0.0;
    if (clamped < best[i]) {
      best[i] = clamped;
      result.enemy[i] = static_cast<int>(j);
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Model& mi = state.models[i];
    for (std::size_t j = i + 1; j < n; ++j) {
      if (state.model_side(j) == state.model_side(i)) continue;
      const Model& mj = state.models[j];
      const bool for_i = mi.is_on_table_status() && mj.is_active();
      const bool for_j = mj.is_on_table_status() && mi.is_active();
      if (!for_i && !for_j) continue;
      const double centres = lengths != nullptr ? lengths->between(state, i, j) : std::hypot(mi.x - mj.x, mi.y - mj.y);
      if (for_i) offer(i, j, centres);
      if (for_j) offer(j, i, centres);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (result.enemy[i] < 0) {
      result.engaged[i] = 0;  // no active enemy left: the defaults
      continue;
    }
    result.gap[i] = best[i];
  }
  return result;
}

std::vector<int> ObservationEncoder::nearest_enemies(const GameState& state) const {
  const Recycled<int> nearest = std::move(nearby(state).enemy);
  return {nearest.begin(), nearest.end()};
}

void ObservationEncoder::encode(const GameState& state, int side, std::span<const SightCode> sight,
                                std::span<float> out) const {
  encode(state, side, sight, nearby(state), out);
}

void ObservationEncoder::encode(const GameState& state, int side, std::span<const SightCode> sight,
                                const Nearby& nearby, std::span<float> out, LengthMemo* lengths) const {
  check_state(state);
  require(side == 0 || side == 1, "observation encoder: side must be 0 (blue) or 1 (red)");
  require(out.size() == flat_size_, [&] {
    return "observation encoder: output has " + std::to_string(out.size()) + " floats, expected " +
           std::to_string(flat_size_);
  });
  const std::size_t n = state.model_count();
  require(!spec_.cover_vs_nearest_enemy || sight.size() == n,
          "observation encoder: one sight code per model expected");
  const int phase = phase_column(state.phase);
  require(phase >= 0, "observation encoder: no phase column for phase 'choice'");
  const GameStatic& st = *statics_;
  const GameStatic& game_info = state.info();  // first side and round limit of this game
  const Scales& sc = spec_.scales;
  const auto s_side = static_cast<std::size_t>(side);
  const auto& offsets = offsets_[s_side];
  const double width = st.table_width;
  const double height = st.table_height;
  const double diagonal = diagonal_;
  const double slots = static_cast<double>(spec_.models_per_side);

  std::copy(templates_[s_side].begin(), templates_[s_side].end(), out.begin());
  float* flat = out.data();

  // Status one-hot (ObservationEncoder._statuses).
  for (std::size_t i = 0; i < n; ++i) {
    flat[offsets[i] + col_status_ + static_cast<std::size_t>(state.models[i].status)] = 1.0F;
  }

  // The situation (ObservationEncoder._build_situation): positions in the observer's frame.
  Recycled<double> rel_x(n);
  Recycled<double> rel_y(n);
  for (std::size_t i = 0; i < n; ++i) {
    rel_x[i] = side == 1 ? width - state.models[i].x : state.models[i].x;
    rel_y[i] = side == 1 ? height - state.models[i].y : state.models[i].y;
  }
  require(nearby.enemy.size() == n && nearby.gap.size() == n && nearby.engaged.size() == n,
          "observation encoder: the nearby enemies are of another state");
  const auto engaged_scale = f32(sc.engaged);
  for (std::size_t i = 0; i < n; ++i) {
    const bool on_table = state.models[i].is_on_table_status();
    float* row = flat + offsets[i];
    row[col_x_] = on_table ? f32(rel_x[i] / width) : 0.0F;
    row[col_x_ + 1] = on_table ? f32(rel_y[i] / height) : 0.0F;
    row[col_nearest_] = f32(nearby.gap[i] / diagonal);
    row[col_activated_ + 3] = nearby.engaged[i] > 0 ? 1.0F : 0.0F;
    row[col_activated_ + 4] = f32(nearby.engaged[i]) / engaged_scale;
  }
  if (spec_.cover_vs_nearest_enemy) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!state.models[i].is_on_table_status() || nearby.enemy[i] < 0 || sight[i] == SightCode::NotSeen) {
        continue;
      }
      flat[offsets[i] + col_seen_] = 1.0F;
      flat[offsets[i] + col_cover_ + static_cast<std::size_t>(sight[i])] = 1.0F;
    }
  }
  // Objective control (ObservationEncoder._objective_matrix).
  for (std::size_t k = 0; k < objective_count_; ++k) {
    const game::Objective& o = st.objectives[k];
    int own_within = 0;
    int enemy_within = 0;
    double own_nearest = std::numeric_limits<double>::infinity();
    double enemy_nearest = own_nearest;
    for (std::size_t i = 0; i < n; ++i) {
      const Model& m = state.models[i];
      if (!m.is_active()) {
        continue;
      }
      double d = (lengths != nullptr ? lengths->to_objective(state, i, k, o) : std::hypot(o.x - m.x, o.y - m.y)) - m.radius;
      d = d >= 0.0 ? d : 0.0;
      if (state.model_side(i) == side) {
        own_within += d <= o.radius ? 1 : 0;
        own_nearest = d < own_nearest ? d : own_nearest;
      } else {
        enemy_within += d <= o.radius ? 1 : 0;
        enemy_nearest = d < enemy_nearest ? d : enemy_nearest;
      }
    }
    float* block = flat + split_models_ + k * objective_width_ + ocol_within_;
    block[0] = f32(own_within / slots);
    block[1] = f32(enemy_within / slots);
    block[2] = own_within > 0 && enemy_within == 0 ? 1.0F : 0.0F;
    block[3] = enemy_within > 0 && own_within == 0 ? 1.0F : 0.0F;
    block[4] = std::isinf(own_nearest) ? 1.0F : f32(own_nearest / diagonal);
    block[5] = std::isinf(enemy_nearest) ? 1.0F : f32(enemy_nearest / diagonal);
  }

  // The acting model's columns (ObservationEncoder._with_acting).
  if (state.active_model >= 0) {
    const auto a = static_cast<std::size_t>(state.active_model);
    const double ra = state.models[a].radius;
    for (std::size_t j = 0; j < n; ++j) {
      float* row = flat + offsets[j] + col_dx_;
      if (state.models[j].is_on_table_status()) {
        // The acting model's gap to j (hypot is the same either way round).
        const double centres = lengths != nullptr ? lengths->between(state, a, j)
                                                  : std::hypot(state.models[a].x - state.models[j].x,
                                                               state.models[a].y - state.models[j].y);
        double gap = centres - ra - state.models[j].radius;
        gap = gap > 0.0 ? gap : 0.0;
        row[0] = f32((rel_x[j] - rel_x[a]) / width);
        row[1] = f32((rel_y[j] - rel_y[a]) / height);
        row[2] = f32(gap / diagonal);
      } else {
        row[0] = row[1] = row[2] = 0.0F;
      }
    }
    flat[offsets[a] + col_activated_ + 2] = 1.0F;
  }

  // Columns that change without anyone moving (ObservationEncoder._dynamic_columns), float32.
  const auto wounds_scale = f32(sc.wounds);
  for (std::size_t i = 0; i < n; ++i) {
    const Model& m = state.models[i];
    float* row = flat + offsets[i];
    row[col_wounds_] = f32(m.wounds) / wounds_scale;
    row[col_wounds_ + 1] = f32(m.wounds) / full_wounds_[i];
    row[col_wounds_ + 2] = m.stable ? 1.0F : 0.0F;
    row[col_wounds_ + 3] = f32(m.strain) / strain_max_[i];
    row[col_activated_] = m.activated ? 1.0F : 0.0F;
    if (state.phase == Phase::Activate && state.model_side(i) == state.side && m.is_active() && !m.activated) {
      row[col_activated_ + 1] = 1.0F;
    }
    for (std::size_t c = 0; c < m.condition_count; ++c) {
      row[col_condition_ + static_cast<std::size_t>(m.conditions[c].id)] = 1.0F;
    }
  }
  for (std::size_t k = 0; k < objective_count_; ++k) {
    if (state.is_looted(k)) {
      flat[split_models_ + k * objective_width_ + ocol_looted_] = 1.0F;
    }
  }

  // The global block (ObservationEncoder._global_vector), float64 values stored as float32.
  float* g = flat + split_objectives_;
  const int enemy = 1 - side;
  const int limit = std::max(1, game_info.round_limit);
  g[0] = f32(static_cast<double>(state.round) / limit);
  g[1] = f32(static_cast<double>(std::max(0, limit - state.round)) / limit);
  g[gcol_phase_ + static_cast<std::size_t>(phase)] = 1.0F;
  g[gcol_own_turn_] = !state.over && state.side == side ? 1.0F : 0.0F;
  g[gcol_own_turn_ + 1] = game_info.first_side == side ? 1.0F : 0.0F;
  g[gcol_own_turn_ + 2] = f32(state.turn_index);
  g[gcol_own_turn_ + 3] = f32(static_cast<double>(state.actions_left) / spec_.max_dice);
  g[gcol_own_turn_ + 4] = state.turn_passes_after ? 1.0F : 0.0F;
  g[gcol_own_turn_ + 5] = f32(static_cast<double>(state.momentum_of(side)) / spec_.momentum_cap);
  g[gcol_own_turn_ + 6] = f32(static_cast<double>(state.momentum_of(enemy)) / spec_.momentum_cap);
  // int64 over a double scale, the difference taken exactly first (as Python's int arithmetic).
  const std::int64_t own_points = state.points[s_side];
  const std::int64_t enemy_points = state.points[static_cast<std::size_t>(enemy)];
  g[gcol_own_turn_ + 7] = f32(static_cast<double>(own_points) / sc.points);
  g[gcol_own_turn_ + 8] = f32(static_cast<double>(enemy_points) / sc.points);
  g[gcol_own_turn_ + 9] = f32(static_cast<double>(own_points - enemy_points) / sc.points);
  int active_own = 0;
  int active_all = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (state.models[i].is_active()) {
      ++active_all;
      active_own += state.model_side(i) == side ? 1 : 0;
    }
  }
  g[gcol_own_turn_ + 10] = f32(active_own / slots);
  g[gcol_own_turn_ + 11] = f32((active_all - active_own) / slots);
  for (std::size_t k = 0; k < state.taken_count; ++k) {
    const int column = action_column_[static_cast<std::size_t>(state.taken_actions[k])];
    if (column >= 0) {
      g[gcol_taken_ + static_cast<std::size_t>(column)] = 1.0F;
    }
  }
  if (state.pending.has_value()) {
    const game::Pending& p = *state.pending;
    float* pend = g + gcol_pending_;
    pend[0] = state.model_side(static_cast<std::size_t>(p.model)) == side ? 1.0F : 0.0F;
    pend[1 + static_cast<std::size_t>(p.roll.result)] = 1.0F;
    // An Invictus roll's margin is its band's tier (InvictusRoll.margin) and its spends its raises;
    // a New World roll's margin is its own (NewWorldRoll.margin, kept in its part).
    const int margin = p.invictus ? static_cast<int>(p.roll.result) : p.new_world ? p.nw.margin : p.roll.margin();
    const int spends = p.invictus ? p.inv.raise_count : p.roll.spend_count;
    pend[5] = f32(margin / sc.test_margin);
    pend[6] = f32(static_cast<double>(spends) / spec_.max_spends);
    if (p.context.action >= 0) {
      const int column = action_column_[static_cast<std::size_t>(p.context.action)];
      if (column >= 0) {
        pend[7 + static_cast<std::size_t>(column)] = 1.0F;
      }
    }
  }
  clamp_unit(out);
}

void ObservationEncoder::disc(std::vector<std::uint8_t>& layer, double x, double y, double r) const {
  // raster.py _disc: cells whose centre is within r, and the centre's own cell.
  const auto size = static_cast<std::size_t>(spec_.raster_size);
  const double rr = r * r;
  for (std::size_t row = 0; row < size; ++row) {
    const double dy = grid_y_[row] - y;
    for (std::size_t col = 0; col < size; ++col) {
      const double dx = grid_x_[col] - x;
      if (dx * dx + dy * dy <= rr) {
        layer[row * size + col] = 1;
      }
    }
  }
  const auto cell = [size](double fraction) {
    const double scaled = fraction * static_cast<double>(size);
    const auto truncated = static_cast<long long>(scaled);  // Python int(): toward zero
    return static_cast<std::size_t>(std::clamp<long long>(truncated, 0, static_cast<long long>(size) - 1));
  };
  layer[cell(y / statics_->table_height) * size + cell(x / statics_->table_width)] = 1;
}

void ObservationEncoder::encode_raster(const GameState& state, int side, std::span<std::uint8_t> out) const {
  check_state(state);
  require(spec_.raster, "observation encoder: built without a raster");
  require(side == 0 || side == 1, "observation encoder: side must be 0 (blue) or 1 (red)");
  require(out.size() == raster_size_bytes(), "observation encoder: raster output of the wrong size");
  const auto size = static_cast<std::size_t>(spec_.raster_size);
  const std::size_t cells = size * size;
  std::vector<std::uint8_t> layers(kRasterChannels * cells, 0);
  for (std::size_t k = 0; k < kTerrainChannels * cells; ++k) {
    layers[k] = terrain_[k] != 0.0F ? 1 : 0;
  }
  std::vector<std::uint8_t> layer(cells);
  const GameStatic& st = *statics_;
  auto fill = [&](std::size_t channel) {
    std::copy(layer.begin(), layer.end(), layers.begin() + static_cast<std::ptrdiff_t>(channel * cells));
  };
  std::fill(layer.begin(), layer.end(), 0);
  for (std::size_t k = 0; k < st.objectives.size(); ++k) {
    if (!state.is_looted(k)) {
      disc(layer, st.objectives[k].x, st.objectives[k].y, st.objectives[k].radius);
    }
  }
  fill(kTerrainChannels);
  // Model channels: own_active, own_down, enemy_active, enemy_down, acting_model.
  for (std::size_t group = 0; group < 4; ++group) {
    std::fill(layer.begin(), layer.end(), 0);
    for (std::size_t i = 0; i < state.model_count(); ++i) {
      const Model& m = state.models[i];
      if (!m.is_on_table_status()) {
        continue;
      }
      const std::size_t who = state.model_side(i) == side ? 0 : 2;
      if (who + (m.is_active() ? 0 : 1) == group) {
        disc(layer, m.x, m.y, m.radius);
      }
    }
    fill(kTerrainChannels + 1 + group);
  }
  std::fill(layer.begin(), layer.end(), 0);
  if (state.active_model >= 0 && state.models[static_cast<std::size_t>(state.active_model)].is_on_table_status()) {
    const Model& m = state.models[static_cast<std::size_t>(state.active_model)];
    disc(layer, m.x, m.y, m.radius);
  }
  fill(kTerrainChannels + 5);
  // Red sees the table rotated half a turn (raster.py orient); 0/1 becomes 0/255.
  for (std::size_t c = 0; c < kRasterChannels; ++c) {
    for (std::size_t k = 0; k < cells; ++k) {
      const std::size_t source = side == 1 ? cells - 1 - k : k;
      out[c * cells + k] = layers[c * cells + source] != 0 ? 255 : 0;
    }
  }
}

}  // namespace riven::encoding
