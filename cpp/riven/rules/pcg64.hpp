// The game's random stream: numpy's PCG64 bit generator and Generator.integers, bit for bit.
//
// The Python engine draws every die from numpy.random.default_rng(seed) (riven_env/rules/dice.py).
// The native core reproduces that stream exactly, so the same seed gives the same game on either
// engine: the PCG64 (XSL-RR 128/64) step and output of numpy/random/src/pcg64, the 32-bit half
// buffering of its next_uint32, and the Lemire bounded draw that Generator.integers uses for
// ranges below 2**32 (numpy/random/src/distributions/distributions.c). State moves between the two
// engines through numpy's own `bit_generator.state` dictionary (see riven_env/native/random.py).
#pragma once

#include <cstdint>
#include <stdexcept>

namespace riven::rules {

// gcc and clang's 128-bit integer, as numpy's own PCG64 uses where the compiler has one.
__extension__ using uint128 = unsigned __int128;

struct Pcg64State {
  uint128 state = 0;
  uint128 inc = 0;
  bool has_uint32 = false;
  std::uint32_t uinteger = 0;
};

class Pcg64 {
 public:
  Pcg64() = default;
  explicit Pcg64(const Pcg64State& state) : state_(state) {}

  [[nodiscard]] const Pcg64State& state() const { return state_; }
  void set_state(const Pcg64State& state) { state_ = state; }

  std::uint64_t next_uint64() {
    state_.state = state_.state * kMultiplier + state_.inc;
    const auto high = static_cast<std::uint64_t>(state_.state >> 64);
    const auto low = static_cast<std::uint64_t>(state_.state);
    const auto rotation = static_cast<unsigned>(state_.state >> 122);
    const std::uint64_t value = high ^ low;
    return (value >> rotation) | (value << ((64U - rotation) & 63U));
  }

  std::uint32_t next_uint32() {
    if (state_.has_uint32) {
      state_.has_uint32 = false;
      return state_.uinteger;
    }
    const std::uint64_t next = next_uint64();
    state_.has_uint32 = true;
    state_.uinteger = static_cast<std::uint32_t>(next >> 32);
    return static_cast<std::uint32_t>(next & 0xFFFFFFFFULL);
  }

  /// Generator.integers(low, high) for int64 with high - low <= 2**32 (dice, seats, indices).
  std::int64_t integers(std::int64_t low, std::int64_t high) {
    if (high <= low) {
      throw std::invalid_argument("integers: high must be greater than low");
    }
    const auto range = static_cast<std::uint64_t>(high - low - 1);  // numpy's inclusive rng
    if (range == 0) {
      return low;
    }
    if (range > 0xFFFFFFFFULL) {
      throw std::invalid_argument("integers: ranges above 2**32 are not used by the game");
    }
    if (range == 0xFFFFFFFFULL) {
      return low + static_cast<std::int64_t>(next_uint32());
    }
    return low + static_cast<std::int64_t>(bounded_lemire(static_cast<std::uint32_t>(range)));
  }

 private:
  static constexpr uint128 kMultiplier =
      (static_cast<uint128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;

  std::uint32_t bounded_lemire(std::uint32_t range) {
    const std::uint32_t range_excl = range + 1U;
    std::uint64_t product = static_cast<std::uint64_t>(next_uint32()) * range_excl;
    auto leftover = static_cast<std::uint32_t>(product & 0xFFFFFFFFULL);
    if (leftover < range_excl) {
      const std::uint32_t threshold = (UINT32_MAX - range) % range_excl;
      while (leftover < threshold) {
        product = static_cast<std::uint64_t>(next_uint32()) * range_excl;
        leftover = static_cast<std::uint32_t>(product & 0xFFFFFFFFULL);
      }
    }
    return static_cast<std::uint32_t>(product >> 32);
  }

  Pcg64State state_;
};

}  // namespace riven::rules
