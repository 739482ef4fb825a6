// Momentum: the side's pool of tokens (riven_env/rules/momentum.py).
#pragma once

#include <string>

#include "riven/rules/config.hpp"

namespace riven::rules {

/// momentum.gain.SOURCE (throws RulesDataError for an unknown source).
int momentum_gain(const std::string& source, const RulesConfig& rules);
/// momentum.cost.SPEND (throws RulesDataError for an unknown spend).
int momentum_cost(const std::string& spend, const RulesConfig& rules);
/// Add (or remove) Momentum, clamped to 0..momentum.cap.
int add_momentum(int pool, int amount, const RulesConfig& rules);
bool can_afford(int pool, const std::string& spend, const RulesConfig& rules);
/// "side" or "model": momentum.pool, or momentum.solo_hero_pool in solo-hero mode.
const std::string& momentum_pool_owner(bool solo_hero, const RulesConfig& rules);
int starting_momentum(const RulesConfig& rules);

}  // namespace riven::rules
