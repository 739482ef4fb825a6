// numpy's seeding in the core: default_rng(entropy) (SeedSequence into PCG64) and
// Generator.integers over a 64-bit range, against values from numpy 2.x
// (tests/test_native_batch.py checks the same against numpy itself over more seeds).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "check.hpp"
#include "riven/rules/seeding.hpp"

namespace {

using riven::rules::uint128;

uint128 join(unsigned long long high, unsigned long long low) { return (static_cast<uint128>(high) << 64) | low; }

bool seeded_as(std::initializer_list<std::uint64_t> entropy, uint128 state, uint128 inc) {
  const std::vector<std::uint64_t> words(entropy);
  const riven::rules::Pcg64 rng = riven::rules::seeded_pcg64(words);
  return rng.state().state == state && rng.state().inc == inc && !rng.state().has_uint32;
}

}  // namespace

int main() {
  RIVEN_CHECK(seeded_as({0}, join(0x1aa1b5345996452dULL, 0x09585eb7a69561e3ULL),
                        join(0x418ddadb3af71a82ULL, 0x588133bc447873a9ULL)));
  RIVEN_CHECK(seeded_as({5, 2}, join(0x17471785563233f8ULL, 0xa0e1a959e5addc52ULL),
                        join(0xfd7ef8a02cf5b80aULL, 0x623e8eca9b25e467ULL)));
  RIVEN_CHECK(seeded_as({(std::uint64_t{1} << 62) - 1}, join(0xf452aee2f1f500f5ULL, 0x687afa0dd2c82c9aULL),
                        join(0x862f688ca0ef99dbULL, 0x71693619b4ca18afULL)));
  // default_rng(7).integers(0, 2**62), three times.
  const std::array<std::uint64_t, 1> seven{7};
  riven::rules::Pcg64 rng = riven::rules::seeded_pcg64(seven);
  const std::array<std::int64_t, 3> expected{2882744023523087010LL, 4137668341471484581LL, 3577218852397956696LL};
  for (const std::int64_t value : expected) {
    RIVEN_CHECK(riven::rules::integers64(rng, 0, std::int64_t{1} << 62) == value);
  }
  return RIVEN_TEST_RESULT();
}
