// Exact planar predicates and the polygon shapes the tabletop queries test against.
//
// The Python engine asks GEOS (through shapely) whether a segment meets a polygon and whether a
// point lies inside one. GEOS decides those with robust orientation tests; the core decides them
// with an exactly evaluated orientation (an error-bounded float filter, then Shewchuk's expansion
// arithmetic), so both give the true answer for the given double coordinates. GEOS's fallback is
// double-double arithmetic (about 106 bits), which agrees with the exact sign except on inputs
// within a relative 1e-30 or so of collinear: the documented near-tie of docs/tabletop.md.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace riven::table {

struct Point {
  double x = 0.0;
  double y = 0.0;
};

/// A bounding box; an empty one has min > max.
struct Box {
  double xmin = 1.0;
  double ymin = 1.0;
  double xmax = 0.0;
  double ymax = 0.0;

  void add(const Point& p);
  void add(const Box& other);
  [[nodiscard]] bool misses_segment(const Point& a, const Point& b) const;
  [[nodiscard]] bool excludes(const Point& p) const;
};

/// Python's ``math.hypot(a, b)`` (and ``math.dist`` of two points) to the last bit: CPython's
/// vector_norm (power-of-two scaling, exact squares, one differential correction), which may
/// differ in the last bit from the C library's ``hypot`` that numpy (and std::hypot) use.
double python_hypot(double a, double b);
/// python_hypot(dx, dy) > limit, and >= limit: the hypot only near the limit (the squared
/// length decides wherever it is farther from limit squared than a margin far above either
/// formula's rounding).
bool python_hypot_above(double dx, double dy, double limit);
bool python_hypot_at_least(double dx, double dy, double limit);
/// The squared-length test behind those: +1 when hypot(dx, dy) is surely above ``limit``, -1
/// when surely below, 0 when too close to call (or ``limit`` is not a positive finite number).
inline int hypot_side(double dx, double dy, double limit) {
  if (!(limit > 0.0) || !std::isfinite(limit)) return 0;
  const double squared = dx * dx + dy * dy;
  const double far = limit * (1.0 + 1e-9);
  if (squared > far * far) return 1;
  const double near = limit * (1.0 - 1e-9);
  if (squared < near * near) return -1;
  return 0;
}

/// The exact sign (-1, 0, +1) of the orientation of c relative to the directed line a -> b
/// (positive: c is to the left, counter-clockwise).
int orientation(const Point& a, const Point& b, const Point& c);

/// Whether the closed segments p1-p2 and q1-q2 share a point (exact).
bool segments_meet(const Point& p1, const Point& p2, const Point& q1, const Point& q2);

/// The crossing point of the lines p1-p2 and q1-q2 as GEOS's LineIntersector computes a proper
/// intersection (CGAlgorithmsDD::intersection: homogeneous coordinates in double-double
/// arithmetic); nullopt for parallel lines.
std::optional<Point> line_intersection(const Point& p1, const Point& p2, const Point& q1, const Point& q2);

enum class Location { kExterior, kBoundary, kInterior };

/// A closed ring of vertices (last equal to first), as GEOS stores it.
struct Ring {
  std::vector<Point> points;
  Box box;
  // Each edge's box, four edges to a block of 16: x min, x max, y min, y max, four of each (the
  // last block padded with boxes that meet nothing): the segment and point tests pick their
  // candidate edges four at a time and test those exactly, as before.
  std::vector<double> edge_boxes;
};

/// A polygon or multipolygon: every ring of every part (exteriors and holes), as the union of
/// pieces shapely builds. Point location counts ray crossings over all rings together, as
/// GEOS's IndexedPointInAreaLocator does (the same answer as part by part for valid shapes).
class Shape {
 public:
  Shape() = default;
  /// Builds from flat arrays: ``coords`` (x, y pairs) split into rings at ``ring_ends``
  /// (cumulative point counts).
  Shape(const std::vector<double>& coords, const std::vector<std::size_t>& ring_ends);

  [[nodiscard]] bool empty() const { return rings_.empty(); }
  /// Names this shape's contents for caches of pure answers about it (a shape never changes
  /// after it is built; a copy has the same contents and keeps the name).
  [[nodiscard]] std::uint64_t uid() const { return uid_; }
  [[nodiscard]] const Box& box() const { return box_; }
  [[nodiscard]] const std::vector<Ring>& rings() const { return rings_; }

  /// The location of p (GEOS's RayCrossingCounter, exact orientations).
  [[nodiscard]] Location locate(const Point& p) const;
  /// ``contains_xy``: p in the interior (the boundary is not inside).
  [[nodiscard]] bool contains(const Point& p) const;
  /// ``intersects`` with the closed segment a-b.
  [[nodiscard]] bool meets_segment(const Point& a, const Point& b) const;
  /// The smallest fraction t in [0, 1] of a -> b at which the segment meets the shape (0 when a
  /// is inside or on it), or a negative value when it does not meet it.
  [[nodiscard]] double first_contact(const Point& a, const Point& b) const;
  /// The points shapely.get_coordinates(shapely.intersection(segment a-b, shape)) can list:
  /// where the segment meets an edge (a proper crossing as GEOS nodes it, line_intersection;
  /// a touching vertex or end exactly), and a or b when inside. Empty when they do not meet.
  [[nodiscard]] std::vector<Point> segment_hits(const Point& a, const Point& b) const;

 private:
  std::vector<Ring> rings_;
  Box box_;
  std::uint64_t uid_ = next_uid();

  static std::uint64_t next_uid();
};

}  // namespace riven::table
