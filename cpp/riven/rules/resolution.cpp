#include "riven/rules/resolution.hpp"

namespace riven::rules {

std::vector<std::string> ported_systems() { return {"riven", "invictus", "new-world", "riddle-of-steel"}; }

ResolutionSystem make_resolution(std::shared_ptr<const RulesConfig> rules) {
  if (!rules) throw std::invalid_argument("make_resolution: no rules");
  if (!rules->prepared) throw std::invalid_argument("make_resolution: the rules were not prepared");
  switch (rules->system) {
    case System::Riven:
      return RivenSystem(std::move(rules));
    case System::Invictus:
      return invictus::InvictusSystem(std::move(rules));
    case System::NewWorld:
      return new_world::NewWorldSystem(std::move(rules));
    case System::RiddleOfSteel:
      return riddle_of_steel::RiddleOfSteelSystem(std::move(rules));
  }
  throw NotPorted("resolution system '" + rules->system_name + "' (meta.resolution) is not in the native core");
}

}  // namespace riven::rules
