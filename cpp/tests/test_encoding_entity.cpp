// The native pair encoder (cpp/riven/encoding/entity.hpp, entity.py _build_pairs) on the 3-against-3
// skirmish of test_game_loop.cpp (a wall, woods and a marsh; the core's own planner), run under
// ASan + UBSan by tests/test_native_sanitizers.py. Its value-for-value equality with the Python
// encoder is Python's to check; here the block's invariants hold on every state of seeded random
// games, and on a hand-placed opening the sight, range, shot and charge columns are the core's own
// answers (the table's sight query, the shooting range rule, shot_targets, the charge planner).
//
// The fixture (table, scenario, forward model, opening) is test_game_loop.cpp's
// (skirmish_fixture.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "riven/encoding/entity.hpp"
#include "riven/game/events.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/loop.hpp"
#include "riven/game/native_planner.hpp"
#include "riven/game/queries.hpp"
#include "riven/game/state.hpp"
#include "riven/rules/shooting.hpp"
#include "riven/table/table.hpp"
#include "rules_fixture.hpp"
#include "skirmish_fixture.hpp"

namespace {

using riven::game::Decision;
using namespace skirmish_fixture;

using enum riven::encoding::PairColumn;
constexpr std::size_t kColumns = riven::encoding::kPairFeatures.size();
constexpr std::size_t kPerSide = 3;
constexpr std::size_t kSlots = 2 * kPerSide;
constexpr double kContactTolerance = 0.02;  // geometry.toml contact_tolerance

riven::encoding::PairSpec pair_spec(const ForwardModel& fm, bool charge_paths) {
  riven::encoding::PairSpec spec;
  spec.models_per_side = static_cast<int>(kPerSide);
  spec.charge_reach_factor = fm.rules->distance("charge_reach_factor");
  spec.charge_paths = charge_paths;
  spec.contact_tolerance = kContactTolerance;
  return spec;
}

/// The slot of model i for `side`: own models in scenario order, then the enemy's.
std::size_t slot(const GameState& state, int side, std::size_t i) {
  std::size_t own = 0;
  std::size_t enemy = kPerSide;
  for (std::size_t k = 0; k < state.model_count(); ++k) {
    const bool mine = state.model_side(k) == side;
    if (k == i) return mine ? own : enemy;
    ++(mine ? own : enemy);
  }
  throw std::out_of_range("slot: no model " + std::to_string(i));
}

const float* cell(const std::vector<float>& block, std::size_t a, std::size_t b) {
  return block.data() + (a * kSlots + b) * kColumns;
}

bool placed(const GameState& state, std::size_t i) {
  return state.models[i].on_table && state.models[i].status != riven::game::Status::Out;
}

bool contains(const std::vector<int>& targets, std::size_t j) {
  return std::find(targets.begin(), targets.end(), static_cast<int>(j)) != targets.end();
}

/// What the soak reached, so that a soak of do-nothing states cannot pass.
struct Seen {
  int shot_legal = 0;
  int charge_reach = 0;
  int blocked = 0;  // enemy pairs on the table out of sight
  int contact = 0;
  int absent = 0;  // pairs with a model off the table
  int covered = 0;  // enemy pairs seen in soft or hard cover
};

/// Every invariant of one side's block, against the core's own queries; counts into `seen`.
void check_block(const ForwardModel& fm, const GameState& state, int side, const std::vector<float>& block,
                 Seen& seen) {
  RIVEN_CHECK(block.size() == kSlots * kSlots * kColumns);
  for (const float v : block) RIVEN_CHECK(!std::isnan(v) && v >= -1.0F && v <= 1.0F);
  for (std::size_t a = 0; a < kSlots; ++a) {
    const float* self = cell(block, a, a);
    for (std::size_t c = 0; c < kColumns; ++c) RIVEN_CHECK(self[c] == 0.0F);
  }
  const double width = state.statics->table_width;
  const double height = state.statics->table_height;
  const double diagonal = std::hypot(width, height);
  const double factor = fm.rules->distance("charge_reach_factor");
  for (std::size_t i = 0; i < state.model_count(); ++i) {
    const riven::game::Model& a = state.models[i];
    const bool shooter = placed(state, i) && a.is_active();
    const std::vector<std::pair<int, std::string>> shots =
        shooter ? riven::game::shot_targets(fm, state, i) : std::vector<std::pair<int, std::string>>{};
    std::vector<int> shot_ids;
    for (const auto& [j, cover] : shots) shot_ids.push_back(j);
    const double allowance = shooter ? riven::game::move_allowance(fm, state, i) * factor : 0.0;
    const std::vector<int> reach =
        allowance > 0 ? riven::game::charge_targets(fm, state, i, allowance) : std::vector<int>{};
    const auto& weapon = fm.ranged[static_cast<std::size_t>(state.statics->model_profile[i])];
    for (std::size_t j = 0; j < state.model_count(); ++j) {
      if (j == i) continue;
      const riven::game::Model& b = state.models[j];
      const float* row = cell(block, slot(state, side, i), slot(state, side, j));
      const float* back = cell(block, slot(state, side, j), slot(state, side, i));
      const bool present = placed(state, i) && placed(state, j);
      RIVEN_CHECK(row[kPresent] == (present ? 1.0F : 0.0F));
      if (!present) {
        ++seen.absent;
        for (std::size_t c = 0; c < kColumns; ++c) RIVEN_CHECK(row[c] == 0.0F);
        continue;
      }
      // The frame is side-relative (red sees the table turned half a turn) and antisymmetric.
      const double sign = side == 1 ? -1.0 : 1.0;
      RIVEN_CHECK(row[kDx] == static_cast<float>(sign * (b.x - a.x) / width));
      RIVEN_CHECK(row[kDy] == static_cast<float>(sign * (b.y - a.y) / height));
      RIVEN_CHECK(row[kDx] == -back[kDx] && row[kDy] == -back[kDy]);
      RIVEN_CHECK(row[kGap] == back[kGap] && row[kContact] == back[kContact]);
      const double gap = std::max(0.0, std::hypot(b.x - a.x, b.y - a.y) - a.radius - b.radius);
      RIVEN_CHECK(row[kGap] == static_cast<float>(std::min(1.0, gap / diagonal)));
      RIVEN_CHECK(row[kGap] >= 0.0F);
      RIVEN_CHECK(row[kContact] == (gap <= kContactTolerance ? 1.0F : 0.0F));
      seen.contact += row[kContact] == 1.0F ? 1 : 0;
      const bool enemy = state.model_side(i) != state.model_side(j);
      RIVEN_CHECK(row[kEnemy] == (enemy ? 1.0F : 0.0F));
      if (!enemy) {
        for (std::size_t c = kLineOfSight; c < kColumns; ++c) RIVEN_CHECK(row[c] == 0.0F);
        continue;
      }
      const auto [visible, rank] = fm.table->sight_between({a.x, a.y}, a.radius, {b.x, b.y}, b.radius);
      RIVEN_CHECK(row[kLineOfSight] == (visible ? 1.0F : 0.0F));
      const float covers = row[kCoverNone] + row[kCoverSoft] + row[kCoverHard];
      if (visible) {
        // One-hot: the terrain's cover after b's Conditions and a's weapon traits.
        RIVEN_CHECK(covers == 1.0F);
        static const std::array<std::string, 3> names{"none", "soft", "hard"};
        const std::string cover =
            riven::game::effective_cover(fm, state, i, j, names.at(static_cast<std::size_t>(rank)));
        const std::size_t column =
            static_cast<std::size_t>(std::find(names.begin(), names.end(), cover) - names.begin());
        RIVEN_CHECK(column < names.size() && row[kCoverNone + column] == 1.0F);
        seen.covered += column > 0 ? 1 : 0;
      } else {
        RIVEN_CHECK(covers == 0.0F);
        ++seen.blocked;
      }
      const bool in_range = weapon && riven::rules::in_range(*weapon, riven::game::distance(state, i, j));
      RIVEN_CHECK(row[kInRange] == (in_range ? 1.0F : 0.0F));
      RIVEN_CHECK(row[kShotLegal] == (contains(shot_ids, j) ? 1.0F : 0.0F));
      RIVEN_CHECK(row[kChargeReach] == (contains(reach, j) ? 1.0F : 0.0F));
      seen.shot_legal += row[kShotLegal] == 1.0F ? 1 : 0;
      seen.charge_reach += row[kChargeReach] == 1.0F ? 1 : 0;
      // A shot needs sight (the shooting rule's own precondition).
      if (row[kShotLegal] == 1.0F) RIVEN_CHECK(row[kLineOfSight] == 1.0F && row[kInRange] == 1.0F);
    }
  }
}

/// Both sides' blocks of `state`, checked; and the two sides agree on the pair's geometry.
void check_state(const ForwardModel& fm, const riven::encoding::PairEncoder& encoder, const GameState& state,
                 Seen& seen) {
  std::vector<float> blue(encoder.size());
  std::vector<float> red(encoder.size());
  encoder.encode(fm, state, 0, blue);
  encoder.encode(fm, state, 1, red);
  check_block(fm, state, 0, blue, seen);
  check_block(fm, state, 1, red, seen);
  for (std::size_t i = 0; i < state.model_count(); ++i) {
    for (std::size_t j = 0; j < state.model_count(); ++j) {
      const float* b = cell(blue, slot(state, 0, i), slot(state, 0, j));
      const float* r = cell(red, slot(state, 1, i), slot(state, 1, j));
      // The same pair seen by the other side: the same facts, the offsets turned half a turn.
      for (std::size_t c = 0; c < kColumns; ++c) {
        if (c == kDx || c == kDy) {
          RIVEN_CHECK(b[c] == -r[c]);
        } else {
          RIVEN_CHECK(b[c] == r[c]);
        }
      }
    }
  }
}

/// A hand-placed opening with known geometry: the open-ground archer duel, the wall between the
/// brutes, the leaders in base contact.
constexpr std::array<std::array<double, 2>, 6> kPlaced{{{2.0, 2.0}, {14.0, 18.0}, {9.0, 9.0},  //
                                                        {3.0, 2.0}, {18.0, 18.0}, {14.0, 9.0}}};

/// The hand-placed opening (before start): close enough for melee and removals in a random game.
GameState placed_opening(const std::shared_ptr<const GameStatic>& st, std::uint64_t seed) {
  GameState state = GameState::initial(st, 0);
  for (std::size_t i = 0; i < kPlaced.size(); ++i) {
    state.models[i].x = kPlaced[i][0];
    state.models[i].y = kPlaced[i][1];
  }
  state.rng.set_state(riven::rules::Pcg64State{seed * 7919 + 17, 2 * seed + 5, false, 0});
  return state;
}

void known_geometry(const ForwardModel& fm, const std::shared_ptr<const GameStatic>& st) {
  GameState state = placed_opening(st, 1);
  const auto& at = kPlaced;
  riven::game::EventLog log;
  riven::game::start(fm, state, log);
  log.drain();
  for (std::size_t i = 0; i < at.size(); ++i) {
    RIVEN_CHECK(state.models[i].x == at[i][0] && state.models[i].y == at[i][1] && placed(state, i));
  }
  const riven::encoding::PairEncoder encoder(pair_spec(fm, true), st);
  RIVEN_CHECK(encoder.size() == kSlots * kSlots * kColumns);
  RIVEN_CHECK(riven::encoding::PairEncoder::features().size() == kColumns);
  RIVEN_CHECK(riven::encoding::PairEncoder::features()[kChargeReach] == "charge_reach");
  Seen seen;
  check_state(fm, encoder, state, seen);
  std::vector<float> blue(encoder.size());
  std::vector<float> red(encoder.size());
  encoder.encode(fm, state, 0, blue);
  encoder.encode(fm, state, 1, red);
  const double diagonal = std::hypot(24.0, 24.0);

  // blue-2 (archer, bow 18") at (14, 18) and red-2 at (18, 18): open ground, 4" apart, a gap of 3".
  const float* duel = cell(blue, 1, 4);
  RIVEN_CHECK(duel[kPresent] == 1.0F && duel[kEnemy] == 1.0F);
  RIVEN_CHECK(duel[kDx] == static_cast<float>(4.0 / 24.0) && duel[kDy] == 0.0F);
  RIVEN_CHECK(duel[kGap] == static_cast<float>(3.0 / diagonal) && duel[kContact] == 0.0F);
  RIVEN_CHECK(fm.table->sight_between({14.0, 18.0}, 0.5, {18.0, 18.0}, 0.5) == std::make_pair(true, 0));
  RIVEN_CHECK(duel[kLineOfSight] == 1.0F && duel[kCoverNone] == 1.0F && duel[kCoverSoft] == 0.0F &&
              duel[kCoverHard] == 0.0F);
  RIVEN_CHECK(riven::rules::in_range(*fm.ranged[1], riven::game::distance(state, 1, 4)));
  RIVEN_CHECK(duel[kInRange] == 1.0F);
  std::vector<int> archer_shots;
  for (const auto& [j, cover] : riven::game::shot_targets(fm, state, 1)) {
    archer_shots.push_back(j);
    if (j == 4) RIVEN_CHECK(cover == "none");
  }
  RIVEN_CHECK(contains(archer_shots, 4));
  RIVEN_CHECK(duel[kShotLegal] == 1.0F);
  const double allowance = riven::game::move_allowance(fm, state, 1);
  RIVEN_CHECK(allowance == 5.0);
  RIVEN_CHECK(contains(riven::game::charge_targets(fm, state, 1, allowance), 4));
  RIVEN_CHECK(duel[kChargeReach] == 1.0F);
  // Red's block: red-2 is red's slot 1, blue-2 its slot 4; the same facts, the offset turned.
  const float* duel_red = cell(red, 1, 4);
  RIVEN_CHECK(duel_red[kDx] == static_cast<float>(4.0 / 24.0) && duel_red[kShotLegal] == 1.0F &&
              duel_red[kChargeReach] == 1.0F);

  // blue-3 (brute, no bow) at (9, 9) and red-3 at (14, 9): the wall (x 11..12) blocks sight, and
  // the charge route around it is longer than 5" although the straight gap is 4".
  const float* walled = cell(blue, 2, 5);
  RIVEN_CHECK(fm.table->sight_between({9.0, 9.0}, 0.5, {14.0, 9.0}, 0.5).first == false);
  RIVEN_CHECK(walled[kPresent] == 1.0F && walled[kEnemy] == 1.0F && walled[kLineOfSight] == 0.0F);
  RIVEN_CHECK(walled[kCoverNone] + walled[kCoverSoft] + walled[kCoverHard] == 0.0F);
  RIVEN_CHECK(walled[kGap] == static_cast<float>(4.0 / diagonal));
  RIVEN_CHECK(walled[kInRange] == 0.0F && walled[kShotLegal] == 0.0F);
  RIVEN_CHECK(!contains(riven::game::charge_targets(fm, state, 2, allowance), 5));
  RIVEN_CHECK(walled[kChargeReach] == 0.0F);
  // entity.charge_paths = false: the straight edge gap against the allowance instead.
  const riven::encoding::PairEncoder straight(pair_spec(fm, false), st);
  std::vector<float> blue_straight(straight.size());
  straight.encode(fm, state, 0, blue_straight);
  RIVEN_CHECK(cell(blue_straight, 2, 5)[kChargeReach] == 1.0F);
  RIVEN_CHECK(cell(blue_straight, 1, 4)[kChargeReach] == 1.0F);
  for (std::size_t c = 0; c < kColumns; ++c) {
    if (c != kChargeReach) RIVEN_CHECK(cell(blue_straight, 2, 5)[c] == walled[c]);
  }

  // The leaders at (2, 2) and (3, 2): bases of 1" touching, a gap of 0 and contact both ways.
  const float* touching = cell(blue, 0, 3);
  RIVEN_CHECK(touching[kGap] == 0.0F && touching[kContact] == 1.0F && cell(blue, 3, 0)[kContact] == 1.0F);
  RIVEN_CHECK(touching[kInRange] == 0.0F && touching[kShotLegal] == 0.0F);  // the captain has no bow
  // Friends: blue-leader and blue-2; no enemy column set.
  const float* friends = cell(blue, 0, 1);
  RIVEN_CHECK(friends[kPresent] == 1.0F && friends[kEnemy] == 0.0F);
  RIVEN_CHECK(friends[kDx] == static_cast<float>(12.0 / 24.0) && friends[kDy] == static_cast<float>(16.0 / 24.0));

  // A model off the table: its rows and columns are empty, for both sides.
  GameState removed = state;
  removed.models[4].on_table = false;
  std::vector<float> gone(encoder.size());
  encoder.encode(fm, removed, 0, gone);
  for (std::size_t k = 0; k < kSlots; ++k) {
    for (std::size_t c = 0; c < kColumns; ++c) RIVEN_CHECK(cell(gone, 4, k)[c] == 0.0F && cell(gone, k, 4)[c] == 0.0F);
  }
  RIVEN_CHECK(cell(gone, 1, 5)[kPresent] == 1.0F);

  // Refusals: a wrong output size, a side that is not 0 or 1, too few slots for the scenario.
  bool short_refused = false;
  try {
    std::vector<float> small(encoder.size() - 1);
    encoder.encode(fm, state, 0, small);
  } catch (const std::invalid_argument&) {
    short_refused = true;
  }
  RIVEN_CHECK(short_refused);
  bool side_refused = false;
  try {
    encoder.encode(fm, state, 2, blue);
  } catch (const std::invalid_argument&) {
    side_refused = true;
  }
  RIVEN_CHECK(side_refused);
  bool slots_refused = false;
  try {
    riven::encoding::PairSpec narrow = pair_spec(fm, true);
    narrow.models_per_side = 2;
    const riven::encoding::PairEncoder too_small(narrow, st);
  } catch (const std::invalid_argument&) {
    slots_refused = true;
  }
  RIVEN_CHECK(slots_refused);
}

}  // namespace

int main() {
  const auto rules_for_names = riven::testing::riven_v01();
  const auto st = skirmish(rules_for_names);
  const ForwardModel fm = forward_model(st);
  known_geometry(fm, st);

  // Seeded random games; both sides re-encoded and re-checked after every decision.
  const riven::encoding::PairEncoder encoder(pair_spec(fm, true), st);
  Seen seen;
  int decisions = 0;
  // The spread opening of test_game_loop.cpp and the hand-placed one, where melee and removals
  // come early.
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    GameState state = seed % 2 == 1 ? opening(st, seed) : placed_opening(st, seed);
    riven::game::EventLog log;
    riven::game::start(fm, state, log);
    log.drain();
    riven::rules::Pcg64 chooser(riven::rules::Pcg64State{seed * 104729 + 3, 2 * seed + 5, false, 0});
    check_state(fm, encoder, state, seen);
    for (int step = 0; step < 400 && !state.over; ++step) {
      const std::vector<Decision> legal = riven::game::legal_decisions(fm, state);
      RIVEN_CHECK(!legal.empty());
      if (legal.empty()) break;
      const auto pick = static_cast<std::size_t>(chooser.integers(0, static_cast<std::int64_t>(legal.size())));
      riven::game::apply(fm, state, legal[pick], log);
      log.drain();
      check_state(fm, encoder, state, seen);
      ++decisions;
    }
  }
  std::cout << "decisions " << decisions << " shot_legal " << seen.shot_legal << " charge_reach " << seen.charge_reach
            << " blocked " << seen.blocked << " covered " << seen.covered << " contact " << seen.contact << " absent "
            << seen.absent << "\n";
  RIVEN_CHECK(decisions >= 8 * 20);
  RIVEN_CHECK(seen.shot_legal > 0 && seen.charge_reach > 0 && seen.blocked > 0 && seen.contact > 0);
  RIVEN_CHECK(seen.covered > 0 && seen.absent > 0);
  return RIVEN_TEST_RESULT();
}
