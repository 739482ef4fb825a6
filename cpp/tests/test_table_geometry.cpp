// The exact predicates of cpp/riven/table/geometry.hpp: orientation on inputs where plain
// doubles round to the wrong sign, segment meetings at vertices and along edges, point location
// on boundaries and in holes, the first contact along a segment.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "riven/table/geometry.hpp"

namespace {

using riven::table::Location;
using riven::table::orientation;
using riven::table::Point;
using riven::table::segments_meet;
using riven::table::Shape;

Shape square_with_hole() {
  // Exterior 0..10, hole 4..6 (GEOS's closed rings).
  const std::vector<double> coords{0, 0, 10, 0, 10, 10, 0, 10, 0, 0, 4, 4, 4, 6, 6, 6, 6, 4, 4, 4};
  return Shape(coords, {5, 10});
}

void orientation_is_exact() {
  RIVEN_CHECK(orientation({0, 0}, {1, 0}, {0, 1}) == 1);
  RIVEN_CHECK(orientation({0, 0}, {1, 0}, {0, -1}) == -1);
  RIVEN_CHECK(orientation({0, 0}, {1, 1}, {2, 2}) == 0);
  // Collinear points whose naive determinant rounds away from zero (Shewchuk's classic case).
  const Point a{0.5, 0.5};
  const Point b{12.0, 12.0};
  const Point c{24.0, 24.0};
  for (int k = 0; k < 64; ++k) {
    const double dx = std::ldexp(static_cast<double>(k), -53);
    const Point p{a.x + dx, a.y};
    // The exact answer: the sign of (b - a) x (p - a) = 11.5 * (0) - 11.5 * dx <= 0.
    RIVEN_CHECK(orientation(a, b, p) == (k == 0 ? 0 : -1));
  }
  RIVEN_CHECK(orientation(a, b, c) == 0);
  // Nearly collinear at large magnitude: 1e15 scale, off by one unit in the last place.
  const Point far{1e15, 1e15};
  const Point next{std::nextafter(2e15, 3e15), 2e15};
  RIVEN_CHECK(orientation(Point{0, 0}, far, next) == -1);
}

void segments_meet_at_vertices_and_along_edges() {
  RIVEN_CHECK(segments_meet({0, 0}, {2, 2}, {0, 2}, {2, 0}));    // proper crossing
  RIVEN_CHECK(segments_meet({0, 0}, {1, 1}, {1, 1}, {2, 0}));    // shared end
  RIVEN_CHECK(segments_meet({0, 0}, {2, 0}, {1, 0}, {3, 0}));    // collinear overlap
  RIVEN_CHECK(!segments_meet({0, 0}, {1, 0}, {1.5, 0}, {3, 0}));  // collinear, apart
  RIVEN_CHECK(segments_meet({0, 0}, {2, 0}, {1, 0}, {1, 5}));    // T junction
  RIVEN_CHECK(!segments_meet({0, 0}, {2, 0}, {1, 1e-300}, {1, 5}));
  RIVEN_CHECK(segments_meet({1, 0}, {1, 0}, {0, 0}, {2, 0}));    // a point on a segment
  RIVEN_CHECK(!segments_meet({1, 1}, {1, 1}, {0, 0}, {2, 0}));
}

void locate_boundary_holes_and_interior() {
  const Shape shape = square_with_hole();
  RIVEN_CHECK(shape.locate({1, 1}) == Location::kInterior);
  RIVEN_CHECK(shape.locate({5, 5}) == Location::kExterior);  // in the hole
  RIVEN_CHECK(shape.locate({4, 5}) == Location::kBoundary);  // on the hole's edge
  RIVEN_CHECK(shape.locate({0, 0}) == Location::kBoundary);  // a vertex
  RIVEN_CHECK(shape.locate({10, 3}) == Location::kBoundary);
  RIVEN_CHECK(shape.locate({11, 3}) == Location::kExterior);
  RIVEN_CHECK(!shape.contains({0, 5}));
  RIVEN_CHECK(shape.contains({std::nextafter(0.0, 1.0), 5}));
}

void segments_meet_shapes_as_geos_does() {
  const Shape shape = square_with_hole();
  RIVEN_CHECK(shape.meets_segment({-1, 5}, {1, 5}));        // enters
  RIVEN_CHECK(shape.meets_segment({-1, 0}, {11, 0}));       // along an edge
  RIVEN_CHECK(shape.meets_segment({-1, -1}, {0, 0}));       // ends on a vertex
  RIVEN_CHECK(!shape.meets_segment({4.5, 4.5}, {5.5, 5.5}));  // inside the hole
  RIVEN_CHECK(shape.meets_segment({4.5, 4.5}, {4, 4}));     // reaches the hole's corner
  RIVEN_CHECK(!shape.meets_segment({-2, -1}, {-1, 12}));
  RIVEN_CHECK(shape.meets_segment({2, 2}, {2, 2}));         // a point inside
  const Shape empty;
  RIVEN_CHECK(!empty.meets_segment({0, 0}, {1, 1}));
  RIVEN_CHECK(!empty.contains({0, 0}));
}

void first_contact_along_a_segment() {
  const Shape shape = square_with_hole();
  RIVEN_CHECK(std::abs(shape.first_contact({-2, 5}, {2, 5}) - 0.5) < 1e-15);
  RIVEN_CHECK(shape.first_contact({1, 1}, {2, 2}) == 0.0);  // starts inside
  RIVEN_CHECK(shape.first_contact({-2, 11}, {12, 11}) < 0.0);
  RIVEN_CHECK(std::abs(shape.first_contact({-2, 0}, {2, 0}) - 0.5) < 1e-15);  // along the edge
}

void python_hypot_matches_cpython() {
  using riven::table::python_hypot;
  RIVEN_CHECK(python_hypot(3.0, -4.0) == 5.0);
  RIVEN_CHECK(python_hypot(0.0, 0.0) == 0.0);
  RIVEN_CHECK(python_hypot(5e-324, 0.0) == 5e-324);
  RIVEN_CHECK(python_hypot(1e308, 1e308) == 1.4142135623730951e+308);  // no overflow on the way
  RIVEN_CHECK(std::isinf(python_hypot(-INFINITY, NAN)));
  RIVEN_CHECK(std::isnan(python_hypot(NAN, 1.0)));
  // math.hypot(0.1, 0.2) in CPython 3.11 is 0.223606797749979 (the correctly rounded value).
  RIVEN_CHECK(python_hypot(0.1, 0.2) == 0.223606797749979);
}

void crossings_are_geos_node_points() {
  // shapely.intersection(LineString(a, b), clearance) on skirmish-5v5 (GEOS 3.14.1) lists the
  // crossing with the edge y = 22.90306743340316 at x = 16.845135330012805; JTS's conditioned
  // plain-float formula gives ...81 (one ulp away), the double-double one GEOS's bits.
  const Point a{17.168268712065096, 22.673961656346894};
  const Point b{15.241711237838606, 24.039916001183947};
  const Point q1{20.5, 22.90306743340316};
  const Point q2{15.5, 22.90306743340316};
  const auto hit = riven::table::line_intersection(a, b, q1, q2);
  RIVEN_CHECK(hit && hit->x == 16.845135330012805 && hit->y == 22.90306743340316);
  RIVEN_CHECK(!riven::table::line_intersection(a, b, a, b));  // parallel: none
  // segment_hits: the crossing and, the far end being inside, that end (as get_coordinates).
  const Shape strip({15.0, 22.90306743340316, 20.5, 22.90306743340316, 20.5, 25.0, 15.0, 25.0, 15.0,
                     22.90306743340316},
                    {5});
  const std::vector<Point> hits = strip.segment_hits(a, b);
  RIVEN_CHECK(hits.size() == 2 && hits[0].x == 16.845135330012805 && hits[1].x == b.x && hits[1].y == b.y);
  RIVEN_CHECK(strip.segment_hits(Point{1.0, 1.0}, Point{2.0, 2.0}).empty());
}

void malformed_shapes_are_refused() {
  bool refused = false;
  try {
    const Shape bad(std::vector<double>{0.0, 0.0, 1.0}, {1});
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  refused = false;
  try {
    const Shape bad(std::vector<double>{0.0, 0.0, 1.0, 1.0}, {3});
  } catch (const std::out_of_range&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
}

}  // namespace

int main() {
  orientation_is_exact();
  segments_meet_at_vertices_and_along_edges();
  locate_boundary_holes_and_interior();
  segments_meet_shapes_as_geos_does();
  first_contact_along_a_segment();
  python_hypot_matches_cpython();
  crossings_are_geos_node_points();
  malformed_shapes_are_refused();
  return RIVEN_TEST_RESULT();
}
