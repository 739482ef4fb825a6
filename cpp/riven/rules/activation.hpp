// The activation roll: 1-3 d6 against the model's Mettle (riven_env/rules/activation.py).
#pragma once

#include <string>
#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

/// Read activation dice under `activation.turnover` (pure). Throws IllegalAction for a dice count
/// outside 1..activation.max_dice.
ActivationResult classify_activation(const std::vector<int>& dice, int mettle, const RulesConfig& rules);

/// Roll `dice` activation dice against `mettle` and classify them (the count is checked first,
/// so a refused roll draws nothing).
template <class Rng>
ActivationResult roll_activation(int mettle, int dice, Rng& rng, const RulesConfig& rules) {
  if (dice < 1 || dice > rules.activation.max_dice) {
    throw IllegalAction("activate with " + std::to_string(dice) + " dice (activation.max_dice)");
  }
  return classify_activation(roll_dice(rng, dice, rules.dice_faces), mettle, rules);
}

}  // namespace riven::rules
