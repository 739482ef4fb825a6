// Melee: an opposed 2d6 + Might roll, totals compared (riven_env/rules/melee.py).
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/results.hpp"

namespace riven::rules {

/// The trait records of a weapon, in name order (throws ProfileError for an unknown trait). An empty list for no weapon.
std::vector<const WeaponTrait*> trait_specs(const Weapon* weapon, const RulesConfig& rules);

/// The modifiers to one side's melee roll: charge (first strike), outnumbered, weapon, traits,
/// Conditions. `weapon` may be null (no weapon modifiers).
std::vector<Modifier> melee_modifiers(const Weapon* weapon, bool charge_strike, int enemies_in_contact,
                                      const std::vector<std::string>& conditions, bool defending,
                                      const RulesConfig& rules);

/// The outcome and winner of two melee totals (pure).
std::pair<MeleeOutcome, Winner> classify_melee(int attacker_total, int defender_total, const RulesConfig& rules);

MeleeResult melee_from_dice(std::array<int, 2> attacker_dice, std::array<int, 2> defender_dice, int attacker_might,
                            int defender_might, const std::vector<Modifier>& attacker_modifiers,
                            const std::vector<Modifier>& defender_modifiers, const RulesConfig& rules);

/// Roll and resolve one melee: the attacker's 2d6 first, then the defender's.
template <class Rng>
MeleeResult resolve_melee(int attacker_might, int defender_might, const std::vector<Modifier>& attacker_modifiers,
                          const std::vector<Modifier>& defender_modifiers, Rng& rng, const RulesConfig& rules) {
  const auto attacker_dice = roll_2d6(rng, rules.dice_faces);
  const auto defender_dice = roll_2d6(rng, rules.dice_faces);
  return melee_from_dice(attacker_dice, defender_dice, attacker_might, defender_might, attacker_modifiers,
                         defender_modifiers, rules);
}

}  // namespace riven::rules
