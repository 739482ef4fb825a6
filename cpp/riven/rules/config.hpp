// The rules data the native core reads: a plain struct filled once per RulesConfig.
//
// The core does not parse TOML. riven_env/native/rules.py reads a validated Python RulesConfig
// (riven_env/rules/config.py) and fills this struct, key by key, with every value and table the
// Python engine reads (docs/rules-reference.md names each key); prepare() then derives the
// lookups the hot paths use and checks the few invariants the code relies on. Field names follow
// the TOML keys: `momentum.gain.critical` is `momentum.gain` entry "critical".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace riven::rules {

/// The four bands of a 2d6 test, worst to best; the value is the tier.
enum class Band : std::uint8_t { Miss = 0, Partial = 1, Hit = 2, Critical = 3 };
inline constexpr int kBandCount = 4;

/// `activation.turnover`.
enum class Turnover : std::uint8_t { Raw, Sbh };
/// `morale.flight_route`.
enum class FlightRoute : std::uint8_t { Straight, Around };
/// `momentum.bonus_mode`.
enum class BonusMode : std::uint8_t { Extra, Replace };
/// A Condition's `cover_against_shots`: "" | "none" | "+1".
enum class CoverEffect : std::uint8_t { Unchanged, Ignore, Better };
/// `meta.resolution`: the dice engine behind the resolution seam.
enum class System : std::uint8_t { Riven, Invictus, NewWorld, RiddleOfSteel };

using NamedInt = std::pair<std::string, int>;
using NamedText = std::pair<std::string, std::string>;

struct ActivationRules {
  int max_dice = 3;
  Turnover turnover = Turnover::Raw;
  int sbh_failures_to_pass = 2;
  bool sbh_no_success_passes = true;
};

struct TestRules {
  int dice = 2;
  std::string default_difficulty = "standard";
  int partial_strain = 1;
  int miss_max = -3;     // test.bands.miss_max
  int partial_max = 0;   // test.bands.partial_max
  int hit_max = 3;       // test.bands.hit_max
  std::vector<NamedInt> difficulty;  // test.difficulty, in data order
};

struct MeleeRules {
  int charge_bonus = 2;
  int outnumbered_penalty = 1;
  int wound_margin = 5;
  double recoil_distance = 2.0;
  int critical_ratio = 2;
  int wound_wounds = 1;
  int critical_wounds = 1;
  std::string critical_condition = "dazed";
  int critical_loser_floor = 1;
};

struct ShotEffect {
  int wounds = 0;
  double push_distance = 0.0;
  bool shooter_exposed = false;
  bool complication = false;
  bool operator==(const ShotEffect&) const = default;
};

struct ShootingRules {
  std::string attribute = "agility";
  std::vector<std::string> cover_order;  // worst to best
  std::vector<NamedInt> cover_tn;        // shooting.cover_tn, in data order
  bool into_melee_needs_adjacent_friend = true;
  bool down_models_in_melee = false;  // House: a Down friend in base contact is in no melee
  std::string exposed_condition = "exposed";
  std::array<ShotEffect, kBandCount> effects{};  // shooting.effects.BAND, by tier
};

struct CasualtyRules {
  int out_check_dice = 1;
  int stabilise_cost = 1;
};

struct MoraleTrigger {
  std::string name;
  bool enabled = false;
  std::string description;
  double radius = 0.0;    // friend_lost
  double fraction = 0.0;  // half_strength
  std::string keyword;    // leader_out, terror_charge
  bool operator==(const MoraleTrigger&) const = default;
};

struct MoraleRules {
  int test_dice = 1;
  int flee_dice = 1;
  double flee_base = 3.0;
  FlightRoute flight_route = FlightRoute::Straight;
  std::vector<MoraleTrigger> triggers;  // in MORALE_TRIGGERS order
};

struct EngagementRules {
  std::vector<std::string> forbids;
};

struct MomentumRules {
  std::string pool = "side";
  std::string solo_hero_pool = "model";
  int start = 0;
  int cap = 6;
  int max_rerolls_per_test = 1;
  int max_boosts_per_test = 1;
  Band boost_ceiling = Band::Hit;
  BonusMode bonus_mode = BonusMode::Extra;
  std::vector<NamedInt> gain;  // momentum.gain, in data order
  std::vector<NamedInt> cost;  // momentum.cost, in data order
  // Derived by RulesConfig::prepare() from gain / cost.
  int gain_critical = 0;
  int gain_melee_critical = 0;
  int gain_objective = 0;
  int gain_objective_held = 0;
  int gain_focus = 0;
  int cost_reroll = 0;
  int cost_boost = 0;
  int cost_bonus_action = 0;
};

struct StrainRules {
  int track_per_wit = 2;
  int spend_cost = 2;
  bool spend_may_overflow = true;
  int rest_removes = 4;
  std::vector<NamedInt> gain;               // strain.gain, in data order
  std::vector<std::string> overflow_table;  // strain.overflow_table, face 1 first
};

struct ConditionSpec {
  std::string name;
  std::string description;
  int test_modifier = 0;
  int melee_modifier = 0;
  int shot_modifier = 0;
  double move_penalty = 0.0;
  int max_actions = 0;
  int max_dice = 0;
  std::vector<std::string> forbids;  // sorted
  CoverEffect cover_against_shots = CoverEffect::Unchanged;
  bool end_of_turn_wound_check = false;
  std::string expires;
  std::vector<std::string> removed_by;  // sorted
};

struct Complication {
  int roll = 0;
  std::string name;
  std::string text;
  std::string effect;
  int amount = 0;
  std::string condition;
  std::vector<NamedText> flavour;  // setting -> text, in data order
  bool operator==(const Complication&) const = default;
};

struct WeaponTrait {
  std::string name;
  std::string description;
  int melee_modifier = 0;
  int charge_modifier = 0;
  int defend_modifier = 0;
  int shot_modifier = 0;
  int cover_steps = 0;
};

/// A melee or ranged weapon as the rules read it (profiles.py's Weapon without display names).
struct Weapon {
  std::string name;
  std::string kind = "melee";
  double range = 0.0;
  int modifier = 0;
  std::vector<std::string> traits;  // sorted
};

/// A Narrator's move of Invictus (`invictus.moves.soft` / `.hard`).
struct InvictusMove {
  std::string effect;  // none | strain | wound | complication
  int amount = 0;
};

/// The `[invictus]` section (riven_env/rules/systems/invictus.py InvictusSettings), filled by
/// riven_env/native/rules.py when meta.resolution = "invictus" (has_invictus); key names follow
/// the TOML tables: `invictus.pool.min_dice` is `min_dice`, `invictus.danger.max_dice` `danger_max`.
struct InvictusRules {
  int attribute_offset = 0;
  int min_dice = 0;
  int max_dice = 0;
  int standard_tn = 0;
  int tn_step = 1;
  int steps_per_die = 1;
  int miss_max = 0;
  int swing_max = 0;
  int crit_sixes = 0;
  int danger_max = 0;
  int soft_max = 0;
  int bite_face = 0;
  std::vector<std::string> bite_on;             // invictus.danger.fray_bite_on
  std::vector<std::string> factors;             // invictus.danger.factors, data order
  std::vector<std::string> exposed_conditions;  // invictus.danger.exposed_conditions
  InvictusMove soft;
  InvictusMove hard;
  int luck_start = 0;
  int luck_crit_gain = 0;
  int luck_cap = 0;
  int luck_raise = 0;
  int deaths_door_overflow = 0;
  int critical_health_dice = 0;
  std::vector<NamedInt> cover_score;           // invictus.cover.score: none, soft, hard
  std::array<std::string, kBandCount> melee{};  // invictus.melee.{miss,swing,hit,crit}
  int melee_wounds = 0;
  int melee_crit_wounds = 0;
  std::string oracle_lifts_to;  // invictus.oracle.luck_lifts_to
  int oracle_reserve = 0;
};

/// The `[new_world]` section (riven_env/rules/systems/new_world.py NewWorldSettings), filled by
/// riven_env/native/rules.py when meta.resolution = "new-world" (has_new_world); field names are
/// NewWorldSettings's: `new_world.roll.dice` is `dice`, `new_world.melee.critical_margin`
/// `melee_critical_margin`, `new_world.helpers.bonus_each` `helper_bonus`.
struct NewWorldRules {
  int dice = 2;
  bool snake_eyes_fails = true;
  int roll_limit = 9;
  int modifier_limit = 2;  // new_world.roll.modifier_limit: each situational modifier within +-this
  int characteristic_offset = 0;
  int rank_default = 0;
  std::vector<NamedInt> rank_by_keyword;  // new_world.rank.KEYWORD, data order
  int difficulty_offset = 0;
  int critical_margin = 1;
  int partial_within = 0;
  int passive_base = 0;
  std::string shot_characteristic = "agility";
  std::vector<NamedInt> cover_modifier;  // new_world.passive.cover_modifier: none, soft, hard
  std::string melee_characteristic = "might";
  int wound_margin = 1;
  int melee_critical_margin = 1;
  bool defender_strikes_back = false;
  int helpers_max = 0;
  int helper_bonus = 0;
  std::vector<std::string> helper_kinds;  // new_world.helpers.kinds
  int shared_risk_margin = 1;
  int shared_risk_strain = 0;
  int luck_default = 0;
  std::vector<NamedInt> luck_by_keyword;  // new_world.luck.KEYWORD, data order
  int luck_per_point = 1;
  int oracle_sure = 0;      // new_world.oracle.helpers_unless_sure
  int oracle_luck_max = 0;  // new_world.oracle.luck_max_per_roll
};

/// A RIVEN attribute read as an RoS one (`riddle_of_steel.attributes.NAME`: from, offset).
struct RosAttributeSpec {
  std::string name;  // brawn, agility, wits, presence (ros_data.py ROS_ATTRIBUTES order)
  std::string from;  // the RIVEN attribute
  int offset = 0;
  bool operator==(const RosAttributeSpec&) const = default;
};

/// A melee weapon in RoS numbers (`riddle_of_steel.weapons.NAME`).
struct RosWeapon {
  std::string name;
  int atn = 0;
  int dtn = 0;
  int dr = 0;
  std::string shield;  // "" when none
  bool operator==(const RosWeapon&) const = default;
};

/// A shield (`riddle_of_steel.shields.NAME`): its Block DTN and the passive armour on `zones`.
struct RosShield {
  std::string name;
  int dtn = 0;
  int passive_av = 0;
  std::vector<std::string> zones;  // in the data's zone order
  bool operator==(const RosShield&) const = default;
};

/// An unlisted weapon's adjustment by RIVEN trait (`riddle_of_steel.weapon_traits.TRAIT`).
struct RosWeaponTrait {
  std::string name;
  int dr = 0;
  bool sets_shield = false;  // the trait names a shield (its `shield` key is present)
  std::string shield;
};

/// An offensive manoeuvre (`riddle_of_steel.melee.attacks.NAME`).
struct RosAttack {
  std::string name;
  int extra = 0;       // CP dice paid before rolling
  int bonus_dice = 0;  // dice added to the roll
  int damage = 0;      // wound levels added on a hit
};

/// Where a defence's DTN comes from: a number, or the defender's weapon or shield.
enum class RosDtnSource : std::uint8_t { Number, Weapon, Shield };

/// A defensive manoeuvre (`riddle_of_steel.melee.defences.NAME`).
struct RosDefence {
  std::string name;
  RosDtnSource source = RosDtnSource::Number;
  int dtn = 0;  // source == Number
  int cost = 0;
  bool needs_shield = false;
};

/// A Target Zone (`riddle_of_steel.zones.ZONE`): its name and the zones a Feint reaches near.
struct RosZone {
  std::string zone;  // "I".."VII"
  std::string name;
  std::vector<std::string> near;
};

/// One cell of the Damage Table (`riddle_of_steel.damage.ROW.LEVEL`).
struct RosWound {
  int shock = 0;
  int pain = 0;
  int bl = 0;
  int wounds = 0;
  std::string effect;  // "" | knockdown | down | out
  std::string text;
};

/// A row of the Damage Table: a zone's (or "default") levels 1..max_wound_level, in order.
struct RosDamageRow {
  std::string zone;
  std::vector<RosWound> levels;
};

/// How the Oracle shares its Combat Pool (`riddle_of_steel.oracle.stance.NAME`).
struct RosStance {
  std::string name;
  double first_attack_share = 0.0;
  double defence_share = 0.0;
};

/// The `[riddle_of_steel]` section (riven_env/rules/systems/ros_data.py RosData), filled by
/// riven_env/native/rules.py when meta.resolution = "riddle-of-steel" (has_riddle_of_steel);
/// field names are RosData's, tables in data order.
struct RiddleOfSteelRules {
  int faces = 10;
  int stack_on = 10;
  int max_stacks = 0;
  int fumble_ones = 2;
  int min_tn = 2;
  std::vector<RosAttributeSpec> attributes;
  int proficiency_base = 0;
  int proficiency_min = 0;
  int feint_min = 0;
  std::vector<NamedText> test_attribute_for;  // RIVEN attribute -> RoS attribute
  int test_modifier_dice = 0;
  int test_min_dice = 0;
  std::vector<std::pair<int, int>> tn_for_riven_tn;  // (RIVEN TN, RoS TN), by RIVEN TN
  std::vector<NamedInt> bands;                       // partial, hit, critical: least successes
  int shot_atn = 0;
  std::vector<NamedInt> cover_tn;  // none, soft, hard
  int exchanges = 2;
  int modifier_dice = 0;
  std::vector<std::string> ignore_modifier_sources;
  int feint_cost = 0;
  int feint_die_cost_near = 1;
  int feint_die_cost_far = 1;
  std::string counter_bonus = "attacker_successes";  // | attacker_dice
  int counter_fail_extra_successes = 0;
  int stand_steal_cost = 0;
  double duck_weave_pool_loss = 0.0;
  double fumble_pool_loss = 0.0;
  int knockdown_tn_per_margin = 0;
  std::string knockdown_condition;
  std::string bleeding_condition;
  int max_wound_level = 1;
  std::vector<RosAttack> attacks;
  std::vector<RosDefence> defences;
  std::vector<RosZone> zones;
  std::vector<RosWeapon> weapons;
  std::vector<RosWeaponTrait> weapon_traits;
  std::vector<RosShield> shields;
  std::vector<RosDamageRow> damage;
  std::string default_stance;
  std::vector<NamedText> stances_by_profile;  // Oracle profile -> stance
  std::vector<RosStance> stances;
};

struct RulesConfig {
  std::string source;       // the TOML file, for messages
  std::string fingerprint;  // the Python RulesConfig's fingerprint (the cache key)
  System system = System::Riven;
  std::string system_name = "riven";
  int dice_faces = 6;
  ActivationRules activation;
  TestRules test;
  MeleeRules melee;
  ShootingRules shooting;
  CasualtyRules casualties;
  MoraleRules morale;
  EngagementRules engagement;
  MomentumRules momentum;
  StrainRules strain;
  std::vector<ConditionSpec> conditions;        // sorted by name
  std::vector<Complication> complications;      // face 1 first
  std::vector<WeaponTrait> weapon_traits;       // sorted by name
  std::vector<std::pair<std::string, double>> distances;  // distances.* plain values, data order
  bool has_invictus = false;  // the [invictus] table was given (meta.resolution = "invictus")
  InvictusRules invictus;
  bool has_new_world = false;  // the [new_world] table was given (meta.resolution = "new-world")
  NewWorldRules new_world;
  bool has_riddle_of_steel = false;  // the [riddle_of_steel] table was given (meta.resolution = "riddle-of-steel")
  RiddleOfSteelRules riddle_of_steel;
  bool prepared = false;

  /// Derive the hot-path lookups and check the invariants the core relies on.
  ///
  /// Throws std::invalid_argument naming the key when the struct is incomplete (a table that
  /// does not cover every die face, a missing Momentum cost, unsorted Conditions).
  void prepare();

  /// distances.NAME (throws std::invalid_argument when there is no such key).
  [[nodiscard]] double distance(std::string_view name) const;
};

}  // namespace riven::rules
