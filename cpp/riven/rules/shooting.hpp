// Shooting: 2d6 + Agility vs the target's Evasion TN by cover (riven_env/rules/shooting.py).
#pragma once

#include <string>
#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

/// shooting.cover_tn.COVER (throws RulesDataError for an unknown cover).
int shot_tn(const std::string& cover, const RulesConfig& rules);

/// The cover a shot is resolved against, after the target's Conditions (Exposed ignores it,
/// Hunkered/Prone count it a step better) and the weapon's traits (Piercing a step worse).
const std::string& effective_cover(const std::string& cover, const std::vector<std::string>& target_conditions,
                                   const Weapon* weapon, const RulesConfig& rules);

/// The weapon's modifier and traits and the shooter's Conditions.
std::vector<Modifier> shot_modifiers(const Weapon* weapon, const std::vector<std::string>& shooter_conditions,
                                     const RulesConfig& rules);

bool in_range(const Weapon& weapon, double distance);
bool may_shoot_into_melee(bool shooter_adjacent_to_friend_in_it, const RulesConfig& rules);
/// What a shot's final band does (shooting.effects.BAND).
const ShotEffect& shot_effect(Band band, const RulesConfig& rules);
ShotResult shot_result(const TestResult& test, const std::string& cover, const RulesConfig& rules);

}  // namespace riven::rules
