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

/// The invariants the core's Riddle of Steel engine relies on (ros_data.py validates the rest):
/// only the highest face stacks, the bands rise, every rule's named table is there and every
/// Damage Table row runs 1..max_wound_level.
void prepare_riddle_of_steel(const RiddleOfSteelRules& ros) {
  const std::string where = "riddle_of_steel";
  if (ros.faces < 2 || ros.stack_on != ros.faces || ros.max_stacks < 0 || ros.fumble_ones < 1) {
    throw std::invalid_argument(where +
                                ".dice: expected faces >= 2, stack_on = faces, max_stacks >= 0, fumble_ones >= 1");
  }
  if (ros.attributes.size() != 4) {
    throw std::invalid_argument(where + ".attributes: expected brawn, agility, wits and presence");
  }
  const auto rising = [&] {
    return ros.bands[0].second < ros.bands[1].second && ros.bands[1].second < ros.bands[2].second;
  };
  if (ros.bands.size() != 3 || !rising()) {
    throw std::invalid_argument(where + ".tests.bands: expected partial < hit < critical");
  }
  if (ros.tn_for_riven_tn.empty()) throw std::invalid_argument(where + ".tests.tn_for_riven_tn: at least one entry");
  if (ros.exchanges < 1 || ros.feint_die_cost_near < 1 || ros.feint_die_cost_far < 1) {
    throw std::invalid_argument(where + ".melee: expected exchanges >= 1 and feint die costs >= 1");
  }
  if (ros.counter_bonus != "attacker_successes" && ros.counter_bonus != "attacker_dice") {
    throw std::invalid_argument(where + ".melee.counter_bonus = '" + ros.counter_bonus +
                                "': expected attacker_successes or attacker_dice");
  }
  if (ros.attacks.empty() || ros.zones.empty()) {
    throw std::invalid_argument(where + ".melee.attacks and .zones: at least one of each");
  }
  for (const char* name : {"dodge_break", "dodge_stand", "duck_weave", "counter"}) {
    if (std::none_of(ros.defences.begin(), ros.defences.end(), [&](const RosDefence& d) { return d.name == name; })) {
      throw std::invalid_argument(where + ".melee.defences." + name + " is missing (a rule refers to it)");
    }
  }
  if (std::none_of(ros.weapons.begin(), ros.weapons.end(), [](const RosWeapon& w) { return w.name == "default"; })) {
    throw std::invalid_argument(where + ".weapons.default is missing (unlisted weapons use it)");
  }
  bool has_default_row = false;
  for (const RosDamageRow& row : ros.damage) {
    has_default_row = has_default_row || row.zone == "default";
    if (row.levels.size() != static_cast<std::size_t>(ros.max_wound_level)) {
      throw std::invalid_argument(where + ".damage." + row.zone + ": expected levels 1..melee.max_wound_level");
    }
  }
  if (!has_default_row) throw std::invalid_argument(where + ".damage.default is missing (zones without a row use it)");
  if (std::none_of(ros.stances.begin(), ros.stances.end(),
                   [&](const RosStance& s) { return s.name == ros.default_stance; })) {
    throw std::invalid_argument(where + ".oracle.default_stance = '" + ros.default_stance + "': no such stance");
  }
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
  if (system == System::RiddleOfSteel && !has_riddle_of_steel) {
    throw std::invalid_argument(
        "meta.resolution = 'riddle-of-steel': the native rules carry no [riddle_of_steel] table");
  }
  if (has_riddle_of_steel) prepare_riddle_of_steel(riddle_of_steel);
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

double RulesConfig::distance(std::string_view name) const {
  for (const auto& [key, value] : distances) {
    if (key == name) return value;
  }
  throw std::invalid_argument(source + ": unknown rules key 'distances." + std::string(name) + "'");
}

}  // namespace riven::rules
