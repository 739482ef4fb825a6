#include "riven/rules/tests_2d6.hpp"

#include <algorithm>

#include "riven/rules/strain.hpp"

namespace riven::rules {

Band band_for_margin(int margin, const RulesConfig& rules) {
  if (margin <= rules.test.miss_max) return Band::Miss;
  if (margin <= rules.test.partial_max) return Band::Partial;
  if (margin <= rules.test.hit_max) return Band::Hit;
  return Band::Critical;
}

int difficulty_tn(const std::string& name, const RulesConfig& rules) {
  for (const auto& [key, value] : rules.test.difficulty) {
    if (key == name) return value;
  }
  std::string known;
  for (const auto& entry : rules.test.difficulty) {
    if (!known.empty()) known += ", ";
    known += entry.first;
  }
  throw RulesDataError(rules.source + ": unknown difficulty '" + name + "'; known: " + known);
}

TestRoll make_test_roll(const std::string& kind, const std::string& attribute, int attribute_value, int tn,
                        const std::vector<Modifier>& modifiers, std::array<int, 2> dice, const RulesConfig& rules) {
  TestRoll roll;
  roll.kind = kind;
  roll.attribute = attribute;
  roll.attribute_value = attribute_value;
  roll.modifiers = modifiers;
  roll.tn = tn;
  roll.dice = dice;
  const Band band = band_for_margin(roll.total() - tn, rules);
  roll.rolled_result = band;
  roll.result = band;
  roll.critical_momentum = rules.momentum.gain_critical;
  return roll;
}

std::vector<Spend> structural_options(const TestRoll& roll, const RulesConfig& rules) {
  std::vector<Spend> options;
  const int tier = band_tier(roll.result);
  int rerolls = 0;
  bool shifted = false;
  int boosts = 0;
  bool strained = false;
  for (const Spend spend : roll.spends) {
    if (is_reroll(spend)) {
      ++rerolls;
    } else {
      shifted = true;
      boosts += spend == Spend::Boost ? 1 : 0;
      strained = strained || spend == Spend::Strain;
    }
  }
  if (rerolls < rules.momentum.max_rerolls_per_test && !shifted) {
    const int total = roll.total();
    // Of two equal dice only the first is offered; a reroll is offered only when the best face
    // of the new die gives a better band.
    for (std::size_t index = 0; index < roll.dice.size(); ++index) {
      const int value = roll.dice[index];
      if (index == 1 && roll.dice[0] == value) continue;
      const Band best = band_for_margin(total - value + rules.dice_faces - roll.tn, rules);
      if (band_tier(best) > tier) options.push_back(index == 0 ? Spend::Reroll0 : Spend::Reroll1);
    }
  }
  if (boosts < rules.momentum.max_boosts_per_test && tier < band_tier(rules.momentum.boost_ceiling)) {
    options.push_back(Spend::Boost);
  }
  if (!strained && roll.result == Band::Miss) options.push_back(Spend::Strain);
  return options;
}

std::vector<Spend> spend_options(const TestRoll& roll, int momentum, int strain, int strain_max,
                                 const RulesConfig& rules) {
  const int pool = momentum - roll.momentum_spent;
  std::vector<Spend> legal;
  for (const Spend option : structural_options(roll, rules)) {
    if (option == Spend::Strain) {
      if (can_take_strain(strain + roll.strain_taken, rules.strain.spend_cost, strain_max, rules)) {
        legal.push_back(option);
      }
    } else if (pool >= (option == Spend::Boost ? rules.momentum.cost_boost : rules.momentum.cost_reroll)) {
      legal.push_back(option);
    }
  }
  return legal;
}

TestResult finalise(const TestRoll& roll) {
  TestResult result;
  result.kind = roll.kind;
  result.attribute = roll.attribute;
  result.attribute_value = roll.attribute_value;
  result.modifiers = roll.modifiers;
  result.tn = roll.tn;
  result.dice = roll.dice;
  result.total = roll.total();
  result.result = roll.result;
  result.rolled_result = roll.rolled_result;
  result.spends = roll.spends;
  result.momentum_spent = roll.momentum_spent;
  result.strain_taken = roll.strain_taken;
  result.momentum_gained = roll.result == Band::Critical ? roll.critical_momentum : 0;
  return result;
}

}  // namespace riven::rules
