#include "riven/rules/momentum.hpp"

#include <algorithm>
#include <vector>

#include "riven/rules/errors.hpp"

namespace riven::rules {

namespace {

int lookup(const std::vector<NamedInt>& table, const std::string& key, const std::string& what,
           const RulesConfig& rules) {
  for (const auto& [name, value] : table) {
    if (name == key) return value;
  }
  std::string known;
  for (const auto& entry : table) {
    if (!known.empty()) known += ", ";
    known += entry.first;
  }
  throw RulesDataError(rules.source + ": unknown Momentum " + what + " '" + key + "'; known: " + known);
}

}  // namespace

int momentum_gain(const std::string& source, const RulesConfig& rules) {
  return lookup(rules.momentum.gain, source, "source", rules);
}

int momentum_cost(const std::string& spend, const RulesConfig& rules) {
  return lookup(rules.momentum.cost, spend, "spend", rules);
}

int add_momentum(int pool, int amount, const RulesConfig& rules) {
  return std::max(0, std::min(rules.momentum.cap, pool + amount));
}

bool can_afford(int pool, const std::string& spend, const RulesConfig& rules) {
  return pool >= momentum_cost(spend, rules);
}

const std::string& momentum_pool_owner(bool solo_hero, const RulesConfig& rules) {
  return solo_hero ? rules.momentum.solo_hero_pool : rules.momentum.pool;
}

int starting_momentum(const RulesConfig& rules) { return rules.momentum.start; }

}  // namespace riven::rules
