// Game-level queries of the native loop, named as the Python functions they mirror
// (riven_env/game/actions.py, riven_env/game/state.py, riven_env/game/effects.py limits). Each
// answers exactly as its Python twin, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "riven/game/decision.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/state.hpp"
#include "riven/recycled.hpp"
#include "riven/rules/conditions.hpp"
#include "riven/table/table.hpp"

namespace riven::game {

/// The bases of a state as the table queries take them (Bases: centres, radii, on-table flags).
/// One allocation holds all three (the queries ask for the bases a few dozen times a decision);
/// a view points into it, so it stays valid when the arrays are moved.
/// A list of model indices (Recycled: the model lists below are asked for many times a step).
using ModelList = Recycled<int>;

struct BasesArrays {
  std::size_t count = 0;
  Recycled<double> storage;  // (Recycled: built for every query) x0, y0, x1, y1, ..., then the radii, then the flags' bytes

  [[nodiscard]] std::span<const double> centers() const { return {storage.data(), 2 * count}; }
  [[nodiscard]] std::span<const double> radii() const { return {storage.data() + 2 * count, count}; }
  [[nodiscard]] std::span<const std::uint8_t> on_table() const {
    return {reinterpret_cast<const std::uint8_t*>(storage.data() + 3 * count), count};
  }
  [[nodiscard]] table::BasesView view() const { return {centers(), radii(), on_table()}; }
};
BasesArrays bases_of(const GameState& state);

/// The names of model i's Conditions in gain order (list(model.conditions)).
std::vector<std::string> condition_names(const GameState& state, std::size_t i);
/// effects.limits.
rules::ConditionLimits limits(const ForwardModel& fm, const GameState& state, std::size_t i);
/// ModelProfile.strain_max.
int strain_max(const ForwardModel& fm, const GameState& state, std::size_t i);
const Profile& profile_of(const GameState& state, std::size_t i);

/// GameState.side_models / active_models / enemies_of / friends_of.
ModelList side_models(const GameState& state, int side);
ModelList active_models(const GameState& state, int side);
ModelList enemies_of(const GameState& state, std::size_t i);
ModelList friends_of(const GameState& state, std::size_t i);
/// Whether model j is in enemies_of(state, i) (an active model of the other side) and in
/// friends_of(state, i) (another model of i's side on the table).
bool is_enemy_of(const GameState& state, std::size_t i, std::size_t j);
bool is_friend_of(const GameState& state, std::size_t i, std::size_t j);
/// GameState.engaged_enemies / is_engaged.
ModelList engaged_enemies(const ForwardModel& fm, const GameState& state, std::size_t i);
bool is_engaged(const ForwardModel& fm, const GameState& state, std::size_t i);
/// GameState.distance (edge to edge) and distance_to_point.
double distance(const GameState& state, std::size_t i, std::size_t j);
double distance_to_point(const GameState& state, std::size_t i, table::Point p);

/// actions.py move_allowance.
double move_allowance(const ForwardModel& fm, const GameState& state, std::size_t i);
/// actions.py engaged_forbids (sorted names).
const std::vector<std::string>& engaged_forbids(const ForwardModel& fm);
/// actions.py effective_cover.
std::string effective_cover(const ForwardModel& fm, const GameState& state, std::size_t shooter,
                            std::size_t target, const std::string& cover);
/// actions.py shot_targets: (target, cover) in enemy order.
std::vector<std::pair<int, std::string>> shot_targets(const ForwardModel& fm, const GameState& state, std::size_t i);
/// actions.py move_options_for: the (destination kind id, ref) moves i may order.
std::vector<std::pair<int, std::int64_t>> move_options(const ForwardModel& fm, const GameState& state, std::size_t i);
/// actions.py _charge_targets (through the planner).
std::vector<int> charge_targets(const ForwardModel& fm, const GameState& state, std::size_t i, double reach);
/// actions.py chooser_of: the model whose side chooses on the pending roll.
int chooser_of(const GameState& state);

/// GameState.max_dice / bonus_recipients / eligible_models / _any_eligible.
int max_dice(const ForwardModel& fm, const GameState& state, std::size_t i);
ModelList bonus_recipients(const ForwardModel& fm, const GameState& state);
ModelList eligible_models(const GameState& state);
bool any_eligible(const ForwardModel& fm, const GameState& state);

/// actions.py _spend_options as rules spends.
std::vector<rules::Spend> spend_options(const ForwardModel& fm, const GameState& state);
/// The pending roll as the rules engine holds it, and back.
rules::TestRoll to_rules_roll(const TestRoll& roll);
TestRoll from_rules_roll(const rules::TestRoll& roll);
/// An Invictus pending roll as its engine holds it (Pending::invictus), and back: `set` writes
/// the roll into `pending` (its RIVEN bands read with `settings`). Throws std::invalid_argument
/// when the roll passes a limit of the native state.
rules::invictus::InvictusRoll to_invictus_roll(const Pending& pending);
void set_invictus_roll(Pending& pending, const rules::invictus::InvictusRoll& roll,
                       const rules::InvictusRules& settings);
/// The InvictusPart of a roll (its own fields; kind, attribute, modifiers and tn are TestRoll's).
InvictusPart invictus_part(const rules::invictus::InvictusRoll& roll);
/// A New World pending roll as its engine holds it (Pending::new_world), and back (`set`
/// writes the roll into `pending`, its RIVEN bands read with `settings`). Throws
/// std::invalid_argument when the roll passes a limit of the native state.
rules::new_world::NewWorldRoll to_new_world_roll(const Pending& pending);
void set_new_world_roll(Pending& pending, const rules::new_world::NewWorldRoll& roll,
                        const rules::NewWorldRules& settings);
/// The Luck the chooser holds now (resources.get("luck")), nullopt when it holds no such resource.
std::optional<int> luck_of(const GameState& state, std::size_t i);
/// actions.py _spend_options as option ids (GameStatic::options), in the system's order.
std::vector<int> spend_option_ids(const ForwardModel& fm, const GameState& state);

/// actions.py action_decisions / spend_decisions; GameState.legal_decisions.
std::vector<Decision> action_decisions(const ForwardModel& fm, const GameState& state, std::size_t i);
/// action_decisions appended to ``out``.
void append_action_decisions(const ForwardModel& fm, const GameState& state, std::size_t i, std::vector<Decision>& out);
std::vector<Decision> spend_decisions(const ForwardModel& fm, const GameState& state);
/// choices.py choice_decisions: the pending Combat Round's options as `choose` decisions (an
/// option the game's vocabulary lacks is a std::invalid_argument).
std::vector<Decision> choice_decisions(const ForwardModel& fm, const GameState& state);
std::vector<Decision> legal_decisions(const ForwardModel& fm, const GameState& state);
/// legal_decisions into ``out`` (cleared first; its storage is reused: the batch and the game
/// loops ask at every decision).
void legal_decisions_into(const ForwardModel& fm, const GameState& state, std::vector<Decision>& out);

/// str(decision) of the Python Decision.
std::string decision_label(const ForwardModel& fm, const GameState& state, const Decision& decision);

// -- The same queries for callers that hold the rules and the table but no ForwardModel (the
// native Oracle, cpp/riven/oracle, which decides for states of either engine). They mirror
// the same Python functions; the ForwardModel forms above are the game loop's.

/// GameState.engaged_enemies on given bases: active enemies in base contact.
std::vector<std::size_t> engaged_enemies(const GameState& state, const table::BasesView& bases, std::size_t i,
                                         double contact_tolerance);
/// effects.limits with the rules given.
rules::ConditionLimits limits(const GameState& state, std::size_t i, const rules::RulesConfig& rules);
/// actions.move_allowance with the rules given.
double move_allowance(const GameState& state, std::size_t i, const rules::RulesConfig& rules);
/// actions.engaged_forbids of the rules given.
const std::vector<std::string>& engaged_forbids(const rules::RulesConfig& rules);

/// One entry of actions.shot_targets: the target and the cover it is shot against.
struct ShotTarget {
  std::size_t target = 0;
  std::string cover;
};

/// actions.shot_targets with the rules, table and model i's ranged weapon given (nullptr: no
/// ranged weapon, no targets), in enemy order.
std::vector<ShotTarget> shot_targets(const GameState& state, const table::BasesView& bases,
                                     const table::TableGeometry& table, const rules::RulesConfig& rules,
                                     std::size_t i, const rules::Weapon* ranged, double contact_tolerance);

/// victory.controller: the side controlling objective k (only its active models within the
/// radius), or -1.
int controller(const GameState& state, std::size_t k);

}  // namespace riven::game
