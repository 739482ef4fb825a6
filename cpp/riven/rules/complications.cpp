#include "riven/rules/complications.hpp"

#include <stdexcept>
#include <string>

namespace riven::rules {

const Complication& complication_entry(int face, const RulesConfig& rules) {
  if (face < 1 || face > static_cast<int>(rules.complications.size())) {
    throw std::out_of_range("complications.table: no entry for face " + std::to_string(face));
  }
  return rules.complications[static_cast<std::size_t>(face - 1)];
}

}  // namespace riven::rules
