#include "riven/table/table.hpp"

#include "riven/table/memo.hpp"
#include "riven/recycled.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace riven::table {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kParallel = 1e-15;    // navigation._spans: |denominator| at or below is parallel
constexpr double kStopShort = 1e-6;    // movement._STOP_SHORT: stop this far before a terrain hit
constexpr double kCostSlack = 1e-9;    // the 1e-9 of truncate / plan_push's comparisons
constexpr double kOpenGround = 1e-12;  // navigation._point_at_cost: a cost this close to the length
constexpr double kDuplicate = 1e-12;   // navigation.dedupe_xy / movement._left_at_edge

/// One element of numpy's ``rows @ v`` for ``rows`` rows of two float64: a single row is numpy's
/// plain dot (x0 * v0 + x1 * v1); two or more go through OpenBLAS's dgemv kernel, which on
/// x86-64 with FMA fuses x0 * v0 onto the rounded x1 * v1 (docs/tabletop.md, "Native core",
/// near-tie 3).
double numpy_dot2(double x0, double x1, Point v, std::size_t rows) {
  return rows == 1 ? x0 * v.x + x1 * v.y : std::fma(x0, v.x, x1 * v.y);
}

Point along(Point a, Point b, double f) { return {a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f}; }

std::vector<Point> dedupe(const std::vector<Point>& points) {
  std::vector<Point> kept;
  if (points.empty()) return kept;
  kept.push_back(points.front());
  for (std::size_t k = 1; k < points.size(); ++k) {
    if (std::hypot(points[k].x - points[k - 1].x, points[k].y - points[k - 1].y) > kDuplicate) {
      kept.push_back(points[k]);
    }
  }
  return kept;
}

StraightPlan stay(const BasesView& bases, std::size_t i, bool reached) {
  return StraightPlan{{bases.center(i)}, 0.0, reached};
}

void check_model(const BasesView& bases, std::size_t i) {
  if (i >= bases.size()) throw std::out_of_range("model index out of range");
}

}  // namespace

std::span<const std::int32_t> RadiusGeometry::cover_candidates(double x, double y, double cell) const {
  // Python: min(max(int(x / cell), 0), cols - 1); int() truncates toward zero.
  const auto index = [cell](double v, std::size_t count) {
    const double q = v / cell;
    if (!(q >= 1.0)) return std::size_t{0};
    if (q >= static_cast<double>(count)) return count - 1;
    return std::min(static_cast<std::size_t>(q), count - 1);
  };
  const std::size_t cx = index(x, cols);
  const std::size_t cy = index(y, rows);
  const std::size_t cellno = cx * rows + cy;
  return std::span<const std::int32_t>(cover_ids).subspan(cover_starts[cellno],
                                                           cover_starts[cellno + 1] - cover_starts[cellno]);
}

TableGeometry::TableGeometry(double width, double height, TableSettings settings,
                             std::vector<Piece> pieces, Shape los_solid, Shape los_area, Shape difficult)
    : width_(width),
      height_(height),
      settings_(settings),
      pieces_(std::move(pieces)),
      los_solid_(std::move(los_solid)),
      los_area_(std::move(los_area)),
      difficult_(std::move(difficult)) {
  if (!(width > 0.0) || !(height > 0.0)) throw std::invalid_argument("table: width and height must be positive");
  for (std::size_t k = 0; k < pieces_.size(); ++k) {
    const Piece& piece = pieces_[k];
    if (piece.cover_rank < 0 || piece.cover_rank > 2) throw std::invalid_argument("table: cover rank not in 0..2");
    if (piece.blocks_los && !piece.impassable) los_area_ids_.push_back(k);
    if (piece.cover_rank > 0 || piece.blocks_los) cover_or_blocking_ = true;
    if (!piece.difficult) continue;
    // Table.difficult_edges: every ring's edges, piece by piece (navigation._DifficultEdges).
    std::vector<Edge> edges;
    Box box;
    for (const Ring& ring : piece.shape.rings()) {
      for (std::size_t e = 1; e < ring.points.size(); ++e) {
        const Point p = ring.points[e - 1];
        const Point q = ring.points[e];
        edges.push_back(Edge{p, Point{q.x - p.x, q.y - p.y}});
        box.add(p);
        box.add(q);
      }
    }
    difficult_edges_.emplace_back(box, std::move(edges));
  }
}

std::size_t TableGeometry::add_radius(RadiusGeometry geometry) {
  if (geometry.inside.size() != pieces_.size() || geometry.touching.size() != pieces_.size()) {
    throw std::invalid_argument("radius geometry: one inside and one touching shape per piece");
  }
  if (geometry.cols == 0 || geometry.rows == 0 || geometry.cover_starts.size() != geometry.cols * geometry.rows + 1 ||
      geometry.cover_starts.back() != geometry.cover_ids.size()) {
    throw std::invalid_argument("radius geometry: cover grid offsets do not match its size");
  }
  for (std::size_t k = 1; k < geometry.cover_starts.size(); ++k) {
    if (geometry.cover_starts[k] < geometry.cover_starts[k - 1]) {
      throw std::invalid_argument("radius geometry: cover grid offsets decrease");
    }
  }
  for (const std::int32_t id : geometry.cover_ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= pieces_.size()) {
      throw std::out_of_range("radius geometry: cover grid names a piece that does not exist");
    }
  }
  radii_.push_back(std::move(geometry));
  version_ = next_version();
  return radii_.size() - 1;
}

void TableGeometry::alias_radius(double asked, std::size_t index) {
  if (index >= radii_.size()) throw std::out_of_range("radius geometry index out of range");
  radius_index_[asked] = index;
  version_ = next_version();
}

void TableGeometry::set_nav(std::size_t index, NavGraph nav) {
  if (index >= radii_.size()) throw std::out_of_range("radius geometry index out of range");
  const std::size_t n = nav.nodes.size();
  if (nav.cost.size() != n * n || nav.dist.size() != n * n || nav.next_hop.size() != n * n) {
    throw std::invalid_argument("navigation graph: cost, dist and next_hop must be (N, N) for N waypoints");
  }
  for (const std::int64_t hop : nav.next_hop) {
    if (hop < 0 || static_cast<std::size_t>(hop) >= n) throw std::invalid_argument("navigation graph: next_hop out of range");
  }
  for (const auto& [i, j] : nav.edges) {
    if (i >= n || j >= n) throw std::invalid_argument("navigation graph: an edge names a waypoint out of range");
  }
  // Which orientations the edge list names (routing's lazy search checks an edge's cut by them).
  nav.listed.assign(n * n, 0);
  for (const auto& [i, j] : nav.edges) nav.listed[i * n + j] = 1;
  // The lazy search reads one column of dist at a time (a waypoint's cheapest ways in from every
  // other): stored contiguous too.
  nav.dist_by_column.assign(n * n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t v = 0; v < n; ++v) nav.dist_by_column[v * n + k] = nav.dist[k * n + v];
  }
  nav.by_cost.assign(n * n, 0);
  nav.by_cost_count.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t* const row = nav.by_cost.data() + i * n;
    std::uint32_t count = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j != i && std::isfinite(nav.cost[i * n + j])) row[count++] = static_cast<std::uint32_t>(j);
    }
    const double* const costs = nav.cost.data() + i * n;
    std::sort(row, row + count, [costs](std::uint32_t a, std::uint32_t b) {
      return costs[a] < costs[b] || (costs[a] == costs[b] && a < b);
    });
    nav.by_cost_count[i] = count;
  }
  radii_[index].nav = std::move(nav);
  version_ = next_version();
}

const RadiusGeometry& TableGeometry::for_radius(double asked) const {
  const auto found = radius_index_.find(asked);
  if (found == radius_index_.end()) throw std::out_of_range("no geometry registered for this base radius");
  return radii_[found->second];
}

// -- sight ------------------------------------------------------------------------------------
bool TableGeometry::line_of_sight(Point a, double a_radius, Point b, double b_radius) const {
  if (los_solid_.meets_segment(a, b)) return false;
  if (!los_area_.meets_segment(a, b)) return true;
  const RadiusGeometry& at_a = for_radius(a_radius);
  const RadiusGeometry& at_b = for_radius(b_radius);
  for (const std::size_t k : los_area_ids_) {
    if (!pieces_[k].shape.meets_segment(a, b)) continue;
    if (at_a.inside[k].contains(a) || at_b.inside[k].contains(b)) continue;  // standing in it
    return false;
  }
  return true;
}

int TableGeometry::cover_for_shot(Point s, double sr, Point t, double tr) const {
  const RadiusGeometry& at_target = for_radius(tr);
  const auto candidates = at_target.cover_candidates(t.x, t.y, settings_.cover_grid_cell);
  if (candidates.empty()) return 0;
  const RadiusGeometry& at_shooter = for_radius(sr);
  std::optional<Point> near_end;
  int best = 0;
  for (const std::int32_t id : candidates) {
    const auto k = static_cast<std::size_t>(id);
    const Piece& piece = pieces_[k];
    if (piece.cover_rank <= best) continue;
    if (!piece.impassable && at_target.inside[k].contains(t)) {
      best = piece.cover_rank;  // the target stands in the piece
      continue;
    }
    if (at_shooter.touching[k].contains(s)) continue;  // the shooter's own cover
    if (!near_end) {
      // sight._near_end: the stretch of the sight line within the behind-distance of the
      // target's base edge.
      const double dx = s.x - t.x;
      const double dy = s.y - t.y;
      const double length = python_hypot(dx, dy);  // math.hypot, as sight._near_end
      if (length <= 0.0) return best;
      const double reach = std::min(length, tr + settings_.cover_behind_distance) / length;
      near_end = Point{t.x + dx * reach, t.y + dy * reach};
    }
    if (piece.shape.meets_segment(t, *near_end)) best = piece.cover_rank;
  }
  return best;
}

namespace {
// Sight between two bases is a pure function of the static table and the two bases (the
// encoder, the shot menus and the Oracle ask it again for every base that did not move):
// answered from a per-thread memo (sight code: -1 not visible, else the cover rank).
using SightKey = MemoKey<7>;  // table version, s.x, s.y, sr, t.x, t.y, tr
using SightMemo = DirectMemo<SightKey, int, std::size_t{1} << 12>;

SightMemo& sight_memo() {
  thread_local SightMemo memo;
  return memo;
}
}  // namespace

std::uint64_t TableGeometry::next_version() {
  static std::atomic<std::uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

std::pair<bool, int> TableGeometry::sight_between(Point s, double sr, Point t, double tr) const {
  const SightKey key{{version_, std::bit_cast<std::uint64_t>(s.x), std::bit_cast<std::uint64_t>(s.y),
                      std::bit_cast<std::uint64_t>(sr), std::bit_cast<std::uint64_t>(t.x),
                      std::bit_cast<std::uint64_t>(t.y), std::bit_cast<std::uint64_t>(tr)}};
  const int code = sight_memo().answer(key, [&] {
    if (!line_of_sight(s, sr, t, tr)) return -1;
    return cover_for_shot(s, sr, t, tr);
  });
  return code < 0 ? std::pair{false, 0} : std::pair{true, code};
}

void TableGeometry::sight_matrix(const BasesView& bases, std::span<std::uint8_t> visible,
                                 std::span<std::uint8_t> cover) const {
  const std::size_t n = bases.size();
  if (visible.size() != n * n || cover.size() != n * n) throw std::invalid_argument("sight_matrix: outputs must be N x N");
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t t = 0; t < n; ++t) {
      const std::size_t cell = s * n + t;
      visible[cell] = 0;
      cover[cell] = 0;
      if (!bases.on(s) || !bases.on(t)) continue;
      const auto [seen, rank] = sight_between(bases.center(s), bases.radii[s], bases.center(t), bases.radii[t]);
      visible[cell] = seen ? 1 : 0;
      cover[cell] = static_cast<std::uint8_t>(rank);
    }
  }
}

// -- destinations ------------------------------------------------------------------------------
std::vector<std::pair<DestinationKind, std::int64_t>> TableGeometry::destination_options(
    const BasesView& bases, std::size_t i, std::span<const std::int64_t> enemies,
    std::span<const std::int64_t> friends, std::span<const Point> objectives) const {
  check_model(bases, i);
  std::vector<std::pair<DestinationKind, std::int64_t>> options;
  if (!bases.on(i)) return options;
  options.reserve(enemies.size() + objectives.size() + friends.size() + 2);
  const auto valid = [&](std::int64_t j) {
    if (j < 0 || static_cast<std::size_t>(j) >= bases.size()) {
      throw std::out_of_range("destination_options: model index out of range");
    }
    return static_cast<std::size_t>(j);
  };
  const Point here = bases.center(i);
  const double reach = bases.radii[i] + settings_.contact_tolerance;
  const auto apart = [&](std::size_t j) {
    const Point there = bases.center(j);
    return python_hypot_above(here.x - there.x, here.y - there.y, reach + bases.radii[j]);  // math.dist
  };
  Recycled<std::int64_t> live;
  live.reserve(enemies.size());
  for (const std::int64_t e : enemies) {
    const std::size_t j = valid(e);
    if (j == i || !bases.on(j)) continue;
    live.push_back(e);
    if (apart(j)) options.emplace_back(DestinationKind::kTowardEnemy, e);
  }
  for (std::size_t k = 0; k < objectives.size(); ++k) {
    if (python_hypot_at_least(here.x - objectives[k].x, here.y - objectives[k].y, settings_.min_move)) {
      options.emplace_back(DestinationKind::kTowardObjective, static_cast<std::int64_t>(k));
    }
  }
  const std::optional<std::size_t> foe = nearest(bases, i, live);
  if (foe) {
    const auto ref = static_cast<std::int64_t>(*foe);
    if (cover_or_blocking_) options.emplace_back(DestinationKind::kCoverFromEnemy, ref);
    options.emplace_back(DestinationKind::kAway, ref);
  }
  for (const std::int64_t f : friends) {
    const std::size_t j = valid(f);
    if (j != i && bases.on(j) && apart(j)) options.emplace_back(DestinationKind::kTowardFriend, f);
  }
  return options;
}

// -- movement costs ---------------------------------------------------------------------------
std::vector<std::pair<double, double>> TableGeometry::difficult_spans(Point a, Point b) const {
  // navigation._stretch_sum / _spans: cut at every proper crossing of a difficult outline edge;
  // each stretch is inside as its midpoint is.
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const Box span_box{std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
  Recycled<double> cuts;  // (built for every segment costed)
  for (const auto& [box, edges] : difficult_edges_) {
    if (box.xmax < span_box.xmin || box.xmin > span_box.xmax || box.ymax < span_box.ymin ||
        box.ymin > span_box.ymax) {
      continue;
    }
    for (const Edge& edge : edges) {
      const double denom = dx * edge.step.y - dy * edge.step.x;
      if (-kParallel <= denom && denom <= kParallel) continue;
      const double wx = edge.start.x - a.x;
      const double wy = edge.start.y - a.y;
      const double t = (wx * edge.step.y - wy * edge.step.x) / denom;
      if (t > 0.0 && t < 1.0) {
        const double u = (wx * dy - wy * dx) / denom;
        if (u >= 0.0 && u <= 1.0) cuts.push_back(t);
      }
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.push_back(1.0);
  std::vector<std::pair<double, double>> spans;
  double lo = 0.0;
  for (const double hi : cuts) {
    if (hi > lo) {
      const double mid = (lo + hi) / 2.0;
      if (difficult_.contains(Point{a.x + mid * dx, a.y + mid * dy})) spans.emplace_back(lo, hi);
    }
    lo = hi;
  }
  return spans;
}

double TableGeometry::segment_cost(Point a, Point b) const {
  const double length = std::hypot(b.x - a.x, b.y - a.y);
  if (difficult_.empty() || !difficult_.meets_segment(a, b)) return length;
  double total = 0.0;
  for (const auto& [lo, hi] : difficult_spans(a, b)) total += hi - lo;
  return length * (1.0 + total);
}

Point TableGeometry::point_at_cost(Point a, Point b, double budget, double cost) const {
  // navigation._end_at_cost / _point_at_cost.
  const double length = std::hypot(b.x - a.x, b.y - a.y);
  if (length <= 0.0) return a;
  if (cost <= length + kOpenGround) return along(a, b, std::min(budget, length) / length);
  std::vector<std::pair<double, double>> spans;
  for (const auto& [lo, hi] : difficult_spans(a, b)) spans.emplace_back(lo * length, hi * length);
  std::sort(spans.begin(), spans.end());
  double spent = 0.0;
  double position = 0.0;
  for (auto [enter, leave] : spans) {
    if (enter > position) {
      if (spent + (enter - position) >= budget) return along(a, b, (position + budget - spent) / length);
      spent += enter - position;
      position = enter;
    }
    leave = std::max(leave, position);
    if (spent + 2.0 * (leave - position) >= budget) {
      return along(a, b, (position + (budget - spent) / 2.0) / length);
    }
    spent += 2.0 * (leave - position);
    position = leave;
  }
  return along(a, b, std::min(length, position + budget - spent) / length);
}

StraightPlan TableGeometry::truncate(const std::vector<Point>& points, double allowance) const {
  if (points.empty()) throw std::invalid_argument("truncate: an empty polyline");
  if (points.size() < 2) return StraightPlan{{points.front()}, 0.0, false};
  std::vector<double> costs;
  std::vector<double> total;
  double running = 0.0;
  for (std::size_t k = 1; k < points.size(); ++k) {
    costs.push_back(segment_cost(points[k - 1], points[k]));
    running += costs.back();
    total.push_back(running);
  }
  if (total.back() <= allowance + kCostSlack) return StraightPlan{points, total.back(), false};
  const auto k = static_cast<std::size_t>(std::upper_bound(total.begin(), total.end(), allowance) - total.begin());
  const double spent = k > 0 ? total[k - 1] : 0.0;
  std::vector<Point> kept(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(k + 1));
  kept.push_back(point_at_cost(points[k], points[k + 1], allowance - spent, costs[k]));
  return StraightPlan{dedupe(kept), allowance, false};
}

double TableGeometry::straight_limit(const BasesView& bases, std::size_t i, Point direction, double distance) const {
  const Point c = bases.center(i);
  const double r = bases.radii[i];
  double limit = distance;
  const double lo[2] = {r, r};
  const double hi[2] = {width_ - r, height_ - r};
  const double at[2] = {c.x, c.y};
  const double step[2] = {direction.x, direction.y};
  for (std::size_t axis = 0; axis < 2; ++axis) {
    if (step[axis] > 0.0) {
      limit = std::min(limit, std::max(0.0, (hi[axis] - at[axis]) / step[axis]));
    } else if (step[axis] < 0.0) {
      limit = std::min(limit, std::max(0.0, (lo[axis] - at[axis]) / step[axis]));
    }
  }
  std::size_t others = 0;  // the rows of Python's rel
  for (std::size_t j = 0; j < bases.size(); ++j) {
    if (j != i && bases.on(j)) ++others;
  }
  for (std::size_t j = 0; j < bases.size(); ++j) {
    if (j == i || !bases.on(j)) continue;
    const double rx = c.x - bases.centers[2 * j];
    const double ry = c.y - bases.centers[2 * j + 1];
    const double reach = bases.radii[j] + r;
    const double ahead = numpy_dot2(rx, ry, direction, others);  // rel @ direction
    const double dist2 = rx * rx + ry * ry;
    const double disc = ahead * ahead - (dist2 - reach * reach);
    if (!(ahead < 0.0 && disc > 0.0)) continue;
    if (dist2 <= reach * reach) {
      limit = 0.0;  // already touching and moving into it
      continue;
    }
    limit = std::min(limit, std::max(0.0, -ahead - std::sqrt(disc)));
  }
  const RadiusGeometry& geometry = for_radius(r);
  if (geometry.clearance && limit > 0.0) {
    const Point end{c.x + direction.x * limit, c.y + direction.y * limit};
    // movement._straight_limit: the nearest coordinate of shapely.intersection(line, clearance)
    // along the direction; segment_hits lists those coordinates as GEOS computes them.
    const std::vector<Point> hits = geometry.clearance->segment_hits(c, end);
    if (!hits.empty()) {
      double first = std::numeric_limits<double>::infinity();
      for (const Point& hit : hits) {
        first = std::min(first, numpy_dot2(hit.x - c.x, hit.y - c.y, direction, hits.size()));  // (hit - c) @ direction
      }
      limit = std::min(limit, std::max(0.0, first - kStopShort));
    }
  }
  return limit;
}

StraightPlan TableGeometry::plan_push(const BasesView& bases, std::size_t i, Point away_from, double distance) const {
  check_model(bases, i);
  if (!bases.on(i) || distance <= 0.0) return stay(bases, i, distance <= 0.0);
  const Point c = bases.center(i);
  const double ax = c.x - away_from.x;
  const double ay = c.y - away_from.y;
  const double norm = python_hypot(ax, ay);  // math.hypot, as movement.plan_push
  if (norm <= kDuplicate) return stay(bases, i, false);
  const Point direction{ax / norm, ay / norm};
  const double moved = straight_limit(bases, i, direction, distance);
  StraightPlan plan{{c}, moved, moved >= distance - kCostSlack};
  if (moved > 0.0) plan.path.push_back(Point{c.x + direction.x * moved, c.y + direction.y * moved});
  return plan;
}

std::pair<StraightPlan, bool> TableGeometry::plan_flight(const BasesView& bases, std::size_t i, double distance) const {
  check_model(bases, i);
  if (!bases.on(i)) return {stay(bases, i, false), false};
  const double tol = settings_.contact_tolerance;
  const Point c = bases.center(i);
  const double r = bases.radii[i];
  const double before = std::max(0.0, std::min({c.x, c.y, width_ - c.x, height_ - c.y}) - r);
  if (before <= tol) return {stay(bases, i, true), true};
  // movement._edge_goal: the nearest edge, ties left, bottom, right, top.
  const double gaps[4] = {c.x, c.y, width_ - c.x, height_ - c.y};
  const Point directions[4] = {{-1.0, 0.0}, {0.0, -1.0}, {1.0, 0.0}, {0.0, 1.0}};
  std::size_t nearest_edge = 0;
  for (std::size_t k = 1; k < 4; ++k) {
    if (gaps[k] < gaps[nearest_edge]) nearest_edge = k;
  }
  const Point direction = directions[nearest_edge];
  const double moved = straight_limit(bases, i, direction, kInf);
  const std::vector<Point> run{c, Point{c.x + direction.x * moved, c.y + direction.y * moved}};
  StraightPlan plan = truncate(run, distance);
  plan.reached = false;
  return left_at_edge(plan, r);
}

std::pair<StraightPlan, bool> TableGeometry::left_at_edge(const StraightPlan& plan, double r) const {
  const double tol = settings_.contact_tolerance;
  const auto gaps = [&](Point p) {
    return std::array<double, 4>{p.x - r, p.y - r, width_ - p.x - r, height_ - p.y - r};
  };
  const std::vector<Point>& path = plan.path;
  for (std::size_t k = 1; k < path.size(); ++k) {
    const Point a = path[k - 1];
    const Point b = path[k];
    const auto ga = gaps(a);
    const auto gb = gaps(b);
    if (*std::min_element(gb.begin(), gb.end()) > tol) continue;
    double t = kInf;
    for (std::size_t e = 0; e < 4; ++e) {
      if (!(gb[e] <= tol)) continue;
      const double floor = std::max(gb[e], 0.0);
      t = std::min(t, ga[e] > floor ? (ga[e] - floor) / (ga[e] - gb[e]) : 0.0);
    }
    t = std::min(1.0, std::max(0.0, t));
    std::vector<Point> points(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(k));
    points.push_back(along(a, b, t));
    if (points.size() > 1) {
      const Point last = points.back();
      const Point prev = points[points.size() - 2];
      if (python_hypot(last.x - prev.x, last.y - prev.y) <= kDuplicate) points.pop_back();
    }
    double cost = 0.0;
    for (std::size_t s = 1; s < points.size(); ++s) cost += segment_cost(points[s - 1], points[s]);
    return {StraightPlan{std::move(points), std::min(cost, plan.cost), true}, true};
  }
  return {StraightPlan{path, plan.cost, false}, false};
}

// -- measurement ------------------------------------------------------------------------------
namespace {
// gaps_from's gap of two bases (hypot of the centres' offset, less both radii, never negative).
double base_gap(const BasesView& bases, std::size_t i, std::size_t j) {
  const Point c = bases.center(i);
  const double gap = std::hypot(bases.centers[2 * j] - c.x, bases.centers[2 * j + 1] - c.y) - bases.radii[j] -
                     bases.radii[i];
  return std::max(gap, 0.0);
}

// base_gap(i, j) <= tol for a finite tol >= 0 and radii >= 0: hypot_side against tol + both
// radii (its relative margin is far above the hypot's and the two subtractions' rounding, all
// within a few ulps of that sum near the limit), the gap itself when too close to call.
bool gap_within(const BasesView& bases, std::size_t i, std::size_t j, double tol) {
  const double ri = bases.radii[i];
  const double rj = bases.radii[j];
  if (ri >= 0.0 && rj >= 0.0) {
    const int side = hypot_side(bases.centers[2 * j] - bases.centers[2 * i],
                                bases.centers[2 * j + 1] - bases.centers[2 * i + 1], tol + ri + rj);
    if (side != 0) return side < 0;
  }
  return base_gap(bases, i, j) <= tol;
}
}  // namespace

std::vector<double> gaps_from(const BasesView& bases, std::size_t i) {
  check_model(bases, i);
  std::vector<double> gaps(bases.size(), kInf);
  if (!bases.on(i)) return gaps;
  for (std::size_t j = 0; j < bases.size(); ++j) {
    if (j == i || !bases.on(j)) continue;
    // measure._gaps_from: hypot(centre_j - centre_i) - radius_j - radius_i, never negative.
    gaps[j] = base_gap(bases, i, j);
  }
  return gaps;
}

double edge_distance(const BasesView& bases, std::size_t i, std::size_t j) {
  check_model(bases, i);
  check_model(bases, j);
  if (!bases.on(i) || !bases.on(j)) return kInf;
  const Point a = bases.center(i);
  const Point b = bases.center(j);
  // math.hypot, as measure.layout_edge_distance.
  return std::max(0.0, python_hypot(a.x - b.x, a.y - b.y) - bases.radii[i] - bases.radii[j]);
}


std::vector<std::size_t> contacts(const BasesView& bases, std::size_t i, double tol) {
  std::vector<std::size_t> found;
  if (!std::isfinite(tol) || tol < 0.0) {
    const std::vector<double> gaps = gaps_from(bases, i);
    for (std::size_t j = 0; j < gaps.size(); ++j) {
      if (gaps[j] <= tol) found.push_back(j);
    }
    return found;
  }
  check_model(bases, i);
  if (!bases.on(i)) return found;
  for (std::size_t j = 0; j < bases.size(); ++j) {
    if (j == i || !bases.on(j)) continue;
    if (gap_within(bases, i, j, tol)) found.push_back(j);
  }
  return found;
}

std::vector<std::pair<std::size_t, std::size_t>> engagements(const BasesView& bases, double tol) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    if (!bases.on(i)) continue;
    for (const std::size_t j : contacts(bases, i, tol)) {
      if (j > i) pairs.emplace_back(i, j);
    }
  }
  return pairs;
}

std::optional<std::size_t> nearest(const BasesView& bases, std::size_t i, std::span<const std::int64_t> candidates) {
  if (candidates.empty()) return std::nullopt;
  check_model(bases, i);
  // gaps_from's gaps of the candidates only (the others are never read).
  std::optional<std::size_t> best;
  double best_gap = kInf;
  for (const std::int64_t candidate : candidates) {
    if (candidate < 0 || static_cast<std::size_t>(candidate) >= bases.size()) {
      throw std::out_of_range("nearest: candidate index out of range");
    }
    const auto j = static_cast<std::size_t>(candidate);
    if (!bases.on(i) || j == i || !bases.on(j)) continue;
    const double gap = base_gap(bases, i, j);
    if (!std::isfinite(gap)) continue;
    if (!best || gap < best_gap) {
      best = j;
      best_gap = gap;
    }
  }
  return best;
}

std::vector<std::size_t> models_within_model(const BasesView& bases, std::size_t i, double r) {
  return contacts(bases, i, r);
}

std::vector<std::size_t> models_within_point(const BasesView& bases, Point p, double r) {
  std::vector<std::size_t> found;
  for (std::size_t j = 0; j < bases.size(); ++j) {
    if (!bases.on(j)) continue;
    const double gap = std::max(std::hypot(bases.centers[2 * j] - p.x, bases.centers[2 * j + 1] - p.y) - bases.radii[j], 0.0);
    if (gap <= r) found.push_back(j);
  }
  return found;
}

}  // namespace riven::table
