// The entity observation's pair block: riven_env/encoding/entity.py EntityEncoder._build_pairs over
// the native GameState, value for value.
//
// The block is (2S, 2S, F_p) float32: row a, column b describes model slot a (own slots first, then
// enemy slots, as the models block) looking at slot b. The arithmetic is the Python encoder's:
// float64 for the offsets and gaps (the same libm hypot, the same operation order) rounded once to
// float32 on storing. Sight, cover, shot targets, move allowances and charge reach are the core's
// game queries (cpp/riven/game/queries.hpp) and the table's sight and the forward model's planner,
// the ones the native legal decisions read: no second implementation of either.
//
// The terrain rows (static per table and side) and the action mask are not written here: the
// Python side has them (entity.py terrain_rows, the batch's mask).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "riven/game/forward_model.hpp"
#include "riven/game/state.hpp"

namespace riven::encoding {

/// entity.py PAIR_FEATURES, in column order.
inline constexpr std::array<const char*, 13> kPairFeatures{
    "present", "enemy",       "dx",         "dy",       "gap",        "contact",     "line_of_sight",
    "cover_none", "cover_soft", "cover_hard", "in_range", "shot_legal", "charge_reach"};

/// The column of each of kPairFeatures in a pair row.
enum PairColumn : std::size_t {
  kPresent = 0,
  kEnemy,
  kDx,
  kDy,
  kGap,
  kContact,
  kLineOfSight,
  kCoverNone,
  kCoverSoft,
  kCoverHard,
  kInRange,
  kShotLegal,
  kChargeReach,
};
static_assert(kChargeReach + 1 == kPairFeatures.size(), "a column for every pair feature");

/// What the pair encoder reads besides the state (EntityEncoder's constructor, resolved).
struct PairSpec {
  int models_per_side = 0;
  double charge_reach_factor = 1.0;  // rules distances.charge_reach_factor
  bool charge_paths = true;          // encoding.toml entity.charge_paths
  double contact_tolerance = 0.0;    // table/measure.py CONTACT_TOL
};

class PairEncoder {
 public:
  /// Throws std::invalid_argument when a side has more models than spec.models_per_side.
  PairEncoder(PairSpec spec, std::shared_ptr<const game::GameStatic> statics);

  [[nodiscard]] const PairSpec& spec() const { return spec_; }
  /// Floats of one pair block: (2S)^2 * F_p.
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] static std::vector<std::string> features();

  /// The pair block of `state` for `side` (0 blue, 1 red) into `out` (size() floats, overwritten).
  /// Throws std::invalid_argument on a state of another game or an output of another size.
  void encode(const game::ForwardModel& model, const game::GameState& state, int side, std::span<float> out) const;

 private:
  PairSpec spec_;
  std::shared_ptr<const game::GameStatic> statics_;
  std::size_t slots_ = 0;  // 2S
  std::size_t size_ = 0;
  std::array<std::vector<std::size_t>, 2> rows_;  // per side: each model's row (slot)
};

}  // namespace riven::encoding
