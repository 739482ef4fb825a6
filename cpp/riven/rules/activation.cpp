#include "riven/rules/activation.hpp"

namespace riven::rules {

ActivationResult classify_activation(const std::vector<int>& dice, int mettle, const RulesConfig& rules) {
  const int count = static_cast<int>(dice.size());
  if (count < 1 || count > rules.activation.max_dice) {
    throw IllegalAction("activation with " + std::to_string(count) + " dice (activation.max_dice)");
  }
  int successes = 0;
  for (const int value : dice) {
    if (value >= mettle) ++successes;
  }
  const int failures = count - successes;
  if (rules.activation.turnover == Turnover::Sbh) {
    if (failures >= rules.activation.sbh_failures_to_pass) {
      return {mettle, dice, successes, successes, true, "sbh_failures_pass"};
    }
    if (successes == 0 && rules.activation.sbh_no_success_passes) {
      return {mettle, dice, successes, successes, true, "sbh_no_success"};
    }
    return {mettle, dice, successes, successes, false, "sbh_continue"};
  }
  if (successes == 0) return {mettle, dice, 0, 0, true, "no_successes"};
  if (successes == 1 && failures > 0) return {mettle, dice, 1, 1, true, "one_success_with_failures"};
  if (successes == 1) return {mettle, dice, 1, 1, false, "one_success_clean"};
  return {mettle, dice, successes, successes, false, "multiple_successes"};
}

}  // namespace riven::rules
