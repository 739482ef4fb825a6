// The tabletop queries of cpp/riven/table/table.hpp on a small hand-built table: sight through
// and out of woods, cover in and behind pieces, contacts at the tolerance, straight flight
// through difficult ground and into a base, recoil against a wall and the table edge.
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "riven/table/table.hpp"

namespace {

using riven::table::BasesView;
using riven::table::Piece;
using riven::table::Point;
using riven::table::RadiusGeometry;
using riven::table::Shape;
using riven::table::TableGeometry;

Shape rect(double x0, double y0, double x1, double y1) {
  return Shape({x0, y0, x1, y0, x1, y1, x0, y1, x0, y0}, {5});
}

// Pieces: 0 a wall (hard, blocks, impassable) at x 10..11, y 0..20; 1 woods (soft, blocks,
// difficult) at 20..24 x 10..14; 2 a marsh (difficult) at 2..6 x 0..4.
TableGeometry make_table() {
  std::vector<Piece> pieces;
  pieces.push_back(Piece{rect(10, 0, 11, 20), 2, true, false, true});
  pieces.push_back(Piece{rect(20, 10, 24, 14), 1, true, true, false});
  pieces.push_back(Piece{rect(2, 0, 6, 4), 0, false, true, false});
  TableGeometry table(30.0, 30.0, riven::table::TableSettings{0.02, 1.0, 0.5, 0.25}, std::move(pieces),
                      rect(10, 0, 11, 20), rect(20, 10, 24, 14), rect(2, 0, 6, 4));
  // Radius 0.5 (square growth is enough for these checks: the Python side passes GEOS's shapes).
  RadiusGeometry geometry;
  geometry.radius = 0.5;
  geometry.clearance = rect(9.5, -0.5, 11.5, 20.5);
  geometry.inside = {rect(9.52, -0.48, 11.48, 20.48), rect(19.52, 9.52, 24.48, 14.48), rect(1.52, -0.48, 6.48, 4.48)};
  geometry.touching = {rect(9.48, -0.52, 11.52, 20.52), rect(19.48, 9.48, 24.52, 14.52), rect(1.48, -0.52, 6.52, 4.52)};
  geometry.cols = 60;
  geometry.rows = 60;
  // Every cell lists the two cover pieces (a superset is what the grid may hold).
  for (std::size_t cell = 0; cell < 3600; ++cell) {
    geometry.cover_starts.push_back(geometry.cover_ids.size());
    geometry.cover_ids.push_back(0);
    geometry.cover_ids.push_back(1);
  }
  geometry.cover_starts.push_back(geometry.cover_ids.size());
  table.alias_radius(0.5, table.add_radius(std::move(geometry)));
  return table;
}

struct Layout {
  std::vector<double> centers;
  std::vector<double> radii;
  std::vector<std::uint8_t> on;
  [[nodiscard]] BasesView view() const { return BasesView{centers, radii, on}; }
};

void sight_and_cover(const TableGeometry& table) {
  RIVEN_CHECK(!table.line_of_sight({5, 10}, 0.5, {15, 10}, 0.5));  // through the wall
  RIVEN_CHECK(table.line_of_sight({15, 25}, 0.5, {28, 25}, 0.5));  // open ground
  RIVEN_CHECK(!table.line_of_sight({18, 12}, 0.5, {26, 12}, 0.5));  // through the woods
  RIVEN_CHECK(table.line_of_sight({22, 12}, 0.5, {28, 12}, 0.5));   // out of the woods
  RIVEN_CHECK(table.cover_for_shot({28, 12}, 0.5, {22, 12}, 0.5) == 1);   // in the woods
  RIVEN_CHECK(table.cover_for_shot({5, 15}, 0.5, {11.8, 15}, 0.5) == 2);  // behind the wall
  RIVEN_CHECK(table.cover_for_shot({9.5, 15}, 0.5, {11.8, 15}, 0.5) == 0);  // the shooter's own wall
  RIVEN_CHECK(table.cover_for_shot({15, 25}, 0.5, {28, 25}, 0.5) == 0);
  const auto [visible, cover] = table.sight_between({5, 10}, 0.5, {15, 10}, 0.5);
  RIVEN_CHECK(!visible && cover == 0);
  bool refused = false;
  try {
    (void)table.line_of_sight({18, 12}, 0.7, {26, 12}, 0.5);  // radius 0.7 never registered
  } catch (const std::out_of_range&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
}

void contacts_at_the_tolerance() {
  Layout bases{{0.0, 0.0, 1.01, 0.0, 0.0, 1.0200001, 5.0, 5.0}, {0.5, 0.5, 0.5, 0.5}, {1, 1, 1, 1}};
  const auto touching = riven::table::contacts(bases.view(), 0, 0.02);
  RIVEN_CHECK(touching.size() == 1 && touching[0] == 1);
  RIVEN_CHECK(riven::table::engagements(bases.view(), 0.02).size() == 1);
  const std::vector<std::int64_t> candidates{3, 2, 1};
  RIVEN_CHECK(riven::table::nearest(bases.view(), 0, candidates) == std::optional<std::size_t>(1));
  bases.on[1] = 0;
  RIVEN_CHECK(riven::table::contacts(bases.view(), 0, 0.02).empty());
  RIVEN_CHECK(std::isinf(riven::table::edge_distance(bases.view(), 0, 1)));
  RIVEN_CHECK(riven::table::models_within_point(bases.view(), {5.0, 4.0}, 0.5).size() == 1);
}

void flight_and_recoil(const TableGeometry& table) {
  // Down through the marsh toward the bottom edge: the 3" flight pays for 1.5" of marsh.
  Layout runner{{4.0, 3.0, 25.0, 25.0}, {0.5, 0.5}, {1, 1}};
  const auto [plan, left] = table.plan_flight(runner.view(), 0, 3.0);
  RIVEN_CHECK(!left);
  RIVEN_CHECK(plan.path.size() == 2 && std::abs(plan.path.back().y - 1.5) < 1e-12);
  RIVEN_CHECK(std::abs(plan.cost - 3.0) < 1e-12);
  // Far enough, it touches the edge and leaves the table.
  const auto [gone, fled_marsh] = table.plan_flight(runner.view(), 0, 6.0);
  RIVEN_CHECK(fled_marsh && gone.reached && std::abs(gone.path.back().y - 0.5) < 1e-12);
  // A base in the lane stops the runner in contact.
  Layout lane{{15.0, 5.0, 15.0, 2.0}, {0.5, 0.5}, {1, 1}};
  const auto [stopped, fled] = table.plan_flight(lane.view(), 0, 10.0);
  RIVEN_CHECK(!fled);
  RIVEN_CHECK(std::abs(stopped.path.back().y - 3.0) < 1e-12);
  // Recoil into the wall: stops a hair short of the grown wall.
  Layout pushed{{13.0, 10.0}, {0.5}, {1}};
  const auto recoil = table.plan_push(pushed.view(), 0, Point{20.0, 10.0}, 3.0);
  RIVEN_CHECK(!recoil.reached);
  RIVEN_CHECK(std::abs(recoil.path.back().x - (11.5 + 1e-6)) < 1e-12);
  // Recoil toward the table edge stops at the edge; no direction, no move.
  const auto edge = table.plan_push(pushed.view(), 0, Point{13.0, 20.0}, 20.0);
  RIVEN_CHECK(std::abs(edge.path.back().y - 0.5) < 1e-12);
  const auto still = table.plan_push(pushed.view(), 0, Point{13.0, 10.0}, 2.0);
  RIVEN_CHECK(still.path.size() == 1 && !still.reached);
  RIVEN_CHECK(std::abs(table.segment_cost({0, 2}, {8, 2}) - 12.0) < 1e-12);  // 4" of marsh cost 8
}

void destination_menu(const TableGeometry& table) {
  // Model 0 touches enemy 1 (no move toward it), enemy 2 is far; friend 3 far, friend 4 off.
  Layout bases{{15.0, 25.0, 16.01, 25.0, 25.0, 25.0, 15.0, 28.0, 5.0, 25.0}, {0.5, 0.5, 0.5, 0.5, 0.5}, {1, 1, 1, 1, 0}};
  const std::vector<std::int64_t> enemies{1, 2};
  const std::vector<std::int64_t> friends{3, 4, 0};
  const std::vector<Point> objectives{{15.1, 25.0}, {20.0, 20.0}};
  using riven::table::DestinationKind;
  const auto options = table.destination_options(bases.view(), 0, enemies, friends, objectives);
  const std::vector<std::pair<DestinationKind, std::int64_t>> expected{
      {DestinationKind::kTowardEnemy, 2}, {DestinationKind::kTowardObjective, 1},
      {DestinationKind::kCoverFromEnemy, 1}, {DestinationKind::kAway, 1}, {DestinationKind::kTowardFriend, 3}};
  RIVEN_CHECK(options == expected);
  bases.on[0] = 0;
  RIVEN_CHECK(table.destination_options(bases.view(), 0, enemies, friends, objectives).empty());
}

}  // namespace

int main() {
  const TableGeometry table = make_table();
  sight_and_cover(table);
  contacts_at_the_tolerance();
  flight_and_recoil(table);
  destination_menu(table);
  return RIVEN_TEST_RESULT();
}
