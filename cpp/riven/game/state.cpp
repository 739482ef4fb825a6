#include "riven/game/state.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "riven/require.hpp"

namespace riven::game {

static_assert(std::is_trivially_copyable_v<Model>, "Model must stay trivially copyable (copies are memcpy)");
static_assert(std::is_trivially_copyable_v<Pending>, "Pending must stay trivially copyable");

InlineName::InlineName(std::string_view text) {
  if (text.size() > kNameCapacity) {
    throw std::invalid_argument("name '" + std::string(text) + "' is longer than " +
                                std::to_string(kNameCapacity) + " bytes (the native state's inline names)");
  }
  std::copy(text.begin(), text.end(), chars_.begin());
  length_ = static_cast<std::uint8_t>(text.size());
}

int find_name(const std::vector<std::string>& names, std::string_view name) {
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (names[k] == name) {
      return static_cast<int>(k);
    }
  }
  return -1;
}

namespace {

// FNV-1a, 64 bits, fed field by field (each string with its length, so no two lists collide by
// concatenation).
class Fnv {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t k = 0; k < size; ++k) {
      hash_ ^= p[k];
      hash_ *= 0x100000001b3ULL;
    }
  }
  void integer(std::int64_t v) { bytes(&v, sizeof v); }
  void real(double v) {
    if (v == 0.0) v = 0.0;  // -0.0 == 0.0, as Python compares them
    bytes(&v, sizeof v);
  }
  void text(std::string_view v) {
    integer(static_cast<std::int64_t>(v.size()));
    bytes(v.data(), v.size());
  }
  template <class T>
  void integers(const std::vector<T>& values) {
    integer(static_cast<std::int64_t>(values.size()));
    for (const T v : values) integer(static_cast<std::int64_t>(v));
  }
  void texts(const std::vector<std::string>& values) {
    integer(static_cast<std::int64_t>(values.size()));
    for (const std::string& v : values) text(v);
  }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace

std::uint64_t game_fingerprint(const GameStatic& statics) {
  Fnv h;
  h.texts(statics.model_ids);
  h.integers(statics.model_sides);
  h.integers(statics.model_profile);
  h.integers(statics.model_oracle);
  h.integer(static_cast<std::int64_t>(statics.profiles.size()));
  for (const Profile& p : statics.profiles) h.text(p.name);
  h.texts(statics.oracle_names);
  h.integer(static_cast<std::int64_t>(statics.objectives.size()));
  for (const Objective& o : statics.objectives) {
    h.text(o.name);
    h.text(o.kind);
    h.real(o.x);
    h.real(o.y);
    h.real(o.radius);
  }
  h.real(statics.table_width);
  h.real(statics.table_height);
  h.integer(statics.round_limit);
  h.texts(statics.actions);
  h.texts(statics.conditions);
  h.texts(statics.resources);
  h.texts(statics.options);
  h.texts(statics.destination_kinds);
  h.texts(statics.system_keys);
  h.text(statics.setting);
  return h.value();
}

void GameStatic::validate() const {
  const std::size_t n = model_ids.size();
  require(model_sides.size() == n && model_profile.size() == n && model_oracle.size() == n,
          "game static: model ids, sides, profiles and oracles differ in length");
  for (std::size_t i = 0; i < n; ++i) {
    require(model_sides[i] < kSides, "game static: model " + model_ids[i] + " has side " +
                                         std::to_string(model_sides[i]) + " (expected 0 blue or 1 red)");
    require(model_profile[i] >= 0 && static_cast<std::size_t>(model_profile[i]) < profiles.size(),
            "game static: model " + model_ids[i] + " has no profile");
    require(model_oracle[i] >= -1 && model_oracle[i] < static_cast<std::int32_t>(oracle_names.size()),
            "game static: model " + model_ids[i] + " has an unknown oracle profile index");
  }
  require(objectives.size() <= kMaxObjectives,
          "game static: " + std::to_string(objectives.size()) + " objectives (at most 64)");
  require(conditions.size() <= kMaxConditions,
          "game static: " + std::to_string(conditions.size()) + " Conditions (at most 16)");
  require(resources.size() <= kMaxResources,
          "game static: " + std::to_string(resources.size()) + " resources (at most 4)");
  require(first_side < kSides, "game static: first side must be 0 (blue) or 1 (red)");
  for (const std::int32_t owner : side_owner) {
    require(owner >= 0 && static_cast<std::size_t>(owner) < owners.size(), "game static: a side has no Momentum owner");
  }
}

int Model::condition_slot(int id) const {
  for (std::size_t k = 0; k < condition_count; ++k) {
    if (conditions[k].id == id) {
      return static_cast<int>(k);
    }
  }
  return -1;
}

void Model::gain_condition(int id) {
  if (has_condition(id)) {
    return;
  }
  if (condition_count >= kMaxConditions) {
    throw std::out_of_range("model holds the most Conditions the native state stores (16)");
  }
  conditions[condition_count] = ConditionSlot{static_cast<std::int16_t>(id), 0};
  ++condition_count;
}

void Model::lose_condition(int id) {
  const int slot = condition_slot(id);
  if (slot < 0) {
    return;
  }
  for (std::size_t k = static_cast<std::size_t>(slot); k + 1 < condition_count; ++k) {
    conditions[k] = conditions[k + 1];
  }
  --condition_count;
  conditions[condition_count] = ConditionSlot{};
}

int TestRoll::total() const {
  int sum = dice[0] + dice[1] + attribute_value;
  for (std::size_t k = 0; k < modifier_count; ++k) {
    sum += modifiers[k].value;
  }
  return sum;
}

GameState GameState::initial(std::shared_ptr<const GameStatic> statics, std::int32_t momentum_start) {
  require(statics != nullptr, "game state: no static part");
  statics->validate();
  GameState state;
  state.models.resize(statics->model_count());
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    const Profile& profile = statics->profiles[static_cast<std::size_t>(statics->model_profile[i])];
    state.models[i].wounds = profile.wounds;
    state.models[i].radius = profile.base_diameter / 2.0;
  }
  state.momentum.assign(statics->owners.size(), momentum_start);
  state.side = statics->first_side;
  state.game_id = game_fingerprint(*statics);
  state.statics = std::move(statics);
  return state;
}

int GameState::momentum_of(int side_index) const {
  return momentum[static_cast<std::size_t>(statics->side_owner[static_cast<std::size_t>(side_index)])];
}

int GameState::current_side() const {
  if (over) {
    return -1;
  }
  if (decider >= 0) {
    return decider;
  }
  if (pending.has_value() && phase == Phase::Spend) {
    // actions.py chooser_of: a New World melee's defender chooses on its own Luck.
    const bool target = pending->new_world && pending->nw.target_chooses;
    return model_side(static_cast<std::size_t>(target ? pending->context.target : pending->model));
  }
  return side;
}

std::size_t GameState::owned_bytes() const {
  return sizeof(GameState) + models.capacity() * sizeof(Model) + momentum.capacity() * sizeof(std::int32_t) +
         system_state.capacity() * sizeof(SystemEntry) + (choice ? sizeof(ChoicePending) : 0);
}

void GameState::validate() const {
  require(statics != nullptr, "game state: no static part");
  const std::size_t n = statics->model_count();
  require(models.size() == n, "game state: " + std::to_string(models.size()) + " models but the static part has " +
                                  std::to_string(n));
  require(momentum.size() == statics->owners.size(), "game state: one Momentum pool per owner expected");
  require(side < kSides, "game state: side must be 0 or 1");
  auto model_index = [n](std::int32_t i) { return i == -1 || (i >= 0 && static_cast<std::size_t>(i) < n); };
  require(model_index(active_model) && model_index(last_activated), "game state: active or last model out of range");
  require(decider >= -1 && decider < kSides && winner >= -1 && winner < kSides, "game state: bad decider or winner");
  require(taken_count <= kMaxTakenActions, "game state: too many taken actions");
  for (std::size_t k = 0; k < taken_count; ++k) {
    require(taken_actions[k] >= 0 && static_cast<std::size_t>(taken_actions[k]) < statics->actions.size(),
            "game state: taken action id out of range");
  }
  const std::size_t objective_count = statics->objectives.size();
  require(objective_count == 64 || (looted >> objective_count) == 0, "game state: looted names an unknown objective");
  for (const Model& m : models) {
    require(m.condition_count <= kMaxConditions, "game state: condition count out of range");
    for (std::size_t k = 0; k < m.condition_count; ++k) {
      require(m.conditions[k].id >= 0 && static_cast<std::size_t>(m.conditions[k].id) < statics->conditions.size(),
              "game state: Condition id out of range");
    }
    require((m.resource_mask >> statics->resources.size()) == 0, "game state: resource id out of range");
  }
  if (pending.has_value()) {
    require(model_index(pending->model) && pending->model >= 0, "game state: pending model out of range");
    require(pending->roll.modifier_count <= kMaxModifiers && pending->roll.spend_count <= kMaxSpends,
            "game state: pending roll lists too much");
    if (pending->invictus) {
      const InvictusPart& inv = pending->inv;
      require(inv.dice_count <= kMaxPoolDice && inv.danger_count <= kMaxDangerDice &&
                  inv.factor_count <= kMaxDangerFactors && inv.raise_count <= kMaxRaises &&
                  inv.melee_count <= kMaxModifiers && inv.rolled_band <= 3,
              "game state: Invictus pending roll lists too much");
    }
    if (pending->new_world) {
      const NewWorldPart& nw = pending->nw;
      require(!pending->invictus && nw.helper_count <= kMaxHelpers && nw.melee_count <= kMaxModifiers &&
                  nw.helpers_available >= 0 && nw.helpers >= 0 && nw.helpers <= nw.helpers_available,
              "game state: New World pending roll lists too much");
      require(!nw.target_chooses || pending->context.target >= 0,
              "game state: a New World roll the target chooses on needs a target");
    }
  }
  require(phase != Phase::Choice || (choice.has_value() && !pending.has_value()),
          "game state: the choice phase needs its melee session (and no pending roll)");
  if (choice.has_value()) {
    require(model_index(choice->model) && choice->model >= 0 && model_index(choice->target) && choice->target >= 0,
            "game state: the choice melee's models out of range");
    require(choice->session.new_events.empty(), "game state: the choice melee holds unwritten events");
  }
  for (const SystemEntry& entry : system_state) {
    require(entry.key >= 0 && static_cast<std::size_t>(entry.key) < statics->system_keys.size() && entry.model >= 0 &&
                static_cast<std::size_t>(entry.model) < n,
            "game state: system state entry out of range");
  }
}

}  // namespace riven::game
