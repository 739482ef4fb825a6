// numpy.random.default_rng(42) in the core: the state numpy seeds and the dice it rolls.
// Reference values come from numpy 2.x (tests/test_native_random.py checks the same stream
// against numpy itself, over every range the game draws).
#include <array>

#include "check.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/pcg64.hpp"

namespace {

using riven::rules::Pcg64;
using riven::rules::Pcg64State;
using riven::rules::uint128;

uint128 join(unsigned long long high, unsigned long long low) {
  return (static_cast<uint128>(high) << 64) | low;
}

}  // namespace

int main() {
  const Pcg64State seeded{join(0xcea44f6798798f2aULL, 0xacbc7c9d68860ac8ULL),
                          join(0xfa505436c9a8416eULL, 0x66caf2e28d25abffULL), false, 0};
  Pcg64 rng(seeded);
  const std::array<int, 12> expected{1, 5, 4, 3, 3, 6, 1, 5, 2, 1, 4, 6};
  for (const int die : expected) {
    RIVEN_CHECK(riven::rules::roll_die(rng) == die);
  }
  RIVEN_CHECK(!rng.state().has_uint32);
  RIVEN_CHECK(rng.state().uinteger == 4190266093U);

  Pcg64 copy = rng;  // a copy continues the same stream independently
  RIVEN_CHECK(copy.integers(0, 1000) == rng.integers(0, 1000));
  RIVEN_CHECK(riven::rules::roll_dice(rng, 0).empty());
  RIVEN_CHECK(riven::rules::roll_dice(rng, 5).size() == 5U);
  return RIVEN_TEST_RESULT();
}
