// Invictus (shared/rules/other-systems/invictus-rules.txt) as a resolution system of the core:
// riven_env/rules/systems/invictus.py, draw for draw.
//
// A roll is a pool of d6 read by its single highest die (Miss / Swing / Hit; several 6s a Crit),
// mapped onto RIVEN's bands (Swing is RIVEN's Partial). The system adds Favourable /
// Unfavourable circumstances, Danger Dice with the Narrator's soft and hard moves, Luck and the
// wound track with Critical Health and Death's Door; RIVEN's engine keeps activation, morale,
// Out checks and the Complication Oracle. Every number comes from the `[invictus]` table
// (RulesConfig::invictus); the only constant is the d6 itself (RAW, as the Python FACES).
//
// A roll is pending (InvictusRoll) while its roller may still raise dice: `favour:I` (the
// Favourable raise, once) and `luck:I` (one Luck each), I indexing the dice high to low.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "riven/rules/activation.hpp"
#include "riven/rules/casualties.hpp"
#include "riven/rules/complications.hpp"
#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/morale.hpp"
#include "riven/rules/results.hpp"
#include "riven/rules/riven_rolls.hpp"
#include "riven/rules/shooting.hpp"

namespace riven::rules::invictus {

inline constexpr int kFaces = 6;  // Invictus rolls d6 only (RAW)
inline constexpr std::string_view kName = "invictus";
inline constexpr std::string_view kFavour = "favour:";
inline constexpr std::string_view kLuck = "luck:";
inline constexpr std::string_view kLuckResource = "luck";
/// The Danger factors a roll may face (invictus.py FACTORS; the data lists which count).
inline constexpr std::array<std::string_view, 5> kDangerFactors{"fray", "superior_opposition", "exposed",
                                                                "critical_health", "time_pressure"};

/// Invictus's own bands, worst to best; the value is RIVEN's tier (Band).
enum class IBand : std::uint8_t { Miss = 0, Swing = 1, Hit = 2, Crit = 3 };
std::string_view band_name(IBand band);
/// The band named `name` (throws RulesDataError on anything but miss/swing/hit/crit).
IBand band_from_name(std::string_view name);
/// RIVEN's band for an Invictus band (Swing is RIVEN's Partial).
inline Band riven_band(IBand band) { return static_cast<Band>(band); }
inline int tier(IBand band) { return static_cast<int>(band); }

// The aftermath and the Oracle's choice are the records every system shares (results.hpp).
using rules::Aftermath;
using rules::OracleChoice;

/// What Invictus reads of a roll's RollContext (riven_env/rules/resolution.py).
struct RollFacts {
  bool engaged = false;
  std::vector<std::string> conditions;
  int wounds_left = 0;
  int wounds_max = 0;  // 0: no wound track known
  bool final_round = false;
  int luck = 0;  // resources["luck"] (0 when absent)
};

/// A melee side as the game hands it to start_melee (resolution.py Combatant).
struct Side {
  int might = 0;
  std::vector<Modifier> modifiers;
  RollFacts facts;  // the attacker's: its luck is its resources' luck when the melee starts
};

/// An Invictus roll its roller may still change (invictus.py InvictusRoll).
struct InvictusRoll {
  std::string kind;
  std::string attribute;
  int attribute_value = 0;
  std::vector<Modifier> modifiers;
  int tn = 0;
  int pool = 0;
  std::vector<int> dice;         // as it stands, high to low
  std::vector<int> rolled_dice;  // as rolled, high to low
  std::vector<int> danger;       // the Danger Dice, in draw order
  std::vector<std::string> factors;
  bool fray = false;
  bool favourable = false;  // the Favourable raise is still to be used
  bool unfavourable = false;
  int score = 0;
  bool critical_health = false;
  int luck_held = 0;
  int luck_spent = 0;
  std::vector<std::string> spends;
  IBand rolled_band = IBand::Miss;
  bool is_melee = false;
  std::vector<Modifier> melee;  // a melee's defender modifiers (is_melee)
  bool operator==(const InvictusRoll&) const = default;
};

/// The system's own reading of a closed roll (the event's `detail`).
struct Detail {
  IBand band = IBand::Miss;
  IBand rolled_band = IBand::Miss;
  int pool = 0;
  std::vector<int> rolled_dice;
  bool favourable = false;
  bool favour_used = false;
  bool unfavourable = false;
  std::vector<int> danger_dice;
  std::vector<std::string> danger_factors;
  std::string move;  // "" (None) | "soft" | "hard"
  int move_die = 0;  // 0: None
  int luck_spent = 0;
  bool critical_health = false;
  bool operator==(const Detail&) const = default;
};

/// A closed Invictus roll (rules::SystemResult, a test's or a melee's) and its reading.
/// A melee's attacker's pool is `dice`; the Narrator rolls none.
struct Result : SystemResult {
  Detail detail;
  bool operator==(const Result&) const = default;
};

// ------------------------------------------------------------------ pure reading
/// The band of a pool: its single highest die, several 6s a Crit (RAW).
IBand read_band(const std::vector<int>& dice, const InvictusRules& s);
/// The circumstance score of a roll and the dice it adds (+) or removes (-).
std::pair<int, int> circumstance(const std::vector<Modifier>& modifiers, int tn, const InvictusRules& s);
/// All the track's boxes are filled: one more wound is Death's Door.
bool at_critical_health(const RollFacts& facts, const InvictusRules& s);
/// The Danger factors a roll faces, in data order (opponent_value: nullopt without one).
std::vector<std::string> danger_factors(const std::string& kind, int attribute_value,
                                        std::optional<int> opponent_value, const RollFacts& facts,
                                        const InvictusRules& s);
/// Indices of the dice a +1 may raise: below 6, the first of each distinct value.
std::vector<int> raise_choices(const std::vector<int>& dice);
/// The pool with die `index` raised by `by` (at most 6), high to low again.
std::vector<int> raised(const std::vector<int>& dice, int index, int by = 1);
/// RAW Unfavourable: the highest die drops by one (a 1 stays a 1).
std::vector<int> unfavourable(const std::vector<int>& dice);
/// The Narrator's move the Danger Dice call for: ("" | "soft" | "hard", the die read or 0).
std::pair<std::string, int> consequence(IBand band, const std::vector<int>& danger, bool fray,
                                        const InvictusRules& s);

/// The Oracle's choice on a pending roll (InvictusResolution.oracle_choice) with the settings
/// given: the best Favourable raise; a Luck raise when it lifts the band enough.
OracleChoice oracle_choice(const InvictusRoll& roll, const std::vector<std::string>& options, const std::string& model,
                           int luck_now, const InvictusRules& s);

/// Invictus's dice for tests, shots and melee (invictus.py InvictusResolution).
class InvictusSystem : public RivenRolls {
 public:
  /// Throws RulesDataError when the rules carry no [invictus] table.
  explicit InvictusSystem(std::shared_ptr<const RulesConfig> rules);

  [[nodiscard]] const InvictusRules& settings() const { return rules_->invictus; }
  [[nodiscard]] static constexpr System system() { return System::Invictus; }

  /// The track's boxes (the profile's wounds) plus the overflow that is Death's Door.
  [[nodiscard]] int starting_wounds(int profile_wounds) const {
    return profile_wounds + settings().deaths_door_overflow;
  }
  /// {"luck": invictus.luck.start}.
  [[nodiscard]] int starting_luck() const { return settings().luck_start; }
  /// House: a shot's TN from invictus.cover.score (standard_tn - tn_step * score), hiding
  /// RIVEN's shooting.cover_tn so that soft and hard cover stay apart.
  [[nodiscard]] int shot_tn(const std::string& cover) const;

  /// A pending roll from the pool and Danger Dice as drawn (pure; `danger` may be shorter
  /// than the factors allow only if the caller drew fewer, which roll_test never does).
  [[nodiscard]] InvictusRoll make_roll(const std::string& kind, const std::string& attribute, int attribute_value,
                                       int tn, const std::vector<Modifier>& modifiers,
                                       const std::vector<Modifier>& score_modifiers, std::optional<int> opponent_value,
                                       const RollFacts& facts, const std::vector<int>& pool_faces,
                                       const std::vector<int>& danger_faces) const;
  /// The pool size and Danger Dice count a roll draws: (pool, danger).
  [[nodiscard]] std::pair<int, int> draws(const std::string& kind, int attribute_value, int tn,
                                          const std::vector<Modifier>& score_modifiers,
                                          std::optional<int> opponent_value, const RollFacts& facts) const;

  /// Roll the attribute's pool, then the Danger Dice (that order keeps games reproducible).
  template <class Rng>
  InvictusRoll roll_test(const std::string& kind, const std::string& attribute, int attribute_value, int tn,
                         const std::vector<Modifier>& modifiers, std::optional<int> opponent_value,
                         const RollFacts& facts, Rng& rng) const {
    return roll(kind, attribute, attribute_value, tn, modifiers, modifiers, opponent_value, facts, rng);
  }

  /// The attacker's Might pool (the Narrator never rolls); the defender's modifiers count
  /// against the attacker's circumstance, its higher Might is a Danger factor.
  template <class Rng>
  InvictusRoll start_melee(const Side& attacker, const Side& defender, Rng& rng) const {
    std::vector<Modifier> score = attacker.modifiers;
    for (const Modifier& m : defender.modifiers) {
      if (m.value != 0) score.push_back(Modifier{"defender " + m.source, -m.value});
    }
    InvictusRoll out = roll("melee", "might", attacker.might, settings().standard_tn, attacker.modifiers, score,
                            defender.might, attacker.facts, rng);
    out.is_melee = true;
    out.melee = defender.modifiers;
    return out;
  }

  /// `favour:I` while the Favourable raise is unused; `luck:I` while Luck lasts (`luck`: the
  /// chooser's Luck now, nullopt to read the Luck held when the roll was made).
  [[nodiscard]] std::vector<std::string> spend_options(const InvictusRoll& roll, std::optional<int> luck) const;
  /// Raise the chosen die (throws IllegalAction for an option not allowed now).
  [[nodiscard]] InvictusRoll apply_spend(const InvictusRoll& roll, const std::string& option) const;
  /// Every ("spend", option) the system can offer.
  [[nodiscard]] std::vector<std::string> choice_vocabulary() const;
  /// Close the roll: the band, the Narrator's move from the Danger Dice, Luck.
  [[nodiscard]] Result finalise(const InvictusRoll& roll) const;
  /// The Oracle's choice: the best Favourable raise; Luck when it lifts the band enough.
  [[nodiscard]] OracleChoice oracle_choice(const InvictusRoll& roll, const std::vector<std::string>& options,
                                           const std::string& model, int luck_now) const;

 private:
  template <class Rng>
  InvictusRoll roll(const std::string& kind, const std::string& attribute, int attribute_value, int tn,
                    const std::vector<Modifier>& modifiers, const std::vector<Modifier>& score_modifiers,
                    std::optional<int> opponent_value, const RollFacts& facts, Rng& rng) const {
    const auto [pool, danger] = draws(kind, attribute_value, tn, score_modifiers, opponent_value, facts);
    const std::vector<int> pool_faces = roll_dice(rng, pool, kFaces);
    const std::vector<int> danger_faces = roll_dice(rng, danger, kFaces);
    return make_roll(kind, attribute, attribute_value, tn, modifiers, score_modifiers, opponent_value, facts,
                     pool_faces, danger_faces);
  }
};

}  // namespace riven::rules::invictus
