// The native game state: the data layout of riven_env/game/state.py's GameState, flat and
// value-semantic so that search can copy it thousands of times.
//
// Layout: everything that never changes in a game (model ids, sides, profiles, objectives, the
// table size, the vocabularies of names) lives in one immutable GameStatic shared by every copy
// (a shared_ptr: copying a state bumps a reference count). Everything that changes lives in the
// GameState itself: one trivially copyable Model record per model (position, base, wounds,
// status, Conditions in gain order, resources, activation flags, last position), a small vector
// of Momentum pools, the scalars of the turn sequence, the pending roll as a fixed-size record,
// and the random stream. A copy is therefore a handful of memcpy-like vector copies and no
// per-model heap allocation.
//
// Strings of the Python state become ids into the static vocabularies (actions, Conditions,
// options, destination kinds, owners, oracle profiles); the few open-ended strings of a pending
// roll (modifier sources, spends) are InlineName values stored in place.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "riven/rules/pcg64.hpp"
#include "riven/rules/systems/riddle_of_steel.hpp"

namespace riven::game {

inline constexpr int kSides = 2;  // 0 blue, 1 red (riven_env.game.state.SIDES order)
inline constexpr std::size_t kMaxConditions = 16;
inline constexpr std::size_t kMaxResources = 4;
inline constexpr std::size_t kMaxTakenActions = 16;
inline constexpr std::size_t kMaxModifiers = 12;
inline constexpr std::size_t kMaxSpends = 12;
inline constexpr std::size_t kMaxObjectives = 64;  // looted is a 64-bit mask
inline constexpr std::size_t kNameCapacity = 31;
// An Invictus pending roll (riven/rules/systems/invictus.hpp): its pool, Danger Dice, factors
// and raises, within what the `[invictus]` data allows (invictus.py parse_section's bounds).
inline constexpr std::size_t kMaxPoolDice = 10;      // invictus.pool.max_dice at most
inline constexpr std::size_t kMaxDangerDice = 3;     // invictus.danger.max_dice at most
inline constexpr std::size_t kMaxDangerFactors = 5;  // invictus.py FACTORS
inline constexpr std::size_t kMaxRaises = 64;        // each raise lifts a die below 6: 10 dice x 5 at most
// A New World pending roll's helpers (new_world.helpers.max is 2 at most: new_world.py).
inline constexpr std::size_t kMaxHelpers = 2;

enum class Status : std::uint8_t { Active = 0, Down = 1, Out = 2, Fled = 3, Extracted = 4 };
enum class Phase : std::uint8_t { Activate = 0, Action = 1, Spend = 2, Choice = 3, Over = 4 };
enum class Band : std::uint8_t { Miss = 0, Partial = 1, Hit = 2, Critical = 3 };

inline constexpr std::array<std::string_view, 5> kStatusNames{"active", "down", "out", "fled", "extracted"};
inline constexpr std::array<std::string_view, 5> kPhaseNames{"activate", "action", "spend", "choice", "over"};
inline constexpr std::array<std::string_view, 4> kBandNames{"miss", "partial", "hit", "critical"};
inline constexpr std::array<std::string_view, 2> kSideNames{"blue", "red"};

/// A short string stored in place (no heap): open-ended names of a pending roll.
class InlineName {
 public:
  InlineName() = default;
  /// Throws std::invalid_argument when `text` is longer than kNameCapacity bytes.
  explicit InlineName(std::string_view text);
  [[nodiscard]] std::string_view view() const { return {chars_.data(), length_}; }
  [[nodiscard]] bool empty() const { return length_ == 0; }
  friend bool operator==(const InlineName& a, const InlineName& b) { return a.view() == b.view(); }

 private:
  std::array<char, kNameCapacity> chars_{};
  std::uint8_t length_ = 0;
};

/// Index of `name` in `names`, or -1.
int find_name(const std::vector<std::string>& names, std::string_view name);

// ------------------------------------------------------------------ immutable part
/// A model profile's numbers (riven_env/rules/profiles.py ModelProfile).
struct Profile {
  std::string name;
  int might = 0;
  int agility = 0;
  int wit = 0;
  int resolve = 0;
  int mettle = 0;
  int wounds = 0;
  double move = 0.0;
  double base_diameter = 0.0;
  bool has_melee = false;
  int melee_modifier = 0;
  bool has_ranged = false;
  double ranged_range = 0.0;
  int ranged_modifier = 0;
  std::vector<std::string> keywords;  // sorted
};

/// An objective of the scenario (riven_env/scenario/schema.py Objective).
struct Objective {
  std::string name;
  double x = 0.0;
  double y = 0.0;
  double radius = 0.0;
  std::string kind;
  int points = 0;
};

/// What never changes in a game, shared by every copy of its states.
struct GameStatic {
  // Models, by model index.
  std::vector<std::string> model_ids;
  std::vector<std::uint8_t> model_sides;    // 0 blue, 1 red
  std::vector<std::int32_t> model_profile;  // index into profiles
  std::vector<std::int32_t> model_oracle;   // index into oracle_names, -1 for None
  std::vector<Profile> profiles;
  std::vector<std::string> oracle_names;
  std::vector<Objective> objectives;
  double table_width = 0.0;
  double table_height = 0.0;
  int round_limit = 0;
  std::uint8_t first_side = 0;
  // Momentum pools: owner names (a side, or a hero's id) and each side's owner index.
  std::vector<std::string> owners;
  std::array<std::int32_t, kSides> side_owner{0, 1};
  // Vocabularies (rules order): actions of the rules data, Conditions, resources of the
  // resolution system, decision options (spend/allocate/choose), destination kinds.
  std::vector<std::string> actions;
  std::vector<std::string> conditions;
  std::vector<std::string> resources;
  std::vector<std::string> options;
  std::vector<std::string> destination_kinds;
  std::vector<std::string> system_keys;  // names of the per-model system state entries
  std::string setting;

  [[nodiscard]] std::size_t model_count() const { return model_ids.size(); }
  /// Throws std::invalid_argument when the vectors disagree in length or a limit is passed.
  void validate() const;
};

/// A 64-bit id of the game a GameStatic describes (FNV-1a over what a forward model reads of
/// it: models, profiles' names, objectives, table, round limit, vocabularies, setting; not the
/// first side, which a rolled mission's states differ by), the fields of
/// riven_env/native/loop.py game_fingerprint. A ForwardModel and every GameState keep it, so that
/// a state of another game is refused with one integer compare (issue 39.4).
[[nodiscard]] std::uint64_t game_fingerprint(const GameStatic& statics);

// ------------------------------------------------------------------ mutable part
/// One Condition held: its id (GameStatic::conditions) and activations begun since gained.
struct ConditionSlot {
  std::int16_t id = 0;
  std::int16_t count = 0;
};

/// One model's mutable state (ModelState plus its base); trivially copyable.
struct Model {
  double x = 0.0;
  double y = 0.0;
  double radius = 0.0;
  double last_x = 0.0;  // last_position[i] when has_last_position
  double last_y = 0.0;
  std::int32_t wounds = 0;
  std::int32_t strain = 0;
  std::int32_t aim_bonus = 0;
  std::int32_t wounds_max = 0;
  Status status = Status::Active;
  bool on_table = true;
  bool stable = false;
  bool activated = false;
  bool hunkered = false;
  bool moved_or_attacked = false;
  bool rested = false;
  bool focused = false;
  bool charged = false;
  bool has_last_position = false;
  std::uint8_t condition_count = 0;
  std::uint8_t resource_mask = 0;  // bit r: resources[r] present
  std::array<ConditionSlot, kMaxConditions> conditions{};  // in gain order
  std::array<std::int32_t, kMaxResources> resources{};

  [[nodiscard]] bool is_active() const { return status == Status::Active; }
  [[nodiscard]] bool is_down() const { return status == Status::Down; }
  [[nodiscard]] bool is_on_table_status() const { return status == Status::Active || status == Status::Down; }
  /// The slot of Condition `id`, or -1.
  [[nodiscard]] int condition_slot(int id) const;
  [[nodiscard]] bool has_condition(int id) const { return condition_slot(id) >= 0; }
  /// Gain Condition `id` (count 0) at the end of the gain order; no-op when held.
  void gain_condition(int id);
  /// Lose Condition `id`, keeping the order of the others; no-op when not held.
  void lose_condition(int id);
};

/// A named modifier of a roll (riven_env/rules/results.py Modifier).
struct Modifier {
  InlineName source;
  std::int32_t value = 0;
};

/// A 2d6 test rolled but not finalised (results.py TestRoll), stored in place.
struct TestRoll {
  InlineName kind;
  InlineName attribute;
  std::int32_t attribute_value = 0;
  std::uint8_t modifier_count = 0;
  std::array<Modifier, kMaxModifiers> modifiers{};
  std::int32_t tn = 0;
  std::array<std::int32_t, 2> dice{};
  Band rolled_result = Band::Miss;
  Band result = Band::Miss;
  std::uint8_t spend_count = 0;
  std::array<InlineName, kMaxSpends> spends{};
  std::int32_t momentum_spent = 0;
  std::int32_t strain_taken = 0;
  std::int32_t critical_momentum = 0;

  [[nodiscard]] int total() const;
  [[nodiscard]] int margin() const { return total() - tn; }
};

/// The context of a pending roll (the dict of GameState.pending[2]): what action rolled it and
/// what it was aimed at. Absent keys are -1.
struct PendingContext {
  std::int16_t action = -1;  // GameStatic::actions
  std::int16_t target = -1;
  std::int16_t objective = -1;
  InlineName cover;  // empty: no "cover" key
  bool has_destination = false;
  std::int16_t destination_kind = -1;  // GameStatic::destination_kinds
  std::int32_t destination_ref = -1;   // -1: None
};

/// What an Invictus pending roll (invictus.py InvictusRoll) holds beyond TestRoll's kind,
/// attribute, attribute_value, modifiers and tn (which Pending::roll keeps, with `result` and
/// `rolled_result` its RIVEN bands). The pool size is `dice_count`.
struct InvictusPart {
  std::uint8_t dice_count = 0;
  std::array<std::int8_t, kMaxPoolDice> dice{};         // as it stands, high to low
  std::array<std::int8_t, kMaxPoolDice> rolled_dice{};  // as rolled, high to low
  std::uint8_t danger_count = 0;
  std::array<std::int8_t, kMaxDangerDice> danger{};  // in draw order
  std::uint8_t factor_count = 0;
  std::array<std::uint8_t, kMaxDangerFactors> factors{};  // rules::invictus::kDangerFactors ids, data order
  bool fray = false;
  bool favourable = false;  // the Favourable raise is still to be used
  bool unfavourable = false;
  bool critical_health = false;
  bool is_melee = false;
  std::int32_t score = 0;
  std::int32_t luck_held = 0;
  std::int32_t luck_spent = 0;
  std::uint8_t rolled_band = 0;  // Invictus's band tier (0 miss .. 3 crit)
  std::uint8_t raise_count = 0;
  std::array<std::uint8_t, kMaxRaises> raises{};  // the spends in order: kLuckRaise | die index
  std::uint8_t melee_count = 0;
  std::array<Modifier, kMaxModifiers> melee{};  // a melee's defender modifiers (is_melee)

  static constexpr std::uint8_t kLuckRaise = 0x80;  // a raise's bit: Luck (else the Favourable raise)
};

/// What a New World pending roll (new_world.py NewWorldRoll) holds beyond TestRoll's kind,
/// attribute, attribute_value, modifiers, tn, dice (the roller's 2d6; zeros while unrolled) and
/// spends (`help:K`, `luck`, `defender:luck`), whose `result` and `rolled_result` are the bands
/// of the roll as it stands and as rolled.
struct NewWorldPart {
  std::int32_t bonus = 0;
  std::int32_t difficulty = 0;
  bool rolled = true;
  bool target_chooses = false;  // chooser "target": a melee's defender decides
  bool is_melee = false;
  std::int8_t helpers_available = 0;
  std::int8_t helpers = 0;
  std::uint8_t helper_count = 0;
  std::array<std::int16_t, kMaxHelpers> helper_models{};  // nearest first
  std::int32_t luck_held = 0;
  std::int32_t luck_spent = 0;
  std::array<std::int8_t, 2> melee_dice{};  // the defender's 2d6 (is_melee)
  std::int32_t melee_bonus = 0;
  std::uint8_t melee_count = 0;
  std::array<Modifier, kMaxModifiers> melee{};  // the defender's modifiers (is_melee)
  std::int32_t defender_luck_held = 0;
  std::int32_t defender_luck_spent = 0;
  std::int32_t rolled_total = 0;
  std::int32_t margin = 0;  // NewWorldRoll.margin as it stands (the observation reads it)
};

/// GameState.pending: the roll, the rolling model and the context; `invictus` when the roll
/// is an Invictus one (its own part in `inv`), `new_world` when a New World one (`nw`).
struct Pending {
  TestRoll roll;
  std::int32_t model = -1;
  PendingContext context;
  bool invictus = false;
  InvictusPart inv;
  bool new_world = false;
  NewWorldPart nw;
};

/// An optional value kept on the heap and copied deeply: a large member that is rarely set stays
/// out of the state's own bytes (a search copies states by the thousand; copying an empty one
/// is a null check).
template <class T>
class HeapOptional {
 public:
  HeapOptional() = default;
  HeapOptional(const HeapOptional& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  HeapOptional& operator=(const HeapOptional& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  HeapOptional(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(HeapOptional&&) noexcept = default;
  ~HeapOptional() = default;
  HeapOptional& operator=(T value) {
    value_ = std::make_unique<T>(std::move(value));
    return *this;
  }

  [[nodiscard]] bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  void reset() { value_.reset(); }

 private:
  std::unique_ptr<T> value_;
};

/// A melee whose resolution is a round of choices (The Riddle of Steel's Combat Round): the
/// session, the model that started it and its foe (GameState.pending = (session, model,
/// {"action": "melee", "target": target}) in the choice phase). The session's events are
/// written as they happen, so its `new_events` is always empty here.
struct ChoicePending {
  rules::riddle_of_steel::MeleeSession session;
  std::int32_t model = -1;
  std::int32_t target = -1;
};

/// One entry of GameState.system_state: (key name, model) -> value.
struct SystemEntry {
  std::int16_t key = 0;  // GameStatic::system_keys
  std::int16_t model = 0;
  std::int32_t value = 0;
  friend bool operator==(const SystemEntry&, const SystemEntry&) = default;
};

/// A game in progress: the mutable state plus the shared static part.
struct GameState {
  std::shared_ptr<const GameStatic> statics;
  std::vector<Model> models;
  std::vector<std::int32_t> momentum;  // by owner (GameStatic::owners)
  std::array<std::int64_t, kSides> points{};  // a score may be 2**31 - 1, so totals need 64 bits
  std::int32_t round = 1;
  std::uint8_t side = 0;
  std::uint8_t turn_index = 0;
  bool in_turn = false;
  Phase phase = Phase::Activate;
  std::int32_t active_model = -1;
  std::int32_t last_activated = -1;
  std::int32_t actions_left = 0;
  bool turn_passes_after = false;
  std::uint8_t taken_count = 0;
  std::array<std::int16_t, kMaxTakenActions> taken_actions{};  // GameStatic::actions
  std::optional<Pending> pending;
  HeapOptional<ChoicePending> choice;  // the choice phase's melee (pending is empty then)
  std::int8_t decider = -1;  // -1: None
  std::vector<SystemEntry> system_state;
  std::uint64_t looted = 0;                 // bit k: objective k looted
  std::uint8_t half_strength_tested = 0;    // bit s: side s tested
  bool over = false;
  std::int8_t winner = -1;  // -1: None
  InlineName end_reason;    // empty: None
  std::int64_t seq = 0;
  rules::Pcg64 rng;
  std::uint64_t game_id = 0;  // game_fingerprint(*statics), set by initial()

  /// A state at the start of a game: every model active at its position, Momentum at `momentum_start`.
  static GameState initial(std::shared_ptr<const GameStatic> statics, std::int32_t momentum_start);

  [[nodiscard]] const GameStatic& info() const { return *statics; }
  [[nodiscard]] std::size_t model_count() const { return models.size(); }
  [[nodiscard]] int model_side(std::size_t i) const { return statics->model_sides[i]; }
  [[nodiscard]] int momentum_of(int side_index) const;
  [[nodiscard]] bool is_looted(std::size_t k) const { return k < 64 && ((looted >> k) & 1U) != 0; }
  /// GameState.current_side: -1 when over; the decider; the chooser's side on a pending spend.
  [[nodiscard]] int current_side() const;
  /// Bytes owned by this state (the object plus its own heap blocks; the static part excluded).
  [[nodiscard]] std::size_t owned_bytes() const;
  /// Throws std::invalid_argument when the state does not fit its static part.
  void validate() const;
};

}  // namespace riven::game
