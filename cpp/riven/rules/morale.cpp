#include "riven/rules/morale.hpp"

namespace riven::rules {

double flee_distance(const std::vector<int>& flee_dice, const RulesConfig& rules) {
  int sum = 0;
  for (const int die : flee_dice) sum += die;
  return static_cast<double>(sum) + rules.morale.flee_base;
}

std::vector<MoraleTrigger> enabled_morale_triggers(const RulesConfig& rules) {
  std::vector<MoraleTrigger> enabled;
  for (const auto& trigger : rules.morale.triggers) {
    if (trigger.enabled) enabled.push_back(trigger);
  }
  return enabled;
}

}  // namespace riven::rules
