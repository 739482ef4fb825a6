#include "riven/encoding/catalogue.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "riven/require.hpp"

namespace riven::encoding {

namespace {

using game::Decision;

std::int16_t narrow(int value) { return static_cast<std::int16_t>(value); }

const char* ref_slot_name(RefKind how) {
  switch (how) {
    case RefKind::Enemy:
      return "enemy";
    case RefKind::Friend:
      return "own";
    case RefKind::Objective:
      return "objective";
    case RefKind::Single:
    case RefKind::None:
      break;
  }
  return "None";  // as the Python label's dict.get(...) miss, formatted
}

}  // namespace

ActionCatalogue::ActionCatalogue(CatalogueSpec spec, std::shared_ptr<const game::GameStatic> statics)
    : spec_(std::move(spec)), statics_(std::move(statics)) {
  require(statics_ != nullptr, "action catalogue: no game static part");
  const game::GameStatic& st = *statics_;
  require(spec_.models_per_side >= 1 && spec_.objectives >= 1 && spec_.max_dice >= 0,
          "action catalogue: models_per_side and objectives must be at least 1");
  // Each model's slot within its side (layout.py: own models in scenario order).
  std::array<int, 2> next{0, 0};
  slots_.resize(st.model_count());
  for (std::size_t i = 0; i < st.model_count(); ++i) {
    slots_[i] = next[st.model_sides[i]]++;
  }
  require(next[0] <= spec_.models_per_side && next[1] <= spec_.models_per_side,
          "action catalogue: models_per_side is smaller than a side of the scenario");
  destination_refs_.assign(st.destination_kinds.size(), -1);
  for (const auto& [kind, how] : spec_.destination_refs) {
    const int id = game::find_name(st.destination_kinds, kind);
    require(id >= 0, "action catalogue: destination kind '" + kind + "' is not in the game's vocabulary");
    destination_refs_[static_cast<std::size_t>(id)] = static_cast<int>(how);
  }
  action_targets_.assign(st.actions.size(), "");

  const int s = spec_.models_per_side;
  const int k_objectives = spec_.objectives;
  keys_.push_back({game::kPass, -1, -1});
  labels_.emplace_back("pass");
  for (int slot = 0; slot < s; ++slot) {
    for (int d = 1; d <= spec_.max_dice; ++d) {
      keys_.push_back({game::kActivate, narrow(slot), narrow(d)});
      labels_.push_back("activate own:" + std::to_string(slot) + " dice:" + std::to_string(d));
    }
  }
  for (int slot = 0; slot < s; ++slot) {
    keys_.push_back({game::kBonus, narrow(slot), -1});
    labels_.push_back("bonus own:" + std::to_string(slot));
  }
  for (const CatalogueAction& action : spec_.actions) {
    const int id = game::find_name(st.actions, action.name);
    require(id >= 0, "action catalogue: action '" + action.name + "' is not in the game's vocabulary");
    const auto kind = narrow(game::kFirstActionKind + id);
    const bool decision_point = std::find(game::kDecisionPointKinds.begin(), game::kDecisionPointKinds.end(),
                                          action.name) != game::kDecisionPointKinds.end();
    if (!decision_point) {
      action_targets_[static_cast<std::size_t>(id)] = action.target;
    }
    if (action.target == "none") {
      keys_.push_back({kind, -1, -1});
      labels_.push_back(action.name);
    } else if (action.target == "enemy" || action.target == "friend") {
      const char* who = action.target == "enemy" ? "enemy" : "own";
      for (int slot = 0; slot < s; ++slot) {
        keys_.push_back({kind, narrow(slot), -1});
        labels_.push_back(action.name + " " + who + ":" + std::to_string(slot));
      }
    } else if (action.target == "objective") {
      for (int k = 0; k < k_objectives; ++k) {
        keys_.push_back({kind, narrow(k), -1});
        labels_.push_back(action.name + " objective:" + std::to_string(k));
      }
    } else {
      require(action.target == "destination", "action catalogue: action '" + action.name + "' has target kind '" +
                                                  action.target + "'");
      for (const auto& [dest, how] : spec_.destination_refs) {
        const auto& allowed = action.allowed_kinds;
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), dest) == allowed.end()) {
          continue;
        }
        const auto dest_id = narrow(game::find_name(st.destination_kinds, dest));
        const std::string base = action.name + " @" + dest;
        if (how == RefKind::None || how == RefKind::Single) {
          keys_.push_back({kind, dest_id, -1});
          labels_.push_back(base);
        } else {
          const int count = how == RefKind::Objective ? k_objectives : s;
          for (int r = 0; r < count; ++r) {
            keys_.push_back({kind, dest_id, narrow(r)});
            labels_.push_back(base + " " + ref_slot_name(how) + ":" + std::to_string(r));
          }
        }
      }
    }
  }
  auto option_key = [&](const std::string& kind, const std::string& option) {
    require(kind == "spend" || kind == "allocate",
            "action catalogue: choice kind '" + kind + "' (expected spend or allocate)");
    const int id = game::find_name(st.options, option);
    require(id >= 0, "action catalogue: option '" + option + "' is not in the game's vocabulary");
    keys_.push_back({kind == "spend" ? game::kSpend : game::kAllocate, narrow(id), -1});
    labels_.push_back(kind + " " + option);
  };
  for (const auto& [kind, option] : spec_.choices) {
    option_key(kind, option);
  }
  option_key("spend", "accept");
  target_codes_.reserve(action_targets_.size());
  for (const std::string& target : action_targets_) {
    target_codes_.push_back(target.empty()             ? Target::kNone
                            : target == "enemy"        ? Target::kEnemy
                            : target == "friend"       ? Target::kFriend
                            : target == "objective"    ? Target::kObjective
                            : target == "destination"  ? Target::kDestination
                                                       : Target::kOther);
  }
  for (std::size_t k = 0; k < keys_.size(); ++k) index_.try_emplace(packed(keys_[k]), static_cast<int>(k));
}

std::uint64_t ActionCatalogue::packed(const Key& key) {
  const auto bits = [](std::int16_t v) { return static_cast<std::uint64_t>(static_cast<std::uint16_t>(v)); };
  return bits(key.kind) << 32U | bits(key.a) << 16U | bits(key.b);
}

int ActionCatalogue::find(const Key& key) const {
  const auto found = index_.find(packed(key));
  return found == index_.end() ? -1 : found->second;
}

int ActionCatalogue::slot_of(int model, int side) const {
  if (model < 0 || static_cast<std::size_t>(model) >= slots_.size() ||
      statics_->model_sides[static_cast<std::size_t>(model)] != side) {
    return -1;
  }
  return slots_[static_cast<std::size_t>(model)];
}

int ActionCatalogue::index_of(const Decision& decision, int side, std::string* why) const {
  auto fail = [why](const std::string& message) {
    if (why != nullptr) {
      *why = message;
    }
    return -1;
  };
  const int enemy = 1 - side;
  Key key{decision.kind, -1, -1};
  const int action = decision.kind - game::kFirstActionKind;
  if (action >= 0 && static_cast<std::size_t>(action) < action_targets_.size() &&
      target_codes_[static_cast<std::size_t>(action)] != Target::kNone) {
    const std::string& target = action_targets_[static_cast<std::size_t>(action)];
    const Target code = target_codes_[static_cast<std::size_t>(action)];
    if (code == Target::kEnemy || code == Target::kFriend) {
      const int slot = slot_of(decision.target, code == Target::kEnemy ? enemy : side);
      if (slot < 0) {
        return fail("target model " + std::to_string(decision.target) + " is not a " + target + " model");
      }
      key.a = narrow(slot);
    } else if (code == Target::kObjective || code == Target::kDestination) {
      if (decision.destination_kind < 0) {
        return fail("the action needs a destination");
      }
      if (code == Target::kObjective) {
        key.a = narrow(decision.destination_ref);
      } else {
        const int how = destination_refs_[static_cast<std::size_t>(decision.destination_kind)];
        if (how < 0) {
          return fail("destination kind '" +
                      statics_->destination_kinds[static_cast<std::size_t>(decision.destination_kind)] +
                      "' is not in the encoding's [destinations]");
        }
        key.a = decision.destination_kind;
        const auto ref_kind = static_cast<RefKind>(how);
        if (ref_kind == RefKind::Enemy || ref_kind == RefKind::Friend) {
          const int slot = slot_of(decision.destination_ref, ref_kind == RefKind::Enemy ? enemy : side);
          if (slot < 0) {
            return fail("destination ref " + std::to_string(decision.destination_ref) + " is not of the expected side");
          }
          key.b = narrow(slot);
        } else if (ref_kind == RefKind::Objective) {
          key.b = narrow(decision.destination_ref);
        } else if (ref_kind == RefKind::None && decision.destination_ref >= 0) {
          return fail("destination kind declared without a ref, but the game gave one");
        }
      }
    }
  } else if (decision.kind == game::kActivate) {
    const int slot = slot_of(decision.model, side);
    if (slot < 0) {
      return fail("model " + std::to_string(decision.model) + " is not of the side to play");
    }
    key = {game::kActivate, narrow(slot), decision.dice};
  } else if (decision.kind == game::kSpend || decision.kind == game::kAllocate) {
    key.a = decision.option;
  } else if (decision.kind == game::kBonus) {
    const int slot = slot_of(decision.model, side);
    if (slot < 0) {
      return fail("model " + std::to_string(decision.model) + " is not of the side to play");
    }
    key.a = narrow(slot);
  } else if (decision.kind != game::kPass) {
    return fail("kind " + std::to_string(decision.kind) + " is neither pass/activate/bonus/spend nor an action");
  }
  const int index = find(key);
  return index < 0 ? fail("the decision is outside the catalogue") : index;
}

void ActionCatalogue::mask(std::span<const Decision> legal, int side, std::span<std::uint8_t> out) const {
  require(out.size() == size(), "action catalogue: mask of the wrong size");
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  for (const Decision& decision : legal) {
    std::string why;
    const int index = index_of(decision, side, &why);
    require(index >= 0, [&] { return "legal decision has no catalogue index: " + why; });
    auto& cell = out[static_cast<std::size_t>(index)];
    require(cell == 0, [&] {
      return "two legal decisions share catalogue index " + std::to_string(index) + " (" +
             labels_[static_cast<std::size_t>(index)] + ")";
    });
    cell = 1;
  }
}

}  // namespace riven::encoding
