// The Riddle of Steel (shared/rules/other-systems/riddle-of-steel-quickstart.txt) as a resolution
// system of the core: riven_env/rules/systems/{riddle_of_steel,ros_dice}.py, draw for draw.
//
// Every roll is a pool of d10 against a TN: each die at or above it is a success; a die showing
// the highest face is rerolled and the new face added (Stacking, at most max_stacks times, and
// only where the TN is above the highest face); no success and fumble_ones 1s is a Fumble. A
// RIVEN test is an Attribute Test read as RIVEN's bands by successes. A melee is a Combat Round
// of exchanges (MeleeSession): each fighter splits its Combat Pool between attack and defence,
// declaring a manoeuvre, a Target Zone, a defence, a Feint, step by step; the contest by
// successes decides the hit, and damage goes through the Damage Table. Every number comes from
// the `[riddle_of_steel]` table (RulesConfig::riddle_of_steel); RIVEN's engine keeps activation,
// morale, Out checks and the Complication Oracle.
//
// A session is a value: each choice gives the next one. Its events (ros_round, ros_exchange,
// ros_steal, ros_round_end) and its effects on the game (Pain, wounds, Down, Out, Conditions)
// are records the caller writes and applies (riven_env/game/choices.py).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "riven/rules/config.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/results.hpp"
#include "riven/rules/riven_rolls.hpp"

namespace riven::rules::riddle_of_steel {

inline constexpr std::string_view kName = "riddle-of-steel";
inline constexpr std::string_view kNoDefence = "none";
inline constexpr std::string_view kNoFeint = "none";
inline constexpr std::string_view kSteal = "steal";
inline constexpr std::string_view kKeep = "keep";
/// The game's per-model state RoS keeps between melees: Pain (choices.py pain_of).
inline constexpr std::string_view kPainKey = "pain";
// The manoeuvres a rule names (ros_data.py requires the defences; the Oracle's attack rule
// tries the attacks by name and skips any the data lacks).
inline constexpr std::string_view kDodgeBreak = "dodge_break";
inline constexpr std::string_view kDodgeStand = "dodge_stand";
inline constexpr std::string_view kDuckWeave = "duck_weave";
inline constexpr std::string_view kCounter = "counter";
inline constexpr std::string_view kBlock = "block";
inline constexpr std::string_view kParry = "parry";

/// What is asked next in a Combat Round (riddle_of_steel.py STEP_*).
enum class Step : std::uint8_t { Attack, AttackDice, Defence, DefenceDice, Feint, Steal, Done };
std::string_view step_name(Step step);
/// The step named `name` (throws RulesDataError otherwise).
Step step_from_name(std::string_view name);

// ------------------------------------------------------------------ the dice
/// A pool rolled against a TN (ros_dice.py PoolRoll).
struct PoolRoll {
  int tn = 0;
  std::vector<std::vector<int>> faces;  // each die's faces: the first, then any stacks
  std::vector<int> totals;              // each die's faces added
  int successes = 0;
  int ones = 0;  // dice whose first face was 1
  bool fumble = false;
  [[nodiscard]] int dice() const { return static_cast<int>(totals.size()); }
  bool operator==(const PoolRoll&) const = default;
};

/// Read a pool from known faces (pure).
PoolRoll pool_from_faces(std::vector<std::vector<int>> faces, int tn, const RiddleOfSteelRules& s);

/// Roll `dice` d10 against `tn`: one draw per face, a die's stacks right after it.
template <class Rng>
PoolRoll roll_pool(int dice, int tn, Rng& rng, const RiddleOfSteelRules& s) {
  const bool stacking = tn > s.faces;
  std::vector<std::vector<int>> faces;
  faces.reserve(static_cast<std::size_t>(std::max(0, dice)));
  for (int i = 0; i < dice; ++i) {
    std::vector<int> die{static_cast<int>(rng.integers(1, s.faces + 1))};
    while (stacking && die.back() >= s.stack_on && static_cast<int>(die.size()) <= s.max_stacks) {
      die.push_back(static_cast<int>(rng.integers(1, s.faces + 1)));
    }
    faces.push_back(std::move(die));
  }
  return pool_from_faces(std::move(faces), tn, s);
}

/// The RIVEN band a count of successes reads as (a Fumble is always a Miss).
Band band_for(int successes, bool fumble, const RiddleOfSteelRules& s);

// ------------------------------------------------------------------ a RIVEN profile in RoS terms
/// What RoS reads of a RIVEN profile: its attributes and its melee weapon.
struct Profile {
  int might = 0;
  int agility = 0;
  int wit = 0;
  int resolve = 0;
  int mettle = 0;
  std::optional<std::string> melee;       // the melee weapon's name (nullopt: unarmed)
  std::vector<std::string> melee_traits;  // its traits
  /// The RIVEN attribute named `name` (throws RulesDataError on an unknown name).
  [[nodiscard]] int attribute(std::string_view name) const;
  bool operator==(const Profile&) const = default;
};

/// The RoS attributes of a profile: the four read from RIVEN's and the two derived ones.
struct Attributes {
  int brawn = 0;
  int agility = 0;
  int wits = 0;
  int presence = 0;
  int coordination = 0;  // (Agility + Wits) // 2
  int resistance = 0;    // (Brawn + Presence) // 2
};

Attributes ros_attributes(const Profile& profile, const RiddleOfSteelRules& s);
/// Weapon Proficiency from Mettle: base - mettle, at least min (House).
int proficiency(const Profile& profile, const RiddleOfSteelRules& s);
/// The profile's melee weapon in RoS numbers (by name, else the default plus its traits).
RosWeapon ros_weapon(const Profile& profile, const RiddleOfSteelRules& s);
/// Coordination + Proficiency (RAW), before Pain and modifiers.
int combat_pool(const Profile& profile, const RiddleOfSteelRules& s);
/// Combat Pool dice from RIVEN melee modifiers (those from ignored sources left out).
int modifier_dice(const std::vector<Modifier>& modifiers, const RiddleOfSteelRules& s);

/// One side of a melee as the session needs it (riddle_of_steel.py Fighter).
struct Fighter {
  int index = 0;
  std::string id;
  int pool = 0;
  int brawn = 0;
  int presence = 0;
  int resistance = 0;
  int proficiency = 0;
  RosWeapon weapon;
  std::optional<RosShield> shield;
  int wounds = 0;
  bool operator==(const Fighter&) const = default;
};

Fighter make_fighter(int index, std::string id, const Profile& profile, int wounds, int pain,
                     const std::vector<Modifier>& modifiers, const RiddleOfSteelRules& s);
/// Armour at `zone`: the shield's passive protection where it covers.
int zone_armour(const Fighter& fighter, std::string_view zone);
/// Damage Rating + margin + manoeuvre's levels - defender's Brawn - armour (RAW).
int wound_level(const Fighter& attacker, const Fighter& defender, std::string_view zone, int margin, int extra);

// ------------------------------------------------------------------ the session's records
/// What the game applies when a round is done (riddle_of_steel.py's effect tuples).
enum class EffectKind : std::uint8_t { Pain, Wound, Down, Out, Condition };
std::string_view effect_name(EffectKind kind);
EffectKind effect_from_name(std::string_view name);

struct Effect {
  EffectKind kind = EffectKind::Pain;
  int index = 0;          // the model's game index
  int amount = 0;         // Pain, Wound
  std::string condition;  // Condition
  bool operator==(const Effect&) const = default;
};

/// A fighter's id with a number (the events' {id: n} objects, fighters' order).
using ByFighter = std::vector<std::pair<std::string, int>>;

/// The `ros_round` event.
struct RoundStartEvent {
  std::string attacker;
  std::string defender;
  ByFighter pools;
  std::vector<std::pair<std::string, RosWeapon>> weapons;
  ByFighter brawn;
  bool operator==(const RoundStartEvent&) const = default;
};

/// A knockdown test's record (the exchange's `knockdown`).
struct KnockdownRecord {
  int resistance = 0;
  int tn = 0;
  std::vector<int> dice;
  int successes = 0;
  bool prone = false;
  bool operator==(const KnockdownRecord&) const = default;
};

/// A hit's damage (the exchange's damage keys; the wound keys only from level 1).
struct HitRecord {
  int damage = 0;
  int armour = 0;
  int wound_level = 0;
  std::string wound_text;
  bool wounded = false;  // level >= 1: shock .. riven_wounds are written
  int shock = 0;
  int pain = 0;
  int bl = 0;
  std::string effect;
  int riven_wounds = 0;
  std::optional<KnockdownRecord> knockdown;
  bool operator==(const HitRecord&) const = default;
};

/// Who won the exchange.
enum class ExchangeOutcome : std::uint8_t { Hit, Tie, Defended };
std::string_view outcome_name(ExchangeOutcome outcome);

/// The `ros_exchange` event, its keys in the Python record's order.
struct ExchangeEvent {
  int exchange = 0;
  std::string attacker;
  std::string defender;
  std::string manoeuvre;
  std::string zone;
  std::string zone_name;
  std::string feint;  // "" is written null
  std::vector<int> attack_dice;
  std::vector<std::vector<int>> attack_faces;
  int attack_bonus_dice = 0;
  int atn = 0;
  int attack_successes = 0;
  bool attack_fumble = false;
  std::string defence;
  std::vector<int> defence_dice;
  std::optional<int> dtn;  // null without a defence
  int defence_successes = 0;
  bool defence_fumble = false;
  bool counter_failed = false;
  int margin = 0;
  ExchangeOutcome outcome = ExchangeOutcome::Tie;
  std::optional<HitRecord> hit;              // outcome Hit
  std::string steal;                         // Dodge and Stand won: "free" | "may pay" ("" unset)
  std::optional<int> attacker_pool_lost;     // Duck and Weave won
  std::optional<int> counter_bonus;          // Counter won
  std::string initiative;
  ByFighter pools;
  bool operator==(const ExchangeEvent&) const = default;
};

/// The `ros_steal` event.
struct StealEvent {
  std::string model;
  bool stole = false;
  int cost = 0;
  bool operator==(const StealEvent&) const = default;
};

/// The `ros_round_end` event.
struct RoundEndEvent {
  std::string reason;
  int exchanges = 0;
  ByFighter pools;
  bool operator==(const RoundEndEvent&) const = default;
};

using SessionEvent = std::variant<RoundStartEvent, ExchangeEvent, StealEvent, RoundEndEvent>;
/// The event's `type` (ros_round, ros_exchange, ros_steal, ros_round_end).
std::string_view event_type(const SessionEvent& event);

// ------------------------------------------------------------------ the melee session
/// One Combat Round between two fighters (riddle_of_steel.py MeleeSession). Role 0 started the
/// fight and attacks first; `attacker` is the role attacking in the current exchange.
struct MeleeSession {
  std::array<Fighter, 2> fighters;
  std::array<int, 2> pools{};  // Combat Pool dice left to each role this round
  int exchanges = 2;
  int exchange = 1;
  int attacker = 0;
  Step step = Step::Attack;
  std::string manoeuvre;
  std::string zone;
  int attack_dice = 0;
  std::string defence;
  int defence_dice = 0;
  std::string feint;            // "" or "FROM>TO:dice" once a Feint is called
  std::array<int, 2> bonus{};   // dice each role adds to its next attack (a won Counter)
  std::optional<int> last_attacker;
  bool pending_steal = false;
  std::vector<Effect> effects;
  std::vector<SessionEvent> new_events;  // not yet written to the log
  std::string end_reason;

  [[nodiscard]] int defender() const { return 1 - attacker; }
  [[nodiscard]] bool done() const { return step == Step::Done; }
  /// The role that must choose now.
  [[nodiscard]] int decider() const {
    return step == Step::Defence || step == Step::DefenceDice || step == Step::Steal ? defender() : attacker;
  }
  /// The game index of the model that must choose now.
  [[nodiscard]] int decider_index() const { return fighters[static_cast<std::size_t>(decider())].index; }
  bool operator==(const MeleeSession&) const = default;
};

/// The largest dice count (and Feint's added dice) a game's option vocabulary names by default.
inline constexpr int kMostDice = 64;
/// Every option a Combat Round may offer (a native game's `choose` vocabulary): each attack at
/// each zone, dice counts 0..most, none, each defence, each zone's Feint with 0..most added
/// dice, steal and keep; each once, in that order (riven_env/native/riddle_of_steel.py
/// option_vocabulary gives the same list).
std::vector<std::string> option_vocabulary(const RiddleOfSteelRules& s, int most = kMostDice);

/// The options legal at the session's step (empty once done).
std::vector<std::string> choice_options(const MeleeSession& session, const RiddleOfSteelRules& s);
/// The defence's DTN (the weapon's or the shield's when the data says so).
int defence_tn(const MeleeSession& session, std::string_view defence, const RiddleOfSteelRules& s);

namespace detail {
// One step of the session; a roll draws from the stream. Defined in riddle_of_steel_session.hpp
// (templates on the stream type).
template <class Rng>
MeleeSession apply_step(MeleeSession session, const std::string& option, Rng& rng, const RiddleOfSteelRules& s);
}  // namespace detail

/// The Oracle's option at the session's step, with its rule id and its reason (its stance by
/// name; an unknown one reads as the default stance).
OracleChoice oracle_choice(const MeleeSession& session, const std::vector<std::string>& legal,
                           const std::string& stance_name, const RiddleOfSteelRules& s);
/// The stance an Oracle profile plays (stances_by_profile, else default_stance).
const std::string& stance_for(const std::optional<std::string>& oracle_profile, const RiddleOfSteelRules& s);

// ------------------------------------------------------------------ tests
/// A RIVEN test rolled as an RoS Attribute Test (riddle_of_steel.py RosTestRoll / RosTestResult:
/// both carry the same fields, `total` of the result is the successes).
struct RosTest {
  std::string kind;
  std::string attribute;
  int attribute_value = 0;
  std::vector<Modifier> modifiers;
  int tn = 0;
  std::vector<int> dice;  // the die totals
  Band rolled_result = Band::Miss;
  Band result = Band::Miss;
  int pool = 0;
  int successes = 0;
  bool fumble = false;
  std::vector<std::vector<int>> faces;
  std::string ros_attribute;
  bool operator==(const RosTest&) const = default;
};

/// The RoS TN of a RIVEN test: a shot's is RoS already; others map by the nearest RIVEN TN.
int ros_test_tn(std::string_view kind, int tn, const RiddleOfSteelRules& s);
/// The dice and RoS attribute of a test (pure: the pool before it is rolled).
std::pair<int, std::string> test_pool(const std::string& attribute, int attribute_value,
                                      const std::vector<Modifier>& modifiers, const RiddleOfSteelRules& s);

/// The Riddle of Steel's dice for tests, shots and melee (riddle_of_steel.py
/// RiddleOfSteelResolution); activation, morale, Out checks and the Complication Oracle are RIVEN's.
class RiddleOfSteelSystem : public RivenRolls {
 public:
  /// Throws RulesDataError when the rules carry no [riddle_of_steel] table.
  explicit RiddleOfSteelSystem(std::shared_ptr<const RulesConfig> rules);

  [[nodiscard]] const RiddleOfSteelRules& settings() const { return rules_->riddle_of_steel; }
  [[nodiscard]] static constexpr System system() { return System::RiddleOfSteel; }

  /// An Attribute Test (riddle_of_steel.py roll_ros_test).
  template <class Rng>
  RosTest roll_test(const std::string& kind, const std::string& attribute, int attribute_value, int tn,
                    const std::vector<Modifier>& modifiers, Rng& rng) const {
    const auto [pool, ros_name] = test_pool(attribute, attribute_value, modifiers, settings());
    return make_test(kind, attribute, attribute_value, modifiers,
                     roll_pool(pool, ros_test_tn(kind, tn, settings()), rng, settings()), ros_name);
  }
  /// The test record from its rolled pool (pure).
  [[nodiscard]] RosTest make_test(const std::string& kind, const std::string& attribute, int attribute_value,
                                  const std::vector<Modifier>& modifiers, PoolRoll roll,
                                  const std::string& ros_name) const;

  /// The shot's ATN: shooting.atn plus the cover step (throws RulesDataError on an unknown cover).
  [[nodiscard]] int shot_tn(const std::string& cover) const;

  /// A fighter from a RIVEN model (riddle_of_steel.py make_fighter).
  [[nodiscard]] Fighter fighter(int index, std::string id, const Profile& profile, int wounds, int pain,
                                const std::vector<Modifier>& modifiers) const {
    return make_fighter(index, std::move(id), profile, wounds, pain, modifiers, settings());
  }

  /// Start a Combat Round (role 0 attacks first) and advance to its first real choice.
  template <class Rng>
  MeleeSession open_session(const Fighter& attacker, const Fighter& defender, Rng& rng) const;
  /// Apply one legal option (throws RulesDataError otherwise), rolling when the exchange is
  /// declared, then advance through the steps with a single option.
  template <class Rng>
  MeleeSession apply_choice(const MeleeSession& session, const std::string& option, Rng& rng) const;
  [[nodiscard]] std::vector<std::string> choice_options(const MeleeSession& session) const {
    return riddle_of_steel::choice_options(session, settings());
  }
  /// The Oracle's choice under the stance its profile names (the default stance otherwise).
  [[nodiscard]] OracleChoice oracle_session_choice(const MeleeSession& session, const std::vector<std::string>& legal,
                                                   const std::optional<std::string>& oracle_profile) const;
  /// The stance an Oracle profile plays (stances_by_profile, else default_stance).
  [[nodiscard]] const std::string& stance_for(const std::optional<std::string>& oracle_profile) const;

 private:
  template <class Rng>
  MeleeSession advance(MeleeSession session, Rng& rng) const;
};

}  // namespace riven::rules::riddle_of_steel

#include "riven/rules/systems/riddle_of_steel_session.hpp"
