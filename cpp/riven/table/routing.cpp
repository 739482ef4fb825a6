#include "riven/table/routing.hpp"

#include "riven/table/memo.hpp"
#include "riven/recycled.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RIVEN_AVX_ROWS 1
#endif

namespace riven::table {

namespace {

#if defined(RIVEN_AVX_ROWS)
// One row of Navigator::reach_bounds four columns at a time, on a CPU with AVX (asked once:
// the build targets the baseline x86-64, whose widest registers are SSE2's two lanes): the same
// sums and the same ordered comparisons lane by lane (minpd(via, was) is via < was ? via : was),
// so the very doubles of the two-lane and scalar loops. Returns the first column it left (fewer
// than four remain).
__attribute__((target("avx"))) std::size_t reach_row_avx(double link, const double* row, std::size_t n,
                                                         double* best) {
  const __m256d link4 = _mm256_set1_pd(link);
  std::size_t v = 0;
  for (; v + 4 <= n; v += 4) {
    const __m256d via = _mm256_add_pd(link4, _mm256_loadu_pd(row + v));
    _mm256_storeu_pd(best + v, _mm256_min_pd(via, _mm256_loadu_pd(best + v)));
  }
  return v;
}

// min over k of links[k] + column[k] (n terms), four at a time with AVX: the same sums, and the
// least of them is the least in any order.
__attribute__((target("avx"))) double column_min_avx(const double* links, const double* column, std::size_t n) {
  __m256d best4 = _mm256_set1_pd(std::numeric_limits<double>::infinity());
  std::size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    best4 = _mm256_min_pd(_mm256_add_pd(_mm256_loadu_pd(links + k), _mm256_loadu_pd(column + k)), best4);
  }
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, best4);
  double best = std::min(std::min(lanes[0], lanes[1]), std::min(lanes[2], lanes[3]));
  for (; k < n; ++k) {
    const double via = links[k] + column[k];
    best = via < best ? via : best;
  }
  return best;
}

// redo[v] |= (link + row[v] == reach[v]) four columns at a time (the same sums, compared for
// equality lane by lane). Returns the first column it left (fewer than four remain).
__attribute__((target("avx"))) std::size_t mark_row_avx(double link, const double* row, const double* reach,
                                                        std::size_t n, std::uint8_t* redo) {
  const __m256d link4 = _mm256_set1_pd(link);
  std::size_t v = 0;
  for (; v + 4 <= n; v += 4) {
    const __m256d via = _mm256_add_pd(link4, _mm256_loadu_pd(row + v));
    auto bits = static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(via, _mm256_loadu_pd(reach + v), _CMP_EQ_OQ)));
    while (bits != 0) {
      redo[v + static_cast<std::size_t>(std::countr_zero(bits))] = 1;
      bits &= bits - 1;
    }
  }
  return v;
}

bool cpu_has_avx() {
  static const bool has = __builtin_cpu_supports("avx") != 0;
  return has;
}
#endif

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kMaxLazyRounds = 8;  // routing._MAX_LAZY_ROUNDS
constexpr std::size_t kBatch = 8;          // routing._BATCH
constexpr std::size_t kGoalFixRounds = 4;  // movement._GOAL_FIX_ROUNDS
constexpr double kSlack = 1e-9;            // the 1e-9 of every allowance comparison
constexpr double kDuplicate = 1e-12;       // zero-length hops (routing._route, navigation._dedupe)
constexpr double kPi = 3.141592653589793;  // math.pi

// Link costs (navigation.link_cost: terrain blocking the mover's base, else the segment's cost)
// depend only on the two end points, the mover's clearance shape and the table's difficult
// terrain; shapes never change once built and are named by their uid, the points by their bits.
// Moves of one game, and the opening moves of every game, ask for the same links again (the
// rings of bases that did not move, the start points of deployment): each thread keeps recent
// answers (about 460 KB a thread, which stays in the processor's cache where a hash map of
// every link seen would not).
using LinkKey = MemoKey<6>;  // clearance uid, difficult uid, ax, ay, bx, by
using LinkCache = DirectMemo<LinkKey, double, std::size_t{1} << 13>;

LinkCache& link_cache() {
  thread_local LinkCache cache;
  return cache;
}

// navigation.segment_point_distances(a, b, c) < limit for one segment and one point (numpy's
// operations: the hypot of the closest point's offset), the hypot only near the limit: the
// squared distance of the same offset decides wherever it is farther than a margin (far above
// either formula's rounding) from the limit's square, so the answer is the hypot comparison's.
bool segment_point_closer(Point a, Point b, Point c, double limit) {
  if (!(limit > 0.0)) return false;  // a distance is never below a limit <= 0 (or nan)
  const double abx = b.x - a.x;
  const double aby = b.y - a.y;
  double denom = abx * abx + aby * aby;
  if (!(denom > 0.0)) denom = 1.0;
  double t = ((c.x - a.x) * abx + (c.y - a.y) * aby) / denom;
  t = std::min(std::max(t, 0.0), 1.0);
  const double ex = c.x - (a.x + t * abx);
  const double ey = c.y - (a.y + t * aby);
  const double squared = ex * ex + ey * ey;
  const double far = limit * (1.0 + 1e-9) + 1e-9;
  if (squared > far * far) return false;
  const double near = limit * (1.0 - 1e-9) - 1e-9;
  if (near > 0.0 && squared < near * near) return true;
  return std::hypot(ex, ey) < limit;
}

// np.argsort(values[candidates], kind="stable")[:count] mapped back to the candidates (as a set:
// the callers cost each one, in any order), selected in place: ``candidates`` (the caller's
// scratch, in increasing order, so the stable order is (value, index)) keeps the chosen ones.
void keep_cheapest(std::vector<std::size_t>& candidates, const std::vector<double>& values, std::size_t count) {
  if (candidates.size() <= count) return;
  constexpr std::size_t kKept = 16;
  if (count > kKept) {
    const auto before = [&](std::size_t a, std::size_t b) { return values[a] < values[b] || (values[a] == values[b] && a < b); };
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count), candidates.end(),
                      before);
    candidates.resize(count);
    return;
  }
  // The kept ones in (value, index) order, by insertion: the candidates come in increasing
  // index order, so one that only ties the dearest kept value comes after it and stays out;
  // most candidates cost one comparison with the dearest kept (a heap cost several, each through
  // the indices).
  std::array<double, kKept> kept_value{};
  std::array<std::size_t, kKept> kept_index{};
  std::size_t kept = 0;
  for (const std::size_t c : candidates) {
    const double value = values[c];
    if (kept == count && !(value < kept_value[kept - 1])) continue;
    std::size_t at = kept < count ? kept++ : kept - 1;
    for (; at > 0 && value < kept_value[at - 1]; --at) {
      kept_value[at] = kept_value[at - 1];
      kept_index[at] = kept_index[at - 1];
    }
    kept_value[at] = value;
    kept_index[at] = c;
  }
  std::copy_n(kept_index.begin(), kept, candidates.begin());
  candidates.resize(kept);
}

// hypot(b - a) > kDuplicate (numpy's hypot), the hypot only when the squared length is too close
// to call (hypot_side).
bool apart(Point a, Point b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const int side = hypot_side(dx, dy, kDuplicate);
  return side != 0 ? side > 0 : std::hypot(dx, dy) > kDuplicate;
}

// navigation._dedupe / dedupe_xy: drop each point within 1e-12 of the point before it.
std::vector<Point> dedupe_points(const std::vector<Point>& points) {
  std::vector<Point> kept;
  kept.reserve(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (k == 0 || apart(points[k - 1], points[k])) {
      kept.push_back(points[k]);
    }
  }
  return kept;
}

// routing._route: a route through points with known costs, zero-length hops dropped.
Route make_route(const std::vector<Point>& xy, const std::vector<double>& costs, bool goal_reached) {
  Route route;
  route.goal_reached = goal_reached;
  route.has_costs = true;
  route.points.reserve(xy.size());
  route.costs.reserve(costs.size());
  route.points.push_back(xy.front());
  for (std::size_t k = 1; k < xy.size(); ++k) {
    if (apart(xy[k - 1], xy[k])) {
      route.points.push_back(xy[k]);
      route.costs.push_back(costs[k - 1]);
    }
  }
  route.cost = numpy_sum(route.costs);
  return route;
}

Route stay_route(Point start) {
  Route route;
  route.points = {start};
  return route;
}

// The lazily checked links of the start (links.StartReach) or of a goal (links.GoalLinks).
struct StartLinks {
  Recycled<double> links;  // nan: not checked yet
  Recycled<double> bound;  // straight lengths
  bool complete = false;
};

struct GoalLinks {
  Recycled<Point> points;
  // Whether points[v] is placed. A contact spot outside contact is placed (one hypot) only when
  // its link is first costed; until then its bound is its length's lower bound less the contact
  // distance, so the search answers as if every spot had been placed first.
  Recycled<std::uint8_t> placed;
  Recycled<double> bound;  // inf: no goal point (inside contact)
  Recycled<double> cost;   // nan: not checked yet; inf: blocked, or the goal point is not legal
  // A contact spot's legality (table, terrain, the other bases) is checked when its link is
  // first costed: an illegal spot's link costs inf, which its straight length bounds from
  // below, so the search answers as if every spot had been checked first.
  std::optional<std::size_t> target;
};

class Navigator;

// routing._ActiveGraph: waypoints with some bases blocking, and the cheapest costs from the
// start as far as a search has needed them. The eager graph (every link cost, then Dijkstra over
// all of them) is searched lazily here with the same answers: a link is costed only when the
// search reaches a waypoint whose straight length to it (a lower bound of the cost) could still
// improve the other end, and the search stops once no waypoint left could matter (route_active).
// Every cheapest cost settled is the eager one (label-setting on non-negative costs, rounding
// monotone), and a predecessor is the eager one (the first waypoint, by index, that gives the
// settled cost), found on demand. The search state is kept: another goal on the same graph
// resumes it.
struct ActiveGraph {
  std::vector<std::size_t> active;
  std::vector<Point> points;  // static waypoints, then ring points, then the start
  std::size_t statics = 0;
  std::size_t start = 0;
  std::vector<std::uint8_t> usable;  // the waypoint keeps the base clear of the blocking bases
  std::vector<double> extra_cost;    // (V - N, V): costs of links with a ring point or the start (nan: not yet)
  std::vector<double> dist;          // settled: the cheapest cost; else the best cost found so far (inf: none)
  std::vector<std::uint8_t> done;    // settled
  std::vector<std::size_t> settled;  // in settling order
  std::vector<std::int64_t> pred;    // -2: not yet looked up
  // The queue holds, for each settled waypoint, only its cheapest candidate not yet checked
  // (a cursor over its links, cheapest first), plus the exact costs found: a search pops what
  // it would have popped with every candidate queued at once, without queueing the many that
  // are never reached (they were most of a search's time).
  struct Entry {
    double key;               // a cost to ``to`` through ``from``: exact when kind is kExact, else a lower bound
    std::uint32_t from_bits;  // from, and the entry's kind in the two high bits
    std::uint32_t to;

    static Entry make(double key, std::size_t from, std::size_t to, std::uint32_t kind) {
      return {key, static_cast<std::uint32_t>(from) | kind, static_cast<std::uint32_t>(to)};
    }
    [[nodiscard]] std::size_t from() const { return from_bits & ~kKinds; }
    [[nodiscard]] std::uint32_t kind() const { return from_bits & kKinds; }
    static constexpr std::uint32_t kStatic = 0U;           // a static edge, from the waypoint's edge cursor
    static constexpr std::uint32_t kListed = 0x40000000U;  // a straight-bound link, from its listed cursor
    static constexpr std::uint32_t kExact = 0x80000000U;   // the exact cost through ``from``
    static constexpr std::uint32_t kKinds = kListed | kExact;
  };
  std::vector<Entry> heap;  // a min-heap on key (std::push_heap with Later)
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return a.key > b.key; }
  };
  // A settled static waypoint's cursor into its edges cheapest first (NavGraph::by_cost).
  std::vector<std::uint32_t> edge_next;
  // The straight-bound candidates of the settled waypoints (to a ring point or the start, and
  // every link of a ring point or the start), each waypoint's run a min-heap, with its
  // cursor and end.
  struct Listed {
    double key;
    std::uint32_t to;
  };
  struct ListedLater {
    bool operator()(const Listed& x, const Listed& y) const { return x.key > y.key || (x.key == y.key && x.to > y.to); }
  };
  std::vector<Listed> listed;
  std::vector<std::uint32_t> listed_next;  // the start of a waypoint's run (its heap)
  std::vector<std::uint32_t> listed_end;   // the end of the run's heap: the candidates not yet popped

  [[nodiscard]] double next_key() const { return heap.empty() ? kInf : heap.front().key; }
};

class Navigator {
 public:
  Navigator(const TableGeometry& table, const BasesView& bases, std::size_t mover)
      : table_(table),
        routing_(table.routing()),
        mover_(mover),
        radius_(bases.radii[mover]),
        start_(bases.center(mover)),
        tol_(table.settings().contact_tolerance),
        margin_(table.routing().waypoint_margin),
        sides_(table.routing().base_waypoint_sides) {
    const RadiusGeometry& geometry = table.for_radius(radius_);
    if (!geometry.nav) throw std::invalid_argument("route: no navigation graph registered for this base radius");
    nav_ = &*geometry.nav;
    clearance_ = geometry.clearance ? &*geometry.clearance : nullptr;
    if (routing_.ring.size() != sides_ || routing_.wrap_ring.size() != 2 * sides_) {
      throw std::invalid_argument("route: the routing settings' unit rings do not match base_waypoint_sides");
    }
    // Sized once (a route plan builds one Navigator; growth by doubling cost a dozen
    // allocations per vector).
    const std::size_t count = bases.size();
    for (auto* values : {&reach_, &limit_, &limit2_, &far2_}) values->reserve(count);
    ids_.reserve(count);
    centres_.reserve(count);
    for (std::size_t j = 0; j < bases.size(); ++j) {
      if (j == mover || !bases.on(j)) continue;
      ids_.push_back(j);
      centres_.push_back(bases.center(j));
      reach_.push_back(bases.radii[j] + radius_);
    }
    for (std::size_t k = 0; k < ids_.size(); ++k) {
      const double limit = reach_[k] - tol_;
      limit_.push_back(limit);
      const double positive = std::max(limit, 0.0);
      limit2_.push_back(positive * positive);
      const double far = positive * (1.0 + 1e-9) + 1e-9;
      far2_.push_back(far * far);
    }
    const std::size_t n = nav_->size();
    start_links_.links.assign(n, kNan);
    start_links_.bound.resize(n);
    // Straight lengths bound the start links from below (they only order and prune the lazy
    // search, whose answers are the exact costs'): no hypot needed.
    for (std::size_t v = 0; v < n; ++v) start_links_.bound[v] = straight_bound(start_, nav_->nodes[v]);
    start_links_.complete = n == 0;
  }

  [[nodiscard]] const TableGeometry& table() const { return table_; }
  [[nodiscard]] Point start() const { return start_; }
  [[nodiscard]] double radius() const { return radius_; }
  [[nodiscard]] const NavGraph& nav() const { return *nav_; }
  [[nodiscard]] std::size_t mover() const { return mover_; }
  [[nodiscard]] double tol() const { return tol_; }
  [[nodiscard]] double margin() const { return margin_; }
  [[nodiscard]] const Shape* clearance() const { return clearance_; }
  [[nodiscard]] const std::vector<Point>& centres() const { return centres_; }
  [[nodiscard]] const std::vector<double>& reach() const { return reach_; }
  [[nodiscard]] const std::vector<double>& limits() const { return limit_; }

  // Whether p keeps the base clear of obstacle k: hypot(p - c) - limit >= 0, as Navigator.legal
  // computes it; a point far outside the limit (squared distance above a bound padded far beyond
  // either formula's rounding) is clear without the hypot.
  [[nodiscard]] bool clear_of_base(Point p, std::size_t k) const {
    const double dx = p.x - centres_[k].x;
    const double dy = p.y - centres_[k].y;
    if (dx * dx + dy * dy > far2_[k]) return true;
    return std::hypot(dx, dy) - limit_[k] >= 0.0;
  }

  // Obstacle position of a model index (np.searchsorted of the sorted ids), if on the table.
  [[nodiscard]] std::optional<std::size_t> position(std::size_t model) const {
    const auto found = std::lower_bound(ids_.begin(), ids_.end(), model);
    if (found == ids_.end() || *found != model) return std::nullopt;
    return static_cast<std::size_t>(found - ids_.begin());
  }

  // -- legality and visibility ---------------------------------------------------------------
  [[nodiscard]] bool nav_legal(Point p) const {
    const Box& b = nav_->bounds;
    constexpr double eps = 1e-9;
    if (!(p.x >= b.xmin - eps && p.x <= b.xmax + eps && p.y >= b.ymin - eps && p.y <= b.ymax + eps)) return false;
    return clearance_ == nullptr || !clearance_->contains(p);
  }

  // Navigator.legal / legal_xy: table, terrain and every other base but ``skip``.
  // The bases are tested before the terrain's point-in-polygon test (the answer is the same
  // conjunction; the bases' test is the cheaper one).
  [[nodiscard]] bool legal(Point p, std::optional<std::size_t> skip = std::nullopt) const {
    for (std::size_t k = 0; k < centres_.size(); ++k) {
      if (skip && *skip == k) continue;
      if (!clear_of_base(p, k)) return false;
    }
    return nav_legal(p);
  }

  [[nodiscard]] bool blocks(Point a, Point b) const { return clearance_ != nullptr && clearance_->meets_segment(a, b); }

  [[nodiscard]] bool in_difficult(Point a, Point b) const {
    const Shape& difficult = table_.difficult();
    return !difficult.empty() && difficult.meets_segment(a, b);
  }

  // navigation.link_cost: inf where terrain blocks the base, else the segment's cost.
  // Remembered per thread (LinkCache): a pure function of the two points and the two shapes.
  [[nodiscard]] double link_cost(Point a, Point b) const {
    const LinkKey key{{clearance_ != nullptr ? clearance_->uid() : 0, table_.difficult().uid(),
                       std::bit_cast<std::uint64_t>(a.x), std::bit_cast<std::uint64_t>(a.y),
                       std::bit_cast<std::uint64_t>(b.x), std::bit_cast<std::uint64_t>(b.y)}};
    return link_cache().answer(key, [&] { return blocks(a, b) ? kInf : table_.segment_cost(a, b); });
  }

  // Whether the segment keeps the base clear of the bases ``members`` (numpy's distances).
  [[nodiscard]] bool clear_of(Point a, Point b, const std::vector<std::size_t>& members) const {
    for (const std::size_t k : members) {
      if (segment_point_closer(a, b, centres_[k], limit_[k])) return false;
    }
    return true;
  }

  // Navigator.crossed: obstacle positions whose bases the polyline overlaps.
  [[nodiscard]] std::vector<std::size_t> crossed(const std::vector<Point>& points) const {
    std::vector<std::size_t> hits;
    if (ids_.empty() || points.size() < 2) return hits;
    for (std::size_t k = 0; k < centres_.size(); ++k) {
      for (std::size_t s = 0; s + 1 < points.size(); ++s) {
        if (segment_point_closer(points[s], points[s + 1], centres_[k], limit_[k])) {
          hits.push_back(k);
          break;
        }
      }
    }
    return hits;
  }

  // Navigator._segment_meets_bases (its own squared arithmetic).
  [[nodiscard]] bool segment_meets_bases(Point a, Point b) const {
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    const double length2 = dx * dx + dy * dy;
    for (std::size_t k = 0; k < centres_.size(); ++k) {
      const Point o = centres_[k];
      double t = length2 > 0.0 ? ((o.x - a.x) * dx + (o.y - a.y) * dy) / length2 : 0.0;
      t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
      const double ex = a.x + t * dx - o.x;
      const double ey = a.y + t * dy - o.y;
      if (ex * ex + ey * ey < limit2_[k]) return true;
    }
    return false;
  }

  // Navigator._spot_clear.
  [[nodiscard]] bool spot_clear(Point p, std::size_t skip) const {
    const Box& b = nav_->bounds;
    constexpr double eps = 1e-9;
    if (!(b.xmin - eps <= p.x && p.x <= b.xmax + eps && b.ymin - eps <= p.y && p.y <= b.ymax + eps)) return false;
    if (clearance_ != nullptr && clearance_->contains(p)) return false;
    for (std::size_t k = 0; k < centres_.size(); ++k) {
      if (k == skip) continue;
      const double dx = p.x - centres_[k].x;
      const double dy = p.y - centres_[k].y;
      if (dx * dx + dy * dy < limit2_[k]) return false;
    }
    return true;
  }

  // -- routes ---------------------------------------------------------------------------------
  Route route(double allowance, std::optional<Point> goal, std::optional<std::size_t> target) {
    if (std::optional<Route> straight = straight_route(goal, target)) return std::move(*straight);
    Route found = route_static(goal, target);
    std::optional<Route> repaired = detour(found, allowance, target);
    if (repaired && (!target || repaired->cost <= allowance + kSlack || contact_bound(*target) > allowance)) {
      return std::move(*repaired);
    }
    std::vector<std::size_t> active;
    if (target) {
      active = cluster(*target);
      found = route_active(active, goal, target);
    }
    for (std::size_t round = 0; round < kMaxLazyRounds; ++round) {
      const std::vector<Point> paid = head(found, allowance).path;
      std::vector<std::size_t> hits;
      for (const std::size_t k : crossed(paid)) {
        if (!std::binary_search(active.begin(), active.end(), k)) hits.push_back(k);
      }
      if (hits.empty()) break;
      std::vector<std::size_t> merged;
      std::set_union(active.begin(), active.end(), hits.begin(), hits.end(), std::back_inserter(merged));
      active = std::move(merged);
      found = route_active(active, goal, target);
    }
    if (repaired && (!found.goal_reached || repaired->cost < found.cost)) return std::move(*repaired);
    return found;
  }

  // Route.segment_costs: each segment's cost (computed once).
  void ensure_costs(Route& route) const {
    if (route.has_costs) return;
    route.costs.clear();
    for (std::size_t k = 1; k < route.points.size(); ++k) {
      route.costs.push_back(table_.segment_cost(route.points[k - 1], route.points[k]));
    }
    route.has_costs = true;
  }

  // Route.head: the part the allowance pays for (navigation.truncate with known costs).
  StraightPlan head(Route& route, double allowance) const {
    ensure_costs(route);
    return truncate(route.points, route.costs, allowance);
  }

  [[nodiscard]] StraightPlan truncate(const std::vector<Point>& points, const std::vector<double>& costs,
                                      double allowance) const {
    if (points.size() < 2) return StraightPlan{{points.front()}, 0.0, false};
    std::vector<double> total;
    total.reserve(costs.size());
    double running = 0.0;
    for (const double cost : costs) {
      running += cost;
      total.push_back(running);
    }
    if (total.back() <= allowance + kSlack) return StraightPlan{points, total.back(), false};
    const auto k = static_cast<std::size_t>(std::upper_bound(total.begin(), total.end(), allowance) - total.begin());
    const double spent = k > 0 ? total[k - 1] : 0.0;
    std::vector<Point> kept;
    kept.reserve(k + 2);
    kept.insert(kept.end(), points.begin(), points.begin() + static_cast<std::ptrdiff_t>(k + 1));
    kept.push_back(end_at_cost(points[k], points[k + 1], allowance - spent, costs[k]));
    return StraightPlan{dedupe_points(kept), allowance, false};
  }

 private:
  // navigation._end_at_cost.
  [[nodiscard]] Point end_at_cost(Point a, Point b, double budget, double cost) const {
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    if (length <= 0.0) return a;
    if (cost <= length + kDuplicate) {
      const double f = std::min(budget, length) / length;
      return Point{a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f};
    }
    return table_.point_at_cost(a, b, budget, cost);
  }

  // Navigator._straight.
  std::optional<Route> straight_route(std::optional<Point> goal, std::optional<std::size_t> target) const {
    const Point s = start_;
    Point g{};
    if (target) {
      const Point c = centres_[*target];
      const double dx = s.x - c.x;
      const double dy = s.y - c.y;
      const double length = python_hypot(dx, dy);
      const double contact = contact_distance(*target);
      if (length <= contact) return std::nullopt;
      g = Point{c.x + dx * contact / length, c.y + dy * contact / length};
      if (!spot_clear(g, *target)) return std::nullopt;
    } else {
      g = *goal;
    }
    const double length = python_hypot(g.x - s.x, g.y - s.y);
    if (length <= kDuplicate) {
      Route route = stay_route(s);
      route.goal_reached = true;
      route.has_costs = true;
      return route;
    }
    if (segment_meets_bases(s, g)) return std::nullopt;
    if (blocks(s, g) || in_difficult(s, g)) return std::nullopt;
    Route route;
    route.points = {s, g};
    route.cost = length;
    route.goal_reached = true;
    route.costs = {length};
    route.has_costs = true;
    return route;
  }

  // The distance from base k's centre at which the mover's base stands in contact with it
  // (the middle of the contact tolerance): where every contact spot is placed.
  [[nodiscard]] double contact_distance(std::size_t k) const { return reach_[k] + tol_ / 2.0; }

  [[nodiscard]] double contact_bound(std::size_t k) const {
    return python_hypot(centres_[k].x - start_.x, centres_[k].y - start_.y) - reach_[k];
  }

  // links.contact_spots of one origin: the spot facing it, if the origin is outside contact.
  static std::optional<Point> contact_spot(Point centre, double contact, Point origin) {
    const double ox = origin.x - centre.x;
    const double oy = origin.y - centre.y;
    const double length = std::hypot(ox, oy);
    if (!(length > contact)) return std::nullopt;
    const double f = contact / length;
    return Point{centre.x + ox * f, centre.y + oy * f};
  }

  // Navigator._goal_links: the goal's static links, the straight link's end, the aim.
  void goal_links(std::optional<Point> goal, std::optional<std::size_t> target, GoalLinks& links,
                  std::optional<Point>& direct, Point& aim) const {
    const std::size_t n = nav_->size();
    links.points.resize(n);
    links.bound.resize(n);
    links.cost.assign(n, kNan);
    links.target = target;
    if (!target) {
      std::fill(links.points.begin(), links.points.end(), *goal);
      direct = *goal;
      aim = *goal;
    } else {
      const Point centre = centres_[*target];
      const double contact = contact_distance(*target);
      links.placed.assign(n, 0);
      for (std::size_t v = 0; v < n; ++v) {
        const double ox = nav_->nodes[v].x - centre.x;
        const double oy = nav_->nodes[v].y - centre.y;
        const int side = hypot_side(ox, oy, contact);
        if (side > 0) {
          // Surely outside contact: placed when first costed (goal_spot), bounded here.
          links.bound[v] = contact_spot_bound(centre, contact, ox, oy);
          continue;
        }
        const std::optional<Point> spot = side < 0 ? std::nullopt : contact_spot(centre, contact, nav_->nodes[v]);
        links.placed[v] = 1;
        if (!spot) {
          links.points[v] = Point{centre.x + ox * contact, centre.y + oy * contact};
          links.cost[v] = kInf;
        } else {
          links.points[v] = *spot;
        }
      }
      // Navigator._direct_spot.
      direct = contact_spot(centre, contact, start_);
      if (direct && !legal(*direct, *target)) direct.reset();
      aim = centre;
    }
    for (std::size_t v = 0; v < n; ++v) {
      if (!links.placed.empty() && !links.placed[v]) continue;  // bounded above
      links.bound[v] = std::isnan(links.cost[v]) ? straight_bound(nav_->nodes[v], links.points[v]) : kInf;
    }
  }

  // A lower bound of the cost from an origin (surely outside contact; (ox, oy) its offset from
  // the centre) to its contact spot: the spot lies on the segment to the centre, ``contact``
  // from it, so the link is the origin's distance less ``contact``; the slack is far above the
  // rounding of the spot's coordinates and of either length.
  static double contact_spot_bound(Point centre, double contact, double ox, double oy) {
    const double slack = 1e-9 * (1.0 + contact + std::abs(centre.x) + std::abs(centre.y) + std::abs(ox) + std::abs(oy));
    return std::max(0.0, std::sqrt(ox * ox + oy * oy) * (1.0 - 1e-12) - contact - slack);
  }

  // Waypoint v's goal point, placed now if it was left for later (goal_links).
  Point goal_spot(GoalLinks& links, std::size_t v) const {
    if (!links.placed.empty() && !links.placed[v]) {
      const Point centre = centres_[*links.target];
      links.points[v] = contact_spot(centre, contact_distance(*links.target), nav_->nodes[v]).value();
      links.placed[v] = 1;
    }
    return links.points[v];
  }

  // The cost of waypoint v's goal link: inf where its contact spot is not legal (off the table,
  // in terrain, or overlapping a base other than the target), else navigation.link_cost.
  [[nodiscard]] double goal_link_cost(GoalLinks& links, std::size_t v) const {
    const Point spot = goal_spot(links, v);
    if (links.target && !(nav_legal(spot) && legal_bases(spot, *links.target))) return kInf;
    return link_cost(nav_->nodes[v], spot);
  }

  // Navigator._clear_of_bases of one point.
  [[nodiscard]] bool legal_bases(Point p, std::size_t skip) const {
    for (std::size_t k = 0; k < centres_.size(); ++k) {
      if (k == skip) continue;
      if (!clear_of_base(p, k)) return false;
    }
    return true;
  }

  // A start link's cost if checked, else its straight length (a lower bound).
  [[nodiscard]] double start_value(std::size_t k) const {
    return std::isnan(start_links_.links[k]) ? start_links_.bound[k] : start_links_.links[k];
  }

  // Navigator._reach_bounds: reach[v] = min over k of start_value(k) + dist[k][v], row by row.
  // The k giving it (np.argmin over the column) is asked only for the waypoint a route leaves
  // from (first_reach), not kept for every column.
  void reach_bounds(std::vector<double>& reach) const {
    const std::size_t n = nav_->size();
    reach.assign(n, kInf);
    double* const best = reach.data();
#if defined(RIVEN_AVX_ROWS)
    const bool avx = cpu_has_avx();
#endif
    for (std::size_t k = 0; k < n; ++k) {
      const double link = start_value(k);
      const double* const row = nav_->dist.data() + k * n;
      std::size_t v = 0;
#if defined(RIVEN_AVX_ROWS)
      if (avx) v = reach_row_avx(link, row, n, best);
#endif
#if defined(__SSE2__)
      // Two columns at a time: the same sums and the same ordered comparisons, lane by lane
      // (minpd(via, was) is via < was ? via : was), so the very doubles.
      const __m128d link2 = _mm_set1_pd(link);
      for (; v + 2 <= n; v += 2) {
        const __m128d via = _mm_add_pd(link2, _mm_loadu_pd(row + v));
        _mm_storeu_pd(best + v, _mm_min_pd(via, _mm_loadu_pd(best + v)));
      }
#endif
      for (; v < n; ++v) {
        const double via = link + row[v];
        best[v] = via < best[v] ? via : best[v];
      }
    }
  }

  // The first k giving reach[v] (a strict comparison in k order, as np.argmin over the column;
  // 0 when no k gives a finite cost): computed from the start links as they are now, it is the
  // one reach_bounds and update_reach would have kept (a checked link only grows, so a k that
  // gave no least value before gives none now).
  [[nodiscard]] std::size_t first_reach(std::size_t v) const {
    const std::size_t n = nav_->size();
    const double* const column = nav_->dist_by_column.data() + v * n;
    double best = kInf;
    std::size_t at = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double via = start_value(k) + column[k];
      if (via < best) {
        best = via;
        at = k;
      }
    }
    return at;
  }

  // reach_bounds after the start links of ``changed`` were checked: a checked link costs at least
  // its straight length, so only a column that one of those rows gave its least value (with its
  // straight length, as every earlier computation added it) can change; those columns are
  // computed again, in k order as reach_bounds does.
  void update_reach(std::vector<double>& reach, const std::vector<std::size_t>& changed) const {
    const std::size_t n = nav_->size();
    const double* const dist = nav_->dist.data();
    std::vector<std::uint8_t>& redo = hit_scratch_;
    redo.assign(n, 0);
#if defined(RIVEN_AVX_ROWS)
    const bool avx = cpu_has_avx();
#endif
    for (const std::size_t k : changed) {
      const double was = start_links_.bound[k];
      const double* const row = dist + k * n;
      std::size_t v = 0;
#if defined(RIVEN_AVX_ROWS)
      if (avx) v = mark_row_avx(was, row, reach.data(), n, redo.data());
#endif
      for (; v < n; ++v) redo[v] |= static_cast<std::uint8_t>(was + row[v] == reach[v]);
    }
    std::vector<double>& links = links_scratch_;
    links.resize(n);
    for (std::size_t k = 0; k < n; ++k) links[k] = start_value(k);
    const double* const by_column = nav_->dist_by_column.data();
    for (std::size_t v = 0; v < n; ++v) {
      if (!redo[v]) continue;
      const double* const column = by_column + v * n;
#if defined(RIVEN_AVX_ROWS)
      if (avx) {
        reach[v] = column_min_avx(links.data(), column, n);
        continue;
      }
#endif
      double best = kInf;
      for (std::size_t k = 0; k < n; ++k) {
        const double via = links[k] + column[k];
        best = via < best ? via : best;
      }
      reach[v] = best;
    }
  }

  void settle_start(const std::vector<std::size_t>& nodes) {
    for (const std::size_t v : nodes) start_links_.links[v] = link_cost(start_, nav_->nodes[v]);
    start_links_.complete = std::none_of(start_links_.links.begin(), start_links_.links.end(),
                                         [](double x) { return std::isnan(x); });
  }

  void complete_start() {
    if (start_links_.complete) return;
    for (std::size_t v = 0; v < nav_->size(); ++v) {
      if (std::isnan(start_links_.links[v])) start_links_.links[v] = link_cost(start_, nav_->nodes[v]);
    }
    start_links_.complete = true;
  }

  // Navigator._route_static / _search_static.
  Route route_static(std::optional<Point> goal, std::optional<std::size_t> target) {
    GoalLinks links;
    std::optional<Point> direct;
    Point aim;
    goal_links(goal, target, links, direct, aim);
    const std::size_t n = nav_->size();
    double best_cost = kInf;
    std::optional<std::size_t> best_node;
    if (direct) best_cost = link_cost(start_, *direct);
    Recycled<double> reach;
    if (n > 0) {
      Recycled<double> total(n);
      // Scratch of the rounds below (allocated once per search, not once per round), filled by
      // index: the candidates of a batch, in increasing order.
      Recycled<std::size_t> open(n);
      Recycled<double> col(n);
      reach_bounds(reach);  // kept current by update_reach as start links are settled
      for (std::size_t round = 0; round < 2 * n + 2; ++round) {
        // The totals and their first minimum (np.argmin) in one pass.
        std::size_t node = 0;
        for (std::size_t v = 0; v < n; ++v) {
          const double known = links.cost[v];
          total[v] = reach[v] + (std::isnan(known) ? links.bound[v] : known);
          if (total[v] < total[node]) node = v;
        }
        if (!(total[node] < best_cost - kDuplicate)) break;
        if (!start_links_.complete) {
          // The cheapest way to ``node`` is exact once no unchecked start link could match it.
          bool pending = false;
          std::size_t count = 0;
          const double* const column = nav_->dist_by_column.data() + node * n;
          for (std::size_t k = 0; k < n; ++k) {
            if (!std::isnan(start_links_.links[k])) continue;
            open[count++] = k;
            col[k] = start_links_.bound[k] + column[k];
            pending = pending || col[k] <= reach[node];
          }
          if (pending) {
            open.resize(count);
            keep_cheapest(open, col, kBatch);
            settle_start(open);
            update_reach(reach, open);
            open.resize(n);
            continue;
          }
        }
        if (!std::isnan(links.cost[node])) {
          best_cost = total[node];
          best_node = node;
          break;
        }
        std::size_t count = 0;
        for (std::size_t v = 0; v < n; ++v) {
          if (std::isnan(links.cost[v])) open[count++] = v;
        }
        open.resize(count);
        keep_cheapest(open, total, kBatch);
        for (const std::size_t v : open) links.cost[v] = goal_link_cost(links, v);
        open.resize(n);
      }
    }
    if (best_node) return static_route(*best_node, links);
    if (direct && std::isfinite(best_cost)) return make_route({start_, *direct}, {best_cost}, true);
    return static_nearest(aim);
  }

  [[nodiscard]] std::vector<std::size_t> static_path(std::size_t i, std::size_t j) const {
    const std::size_t n = nav_->size();
    std::vector<std::size_t> path{i};
    for (std::size_t round = 0; round < n; ++round) {
      if (path.back() == j) break;
      path.push_back(static_cast<std::size_t>(nav_->next_hop[path.back() * n + j]));
    }
    return path;
  }

  Route static_route(std::size_t node, GoalLinks& links) const {
    const std::size_t n = nav_->size();
    const std::vector<std::size_t> hops = static_path(first_reach(node), node);
    std::vector<Point> xy{start_};
    std::vector<double> costs{start_links_.links[hops.front()]};
    for (std::size_t k = 0; k < hops.size(); ++k) {
      xy.push_back(nav_->nodes[hops[k]]);
      if (k > 0) costs.push_back(nav_->cost[hops[k - 1] * n + hops[k]]);
    }
    xy.push_back(goal_spot(links, node));
    costs.push_back(links.cost[node]);
    return make_route(xy, costs, true);
  }

  Route static_nearest(Point aim) {
    const std::size_t n = nav_->size();
    if (n == 0) return stay_route(start_);
    complete_start();
    std::vector<double> reach;
    reach_bounds(reach);
    std::optional<std::size_t> node;
    double best = kInf;
    for (std::size_t v = 0; v < n; ++v) {
      if (!std::isfinite(reach[v])) continue;
      const double d = std::hypot(nav_->nodes[v].x - aim.x, nav_->nodes[v].y - aim.y);
      if (!node || d < best) {
        node = v;
        best = d;
      }
    }
    if (!node) return stay_route(start_);
    const std::vector<std::size_t> hops = static_path(first_reach(*node), *node);
    std::vector<Point> xy{start_};
    std::vector<double> costs{start_links_.links[hops.front()]};
    for (std::size_t k = 0; k < hops.size(); ++k) {
      xy.push_back(nav_->nodes[hops[k]]);
      if (k > 0) costs.push_back(nav_->cost[hops[k - 1] * n + hops[k]]);
    }
    return make_route(xy, costs, false);
  }

  // -- bases as graph obstacles -----------------------------------------------------------------
  ActiveGraph& graph(const std::vector<std::size_t>& active) {
    auto found = graphs_.find(active);
    if (found != graphs_.end()) return *found->second;
    auto built = std::make_unique<ActiveGraph>(build_graph(active));
    ActiveGraph& ref = *built;
    graphs_.emplace(active, std::move(built));
    return ref;
  }

  // The graph's waypoints (routing._ActiveGraph: the static ones, the legal ring points of the
  // blocking bases, the start) with the start settled; no link is costed yet.
  ActiveGraph build_graph(const std::vector<std::size_t>& active) {
    ActiveGraph g;
    g.active = active;
    const NavGraph& nav = *nav_;
    const std::size_t n = nav.size();
    const double cos_side = std::cos(kPi / static_cast<double>(sides_));
    g.points = nav.nodes;
    for (const std::size_t k : active) {
      const double spoke = (reach_[k] + margin_) / cos_side;
      for (const Point& unit : routing_.ring) {
        const Point p{centres_[k].x + spoke * unit.x, centres_[k].y + spoke * unit.y};
        if (legal(p)) g.points.push_back(p);
      }
    }
    g.points.push_back(start_);
    const std::size_t v = g.points.size();
    if (v >= ActiveGraph::Entry::kListed) throw std::length_error("route: too many waypoints for the search's queue");
    g.statics = n;
    g.start = v - 1;
    g.usable.assign(v, 1);
    for (std::size_t i = 0; i < n; ++i) {
      for (const std::size_t k : active) {
        const double dx = nav.nodes[i].x - centres_[k].x;
        const double dy = nav.nodes[i].y - centres_[k].y;
        const int side = hypot_side(dx, dy, limit_[k]);
        if (side != 0 ? side < 0 : !(std::hypot(dx, dy) >= limit_[k])) {
          g.usable[i] = 0;
          break;
        }
      }
    }
    g.extra_cost.assign((v - n) * v, kNan);
    g.dist.assign(v, kInf);
    g.done.assign(v, 0);
    g.pred.assign(v, -2);
    g.edge_next.assign(v, 0);
    g.listed_next.assign(v, 0);
    g.listed_end.assign(v, 0);
    // Two cursors per settled waypoint and the exact costs found (growth by doubling copied the
    // queue several times a search).
    g.heap.reserve(4 * v);
    g.listed.reserve(4 * v);
    g.settled.reserve(v);  // every waypoint at most once (grown by doubling, it was copied a dozen times)
    settle(g, g.start, 0.0);
    return g;
  }

  double start_link(std::size_t j) {
    if (std::isnan(start_links_.links[j])) start_links_.links[j] = link_cost(start_, nav_->nodes[j]);
    return start_links_.links[j];
  }

  // A lower bound of a link's cost: its straight length (navigation.link_cost is the length, or
  // more in difficult ground, or inf), less a margin far above the rounding of either formula.
  static double straight_bound(Point a, Point b) {
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    return std::sqrt(dx * dx + dy * dy) * (1.0 - 1e-12);
  }

  // Whether a blocking base cuts the static edge i -> j (routing._static_cut: each listed
  // orientation of the pair, with its bounding-box test).
  [[nodiscard]] bool static_cut(const ActiveGraph& g, std::size_t i, std::size_t j) const {
    const NavGraph& nav = *nav_;
    const std::size_t n = nav.size();
    for (const auto& [x, y] : {std::pair{i, j}, std::pair{j, i}}) {
      if (!nav.listed[x * n + y]) continue;
      const Point a = nav.nodes[x];
      const Point b = nav.nodes[y];
      for (const std::size_t k : g.active) {
        const Point c = centres_[k];
        const double lim = limit_[k];
        const double slack = lim * (1.0 + 1e-9) + 1e-9;
        if (!(std::min(a.x, b.x) - slack <= c.x && std::max(a.x, b.x) + slack >= c.x &&
              std::min(a.y, b.y) - slack <= c.y && std::max(a.y, b.y) + slack >= c.y)) {
          continue;
        }
        if (segment_point_closer(a, b, c, lim)) return true;
      }
    }
    return false;
  }

  // The eager graph's cost of the link i -> j (i != j, both usable), computed once.
  double graph_cost(ActiveGraph& g, std::size_t i, std::size_t j) {
    const std::size_t n = g.statics;
    const std::size_t v = g.points.size();
    if (i < n && j < n) {
      const double cost = nav_->cost[i * n + j];
      return std::isfinite(cost) && static_cut(g, i, j) ? kInf : cost;
    }
    double& memo = g.extra_cost[(std::max(i, j) - n) * v + std::min(i, j)];
    if (!std::isnan(memo)) return memo;
    const auto cut = [&](Point a, Point b) {
      for (const std::size_t k : g.active) {
        if (segment_point_closer(a, b, centres_[k], limit_[k])) return true;
      }
      return false;
    };
    const std::size_t lo = std::min(i, j);
    const std::size_t hi = std::max(i, j);
    if (lo < n) {
      // A ring point or the start to a static waypoint (the eager order: the extra point first).
      memo = cut(g.points[hi], g.points[lo]) ? kInf
             : hi == g.start                 ? start_link(lo)
                                             : link_cost(g.points[hi], g.points[lo]);
    } else {
      memo = cut(g.points[lo], g.points[hi]) ? kInf : link_cost(g.points[lo], g.points[hi]);
    }
    return memo;
  }

  // Settles ``u`` at its cheapest cost and opens its candidates, the links from it that could
  // improve their other end: its static edges (exact costs not yet checked against the
  // blocking bases), cheapest first from the graph's sorted rows, and the straight lengths of
  // its other links, sorted here. Only each run's cheapest candidate is queued (queue_edge,
  // queue_listed); popping one queues the next.
  void settle(ActiveGraph& g, std::size_t u, double cost) {
    const std::size_t n = g.statics;
    const std::size_t v = g.points.size();
    g.done[u] = 1;
    g.dist[u] = cost;
    g.settled.push_back(u);
    if (u < n) queue_edge(g, u);
    const Point a = g.points[u];
    const std::size_t begin = g.listed.size();
    for (std::size_t j = u < n ? n : 0; j < v; ++j) {
      if (j == u || g.done[j] || !g.usable[j]) continue;
      const double key = cost + straight_bound(a, g.points[j]);
      if (!(key < g.dist[j])) continue;  // cannot improve j (the eager relaxation is strict)
      g.listed.push_back({key, static_cast<std::uint32_t>(j)});
    }
    // A min-heap on (key, to), not a sorted run: a search pops only the first few candidates of
    // most runs, and popping a heap yields them in the very order sorting would.
    std::make_heap(g.listed.begin() + static_cast<std::ptrdiff_t>(begin), g.listed.end(), ActiveGraph::ListedLater{});
    g.listed_next[u] = static_cast<std::uint32_t>(begin);
    g.listed_end[u] = static_cast<std::uint32_t>(g.listed.size());
    queue_listed(g, u);
  }

  // Queues settled static waypoint u's cheapest static edge still able to improve its end.
  // A candidate skipped here could not have improved its end when popped either (its cost is
  // at least its key, and the end's best cost only falls), so the pops are the eager ones.
  void queue_edge(ActiveGraph& g, std::size_t u) {
    const std::size_t n = g.statics;
    const NavGraph& nav = *nav_;
    const std::uint32_t* const row = nav.by_cost.data() + u * n;
    const std::uint32_t count = nav.by_cost_count[u];
    const double* const edges = nav.cost.data() + u * n;
    const double cost = g.dist[u];
    for (std::uint32_t p = g.edge_next[u]; p < count; ++p) {
      const std::uint32_t j = row[p];
      if (g.done[j] || !g.usable[j]) continue;
      const double key = cost + edges[j];
      if (!(key < g.dist[j])) continue;
      g.edge_next[u] = p + 1;
      g.heap.push_back(ActiveGraph::Entry::make(key, u, j, ActiveGraph::Entry::kStatic));
      std::push_heap(g.heap.begin(), g.heap.end(), ActiveGraph::Later{});
      return;
    }
    g.edge_next[u] = count;
  }

  // Queues settled waypoint u's cheapest listed candidate still able to improve its end (its
  // run's heap shrinks from the back as candidates are popped).
  void queue_listed(ActiveGraph& g, std::size_t u) {
    const auto first = g.listed.begin() + static_cast<std::ptrdiff_t>(g.listed_next[u]);
    while (g.listed_end[u] > g.listed_next[u]) {
      std::pop_heap(first, g.listed.begin() + static_cast<std::ptrdiff_t>(g.listed_end[u]), ActiveGraph::ListedLater{});
      const ActiveGraph::Listed candidate = g.listed[--g.listed_end[u]];
      if (g.done[candidate.to] || !(candidate.key < g.dist[candidate.to])) continue;
      g.heap.push_back(ActiveGraph::Entry::make(candidate.key, u, candidate.to, ActiveGraph::Entry::kListed));
      std::push_heap(g.heap.begin(), g.heap.end(), ActiveGraph::Later{});
      return;
    }
  }

  // One step of the search: the queue's cheapest candidate checked, or a waypoint settled.
  // Returns the waypoint settled, if any.
  std::optional<std::size_t> search_step(ActiveGraph& g) {
    std::pop_heap(g.heap.begin(), g.heap.end(), ActiveGraph::Later{});
    const ActiveGraph::Entry entry = g.heap.back();
    g.heap.pop_back();
    // The popped candidate's run queues its next one first: whatever this step settles, the
    // queue again holds every run's cheapest candidate.
    if (entry.kind() == ActiveGraph::Entry::kStatic) {
      queue_edge(g, entry.from());
    } else if (entry.kind() == ActiveGraph::Entry::kListed) {
      queue_listed(g, entry.from());
    }
    if (g.done[entry.to]) return std::nullopt;
    if (entry.kind() == ActiveGraph::Entry::kExact) {
      settle(g, entry.to, entry.key);
      return entry.to;
    }
    const double via = g.dist[entry.from()] + graph_cost(g, entry.from(), entry.to);
    if (!(via < g.dist[entry.to])) return std::nullopt;
    if (via == entry.key) {  // nothing queued is cheaper: the cheapest cost
      settle(g, entry.to, via);
      return entry.to;
    }
    g.dist[entry.to] = via;
    g.heap.push_back(ActiveGraph::Entry::make(via, entry.from(), entry.to, ActiveGraph::Entry::kExact));
    std::push_heap(g.heap.begin(), g.heap.end(), ActiveGraph::Later{});
    return std::nullopt;
  }

  // routing._relax's predecessor of a settled waypoint: the first waypoint (by index) whose
  // settled cost plus its link gives j's cost. Every waypoint that could is settled once the
  // queue holds nothing as cheap as j (the callers' stopping rule).
  std::int64_t pred_of(ActiveGraph& g, std::size_t j) {
    if (j == g.start) return -1;
    if (g.pred[j] != -2) return g.pred[j];
    const std::size_t n = g.statics;
    const double target = g.dist[j];
    for (std::size_t u = 0; u < g.points.size(); ++u) {
      if (u == j || !g.done[u]) continue;
      if (u < n && j < n) {
        if (!(g.dist[u] + nav_->cost[u * n + j] == target)) continue;
      } else if (g.dist[u] + straight_bound(g.points[u], g.points[j]) > target) {
        continue;
      }
      if (g.dist[u] + graph_cost(g, u, j) == target) {
        g.pred[j] = static_cast<std::int64_t>(u);
        return g.pred[j];
      }
    }
    throw std::logic_error("route: a settled waypoint without a predecessor");
  }

  std::vector<std::size_t> path_to(ActiveGraph& g, std::size_t node) {
    std::vector<std::size_t> path{node};
    while (path.back() != g.start && path.size() <= g.points.size()) {
      path.push_back(static_cast<std::size_t>(pred_of(g, path.back())));
    }
    std::reverse(path.begin(), path.end());
    return path;
  }

  // Navigator._goal_spec for one waypoint: its goal point, and whether it may link there.
  bool goal_point(Point origin, std::optional<Point> goal, std::optional<std::size_t> target, Point& out) const {
    if (!target) {
      out = *goal;
      return true;
    }
    const Point centre = centres_[*target];
    const double contact = contact_distance(*target);
    const std::optional<Point> found = contact_spot(centre, contact, origin);
    if (found) {
      out = *found;
      return legal(*found, *target);
    }
    out = Point{centre.x + (origin.x - centre.x) * contact, centre.y + (origin.y - centre.y) * contact};
    return false;
  }

  // Navigator._route_active: cheapest route with the ``active`` bases blocking. The eager
  // answer is the first waypoint (by index) with the least settled cost plus goal link, its
  // cost that sum; straight lengths bound the goal links from below, so a waypoint's goal link
  // is costed only once its bound is the cheapest thing left, and the search stops when neither
  // a settled waypoint's bound nor the queue can reach the best sum found (ties included).
  Route route_active(const std::vector<std::size_t>& active, std::optional<Point> goal,
                     std::optional<std::size_t> target) {
    ActiveGraph& g = graph(active);
    const std::size_t v = g.points.size();
    Recycled<Point> spot(v);
    Recycled<double> link(v, kNan);
    struct Bound {
      double total;
      std::size_t node;
    };
    const auto later = [](const Bound& a, const Bound& b) { return a.total > b.total; };
    Recycled<Bound> bounds;
    const auto consider = [&](std::size_t k) {
      if (!g.usable[k] || !goal_point(g.points[k], goal, target, spot[k])) return;
      bounds.push_back({g.dist[k] + straight_bound(g.points[k], spot[k]), k});
      std::push_heap(bounds.begin(), bounds.end(), later);
    };
    for (const std::size_t k : g.settled) consider(k);
    double best = kInf;
    std::optional<std::size_t> best_node;
    for (;;) {
      const double queued = g.next_key();
      const double bound = bounds.empty() ? kInf : bounds.front().total;
      if (queued > best && bound > best) break;
      if (!(queued < kInf) && !(bound < kInf)) break;
      if (bound <= queued) {
        std::pop_heap(bounds.begin(), bounds.end(), later);
        const std::size_t k = bounds.back().node;
        bounds.pop_back();
        const Point a = g.points[k];
        const Point b = spot[k];
        const bool seen = !blocks(a, b) && clear_of(a, b, g.active);
        link[k] = seen ? table_.segment_cost(a, b) : kInf;
        const double total = g.dist[k] + link[k];
        if (total < best || (total == best && best_node && k < *best_node)) {
          best = total;
          best_node = k;
        }
      } else if (const std::optional<std::size_t> settled = search_step(g)) {
        consider(*settled);
      }
    }
    if (best_node) {
      std::vector<Point> points;
      for (const std::size_t k : path_to(g, *best_node)) points.push_back(g.points[k]);
      points.push_back(spot[*best_node]);
      Route found;
      found.points = dedupe_points(points);
      found.cost = best;
      found.goal_reached = true;
      return found;
    }
    const Point aim = target ? centres_[*target] : *goal;
    return nearest_reachable(g, aim);
  }

  // The settled waypoint nearest the aim (the first of equals), when no goal link is open:
  // the search has then settled every waypoint the start reaches.
  Route nearest_reachable(ActiveGraph& g, Point aim) {
    std::optional<std::size_t> node;
    double best = kInf;
    for (std::size_t k = 0; k < g.points.size(); ++k) {
      if (!g.done[k]) continue;
      const double d = std::hypot(g.points[k].x - aim.x, g.points[k].y - aim.y);
      if (!node || d < best) {
        node = k;
        best = d;
      }
    }
    if (!node) return stay_route(start_);
    std::vector<Point> points;
    for (const std::size_t k : path_to(g, *node)) points.push_back(g.points[k]);
    Route found;
    found.points = dedupe_points(points);
    found.cost = g.dist[*node];
    return found;
  }

  // -- detours around clusters of bases -------------------------------------------------------
  const std::vector<std::size_t>& cluster(std::size_t k) {
    auto found = clusters_.find(k);
    if (found != clusters_.end()) return found->second;
    const std::vector<std::vector<std::size_t>>& links_of = chained();
    std::vector<std::uint8_t> member(centres_.size(), 0);
    member[k] = 1;
    std::vector<std::size_t> frontier{k};
    while (!frontier.empty()) {
      const std::size_t j = frontier.back();
      frontier.pop_back();
      for (const std::size_t m : links_of[j]) {
        if (!member[m]) {
          member[m] = 1;
          frontier.push_back(m);
        }
      }
    }
    std::vector<std::size_t> members;
    for (std::size_t j = 0; j < member.size(); ++j) {
      if (member[j]) members.push_back(j);
    }
    return clusters_.emplace(k, std::move(members)).first->second;
  }

  const std::vector<std::vector<std::size_t>>& chained() {
    if (!chains_) {
      const std::size_t count = centres_.size();
      std::vector<std::vector<std::size_t>> rows(count);
      for (std::size_t j = 0; j < count; ++j) {
        for (std::size_t m = 0; m < count; ++m) {
          // hypot_side against the sum: its margin is far above the two subtractions' rounding.
          const double dx = centres_[m].x - centres_[j].x;
          const double dy = centres_[m].y - centres_[j].y;
          const int side = hypot_side(dx, dy, 2.0 * margin_ + reach_[m] + reach_[j]);
          if (side != 0 ? side < 0 : std::hypot(dx, dy) - reach_[m] - reach_[j] < 2.0 * margin_) rows[j].push_back(m);
        }
      }
      chains_ = std::move(rows);
    }
    return *chains_;
  }

  // Navigator._wrap: the convex polygon around a cluster of bases (counter-clockwise).
  [[nodiscard]] std::vector<Point> wrap(const std::vector<std::size_t>& members) const {
    const double cos_side = std::cos(kPi / static_cast<double>(2 * sides_));
    std::vector<Point> points;
    for (const std::size_t k : members) {
      const double spoke = (reach_[k] + margin_) / cos_side;
      for (const Point& unit : routing_.wrap_ring) {
        points.push_back(Point{centres_[k].x + spoke * unit.x, centres_[k].y + spoke * unit.y});
      }
    }
    return convex_hull(std::move(points));
  }

  // Navigator._first_crossing.
  [[nodiscard]] std::optional<std::size_t> first_crossing(const std::vector<Point>& points) const {
    if (centres_.empty()) return std::nullopt;
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      if (segment_meets_bases(points[k], points[k + 1])) return k;
    }
    return std::nullopt;
  }

  // Navigator._first_crossed: the base the leg overlaps first along p -> q.
  [[nodiscard]] std::optional<std::size_t> first_crossed(Point a, Point b, Point p, Point q) const {
    std::vector<std::size_t> crossing;
    for (std::size_t k = 0; k < centres_.size(); ++k) {
      if (segment_point_closer(a, b, centres_[k], limit_[k])) crossing.push_back(k);
    }
    if (crossing.empty()) return std::nullopt;  // Python would raise here (docs: near-ties)
    if (crossing.size() == 1) return crossing.front();
    std::size_t best = crossing.front();
    double best_along = kInf;
    for (const std::size_t k : crossing) {
      const double along = (centres_[k].x - p.x) * (q.x - p.x) + (centres_[k].y - p.y) * (q.y - p.y);
      if (along < best_along) {
        best_along = along;
        best = k;
      }
    }
    return best;
  }

  // Navigator._detour: repair a terrain-only route around the bases its paid-for part crosses.
  std::optional<Route> detour(Route& found, double allowance, std::optional<std::size_t> /*target*/) {
    ensure_costs(found);
    std::vector<Point> points = found.points;
    std::vector<double> costs = found.costs;
    for (std::size_t round = 0; round < kMaxLazyRounds; ++round) {
      const double total = numpy_sum(costs);
      StraightPlan cut;
      if (total > allowance) cut = truncate(points, costs, allowance);
      const std::vector<Point>& paid = total <= allowance ? points : cut.path;
      const std::optional<std::size_t> seg = first_crossing(paid);
      if (!seg) {
        Route repaired;
        repaired.points = std::move(points);
        repaired.cost = total;
        repaired.goal_reached = found.goal_reached;
        repaired.costs = std::move(costs);
        repaired.has_costs = true;
        return repaired;
      }
      const Point p = points[*seg];
      const Point q = points[*seg + 1];
      const std::optional<std::size_t> k = first_crossed(paid[*seg], paid[*seg + 1], p, q);
      if (!k) return std::nullopt;
      const std::vector<std::size_t>& members = cluster(*k);
      const std::vector<Point> corners = wrap(members);
      const bool p_inside = in_convex(corners, p);
      const bool q_inside = in_convex(corners, q);
      const std::vector<std::vector<Point>> ways = around(corners, p, q, p_inside, q_inside);
      std::optional<std::size_t> best;  // the way kept, its legs' costs in best_costs
      Recycled<double> best_costs;
      double best_sum = kInf;
      Recycled<Point> legs;
      Recycled<double> leg_costs;
      for (std::size_t w = 0; w < ways.size(); ++w) {
        const std::vector<Point>& way = ways[w];
        legs.clear();
        legs.push_back(p);
        legs.insert(legs.end(), way.begin(), way.end());
        legs.push_back(q);
        const bool legal_way = std::all_of(way.begin(), way.end(), [&](Point c) { return nav_legal(c); });
        if (!legal_way) continue;
        bool visible = true;
        for (std::size_t s = 0; s + 1 < legs.size() && visible; ++s) visible = !blocks(legs[s], legs[s + 1]);
        if (!visible) continue;
        if (p_inside || q_inside) {
          bool clear = true;
          for (std::size_t s = 0; s + 1 < legs.size() && clear; ++s) clear = clear_of(legs[s], legs[s + 1], members);
          if (!clear) continue;
        }
        leg_costs.clear();
        for (std::size_t s = 0; s + 1 < legs.size(); ++s) leg_costs.push_back(table_.segment_cost(legs[s], legs[s + 1]));
        const double sum = numpy_sum(leg_costs);
        if (!best || sum < best_sum) {
          best = w;
          best_costs.swap(leg_costs);
          best_sum = sum;
        }
      }
      if (!best) return std::nullopt;
      const std::vector<Point>& way = ways[*best];
      const auto at = static_cast<std::ptrdiff_t>(*seg);
      points.insert(points.begin() + at + 1, way.begin(), way.end());
      costs.erase(costs.begin() + at);
      costs.insert(costs.begin() + at, best_costs.begin(), best_costs.end());
    }
    return std::nullopt;
  }

  // Whether p lies in the closed convex polygon (counter-clockwise corners): shapely's
  // intersects_xy.
  static bool in_convex(const std::vector<Point>& corners, Point p) {
    const std::size_t n = corners.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (orientation(corners[k], corners[(k + 1) % n], p) < 0) return false;
    }
    return true;
  }

  // routing._around: the two ways from p to q around a convex polygon.
  static std::vector<std::vector<Point>> around(const std::vector<Point>& polygon, Point p, Point q, bool p_inside,
                                                bool q_inside) {
    std::vector<Point> all = polygon;
    all.push_back(p);
    all.push_back(q);
    const std::vector<Point> ring = convex_hull(std::move(all));
    const std::size_t n = ring.size();
    const auto nearest = [&](Point x) {
      std::size_t best = 0;
      double best_d = kInf;
      for (std::size_t k = 0; k < n; ++k) {
        const double d = std::hypot(ring[k].x - x.x, ring[k].y - x.y);
        if (d < best_d) {
          best_d = d;
          best = k;
        }
      }
      return best;
    };
    const std::size_t ip = nearest(p);
    const std::size_t iq = nearest(q);
    const std::size_t lead = p_inside ? 0 : 1;
    const std::size_t tail = q_inside ? 1 : 0;
    std::vector<std::vector<Point>> ways;
    std::vector<Point> forward;
    for (std::size_t k = lead; k < (iq + n - ip) % n + tail; ++k) forward.push_back(ring[(ip + k) % n]);
    std::vector<Point> backward;
    for (std::size_t k = lead; k < (ip + n - iq) % n + tail; ++k) backward.push_back(ring[(ip + n - k) % n]);
    if (!forward.empty()) ways.push_back(std::move(forward));
    if (!backward.empty()) ways.push_back(std::move(backward));
    return ways;
  }

  const TableGeometry& table_;
  const RoutingSettings& routing_;
  const NavGraph* nav_ = nullptr;
  const Shape* clearance_ = nullptr;
  std::size_t mover_;
  double radius_;
  Point start_;
  double tol_;
  double margin_;
  std::size_t sides_;
  // (Recycled: a route plan builds a Navigator, and these were a dozen allocations each time.)
  Recycled<std::size_t> ids_;
  Recycled<Point> centres_;
  Recycled<double> reach_;
  Recycled<double> limit_;
  Recycled<double> limit2_;
  Recycled<double> far2_;  // clear_of_base's squared distance beyond which a point is clear
  StartLinks start_links_;
  mutable Recycled<std::uint8_t> hit_scratch_;  // update_reach's scratch
  mutable Recycled<double> links_scratch_;
  std::map<std::vector<std::size_t>, std::unique_ptr<ActiveGraph>> graphs_;
  std::map<std::size_t, std::vector<std::size_t>> clusters_;
  std::optional<std::vector<std::vector<std::size_t>>> chains_;
};

// The nearest point of a polygon's rings to p (GEOS's DistanceOp, as shapely.shortest_line
// finds it: the first segment at the least distance, its closest point).
Point nearest_on_boundary(const Shape& shape, Point p) {
  double best = kInf;
  Point found = p;
  const auto distance = [](Point a, Point b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); };
  for (const Ring& ring : shape.rings()) {
    for (std::size_t k = 0; k + 1 < ring.points.size(); ++k) {
      const Point a = ring.points[k];
      const Point b = ring.points[k + 1];
      double d = 0.0;
      if (a.x == b.x && a.y == b.y) {
        d = distance(p, a);
      } else {
        const double len2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
        const double r = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / len2;
        if (r <= 0.0) {
          d = distance(p, a);
        } else if (r >= 1.0) {
          d = distance(p, b);
        } else {
          const double s = ((a.y - p.y) * (b.x - a.x) - (a.x - p.x) * (b.y - a.y)) / len2;
          d = std::fabs(s) * std::sqrt(len2);
        }
      }
      if (!(d < best)) continue;
      best = d;
      // LineSegment::closestPoint.
      double factor = 0.0;
      if (p.x == a.x && p.y == a.y) {
        factor = 0.0;
      } else if (p.x == b.x && p.y == b.y) {
        factor = 1.0;
      } else {
        const double dx = b.x - a.x;
        const double dy = b.y - a.y;
        factor = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy);
      }
      if (factor > 0.0 && factor < 1.0) {
        found = Point{a.x + factor * (b.x - a.x), a.y + factor * (b.y - a.y)};
      } else {
        found = distance(a, p) < distance(b, p) ? a : b;
      }
    }
  }
  return found;
}

// movement._legal_goal: the goal moved to the nearest legal base position nearby.
std::optional<Point> legal_goal(const Navigator& nav, Point goal) {
  const Box& b = nav.nav().bounds;
  if (b.xmin > b.xmax || b.ymin > b.ymax) return std::nullopt;
  const auto clamp = [&](Point p) { return Point{std::min(std::max(p.x, b.xmin), b.xmax), std::min(std::max(p.y, b.ymin), b.ymax)}; };
  Point point = clamp(goal);
  const double margin = nav.margin();
  const Shape* clearance = nav.clearance();
  for (std::size_t round = 0; round < kGoalFixRounds; ++round) {
    if (nav.legal(point)) return point;
    if (clearance != nullptr && clearance->contains(point)) {
      const Point edge = nearest_on_boundary(*clearance, point);
      const double ax = edge.x - point.x;
      const double ay = edge.y - point.y;
      const double norm = python_hypot(ax, ay);
      if (norm > 0.0) point = Point{edge.x + ax / norm * margin, edge.y + ay / norm * margin};
    }
    const std::vector<Point>& centres = nav.centres();
    std::vector<std::size_t> inside;
    for (std::size_t k = 0; k < centres.size(); ++k) {
      const double dx = centres[k].x - point.x;
      const double dy = centres[k].y - point.y;
      const int side = hypot_side(dx, dy, nav.limits()[k]);
      if (side != 0 ? side < 0 : std::hypot(dx, dy) < nav.limits()[k]) inside.push_back(k);
    }
    for (const std::size_t k : inside) {
      double ax = point.x - centres[k].x;
      double ay = point.y - centres[k].y;
      double norm = python_hypot(ax, ay);
      if (norm == 0.0) norm = 1.0;
      if (norm == 1.0 && ax == 0.0 && ay == 0.0) ax = 1.0;
      const double out = nav.reach()[k] + margin;
      point = Point{centres[k].x + ax / norm * out, centres[k].y + ay / norm * out};
    }
    point = clamp(point);
  }
  if (nav.legal(point)) return point;
  return std::nullopt;
}

StraightPlan stay_plan(const BasesView& bases, std::size_t i, bool reached) {
  return StraightPlan{{bases.center(i)}, 0.0, reached};
}

void check_model(const BasesView& bases, std::size_t i, const char* what) {
  if (i >= bases.size()) throw std::out_of_range(std::string(what) + ": model index out of range");
}

// movement.plan_with.
StraightPlan plan_with(Navigator& nav, const BasesView& bases, std::optional<Point> goal, double allowance,
                       std::optional<std::size_t> target) {
  const std::size_t i = nav.mover();
  allowance = std::max(0.0, allowance);
  if (target) {
    check_model(bases, *target, "stop_in_contact_with");
    if (*target == i || !bases.on(*target)) return stay_plan(bases, i, false);
    if (edge_distance(bases, i, *target) <= nav.tol()) return stay_plan(bases, i, true);
    const std::optional<std::size_t> position = nav.position(*target);
    Route found = nav.route(allowance, std::nullopt, position);
    StraightPlan plan = nav.head(found, allowance);
    plan.reached = found.goal_reached && found.cost <= allowance + kSlack;
    return plan;
  }
  if (!goal) throw std::invalid_argument("plan_move: give a goal point or stop_in_contact_with");
  const std::optional<Point> legal = legal_goal(nav, *goal);
  const Point aim = legal ? *legal : *goal;
  Route found = nav.route(allowance, aim, std::nullopt);
  StraightPlan plan = nav.head(found, allowance);
  const bool at_goal = legal && std::fabs(legal->x - goal->x) <= kSlack && std::fabs(legal->y - goal->y) <= kSlack;
  plan.reached = at_goal && found.goal_reached && found.cost <= allowance + kSlack;
  return plan;
}

// destinations._short_of_contact.
StraightPlan short_of_contact(Navigator& nav, std::size_t target, double allowance, double gap) {
  const std::optional<std::size_t> position = nav.position(target);
  if (!position) throw std::invalid_argument("plan_destination: the enemy is the mover or off the table");
  Route found = nav.route(allowance, std::nullopt, position);
  const double budget = found.goal_reached ? std::min(allowance, std::max(0.0, found.cost - gap)) : allowance;
  StraightPlan plan = nav.head(found, budget);
  plan.reached = found.goal_reached && found.cost - gap <= allowance + kSlack;
  return plan;
}

// destinations._cover_move: (plan, protection level) or none.
std::optional<std::pair<StraightPlan, int>> cover_move(const TableGeometry& table, const BasesView& bases,
                                                       Navigator& nav, std::size_t enemy, double allowance) {
  const std::vector<Point>& spots = nav.nav().cover_spots;
  if (spots.empty()) return std::nullopt;
  const Point s = nav.start();
  const double min_move = table.settings().min_move;
  std::vector<double> straight(spots.size());
  std::vector<std::size_t> near;
  for (std::size_t k = 0; k < spots.size(); ++k) {
    // A spot surely beyond the allowance needs no hypot (only the near ones' lengths are read).
    if (hypot_side(spots[k].x - s.x, spots[k].y - s.y, allowance) > 0) continue;
    straight[k] = std::hypot(spots[k].x - s.x, spots[k].y - s.y);
    if (straight[k] <= allowance && straight[k] >= min_move) near.push_back(k);
  }
  std::vector<std::size_t> order;
  for (const std::size_t k : near) {
    if (nav.legal(spots[k])) order.push_back(k);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return straight[a] < straight[b]; });
  const Point enemy_xy = bases.center(enemy);
  const double enemy_r = bases.radii[enemy];
  std::size_t tried = 0;
  for (const std::size_t k : order) {
    const auto [visible, cover] = table.sight_between(enemy_xy, enemy_r, spots[k], nav.radius());
    const int level = visible ? cover : 3;
    if (level == 0) continue;
    StraightPlan plan = plan_with(nav, bases, spots[k], allowance, std::nullopt);
    ++tried;
    if (plan.reached) return std::make_pair(std::move(plan), level);
    if (tried >= table.routing().cover_max_candidates) break;
  }
  return std::nullopt;
}

}  // namespace

double numpy_sum(std::span<const double> values) {
  const std::size_t n = values.size();
  if (n < 8) {
    double res = 0.0;
    for (const double value : values) res += value;
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (std::size_t j = 0; j < 8; ++j) r[j] = values[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (std::size_t j = 0; j < 8; ++j) r[j] += values[i + j];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += values[i];
    return res;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return numpy_sum(values.subspan(0, half)) + numpy_sum(values.subspan(half));
}

std::vector<Point> convex_hull(std::vector<Point> points) {
  std::sort(points.begin(), points.end(), [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  points.erase(std::unique(points.begin(), points.end(), [](Point a, Point b) { return a.x == b.x && a.y == b.y; }),
               points.end());
  if (points.size() < 3) return points;
  // Andrew's monotone chain with exact orientations; collinear points dropped (as GEOS does).
  std::vector<Point> hull(2 * points.size());
  std::size_t k = 0;
  for (const Point& p : points) {
    while (k >= 2 && orientation(hull[k - 2], hull[k - 1], p) <= 0) --k;
    hull[k++] = p;
  }
  const std::size_t lower = k + 1;
  for (std::size_t m = points.size() - 1; m-- > 0;) {
    const Point& p = points[m];
    while (k >= lower && orientation(hull[k - 2], hull[k - 1], p) <= 0) --k;
    hull[k++] = p;
  }
  hull.resize(k - 1);
  // Start at the lowest point (the leftmost of those), as GEOS's hull begins.
  const auto first = std::min_element(hull.begin(), hull.end(), [](Point a, Point b) { return a.y < b.y || (a.y == b.y && a.x < b.x); });
  std::rotate(hull.begin(), first, hull.end());
  return hull;
}

Route route(const TableGeometry& table, const BasesView& bases, std::size_t mover, double allowance,
            std::optional<Point> goal, std::optional<std::size_t> target) {
  check_model(bases, mover, "route");
  if (goal.has_value() == target.has_value()) throw std::invalid_argument("route: give exactly one of goal and target");
  Navigator nav(table, bases, mover);
  std::optional<std::size_t> position;
  if (target) {
    check_model(bases, *target, "route");
    position = nav.position(*target);
    if (!position) throw std::invalid_argument("route: the target is the mover or off the table");
  }
  return nav.route(allowance, goal, position);
}

StraightPlan plan_move(const TableGeometry& table, const BasesView& bases, std::size_t i, std::optional<Point> goal,
                       double allowance, std::optional<std::size_t> stop_in_contact_with) {
  check_model(bases, i, "plan_move");
  if (!bases.on(i)) return stay_plan(bases, i, false);
  if (!stop_in_contact_with && !goal) throw std::invalid_argument("plan_move: give a goal point or stop_in_contact_with");
  Navigator nav(table, bases, i);
  return plan_with(nav, bases, stop_in_contact_with ? std::nullopt : goal, allowance, stop_in_contact_with);
}

namespace {
// A charge's plan (plan_with toward contact with ``target`` for ``reach``) is a pure function of
// the table and the whole layout of bases, and a decision asks it up to three times: the legal
// menu's charge targets, the Oracle's own check, the charge applied. Each thread remembers the
// last plans (memo.hpp: an answer is the computation's, whichever call made it first; a
// Navigator's answers do not depend on what it was asked before).
struct ChargeKey {
  std::vector<std::uint64_t> words;  // table version, mover, target, reach, then each base's bits
  friend bool operator==(const ChargeKey&, const ChargeKey&) = default;
  [[nodiscard]] std::uint64_t hash() const {
    std::uint64_t h = 0;
    for (const std::uint64_t word : words) h = mix_words(h, word);
    return h;
  }
};
using ChargeMemo = DirectMemo<ChargeKey, StraightPlan, 256>;

const ChargeKey& charge_key(const TableGeometry& table, const BasesView& bases, std::size_t i, std::size_t target,
                            double reach) {
  thread_local ChargeKey key;  // built in place (its storage is reused)
  std::vector<std::uint64_t>& words = key.words;
  words.clear();
  words.push_back(table.version());
  words.push_back(i);
  words.push_back(target);
  words.push_back(std::bit_cast<std::uint64_t>(reach));
  for (std::size_t j = 0; j < bases.size(); ++j) {
    words.push_back(std::bit_cast<std::uint64_t>(bases.centers[2 * j]));
    words.push_back(std::bit_cast<std::uint64_t>(bases.centers[2 * j + 1]));
    words.push_back(std::bit_cast<std::uint64_t>(bases.radii[j]));
    words.push_back(bases.on_table[j]);
  }
  return key;
}

template <class Plan>
StraightPlan charge_plan(const TableGeometry& table, const BasesView& bases, std::size_t i, std::size_t target,
                         double reach, Plan&& plan) {
  thread_local ChargeMemo memo;
  return memo.answer(charge_key(table, bases, i, target, reach), plan);
}
}  // namespace

std::optional<StraightPlan> plan_charge(const TableGeometry& table, const BasesView& bases, std::size_t i,
                                        std::size_t target, double reach) {
  check_model(bases, i, "plan_move");
  if (!bases.on(i)) return std::nullopt;  // plan_move stays put, short of the target
  StraightPlan plan = charge_plan(table, bases, i, target, reach,
                                  [&] { return plan_move(table, bases, i, std::nullopt, reach, target); });
  if (!plan.reached) return std::nullopt;
  return plan;
}

std::vector<std::int64_t> charge_targets(const TableGeometry& table, const BasesView& bases, std::size_t i,
                                         double reach, std::span<const std::int64_t> enemies) {
  check_model(bases, i, "charge_targets");
  std::vector<std::int64_t> found;
  if (!bases.on(i)) return found;
  std::optional<Navigator> nav;
  for (const std::int64_t j : enemies) {
    if (j < 0 || static_cast<std::size_t>(j) >= bases.size()) throw std::out_of_range("charge_targets: enemy index out of range");
    const auto target = static_cast<std::size_t>(j);
    if (target == i || !bases.on(target) || edge_distance(bases, i, target) > reach + kSlack) continue;
    const StraightPlan plan = charge_plan(table, bases, i, target, reach, [&] {
      if (!nav) nav.emplace(table, bases, i);
      return plan_with(*nav, bases, std::nullopt, reach, target);
    });
    if (plan.reached) found.push_back(j);
  }
  return found;
}

std::pair<StraightPlan, bool> plan_flight_around(const TableGeometry& table, const BasesView& bases, std::size_t i,
                                                 double distance) {
  check_model(bases, i, "plan_flight");
  if (!bases.on(i)) return {stay_plan(bases, i, false), false};
  const double tol = table.settings().contact_tolerance;
  const Point c = bases.center(i);
  const double r = bases.radii[i];
  const double w = table.width();
  const double h = table.height();
  const double before = std::max(0.0, std::min({c.x, c.y, w - c.x, h - c.y}) - r);
  if (before <= tol) return {stay_plan(bases, i, true), true};
  // movement._edge_goal: the nearest edge, ties left, bottom, right, top.
  const double gaps[4] = {c.x, c.y, w - c.x, h - c.y};
  const Point goals[4] = {{r, c.y}, {c.x, r}, {w - r, c.y}, {c.x, h - r}};
  const Point directions[4] = {{-1.0, 0.0}, {0.0, -1.0}, {1.0, 0.0}, {0.0, 1.0}};
  std::size_t edge = 0;
  for (std::size_t k = 1; k < 4; ++k) {
    if (gaps[k] < gaps[edge]) edge = k;
  }
  const StraightPlan plan = plan_move(table, bases, i, goals[edge], distance, std::nullopt);
  const Point end = plan.path.back();
  const double gap = (goals[edge].x - end.x) * directions[edge].x + (goals[edge].y - end.y) * directions[edge].y;
  if (gap <= before + kSlack) return table.left_at_edge(plan, r);
  return table.plan_flight(bases, i, distance);
}

std::optional<Destination> plan_destination(const TableGeometry& table, const BasesView& bases, std::size_t i,
                                            double allowance, DestinationKind kind, std::int64_t ref,
                                            std::span<const Point> objectives, double enemy_gap) {
  check_model(bases, i, "plan_destination");
  if (!bases.on(i) || allowance <= 0.0) return std::nullopt;
  const auto model = [&](const char* what) {
    if (ref < 0 || static_cast<std::size_t>(ref) >= bases.size()) {
      throw std::out_of_range(std::string("plan_destination: ") + what + " index out of range");
    }
    return static_cast<std::size_t>(ref);
  };
  Navigator nav(table, bases, i);
  StraightPlan plan;
  std::string label;
  const std::string number = std::to_string(ref);
  switch (kind) {
    case DestinationKind::kTowardEnemy: {
      const std::size_t j = model("enemy");
      plan = enemy_gap > 0.0 ? short_of_contact(nav, j, allowance, enemy_gap)
                             : plan_with(nav, bases, std::nullopt, allowance, j);
      label = "toward enemy " + number;
      break;
    }
    case DestinationKind::kTowardObjective: {
      if (ref < 0 || static_cast<std::size_t>(ref) >= objectives.size()) {
        throw std::out_of_range("plan_destination: objective index out of range");
      }
      plan = plan_with(nav, bases, objectives[static_cast<std::size_t>(ref)], allowance, std::nullopt);
      label = "toward objective " + number;
      break;
    }
    case DestinationKind::kCoverFromEnemy: {
      auto found = cover_move(table, bases, nav, model("enemy"), allowance);
      if (!found) return std::nullopt;
      static constexpr const char* kWhat[4] = {"", "into soft cover from", "into hard cover from", "out of sight of"};
      plan = std::move(found->first);
      label = std::string(kWhat[found->second]) + " enemy " + number;
      break;
    }
    case DestinationKind::kAway: {
      const Point foe = bases.center(model("enemy"));
      const Point s = nav.start();
      const double ax = s.x - foe.x;
      const double ay = s.y - foe.y;
      const double norm = python_hypot(ax, ay);
      if (norm <= kDuplicate) return std::nullopt;
      const Point goal{s.x + ax / norm * allowance, s.y + ay / norm * allowance};
      plan = plan_with(nav, bases, goal, allowance, std::nullopt);
      label = "away from enemy " + number;
      break;
    }
    case DestinationKind::kTowardFriend: {
      plan = plan_with(nav, bases, std::nullopt, allowance, model("friend"));
      label = "toward friend " + number;
      break;
    }
  }
  Destination destination;
  destination.kind = kind;
  destination.ref = ref;
  destination.point = plan.path.back();
  destination.cost = plan.cost;
  destination.label = std::move(label);
  destination.path = std::move(plan.path);
  destination.reached = plan.reached;
  return destination;
}

std::vector<Destination> candidate_destinations(const TableGeometry& table, const BasesView& bases, std::size_t i,
                                                double allowance, std::span<const std::int64_t> enemies,
                                                std::span<const std::int64_t> friends,
                                                std::span<const Point> objectives, double enemy_gap) {
  check_model(bases, i, "candidate_destinations");
  std::vector<Destination> found;
  if (!bases.on(i) || allowance <= 0.0) return found;
  const double min_move = table.settings().min_move;
  const double distinct = table.routing().distinct_distance;
  const auto valid = [&](std::int64_t j) {
    if (j < 0 || static_cast<std::size_t>(j) >= bases.size()) {
      throw std::out_of_range("candidate_destinations: model index out of range");
    }
    return static_cast<std::size_t>(j);
  };
  Navigator nav(table, bases, i);
  const auto add = [&](DestinationKind kind, std::int64_t ref, StraightPlan plan, std::string label) {
    const Point start = plan.path.front();
    const Point end = plan.path.back();
    if (python_hypot(end.x - start.x, end.y - start.y) < min_move) return;  // MovePlan.moved
    for (const Destination& earlier : found) {
      if (python_hypot(earlier.point.x - end.x, earlier.point.y - end.y) < distinct) return;  // math.dist
    }
    Destination destination;
    destination.kind = kind;
    destination.ref = ref;
    destination.point = end;
    destination.cost = plan.cost;
    destination.label = std::move(label);
    destination.path = std::move(plan.path);
    destination.reached = plan.reached;
    found.push_back(std::move(destination));
  };
  std::vector<std::int64_t> live;
  for (const std::int64_t j : enemies) {
    const std::size_t k = valid(j);
    if (k != i && bases.on(k)) live.push_back(j);
  }
  for (const std::int64_t j : live) {
    const auto k = static_cast<std::size_t>(j);
    StraightPlan plan = enemy_gap > 0.0 ? short_of_contact(nav, k, allowance, enemy_gap)
                                        : plan_with(nav, bases, std::nullopt, allowance, k);
    add(DestinationKind::kTowardEnemy, j, std::move(plan), "toward enemy " + std::to_string(j));
  }
  for (std::size_t k = 0; k < objectives.size(); ++k) {
    add(DestinationKind::kTowardObjective, static_cast<std::int64_t>(k),
        plan_with(nav, bases, objectives[k], allowance, std::nullopt), "toward objective " + std::to_string(k));
  }
  const std::optional<std::size_t> foe = nearest(bases, i, live);
  if (foe) {
    const std::string number = std::to_string(*foe);
    const auto ref = static_cast<std::int64_t>(*foe);
    if (auto cover = cover_move(table, bases, nav, *foe, allowance)) {
      static constexpr const char* kWhat[4] = {"", "into soft cover from", "into hard cover from", "out of sight of"};
      add(DestinationKind::kCoverFromEnemy, ref, std::move(cover->first),
          std::string(kWhat[cover->second]) + " enemy " + number);
    }
    const Point s = nav.start();
    const Point c = bases.center(*foe);
    const double ax = s.x - c.x;
    const double ay = s.y - c.y;
    const double norm = python_hypot(ax, ay);
    if (norm > kDuplicate) {
      const Point goal{s.x + ax / norm * allowance, s.y + ay / norm * allowance};
      add(DestinationKind::kAway, ref, plan_with(nav, bases, goal, allowance, std::nullopt), "away from enemy " + number);
    }
  }
  for (const std::int64_t f : friends) {
    const std::size_t k = valid(f);
    if (k == i || !bases.on(k)) continue;
    add(DestinationKind::kTowardFriend, f, plan_with(nav, bases, std::nullopt, allowance, k),
        "toward friend " + std::to_string(f));
  }
  return found;
}

}  // namespace riven::table
