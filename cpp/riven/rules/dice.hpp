// d6 helpers over the game's stream, as riven_env/rules/dice.py does them.
#pragma once

#include <cstdint>
#include <vector>

#include "riven/rules/pcg64.hpp"

namespace riven::rules {

inline constexpr int kDefaultFaces = 6;

int roll_die(Pcg64& rng, int faces = kDefaultFaces);
std::vector<int> roll_dice(Pcg64& rng, int count, int faces = kDefaultFaces);

}  // namespace riven::rules
