// The Complication Oracle: a d6 table in data (riven_env/rules/complications.py).
#pragma once

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"

namespace riven::rules {

/// The entry of a die face (throws std::out_of_range off the table).
const Complication& complication_entry(int face, const RulesConfig& rules);

/// Roll on the Complication Oracle (one die).
template <class Rng>
const Complication& roll_complication(Rng& rng, const RulesConfig& rules) {
  return complication_entry(roll_die(rng, rules.dice_faces), rules);
}

}  // namespace riven::rules
