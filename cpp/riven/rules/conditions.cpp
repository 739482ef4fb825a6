#include "riven/rules/conditions.hpp"

#include <algorithm>
#include <array>

#include "riven/rules/errors.hpp"

namespace riven::rules {

namespace {

constexpr std::array<std::string_view, 5> kExpiries = {"end_of_activation", "end_of_next_activation",
                                                       "end_of_side_turn", "never",
                                                       "start_of_next_activation"};  // sorted

int modifier_of(const ConditionSpec& spec, ModifierKind kind) {
  switch (kind) {
    case ModifierKind::Test:
      return spec.test_modifier;
    case ModifierKind::Melee:
      return spec.melee_modifier;
    case ModifierKind::Shot:
      return spec.shot_modifier;
  }
  return 0;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace

ModifierKind modifier_kind_from_name(std::string_view name) {
  if (name == "test") return ModifierKind::Test;
  if (name == "melee") return ModifierKind::Melee;
  if (name == "shot") return ModifierKind::Shot;
  throw RulesDataError("modifier kind '" + std::string(name) + "': expected one of test, melee, shot");
}

const ConditionSpec& condition_spec(const std::string& name, const RulesConfig& rules) {
  // rules.conditions is sorted by name (RulesConfig::prepare checks it).
  const auto found = std::lower_bound(rules.conditions.begin(), rules.conditions.end(), name,
                                      [](const ConditionSpec& spec, const std::string& key) { return spec.name < key; });
  if (found == rules.conditions.end() || found->name != name) {
    std::vector<std::string> known;
    known.reserve(rules.conditions.size());
    for (const auto& spec : rules.conditions) known.push_back(spec.name);
    throw RulesDataError(rules.source + ": unknown Condition '" + name + "'; known: " + joined(known));
  }
  return *found;
}

std::vector<std::string> sorted_names(const std::vector<std::string>& conditions) {
  std::vector<std::string> names(conditions);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void append_condition_modifiers(const std::vector<std::string>& conditions, ModifierKind kind,
                                const RulesConfig& rules, std::vector<Modifier>& out) {
  if (conditions.empty()) return;
  for (const auto& name : sorted_names(conditions)) {
    const int value = modifier_of(condition_spec(name, rules), kind);
    if (value != 0) out.push_back(Modifier{"condition:" + name, value});
  }
}

std::vector<Modifier> condition_modifiers(const std::vector<std::string>& conditions, ModifierKind kind,
                                          const RulesConfig& rules) {
  std::vector<Modifier> modifiers;
  append_condition_modifiers(conditions, kind, rules, modifiers);
  return modifiers;
}

ConditionLimits condition_limits(const std::vector<std::string>& conditions, const RulesConfig& rules) {
  ConditionLimits limits;
  for (const auto& name : sorted_names(conditions)) {
    const ConditionSpec& spec = condition_spec(name, rules);
    if (spec.max_actions > 0) {
      limits.max_actions = limits.max_actions ? std::min(*limits.max_actions, spec.max_actions) : spec.max_actions;
    }
    if (spec.max_dice > 0) {
      limits.max_dice = limits.max_dice ? std::min(*limits.max_dice, spec.max_dice) : spec.max_dice;
    }
    // Summed in name order, as the Python engine sums them (the float result is the same).
    limits.move_penalty += spec.move_penalty;
    limits.forbids.insert(limits.forbids.end(), spec.forbids.begin(), spec.forbids.end());
    if (spec.cover_against_shots == CoverEffect::Better) ++limits.cover_steps;
    if (spec.cover_against_shots == CoverEffect::Ignore) limits.ignores_cover = true;
    if (spec.end_of_turn_wound_check) limits.end_of_turn_wound_check = true;
  }
  limits.forbids = sorted_names(limits.forbids);
  return limits;
}

std::vector<std::string> conditions_removed_by(const std::string& action, const std::vector<std::string>& conditions,
                                               const RulesConfig& rules) {
  std::vector<std::string> removed;
  for (const auto& name : sorted_names(conditions)) {
    const auto& by = condition_spec(name, rules).removed_by;
    if (std::find(by.begin(), by.end(), action) != by.end()) removed.push_back(name);
  }
  return removed;
}

std::vector<std::string> conditions_expiring(const std::string& when, const std::vector<std::string>& conditions,
                                             const RulesConfig& rules) {
  if (std::find(kExpiries.begin(), kExpiries.end(), when) == kExpiries.end()) {
    std::string known;
    for (const auto expiry : kExpiries) {
      if (!known.empty()) known += ", ";
      known += expiry;
    }
    throw RulesDataError("expiry '" + when + "': expected one of " + known);
  }
  std::vector<std::string> expiring;
  for (const auto& name : sorted_names(conditions)) {
    if (condition_spec(name, rules).expires == when) expiring.push_back(name);
  }
  return expiring;
}

}  // namespace riven::rules
