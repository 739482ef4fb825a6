#include "riven/rules/casualties.hpp"

namespace riven::rules {

double stabilise_range(const RulesConfig& rules) { return rules.distance("stabilise_range"); }

}  // namespace riven::rules
