// The routing seam of the game loop: every move the Python engine plans through
// riven_env/table/routing.py (a destination's path, a charge path, the `around` flight) goes
// through this interface. Its signatures mirror the Python functions one for one
// (riven_env/table/destinations.py plan_destination, riven_env/table/movement.py plan_charge,
// charge_targets, plan_push, plan_flight), so that a native router (cpp/riven/table/routing) or the Python
// one (a callback, cpp/bindings/bind_game_loop.cpp) can stand behind it. Pushes and flights go
// through it too: NativePlanner (native_planner.hpp, the default) answers them with the table's
// own plan_push / plan_flight, which match GEOS's intersection points bit for bit
// (docs/native-game-state.md, "Game loop").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "riven/table/table.hpp"

namespace riven::game {

/// riven_env/table/movement.py MovePlan.
struct MovePlan {
  table::Point start;
  table::Point end;
  std::vector<table::Point> path;
  double cost = 0.0;
  bool reached = false;
};

/// riven_env/table/destinations.py Destination (ref -1: None).
struct Destination {
  std::string kind;
  std::int64_t ref = -1;
  table::Point point;
  double cost = 0.0;
  std::string label;
  std::vector<table::Point> path;
  bool reached = false;
};

/// The planner the game loop asks for routes (the table is the planner's own).
class Planner {
 public:
  Planner() = default;
  Planner(const Planner&) = default;
  Planner& operator=(const Planner&) = default;
  Planner(Planner&&) = default;
  Planner& operator=(Planner&&) = default;
  virtual ~Planner() = default;

  /// plan_destination(table, bases, i, allowance, kind, ref, objectives=, enemy_gap=).
  [[nodiscard]] virtual std::optional<Destination> plan_destination(const table::BasesView& bases, std::size_t i,
                                                                    double allowance, const std::string& kind,
                                                                    std::int64_t ref,
                                                                    std::span<const table::Point> objectives,
                                                                    std::optional<double> enemy_gap) const = 0;
  /// plan_charge(table, bases, i, target, reach): a path into contact, or none.
  [[nodiscard]] virtual std::optional<MovePlan> plan_charge(const table::BasesView& bases, std::size_t i,
                                                            std::size_t target, double reach) const = 0;
  /// charge_targets(table, bases, i, reach, enemies): those of `enemies` a charge reaches.
  [[nodiscard]] virtual std::vector<std::int64_t> charge_targets(const table::BasesView& bases, std::size_t i,
                                                                 double reach,
                                                                 std::span<const std::int64_t> enemies) const = 0;
  /// plan_push(table, bases, i, away_from_xy, distance) (recoil, a critical shot's push).
  [[nodiscard]] virtual MovePlan plan_push(const table::BasesView& bases, std::size_t i, table::Point away_from,
                                           double distance) const = 0;
  /// plan_flight(table, bases, i, distance, around=): (plan, left_table).
  [[nodiscard]] virtual std::pair<MovePlan, bool> plan_flight(const table::BasesView& bases, std::size_t i,
                                                              double distance, bool around) const = 0;
};

}  // namespace riven::game
