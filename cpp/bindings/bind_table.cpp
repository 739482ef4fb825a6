// Binds riven::table: the tabletop's static geometry (built once per table by
// riven_env/native/table.py) and its dynamic queries. Conversion only; the geometry lives in
// cpp/riven/table.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "riven/table/routing.hpp"
#include "riven/table/table.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using table::BasesView;
using table::Point;
using table::Shape;
using table::StraightPlan;
using table::TableGeometry;

// A shape crosses as (flat x, y coordinates, cumulative point count at each ring's end).
using ShapeSpec = std::pair<std::vector<double>, std::vector<std::size_t>>;
using Centers = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Radii = nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Flags = nb::ndarray<const bool, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Indices = nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using PlanTuple = std::tuple<std::vector<std::pair<double, double>>, double, bool>;

Shape to_shape(const ShapeSpec& spec) { return Shape(spec.first, spec.second); }

std::vector<Shape> to_shapes(const std::vector<ShapeSpec>& specs) {
  std::vector<Shape> shapes;
  shapes.reserve(specs.size());
  for (const ShapeSpec& spec : specs) shapes.push_back(to_shape(spec));
  return shapes;
}

BasesView view(const Centers& centers, const Radii& radii, const Flags& on_table) {
  const std::size_t n = radii.shape(0);
  if (centers.shape(0) != n || centers.shape(1) != 2 || on_table.shape(0) != n) {
    throw std::invalid_argument("bases: centres must be (N, 2), radii and on_table (N,)");
  }
  return BasesView{std::span<const double>(centers.data(), 2 * n), std::span<const double>(radii.data(), n),
                   std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(on_table.data()), n)};
}

using Matrix = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using IndexMatrix = nb::ndarray<const std::int64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using OptionalPoint = std::optional<std::pair<double, double>>;
using DestinationTuple = std::tuple<int, std::int64_t, std::pair<double, double>, double, std::string,
                                    std::vector<std::pair<double, double>>, bool>;

std::vector<Point> to_points(const Matrix& xy, const char* what) {
  if (xy.shape(0) > 0 && xy.shape(1) != 2) throw std::invalid_argument(std::string(what) + " must be (N, 2)");
  std::vector<Point> points;
  points.reserve(xy.shape(0));
  for (std::size_t k = 0; k < xy.shape(0); ++k) points.push_back(Point{xy.data()[2 * k], xy.data()[2 * k + 1]});
  return points;
}

std::optional<Point> to_point(const OptionalPoint& xy) {
  if (!xy) return std::nullopt;
  return Point{xy->first, xy->second};
}

std::vector<std::pair<double, double>> pairs(const std::vector<Point>& points) {
  std::vector<std::pair<double, double>> out;
  out.reserve(points.size());
  for (const Point& p : points) out.emplace_back(p.x, p.y);
  return out;
}

PlanTuple plan_tuple(const StraightPlan& plan) {
  std::vector<std::pair<double, double>> path;
  path.reserve(plan.path.size());
  for (const Point& p : plan.path) path.emplace_back(p.x, p.y);
  return {std::move(path), plan.cost, plan.reached};
}

}  // namespace

void bind_table(nb::module_& module) {
  nb::class_<TableGeometry>(module, "TableGeometry",
                            "A table's prepared static geometry and its dynamic queries (riven_env/native/table.py).")
      .def(
          "__init__",
          [](TableGeometry* self, double width, double height, double contact_tolerance, double behind_distance,
             double cover_grid_cell, double min_move, const std::vector<ShapeSpec>& shapes, const std::vector<int>& cover_ranks,
             const std::vector<bool>& blocks_los, const std::vector<bool>& difficult,
             const std::vector<bool>& impassable, const ShapeSpec& los_solid, const ShapeSpec& los_area,
             const ShapeSpec& difficult_union) {
            const std::size_t n = shapes.size();
            if (cover_ranks.size() != n || blocks_los.size() != n || difficult.size() != n || impassable.size() != n) {
              throw std::invalid_argument("table: one cover rank and one of each flag per piece");
            }
            std::vector<table::Piece> pieces;
            for (std::size_t k = 0; k < n; ++k) {
              pieces.push_back(table::Piece{to_shape(shapes[k]), cover_ranks[k], blocks_los[k], difficult[k], impassable[k]});
            }
            new (self) TableGeometry(width, height, table::TableSettings{contact_tolerance, behind_distance, cover_grid_cell, min_move},
                                     std::move(pieces), to_shape(los_solid), to_shape(los_area), to_shape(difficult_union));
          },
          nb::arg("width"), nb::arg("height"), nb::arg("contact_tolerance"), nb::arg("behind_distance"),
          nb::arg("cover_grid_cell"), nb::arg("min_move"), nb::arg("shapes"), nb::arg("cover_ranks"), nb::arg("blocks_los"),
          nb::arg("difficult"), nb::arg("impassable"), nb::arg("los_solid"), nb::arg("los_area"),
          nb::arg("difficult_union"))
      .def(
          "add_radius",
          [](TableGeometry& self, double radius, const std::optional<ShapeSpec>& clearance,
             const std::vector<ShapeSpec>& inside, const std::vector<ShapeSpec>& touching, std::size_t cols,
             std::size_t rows, std::vector<std::size_t> cover_starts, std::vector<std::int32_t> cover_ids) {
            table::RadiusGeometry geometry;
            geometry.radius = radius;
            if (clearance) geometry.clearance = to_shape(*clearance);
            geometry.inside = to_shapes(inside);
            geometry.touching = to_shapes(touching);
            geometry.cols = cols;
            geometry.rows = rows;
            geometry.cover_starts = std::move(cover_starts);
            geometry.cover_ids = std::move(cover_ids);
            return self.add_radius(std::move(geometry));
          },
          nb::arg("radius"), nb::arg("clearance"), nb::arg("inside"), nb::arg("touching"), nb::arg("cols"),
          nb::arg("rows"), nb::arg("cover_starts"), nb::arg("cover_ids"))
      .def("alias_radius", &TableGeometry::alias_radius, nb::arg("asked"), nb::arg("index"))
      .def("has_radius", &TableGeometry::has_radius, nb::arg("asked"))
      .def(
          "line_of_sight",
          [](const TableGeometry& self, double ax, double ay, double ar, double bx, double by, double br) {
            return self.line_of_sight(Point{ax, ay}, ar, Point{bx, by}, br);
          },
          nb::arg("ax"), nb::arg("ay"), nb::arg("a_radius"), nb::arg("bx"), nb::arg("by"), nb::arg("b_radius"))
      .def(
          "cover_for_shot",
          [](const TableGeometry& self, double sx, double sy, double sr, double tx, double ty, double tr) {
            return self.cover_for_shot(Point{sx, sy}, sr, Point{tx, ty}, tr);
          },
          nb::arg("sx"), nb::arg("sy"), nb::arg("shooter_radius"), nb::arg("tx"), nb::arg("ty"),
          nb::arg("target_radius"), "The cover rank (0 none, 1 soft, 2 hard).")
      .def(
          "sight_between",
          [](const TableGeometry& self, double sx, double sy, double sr, double tx, double ty, double tr) {
            return self.sight_between(Point{sx, sy}, sr, Point{tx, ty}, tr);
          },
          nb::arg("sx"), nb::arg("sy"), nb::arg("sr"), nb::arg("tx"), nb::arg("ty"), nb::arg("tr"),
          "(visible, cover rank).")
      .def(
          "sight_matrix",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             nb::ndarray<bool, nb::ndim<2>, nb::c_contig, nb::device::cpu> visible,
             nb::ndarray<std::uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu> cover) {
            const BasesView bases = view(centers, radii, on_table);
            const std::size_t n = bases.size();
            if (visible.shape(0) != n || visible.shape(1) != n || cover.shape(0) != n || cover.shape(1) != n) {
              throw std::invalid_argument("sight_matrix: visible and cover must be (N, N)");
            }
            self.sight_matrix(bases, std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(visible.data()), n * n),
                              std::span<std::uint8_t>(cover.data(), n * n));
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("visible"), nb::arg("cover"),
          "Fills (N, N) visible flags and cover ranks of sight() for every ordered pair.")
      .def(
          "destination_options",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, const Indices& enemies, const Indices& friends, const Centers& objectives) {
            if (objectives.shape(1) != 2) throw std::invalid_argument("objectives must be (K, 2)");
            std::vector<Point> points;
            for (std::size_t k = 0; k < objectives.shape(0); ++k) {
              points.push_back(Point{objectives.data()[2 * k], objectives.data()[2 * k + 1]});
            }
            std::vector<std::pair<int, std::int64_t>> found;
            for (const auto& [kind, ref] : self.destination_options(
                     view(centers, radii, on_table), i, std::span<const std::int64_t>(enemies.data(), enemies.shape(0)),
                     std::span<const std::int64_t>(friends.data(), friends.shape(0)), points)) {
              found.emplace_back(static_cast<int>(kind), ref);
            }
            return found;
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("enemies"),
          nb::arg("friends"), nb::arg("objectives"), "[(kind index in DESTINATION_KINDS, ref)].")
      .def(
          "segment_cost",
          [](const TableGeometry& self, double ax, double ay, double bx, double by) {
            return self.segment_cost(Point{ax, ay}, Point{bx, by});
          },
          nb::arg("ax"), nb::arg("ay"), nb::arg("bx"), nb::arg("by"))
      .def(
          "plan_push",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, double ax, double ay, double distance) {
            return plan_tuple(self.plan_push(view(centers, radii, on_table), i, Point{ax, ay}, distance));
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("ax"), nb::arg("ay"),
          nb::arg("distance"), "(path, cost, reached).")
      .def(
          "plan_flight",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, double distance) {
            auto [plan, left] = self.plan_flight(view(centers, radii, on_table), i, distance);
            return std::make_pair(plan_tuple(plan), left);
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("distance"),
          "((path, cost, reached), left_table), the straight (RAW) flight.")
      // -- routing (cpp/riven/table/routing.hpp) ------------------------------------------------
      .def(
          "set_routing",
          [](TableGeometry& self, double waypoint_margin, std::size_t sides, const Matrix& ring, const Matrix& wrap_ring,
             std::size_t cover_max_candidates, double distinct_distance) {
            table::RoutingSettings routing;
            routing.distinct_distance = distinct_distance;
            routing.waypoint_margin = waypoint_margin;
            routing.base_waypoint_sides = sides;
            routing.ring = to_points(ring, "ring");
            routing.wrap_ring = to_points(wrap_ring, "wrap_ring");
            routing.cover_max_candidates = cover_max_candidates;
            if (sides < 3 || routing.ring.size() != sides || routing.wrap_ring.size() != 2 * sides) {
              throw std::invalid_argument("routing: base_waypoint_sides >= 3, ring (sides, 2), wrap_ring (2 sides, 2)");
            }
            self.set_routing(std::move(routing));
          },
          nb::arg("waypoint_margin"), nb::arg("sides"), nb::arg("ring"), nb::arg("wrap_ring"),
          nb::arg("cover_max_candidates"), nb::arg("distinct_distance"))
      .def(
          "set_nav",
          [](TableGeometry& self, std::size_t index, const Matrix& nodes, const Matrix& cost, const Matrix& dist,
             const IndexMatrix& next_hop, const IndexMatrix& edges, std::tuple<double, double, double, double> bounds,
             const Matrix& cover_spots) {
            table::NavGraph nav;
            nav.nodes = to_points(nodes, "nodes");
            const std::size_t n = nav.nodes.size();
            if ((n > 0 && (cost.shape(1) != n || dist.shape(1) != n || next_hop.shape(1) != n)) ||
                cost.shape(0) != n || dist.shape(0) != n || next_hop.shape(0) != n) {
              throw std::invalid_argument("set_nav: cost, dist and next_hop must be (N, N)");
            }
            nav.cost.assign(cost.data(), cost.data() + n * n);
            nav.dist.assign(dist.data(), dist.data() + n * n);
            nav.next_hop.assign(next_hop.data(), next_hop.data() + n * n);
            if (edges.shape(0) > 0 && edges.shape(1) != 2) throw std::invalid_argument("set_nav: edges must be (E, 2)");
            for (std::size_t e = 0; e < edges.shape(0); ++e) {
              const std::int64_t i = edges.data()[2 * e];
              const std::int64_t j = edges.data()[2 * e + 1];
              if (i < 0 || j < 0) throw std::invalid_argument("set_nav: a negative waypoint index in edges");
              nav.edges.emplace_back(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
            }
            nav.bounds = table::Box{std::get<0>(bounds), std::get<1>(bounds), std::get<2>(bounds), std::get<3>(bounds)};
            nav.cover_spots = to_points(cover_spots, "cover_spots");
            self.set_nav(index, std::move(nav));
          },
          nb::arg("index"), nb::arg("nodes"), nb::arg("cost"), nb::arg("dist"), nb::arg("next_hop"), nb::arg("edges"),
          nb::arg("bounds"), nb::arg("cover_spots"))
      .def(
          "route",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t mover, double allowance, const OptionalPoint& goal, std::optional<std::size_t> target) {
            table::Route found =
                table::route(self, view(centers, radii, on_table), mover, allowance, to_point(goal), target);
            std::optional<std::vector<double>> costs;
            if (found.has_costs) costs = found.costs;
            return std::make_tuple(pairs(found.points), found.cost, found.goal_reached, costs);
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("mover"), nb::arg("allowance"),
          nb::arg("goal").none(), nb::arg("target").none(), "(points, cost, goal_reached, costs or None).")
      .def(
          "plan_move",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, const OptionalPoint& goal, double allowance, std::optional<std::size_t> contact) {
            return plan_tuple(table::plan_move(self, view(centers, radii, on_table), i, to_point(goal), allowance, contact));
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("goal").none(),
          nb::arg("allowance"), nb::arg("stop_in_contact_with").none(), "(path, cost, reached).")
      .def(
          "plan_charge",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, std::size_t target, double reach) -> std::optional<PlanTuple> {
            auto plan = table::plan_charge(self, view(centers, radii, on_table), i, target, reach);
            if (!plan) return std::nullopt;
            return plan_tuple(*plan);
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("target"), nb::arg("reach"))
      .def(
          "charge_targets",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, double reach, const Indices& enemies) {
            return table::charge_targets(self, view(centers, radii, on_table), i, reach,
                                         std::span<const std::int64_t>(enemies.data(), enemies.shape(0)));
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("reach"), nb::arg("enemies"))
      .def(
          "plan_flight_around",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, double distance) {
            auto [plan, left] = table::plan_flight_around(self, view(centers, radii, on_table), i, distance);
            return std::make_pair(plan_tuple(plan), left);
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("distance"),
          "((path, cost, reached), left_table), the House 'around' flight.")
      .def(
          "plan_destination",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, double allowance, int kind, std::int64_t ref, const Centers& objectives,
             double enemy_gap) -> std::optional<DestinationTuple> {
            if (kind < 0 || kind > 4) throw std::invalid_argument("plan_destination: kind index not in 0..4");
            if (objectives.shape(1) != 2) throw std::invalid_argument("objectives must be (K, 2)");
            std::vector<Point> points;
            for (std::size_t k = 0; k < objectives.shape(0); ++k) {
              points.push_back(Point{objectives.data()[2 * k], objectives.data()[2 * k + 1]});
            }
            auto found = table::plan_destination(self, view(centers, radii, on_table), i, allowance,
                                                 static_cast<table::DestinationKind>(kind), ref, points, enemy_gap);
            if (!found) return std::nullopt;
            return DestinationTuple{static_cast<int>(found->kind), found->ref,
                                    std::make_pair(found->point.x, found->point.y), found->cost, found->label,
                                    pairs(found->path), found->reached};
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("allowance"), nb::arg("kind"),
          nb::arg("ref"), nb::arg("objectives"), nb::arg("enemy_gap"),
          "(kind index, ref, point, cost, label, path, reached) or None.")
      .def(
          "candidate_destinations",
          [](const TableGeometry& self, const Centers& centers, const Radii& radii, const Flags& on_table,
             std::size_t i, double allowance, const Indices& enemies, const Indices& friends, const Centers& objectives,
             double enemy_gap) {
            if (objectives.shape(1) != 2) throw std::invalid_argument("objectives must be (K, 2)");
            std::vector<Point> points;
            for (std::size_t k = 0; k < objectives.shape(0); ++k) {
              points.push_back(Point{objectives.data()[2 * k], objectives.data()[2 * k + 1]});
            }
            std::vector<DestinationTuple> found;
            for (const table::Destination& d : table::candidate_destinations(
                     self, view(centers, radii, on_table), i, allowance,
                     std::span<const std::int64_t>(enemies.data(), enemies.shape(0)),
                     std::span<const std::int64_t>(friends.data(), friends.shape(0)), points, enemy_gap)) {
              found.emplace_back(static_cast<int>(d.kind), d.ref, std::make_pair(d.point.x, d.point.y), d.cost, d.label,
                                 pairs(d.path), d.reached);
            }
            return found;
          },
          nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("allowance"),
          nb::arg("enemies"), nb::arg("friends"), nb::arg("objectives"), nb::arg("enemy_gap"),
          "[(kind index, ref, point, cost, label, path, reached)].");

  module.def("python_hypot", &table::python_hypot, nb::arg("a"), nb::arg("b"),
             "math.hypot(a, b) to the last bit (CPython's algorithm, compiled).");
  module.def("python_hypot_above", &table::python_hypot_above, nb::arg("dx"), nb::arg("dy"), nb::arg("limit"),
             "math.hypot(dx, dy) > limit (the hypot computed only near the limit).");
  module.def("python_hypot_at_least", &table::python_hypot_at_least, nb::arg("dx"), nb::arg("dy"), nb::arg("limit"),
             "math.hypot(dx, dy) >= limit (the hypot computed only near the limit).");
  module.def(
      "edge_distance",
      [](const Centers& centers, const Radii& radii, const Flags& on_table, std::size_t i, std::size_t j) {
        return table::edge_distance(view(centers, radii, on_table), i, j);
      },
      nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("j"));
  module.def(
      "contacts",
      [](const Centers& centers, const Radii& radii, const Flags& on_table, std::size_t i, double tol) {
        return table::contacts(view(centers, radii, on_table), i, tol);
      },
      nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("tol"));
  module.def(
      "engagements",
      [](const Centers& centers, const Radii& radii, const Flags& on_table, double tol) {
        return table::engagements(view(centers, radii, on_table), tol);
      },
      nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("tol"));
  module.def(
      "nearest",
      [](const Centers& centers, const Radii& radii, const Flags& on_table, std::size_t i, const Indices& candidates) {
        return table::nearest(view(centers, radii, on_table), i,
                              std::span<const std::int64_t>(candidates.data(), candidates.shape(0)));
      },
      nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("candidates"));
  module.def(
      "models_within_model",
      [](const Centers& centers, const Radii& radii, const Flags& on_table, std::size_t i, double r) {
        return table::models_within_model(view(centers, radii, on_table), i, r);
      },
      nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("i"), nb::arg("r"));
  module.def(
      "models_within_point",
      [](const Centers& centers, const Radii& radii, const Flags& on_table, double x, double y, double r) {
        return table::models_within_point(view(centers, radii, on_table), Point{x, y}, r);
      },
      nb::arg("centers"), nb::arg("radii"), nb::arg("on_table"), nb::arg("x"), nb::arg("y"), nb::arg("r"));
}

}  // namespace riven::bindings
