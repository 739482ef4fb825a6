// The 3-against-3 skirmish fixture of the native loop and encoder tests (test_game_loop.cpp,
// test_encoding_entity.cpp): a 24x24 table with a wall, woods and a marsh, three models a side
// with every action of the bundled rules, a loot and a hold objective, the core's own planner
// over the table's static visibility graph (as the Python engine hands it over,
// NativeTable.ensure_nav), and the spread opening.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "riven/game/forward_model.hpp"
#include "riven/game/loop.hpp"
#include "riven/game/native_planner.hpp"
#include "riven/game/state.hpp"
#include "riven/table/table.hpp"
#include "rules_fixture.hpp"

namespace skirmish_fixture {

using riven::game::ForwardModel;
using riven::game::GameState;
using riven::game::GameStatic;
using riven::table::Point;
using riven::table::Shape;
using riven::table::TableGeometry;

inline Shape rect(double x0, double y0, double x1, double y1) {
  return Shape({x0, y0, x1, y0, x1, y1, x0, y1, x0, y0}, {5});
}

inline std::shared_ptr<TableGeometry> make_table() {
  std::vector<riven::table::Piece> pieces;
  pieces.push_back(riven::table::Piece{rect(11, 4, 12, 14), 2, true, false, true});
  pieces.push_back(riven::table::Piece{rect(5, 9, 8, 12), 1, true, true, false});
  pieces.push_back(riven::table::Piece{rect(16, 2, 19, 5), 0, false, true, false});
  auto table = std::make_shared<TableGeometry>(24.0, 24.0, riven::table::TableSettings{0.02, 1.0, 0.5, 0.25},
                                               std::move(pieces), rect(11, 4, 12, 14), rect(5, 9, 8, 12),
                                               rect(16, 2, 19, 5));
  riven::table::RadiusGeometry geometry;
  geometry.radius = 0.5;
  geometry.clearance = rect(10.5, 3.5, 12.5, 14.5);
  geometry.inside = {rect(10.52, 3.52, 12.48, 14.48), rect(4.52, 8.52, 8.48, 12.48), rect(15.52, 1.52, 19.48, 5.48)};
  geometry.touching = {rect(10.48, 3.48, 12.52, 14.52), rect(4.48, 8.48, 8.52, 12.52), rect(15.48, 1.48, 19.52, 5.52)};
  geometry.cols = 48;
  geometry.rows = 48;
  for (std::size_t cell = 0; cell < 48 * 48; ++cell) {
    geometry.cover_starts.push_back(geometry.cover_ids.size());
    geometry.cover_ids.push_back(0);
    geometry.cover_ids.push_back(1);
  }
  geometry.cover_starts.push_back(geometry.cover_ids.size());
  const std::size_t index = table->add_radius(std::move(geometry));
  table->alias_radius(0.5, index);
  // geometry.toml's routing settings: six-sided rings of waypoints around bases.
  riven::table::RoutingSettings routing;
  constexpr double kPi = 3.141592653589793;
  for (const std::size_t sides : {std::size_t{6}, std::size_t{12}}) {
    auto& ring = sides == 6 ? routing.ring : routing.wrap_ring;
    for (std::size_t k = 0; k < sides; ++k) {
      const double angle = 2.0 * kPi * static_cast<double>(k) / static_cast<double>(sides);
      ring.push_back(Point{std::cos(angle), std::sin(angle)});
    }
  }
  table->set_routing(std::move(routing));
  // The wall's clearance (10.5..12.5 x 3.5..14.5) with its four corners pushed out by the
  // waypoint margin; neighbouring corners see each other along the sides, the diagonals cross it.
  riven::table::NavGraph nav;
  nav.nodes = {Point{10.4, 3.4}, Point{12.6, 3.4}, Point{12.6, 14.6}, Point{10.4, 14.6}};
  const std::size_t n = nav.nodes.size();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  nav.cost.assign(n * n, kInf);
  nav.edges = {{0, 1}, {1, 2}, {2, 3}, {0, 3}};
  for (const auto& [a, b] : nav.edges) {
    const double cost = table->segment_cost(nav.nodes[a], nav.nodes[b]);
    nav.cost[a * n + b] = cost;
    nav.cost[b * n + a] = cost;
  }
  nav.dist = nav.cost;
  nav.next_hop.assign(n * n, -1);
  for (std::size_t a = 0; a < n; ++a) {
    nav.dist[a * n + a] = 0.0;
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b || nav.cost[a * n + b] < kInf) nav.next_hop[a * n + b] = static_cast<std::int64_t>(b);
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = 0; b < n; ++b) {
        const double via = nav.dist[a * n + k] + nav.dist[k * n + b];
        if (via < nav.dist[a * n + b]) {
          nav.dist[a * n + b] = via;
          nav.next_hop[a * n + b] = nav.next_hop[a * n + k];
        }
      }
    }
  }
  nav.bounds = riven::table::Box{0.5, 0.5, 23.5, 23.5};
  // Behind the wall and the woods, as destinations._cover_spots would list them.
  nav.cover_spots = {Point{10.3, 9.0}, Point{12.7, 9.0}, Point{6.5, 8.3}, Point{6.5, 12.7}};
  table->set_nav(index, std::move(nav));
  return table;
}

inline riven::rules::Weapon weapon(std::string name, std::string kind, double range, int modifier,
                            std::vector<std::string> traits) {
  return riven::rules::Weapon{std::move(name), std::move(kind), range, modifier, std::move(traits)};
}

inline std::shared_ptr<const GameStatic> skirmish(const riven::rules::RulesConfig& rules) {
  auto st = std::make_shared<GameStatic>();
  st->model_ids = {"blue-leader", "blue-2", "blue-3", "red-leader", "red-2", "red-3"};
  st->model_sides = {0, 0, 0, 1, 1, 1};
  st->model_profile = {0, 1, 2, 0, 1, 2};
  st->model_oracle = {-1, -1, -1, -1, -1, -1};
  auto profile = [](std::string name, int might, int agility, int wit, int resolve, int mettle, int wounds,
                    bool ranged, std::vector<std::string> keywords) {
    riven::game::Profile p;
    p.name = std::move(name);
    p.might = might;
    p.agility = agility;
    p.wit = wit;
    p.resolve = resolve;
    p.mettle = mettle;
    p.wounds = wounds;
    p.move = 5.0;
    p.base_diameter = 1.0;
    p.has_melee = true;
    p.has_ranged = ranged;
    p.ranged_range = ranged ? 18.0 : 0.0;
    p.keywords = std::move(keywords);
    return p;
  };
  st->profiles = {profile("captain", 3, 2, 2, 3, 4, 2, false, {"leader"}),
                  profile("archer", 1, 3, 2, 2, 3, 1, true, {"ranged"}),
                  profile("brute", 4, 1, 1, 1, 3, 2, false, {"terror"})};
  st->objectives = {riven::game::Objective{"cache", 6.0, 18.0, 1.0, "loot", 2},
                    riven::game::Objective{"hill", 18.0, 12.0, 2.0, "hold", 1}};
  st->table_width = 24.0;
  st->table_height = 24.0;
  st->round_limit = 6;
  st->owners = {"blue", "red"};
  st->actions = {"move", "charge", "melee",    "shoot", "aim",   "disengage", "focus",
                 "rest", "stabilise", "rally", "interact", "take_cover", "end"};
  for (const auto& c : rules.conditions) st->conditions.push_back(c.name);
  st->options = {"reroll:0", "reroll:1", "boost", "strain", "accept"};
  st->destination_kinds = {"toward_enemy", "toward_objective", "cover_from_enemy", "away", "toward_friend",
                           "objective"};
  st->validate();
  return st;
}

/// The fixture's forward model under `base` rules (nullptr: the bundled RIVEN rules).
inline ForwardModel forward_model(const std::shared_ptr<const GameStatic>& st,
                                  const riven::rules::RulesConfig* base = nullptr) {
  ForwardModel fm;
  auto rules = std::make_shared<riven::rules::RulesConfig>(base != nullptr ? *base : riven::testing::riven_v01());
  for (auto& t : rules->morale.triggers) t.enabled = true;  // every trigger in the soak
  fm.rules = rules;
  auto table = make_table();
  fm.table = table;
  fm.planner = std::make_shared<riven::game::NativePlanner>(table, 0.0);  // geometry.toml [destinations] enemy_gap
  using riven::game::ActionSpec;
  fm.actions = {ActionSpec{"move", 1, "", "", false, {}, "", {}},
                ActionSpec{"charge", 1, "", "", false, {}, "", {}},
                ActionSpec{"melee", 1, "", "", false, {}, "", {}},
                ActionSpec{"shoot", 1, "agility", "", false, {}, "", {}},
                ActionSpec{"aim", 1, "", "", false, {}, "aiming", {}},
                ActionSpec{"disengage", 1, "agility", "standard", false, {}, "", {}},
                ActionSpec{"focus", 1, "", "", false, {}, "", {}},  // RAW: Focus may repeat
                ActionSpec{"rest", 1, "", "", false, {"charge", "disengage", "melee", "move", "shoot"}, "", {}},
                ActionSpec{"stabilise", 1, "", "", false, {}, "", {}},
                ActionSpec{"rally", 1, "resolve", "standard", false, {}, "", {"dazed", "pinned", "shaken"}},
                ActionSpec{"interact", 1, "wit", "standard", false, {}, "", {}},
                ActionSpec{"take_cover", 1, "", "", false, {}, "hunkered", {}},
                ActionSpec{"end", 0, "", "", false, {}, "", {}}};
  fm.melee = {weapon("sword", "melee", 0.0, 0, {}), weapon("knife", "melee", 0.0, -1, {}),
              weapon("maul", "melee", 0.0, 1, {"heavy", "unwieldy"})};
  fm.ranged = {std::nullopt, weapon("bow", "ranged", 18.0, 0, {"piercing"}), std::nullopt};
  fm.unarmed = weapon("unarmed", "melee", 0.0, -1, {});
  riven::game::VictoryCondition eliminate;
  eliminate.type = "eliminate";
  riven::game::VictoryCondition hold;
  hold.type = "hold";
  hold.points = 1;
  riven::game::VictoryCondition casualties;
  casualties.type = "casualties";
  casualties.points = 1;
  fm.victory = {eliminate, hold, casualties};
  fm.prepare(*st);
  return fm;
}

inline GameState opening(const std::shared_ptr<const GameStatic>& st, std::uint64_t seed) {
  GameState state = GameState::initial(st, 0);
  const double xs[3] = {4.0, 10.0, 16.0};
  for (std::size_t k = 0; k < 3; ++k) {
    state.models[k].x = xs[k];
    state.models[k].y = 2.0;
    state.models[k + 3].x = xs[k] + 2.0;
    state.models[k + 3].y = 21.0;
  }
  state.rng.set_state(riven::rules::Pcg64State{seed * 7919 + 11, 2 * seed + 1, false, 0});
  return state;
}

}  // namespace skirmish_fixture
