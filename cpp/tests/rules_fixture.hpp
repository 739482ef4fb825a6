// The bundled rules (riven_env/rules/data/riven-v0.1.toml) as the native struct, for the C++
// tests, which run without Python. In play riven_env/native/rules.py fills the struct from the
// validated TOML; tests/test_native_rules.py checks that every key arrives. The numbers below
// copy the bundled file: when it changes, these tests' expectations change with it.
#pragma once

#include <string>
#include <vector>

#include "riven/rules/config.hpp"

namespace riven::testing {

inline rules::ConditionSpec condition(std::string name, int test, int melee, int shot, double move, int actions,
                                      int dice, std::vector<std::string> forbids, rules::CoverEffect cover,
                                      bool wound_check, std::string expires, std::vector<std::string> removed_by) {
  rules::ConditionSpec spec;
  spec.name = std::move(name);
  spec.test_modifier = test;
  spec.melee_modifier = melee;
  spec.shot_modifier = shot;
  spec.move_penalty = move;
  spec.max_actions = actions;
  spec.max_dice = dice;
  spec.forbids = std::move(forbids);
  spec.cover_against_shots = cover;
  spec.end_of_turn_wound_check = wound_check;
  spec.expires = std::move(expires);
  spec.removed_by = std::move(removed_by);
  return spec;
}

inline rules::RulesConfig riven_v01() {
  using rules::CoverEffect;
  rules::RulesConfig config;
  config.source = "riven-v0.1.toml";
  config.test.difficulty = {{"easy", 6}, {"standard", 8}, {"hard", 10}, {"brutal", 12}};
  config.shooting.cover_order = {"none", "soft", "hard"};
  config.shooting.cover_tn = {{"none", 8}, {"soft", 10}, {"hard", 12}};
  config.shooting.effects = {rules::ShotEffect{0, 0.0, false, true}, rules::ShotEffect{1, 0.0, true, false},
                             rules::ShotEffect{1, 0.0, false, false}, rules::ShotEffect{1, 3.0, false, false}};
  config.morale.triggers = {{"friend_lost", true, "", 6.0, 0.0, ""},
                            {"leader_out", true, "", 0.0, 0.0, "leader"},
                            {"half_strength", true, "", 0.0, 0.5, ""},
                            {"recoiled", true, "", 0.0, 0.0, ""},
                            {"terror_charge", true, "", 0.0, 0.0, "terror"}};
  config.momentum.gain = {{"critical", 1}, {"melee_critical", 1}, {"objective", 1}, {"objective_held", 0}, {"focus", 1}};
  config.momentum.cost = {{"reroll", 1}, {"boost", 2}, {"bonus_action", 2}};
  config.strain.gain = {{"max_dice_activation", 1}, {"wound", 1}, {"recoiled", 1}};
  config.strain.overflow_table = {"dazed", "shaken", "exhausted", "prone", "pinned", "bleeding"};
  config.conditions = {
      condition("aiming", 0, 0, 1, 0.0, 0, 0, {}, CoverEffect::Unchanged, false, "end_of_activation", {"shoot"}),
      condition("bleeding", 0, 0, 0, 0.0, 0, 0, {}, CoverEffect::Unchanged, true, "never", {"rest"}),
      condition("dazed", 0, -1, 0, 0.0, 1, 0, {}, CoverEffect::Unchanged, false, "end_of_next_activation", {"rally"}),
      condition("exhausted", 0, 0, 0, 1.0, 0, 2, {}, CoverEffect::Unchanged, false, "never", {"rest"}),
      condition("exposed", 0, 0, 0, 0.0, 0, 0, {}, CoverEffect::Ignore, false, "end_of_next_activation", {}),
      condition("hunkered", 0, 0, 0, 0.0, 0, 0, {}, CoverEffect::Better, false, "start_of_next_activation", {}),
      condition("pinned", 0, 0, -1, 0.0, 0, 0, {"charge", "move"}, CoverEffect::Unchanged, false,
                "end_of_next_activation", {"rally"}),
      condition("prone", 0, -2, 0, 2.0, 0, 0, {}, CoverEffect::Better, false, "never", {"move"}),
      condition("shaken", -1, -1, -1, 0.0, 0, 0, {"charge"}, CoverEffect::Unchanged, false, "never", {"rally"}),
  };
  const char* const effects[] = {"condition", "strain", "end_activation", "enemy_momentum", "lose_momentum", "exposed"};
  const int amounts[] = {0, 1, 0, 1, 1, 0};
  for (int face = 1; face <= 6; ++face) {
    rules::Complication entry;
    entry.roll = face;
    entry.name = "entry " + std::to_string(face);
    entry.effect = effects[face - 1];
    entry.amount = amounts[face - 1];
    entry.condition = face == 1 ? "prone" : "";
    config.complications.push_back(entry);
  }
  config.weapon_traits = {{"accurate", "", 0, 0, 0, 1, 0}, {"heavy", "", 1, 0, 0, 0, 0},
                          {"impact", "", 0, 1, 0, 0, 0},   {"piercing", "", 0, 0, 0, 0, 1},
                          {"shield", "", 0, 0, 1, 0, 0},   {"unwieldy", "", 0, 0, 0, -1, 0}};
  config.distances = {{"move", 5.0}, {"charge_reach_factor", 1.0}, {"disengage_move_factor", 0.5},
                      {"base", 1.0}, {"stabilise_range", 3.0},     {"rally_range", 3.0},
                      {"objective_radius", 2.0}};
  config.prepare();
  return config;
}

/// The bundled rules under Invictus (meta.resolution = "invictus"): the [invictus] numbers copy
/// riven_env/rules/data/invictus.toml.
inline rules::RulesConfig invictus_v01() {
  rules::RulesConfig config = riven_v01();
  config.system = rules::System::Invictus;
  config.system_name = "invictus";
  rules::InvictusRules& s = config.invictus;
  s.attribute_offset = 0;
  s.min_dice = 1;
  s.max_dice = 6;
  s.standard_tn = 8;
  s.tn_step = 2;
  s.steps_per_die = 2;
  s.miss_max = 2;
  s.swing_max = 5;
  s.crit_sixes = 2;
  s.danger_max = 3;
  s.soft_max = 3;
  s.bite_face = 6;
  s.bite_on = {"hit"};
  s.factors = {"fray", "superior_opposition", "exposed", "critical_health", "time_pressure"};
  s.exposed_conditions = {"exposed", "prone", "pinned"};
  s.soft = rules::InvictusMove{"strain", 1};
  s.hard = rules::InvictusMove{"wound", 1};
  s.luck_start = 0;
  s.luck_crit_gain = 1;
  s.luck_cap = 3;
  s.luck_raise = 1;
  s.deaths_door_overflow = 1;
  s.critical_health_dice = 1;
  s.cover_score = {{"none", 0}, {"soft", -1}, {"hard", -3}};
  s.melee = {"parry", "wound", "wound", "critical"};
  s.melee_wounds = 1;
  s.melee_crit_wounds = 1;
  s.oracle_lifts_to = "hit";
  s.oracle_reserve = 0;
  config.has_invictus = true;
  config.prepare();
  return config;
}

/// The bundled rules under New World (meta.resolution = "new-world"): the [new_world] numbers
/// copy riven_env/rules/data/new-world.toml.
inline rules::RulesConfig new_world_v01() {
  rules::RulesConfig config = riven_v01();
  config.system = rules::System::NewWorld;
  config.system_name = "new-world";
  rules::NewWorldRules& s = config.new_world;
  s.dice = 2;
  s.snake_eyes_fails = true;
  s.roll_limit = 9;
  s.modifier_limit = 2;
  s.characteristic_offset = 1;
  s.rank_default = 1;
  s.rank_by_keyword = {{"leader", 2}, {"hero", 2}, {"elite", 2}, {"minion", 0}};
  s.difficulty_offset = 3;
  s.critical_margin = 5;
  s.partial_within = 0;
  s.passive_base = 7;
  s.shot_characteristic = "agility";
  s.cover_modifier = {{"none", 0}, {"soft", -1}, {"hard", -2}};
  s.melee_characteristic = "might";
  s.wound_margin = 3;
  s.melee_critical_margin = 7;
  s.defender_strikes_back = false;
  s.helpers_max = 2;
  s.helper_bonus = 1;
  s.helper_kinds = {"rally", "interact", "disengage"};
  s.shared_risk_margin = 5;
  s.shared_risk_strain = 1;
  s.luck_default = 1;
  s.luck_by_keyword = {{"hero", 3}, {"leader", 2}};
  s.luck_per_point = 1;
  s.oracle_sure = 33;
  s.oracle_luck_max = 2;
  config.has_new_world = true;
  config.prepare();
  return config;
}

/// The bundled rules under The Riddle of Steel (meta.resolution = "riddle-of-steel"): the
/// [riddle_of_steel] numbers copy riven_env/rules/data/riddle-of-steel.toml.
inline rules::RulesConfig riddle_of_steel_v01() {
  rules::RulesConfig config = riven_v01();
  config.system = rules::System::RiddleOfSteel;
  config.system_name = "riddle-of-steel";
  rules::RiddleOfSteelRules& s = config.riddle_of_steel;
  s.faces = 10;
  s.stack_on = 10;
  s.max_stacks = 3;
  s.fumble_ones = 2;
  s.min_tn = 2;
  s.attributes = {{"brawn", "might", 2}, {"agility", "agility", 2}, {"wits", "wit", 2}, {"presence", "resolve", 2}};
  s.proficiency_base = 8;
  s.proficiency_min = 1;
  s.feint_min = 4;
  s.test_attribute_for = {{"agility", "agility"}, {"might", "brawn"}, {"wit", "wits"}, {"resolve", "presence"}};
  s.test_modifier_dice = 1;
  s.test_min_dice = 1;
  s.tn_for_riven_tn = {{6, 5}, {8, 6}, {10, 8}, {12, 10}};
  s.bands = {{"partial", 1}, {"hit", 2}, {"critical", 4}};
  s.shot_atn = 6;
  s.cover_tn = {{"none", 0}, {"soft", 1}, {"hard", 3}};
  s.exchanges = 2;
  s.modifier_dice = 1;
  s.ignore_modifier_sources = {"weapon:", "trait:"};
  s.feint_cost = 1;
  s.feint_die_cost_near = 1;
  s.feint_die_cost_far = 2;
  s.counter_bonus = "attacker_successes";
  s.counter_fail_extra_successes = 1;
  s.stand_steal_cost = 2;
  s.duck_weave_pool_loss = 0.5;
  s.fumble_pool_loss = 0.5;
  s.knockdown_tn_per_margin = 2;
  s.knockdown_condition = "prone";
  s.bleeding_condition = "bleeding";
  s.max_wound_level = 5;
  s.attacks = {{"thrust", 0, 1, -1}, {"thrust_full", 1, 1, 0}, {"swing", 0, 0, 0}, {"swing_heavy", 1, 0, 1}};
  s.defences = {
      {"parry", rules::RosDtnSource::Weapon, 0, 0, false},
      {"block", rules::RosDtnSource::Shield, 0, 0, true},
      {"dodge_break", rules::RosDtnSource::Number, 4, 0, false},
      {"dodge_stand", rules::RosDtnSource::Number, 7, 0, false},
      {"duck_weave", rules::RosDtnSource::Number, 9, 0, false},
      {"counter", rules::RosDtnSource::Weapon, 0, 2, false},
  };
  s.zones = {
      {"I", "lower legs", {"II"}},
      {"II", "upper legs", {"I", "III", "VI"}},
      {"III", "belly and sides", {"II", "IV", "VI", "VII"}},
      {"IV", "chest and shoulders", {"III", "V", "VII"}},
      {"V", "head and neck", {"IV"}},
      {"VI", "groin and hips", {"II", "III"}},
      {"VII", "arms", {"III", "IV"}},
  };
  s.weapons = {
      {"default", 6, 6, 0, ""},
      {"sword", 6, 6, 2, ""},
      {"sword_and_shield", 6, 6, 1, "heater"},
      {"spear", 5, 7, 1, ""},
      {"great_weapon", 7, 8, 3, ""},
      {"dagger", 6, 8, -1, ""},
      {"club", 7, 8, 1, ""},
      {"claws", 6, 8, 0, ""},
      {"crushing_fists", 7, 9, 2, ""},
      {"unarmed", 7, 9, -2, ""},
  };
  s.weapon_traits = {{"heavy", 1, false, ""}, {"shield", 0, true, "heater"}};
  s.shields = {{"heater", 5, 4, {"III", "IV", "VII"}}};
  s.damage = {
      {"default",
       {
           {1, 2, 0, 0, "", "a glancing blow"},
           {3, 5, 5, 0, "", "a bleeding cut"},
           {6, 8, 6, 1, "knockdown", "a heavy wound"},
           {10, 10, 7, 1, "down", "an incapacitating wound"},
           {20, 20, 9, 1, "out", "a mortal wound"},
       }},
      {"I",
       {
           {1, 2, 0, 0, "", "a bruised shin"},
           {2, 4, 4, 0, "knockdown", "a gashed calf"},
           {4, 7, 5, 1, "knockdown", "a broken ankle"},
           {8, 9, 6, 1, "down", "a shattered shin"},
           {12, 12, 7, 1, "down", "a severed foot"},
       }},
      {"II",
       {
           {1, 2, 0, 0, "", "a grazed thigh"},
           {3, 5, 5, 0, "knockdown", "a torn thigh"},
           {5, 7, 6, 1, "knockdown", "a split thigh muscle"},
           {9, 10, 8, 1, "down", "a broken femur"},
           {15, 15, 10, 1, "out", "a cut thigh artery"},
       }},
      {"III",
       {
           {2, 3, 0, 0, "", "a scored side"},
           {3, 6, 5, 0, "", "bleeding, torn and shredded muscle"},
           {6, 8, 6, 1, "knockdown", "a deep belly wound"},
           {10, 10, 8, 1, "down", "opened guts"},
           {20, 20, 10, 1, "out", "disembowelled"},
       }},
      {"IV",
       {
           {2, 3, 0, 0, "", "a cut shoulder"},
           {4, 5, 5, 0, "", "a cracked rib"},
           {6, 8, 6, 1, "knockdown", "heavy injury, tearing major blood vessels"},
           {12, 12, 9, 1, "down", "a pierced lung"},
           {20, 20, 12, 1, "out", "a crushed chest"},
       }},
      {"V",
       {
           {3, 3, 0, 0, "knockdown", "a ringing blow to the head"},
           {5, 5, 5, 0, "knockdown", "a split scalp"},
           {8, 8, 7, 1, "down", "a cracked skull"},
           {15, 15, 10, 1, "out", "a cut throat"},
           {30, 30, 15, 1, "out", "instant death, very messy"},
       }},
      {"VI",
       {
           {2, 3, 0, 0, "", "a bruised hip"},
           {4, 6, 5, 0, "knockdown", "a gashed groin"},
           {7, 8, 7, 1, "knockdown", "a broken hip"},
           {10, 10, 9, 1, "down", "a shattered pelvis"},
           {20, 20, 12, 1, "out", "a cut femoral artery"},
       }},
      {"VII",
       {
           {1, 2, 0, 0, "", "a nicked arm"},
           {2, 4, 4, 0, "", "a gashed forearm"},
           {4, 7, 5, 1, "", "a broken arm"},
           {8, 9, 7, 1, "down", "a severed hand"},
           {12, 12, 9, 1, "down", "a severed arm"},
       }},
  };
  s.default_stance = "balanced";
  s.stances_by_profile = {
      {"aggressive", "bold"},
      {"rampage", "bold"},
      {"beast", "bold"},
      {"cautious", "guarded"},
      {"defensive", "guarded"},
      {"guardian", "guarded"},
      {"tactical", "balanced"},
  };
  s.stances = {{"bold", 0.67, 0.34}, {"balanced", 0.5, 0.5}, {"guarded", 0.4, 0.67}};
  config.has_riddle_of_steel = true;
  config.prepare();
  return config;
}

}  // namespace riven::testing
