// numpy's seeding, bit for bit: SeedSequence(entropy) -> PCG64, as numpy.random.default_rng(seed)
// does, and Generator.integers for 64-bit ranges (the environments draw their next game seed from
// [0, 2**62)). With these the batched environments (cpp/riven/envs/batch.hpp) start and reset
// games natively on exactly the streams the Python environments use
// (numpy/random/bit_generator.pyx SeedSequence, numpy/random/_pcg64.pyx, distributions.c
// bounded_lemire_uint64). tests/test_native_batch.py checks them against numpy.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "riven/rules/pcg64.hpp"

namespace riven::rules {

namespace seeding_detail {
inline constexpr std::uint32_t kInitA = 0x43b0d7e5U;
inline constexpr std::uint32_t kMultA = 0x931e8875U;
inline constexpr std::uint32_t kInitB = 0x8b51f9ddU;
inline constexpr std::uint32_t kMultB = 0x58f38dedU;
inline constexpr std::uint32_t kMixMultL = 0xca01f9ddU;
inline constexpr std::uint32_t kMixMultR = 0x4973f715U;
inline constexpr unsigned kXShift = 16;
inline constexpr std::size_t kPoolSize = 4;

inline std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  value ^= value >> kXShift;
  return value;
}

inline std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}
}  // namespace seeding_detail

/// SeedSequence(entropy).generate_state(4, uint64) fed to PCG64: default_rng(entropy), where
/// `entropy` is one non-negative int or a list of them (each split in 32-bit words, low first,
/// as numpy's _coerce_to_uint32_array does; 0 is one word).
inline Pcg64 seeded_pcg64(std::span<const std::uint64_t> entropy) {
  using namespace seeding_detail;
  std::vector<std::uint32_t> words;
  for (std::uint64_t value : entropy) {
    if (value == 0) {
      words.push_back(0);
    }
    while (value > 0) {
      words.push_back(static_cast<std::uint32_t>(value & 0xFFFFFFFFULL));
      value >>= 32;
    }
  }
  std::uint32_t pool[kPoolSize];
  std::uint32_t hash_const = kInitA;
  for (std::size_t i = 0; i < kPoolSize; ++i) {
    pool[i] = hashmix(i < words.size() ? words[i] : 0U, hash_const);
  }
  for (std::size_t src = 0; src < kPoolSize; ++src) {
    for (std::size_t dst = 0; dst < kPoolSize; ++dst) {
      if (src != dst) {
        pool[dst] = mix(pool[dst], hashmix(pool[src], hash_const));
      }
    }
  }
  for (std::size_t src = kPoolSize; src < words.size(); ++src) {
    for (std::size_t dst = 0; dst < kPoolSize; ++dst) {
      pool[dst] = mix(pool[dst], hashmix(words[src], hash_const));
    }
  }
  // generate_state(4, uint64): 8 32-bit words cycling over the pool, paired little-endian.
  std::uint32_t state32[8];
  std::uint32_t hash_b = kInitB;
  for (std::size_t i = 0; i < 8; ++i) {
    std::uint32_t value = pool[i % kPoolSize];
    value ^= hash_b;
    hash_b *= kMultB;
    value *= hash_b;
    value ^= value >> kXShift;
    state32[i] = value;
  }
  std::uint64_t val[4];
  for (std::size_t k = 0; k < 4; ++k) {
    val[k] = static_cast<std::uint64_t>(state32[2 * k]) | (static_cast<std::uint64_t>(state32[2 * k + 1]) << 32);
  }
  // pcg64_set_seed: pcg_setseq_128_srandom_r(state, seed = val[0:2], inc = val[2:4]).
  const uint128 multiplier = (static_cast<uint128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;  // PCG_DEFAULT_MULTIPLIER_128
  const uint128 initstate = (static_cast<uint128>(val[0]) << 64) | val[1];
  const uint128 initseq = (static_cast<uint128>(val[2]) << 64) | val[3];
  Pcg64State s;
  s.state = 0;
  s.inc = (initseq << 1U) | 1U;
  s.state = s.state * multiplier + s.inc;
  s.state += initstate;
  s.state = s.state * multiplier + s.inc;
  s.has_uint32 = false;
  s.uinteger = 0;
  return Pcg64(s);
}

/// Generator.integers(low, high) for any int64 range (Pcg64::integers: the 64-bit Lemire draw
/// above 2**32, the buffered 32-bit one below).
inline std::int64_t integers64(Pcg64& rng, std::int64_t low, std::int64_t high) { return rng.integers(low, high); }

}  // namespace riven::rules
