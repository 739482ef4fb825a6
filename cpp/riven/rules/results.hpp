// Result records of every dice mechanic, as riven_env/rules/results.py has them.
//
// Dice always hold the dice as finally resolved (after any reroll). Names that the Python records
// hold as strings and the core reads in hot paths are enums here (Band, Spend, MeleeOutcome,
// Winner); riven_env/native/rules.py turns them back into the Python dataclasses.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "riven/rules/config.hpp"

namespace riven::rules {

struct Modifier {
  std::string source;
  int value = 0;
  bool operator==(const Modifier&) const = default;
};

int modifiers_total(const std::vector<Modifier>& modifiers);

std::string_view band_name(Band band);
/// The band named `name` (throws RulesDataError on anything but miss/partial/hit/critical).
Band band_from_name(std::string_view name);

struct ActivationResult {
  int mettle = 0;
  std::vector<int> dice;
  int successes = 0;
  int actions = 0;
  bool turn_passes = false;
  std::string rule;
  bool operator==(const ActivationResult&) const = default;
};

/// A spend on a pending 2d6 test: "reroll:0", "reroll:1", "boost", "strain".
enum class Spend : std::uint8_t { Reroll0 = 0, Reroll1 = 1, Boost = 2, Strain = 3 };
std::string_view spend_name(Spend spend);
inline bool is_reroll(Spend spend) { return spend == Spend::Reroll0 || spend == Spend::Reroll1; }

struct TestRoll {
  std::string kind;
  std::string attribute;
  int attribute_value = 0;
  std::vector<Modifier> modifiers;
  int tn = 0;
  std::array<int, 2> dice{};
  Band rolled_result = Band::Miss;
  Band result = Band::Miss;
  std::vector<Spend> spends;
  int momentum_spent = 0;
  int strain_taken = 0;
  int critical_momentum = 0;

  [[nodiscard]] int total() const { return dice[0] + dice[1] + attribute_value + modifiers_total(modifiers); }
  [[nodiscard]] int margin() const { return total() - tn; }
  bool operator==(const TestRoll&) const = default;
};

struct TestResult {
  std::string kind;
  std::string attribute;
  int attribute_value = 0;
  std::vector<Modifier> modifiers;
  int tn = 0;
  std::array<int, 2> dice{};
  int total = 0;
  Band result = Band::Miss;
  Band rolled_result = Band::Miss;
  std::vector<Spend> spends;
  int momentum_spent = 0;
  int strain_taken = 0;
  int momentum_gained = 0;
  bool operator==(const TestResult&) const = default;
};

enum class MeleeOutcome : std::uint8_t { Parry, Recoil, Wound, Critical };
enum class Winner : std::uint8_t { None, Attacker, Defender };
std::string_view melee_outcome_name(MeleeOutcome outcome);
std::string_view winner_name(Winner winner);  // "" for None

struct MeleeResult {
  std::array<int, 2> attacker_dice{};
  std::array<int, 2> defender_dice{};
  std::vector<Modifier> attacker_modifiers;
  std::vector<Modifier> defender_modifiers;
  int attacker_total = 0;
  int defender_total = 0;
  MeleeOutcome outcome = MeleeOutcome::Parry;
  Winner winner = Winner::None;
  int wounds = 0;
  bool dazed = false;
  double recoil_distance = 0.0;
  std::string condition;
  [[nodiscard]] Winner loser() const {
    if (winner == Winner::None) return Winner::None;
    return winner == Winner::Attacker ? Winner::Defender : Winner::Attacker;
  }
  bool operator==(const MeleeResult&) const = default;
};

struct ShotResult {
  TestResult test;
  std::string cover;
  ShotEffect effect;
  bool operator==(const ShotResult&) const = default;
};

struct MoraleResult {
  int mettle = 0;
  int die = 0;
  bool passed = false;
  double flee_distance = 0.0;
  std::vector<int> flee_dice;
  bool operator==(const MoraleResult&) const = default;
};

struct OutCheckResult {
  int mettle = 0;
  int die = 0;
  bool out = false;
  bool operator==(const OutCheckResult&) const = default;
};

struct StrainChange {
  int old_value = 0;
  int new_value = 0;
  bool overflow = false;
  int roll = 0;
  std::string condition_gained;
  bool operator==(const StrainChange&) const = default;
};

/// One effect of a closed roll of another system that the game loop applies after its result
/// (results.py Aftermath): shared by Invictus and New World.
struct Aftermath {
  std::string who;  // "actor" | "target" | "model:N"
  std::string effect;
  int amount = 0;
  std::string name;
  std::string reason;
  bool operator==(const Aftermath&) const = default;
};

/// What every other system's closed roll holds (results.py TestResult's fields, or a
/// MeleeResult's when is_melee: `dice`, `modifiers` and `total` are then the attacker's), with
/// the aftermath the loop applies; each system's Result adds its own fields and reading (Detail).
struct SystemResult {
  // TestResult (a test or a shot)
  std::string kind;
  std::string attribute;
  int attribute_value = 0;
  std::vector<Modifier> modifiers;
  int tn = 0;
  std::vector<int> dice;
  int total = 0;
  Band result = Band::Miss;
  Band rolled_result = Band::Miss;
  std::vector<std::string> spends;
  // MeleeResult (is_melee)
  bool is_melee = false;
  std::vector<Modifier> defender_modifiers;
  MeleeOutcome outcome = MeleeOutcome::Parry;
  Winner winner = Winner::None;
  int wounds = 0;
  bool dazed = false;
  double recoil_distance = 0.0;
  std::string condition;
  // Both
  std::vector<Aftermath> aftermath;
  bool operator==(const SystemResult&) const = default;
};

/// The Oracle's explainable choice on another system's pending roll (resolution.py OracleChoice).
struct OracleChoice {
  std::string option;
  std::string rule;
  std::string text;
  bool operator==(const OracleChoice&) const = default;
};

}  // namespace riven::rules
