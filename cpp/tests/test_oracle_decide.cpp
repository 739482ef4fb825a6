// The native Oracle (cpp/riven/oracle) and the game queries it reads (cpp/riven/game/queries.hpp)
// on a hand-built three-model state behind a wall: shot targets and cover, contacts, objective
// control; the activation dice, a priority with its target selector, the fallback roll on the
// Oracle's own stream, a spend rule and accept. The Python equivalence is tests/test_native_oracle.py.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "check.hpp"
#include "riven/game/queries.hpp"
#include "riven/oracle/oracle.hpp"
#include "rules_fixture.hpp"

namespace {

using riven::game::Decision;
using riven::game::GameState;
using riven::game::GameStatic;
using riven::oracle::Branch;
using riven::table::Shape;
using riven::table::TableGeometry;

Shape rect(double x0, double y0, double x1, double y1) {
  return Shape({x0, y0, x1, y0, x1, y1, x0, y1, x0, y0}, {5});
}

// A hard wall that blocks sight at x 10..11, y 0..20 on a 30 x 30 table.
TableGeometry make_table() {
  std::vector<riven::table::Piece> pieces;
  pieces.push_back(riven::table::Piece{rect(10, 0, 11, 20), 2, true, false, true});
  TableGeometry table(30.0, 30.0, riven::table::TableSettings{0.02, 1.0, 0.5, 0.25}, std::move(pieces),
                      rect(10, 0, 11, 20), Shape(), Shape());
  riven::table::RadiusGeometry geometry;
  geometry.radius = 0.5;
  geometry.clearance = rect(9.5, -0.5, 11.5, 20.5);
  geometry.inside = {rect(9.52, -0.48, 11.48, 20.48)};
  geometry.touching = {rect(9.48, -0.52, 11.52, 20.52)};
  geometry.cover_starts = {0, 1};
  geometry.cover_ids = {0};
  table.alias_radius(0.5, table.add_radius(std::move(geometry)));
  return table;
}

// Actions (kinds 6..): move, charge, melee, shoot, end.
constexpr int kMelee = 8;
constexpr int kShoot = 9;
constexpr int kEnd = 10;

std::shared_ptr<const GameStatic> skirmish() {
  auto st = std::make_shared<GameStatic>();
  st->model_ids = {"blue-1", "red-1", "red-2"};
  st->model_sides = {0, 1, 1};
  st->model_profile = {0, 0, 0};
  st->model_oracle = {-1, -1, -1};
  riven::game::Profile p;
  p.name = "archer";
  p.might = p.agility = p.wit = p.resolve = 3;
  p.mettle = 4;
  p.wounds = 2;
  p.move = 6.0;
  p.base_diameter = 1.0;
  p.has_ranged = true;
  p.ranged_range = 24.0;
  st->profiles = {p};
  riven::game::Objective o;
  o.name = "well";
  o.x = 2.0;
  o.y = 3.0;
  o.radius = 1.0;
  o.kind = "hold";
  st->objectives = {o};
  st->table_width = st->table_height = 30.0;
  st->round_limit = 4;
  st->owners = {"blue", "red"};
  st->actions = {"move", "charge", "melee", "shoot", "end"};
  st->conditions = {"exposed"};
  st->options = {"reroll:0", "reroll:1", "boost", "strain", "accept"};
  st->destination_kinds = {"toward_enemy", "away"};
  return st;
}

riven::oracle::Order order(int kind, riven::oracle::TargetSide side, riven::oracle::Selector selector) {
  riven::oracle::Order out;
  out.kind = kind;
  out.end = kind == kEnd;
  out.side = side;
  out.selector = selector;
  return out;
}

riven::oracle::OracleGame oracle_game() {
  using riven::oracle::Check;
  using riven::oracle::Predicate;
  using riven::oracle::Selector;
  using riven::oracle::TargetSide;
  riven::oracle::Profile p;
  p.activation_order = {riven::oracle::OrderKey::NearestEnemy};
  riven::oracle::DiceRule two;
  two.checks = {Check{Predicate::Always, 0.0, -1, false}};
  two.dice = 2;
  p.dice = {two};
  riven::oracle::Rule melee;
  melee.checks = {Check{Predicate::Engaged, 0.0, -1, false}};
  melee.order = order(kMelee, TargetSide::Enemy, Selector::Nearest);
  riven::oracle::Rule shoot;
  shoot.checks = {Check{Predicate::EnemyInShot, 0.0, -1, false}};
  shoot.order = order(kShoot, TargetSide::Enemy, Selector::Weakest);
  p.priorities = {melee, shoot};
  p.fallback.assign(6, order(kEnd, TargetSide::None, Selector::Nearest));
  riven::oracle::SpendRule reroll;
  reroll.option = riven::oracle::SpendOption::Reroll;
  reroll.on = 1;  // miss
  reroll.any_test = true;
  reroll.min_momentum = 1;
  p.spend = {reroll};
  riven::oracle::OracleGame o;
  o.profiles = {p};
  o.model_profile = {0, 0, 0};
  o.side_profile = {0, 0};
  riven::rules::Weapon bow;
  bow.name = "bow";
  bow.kind = "ranged";
  bow.range = 24.0;
  o.ranged = {bow, bow, bow};
  o.leader = {0, 0, 0};
  o.strain_max = {6, 6, 6};
  o.rally_removes = {0};
  o.max_dice = 3;
  o.kind_charge = 7;
  o.kind_shoot = kShoot;
  o.kind_end = kEnd;
  return o;
}

Decision make(int kind, int model, int dice = -1, int target = -1, int option = -1) {
  Decision d;
  d.kind = static_cast<std::int16_t>(kind);
  d.model = static_cast<std::int16_t>(model);
  d.dice = static_cast<std::int16_t>(dice);
  d.target = static_cast<std::int16_t>(target);
  d.option = static_cast<std::int16_t>(option);
  return d;
}

}  // namespace

int main() {
  const TableGeometry table = make_table();
  const riven::rules::RulesConfig rules = [] {
    auto r = riven::testing::riven_v01();
    r.prepare();
    return r;
  }();
  const riven::oracle::OracleGame o = oracle_game();
  o.validate(*skirmish());
  GameState state = GameState::initial(skirmish(), 2);
  state.models[0].x = 2.0;
  state.models[0].y = 3.0;
  state.models[1].x = 5.0;
  state.models[1].y = 3.0;
  state.models[2].x = 15.0;
  state.models[2].y = 3.0;
  state.models[2].wounds = 1;
  const riven::game::BasesArrays bases = riven::game::bases_of(state);

  // Queries: the wall hides red-2; red-1 stands in the open; blue holds the well alone.
  const auto shots = riven::game::shot_targets(state, bases.view(), table, rules, 0, &*o.ranged[0], 0.02);
  RIVEN_CHECK(shots.size() == 1 && shots[0].target == 1 && shots[0].cover == "none");
  RIVEN_CHECK(riven::game::controller(state, 0) == 0);
  RIVEN_CHECK(riven::game::engaged_enemies(state, bases.view(), 0, 0.02).empty());
  RIVEN_CHECK(riven::game::move_allowance(state, 0, rules) == 6.0);
  RIVEN_CHECK(riven::game::enemies_of(state, 0) == (std::vector<int>{1, 2}));

  riven::rules::Pcg64 rng(riven::rules::Pcg64State{0x1234567, 0x89abcdef | 1U, false, 0});
  const riven::oracle::Routing routing;

  // Activation: the nearest-enemy model of blue is blue-1; the dice rule rolls 2.
  state.phase = riven::game::Phase::Activate;
  const std::vector<Decision> activate = {make(1, 0, 1), make(1, 0, 2), make(1, 0, 3), make(0, -1)};
  auto c = riven::oracle::decide(o, state, table, rules, activate, rng, routing);
  RIVEN_CHECK(c.branch == Branch::Dice && c.index == 1 && c.dice == 2 && c.model == 0 && c.rule == 0);

  // Action: the shoot rule fires on the weakest listed target.
  state.phase = riven::game::Phase::Action;
  state.active_model = 0;
  state.actions_left = 2;
  const std::vector<Decision> act = {make(kShoot, 0, -1, 1), make(kShoot, 0, -1, 2), make(kEnd, -1)};
  c = riven::oracle::decide(o, state, table, rules, act, rng, routing);
  RIVEN_CHECK(c.branch == Branch::Priority && c.rule == 1 && c.index == 1 && c.target == 2);

  // Nothing applies: the fallback face is rolled on the Oracle's stream and ends the activation.
  const riven::rules::Pcg64 before = rng;
  const std::vector<Decision> only_end = {make(kEnd, -1)};
  c = riven::oracle::decide(o, state, table, rules, only_end, rng, routing);
  RIVEN_CHECK(c.branch == Branch::Fallback && c.roll >= 1 && c.roll <= 6 && c.index == 0);
  riven::rules::Pcg64 replay = before;
  RIVEN_CHECK(replay.integers(1, 7) == c.roll);

  // Engaged: red-1 in base contact, the melee rule comes first.
  state.models[1].x = 3.0;
  const std::vector<Decision> fight = {make(kMelee, 0, -1, 1), make(kShoot, 0, -1, 2), make(kEnd, -1)};
  c = riven::oracle::decide(o, state, table, rules, fight, rng, routing);
  RIVEN_CHECK(c.branch == Branch::Priority && c.rule == 0 && c.index == 0 && c.target == 1);

  // Spend: a missed shot, Momentum in hand, the lower die is rerolled; without Momentum it stands.
  state.phase = riven::game::Phase::Spend;
  riven::game::Pending pending;
  pending.model = 0;
  pending.roll.kind = riven::game::InlineName("shot");
  pending.roll.dice = {5, 2};
  pending.roll.result = riven::game::Band::Miss;
  state.pending = pending;
  const std::vector<Decision> spends = {make(3, -1, -1, -1, 0), make(3, -1, -1, -1, 1), make(3, -1, -1, -1, 4)};
  c = riven::oracle::decide(o, state, table, rules, spends, rng, routing);
  RIVEN_CHECK(c.branch == Branch::Spend && c.decision.option == 1 && c.index == 1);
  state.momentum[0] = 0;
  c = riven::oracle::decide(o, state, table, rules, spends, rng, routing);
  RIVEN_CHECK(c.branch == Branch::Accept && c.decision.option == 4);

  // A choice phase is left to the Python Oracle; empty decisions are refused.
  state.phase = riven::game::Phase::Choice;
  RIVEN_CHECK(riven::oracle::decide(o, state, table, rules, spends, rng, routing).branch == Branch::Unsupported);
  bool refused = false;
  try {
    (void)riven::oracle::decide(o, state, table, rules, {}, rng, routing);
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  RIVEN_CHECK(riven::oracle::predicate_from_name("took") == riven::oracle::Predicate::Took);
  return RIVEN_TEST_RESULT();
}
