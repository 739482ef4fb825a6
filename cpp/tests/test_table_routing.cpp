// Routing (cpp/riven/table/routing.hpp) on a small hand-built table: a wall with two
// waypoints over its top end, a marsh, and bases in the way. Checks the straight line, the
// route over the wall through the static graph, the detour around a base on that route, a
// charge into contact, the menu's "away" and "toward" moves, the around flight, numpy's
// pairwise sum and the convex hull. tests/test_native_table.py holds the core to the Python
// reference on real maps; this runs the same code under ASan/UBSan.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "riven/table/routing.hpp"
#include "riven/table/table.hpp"

namespace {

using riven::table::BasesView;
using riven::table::DestinationKind;
using riven::table::NavGraph;
using riven::table::Piece;
using riven::table::Point;
using riven::table::RadiusGeometry;
using riven::table::RoutingSettings;
using riven::table::Shape;
using riven::table::TableGeometry;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.141592653589793;

Shape rect(double x0, double y0, double x1, double y1) {
  return Shape({x0, y0, x1, y0, x1, y1, x0, y1, x0, y0}, {5});
}

std::vector<Point> unit_ring(std::size_t sides) {
  std::vector<Point> ring;
  for (std::size_t k = 0; k < sides; ++k) {
    const double angle = 2.0 * kPi * static_cast<double>(k) / static_cast<double>(sides);
    ring.push_back(Point{std::cos(angle), std::sin(angle)});
  }
  return ring;
}

// Wall (impassable) at x 10..11, y 0..20; marsh (difficult) at 2..6 x 0..4; bases of radius 0.5.
TableGeometry make_table() {
  std::vector<Piece> pieces;
  pieces.push_back(Piece{rect(10, 0, 11, 20), 2, true, false, true});
  pieces.push_back(Piece{rect(2, 0, 6, 4), 0, false, true, false});
  TableGeometry table(30.0, 30.0, riven::table::TableSettings{0.02, 1.0, 0.5, 0.25}, std::move(pieces),
                      rect(10, 0, 11, 20), Shape(), rect(2, 0, 6, 4));
  RadiusGeometry geometry;
  geometry.radius = 0.5;
  geometry.clearance = rect(9.52, -0.48, 11.48, 20.48);
  geometry.inside = {rect(9.52, -0.48, 11.48, 20.48), rect(1.52, -0.48, 6.48, 4.48)};
  geometry.touching = {rect(9.48, -0.52, 11.52, 20.52), rect(1.48, -0.52, 6.52, 4.52)};
  geometry.cover_starts = {0, 0};
  const std::size_t index = table.add_radius(std::move(geometry));
  table.alias_radius(0.5, index);
  RoutingSettings routing;
  routing.waypoint_margin = 0.1;
  routing.base_waypoint_sides = 8;
  routing.ring = unit_ring(8);
  routing.wrap_ring = unit_ring(16);
  routing.cover_max_candidates = 4;
  table.set_routing(std::move(routing));
  // Two waypoints over the wall's top end; they see each other. Floyd-Warshall by hand.
  NavGraph nav;
  nav.nodes = {Point{9.4, 20.6}, Point{11.6, 20.6}};
  const double hop = 11.6 - 9.4;
  nav.cost = {kInf, hop, hop, kInf};
  nav.dist = {0.0, hop, hop, 0.0};
  nav.next_hop = {0, 1, 0, 1};
  nav.edges = {{0, 1}};
  nav.bounds = riven::table::Box{0.5, 0.5, 29.5, 29.5};
  nav.cover_spots = {Point{9.3, 10.0}, Point{11.7, 10.0}};
  table.set_nav(index, std::move(nav));
  return table;
}

struct Layout {
  std::vector<double> centers;
  std::vector<double> radii;
  std::vector<std::uint8_t> on;
  [[nodiscard]] BasesView view() const { return BasesView{centers, radii, on}; }
};

double segment_gap(Point a, Point b, Point c) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double t = std::clamp(((c.x - a.x) * dx + (c.y - a.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
  return std::hypot(c.x - (a.x + t * dx), c.y - (a.y + t * dy));
}

void test_straight_route_in_open_ground() {
  const TableGeometry table = make_table();
  const Layout layout{{15.0, 5.0, 25.0, 25.0}, {0.5, 0.5}, {1, 1}};
  const auto route = riven::table::route(table, layout.view(), 0, 10.0, Point{20.0, 9.0}, std::nullopt);
  RIVEN_CHECK(route.points.size() == 2);
  RIVEN_CHECK(route.goal_reached);
  RIVEN_CHECK(route.cost == riven::table::python_hypot(5.0, 4.0));
}

void test_route_over_the_wall_uses_the_waypoints() {
  const TableGeometry table = make_table();
  const Layout layout{{5.0, 5.0}, {0.5}, {1}};
  const auto route = riven::table::route(table, layout.view(), 0, 100.0, Point{15.0, 5.0}, std::nullopt);
  RIVEN_CHECK(route.goal_reached);
  RIVEN_CHECK(route.points.size() == 4);
  RIVEN_CHECK(route.points[1].x == 9.4 && route.points[2].x == 11.6);
  const double expected = std::hypot(4.4, 15.6) + (11.6 - 9.4) + std::hypot(3.4, 15.6);
  RIVEN_CHECK(std::fabs(route.cost - expected) < 1e-12);
  // Truncated to an allowance: the plan ends partway up the first leg.
  const auto plan = riven::table::plan_move(table, layout.view(), 0, Point{15.0, 5.0}, 6.0, std::nullopt);
  RIVEN_CHECK(!plan.reached);
  RIVEN_CHECK(std::fabs(plan.cost - 6.0) < 1e-12);
  RIVEN_CHECK(plan.path.size() == 2);
}

void test_a_base_on_the_route_is_detoured() {
  const TableGeometry table = make_table();
  // The first leg (5, 5) -> (9.4, 20.6) passes (7.2, 12.8): a base stands there.
  const Layout layout{{5.0, 5.0, 7.2, 12.8}, {0.5, 0.5}, {1, 1}};
  const auto route = riven::table::route(table, layout.view(), 0, 100.0, Point{15.0, 5.0}, std::nullopt);
  RIVEN_CHECK(route.goal_reached);
  RIVEN_CHECK(route.points.size() > 4);
  for (std::size_t k = 1; k < route.points.size(); ++k) {
    RIVEN_CHECK(segment_gap(route.points[k - 1], route.points[k], Point{7.2, 12.8}) >= 1.0 - 0.02);
  }
  const double direct = std::hypot(4.4, 15.6) + (11.6 - 9.4) + std::hypot(3.4, 15.6);
  RIVEN_CHECK(route.cost > direct);
}

void test_charge_into_contact_and_charge_targets() {
  const TableGeometry table = make_table();
  const Layout layout{{15.0, 5.0, 19.0, 5.0, 28.0, 28.0}, {0.5, 0.5, 0.5}, {1, 1, 1}};
  const auto plan = riven::table::plan_charge(table, layout.view(), 0, 1, 6.0);
  RIVEN_CHECK(plan.has_value());
  RIVEN_CHECK(plan->reached);
  const Point end = plan->path.back();
  RIVEN_CHECK(std::fabs(std::hypot(end.x - 19.0, end.y - 5.0) - (1.0 + 0.01)) < 1e-9);
  RIVEN_CHECK(!riven::table::plan_charge(table, layout.view(), 0, 2, 6.0).has_value());
  const std::vector<std::int64_t> enemies{1, 2, 0};
  const auto targets = riven::table::charge_targets(table, layout.view(), 0, 6.0, enemies);
  RIVEN_CHECK(targets.size() == 1 && targets.front() == 1);
}

void test_destination_menu_moves() {
  const TableGeometry table = make_table();
  const Layout layout{{20.0, 15.0, 25.0, 15.0, 20.0, 20.0}, {0.5, 0.5, 0.5}, {1, 1, 1}};
  const std::vector<Point> objectives{Point{20.0, 10.0}};
  const auto away = riven::table::plan_destination(table, layout.view(), 0, 4.0, DestinationKind::kAway, 1,
                                                   objectives, 1.0);
  RIVEN_CHECK(away.has_value());
  RIVEN_CHECK(away->label == "away from enemy 1");
  RIVEN_CHECK(std::fabs(away->point.x - 16.0) < 1e-12 && std::fabs(away->point.y - 15.0) < 1e-12);
  const auto toward = riven::table::plan_destination(table, layout.view(), 0, 10.0, DestinationKind::kTowardEnemy, 1,
                                                     objectives, 1.0);
  RIVEN_CHECK(toward.has_value() && toward->reached);
  // One inch short of contact (contact at 1.01 between centres).
  RIVEN_CHECK(std::fabs(toward->point.x - (25.0 - 2.01)) < 1e-9);
  const auto objective = riven::table::plan_destination(table, layout.view(), 0, 10.0,
                                                        DestinationKind::kTowardObjective, 0, objectives, 1.0);
  RIVEN_CHECK(objective.has_value() && objective->reached && objective->label == "toward objective 0");
  const auto friendly = riven::table::plan_destination(table, layout.view(), 0, 10.0, DestinationKind::kTowardFriend,
                                                       2, objectives, 1.0);
  RIVEN_CHECK(friendly.has_value() && friendly->reached);
  bool threw = false;
  try {
    (void)riven::table::plan_destination(table, layout.view(), 0, 4.0, DestinationKind::kTowardObjective, 3,
                                         objectives, 1.0);
  } catch (const std::out_of_range&) {
    threw = true;
  }
  RIVEN_CHECK(threw);
}

void test_candidate_menu_is_ordered_and_distinct() {
  const TableGeometry table = make_table();
  // Mover 0 with enemy 1 to the east and friend 2 to the north. Objective 1 is a shorter move
  // than min_move; objective 2 ends 0.2 from where "toward enemy 1" ends (distinct_distance
  // 0.5): both dropped.
  const Layout layout{{20.0, 15.0, 25.0, 15.0, 20.0, 20.0}, {0.5, 0.5, 0.5}, {1, 1, 1}};
  const std::vector<std::int64_t> enemies{1};
  const std::vector<std::int64_t> friends{0, 2};
  const std::vector<Point> objectives{Point{20.0, 10.0}, Point{20.0, 15.1}, Point{23.99, 15.2}};
  const auto menu = riven::table::candidate_destinations(table, layout.view(), 0, 10.0, enemies, friends, objectives, 0.0);
  std::vector<DestinationKind> kinds;
  for (const auto& d : menu) kinds.push_back(d.kind);
  // toward enemy 1, toward objective 0, (no cover: the hidden spot is not reached in time),
  // away, toward friend 2.
  RIVEN_CHECK(menu.size() == 4);
  RIVEN_CHECK(kinds.size() == 4 && kinds[0] == DestinationKind::kTowardEnemy &&
              kinds[1] == DestinationKind::kTowardObjective && kinds[2] == DestinationKind::kAway &&
              kinds[3] == DestinationKind::kTowardFriend);
  RIVEN_CHECK(menu.size() == 4 && menu[3].ref == 2 && menu[3].label == "toward friend 2");
  const auto none = riven::table::candidate_destinations(table, layout.view(), 0, 0.0, enemies, friends, objectives, 0.0);
  RIVEN_CHECK(none.empty());
}

void test_around_flight_reaches_the_edge() {
  const TableGeometry table = make_table();
  // Nearest edge: the top (y = 30); a base right ahead is walked around.
  const Layout layout{{15.0, 26.0, 15.0, 27.2}, {0.5, 0.5}, {1, 1}};
  const auto [plan, left] = riven::table::plan_flight_around(table, layout.view(), 0, 8.0);
  RIVEN_CHECK(left);
  RIVEN_CHECK(plan.reached);
  RIVEN_CHECK(std::fabs(plan.path.back().y - 29.5) < 1e-9);
}

void test_numpy_sum_is_pairwise_from_eight_values() {
  // Sequential addition loses the small values against 1e16; numpy's eight accumulators keep
  // them apart until the end.
  std::vector<double> values{1e16, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
  double sequential = 0.0;
  for (const double v : values) sequential += v;
  const double pairwise = riven::table::numpy_sum(values);
  const double r = ((1e16 + 1.0) + (1.0 + 1.0)) + ((1.0 + 1.0) + (1.0 + 1.0));
  RIVEN_CHECK(pairwise == r + 1.0);
  RIVEN_CHECK(riven::table::numpy_sum(std::vector<double>{1.0, 2.0, 3.0}) == 6.0);
  (void)sequential;
}

void test_convex_hull_drops_collinear_points() {
  const auto hull = riven::table::convex_hull({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {1, 1}, {0, 1}, {1, 0.5}});
  RIVEN_CHECK(hull.size() == 4);
  RIVEN_CHECK(hull[0].x == 0.0 && hull[0].y == 0.0);
  RIVEN_CHECK(hull[1].x == 2.0 && hull[1].y == 0.0);  // counter-clockwise
  RIVEN_CHECK(hull[2].x == 2.0 && hull[2].y == 1.0);
}

void test_unregistered_graph_is_an_error() {
  std::vector<Piece> pieces;
  TableGeometry table(10.0, 10.0, riven::table::TableSettings{}, std::move(pieces), Shape(), Shape(), Shape());
  RadiusGeometry geometry;
  geometry.radius = 0.5;
  geometry.cover_starts = {0, 0};
  table.alias_radius(0.5, table.add_radius(std::move(geometry)));
  const Layout layout{{5.0, 5.0}, {0.5}, {1}};
  bool threw = false;
  try {
    (void)riven::table::route(table, layout.view(), 0, 1.0, Point{6.0, 6.0}, std::nullopt);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  RIVEN_CHECK(threw);
}

}  // namespace

int main() {
  test_straight_route_in_open_ground();
  test_route_over_the_wall_uses_the_waypoints();
  test_a_base_on_the_route_is_detoured();
  test_charge_into_contact_and_charge_targets();
  test_destination_menu_moves();
  test_candidate_menu_is_ordered_and_distinct();
  test_around_flight_reaches_the_edge();
  test_numpy_sum_is_pairwise_from_eight_values();
  test_convex_hull_drops_collinear_points();
  test_unregistered_graph_is_an_error();
  return RIVEN_TEST_RESULT();
}
