#include "riven/game/forward_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace riven::game {
namespace {

constexpr std::array<std::string_view, 13> kActionNames{"move",      "charge", "melee", "shoot",     "aim",
                                                        "disengage", "focus",  "rest",  "stabilise", "rally",
                                                        "interact",  "take_cover", "end"};

}  // namespace

void ForwardModel::prepare(const GameStatic& statics) {
  if (!rules || !table || !planner) {
    throw std::invalid_argument("ForwardModel: rules, table and planner are required");
  }
  if (rules->system != rules::System::Riven) {
    throw rules::NotPorted("meta.resolution = '" + rules->system_name +
                           "': the native game loop has RIVEN's engine only (the system is still Python)");
  }
  if (actions.size() != statics.actions.size()) {
    throw std::invalid_argument("ForwardModel: " + std::to_string(actions.size()) + " action specs for " +
                                std::to_string(statics.actions.size()) + " actions of the game");
  }
  if (melee.size() != statics.profiles.size() || ranged.size() != statics.profiles.size()) {
    throw std::invalid_argument("ForwardModel: one melee and one ranged weapon slot per profile expected");
  }
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
