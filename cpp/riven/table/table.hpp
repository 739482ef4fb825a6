// The tabletop's static geometry as the core holds it, and the dynamic queries on it.
//
// riven_env/native/table.py builds one TableGeometry per Python Table (and one RadiusGeometry
// per base radius asked) from the geometry the Python engine prepared with shapely: the
// footprints, the unions of line-blocking pieces, the pieces grown per base radius, the cover
// lookup grid. The queries here mirror riven_env/table/sight.py, measure.py and movement.py
// (straight flight and push) operation for operation; docs/tabletop.md ("Native core") lists
// the near-ties where they may differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "riven/table/geometry.hpp"

namespace riven::table {

/// One terrain piece's properties and footprint.
struct Piece {
  Shape shape;
  int cover_rank = 0;  // 0 none, 1 soft, 2 hard
  bool blocks_los = false;
  bool difficult = false;
  bool impassable = false;
};

/// The static visibility graph for bases of one radius (Python's navigation.StaticNav), as
/// the Python engine built it with shapely and networkx; routing.hpp routes on it.
struct NavGraph {
  std::vector<Point> nodes;              // waypoints
  std::vector<double> cost;              // (N, N) row-major edge costs (inf: no edge)
  std::vector<double> dist;              // (N, N) all-pairs cheapest costs (Floyd-Warshall)
  std::vector<double> dist_by_column;    // dist transposed (row v: dist[k][v] for every k); set_nav fills it
  std::vector<std::int64_t> next_hop;    // (N, N) the node after i on a cheapest way to j
  std::vector<std::pair<std::size_t, std::size_t>> edges;  // (i < j) in StaticNav.edges order
  std::vector<std::uint8_t> listed;      // (N, N): 1 where edges lists (i, j); set_nav fills it
  Box bounds;                            // StaticNav.bounds: where a base centre may stand
  std::vector<Point> cover_spots;        // destinations._cover_spots for this radius
  // Each waypoint's edges cheapest first (ties by index): row i is
  // by_cost[i * N .. i * N + by_cost_count[i]); set_nav fills them (the lazy search's cursors).
  std::vector<std::uint32_t> by_cost;
  std::vector<std::uint32_t> by_cost_count;

  [[nodiscard]] std::size_t size() const { return nodes.size(); }
};

/// Geometry for bases of one radius (Python's RadiusGeometry).
struct RadiusGeometry {
  double radius = 0.0;
  std::optional<Shape> clearance;  // impassable terrain grown by the radius
  std::vector<Shape> inside;       // per piece, grown by radius - contact tolerance
  std::vector<Shape> touching;     // per piece, grown by radius + contact tolerance
  // The cover grid: cell (cx, cy) lists cover_ids[cover_starts[cx * rows + cy] .. next).
  std::size_t cols = 1;
  std::size_t rows = 1;
  std::vector<std::size_t> cover_starts;
  std::vector<std::int32_t> cover_ids;
  std::optional<NavGraph> nav;  // registered on first route (TableGeometry::set_nav)

  [[nodiscard]] std::span<const std::int32_t> cover_candidates(double x, double y, double cell) const;
};

/// The settings the queries read (geometry.toml), passed in by the Python side.
struct TableSettings {
  double contact_tolerance = 0.02;
  double cover_behind_distance = 1.0;
  double cover_grid_cell = 0.5;
  double min_move = 0.25;  // [destinations] min_move
};

/// The geometry.toml settings routing reads (riven_env/table/routing.py, destinations.py).
struct RoutingSettings {
  double waypoint_margin = 0.1;
  std::size_t base_waypoint_sides = 6;
  std::vector<Point> ring;       // routing._unit_ring(base_waypoint_sides), as numpy computed it
  std::vector<Point> wrap_ring;  // routing._unit_ring(2 * base_waypoint_sides)
  std::size_t cover_max_candidates = 12;
  double distinct_distance = 0.5;  // [destinations] distinct_distance (candidate_destinations)
};

/// The kinds of destination option, in destinations.DESTINATION_KINDS order.
enum class DestinationKind : std::uint8_t { kTowardEnemy, kTowardObjective, kCoverFromEnemy, kAway, kTowardFriend };

/// The bases of a layout, borrowed from the caller's arrays.
struct BasesView {
  std::span<const double> centers;  // x0, y0, x1, y1, ...
  std::span<const double> radii;
  std::span<const std::uint8_t> on_table;

  [[nodiscard]] std::size_t size() const { return radii.size(); }
  [[nodiscard]] Point center(std::size_t i) const { return {centers[2 * i], centers[2 * i + 1]}; }
  [[nodiscard]] bool on(std::size_t i) const { return on_table[i] != 0; }
};

/// A straight move's result: the polyline, what it cost and whether it went all the way.
struct StraightPlan {
  std::vector<Point> path;
  double cost = 0.0;
  bool reached = false;
};

class TableGeometry {
 public:
  TableGeometry(double width, double height, TableSettings settings, std::vector<Piece> pieces,
                Shape los_solid, Shape los_area, Shape difficult);

  /// Registers a radius's geometry; returns its index.
  std::size_t add_radius(RadiusGeometry geometry);
  /// Makes ``asked`` an alias of the registered geometry ``index`` (Python rounds radii to 6
  /// decimals before building; the caller maps every radius it asks to that geometry).
  void alias_radius(double asked, std::size_t index);
  [[nodiscard]] bool has_radius(double asked) const { return radius_index_.contains(asked); }
  [[nodiscard]] const RadiusGeometry& for_radius(double asked) const;

  [[nodiscard]] double width() const { return width_; }
  [[nodiscard]] double height() const { return height_; }
  [[nodiscard]] std::size_t piece_count() const { return pieces_.size(); }
  [[nodiscard]] const TableSettings& settings() const { return settings_; }
  [[nodiscard]] const Shape& difficult() const { return difficult_; }

  // -- routing's static part (routing.hpp) ---------------------------------------------------
  void set_routing(RoutingSettings routing) {
    routing_ = std::move(routing);
    version_ = next_version();
  }
  [[nodiscard]] const RoutingSettings& routing() const { return routing_; }
  /// Registers the visibility graph of the registered geometry ``index``.
  void set_nav(std::size_t index, NavGraph nav);
  /// Names this geometry as it is now (process-wide unique; renewed by every change above).
  [[nodiscard]] std::uint64_t version() const { return version_; }

  // -- sight (riven_env/table/sight.py) -------------------------------------------------------
  [[nodiscard]] bool line_of_sight(Point a, double a_radius, Point b, double b_radius) const;
  [[nodiscard]] int cover_for_shot(Point shooter, double shooter_radius, Point target, double target_radius) const;
  /// (visible, cover rank); (false, 0) when blocked.
  [[nodiscard]] std::pair<bool, int> sight_between(Point s, double sr, Point t, double tr) const;
  /// sight() for every ordered pair of models: row-major (N, N) visible flags and cover ranks
  /// (false and 0 where either model is off the table).
  void sight_matrix(const BasesView& bases, std::span<std::uint8_t> visible, std::span<std::uint8_t> cover) const;

  // -- destinations (riven_env/table/destinations.py) ---------------------------------------
  /// destination_options: the (kind, ref) moves model i may order, without planning a path.
  [[nodiscard]] std::vector<std::pair<DestinationKind, std::int64_t>> destination_options(
      const BasesView& bases, std::size_t i, std::span<const std::int64_t> enemies,
      std::span<const std::int64_t> friends, std::span<const Point> objectives) const;

  // -- movement (riven_env/table/movement.py, navigation.py) ----------------------------------
  /// Movement cost of a segment: length plus its length in difficult ground.
  [[nodiscard]] double segment_cost(Point a, Point b) const;
  /// navigation.truncate: the part of a polyline an allowance pays for.
  [[nodiscard]] StraightPlan truncate(const std::vector<Point>& points, double allowance) const;
  /// movement._straight_limit: how far model i slides along the unit direction.
  [[nodiscard]] double straight_limit(const BasesView& bases, std::size_t i, Point direction, double distance) const;
  /// movement.plan_push.
  [[nodiscard]] StraightPlan plan_push(const BasesView& bases, std::size_t i, Point away_from, double distance) const;
  /// movement.plan_flight with the straight (RAW) route: (plan, left_table).
  [[nodiscard]] std::pair<StraightPlan, bool> plan_flight(const BasesView& bases, std::size_t i,
                                                          double distance) const;

  // Movement arithmetic routing shares (navigation.difficult_spans, _point_at_cost,
  // movement._left_at_edge).
  [[nodiscard]] std::vector<std::pair<double, double>> difficult_spans(Point a, Point b) const;
  [[nodiscard]] Point point_at_cost(Point a, Point b, double budget, double cost) const;
  [[nodiscard]] std::pair<StraightPlan, bool> left_at_edge(const StraightPlan& plan, double r) const;

 private:

  double width_;
  double height_;
  TableSettings settings_;
  std::vector<Piece> pieces_;
  Shape los_solid_;
  Shape los_area_;
  std::vector<std::size_t> los_area_ids_;
  bool cover_or_blocking_ = false;  // some piece gives cover or blocks sight
  Shape difficult_;
  // Difficult outline edges piece by piece (start point and direction), with each piece's box.
  struct Edge {
    Point start;
    Point step;
  };
  std::vector<std::pair<Box, std::vector<Edge>>> difficult_edges_;
  RoutingSettings routing_;
  std::vector<RadiusGeometry> radii_;
  std::unordered_map<double, std::size_t> radius_index_;
  // Names this geometry in the per-thread memos (sight, charge plans); a new value whenever it
  // changes (a radius registered or aliased, a navigation graph or the routing settings set).
  std::uint64_t version_ = next_version();
  static std::uint64_t next_version();
};

// -- measurement (riven_env/table/measure.py); no terrain involved ---------------------------
/// The edge gaps from model i to every model, as numpy computes the reference row (inf for i,
/// for removed models, and all inf when i is removed).
std::vector<double> gaps_from(const BasesView& bases, std::size_t i);
/// measure.edge_distance.
double edge_distance(const BasesView& bases, std::size_t i, std::size_t j);
/// measure.contacts: models with an edge gap at most tol, in index order.
std::vector<std::size_t> contacts(const BasesView& bases, std::size_t i, double tol);
/// measure.engagements: every pair (i < j) in contact.
std::vector<std::pair<std::size_t, std::size_t>> engagements(const BasesView& bases, double tol);
/// measure.nearest: the candidate nearest to i (first of equals), or none.
std::optional<std::size_t> nearest(const BasesView& bases, std::size_t i, std::span<const std::int64_t> candidates);
/// measure.models_within from a model (edge to edge).
std::vector<std::size_t> models_within_model(const BasesView& bases, std::size_t i, double r);
/// measure.models_within from a point.
std::vector<std::size_t> models_within_point(const BasesView& bases, Point p, double r);

}  // namespace riven::table
