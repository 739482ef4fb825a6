#include "riven/rules/dice.hpp"

#include <cstddef>

namespace riven::rules {

int roll_die(Pcg64& rng, int faces) { return static_cast<int>(rng.integers(1, faces + 1)); }

std::vector<int> roll_dice(Pcg64& rng, int count, int faces) {
  std::vector<int> dice;
  dice.reserve(static_cast<std::size_t>(count > 0 ? count : 0));
  for (int i = 0; i < count; ++i) {
    dice.push_back(roll_die(rng, faces));
  }
  return dice;
}

}  // namespace riven::rules
