// Morale: the test and its triggers (riven_env/rules/morale.py); the flight's geometry is the
// table's (riven_env/table), not the rules'.
#pragma once

#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

/// Inches a failed model flees: the flee dice plus morale.flee_base.
double flee_distance(const std::vector<int>& flee_dice, const RulesConfig& rules);

/// The triggers the game loop applies, in MORALE_TRIGGERS order.
std::vector<MoraleTrigger> enabled_morale_triggers(const RulesConfig& rules);

/// One die vs Mettle (meets or beats: passed); the flee dice are rolled only on a failure.
template <class Rng>
MoraleResult roll_morale(int mettle, Rng& rng, const RulesConfig& rules) {
  const int die = roll_die(rng, rules.dice_faces);
  if (die >= mettle) return MoraleResult{mettle, die, true, 0.0, {}};
  std::vector<int> dice = roll_dice(rng, rules.morale.flee_dice, rules.dice_faces);
  const double distance = flee_distance(dice, rules);
  return MoraleResult{mettle, die, false, distance, std::move(dice)};
}

}  // namespace riven::rules
