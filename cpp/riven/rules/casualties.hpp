// Down and Out (riven_env/rules/casualties.py).
#pragma once

#include <utility>

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

/// Read an Out check die (pure): below Mettle is Out.
inline OutCheckResult out_check_from_die(int mettle, int die) { return OutCheckResult{mettle, die, die < mettle}; }

/// distances.stabilise_range.
double stabilise_range(const RulesConfig& rules);

/// The end-of-turn roll of an unstabilised Down model (casualties.out_check_dice: one die).
template <class Rng>
OutCheckResult roll_out_check(int mettle, Rng& rng, const RulesConfig& rules) {
  return out_check_from_die(mettle, roll_die(rng, rules.dice_faces));
}

/// A Condition's end-of-turn wound check: (die, wounded), one die vs Mettle, below is a wound.
template <class Rng>
std::pair<int, bool> roll_wound_check(int mettle, Rng& rng, const RulesConfig& rules) {
  const int die = roll_die(rng, rules.dice_faces);
  return {die, die < mettle};
}

}  // namespace riven::rules
