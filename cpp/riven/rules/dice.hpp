// d6 helpers over the game's stream, as riven_env/rules/dice.py does them.
//
// Every roll draws one scalar `integers(1, faces + 1)` per die, in order, from the stream given:
// the numpy-exact Pcg64 in play, or ScriptedDice in the rule tests (the Python tests' ScriptedRng).
// The rules functions are templates on that stream type.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "riven/rules/pcg64.hpp"

namespace riven::rules {

inline constexpr int kDefaultFaces = 6;

/// Scripted die faces, handed out in order (the rule tests' stand-in for the game's stream).
class ScriptedDice {
 public:
  ScriptedDice() = default;
  explicit ScriptedDice(std::vector<int> faces) : faces_(std::move(faces)) {}

  /// The next face; it must lie in [low, high) as a real draw would.
  std::int64_t integers(std::int64_t low, std::int64_t high) {
    if (next_ >= faces_.size()) {
      throw std::out_of_range("scripted dice: no face left to draw");
    }
    const int face = faces_[next_];
    if (face < low || face >= high) {
      throw std::invalid_argument("scripted dice: face " + std::to_string(face) + " outside " +
                                  std::to_string(low) + ".." + std::to_string(high - 1));
    }
    ++next_;
    return face;
  }

  /// How many faces were drawn so far.
  [[nodiscard]] std::size_t used() const { return next_; }
  [[nodiscard]] std::size_t left() const { return faces_.size() - next_; }

 private:
  std::vector<int> faces_;
  std::size_t next_ = 0;
};

template <class Rng>
int roll_die(Rng& rng, int faces = kDefaultFaces) {
  return static_cast<int>(rng.integers(1, faces + 1));
}

template <class Rng>
std::vector<int> roll_dice(Rng& rng, int count, int faces = kDefaultFaces) {
  std::vector<int> dice;
  if (count <= 0) {
    return dice;
  }
  dice.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    dice.push_back(roll_die(rng, faces));
  }
  return dice;
}

template <class Rng>
std::array<int, 2> roll_2d6(Rng& rng, int faces = kDefaultFaces) {
  const int first = roll_die(rng, faces);
  const int second = roll_die(rng, faces);
  return {first, second};
}

}  // namespace riven::rules
