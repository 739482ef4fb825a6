#include "riven/rules/config.hpp"

#include <algorithm>
#include <stdexcept>

namespace riven::rules {

namespace {

int required(const std::vector<NamedInt>& table, const std::string& key, const std::string& where) {
  for (const auto& [name, value] : table) {
    if (name == key) return value;
  }
  throw std::invalid_argument(where + "." + key + ": missing from the native rules");
}

}  // namespace

void RulesConfig::prepare() {
  if (dice_faces < 2) {
    throw std::invalid_argument("dice.faces = " + std::to_string(dice_faces) + ": expected >= 2");
  }
  if (test.dice != 2) {
    throw std::invalid_argument("test.dice = " + std::to_string(test.dice) + ": the core reads 2d6 tests");
  }
  if (!(test.miss_max < test.partial_max && test.partial_max < test.hit_max)) {
    throw std::invalid_argument("test.bands: expected miss_max < partial_max < hit_max");
  }
  if (casualties.out_check_dice != 1 || morale.test_dice != 1) {
    throw std::invalid_argument("casualties.out_check_dice and morale.test_dice: expected 1 (one die vs Mettle)");
  }
  if (strain.overflow_table.size() != static_cast<std::size_t>(dice_faces)) {
    throw std::invalid_argument("strain.overflow_table: expected one entry per die face");
  }
  if (complications.size() != static_cast<std::size_t>(dice_faces)) {
    throw std::invalid_argument("complications.table: expected one entry per die face");
  }
  for (std::size_t i = 0; i < complications.size(); ++i) {
    if (complications[i].roll != static_cast<int>(i) + 1) {
      throw std::invalid_argument("complications.table: entries must run face 1 to faces in order");
    }
  }
  const auto by_name = [](const auto& a, const auto& b) { return a.name < b.name; };
  if (!std::is_sorted(conditions.begin(), conditions.end(), by_name)) {
    throw std::invalid_argument("conditions: expected sorted by name");
  }
  if (!std::is_sorted(weapon_traits.begin(), weapon_traits.end(), by_name)) {
    throw std::invalid_argument("weapons.traits: expected sorted by name");
  }
  if (shooting.cover_order.empty() || shooting.cover_order.size() != shooting.cover_tn.size()) {
    throw std::invalid_argument("shooting.cover_order: must list exactly the keys of shooting.cover_tn");
  }
  if (system == System::Invictus && !has_invictus) {
    throw std::invalid_argument("meta.resolution = 'invictus': the native rules carry no [invictus] table");
  }
  if (has_invictus) {
    if (invictus.tn_step < 1 || invictus.steps_per_die < 1 || invictus.min_dice > invictus.max_dice) {
      throw std::invalid_argument("invictus.pool: expected tn_step >= 1, steps_per_die >= 1, min_dice <= max_dice");
    }
    for (const std::string& outcome : invictus.melee) {
      if (outcome != "parry" && outcome != "recoil" && outcome != "wound" && outcome != "critical") {
        throw std::invalid_argument("invictus.melee: '" + outcome + "' is not parry, recoil, wound or critical");
      }
    }
  }
  if (system == System::NewWorld && !has_new_world) {
    throw std::invalid_argument("meta.resolution = 'new-world': the native rules carry no [new_world] table");
  }
  if (has_new_world) {
    // The snake-eyes rule and the Oracle's 36-roll count read exactly two dice (new_world.py
    // allows dice = 2 only).
    if (new_world.dice != 2) {
      throw std::invalid_argument("new_world.roll.dice = " + std::to_string(new_world.dice) + ": expected 2");
    }
    for (const std::string* name : {&new_world.shot_characteristic, &new_world.melee_characteristic}) {
      if (*name != "might" && *name != "agility" && *name != "wit" && *name != "resolve") {
        throw std::invalid_argument("new_world characteristic '" + *name +
                                    "' (passive.shot_characteristic / melee.characteristic): expected might, "
                                    "agility, wit or resolve");
      }
    }
    if (new_world.luck_per_point < 1 || new_world.melee_critical_margin < new_world.wound_margin) {
      throw std::invalid_argument(
          "new_world: expected luck.per_point >= 1 and melee.critical_margin >= melee.wound_margin");
    }
  }
  momentum.gain_critical = required(momentum.gain, "critical", "momentum.gain");
  momentum.gain_melee_critical = required(momentum.gain, "melee_critical", "momentum.gain");
  momentum.gain_objective = required(momentum.gain, "objective", "momentum.gain");
  momentum.gain_objective_held = required(momentum.gain, "objective_held", "momentum.gain");
  momentum.gain_focus = required(momentum.gain, "focus", "momentum.gain");
  momentum.cost_reroll = required(momentum.cost, "reroll", "momentum.cost");
  momentum.cost_boost = required(momentum.cost, "boost", "momentum.cost");
  momentum.cost_bonus_action = required(momentum.cost, "bonus_action", "momentum.cost");
  prepared = true;
}

double RulesConfig::distance(const std::string& name) const {
  for (const auto& [key, value] : distances) {
    if (key == name) return value;
  }
  throw std::invalid_argument(source + ": unknown rules key 'distances." + name + "'");
}

}  // namespace riven::rules
