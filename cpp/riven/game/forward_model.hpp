// The forward model (TAG style): what the game loop reads besides the state. The state
// (cpp/riven/game/state.hpp) holds what changes; the ForwardModel holds what a game's rules
// are: the native rules data and its resolution system, the native table with its registered
// radii, the routing seam, the action catalogue ([actions.*]), the profiles' weapons and the
// scenario's victory conditions. One ForwardModel serves every state (and copy) of a game.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "riven/game/planner.hpp"
#include "riven/game/state.hpp"
#include "riven/rules/conditions.hpp"
#include "riven/rules/config.hpp"
#include "riven/rules/resolution.hpp"
#include "riven/table/table.hpp"

namespace riven::game {

/// The action handlers the loop has (riven_env/game/actions.py _HANDLERS, plus end).
enum class ActionKind : std::uint8_t {
  Move,
  Charge,
  Melee,
  Shoot,
  Aim,
  Disengage,
  Focus,
  Rest,
  Stabilise,
  Rally,
  Interact,
  TakeCover,
  End
};

/// One [actions.NAME] entry (riven_env/rules/actions.py ActionSpec), the fields the loop reads.
struct ActionSpec {
  std::string name;
  int cost = 0;
  std::string attribute;
  std::string difficulty;
  bool once_per_activation = false;
  std::vector<std::string> excludes;  // sorted
  std::string applies;
  std::vector<std::string> removes;  // sorted
};

/// One victory condition of the scenario (riven_env/scenario/schema.py VictoryCondition).
struct VictoryCondition {
  std::string type;
  int side = -1;  // 0 blue, 1 red, -1 None
  std::vector<std::string> models;
  bool has_zone = false;
  std::array<double, 4> zone{};
  int points = 0;
  bool win = false;
  int from_round = 1;
  int min_models = 1;
};

struct ForwardModel {
  std::shared_ptr<const rules::RulesConfig> rules;
  std::shared_ptr<const table::TableGeometry> table;
  std::shared_ptr<const Planner> planner;
  std::vector<ActionSpec> actions;                  // GameStatic::actions order
  std::vector<std::optional<rules::Weapon>> melee;  // by profile
  std::vector<std::optional<rules::Weapon>> ranged;  // by profile
  rules::Weapon unarmed;
  std::vector<VictoryCondition> victory;
  std::string at_round_limit = "points";  // points | draw | side:NAME
  double contact_tolerance = 0.02;

  // Derived by prepare().
  std::uint64_t game_id = 0;  // game_fingerprint of the GameStatic it was prepared for
  std::vector<ActionKind> action_kinds;  // by action id
  std::array<int, 13> action_id{};       // by ActionKind, -1 when the data lacks it
  rules::ConditionLimits no_limits;
  std::vector<std::string> engaged_forbids;  // sorted
  std::vector<int> spend_option;             // option id by rules::Spend
  int accept_option = -1;
  int objective_kind = -1;  // GameStatic::destination_kinds "objective"
  // Invictus (meta.resolution = "invictus"): its engine, and the option id of each raise
  // (`favour:I` at I, `luck:I` at kMaxPoolDice + I; -1 when the vocabulary lacks it).
  std::optional<rules::invictus::InvictusSystem> invictus;
  std::array<int, 2 * kMaxPoolDice> raise_option{};
  // New World (meta.resolution = "new-world"): its engine, the option id of `help:K` at K and
  // of `luck` (-1 when the vocabulary lacks it).
  std::optional<rules::new_world::NewWorldSystem> new_world;
  std::array<int, kMaxHelpers + 1> help_option{};
  int luck_option = -1;
  // The Riddle of Steel (meta.resolution = "riddle-of-steel"): its engine (melee is a Combat
  // Round of `choose` decisions, each option a name of GameStatic::options).
  std::optional<rules::riddle_of_steel::RiddleOfSteelSystem> riddle_of_steel;

  /// Check the model against the game's static part and derive the lookups. Throws
  /// rules::NotPorted for a resolution system the core lacks, std::invalid_argument for an
  /// action the loop has no handler for or a vocabulary that does not fit.
  void prepare(const GameStatic& statics);

  [[nodiscard]] const ActionSpec& spec(ActionKind kind) const;
  [[nodiscard]] int id(ActionKind kind) const { return action_id[static_cast<std::size_t>(kind)]; }
};

/// A state of another game than the one a forward model was prepared for (issue 39.4); a
/// std::invalid_argument, so the bindings raise it as a Python ValueError.
class GameMismatch : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Throws GameMismatch, naming `entry`, when `state` is not a state of `model`'s game (one
/// integer compare: the game fingerprints of the model and the state).
void check_same_game(const ForwardModel& model, const GameState& state, std::string_view entry);

}  // namespace riven::game
