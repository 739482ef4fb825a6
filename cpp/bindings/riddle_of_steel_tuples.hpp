// The Riddle of Steel's records as the tuples that cross the seam (bind_riddle_of_steel.cpp):
// shared with bind_game.cpp, whose GameState carries the choice phase's Combat Round.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "riven/rules/systems/riddle_of_steel.hpp"

namespace riven::bindings::ros_tuples {

using WeaponTuple = std::tuple<std::string, int, int, int, std::string>;
using ShieldTuple = std::tuple<std::string, int, int, std::vector<std::string>>;
using FighterTuple =
    std::tuple<int, std::string, int, int, int, int, int, WeaponTuple, std::optional<ShieldTuple>, int>;
using EffectTuple = std::tuple<std::string, int, int, std::string>;
/// A MeleeSession's fields in order, without `new_events`.
using SessionTuple =
    std::tuple<std::pair<FighterTuple, FighterTuple>, std::pair<int, int>, int, int, int, std::string, std::string,
               std::string, int, std::string, int, std::string, std::pair<int, int>, std::optional<int>, bool,
               std::vector<EffectTuple>, std::string>;

SessionTuple session_out(const rules::riddle_of_steel::MeleeSession& session);
/// The session of its fields (no new events); throws RulesDataError on an unknown step or effect.
rules::riddle_of_steel::MeleeSession session_in(const SessionTuple& tuple);

}  // namespace riven::bindings::ros_tuples
