#include <nanobind/nanobind.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <tuple>

#include "bindings.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/pcg64.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using rules::Pcg64;
using rules::Pcg64State;
using rules::uint128;

// 128-bit words cross the boundary as (high, low) pairs of 64-bit ints; riven_env/native/random.py
// joins and splits them against numpy's state dictionary.
uint128 join(std::uint64_t high, std::uint64_t low) { return (static_cast<uint128>(high) << 64) | low; }

using StateWords = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, bool, std::uint32_t>;

StateWords state_words(const Pcg64& rng) {
  const Pcg64State& s = rng.state();
  return {static_cast<std::uint64_t>(s.state >> 64), static_cast<std::uint64_t>(s.state),
          static_cast<std::uint64_t>(s.inc >> 64),   static_cast<std::uint64_t>(s.inc),
          s.has_uint32,                               s.uinteger};
}

}  // namespace

void bind_rules(nb::module_& module) {
  nb::class_<Pcg64>(module, "Pcg64", "numpy's PCG64 and Generator.integers, bit for bit.")
      .def(
          "__init__",
          [](Pcg64* self, std::uint64_t state_high, std::uint64_t state_low, std::uint64_t inc_high,
             std::uint64_t inc_low, bool has_uint32, std::uint32_t uinteger) {
            new (self) Pcg64(Pcg64State{join(state_high, state_low), join(inc_high, inc_low), has_uint32, uinteger});
          },
          nb::arg("state_high"), nb::arg("state_low"), nb::arg("inc_high"), nb::arg("inc_low"),
          nb::arg("has_uint32"), nb::arg("uinteger"))
      .def("state_words", &state_words,
           "(state_high, state_low, inc_high, inc_low, has_uint32, uinteger)")
      .def("next_uint64", &Pcg64::next_uint64)
      .def("next_uint32", &Pcg64::next_uint32)
      .def("integers", &Pcg64::integers, nb::arg("low"), nb::arg("high"),
           "Generator.integers(low, high) for ranges up to 2**32.")
      .def("__copy__", [](const Pcg64& rng) { return Pcg64(rng); });

  module.def(
      "roll_dice", [](Pcg64& rng, int count, int faces) { return rules::roll_dice(rng, count, faces); },
      nb::arg("rng"), nb::arg("count"), nb::arg("faces") = rules::kDefaultFaces);
}

}  // namespace riven::bindings
