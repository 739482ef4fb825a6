#include "riven/game/forward_model.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace riven::game {
namespace {

constexpr std::array<std::string_view, 13> kActionNames{"move",      "charge", "melee", "shoot",     "aim",
                                                        "disengage", "focus",  "rest",  "stabilise", "rally",
                                                        "interact",  "take_cover", "end"};

// A bound on the points one side can score in a game of ``statics`` under ``victory``, or
// nothing when it passes 64 bits: every scoring the loop has, at its most often (a hold each
// round it counts, a casualty per model, an extraction per named model, each loot once,
// survival once), as if one side scored them all.
std::optional<std::int64_t> most_points(const std::vector<VictoryCondition>& victory, const GameStatic& statics) {
  const auto models = static_cast<std::int64_t>(statics.model_ids.size());
  std::int64_t total = 0;
  const auto add = [&total](std::int64_t a, std::int64_t b) {
    std::int64_t product = 0;
    return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(total, product, &total);
  };
  for (const Objective& o : statics.objectives) {
    if (o.kind == "loot" && !add(o.points, 1)) return std::nullopt;
  }
  for (const VictoryCondition& c : victory) {
    bool fits = true;
    if (c.type == "hold") {
      for (const Objective& o : statics.objectives) {
        if (o.kind != "hold") continue;
        std::int64_t per_round = 0;
        fits = fits && !__builtin_mul_overflow(std::int64_t{o.points}, std::max(1, c.points), &per_round) &&
               add(per_round, std::max(0, statics.round_limit - std::max(1, c.from_round) + 1));
      }
    } else if (c.type == "casualties") {
      fits = add(c.points, models);
    } else if (c.type == "extract") {
      fits = add(c.points, static_cast<std::int64_t>(c.models.size()));
    } else {
      fits = add(c.points, 1);
    }
    if (!fits) return std::nullopt;
  }
  return total;
}

}  // namespace

void ForwardModel::prepare(const GameStatic& statics) {
  if (!rules || !table || !planner) {
    throw std::invalid_argument("ForwardModel: rules, table and planner are required");
  }
  if (rules->system != rules::System::Riven && rules->system != rules::System::Invictus &&
      rules->system != rules::System::NewWorld && rules->system != rules::System::RiddleOfSteel) {
    throw rules::NotPorted("meta.resolution = '" + rules->system_name +
                           "': the native game loop does not have that engine (the system is still Python)");
  }
  if (actions.size() != statics.actions.size()) {
    throw std::invalid_argument("ForwardModel: " + std::to_string(actions.size()) + " action specs for " +
                                std::to_string(statics.actions.size()) + " actions of the game");
  }
  if (melee.size() != statics.profiles.size() || ranged.size() != statics.profiles.size()) {
    throw std::invalid_argument("ForwardModel: one melee and one ranged weapon slot per profile expected");
  }
  game_id = game_fingerprint(statics);
  action_id.fill(-1);
  action_kinds.clear();
  for (std::size_t a = 0; a < actions.size(); ++a) {
    if (actions[a].name != statics.actions[a]) {
      throw std::invalid_argument("ForwardModel: action " + std::to_string(a) + " is '" + actions[a].name +
                                  "', the game names '" + statics.actions[a] + "'");
    }
    const auto found = std::find(kActionNames.begin(), kActionNames.end(), actions[a].name);
    if (found == kActionNames.end()) {
      throw std::invalid_argument("actions." + actions[a].name +
                                  ": the native game loop has no handler for it (it has move, charge, melee, "
                                  "shoot, aim, disengage, focus, rest, stabilise, rally, interact, take_cover, end)");
    }
    const auto kind = static_cast<std::size_t>(found - kActionNames.begin());
    action_kinds.push_back(static_cast<ActionKind>(kind));
    action_id[kind] = static_cast<int>(a);
  }
  if (id(ActionKind::End) < 0) throw std::invalid_argument("actions.end: the rules data must define it");
  no_limits = rules::condition_limits({}, *rules);
  engaged_forbids = rules->engagement.forbids;
  std::sort(engaged_forbids.begin(), engaged_forbids.end());
  spend_option.assign(4, -1);
  for (int s = 0; s < 4; ++s) {
    spend_option[static_cast<std::size_t>(s)] =
        find_name(statics.options, rules::spend_name(static_cast<rules::Spend>(s)));
  }
  accept_option = find_name(statics.options, "accept");
  objective_kind = find_name(statics.destination_kinds, "objective");
  if (accept_option < 0 || objective_kind < 0) {
    throw std::invalid_argument("ForwardModel: the game's vocabulary lacks 'accept' or 'objective'");
  }
  invictus.reset();
  raise_option.fill(-1);
  if (rules->system == rules::System::Invictus) {
    invictus.emplace(rules);
    if (rules->invictus.max_dice > static_cast<int>(kMaxPoolDice)) {
      throw std::invalid_argument("invictus.pool.max_dice: more than the native state's " +
                                  std::to_string(kMaxPoolDice) + " dice");
    }
    for (std::size_t k = 0; k < kMaxPoolDice; ++k) {
      raise_option[k] = find_name(statics.options, std::string(rules::invictus::kFavour) + std::to_string(k));
      raise_option[kMaxPoolDice + k] =
          find_name(statics.options, std::string(rules::invictus::kLuck) + std::to_string(k));
    }
  }
  riddle_of_steel.reset();
  if (rules->system == rules::System::RiddleOfSteel) riddle_of_steel.emplace(rules);
  new_world.reset();
  help_option.fill(-1);
  luck_option = -1;
  if (rules->system == rules::System::NewWorld) {
    new_world.emplace(rules);
    if (rules->new_world.helpers_max > static_cast<int>(kMaxHelpers)) {
      throw std::invalid_argument("new_world.helpers.max: more than the native state's " +
                                  std::to_string(kMaxHelpers) + " helpers");
    }
    for (std::size_t k = 0; k <= kMaxHelpers; ++k) {
      help_option[k] = find_name(statics.options, std::string(rules::new_world::kHelp) + std::to_string(k));
    }
    luck_option = find_name(statics.options, std::string(rules::new_world::kLuck));
  }
  if (!most_points(victory, statics)) {
    throw std::invalid_argument(
        "victory: a side's points can pass 2**63 - 1 in this scenario (the core keeps 64-bit totals); "
        "play it with engine='python'");
  }
}

void check_same_game(const ForwardModel& model, const GameState& state, std::string_view entry) {
  if (model.game_id == state.game_id) return;
  throw GameMismatch(std::string(entry) +
                     ": this game state belongs to another game than the forward model it is applied to "
                     "(its models, profiles, objectives, table or vocabularies differ: game " +
                     std::to_string(state.game_id) + ", the model's " + std::to_string(model.game_id) +
                     "); build the state and the model from the same game");
}

const ActionSpec& ForwardModel::spec(ActionKind kind) const {
  const int a = id(kind);
  if (a < 0) {
    throw std::invalid_argument("actions." + std::string(kActionNames[static_cast<std::size_t>(kind)]) +
                                ": not in the rules data");
  }
  return actions[static_cast<std::size_t>(a)];
}

}  // namespace riven::game
