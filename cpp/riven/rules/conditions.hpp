// Conditions as data with generic effect fields (riven_env/rules/conditions.py).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

/// The roll kinds a Condition modifies: non-shot 2d6 tests, melee rolls, shots.
enum class ModifierKind : std::uint8_t { Test, Melee, Shot };
/// "test" | "melee" | "shot" (throws RulesDataError otherwise).
ModifierKind modifier_kind_from_name(std::string_view name);

/// The combined limits of a set of Conditions (the tightest cap wins, penalties add).
struct ConditionLimits {
  std::optional<int> max_actions;
  std::optional<int> max_dice;
  double move_penalty = 0.0;
  std::vector<std::string> forbids;  // sorted
  int cover_steps = 0;
  bool ignores_cover = false;
  bool end_of_turn_wound_check = false;
  bool operator==(const ConditionLimits&) const = default;
};

/// One Condition by name (throws RulesDataError naming the known ones).
const ConditionSpec& condition_spec(const std::string& name, const RulesConfig& rules);

/// The names of `conditions`, sorted and without repeats (Python's sorted(set(...))).
std::vector<std::string> sorted_names(const std::vector<std::string>& conditions);

/// One Modifier("condition:NAME", value) per held Condition with a non-zero modifier of `kind`,
/// in name order.
std::vector<Modifier> condition_modifiers(const std::vector<std::string>& conditions, ModifierKind kind,
                                          const RulesConfig& rules);
/// Appends condition_modifiers(...) to `out` (the hot paths build one modifier list).
void append_condition_modifiers(const std::vector<std::string>& conditions, ModifierKind kind,
                                const RulesConfig& rules, std::vector<Modifier>& out);

ConditionLimits condition_limits(const std::vector<std::string>& conditions, const RulesConfig& rules);

/// The held Conditions that taking `action` removes, in name order.
std::vector<std::string> conditions_removed_by(const std::string& action, const std::vector<std::string>& conditions,
                                               const RulesConfig& rules);
/// The held Conditions whose `expires` is `when`, in name order (throws RulesDataError for an
/// unknown expiry).
std::vector<std::string> conditions_expiring(const std::string& when, const std::vector<std::string>& conditions,
                                             const RulesConfig& rules);

}  // namespace riven::rules
