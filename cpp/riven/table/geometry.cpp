#include "riven/table/geometry.hpp"

#include <atomic>
#include <bit>
#include <cstdint>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RIVEN_AVX_EDGES 1
#endif

namespace riven::table {

void Box::add(const Point& p) {
  if (xmin > xmax) {
    xmin = xmax = p.x;
    ymin = ymax = p.y;
    return;
  }
  xmin = std::min(xmin, p.x);
  ymin = std::min(ymin, p.y);
  xmax = std::max(xmax, p.x);
  ymax = std::max(ymax, p.y);
}

void Box::add(const Box& other) {
  if (other.xmin > other.xmax) return;
  add(Point{other.xmin, other.ymin});
  add(Point{other.xmax, other.ymax});
}

bool Box::misses_segment(const Point& a, const Point& b) const {
  if (xmin > xmax) return true;
  return (a.x < xmin && b.x < xmin) || (a.x > xmax && b.x > xmax) || (a.y < ymin && b.y < ymin) ||
         (a.y > ymax && b.y > ymax);
}

bool Box::excludes(const Point& p) const {
  return xmin > xmax || p.x < xmin || p.x > xmax || p.y < ymin || p.y > ymax;
}

namespace {

// Shewchuk's error-free transformations (the product through fma).
inline void two_sum(double a, double b, double& sum, double& err) {
  sum = a + b;
  const double bv = sum - a;
  const double av = sum - bv;
  err = (a - av) + (b - bv);
}

inline void two_diff(double a, double b, double& diff, double& err) {
  diff = a - b;
  const double bv = a - diff;
  const double av = diff + bv;
  err = (a - av) + (bv - b);
}

inline void two_product(double a, double b, double& product, double& err) {
  product = a * b;
  err = std::fma(a, b, -product);
}

// An expansion: nonoverlapping components in increasing magnitude; its sign is its largest
// nonzero component's.
class Expansion {
 public:
  void add(double value) {
    // Shewchuk's GROW-EXPANSION with zero elimination.
    double q = value;
    std::size_t kept = 0;
    for (std::size_t k = 0; k < size_; ++k) {
      double sum = 0.0;
      double err = 0.0;
      two_sum(q, parts_[k], sum, err);
      q = sum;
      if (err != 0.0) parts_[kept++] = err;
    }
    if (q != 0.0) parts_[kept++] = q;
    size_ = kept;
  }
  [[nodiscard]] int sign() const {
    if (size_ == 0) return 0;
    return parts_[size_ - 1] > 0.0 ? 1 : -1;
  }

 private:
  // 16 products of two doubles never need more than 32 nonoverlapping components.
  std::array<double, 40> parts_{};
  std::size_t size_ = 0;
};

int exact_orientation(const Point& a, const Point& b, const Point& c) {
  // det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax), each difference as two doubles.
  std::array<double, 2> u{};
  std::array<double, 2> v{};
  std::array<double, 2> w{};
  std::array<double, 2> z{};
  two_diff(b.x, a.x, u[0], u[1]);
  two_diff(c.y, a.y, v[0], v[1]);
  two_diff(b.y, a.y, w[0], w[1]);
  two_diff(c.x, a.x, z[0], z[1]);
  Expansion det;
  for (const double p : u) {
    for (const double q : v) {
      double product = 0.0;
      double err = 0.0;
      two_product(p, q, product, err);
      det.add(product);
      det.add(err);
    }
  }
  for (const double p : w) {
    for (const double q : z) {
      double product = 0.0;
      double err = 0.0;
      two_product(-p, q, product, err);
      det.add(product);
      det.add(err);
    }
  }
  return det.sign();
}

// A double-length value (hi + lo exactly).
struct DoubleLength {
  double hi;
  double lo;
};

DoubleLength product(double x, double y) {
  const double z = x * y;
  return {z, std::fma(x, y, -z)};
}

DoubleLength fast_sum(double a, double b) {  // |a| >= |b|
  const double x = a + b;
  const double z = x - a;
  return {x, b - z};
}

// CPython's vector_norm of two values (math.hypot), largest > 0 finite. Inlined into the two
// builds below: std::fma is exact either way (a library call on the baseline x86-64, one
// instruction where the CPU has FMA), so both give the very same doubles.
inline double vector_norm2_body(double x0, double x1, double largest) {
  // frexp's exponent and ldexp(1, -exponent), from the bits of a normal double (the library's
  // calls, with the same values, for the subnormal ones).
  const auto bits = std::bit_cast<std::uint64_t>(largest);
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  int exponent = 0;
  double scale = 0.0;
  if (biased != 0) {
    exponent = biased - 1022;
    const int scaled = 1023 - exponent;  // the biased exponent of 2**-exponent
    scale = scaled >= 1 ? std::bit_cast<double>(static_cast<std::uint64_t>(scaled) << 52) : std::ldexp(1.0, -exponent);
  } else {
    std::frexp(largest, &exponent);
    constexpr double kMinNormal = std::numeric_limits<double>::min();
    if (exponent < -1023) {  // ldexp(1, -exponent) would overflow: lift subnormals first
      return kMinNormal * vector_norm2_body(x0 / kMinNormal, x1 / kMinNormal, largest / kMinNormal);
    }
    scale = std::ldexp(1.0, -exponent);
  }
  double csum = 1.0;
  double frac1 = 0.0;
  double frac2 = 0.0;
  for (const double v : {x0, x1}) {
    const double x = v * scale;  // lossless scaling
    const DoubleLength pr = product(x, x);
    const DoubleLength sm = fast_sum(csum, pr.hi);
    csum = sm.hi;
    frac1 += pr.lo;
    frac2 += sm.lo;
  }
  double h = std::sqrt(csum - 1.0 + (frac1 + frac2));
  const DoubleLength pr = product(-h, h);
  const DoubleLength sm = fast_sum(csum, pr.hi);
  csum = sm.hi;
  frac1 += pr.lo;
  frac2 += sm.lo;
  const double x = csum - 1.0 + (frac1 + frac2);
  h += x / (2.0 * h);  // differential correction
  return h / scale;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) double vector_norm2_fma(double x0, double x1, double largest) {
  return vector_norm2_body(x0, x1, largest);
}

bool cpu_has_fma() {
  static const bool has = __builtin_cpu_supports("fma") != 0;
  return has;
}
#endif

double vector_norm2(double x0, double x1, double largest) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (cpu_has_fma()) return vector_norm2_fma(x0, x1, largest);
#endif
  return vector_norm2_body(x0, x1, largest);
}

constexpr double kOrientErrBound = 3.3306690738754716e-16;  // Shewchuk's ccwerrboundA

}  // namespace

double python_hypot(double a, double b) {
  const double x0 = std::abs(a);
  const double x1 = std::abs(b);
  if (std::isinf(x0) || std::isinf(x1)) return std::numeric_limits<double>::infinity();
  if (std::isnan(x0) || std::isnan(x1)) return std::numeric_limits<double>::quiet_NaN();
  const double largest = std::max(x0, x1);
  if (largest == 0.0) return largest;
  return vector_norm2(x0, x1, largest);
}

bool python_hypot_above(double dx, double dy, double limit) {
  const int side = hypot_side(dx, dy, limit);
  return side != 0 ? side > 0 : python_hypot(dx, dy) > limit;
}

bool python_hypot_at_least(double dx, double dy, double limit) {
  const int side = hypot_side(dx, dy, limit);
  return side != 0 ? side > 0 : python_hypot(dx, dy) >= limit;
}

int orientation(const Point& a, const Point& b, const Point& c) {
  const double left = (b.x - a.x) * (c.y - a.y);
  const double right = (b.y - a.y) * (c.x - a.x);
  const double det = left - right;
  const double bound = kOrientErrBound * (std::abs(left) + std::abs(right));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return exact_orientation(a, b, c);
}

bool segments_meet(const Point& p1, const Point& p2, const Point& q1, const Point& q2) {
  // Boxes first: disjoint boxes never meet (also settles collinear segments apart).
  if (std::max(p1.x, p2.x) < std::min(q1.x, q2.x) || std::max(q1.x, q2.x) < std::min(p1.x, p2.x) ||
      std::max(p1.y, p2.y) < std::min(q1.y, q2.y) || std::max(q1.y, q2.y) < std::min(p1.y, p2.y)) {
    return false;
  }
  const int o1 = orientation(p1, p2, q1);
  const int o2 = orientation(p1, p2, q2);
  if (o1 * o2 > 0) return false;
  const int o3 = orientation(q1, q2, p1);
  const int o4 = orientation(q1, q2, p2);
  if (o3 * o4 > 0) return false;
  // All collinear: the boxes overlap, so do the segments (exact coordinate comparisons).
  return true;
}

namespace {

/// GEOS's math::DD (a double-double, Dekker's split; the core builds without FMA contraction).
struct DD {
  double hi = 0.0;
  double lo = 0.0;

  static constexpr double kSplit = 134217729.0;  // 2^27 + 1

  [[nodiscard]] DD add(double yhi, double ylo) const {
    double S = hi + yhi;
    double T = lo + ylo;
    double e = S - hi;
    double f = T - lo;
    double s = S - e;
    double t = T - f;
    s = (yhi - e) + (hi - s);
    t = (ylo - f) + (lo - t);
    e = s + T;
    const double H = S + e;
    const double h = e + (S - H);
    e = t + h;
    const double zhi = H + e;
    return {zhi, e + (H - zhi)};
  }
  [[nodiscard]] DD operator+(const DD& y) const { return add(y.hi, y.lo); }
  [[nodiscard]] DD operator-(const DD& y) const { return add(-y.hi, -y.lo); }
  [[nodiscard]] DD operator*(const DD& y) const {
    double C = kSplit * hi;
    double hx = C - hi;
    double c = kSplit * y.hi;
    hx = C - hx;
    const double tx = hi - hx;
    double hy = c - y.hi;
    C = hi * y.hi;
    hy = c - hy;
    const double ty = y.hi - hy;
    c = ((((hx * hy - C) + hx * ty) + tx * hy) + tx * ty) + (hi * y.lo + lo * y.hi);
    const double zhi = C + c;
    hx = C - zhi;
    return {zhi, c + hx};
  }
  [[nodiscard]] DD operator/(const DD& y) const {
    double C = hi / y.hi;
    double c = kSplit * C;
    double hc = c - C;
    double u = kSplit * y.hi;
    hc = c - hc;
    const double tc = C - hc;
    double hy = u - y.hi;
    const double U = C * y.hi;
    hy = u - hy;
    const double ty = y.hi - hy;
    u = (((hc * hy - U) + hc * ty) + tc * hy) + tc * ty;
    c = ((((hi - U) - u) + lo) - C * y.lo) / y.hi;
    const double zhi = C + c;
    return {zhi, (C - zhi) + c};
  }
  [[nodiscard]] double value() const { return hi + lo; }
};

}  // namespace

std::optional<Point> line_intersection(const Point& p1, const Point& p2, const Point& q1, const Point& q2) {
  const DD px = DD{p1.y} - DD{p2.y};
  const DD py = DD{p2.x} - DD{p1.x};
  const DD pw = DD{p1.x} * DD{p2.y} - DD{p2.x} * DD{p1.y};
  const DD qx = DD{q1.y} - DD{q2.y};
  const DD qy = DD{q2.x} - DD{q1.x};
  const DD qw = DD{q1.x} * DD{q2.y} - DD{q2.x} * DD{q1.y};
  const DD x = py * qw - qy * pw;
  const DD y = qx * pw - px * qw;
  const DD w = px * qy - qx * py;
  const double xi = (x / w).value();
  const double yi = (y / w).value();
  if (!std::isfinite(xi) || !std::isfinite(yi)) return std::nullopt;
  return Point{xi, yi};
}

std::vector<Point> Shape::segment_hits(const Point& a, const Point& b) const {
  std::vector<Point> hits;
  if (box_.misses_segment(a, b)) return hits;
  const auto within = [](const Point& p, const Point& s, const Point& t) {
    return std::min(s.x, t.x) <= p.x && p.x <= std::max(s.x, t.x) && std::min(s.y, t.y) <= p.y &&
           p.y <= std::max(s.y, t.y);
  };
  for (const Ring& ring : rings_) {
    if (ring.box.misses_segment(a, b)) continue;
    const std::vector<Point>& pts = ring.points;
    for (std::size_t k = 1; k < pts.size(); ++k) {
      const Point& q1 = pts[k - 1];
      const Point& q2 = pts[k];
      if (!segments_meet(a, b, q1, q2)) continue;
      const int o1 = orientation(a, b, q1);
      const int o2 = orientation(a, b, q2);
      const int o3 = orientation(q1, q2, a);
      const int o4 = orientation(q1, q2, b);
      if (o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0) {
        // A proper crossing: GEOS computes the node point.
        if (const auto p = line_intersection(a, b, q1, q2)) hits.push_back(*p);
        continue;
      }
      // An end on the other segment: GEOS copies that point exactly.
      if (o1 == 0 && within(q1, a, b)) hits.push_back(q1);
      if (o2 == 0 && within(q2, a, b)) hits.push_back(q2);
      if (o3 == 0 && within(a, q1, q2)) hits.push_back(a);
      if (o4 == 0 && within(b, q1, q2)) hits.push_back(b);
    }
  }
  if (locate(a) == Location::kInterior) hits.push_back(a);
  if (locate(b) == Location::kInterior) hits.push_back(b);
  return hits;
}

std::uint64_t Shape::next_uid() {
  static std::atomic<std::uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

Shape::Shape(const std::vector<double>& coords, const std::vector<std::size_t>& ring_ends) {
  if (coords.size() % 2 != 0) throw std::invalid_argument("shape: odd number of coordinates");
  std::size_t start = 0;
  for (const std::size_t end : ring_ends) {
    if (end < start || 2 * end > coords.size()) throw std::out_of_range("shape: ring end out of range");
    if (end - start < 2) throw std::invalid_argument("shape: a ring needs at least two points");
    Ring ring;
    ring.points.reserve(end - start);
    for (std::size_t k = start; k < end; ++k) {
      const Point p{coords[2 * k], coords[2 * k + 1]};
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) throw std::invalid_argument("shape: coordinate not finite");
      ring.points.push_back(p);
      ring.box.add(p);
    }
    box_.add(ring.box);
    const std::size_t edges = ring.points.size() - 1;
    const std::size_t blocks = (edges + 3) / 4;
    constexpr double kInf = std::numeric_limits<double>::infinity();
    ring.edge_boxes.resize(16 * blocks);
    for (std::size_t e = 0; e < 4 * blocks; ++e) {
      double* const block = ring.edge_boxes.data() + 16 * (e / 4);
      const std::size_t lane = e % 4;
      if (e < edges) {
        const Point& q1 = ring.points[e];
        const Point& q2 = ring.points[e + 1];
        block[lane] = std::min(q1.x, q2.x);
        block[4 + lane] = std::max(q1.x, q2.x);
        block[8 + lane] = std::min(q1.y, q2.y);
        block[12 + lane] = std::max(q1.y, q2.y);
      } else {  // meets no segment and holds no point's y
        block[lane] = kInf;
        block[4 + lane] = -kInf;
        block[8 + lane] = kInf;
        block[12 + lane] = -kInf;
      }
    }
    rings_.push_back(std::move(ring));
    start = end;
  }
  if (2 * start != coords.size()) throw std::invalid_argument("shape: coordinates left over after the last ring");
}

namespace {

#if defined(RIVEN_AVX_EDGES)
bool cpu_has_avx_edges() {
  static const bool has = __builtin_cpu_supports("avx") != 0;
  return has;
}

// The edges of `ring` whose boxes meet the box of segment a-b (segments_meet's own first test,
// !(x < y) written x >= y: coordinates are finite), tested exactly in edge order.
__attribute__((target("avx"))) bool ring_meets_segment_avx(const Ring& ring, const Point& a, const Point& b) {
  const __m256d sxmin = _mm256_set1_pd(std::min(a.x, b.x));
  const __m256d sxmax = _mm256_set1_pd(std::max(a.x, b.x));
  const __m256d symin = _mm256_set1_pd(std::min(a.y, b.y));
  const __m256d symax = _mm256_set1_pd(std::max(a.y, b.y));
  const std::vector<Point>& pts = ring.points;
  const double* const boxes = ring.edge_boxes.data();
  for (std::size_t e = 0; e + 1 < pts.size(); e += 4) {
    const double* const block = boxes + 4 * e;
    const __m256d x = _mm256_and_pd(_mm256_cmp_pd(sxmax, _mm256_loadu_pd(block), _CMP_GE_OQ),
                                    _mm256_cmp_pd(_mm256_loadu_pd(block + 4), sxmin, _CMP_GE_OQ));
    const __m256d y = _mm256_and_pd(_mm256_cmp_pd(symax, _mm256_loadu_pd(block + 8), _CMP_GE_OQ),
                                    _mm256_cmp_pd(_mm256_loadu_pd(block + 12), symin, _CMP_GE_OQ));
    auto bits = static_cast<unsigned>(_mm256_movemask_pd(_mm256_and_pd(x, y)));
    while (bits != 0) {
      const std::size_t k = e + static_cast<std::size_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      if (segments_meet(a, b, pts[k - 1], pts[k])) return true;
    }
  }
  return false;
}

// A bit per edge of the block at `e` that locate's tests could act on for p: p.y within the
// edge's y-range and not both ends left of p (any other edge is skipped by those tests).
__attribute__((target("avx"))) unsigned locate_block_avx(const double* block, const Point& p) {
  const __m256d px = _mm256_set1_pd(p.x);
  const __m256d py = _mm256_set1_pd(p.y);
  const __m256d right = _mm256_cmp_pd(_mm256_loadu_pd(block + 4), px, _CMP_GE_OQ);
  const __m256d spans = _mm256_and_pd(_mm256_cmp_pd(py, _mm256_loadu_pd(block + 8), _CMP_GE_OQ),
                                      _mm256_cmp_pd(_mm256_loadu_pd(block + 12), py, _CMP_GE_OQ));
  return static_cast<unsigned>(_mm256_movemask_pd(_mm256_and_pd(right, spans)));
}
#endif

}  // namespace

Location Shape::locate(const Point& p) const {
  if (box_.excludes(p)) return Location::kExterior;
  // GEOS RayCrossingCounter::countSegment, over every ring (a ray to +x).
  std::size_t crossings = 0;
#if defined(RIVEN_AVX_EDGES)
  const bool avx = cpu_has_avx_edges();
#endif
  for (const Ring& ring : rings_) {
    if (ring.box.excludes(p)) continue;
    const std::vector<Point>& pts = ring.points;
    for (std::size_t k = 1; k < pts.size(); ++k) {
#if defined(RIVEN_AVX_EDGES)
      // Four edges at a time where none can act: the same edges act, in the same order.
      if (avx && (k - 1) % 4 == 0 && locate_block_avx(ring.edge_boxes.data() + 4 * (k - 1), p) == 0) {
        k += 3;
        continue;
      }
#endif
      const Point& p1 = pts[k - 1];
      const Point& p2 = pts[k];
      if (p1.x < p.x && p2.x < p.x) continue;
      if (p.x == p2.x && p.y == p2.y) return Location::kBoundary;
      if (p1.y == p.y && p2.y == p.y) {
        const double lo = std::min(p1.x, p2.x);
        const double hi = std::max(p1.x, p2.x);
        if (p.x >= lo && p.x <= hi) return Location::kBoundary;
        continue;
      }
      if ((p1.y > p.y && p2.y <= p.y) || (p2.y > p.y && p1.y <= p.y)) {
        int sign = orientation(p1, p2, p);
        if (sign == 0) return Location::kBoundary;
        if (p2.y < p1.y) sign = -sign;
        if (sign == 1) ++crossings;
      }
    }
  }
  return crossings % 2 == 1 ? Location::kInterior : Location::kExterior;
}

bool Shape::contains(const Point& p) const { return locate(p) == Location::kInterior; }

bool Shape::meets_segment(const Point& a, const Point& b) const {
  if (box_.misses_segment(a, b)) return false;
  // GEOS's prepared-polygon intersects for a line: an end in the closed polygon, or a crossing
  // of its boundary. The boundary first: a segment that meets no edge (the predicates are exact,
  // touching included) has neither end on the boundary and lies in one open region, so one end's
  // location answers for both (one ray-crossing pass instead of two).
#if defined(RIVEN_AVX_EDGES)
  const bool avx = cpu_has_avx_edges();
#endif
  for (const Ring& ring : rings_) {
    if (ring.box.misses_segment(a, b)) continue;
#if defined(RIVEN_AVX_EDGES)
    if (avx) {
      if (ring_meets_segment_avx(ring, a, b)) return true;
      continue;
    }
#endif
    const std::vector<Point>& pts = ring.points;
    for (std::size_t k = 1; k < pts.size(); ++k) {
      if (segments_meet(a, b, pts[k - 1], pts[k])) return true;
    }
  }
  return locate(a) == Location::kInterior;
}

double Shape::first_contact(const Point& a, const Point& b) const {
  if (box_.misses_segment(a, b)) return -1.0;
  if (locate(a) != Location::kExterior) return 0.0;
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  double first = 2.0;
  for (const Ring& ring : rings_) {
    if (ring.box.misses_segment(a, b)) continue;
    const std::vector<Point>& pts = ring.points;
    for (std::size_t k = 1; k < pts.size(); ++k) {
      const Point& q1 = pts[k - 1];
      const Point& q2 = pts[k];
      if (!segments_meet(a, b, q1, q2)) continue;
      const double fx = q2.x - q1.x;
      const double fy = q2.y - q1.y;
      const double denom = dx * fy - dy * fx;
      double t = 0.0;
      if (denom != 0.0 && orientation(a, b, q1) != orientation(a, b, q2)) {
        t = ((q1.x - a.x) * fy - (q1.y - a.y) * fx) / denom;
      } else if (length2 > 0.0) {
        // Collinear overlap (or an edge touching the line at a vertex): the nearer vertex on it.
        const double t1 = ((q1.x - a.x) * dx + (q1.y - a.y) * dy) / length2;
        const double t2 = ((q2.x - a.x) * dx + (q2.y - a.y) * dy) / length2;
        t = std::min(t1, t2);
        if (orientation(a, b, q1) != 0) t = t2;
        if (orientation(a, b, q2) != 0) t = t1;
      }
      first = std::min(first, std::clamp(t, 0.0, 1.0));
    }
  }
  return first > 1.0 ? (locate(b) != Location::kExterior ? 1.0 : -1.0) : first;
}

}  // namespace riven::table
