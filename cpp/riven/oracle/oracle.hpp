// The Enemy Oracle's decision procedure on the native GameState (agents/oracle/engine.py and
// situation.py, step for step).
//
// The profiles are loaded and validated in Python from the same TOML (agents/oracle/profiles.py)
// and converted field by field into OracleGame (agents/oracle/native.py), with every name
// resolved against one game's vocabularies (actions, Conditions, destination kinds, options).
// decide() returns the decision and the ids of the explanation (which branch fired, the rule's
// position, the fallback roll, the target): the Python side words them with the very functions
// the Python Oracle uses (agents/oracle/words.py), so the `oracle_decision` event is identical.
//
// What needs routing (not ported yet) goes through the Routing callbacks: the charge targets of
// a model that is not the active one, and the end points of planned destinations.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "riven/game/decision.hpp"
#include "riven/game/state.hpp"
#include "riven/rules/config.hpp"
#include "riven/rules/pcg64.hpp"
#include "riven/table/table.hpp"

namespace riven::oracle {

/// The conditions of agents/oracle/vocabulary.py CONDITIONS, in PREDICATES order.
enum class Predicate : std::uint8_t {
  Always,
  Engaged,
  Outnumbered,
  Outnumbering,
  Wounded,
  BadlyWounded,
  EnemyInChargeReach,
  EnemyInShot,
  EnemyInShotWithoutCover,
  FriendDownNearby,
  FriendNeedsRally,
  HasCondition,
  StrainHigh,
  Strained,
  InCover,
  ObjectiveUncontrolled,
  ObjectiveWithinMove,
  OnObjective,
  CanInteract,
  LeaderAlive,
  IsLeader,
  EnemiesCloserThan,
  NoFriendWithin,
  FriendEngagedWithin,
  SideOutnumbered,
  MomentumAtLeast,
  HasRanged,
  ActionsLeftAtLeast,
  FirstAction,
  Took,
  MettleAtLeast,
};
inline constexpr std::array<std::string_view, 31> kPredicateNames{
    "always",
    "engaged",
    "outnumbered",
    "outnumbering",
    "wounded",
    "badly_wounded",
    "enemy_in_charge_reach",
    "enemy_in_shot",
    "enemy_in_shot_without_cover",
    "friend_down_nearby",
    "friend_needs_rally",
    "has_condition",
    "strain_high",
    "strained",
    "in_cover",
    "objective_uncontrolled",
    "objective_within_move",
    "on_objective",
    "can_interact",
    "leader_alive",
    "is_leader",
    "enemies_closer_than",
    "no_friend_within",
    "friend_engaged_within",
    "side_outnumbered",
    "momentum_at_least",
    "has_ranged",
    "actions_left_at_least",
    "first_action",
    "took",
    "mettle_at_least",
};

/// The target selectors of SELECTOR_KEYS.
enum class Selector : std::uint8_t {
  Nearest,
  Farthest,
  Weakest,
  Strongest,
  OutOfCover,
  Leader,
  MostDangerous,
  Easiest,
  Threatening
};
inline constexpr std::array<std::string_view, 9> kSelectorNames{
    "nearest", "farthest", "weakest", "strongest", "out_of_cover", "leader", "most_dangerous", "easiest",
    "threatening"};

/// The activation order keys of ORDER_FUNCTIONS.
enum class OrderKey : std::uint8_t {
  Engaged,
  CanAttack,
  MostReliable,
  LeastReliable,
  NearestEnemy,
  FarthestEnemy,
  WoundedFirst,
  WoundedLast,
  RangedFirst,
  MeleeFirst,
  LeaderFirst,
  LeaderLast,
  OnObjectiveFirst,
  NearestObjective
};
inline constexpr std::array<std::string_view, 14> kOrderKeyNames{
    "engaged",      "can_attack",  "most_reliable", "least_reliable", "nearest_enemy",
    "farthest_enemy", "wounded_first", "wounded_last", "ranged_first", "melee_first",
    "leader_first", "leader_last", "on_objective_first", "nearest_objective"};

/// Name -> enum value (throws std::invalid_argument naming the unknown name).
Predicate predicate_from_name(std::string_view name);
Selector selector_from_name(std::string_view name);
OrderKey order_key_from_name(std::string_view name);

/// One condition ready to test (compiled.py's Check): a number argument, or an id (a
/// Condition of GameStatic::conditions for has_condition, an action of GameStatic::actions
/// for took).
struct Check {
  Predicate predicate = Predicate::Always;
  double number = 0.0;
  int id = -1;
  bool negated = false;
};

enum class TargetSide : std::uint8_t { None, Enemy, Friend };

/// compiled.py's Order: the action (a decision kind id), its destination kind, whose models
/// its target is picked from and by which selector.
struct Order {
  int kind = 0;              // decision kind: kFirstActionKind + index in GameStatic::actions
  bool end = false;          // the "end" action
  int destination = -1;      // GameStatic::destination_kinds id, -1 without a destination
  bool toward_objective = false;
  TargetSide side = TargetSide::None;
  Selector selector = Selector::Nearest;
};

struct Rule {
  std::vector<Check> checks;
  Order order;
};

/// A dice rule: a fixed number, or a named policy's choices computed in Python from the exact
/// odds (dice.py) for every Mettle and every set of offered dice.
struct DiceRule {
  std::vector<Check> checks;
  int dice = -1;              // fixed number; -1: a policy
  std::vector<int> choices;   // policy: [(mettle - mettle_low) * (1 << max_dice) + offered mask]; -1 unknown
};

enum class SpendOption : std::uint8_t { Reroll, Boost, Strain };

struct SpendRule {
  SpendOption option = SpendOption::Reroll;
  std::uint8_t on = 0;  // bit b: band b (riven::game::Band)
  bool any_test = false;
  std::vector<std::string> tests;
  int min_momentum = 0;
  int strain_headroom = 0;
  bool allow_overflow = false;
};

struct Profile {
  std::vector<OrderKey> activation_order;
  std::vector<Check> hold_when;
  bool has_bonus = false;
  int bonus_min_momentum = 0;
  std::vector<Check> bonus_when;
  std::vector<DiceRule> dice;
  std::vector<Rule> priorities;
  std::vector<Order> fallback;  // by face - 1
  std::vector<SpendRule> spend;
};

/// The card lines of one profile, worded in Python (agents/oracle/compiled.py CompiledProfile,
/// words.py) for the explanations the core assembles (riven/oracle/play.hpp explain()).
struct ProfileWords {
  std::string name;
  std::string order;                      // ", ".join(activation_order)
  std::string bonus;                      // bonus_text
  std::vector<std::string> dice;          // each dice rule's text
  std::vector<std::string> priority_ids;  // each priority rule's id
  std::vector<std::string> priorities;    // each priority rule's card line
  std::vector<std::string> fallback;      // fallback_texts, by face - 1
  std::vector<std::string> spend_ids;     // each spend rule's id
  std::vector<std::string> spends;        // words.spend_rule_text of each spend rule
};

/// The profiles and the per-model facts one game's Oracle reads, ids resolved for that game.
struct OracleGame {
  std::vector<Profile> profiles;
  std::vector<int> model_profile;          // profile driving each model; -1: a name the data lacks
  std::array<int, game::kSides> side_profile{-1, -1};  // profile ordering each side's activations
  std::vector<std::optional<rules::Weapon>> ranged;  // each model's ranged weapon
  std::vector<std::uint8_t> leader;        // each model has the leader keyword
  std::vector<int> strain_max;             // each model's Strain track
  std::vector<std::uint8_t> rally_removes; // by GameStatic::conditions id: rally removes it
  int mettle_low = 0;                      // DiceRule::choices cover mettle_low .. + mettle_count - 1
  int mettle_count = 0;
  int max_dice = 0;
  double contact_tolerance = 0.02;
  double charge_reach_factor = 1.0;
  double disengage_move_factor = 0.5;
  double stabilise_range = 1.0;
  double rally_range = 6.0;
  int spend_cost = 2;
  // Decision kind ids of the actions the Oracle asks about (-1: not in the rules data).
  int kind_charge = -1;
  int kind_shoot = -1;
  int kind_stabilise = -1;
  int kind_rally = -1;
  int kind_interact = -1;
  int kind_end = -1;
  int kind_disengage = -1;
  // The explanations' words (empty when only decide() is asked: the caller words them).
  std::vector<ProfileWords> words;      // by profile
  std::vector<std::string> dice_words;  // dice.dice_words: [(mettle - mettle_low) * (max_dice + 1) + dice]

  /// Throws std::invalid_argument when the vectors do not fit ``statics`` or a profile id is out of range.
  void validate(const game::GameStatic& statics) const;
};

/// The branch of the decision procedure that chose (the explanation's rule, as ids).
enum class Branch : std::uint8_t {
  PassAllActivated,  // "pass:all_activated"
  Hold,              // "hold"
  Bonus,             // "bonus"
  Dice,              // "dice:K"
  Priority,          // priority rule K fired
  Fallback,          // "d6:ROLL"
  FallbackEnd,       // "end:no_action" after a roll
  Spend,             // spend rule K
  Accept,            // "spend:accept"
  Unsupported,       // a point the core does not decide (the Python Oracle does): see `reason`
  System,            // the resolution system's own choice on a pending roll (Invictus): `system_rule`, `system_text`
};

/// What decide() chose and why, as ids the Python side words.
struct Choice {
  Branch branch = Branch::Unsupported;
  int index = -1;  // into the legal decisions; -1: `decision` is not listed (pass, end, spend)
  game::Decision decision;
  int model = -1;    // the model the explanation names (-1: none)
  int profile = -1;  // OracleGame::profiles index
  int rule = -1;     // 0-based position of the dice, priority or spend rule
  int roll = 0;      // the fallback face rolled
  int target = -1;   // the model named as target (" Target: ID.")
  int dice = -1;     // dice of a Dice branch
  std::string reason;  // Unsupported: why
  std::string system_rule;  // System: the system's rule id ("invictus:favour_best")
  std::string system_text;  // System: its explanation, worded by the system
};

/// An end point of a planned destination: (kind, ref) of the decision and where it ends.
struct DestinationPoint {
  int kind = -1;  // GameStatic::destination_kinds id
  std::int64_t ref = -1;
  double x = 0.0;
  double y = 0.0;
};

/// The queries that need routing, answered by the caller (the Python table for now).
struct Routing {
  /// table.charge_targets(table, bases, i, reach, near): those of `near` (in order) with a legal charge path.
  std::function<std::vector<std::int64_t>(std::size_t, double, const std::vector<std::int64_t>&)> charge_targets;
  /// state.destinations(i, allowance): each candidate destination's (kind, ref) and end point.
  std::function<std::vector<DestinationPoint>(std::size_t, double)> destinations;
};

/// The Oracle's choice among `legal` for the side that decides in `state` (OracleAgent.act).
///
/// `rng` is the Oracle's own stream (only the fallback table is rolled on it). Errors in the
/// inputs throw std::invalid_argument; points the core does not decide return Branch::Unsupported.
Choice decide(const OracleGame& oracle, const game::GameState& state, const table::TableGeometry& table,
              const rules::RulesConfig& rules, std::span<const game::Decision> legal, rules::Pcg64& rng,
              const Routing& routing);

}  // namespace riven::oracle
