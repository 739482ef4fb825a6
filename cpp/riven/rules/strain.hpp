// Strain: each model's track of pressure (riven_env/rules/strain.py).
#pragma once

#include <string>

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

int strain_max(int wit, const RulesConfig& rules);
/// strain.gain.SOURCE (throws RulesDataError for an unknown source).
int strain_gain_amount(const std::string& source, const RulesConfig& rules);
/// The Condition of strain.overflow_table for a die face (throws RulesDataError off the table).
const std::string& overflow_condition(int face, const RulesConfig& rules);
StrainChange rest_strain(int current, const RulesConfig& rules);
bool can_take_strain(int current, int amount, int strain_max, const RulesConfig& rules);

/// Add Strain; on exceeding the track roll a Condition and drop back to the maximum. The die is
/// rolled only on an overflow.
template <class Rng>
StrainChange gain_strain(int current, int amount, int track_max, Rng& rng, const RulesConfig& rules) {
  if (amount < 0) {
    throw RulesDataError("gain_strain amount = " + std::to_string(amount) + ": expected >= 0 (use rest_strain)");
  }
  const int total = current + amount;
  if (total <= track_max) {
    return StrainChange{current, total, false, 0, ""};
  }
  const int face = roll_die(rng, rules.dice_faces);
  return StrainChange{current, track_max, true, face, overflow_condition(face, rules)};
}

}  // namespace riven::rules
