#include "riven/rules/melee.hpp"

#include <algorithm>

#include "riven/rules/conditions.hpp"
#include "riven/rules/errors.hpp"

namespace riven::rules {

std::vector<const WeaponTrait*> trait_specs(const Weapon* weapon, const RulesConfig& rules) {
  std::vector<const WeaponTrait*> specs;
  if (weapon == nullptr) return specs;
  std::vector<std::string> names(weapon->traits);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  specs.reserve(names.size());
  for (const auto& name : names) {
    const auto found =
        std::lower_bound(rules.weapon_traits.begin(), rules.weapon_traits.end(), name,
                         [](const WeaponTrait& trait, const std::string& key) { return trait.name < key; });
    if (found == rules.weapon_traits.end() || found->name != name) {
      std::string known;
      for (const auto& trait : rules.weapon_traits) {
        if (!known.empty()) known += ", ";
        known += trait.name;
      }
      throw ProfileError("weapon " + weapon->name + ": unknown trait '" + name + "'; known: " + known);
    }
    specs.push_back(&*found);
  }
  return specs;
}

std::vector<Modifier> melee_modifiers(const Weapon* weapon, bool charge_strike, int enemies_in_contact,
                                      const std::vector<std::string>& conditions, bool defending,
                                      const RulesConfig& rules) {
  std::vector<Modifier> modifiers;
  if (charge_strike) modifiers.push_back(Modifier{"charge", rules.melee.charge_bonus});
  const int extra_enemies = std::max(0, enemies_in_contact - 1);
  if (extra_enemies > 0) {
    const int penalty = rules.melee.outnumbered_penalty * extra_enemies;
    if (penalty != 0) modifiers.push_back(Modifier{"outnumbered", -penalty});
  }
  if (weapon != nullptr && weapon->modifier != 0) {
    modifiers.push_back(Modifier{"weapon:" + weapon->name, weapon->modifier});
  }
  for (const WeaponTrait* trait : trait_specs(weapon, rules)) {
    int value = trait->melee_modifier;
    value += charge_strike ? trait->charge_modifier : 0;
    value += defending ? trait->defend_modifier : 0;
    if (value != 0) modifiers.push_back(Modifier{"trait:" + trait->name, value});
  }
  append_condition_modifiers(conditions, ModifierKind::Melee, rules, modifiers);
  return modifiers;
}

std::pair<MeleeOutcome, Winner> classify_melee(int attacker_total, int defender_total, const RulesConfig& rules) {
  if (attacker_total == defender_total) return {MeleeOutcome::Parry, Winner::None};
  const Winner winner = attacker_total > defender_total ? Winner::Attacker : Winner::Defender;
  const int high = std::max(attacker_total, defender_total);
  const int low = std::min(attacker_total, defender_total);
  if (high >= rules.melee.critical_ratio * std::max(low, rules.melee.critical_loser_floor)) {
    return {MeleeOutcome::Critical, winner};
  }
  if (high - low >= rules.melee.wound_margin) return {MeleeOutcome::Wound, winner};
  return {MeleeOutcome::Recoil, winner};
}

MeleeResult melee_from_dice(std::array<int, 2> attacker_dice, std::array<int, 2> defender_dice, int attacker_might,
                            int defender_might, const std::vector<Modifier>& attacker_modifiers,
                            const std::vector<Modifier>& defender_modifiers, const RulesConfig& rules) {
  MeleeResult result;
  result.attacker_dice = attacker_dice;
  result.defender_dice = defender_dice;
  result.attacker_modifiers = attacker_modifiers;
  result.defender_modifiers = defender_modifiers;
  result.attacker_total = attacker_dice[0] + attacker_dice[1] + attacker_might + modifiers_total(attacker_modifiers);
  result.defender_total = defender_dice[0] + defender_dice[1] + defender_might + modifiers_total(defender_modifiers);
  const auto [outcome, winner] = classify_melee(result.attacker_total, result.defender_total, rules);
  result.outcome = outcome;
  result.winner = winner;
  if (outcome == MeleeOutcome::Wound) result.wounds = rules.melee.wound_wounds;
  if (outcome == MeleeOutcome::Critical) {
    result.wounds = rules.melee.critical_wounds;
    result.condition = rules.melee.critical_condition;
  }
  result.dazed = result.condition == "dazed";
  result.recoil_distance = outcome == MeleeOutcome::Recoil ? rules.melee.recoil_distance : 0.0;
  return result;
}

}  // namespace riven::rules
