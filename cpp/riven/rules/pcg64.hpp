// The game's random stream: numpy's PCG64 bit generator and Generator.integers, bit for bit.
//
// The Python engine draws every die from numpy.random.default_rng(seed) (riven_env/rules/dice.py).
// The native core reproduces that stream exactly, so the same seed gives the same game on either
// engine: the PCG64 (XSL-RR 128/64) step and output of numpy/random/src/pcg64, the 32-bit half
// buffering of its next_uint32, and the Lemire bounded draws that Generator.integers uses (32-bit
// below 2**32, 64-bit above: numpy/random/src/distributions/distributions.c). State moves between the two
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

  /// Generator.integers(low, high) for int64: dice, seats and indices (below 2**32, on the
  /// buffered 32-bit halves).
  std::int64_t integers(std::int64_t low, std::int64_t high) {
    if (high <= low) {
      throw std::invalid_argument("integers: high must be greater than low");
    }
    return integers_closed(low, high - 1);
  }

  /// Generator.integers(low, high, endpoint=True) for int64: `high` included, so that a search's
  /// seed below 2**63 (integers(0, 2**63), whose bound is no int64) is integers_closed(0, 2**63 - 1),
  /// drawn on whole 64-bit draws as numpy draws a range above 2**32.
  std::int64_t integers_closed(std::int64_t low, std::int64_t high) {
    if (high < low) {
      throw std::invalid_argument("integers: high must not be below low");
    }
    // numpy's rng and off + draw, in unsigned arithmetic (no signed overflow).
    const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    const auto at = [low](std::uint64_t draw) {
      return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + draw);
    };
    if (range == 0) {
      return low;
    }
    if (range == UINT64_MAX) {
      return at(next_uint64());
    }
    if (range > 0xFFFFFFFFULL) {
      return at(bounded_lemire64(range));
    }
    if (range == 0xFFFFFFFFULL) {
      return at(next_uint32());
    }
    return at(bounded_lemire(static_cast<std::uint32_t>(range)));
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

  // bounded_lemire_uint64.
  std::uint64_t bounded_lemire64(std::uint64_t range) {
    const std::uint64_t range_excl = range + 1U;
    uint128 product = static_cast<uint128>(next_uint64()) * range_excl;
    auto leftover = static_cast<std::uint64_t>(product);
    if (leftover < range_excl) {
      const std::uint64_t threshold = (UINT64_MAX - range) % range_excl;
      while (leftover < threshold) {
        product = static_cast<uint128>(next_uint64()) * range_excl;
        leftover = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

  Pcg64State state_;
};

}  // namespace riven::rules
