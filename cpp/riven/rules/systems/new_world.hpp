// New World (shared/rules/other-systems/new-world-core-rules-ch1.txt) as a resolution system of
// the core: riven_env/rules/systems/new_world.py, draw for draw.
//
// Every test is one roll: 2d6 + characteristic + skill rank against a difficulty, succeeding on a
// total equal to or above it; snake eyes (1 and 1) always fails (RAW). A melee is an opposed roll
// (ties to the defender); a shot's target sets the passive difficulty 7 + characteristic + rank.
// One or two helpers add +1 each to the kinds the data lists, and Luck is spent after the roll,
// +1 a point. Every number comes from the `[new_world]` table (RulesConfig::new_world); RIVEN's
// engine keeps activation, morale, Out checks, the Complication Oracle and the shot table.
//
// A roll is pending (NewWorldRoll) while a player may still choose: `help:K` before the dice are
// rolled (K helpers), `luck` after (one point; in a melee the attacker first, then the defender).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/results.hpp"
#include "riven/rules/riven_rolls.hpp"

namespace riven::rules::new_world {

inline constexpr std::string_view kName = "new-world";
inline constexpr std::string_view kHelp = "help:";
inline constexpr std::string_view kLuck = "luck";
inline constexpr std::string_view kLuckResource = "luck";
inline constexpr std::string_view kDefenderLuck = "defender:luck";  // a defender's Luck spend

/// What New World reads of a RIVEN profile: the attributes and the keywords (rank, Luck).
struct Fighter {
  int might = 0;
  int agility = 0;
  int wit = 0;
  int resolve = 0;
  int mettle = 0;
  std::vector<std::string> keywords;
  /// The attribute named `name` (throws RulesDataError on an unknown name).
  [[nodiscard]] int attribute(std::string_view name) const;
  bool operator==(const Fighter&) const = default;
};

/// Who chooses on a pending roll (the roller, or a melee's defender).
enum class Chooser : std::uint8_t { Actor, Target };
std::string_view chooser_name(Chooser chooser);
/// "actor" or "target" (throws RulesDataError otherwise).
Chooser chooser_from_name(std::string_view name);

/// What New World reads of a roll's RollContext (riven_env/rules/resolution.py).
struct RollFacts {
  std::optional<Fighter> profile;   // the roller (nullopt: a bare roll, no rank)
  std::optional<Fighter> opponent;  // a shot's target
  std::optional<std::string> cover;
  int helpers = 0;
  std::vector<int> helper_models;  // nearest first
  int luck = 0;                    // resources["luck"] (0 when absent)
};

/// A melee side as the game hands it to start_melee (resolution.py Combatant).
struct Side {
  Fighter profile;
  std::vector<Modifier> modifiers;
  int luck = 0;  // resources["luck"]
};

/// A New World roll still open to choices (new_world.py NewWorldRoll).
struct NewWorldRoll {
  std::string kind;
  std::string attribute;
  int attribute_value = 0;
  std::vector<Modifier> modifiers;
  int tn = 0;
  int bonus = 0;
  int difficulty = 0;
  std::vector<int> dice;
  int helpers_available = 0;
  int helpers = 0;
  std::vector<int> helper_models;
  int luck_held = 0;
  int luck_spent = 0;
  std::vector<std::string> spends;
  bool rolled = true;
  Chooser chooser = Chooser::Actor;
  bool is_melee = false;
  std::vector<int> melee_dice;  // the defender's (is_melee)
  int melee_bonus = 0;
  std::vector<Modifier> melee_modifiers;
  int defender_luck_held = 0;
  int defender_luck_spent = 0;
  int rolled_total = 0;
  [[nodiscard]] int luck_left(Chooser who) const {
    return who == Chooser::Target ? defender_luck_held - defender_luck_spent : luck_held - luck_spent;
  }
  bool operator==(const NewWorldRoll&) const = default;
};

/// The system's own reading of a closed roll (the event's `detail`, in the Python dict's order).
struct Detail {
  int bonus = 0;
  int helpers = 0;
  int helper_bonus = 0;
  int luck_spent = 0;
  int rolled_total = 0;
  bool snake_eyes = false;
  bool is_melee = false;
  // a test or a shot
  int difficulty = 0;
  bool success = false;
  // a melee
  int defender_bonus = 0;
  int defender_luck_spent = 0;
  bool defender_snake_eyes = false;
  // both
  int margin = 0;
  bool operator==(const Detail&) const = default;
};

/// A closed New World roll (rules::SystemResult, a test's or a melee's) and its reading.
/// `tn` is the difficulty the roll faced; a melee's defender rolls 2d6 too.
struct Result : SystemResult {
  int momentum_gained = 0;         // a test's
  std::vector<int> defender_dice;  // a melee's (is_melee)
  int defender_total = 0;          // a melee's (is_melee)
  Detail detail;
  bool operator==(const Result&) const = default;
};

/// An opposed melee's reading: the outcome, who won, by how much.
struct MeleeReading {
  MeleeOutcome outcome = MeleeOutcome::Parry;
  Winner winner = Winner::None;
  int margin = 0;
  bool operator==(const MeleeReading&) const = default;
};

// ------------------------------------------------------------------ pure reading
/// The skill rank: the highest of the keywords' ranks, else the default (House).
int rank_of(const Fighter& profile, const NewWorldRules& s);
/// Characteristic + skill rank, at most the roll limit (RAW).
int bonus_of(const Fighter& profile, std::string_view attribute, const NewWorldRules& s);
/// The model's Luck for the game: the highest of its keywords' values, else the default.
int luck_of(const Fighter& profile, const NewWorldRules& s);
bool snake_eyes(const std::vector<int>& dice);
/// RAW: success on a total equal to or above the difficulty; snake eyes always fails.
bool succeeds(const std::vector<int>& dice, int total, int difficulty, const NewWorldRules& s);
/// RIVEN's band of a New World test (success a Hit, by critical_margin a Critical).
Band band_of(const std::vector<int>& dice, int total, int difficulty, const NewWorldRules& s);
/// An opposed melee (RAW: ties to the defender; snake eyes fails the side that rolls it).
MeleeReading melee_outcome(const std::vector<int>& a_dice, int a_total, const std::vector<int>& d_dice, int d_total,
                           const NewWorldRules& s);

/// 2d6 + bonus + modifiers + helpers + Luck.
int total(const NewWorldRoll& roll, const NewWorldRules& s);
/// RAW: each situational modifier stays within -modifier_limit..+modifier_limit; the sum is not
/// clamped ("Separate modifiers add together, so the total on one roll can go beyond that").
int situational(int value, const NewWorldRules& s);
std::vector<Modifier> clamped(const std::vector<Modifier>& modifiers, const NewWorldRules& s);
/// Help is one situational modifier: helpers x bonus_each, within the limit.
int help_bonus(int helpers, const NewWorldRules& s);
/// The defender's total in a melee (0 otherwise).
int defender_total(const NewWorldRoll& roll, const NewWorldRules& s);
/// Against the defender's total in a melee, else against the difficulty.
int margin(const NewWorldRoll& roll, const NewWorldRules& s);
/// RIVEN's band of the roll as it stands (an unrolled record reads as a Miss).
Band result(const NewWorldRoll& roll, const NewWorldRules& s);

/// The Oracle's choice on a pending roll (NewWorldResolution.oracle_choice) with the settings
/// given: every helper unless near-sure alone; Luck when few enough points turn the result.
OracleChoice oracle_choice(const NewWorldRoll& roll, const std::vector<std::string>& options, const std::string& model,
                           const NewWorldRules& s);

/// New World's dice for tests, shots and melee (new_world.py NewWorldResolution).
class NewWorldSystem : public RivenRolls {
 public:
  /// Throws RulesDataError when the rules carry no [new_world] table.
  explicit NewWorldSystem(std::shared_ptr<const RulesConfig> rules);

  [[nodiscard]] const NewWorldRules& settings() const { return rules_->new_world; }
  [[nodiscard]] static constexpr System system() { return System::NewWorld; }

  /// {"luck": the profile's Luck}.
  [[nodiscard]] int starting_luck(const Fighter& profile) const { return luck_of(profile, settings()); }

  /// The roll before any dice: its bonus, difficulty (a shot's passive one, with the cover's
  /// modifier) and the helpers it may call (pure).
  [[nodiscard]] NewWorldRoll make_roll(const std::string& kind, const std::string& attribute, int attribute_value,
                                       int tn, const std::vector<Modifier>& modifiers, const RollFacts& facts) const;

  /// A test; one that helpers may join with helpers at hand comes back unrolled (`help:K` first).
  template <class Rng>
  NewWorldRoll roll_test(const std::string& kind, const std::string& attribute, int attribute_value, int tn,
                         const std::vector<Modifier>& modifiers, const RollFacts& facts, Rng& rng) const {
    NewWorldRoll roll = make_roll(kind, attribute, attribute_value, tn, modifiers, facts);
    if (!roll.rolled) return roll;
    return rolled(std::move(roll), rng);
  }

  /// RAW opposed roll: the attacker's 2d6, then the defender's (that order keeps games
  /// reproducible); with no option for the attacker the choice is the defender's at once.
  template <class Rng>
  NewWorldRoll start_melee(const Side& attacker, const Side& defender, Rng& rng) const {
    const int faces = rules_->dice_faces;
    std::vector<int> a_dice = roll_dice(rng, settings().dice, faces);
    std::vector<int> d_dice = roll_dice(rng, settings().dice, faces);
    return make_melee(attacker, defender, std::move(a_dice), std::move(d_dice));
  }
  /// The melee record from both sides' dice (pure).
  [[nodiscard]] NewWorldRoll make_melee(const Side& attacker, const Side& defender, std::vector<int> a_dice,
                                        std::vector<int> d_dice) const;

  /// `help:0..K` before the roll; `luck` after it while the chooser's Luck can change the result.
  [[nodiscard]] std::vector<std::string> spend_options(const NewWorldRoll& roll) const;
  /// Apply a choice (throws IllegalAction for an option not allowed now); `help:K` rolls the dice.
  template <class Rng>
  NewWorldRoll apply_spend(const NewWorldRoll& roll, const std::string& option, Rng& rng) const {
    NewWorldRoll next = spent(roll, option);
    // An allocation comes back from spent() still unrolled: with the helpers called, roll.
    return next.rolled ? next : rolled(std::move(next), rng);
  }
  /// In a melee the attacker's acceptance hands the choice to the defender (nullopt: the roll
  /// closes).
  [[nodiscard]] std::optional<NewWorldRoll> accept(const NewWorldRoll& roll) const;
  /// Every (kind, option) the system can offer: ("allocate", "help:K") for K = 0..helpers.max,
  /// then ("spend", "luck").
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> choice_vocabulary() const;
  /// Close the roll: the band or melee outcome, the Luck spent, the helpers' shared risk.
  [[nodiscard]] Result finalise(const NewWorldRoll& roll) const;
  /// The Oracle's choice: every helper unless near-sure alone; Luck when few points turn it.
  [[nodiscard]] OracleChoice oracle_choice(const NewWorldRoll& roll, const std::vector<std::string>& options,
                                           const std::string& model) const;

 private:
  template <class Rng>
  NewWorldRoll rolled(NewWorldRoll roll, Rng& rng) const {
    // Each roll spends from the same die faces as RIVEN's (dice.faces).
    roll.dice = roll_dice(rng, settings().dice, rules_->dice_faces);
    roll.rolled = true;
    roll.rolled_total = total(roll, settings());
    return roll;
  }
  /// The choice applied without the dice an allocation then rolls (rolled stays false for it).
  [[nodiscard]] NewWorldRoll spent(const NewWorldRoll& roll, const std::string& option) const;
  [[nodiscard]] bool luck_helps(const NewWorldRoll& roll, Chooser who) const;
};

}  // namespace riven::rules::new_world
