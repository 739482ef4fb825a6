#include "riven/rules/strain.hpp"

#include <algorithm>

namespace riven::rules {

int strain_max(int wit, const RulesConfig& rules) { return wit * rules.strain.track_per_wit; }

int strain_gain_amount(const std::string& source, const RulesConfig& rules) {
  for (const auto& [name, value] : rules.strain.gain) {
    if (name == source) return value;
  }
  std::string known;
  for (const auto& entry : rules.strain.gain) {
    if (!known.empty()) known += ", ";
    known += entry.first;
  }
  throw RulesDataError(rules.source + ": unknown Strain source '" + source + "'; known: " + known);
}

const std::string& overflow_condition(int face, const RulesConfig& rules) {
  if (face < 1 || face > static_cast<int>(rules.strain.overflow_table.size())) {
    throw RulesDataError(rules.source + ": unknown rules key 'strain.overflow_table." + std::to_string(face) + "'");
  }
  return rules.strain.overflow_table[static_cast<std::size_t>(face - 1)];
}

StrainChange rest_strain(int current, const RulesConfig& rules) {
  return StrainChange{current, std::max(0, current - rules.strain.rest_removes), false, 0, ""};
}

bool can_take_strain(int current, int amount, int track_max, const RulesConfig& rules) {
  return current + amount <= track_max || rules.strain.spend_may_overflow;
}

}  // namespace riven::rules
