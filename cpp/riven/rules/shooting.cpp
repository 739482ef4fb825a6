#include "riven/rules/shooting.hpp"

#include <algorithm>

#include "riven/rules/conditions.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/melee.hpp"

namespace riven::rules {

namespace {

std::string unknown_cover(const std::string& cover, const std::vector<std::string>& known, const RulesConfig& rules) {
  std::string names;
  for (const auto& name : known) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return rules.source + ": unknown cover '" + cover + "'; known: " + names;
}

}  // namespace

int shot_tn(const std::string& cover, const RulesConfig& rules) {
  for (const auto& [name, tn] : rules.shooting.cover_tn) {
    if (name == cover) return tn;
  }
  std::vector<std::string> known;
  for (const auto& entry : rules.shooting.cover_tn) known.push_back(entry.first);
  throw RulesDataError(unknown_cover(cover, known, rules));
}

const std::string& effective_cover(const std::string& cover, const std::vector<std::string>& target_conditions,
                                   const Weapon* weapon, const RulesConfig& rules) {
  const auto& order = rules.shooting.cover_order;
  const auto found = std::find(order.begin(), order.end(), cover);
  if (found == order.end()) throw RulesDataError(unknown_cover(cover, order, rules));
  const ConditionLimits limits = condition_limits(target_conditions, rules);
  if (limits.ignores_cover) return order.front();
  int step = static_cast<int>(found - order.begin()) + limits.cover_steps;
  for (const WeaponTrait* trait : trait_specs(weapon, rules)) step -= trait->cover_steps;
  step = std::max(0, std::min(static_cast<int>(order.size()) - 1, step));
  return order[static_cast<std::size_t>(step)];
}

std::vector<Modifier> shot_modifiers(const Weapon* weapon, const std::vector<std::string>& shooter_conditions,
                                     const RulesConfig& rules) {
  std::vector<Modifier> modifiers;
  if (weapon != nullptr && weapon->modifier != 0) {
    modifiers.push_back(Modifier{"weapon:" + weapon->name, weapon->modifier});
  }
  for (const WeaponTrait* trait : trait_specs(weapon, rules)) {
    if (trait->shot_modifier != 0) modifiers.push_back(Modifier{"trait:" + trait->name, trait->shot_modifier});
  }
  append_condition_modifiers(shooter_conditions, ModifierKind::Shot, rules, modifiers);
  return modifiers;
}

bool in_range(const Weapon& weapon, double distance) { return weapon.kind == "ranged" && distance <= weapon.range; }

bool may_shoot_into_melee(bool shooter_adjacent_to_friend_in_it, const RulesConfig& rules) {
  if (!rules.shooting.into_melee_needs_adjacent_friend) return true;
  return shooter_adjacent_to_friend_in_it;
}

const ShotEffect& shot_effect(Band band, const RulesConfig& rules) {
  return rules.shooting.effects[static_cast<std::size_t>(band)];
}

ShotResult shot_result(const TestResult& test, const std::string& cover, const RulesConfig& rules) {
  return ShotResult{test, cover, shot_effect(test.result, rules)};
}

}  // namespace riven::rules
