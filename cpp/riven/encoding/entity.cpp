#include "riven/encoding/entity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "riven/game/queries.hpp"
#include "riven/rules/shooting.hpp"

namespace riven::encoding {

namespace {

constexpr std::size_t kColumns = kPairFeatures.size();

// observation.py COVERS: the table's cover ranks and the pair block's cover columns.
constexpr std::array<const char*, 3> kCovers{"none", "soft", "hard"};

std::size_t cover_column(const std::string& cover) {
  for (std::size_t k = 0; k < kCovers.size(); ++k) {
    if (cover == kCovers[k]) return kCoverNone + k;
  }
  throw std::invalid_argument("pair encoder: cover '" + cover + "' is not one of none, soft, hard");
}

}  // namespace

PairEncoder::PairEncoder(PairSpec spec, std::shared_ptr<const game::GameStatic> statics)
    : spec_(spec), statics_(std::move(statics)) {
  if (!statics_) throw std::invalid_argument("pair encoder: no game static part");
  if (spec_.models_per_side < 1) {
    throw std::invalid_argument("pair encoder: models_per_side = " + std::to_string(spec_.models_per_side) +
                                ": expected >= 1");
  }
  const auto s = static_cast<std::size_t>(spec_.models_per_side);
  slots_ = 2 * s;
  size_ = slots_ * slots_ * kColumns;
  const std::size_t n = statics_->model_count();
  for (std::size_t side = 0; side < 2; ++side) {
    // entity.py _rows: own models in scenario order fill slots 0..S-1, the enemy's S..2S-1.
    std::array<std::size_t, 2> next{0, s};
    rows_[side].resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t block = statics_->model_sides[i] == side ? 0 : 1;
      if (next[block] >= (block + 1) * s) {
        throw std::invalid_argument("pair encoder: models_per_side = " + std::to_string(s) +
                                    " is too small for the scenario's sides");
      }
      rows_[side][i] = next[block]++;
    }
  }
}

std::vector<std::string> PairEncoder::features() { return {kPairFeatures.begin(), kPairFeatures.end()}; }

void PairEncoder::encode(const game::ForwardModel& model, const game::GameState& state, int side,
                         std::span<float> out) const {
  if (state.statics == nullptr || state.model_count() != statics_->model_count()) {
    throw std::invalid_argument("pair encoder: the state is of another game");
  }
  if (side != 0 && side != 1) throw std::invalid_argument("pair encoder: side must be 0 (blue) or 1 (red)");
  if (out.size() != size_) {
    throw std::invalid_argument("pair encoder: out must hold " + std::to_string(size_) + " floats");
  }
  std::fill(out.begin(), out.end(), 0.0f);
  const std::size_t n = state.model_count();
  const auto& rows = rows_[static_cast<std::size_t>(side)];
  const double width = statics_->table_width;
  const double height = statics_->table_height;
  const double diagonal = std::hypot(width, height);
  const double sign = side == 1 ? -1.0 : 1.0;  // red sees the table rotated half a turn
  std::vector<std::uint8_t> on_table(n);
  for (std::size_t i = 0; i < n; ++i) {
    const game::Model& m = state.models[i];
    on_table[i] = m.on_table && m.status != game::Status::Out ? 1 : 0;
  }
  // Per active shooter on the table: the enemies it may shoot now, and those a charge reaches.
  std::vector<std::vector<std::uint8_t>> shots(n);
  std::vector<std::vector<std::uint8_t>> reach(n);
  const game::BasesArrays bases = game::bases_of(state);
  for (std::size_t i = 0; i < n; ++i) {
    if (on_table[i] == 0 || !state.models[i].is_active()) continue;
    shots[i].assign(n, 0);
    reach[i].assign(n, 0);
    for (const auto& [j, cover] : game::shot_targets(model, state, i)) {
      shots[i][static_cast<std::size_t>(j)] = 1;
    }
    const double allowance = game::move_allowance(model, state, i) * spec_.charge_reach_factor;
    if (allowance <= 0) continue;
    std::vector<std::int64_t> enemies;
    for (const int j : game::enemies_of(state, i)) {
      if (on_table[static_cast<std::size_t>(j)] != 0) enemies.push_back(j);
    }
    if (enemies.empty()) continue;
    if (spec_.charge_paths) {
      for (const std::int64_t j : model.planner->charge_targets(bases.view(), i, allowance, enemies)) {
        reach[i][static_cast<std::size_t>(j)] = 1;
      }
    } else {
      for (const std::int64_t j : enemies) {
        if (game::distance(state, i, static_cast<std::size_t>(j)) <= allowance + 1e-9) {
          reach[i][static_cast<std::size_t>(j)] = 1;
        }
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (on_table[i] == 0) continue;
    const game::Model& a = state.models[i];
    const auto& weapon = model.ranged[static_cast<std::size_t>(statics_->model_profile[i])];
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i || on_table[j] == 0) continue;
      const game::Model& b = state.models[j];
      float* row = out.data() + (rows[i] * slots_ + rows[j]) * kColumns;
      const double ddx = b.x - a.x;
      const double ddy = b.y - a.y;
      const double gap = std::max(0.0, std::hypot(ddx, ddy) - a.radius - b.radius);
      row[kPresent] = 1.0f;
      row[kDx] = static_cast<float>(sign * ddx / width);
      row[kDy] = static_cast<float>(sign * ddy / height);
      row[kGap] = static_cast<float>(std::min(1.0, gap / diagonal));
      row[kContact] = gap <= spec_.contact_tolerance ? 1.0f : 0.0f;
      if (state.model_side(i) == state.model_side(j)) continue;
      row[kEnemy] = 1.0f;
      const auto [visible, rank] = model.table->sight_between({a.x, a.y}, a.radius, {b.x, b.y}, b.radius);
      if (visible) {
        row[kLineOfSight] = 1.0f;
        // The cover a shot from a would face: the terrain's, after b's Conditions and a's weapon
        // traits.
        const std::string cover = kCovers.at(static_cast<std::size_t>(rank));
        row[cover_column(game::effective_cover(model, state, i, j, cover))] = 1.0f;
      }
      if (weapon && rules::in_range(*weapon, game::distance(state, i, j))) row[kInRange] = 1.0f;
      if (!shots[i].empty() && shots[i][j] != 0) row[kShotLegal] = 1.0f;
      if (!reach[i].empty() && reach[i][j] != 0) row[kChargeReach] = 1.0f;
    }
  }
}

}  // namespace riven::encoding
