// Game-level queries on the native GameState: the functions of riven_env/game/state.py,
// riven_env/game/actions.py and riven_env/game/victory.py that agents and the game loop ask,
// named as the Python functions and computed as they are (the same float operations in the
// same order, so that every comparison agrees bit for bit).
//
// Routing (charge paths, planned destinations) is not here: it is being ported separately;
// callers that need it take a callback (see riven/oracle/oracle.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "riven/game/state.hpp"
#include "riven/rules/conditions.hpp"
#include "riven/rules/config.hpp"
#include "riven/table/table.hpp"

namespace riven::game {

/// The bases of a state as flat arrays (Python's ``state.bases``), and a view on them.
struct Bases {
  std::vector<double> centers;  // x0, y0, x1, y1, ...
  std::vector<double> radii;
  std::vector<std::uint8_t> on_table;

  [[nodiscard]] table::BasesView view() const { return {centers, radii, on_table}; }
};

/// ``state.bases`` of a native state.
Bases bases_of(const GameState& state);

/// ``GameState.active_models(side)``: active models of ``side``, in index order.
std::vector<std::size_t> active_models(const GameState& state, int side);
/// ``GameState.enemies_of(i)``: active enemy models of ``i``.
std::vector<std::size_t> enemies_of(const GameState& state, std::size_t i);
/// ``GameState.friends_of(i)``: friends of ``i`` still on the table (active or Down), not ``i``.
std::vector<std::size_t> friends_of(const GameState& state, std::size_t i);
/// ``GameState.engaged_enemies(i)``: active enemies in base contact (``measure.contacts``).
std::vector<std::size_t> engaged_enemies(const GameState& state, const table::BasesView& bases, std::size_t i,
                                         double contact_tolerance);
/// ``GameState.distance_to_point``: from the edge of ``i``'s base (numpy's hypot), never negative.
double distance_to_point(const GameState& state, std::size_t i, table::Point point);
/// The names of the Conditions model ``i`` holds, in the order it gained them.
std::vector<std::string> condition_names(const GameState& state, std::size_t i);
/// ``effects.limits(state, i)``: the combined limits of model ``i``'s Conditions.
rules::ConditionLimits limits(const GameState& state, std::size_t i, const rules::RulesConfig& rules);
/// ``actions.move_allowance``: Move after Condition penalties, never negative.
double move_allowance(const GameState& state, std::size_t i, const rules::RulesConfig& rules);
/// ``actions.engaged_forbids``: the actions base contact with an enemy forbids (``engagement.forbids``).
const std::vector<std::string>& engaged_forbids(const rules::RulesConfig& rules);
/// ``actions.chooser_of``: the model whose side chooses on the pending roll. RIVEN's TestRoll
/// (the only pending record of the native state) has no ``chooser``, so it is the roller.
/// Throws std::invalid_argument when nothing is pending.
std::size_t chooser_of(const GameState& state);

/// One entry of ``actions.shot_targets``: the target and the cover it is shot against.
struct ShotTarget {
  std::size_t target = 0;
  std::string cover;
};

/// ``actions.shot_targets(state, i)``: the enemies model ``i`` may shoot now, in index order.
///
/// ``ranged`` is model ``i``'s ranged weapon (the GameStatic profile holds its numbers, not its
/// traits, which the effective cover reads); nullptr: no ranged weapon (no targets).
std::vector<ShotTarget> shot_targets(const GameState& state, const table::BasesView& bases,
                                     const table::TableGeometry& table, const rules::RulesConfig& rules,
                                     std::size_t i, const rules::Weapon* ranged, double contact_tolerance);

/// ``victory.controller``: the side controlling objective ``k`` (only its active models are
/// within the radius), or -1.
int controller(const GameState& state, std::size_t k);

}  // namespace riven::game
