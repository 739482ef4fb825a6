// The native game state: a copy is a value (independent of its original, sharing the static
// part), Conditions keep their gain order, the pending roll's totals, current_side, validation.
#include <memory>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "riven/game/state.hpp"

namespace {

using riven::game::GameState;
using riven::game::GameStatic;

std::shared_ptr<const GameStatic> two_models() {
  auto st = std::make_shared<GameStatic>();
  st->model_ids = {"blue-1", "red-1"};
  st->model_sides = {0, 1};
  st->model_profile = {0, 0};
  st->model_oracle = {-1, -1};
  riven::game::Profile p;
  p.name = "soldier";
  p.wounds = 2;
  p.base_diameter = 1.0;
  p.wit = 3;
  st->profiles = {p};
  st->table_width = 24.0;
  st->table_height = 24.0;
  st->round_limit = 4;
  st->owners = {"blue", "red"};
  st->actions = {"move", "shoot", "end"};
  st->conditions = {"aiming", "hunkered", "shaken"};
  return st;
}

bool throws_invalid(const GameState& state) {
  try {
    state.validate();
  } catch (const std::invalid_argument&) {
    return true;
  }
  return false;
}

}  // namespace

int main() {
  GameState state = GameState::initial(two_models(), 1);
  RIVEN_CHECK(state.model_count() == 2);
  RIVEN_CHECK(state.models[0].wounds == 2 && state.models[0].radius == 0.5);
  RIVEN_CHECK(state.momentum.size() == 2 && state.momentum_of(1) == 1);
  state.validate();

  // Conditions in gain order; losing one keeps the order of the others.
  auto& m = state.models[0];
  m.gain_condition(2);
  m.gain_condition(0);
  m.gain_condition(1);
  m.gain_condition(0);  // held already: no-op
  RIVEN_CHECK(m.condition_count == 3);
  m.lose_condition(0);
  RIVEN_CHECK(m.condition_count == 2 && m.conditions[0].id == 2 && m.conditions[1].id == 1);

  // A copy is independent and shares the static part.
  state.rng.set_state(riven::rules::Pcg64State{12345, 67, false, 0});
  GameState copy = state;
  copy.models[0].wounds = 0;
  copy.momentum[0] = 5;
  copy.rng.next_uint64();
  RIVEN_CHECK(state.models[0].wounds == 2 && state.momentum[0] == 1);
  RIVEN_CHECK(copy.statics == state.statics);
  RIVEN_CHECK(!(copy.rng.state().state == state.rng.state().state));
  RIVEN_CHECK(copy.owned_bytes() == state.owned_bytes());

  // current_side: the side in its turn, the pending roller's on a spend, the decider, none when over.
  RIVEN_CHECK(state.current_side() == 0);
  riven::game::Pending pending;
  pending.model = 1;
  pending.roll.dice = {3, 4};
  pending.roll.attribute_value = 2;
  pending.roll.modifiers[0] = {riven::game::InlineName("cover"), -1};
  pending.roll.modifier_count = 1;
  pending.roll.tn = 8;
  RIVEN_CHECK(pending.roll.total() == 8 && pending.roll.margin() == 0);
  state.pending = pending;
  state.phase = riven::game::Phase::Spend;
  RIVEN_CHECK(state.current_side() == 1);
  state.decider = 0;
  RIVEN_CHECK(state.current_side() == 0);
  state.over = true;
  RIVEN_CHECK(state.current_side() == -1);

  // Validation names what does not fit.
  GameState bad = copy;
  bad.active_model = 7;
  RIVEN_CHECK(throws_invalid(bad));
  bad = copy;
  bad.looted = 1;  // the scenario has no objective
  RIVEN_CHECK(throws_invalid(bad));
  bad = copy;
  bad.models.pop_back();
  RIVEN_CHECK(throws_invalid(bad));
  bool long_name_refused = false;
  try {
    riven::game::InlineName(std::string(40, 'x'));
  } catch (const std::invalid_argument&) {
    long_name_refused = true;
  }
  RIVEN_CHECK(long_name_refused);
  return RIVEN_TEST_RESULT();
}
