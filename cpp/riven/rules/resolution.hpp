// The resolution seam in the core: the dice engine the game loop calls for every roll, selected
// by the rules' `meta.resolution` (riven_env/rules/resolution.py's ResolutionSystem protocol).
//
// A ResolutionSystem is a std::variant over the systems the core has, so the game loop calls
// one function (roll_activation(system, ...), roll_test(system, ...)) and std::visit picks the
// engine with no virtual call in the hot loop. The seam has RIVEN's engine and Invictus's
// (riven/rules/systems/invictus.hpp): Invictus keeps RIVEN's activation, morale, Out checks,
// Complication Oracle and shot table, which the functions below give for both; its own tests,
// shots and melee (a pool, Danger Dice, raises) are InvictusSystem's methods, which the game
// loop calls on the alternative it holds (std::get_if), so the 2d6 functions below (roll_test,
// apply_spend, spend_options, finalise, resolve_melee) refuse it with NotPorted. New World
// (riven/rules/systems/new_world.hpp) is behind the seam the same way: RIVEN's shared rolls
// through the functions below, its 2d6 + characteristic + rank rolls, helpers and Luck as its
// engine's methods. The Riddle of Steel (riven/rules/systems/riddle_of_steel.hpp) is the last
// alternative: RIVEN's shared rolls through the functions below, its d10 tests and its Combat
// Round (a session of choices the game loop's choice phase asks for) as its engine's methods.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "riven/rules/activation.hpp"
#include "riven/rules/casualties.hpp"
#include "riven/rules/complications.hpp"
#include "riven/rules/config.hpp"
#include "riven/rules/melee.hpp"
#include "riven/rules/morale.hpp"
#include "riven/rules/riven_rolls.hpp"
#include "riven/rules/shooting.hpp"
#include "riven/rules/systems/invictus.hpp"
#include "riven/rules/systems/new_world.hpp"
#include "riven/rules/systems/riddle_of_steel.hpp"
#include "riven/rules/tests_2d6.hpp"

namespace riven::rules {

/// A resolution system the rules name but the core does not have yet.
class NotPorted : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// RIVEN v0.1's dice engine (riven_env/rules/resolution.py's RivenResolution).
class RivenSystem : public RivenRolls {
 public:
  explicit RivenSystem(std::shared_ptr<const RulesConfig> rules) : RivenRolls(std::move(rules)) {}

  [[nodiscard]] static constexpr System system() { return System::Riven; }

  template <class Rng>
  TestRoll roll_test(const std::string& kind, const std::string& attribute, int value, int tn,
                     const std::vector<Modifier>& modifiers, Rng& rng) const {
    return rules::roll_test(kind, attribute, value, tn, modifiers, rng, *rules_);
  }
  [[nodiscard]] std::vector<Spend> spend_options(const TestRoll& roll, int momentum, int strain,
                                                 int strain_max) const {
    return rules::spend_options(roll, momentum, strain, strain_max, *rules_);
  }
  template <class Rng>
  TestRoll apply_spend(const TestRoll& roll, Spend option, Rng& rng) const {
    return rules::apply_spend(roll, option, rng, *rules_);
  }
  [[nodiscard]] TestResult finalise(const TestRoll& roll) const { return rules::finalise(roll); }
  template <class Rng>
  MeleeResult resolve_melee(int attacker_might, int defender_might, const std::vector<Modifier>& attacker_modifiers,
                            const std::vector<Modifier>& defender_modifiers, Rng& rng) const {
    return rules::resolve_melee(attacker_might, defender_might, attacker_modifiers, defender_modifiers, rng, *rules_);
  }
};

/// Every system the core has; a new one is one more alternative (and one more name below).
using ResolutionSystem = std::variant<RivenSystem, invictus::InvictusSystem, new_world::NewWorldSystem,
                                      riddle_of_steel::RiddleOfSteelSystem>;

/// The RIVEN engine of `system` for a 2d6 roll (throws NotPorted on another system: its own
/// rolls are its engine's methods).
inline const RivenSystem& two_dice_engine(const ResolutionSystem& system, const char* what) {
  const RivenSystem* riven = std::get_if<RivenSystem>(&system);
  if (riven == nullptr) {
    throw NotPorted(std::string(what) +
                    ": a 2d6 roll of RIVEN's engine; this system rolls its own (its engine's methods)");
  }
  return *riven;
}

/// The `meta.resolution` names the core has, in the variant's order.
std::vector<std::string> ported_systems();

/// The engine the rules select (throws NotPorted for a system the core does not have yet).
ResolutionSystem make_resolution(std::shared_ptr<const RulesConfig> rules);

template <class Rng>
ActivationResult roll_activation(const ResolutionSystem& system, int mettle, int dice, Rng& rng) {
  return std::visit([&](const auto& engine) { return engine.roll_activation(mettle, dice, rng); }, system);
}
template <class Rng>
TestRoll roll_test(const ResolutionSystem& system, const std::string& kind, const std::string& attribute, int value,
                   int tn, const std::vector<Modifier>& modifiers, Rng& rng) {
  return two_dice_engine(system, "roll_test").roll_test(kind, attribute, value, tn, modifiers, rng);
}
template <class Rng>
TestRoll apply_spend(const ResolutionSystem& system, const TestRoll& roll, Spend option, Rng& rng) {
  return two_dice_engine(system, "apply_spend").apply_spend(roll, option, rng);
}
template <class Rng>
MeleeResult resolve_melee(const ResolutionSystem& system, int attacker_might, int defender_might,
                          const std::vector<Modifier>& attacker_modifiers,
                          const std::vector<Modifier>& defender_modifiers, Rng& rng) {
  return two_dice_engine(system, "resolve_melee")
      .resolve_melee(attacker_might, defender_might, attacker_modifiers, defender_modifiers, rng);
}
template <class Rng>
MoraleResult roll_morale(const ResolutionSystem& system, int mettle, Rng& rng) {
  return std::visit([&](const auto& engine) { return engine.roll_morale(mettle, rng); }, system);
}
template <class Rng>
OutCheckResult roll_out_check(const ResolutionSystem& system, int mettle, Rng& rng) {
  return std::visit([&](const auto& engine) { return engine.roll_out_check(mettle, rng); }, system);
}
template <class Rng>
const Complication& roll_complication(const ResolutionSystem& system, Rng& rng) {
  return std::visit([&](const auto& engine) -> const Complication& { return engine.roll_complication(rng); },
                    system);
}
inline std::vector<Spend> spend_options(const ResolutionSystem& system, const TestRoll& roll, int momentum,
                                        int strain, int strain_max) {
  return two_dice_engine(system, "spend_options").spend_options(roll, momentum, strain, strain_max);
}
inline TestResult finalise(const ResolutionSystem& system, const TestRoll& roll) {
  return two_dice_engine(system, "finalise").finalise(roll);
}
inline int shot_tn(const ResolutionSystem& system, const std::string& cover) {
  return std::visit([&](const auto& engine) { return engine.shot_tn(cover); }, system);
}
inline const ShotEffect& shot_effect(const ResolutionSystem& system, Band band) {
  return std::visit([&](const auto& engine) -> const ShotEffect& { return engine.shot_effect(band); }, system);
}

}  // namespace riven::rules
