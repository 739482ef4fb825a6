// The 2d6 test engine: roll, optional spends, finalise (riven_env/rules/tests_2d6.py).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

/// The band of a margin (total - TN) by test.bands.
Band band_for_margin(int margin, const RulesConfig& rules);
inline int band_tier(Band band) { return static_cast<int>(band); }
/// test.difficulty.NAME (throws RulesDataError for an unknown difficulty).
int difficulty_tn(const std::string& name, const RulesConfig& rules);

/// A pending test from known dice (pure).
TestRoll make_test_roll(const std::string& kind, const std::string& attribute, int attribute_value, int tn,
                        const std::vector<Modifier>& modifiers, std::array<int, 2> dice, const RulesConfig& rules);

/// Spends allowed by the per-test limits and able to improve the result (cost ignored), in the
/// order reroll:0, reroll:1, boost, strain.
std::vector<Spend> structural_options(const TestRoll& roll, const RulesConfig& rules);

/// The spends legal now: within the limits, able to improve, and affordable with `momentum`
/// (before this test's spends) and `strain` of `strain_max`.
std::vector<Spend> spend_options(const TestRoll& roll, int momentum, int strain, int strain_max,
                                 const RulesConfig& rules);

/// Close a test: a Critical result sets momentum_gained.
TestResult finalise(const TestRoll& roll);

template <class Rng>
TestRoll roll_test(const std::string& kind, const std::string& attribute, int attribute_value, int tn,
                   const std::vector<Modifier>& modifiers, Rng& rng, const RulesConfig& rules) {
  return make_test_roll(kind, attribute, attribute_value, tn, modifiers, roll_2d6(rng, rules.dice_faces), rules);
}

/// Apply one spend (the per-test limits and "can improve" are checked; affordability is the
/// caller's, via spend_options). Throws IllegalAction for a spend not allowed now.
template <class Rng>
TestRoll apply_spend(const TestRoll& roll, Spend option, Rng& rng, const RulesConfig& rules) {
  const std::vector<Spend> allowed = structural_options(roll, rules);
  bool legal = false;
  for (const Spend spend : allowed) legal = legal || spend == option;
  if (!legal) {
    throw IllegalAction(std::string(spend_name(option)) + " (spend on a " + std::string(band_name(roll.result)) + " " +
                        roll.kind + " test)");
  }
  TestRoll next = roll;
  next.spends.push_back(option);
  if (is_reroll(option)) {
    const auto index = static_cast<std::size_t>(option == Spend::Reroll0 ? 0 : 1);
    next.dice[index] = roll_die(rng, rules.dice_faces);
    const Band band = band_for_margin(next.total() - next.tn, rules);
    next.rolled_result = band;
    next.result = band;
    next.momentum_spent += rules.momentum.cost_reroll;
    return next;
  }
  if (option == Spend::Boost) {
    next.result = static_cast<Band>(band_tier(roll.result) + 1);
    next.momentum_spent += rules.momentum.cost_boost;
    return next;
  }
  next.result = Band::Partial;
  next.strain_taken += rules.strain.spend_cost;
  return next;
}

}  // namespace riven::rules
