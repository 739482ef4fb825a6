// Routing one model across the table, around terrain and the other models' bases.
//
// A faithful mirror of riven_env/table/routing.py (Navigator.route: the straight line, the
// terrain route on the static visibility graph with its lazy link checks, the detour around
// a crossed cluster of bases, the graph with blocking bases as obstacles, the nearest
// reachable waypoint), of movement.plan_with / plan_move / plan_charge / charge_targets /
// plan_flight(around=True), and of destinations.plan_destination. The static graph (waypoints,
// edge costs, all-pairs costs and next hops, cover spots) is the one the Python engine built
// with shapely and networkx (TableGeometry::set_nav); everything that depends on where the
// bases stand is computed here, with the same operations in the same order. Nothing is cached
// across calls: Python's caches only reuse answers, and docs/tabletop.md ("Native core") lists
// the one place where a cached link's last bit may depend on the batch it was checked in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "riven/table/table.hpp"

namespace riven::table {

/// routing.Route: a planned route before truncation to an allowance.
struct Route {
  std::vector<Point> points;
  double cost = 0.0;
  bool goal_reached = false;
  std::vector<double> costs;  // per segment, when the search knows them
  bool has_costs = false;
};

/// destinations.Destination.
struct Destination {
  DestinationKind kind = DestinationKind::kTowardEnemy;
  std::int64_t ref = -1;
  Point point;
  double cost = 0.0;
  std::string label;
  std::vector<Point> path;
  bool reached = false;
};

/// Navigator.route for model ``mover``: to ``goal`` or into base contact with ``target``
/// (exactly one of them), only the part within ``allowance`` clear of bases. The full route.
[[nodiscard]] Route route(const TableGeometry& table, const BasesView& bases, std::size_t mover, double allowance,
                          std::optional<Point> goal, std::optional<std::size_t> target);

/// movement.plan_move / plan_with: toward ``goal`` or into contact with ``stop_in_contact_with``.
[[nodiscard]] StraightPlan plan_move(const TableGeometry& table, const BasesView& bases, std::size_t i,
                                     std::optional<Point> goal, double allowance,
                                     std::optional<std::size_t> stop_in_contact_with);

/// movement.plan_charge: a path into base contact with ``target`` within ``reach``, or none.
[[nodiscard]] std::optional<StraightPlan> plan_charge(const TableGeometry& table, const BasesView& bases,
                                                      std::size_t i, std::size_t target, double reach);

/// movement.charge_targets: those of ``enemies`` (in order) with a legal charge path.
[[nodiscard]] std::vector<std::int64_t> charge_targets(const TableGeometry& table, const BasesView& bases,
                                                       std::size_t i, double reach,
                                                       std::span<const std::int64_t> enemies);

/// movement.plan_flight(around=True): (plan, left_table).
[[nodiscard]] std::pair<StraightPlan, bool> plan_flight_around(const TableGeometry& table, const BasesView& bases,
                                                               std::size_t i, double distance);

/// destinations.plan_destination; ``enemy_gap`` already resolved (the data default when the
/// caller passed none). ``ref`` is an enemy, objective or friend index (-1: none).
[[nodiscard]] std::optional<Destination> plan_destination(const TableGeometry& table, const BasesView& bases,
                                                          std::size_t i, double allowance, DestinationKind kind,
                                                          std::int64_t ref, std::span<const Point> objectives,
                                                          double enemy_gap);

/// destinations.candidate_destinations: the full menu with planned paths, in the fixed kind
/// order, moves shorter than min_move and ends within distinct_distance of an earlier one
/// dropped. ``enemy_gap`` already resolved.
[[nodiscard]] std::vector<Destination> candidate_destinations(const TableGeometry& table, const BasesView& bases,
                                                              std::size_t i, double allowance,
                                                              std::span<const std::int64_t> enemies,
                                                              std::span<const std::int64_t> friends,
                                                              std::span<const Point> objectives, double enemy_gap);

/// numpy's np.sum of a float64 row (pairwise summation, as numpy's pairwise_sum adds).
[[nodiscard]] double numpy_sum(std::span<const double> values);

/// The convex hull of points, counter-clockwise without collinear vertices, starting at the
/// lowest point (the leftmost of those), as orient(shapely.convex_hull(...), 1.0) lists it.
[[nodiscard]] std::vector<Point> convex_hull(std::vector<Point> points);

}  // namespace riven::table
