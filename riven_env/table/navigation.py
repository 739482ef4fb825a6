"""Pathfinding's static part: a visibility graph over terrain, and the geometry primitives.

:class:`StaticNav` (built once per map and base radius, shared by every equal table, see
:mod:`riven_env.table.table`): waypoints at the outward corners of impassable terrain grown
by the base radius (plus a small margin, mitred corners; a few points around circular
pieces), at the outward corners of difficult terrain, and where grown terrain meets the
table's inner border. A ``networkx`` graph joins every pair of waypoints that see each
other (the segment keeps the whole base clear of impassable terrain); an edge costs its
length plus its length inside difficult terrain (difficult ground costs double). All-pairs
cheapest costs and next hops are precomputed (Floyd-Warshall), so a query only has to link
its two ends (:mod:`riven_env.table.links`, which caches those links per end point).

Routing one model among the others' bases is :mod:`riven_env.table.routing`.

A few links at a time (a lazy search's batch, one straight link, a detour's legs) are
costed on plain floats: the certain tests of sight lines (:mod:`riven_env.table.sight`)
settle whether a link meets the clearance or difficult ground, GEOS only answers the rest,
and difficult stretches are found one segment at a time by the array code's arithmetic.
Every value is the one the array code gives (large batches still take it).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Hashable
from itertools import accumulate, chain

import networkx as nx
import numpy as np
import shapely
from shapely import lib as _geos
from shapely.geometry.polygon import orient

from riven_env.table.config import geometry_config

# The plain-float certain tests and outlines are sight lines' own: one model of rounding.
from riven_env.table.sight import _ORIENT_ERR, _touch
from riven_env.table.table import Box, Outline, Table, _part_outlines


def _line_factory() -> object:
    """The fastest way to build two-point line strings that this shapely version offers.

    shapely >= 2.1's ufunc takes a NaN-handling flag, 2.0's does not; the public wrapper
    works everywhere but checks its arguments on every call (microseconds in hot loops).
    """
    probe = np.zeros((1, 2, 2))
    for args in ((np.intc(0),), ()):
        try:
            _geos.linestrings(probe, *args)
        except TypeError:
            continue
        return lambda coords: _geos.linestrings(coords, *args)
    return shapely.linestrings


_make_lines = _line_factory()


# -- vectorised geometry helpers ------------------------------------------------------------
def segment_point_distances(a: np.ndarray, b: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Distances from each segment ``a[m]-b[m]`` to each point ``centres[k]``: shape (M, K)."""
    ab = b - a
    denom = np.einsum("ij,ij->i", ab, ab)
    denom = np.where(denom > 0.0, denom, 1.0)
    # The elementwise work runs on (K, M) arrays, one coordinate at a time: numpy's inner
    # loops then run along the many segments, not along a pair of coordinates. The same
    # operations on the same operands (and the same contiguous arrays for einsum).
    ax, ay = a[:, 0], a[:, 1]
    cx, cy = centres[:, :1], centres[:, 1:]
    ac = np.stack(((cx - ax).T, (cy - ay).T), axis=2)
    t = np.ascontiguousarray((np.einsum("mkj,mj->mk", ac, ab) / denom[:, None]).T)
    np.minimum(np.maximum(t, 0.0, out=t), 1.0, out=t)
    return np.hypot(cx - (ax + t * ab[:, 0]), cy - (ay + t * ab[:, 1])).T


def segment_lines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two-point shapely line strings ``a[m] -> b[m]`` (built by the ufunc: no argument checks)."""
    return _make_lines(np.stack((a, b), axis=1))  # type: ignore[operator]


class _DifficultEdges:
    """A table's difficult ground in the forms the plain-float and array tests read.

    Built once per map: the outline edges split into the columns the crossing test reads
    (the values the expressions in :func:`difficult_spans` would compute every call), the
    edges again piece by piece as plain floats, and the outlines of the union's polygons.
    """

    __slots__ = (
        "fx",
        "fy",
        "outlines",
        "pieces",
        "ref",
        "x0",
        "xmax",
        "xmin",
        "y0",
        "ymax",
        "ymin",
    )

    def __init__(self, table: Table) -> None:
        e0, e1 = table.difficult_edges
        self.ref = e0  # keeps the array alive so its id cannot be reused while cached
        self.x0, self.y0 = e0[:, 0].copy(), e0[:, 1].copy()
        self.fx = e1[:, 0] - e0[:, 0]
        self.fy = e1[:, 1] - e0[:, 1]
        self.xmax = np.maximum(e0[:, 0], e1[:, 0])
        self.xmin = np.minimum(e0[:, 0], e1[:, 0])
        self.ymax = np.maximum(e0[:, 1], e1[:, 1])
        self.ymin = np.minimum(e0[:, 1], e1[:, 1])
        self.outlines = _part_outlines(table.difficult)
        # Per difficult piece: the box of its edges and each edge as plain floats
        # ``(x0, y0, fx, fy)``; Table lists the edges piece by piece, ring by ring.
        rows = list(zip(*(a.tolist() for a in (self.x0, self.y0, self.fx, self.fy)), strict=True))
        boxes = [a.tolist() for a in (self.xmin, self.ymin, self.xmax, self.ymax)]
        self.pieces: list[tuple[Box, list[tuple[float, float, float, float]]]] = []
        start = 0
        for piece in table.pieces:
            if not piece.difficult:
                continue
            rings = (piece.polygon.exterior, *piece.polygon.interiors)
            end = start + sum(len(ring.coords) - 1 for ring in rings)
            box = (min(boxes[0][start:end]), min(boxes[1][start:end]))
            box += (max(boxes[2][start:end]), max(boxes[3][start:end]))
            self.pieces.append((box, rows[start:end]))
            start = end


# numpy adds fewer than eight values one after another; longer rows are summed pairwise.
_SEQUENTIAL_SUM_SLOTS = 7
_EDGE_CACHE_SIZE = 64  # distinct maps in use at once; a bound so long runs never leak
_edge_cache: OrderedDict[int, _DifficultEdges] = OrderedDict()


def _difficult_edges(table: Table) -> _DifficultEdges:
    """The (cached) :class:`_DifficultEdges` of a table's difficult ground."""
    e0 = table.difficult_edges[0]
    key = id(e0)
    entry = _edge_cache.get(key)
    if entry is None or entry.ref is not e0:
        entry = _DifficultEdges(table)
        _edge_cache[key] = entry
        while len(_edge_cache) > _EDGE_CACHE_SIZE:
            _edge_cache.popitem(last=False)
    return entry


def _meets(
    geometry: shapely.Geometry,
    outlines: tuple[Outline, ...],
    err: float,
    ax: float,
    ay: float,
    bx: float,
    by: float,
) -> bool:
    """Exactly ``intersects(geometry, segment a-b)``; ``outlines`` are the polygons of ``geometry``.

    The plain-float certain tests of sight lines (:func:`riven_env.table.sight._touch`: a
    separating axis proves a miss, a proper edge crossing a hit, each only beyond the
    rounding error bound ``err``, see :func:`_error_bound`) settle most segments; GEOS gets
    the others.
    """
    certain = _touch(outlines, ax, ay, bx, by, err)
    if certain is not None:
        return certain
    return bool(_geos.intersects(geometry, _make_lines(np.array((((ax, ay), (bx, by)),)))[0]))  # type: ignore[operator]


def _error_bound(extent: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The rounding error bound of the orientation tests of a segment (as sight lines use):
    ``extent`` bounds the absolute coordinates of the outlines tested."""
    m = max(extent, ax, -ax, ay, -ay, bx, -bx, by, -by)
    return _ORIENT_ERR * m * m


def _near_edges(edges: _DifficultEdges, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which outline edges have a box meeting the box of the segments ``a[m] -> b[m]``."""
    lo_x, lo_y = np.minimum(a, b).min(axis=0).tolist()
    hi_x, hi_y = np.maximum(a, b).max(axis=0).tolist()
    return (edges.xmax >= lo_x) & (edges.xmin <= hi_x) & (edges.ymax >= lo_y) & (edges.ymin <= hi_y)


def _spans(
    table: Table, a: np.ndarray, b: np.ndarray, near: np.ndarray, max_cuts: int | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """The arithmetic of :func:`difficult_spans` with the candidate edges given.

    Args:
        table: The table (``table.difficult`` is not ``None``).
        a: ``(M, 2)`` segment starts.
        b: ``(M, 2)`` segment ends.
        near: ``(E,)`` edges to test for every segment, or ``(M, E)`` per segment.
        max_cuts: Give up (``None``) when some segment crosses more outline edges than this.

    Every value is computed by the same operations on the same operands whichever edges
    are tested: an edge left out cannot be crossed, and extra slots hold empty stretches.
    """
    edges = _difficult_edges(table)
    m = len(a)
    ax, ay = a[:, :1], a[:, 1:]
    dx, dy = b[:, :1] - ax, b[:, 1:] - ay
    if near.ndim == 1:
        fx, fy = edges.fx[near][None, :], edges.fy[near][None, :]
        wx, wy = edges.x0[near][None, :] - ax, edges.y0[near][None, :] - ay
    else:
        fx, fy = edges.fx[None, :], edges.fy[None, :]
        wx, wy = edges.x0[None, :] - ax, edges.y0[None, :] - ay
    denom = dx * fy - dy * fx
    parallel = np.abs(denom) <= 1e-15
    denom[parallel] = 1.0
    t = (wx * fy - wy * fx) / denom
    u = (wx * dy - wy * dx) / denom
    hit = (t > 0.0) & (t < 1.0) & (u >= 0.0) & (u <= 1.0)
    hit &= ~parallel
    if near.ndim == 2:
        hit &= near
    most = int(hit.sum(axis=1).max()) if hit.size else 0
    if max_cuts is not None and most > max_cuts:
        return None
    bounds = np.empty((m, most + 2))
    bounds[:, 0] = 0.0
    bounds[:, -1] = 1.0
    if most:
        t[~hit] = 1.0
        t.sort(axis=1)
        bounds[:, 1:-1] = t[:, :most]
    lo, hi = bounds[:, :-1], bounds[:, 1:]
    # Only a stretch of some length can be inside (the unused slots are empty).
    inside = hi > lo
    rows, cols = np.nonzero(inside)
    mid = (lo[rows, cols] + hi[rows, cols]) / 2.0
    inside[rows, cols] = _geos.contains_xy(
        table.difficult, ax[rows, 0] + mid * dx[rows, 0], ay[rows, 0] + mid * dy[rows, 0]
    )
    return np.where(inside, lo, 0.0), np.where(inside, hi, 0.0)


def difficult_spans(table: Table, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each segment ``a[m] -> b[m]`` runs through difficult ground.

    The segment is cut at every crossing with a difficult piece's outline; each stretch is
    inside or outside as its midpoint is (so overlapping pieces count once).

    Returns:
        ``(lo, hi)``, both ``(M, K)``: fractions of each segment bounding its difficult
        stretches; unused slots have ``lo == hi``.
    """
    m = len(a)
    if table.difficult is None or m == 0:
        return np.zeros((m, 1)), np.zeros((m, 1))
    # Only outline edges whose box meets the segments' box can cross them.
    near = _near_edges(_difficult_edges(table), a, b)
    return _spans(table, a, b, near)  # type: ignore[return-value]


# Batches up to this many segments are costed on plain floats (numpy's per-call overhead
# would dominate them); their stretches are found one segment at a time.
_PLAIN_BATCH = 16


def _stretch_sum(table: Table, ax: float, ay: float, bx: float, by: float) -> float | None:
    """The summed difficult stretches (fractions) of one segment, as :func:`_spans` finds them.

    Plain floats, the same operations on the same operands as the array code; only the
    edges of pieces whose box meets the segment's box are tested (an edge left out cannot
    be crossed). ``None`` when the segment runs through more than two difficult stretches:
    only a sum of at most two is the same whatever the batch (see :func:`link_costs_alone`).
    """
    dx, dy = bx - ax, by - ay
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    cuts = []
    for (xmin, ymin, xmax, ymax), edges in _difficult_edges(table).pieces:
        if xmax < lo_x or xmin > hi_x or ymax < lo_y or ymin > hi_y:
            continue
        for x0, y0, fx, fy in edges:
            denom = dx * fy - dy * fx
            if -1e-15 <= denom <= 1e-15:  # parallel
                continue
            wx, wy = x0 - ax, y0 - ay
            t = (wx * fy - wy * fx) / denom
            if 0.0 < t < 1.0:
                u = (wx * dy - wy * dx) / denom
                if 0.0 <= u <= 1.0:
                    cuts.append(t)
    cuts.sort()
    total, count, lo = 0.0, 0, 0.0
    for hi in (*cuts, 1.0):
        if hi > lo:
            mid = (lo + hi) / 2.0
            if _geos.contains_xy(table.difficult, ax + mid * dx, ay + mid * dy):
                count += 1
                if count > _BATCH_FREE_STRETCHES:
                    return None
                total += hi - lo
        lo = hi
    return total


def _plain_costs(
    nav: StaticNav | None, table: Table, a: np.ndarray, b: np.ndarray
) -> np.ndarray | None:
    """Static costs of a few segments, on plain floats, one segment at a time.

    Equal to the array code's values (:func:`link_costs` with ``nav``, ``inf`` where the
    base would meet impassable terrain; :func:`segment_costs` without) for any batch;
    ``None`` when some segment runs through more than two difficult stretches.
    """
    d = b - a
    lengths = np.hypot(d[:, 0], d[:, 1]).tolist()
    starts, ends = a.tolist(), b.tolist()
    # One error bound for the batch: the largest coordinate of its segments and the terrain.
    m = max(map(abs, chain(*starts, *ends)))
    clearance = None if nav is None else nav.clearance
    if clearance is not None:
        clear_parts = nav.clearance_outlines  # type: ignore[union-attr]
        m = max(m, nav.extent)  # type: ignore[union-attr]
    difficult = table.difficult
    if difficult is not None:
        difficult_parts = _difficult_edges(table).outlines
        m = max(m, table.extent)
    err = _ORIENT_ERR * m * m
    costs = []
    for (ax, ay), (bx, by), length in zip(starts, ends, lengths, strict=True):
        if clearance is not None and _meets(clearance, clear_parts, err, ax, ay, bx, by):
            costs.append(math.inf)
            continue
        if difficult is not None and _meets(difficult, difficult_parts, err, ax, ay, bx, by):
            total = _stretch_sum(table, ax, ay, bx, by)
            if total is None:
                return None
            length = length * (1.0 + total)
        costs.append(length)
    return np.array(costs)


def in_difficult(table: Table, ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether the segment ``a -> b`` meets difficult ground (exactly GEOS's ``intersects``)."""
    if table.difficult is None:
        return False
    err = _error_bound(table.extent, ax, ay, bx, by)
    return _meets(table.difficult, _difficult_edges(table).outlines, err, ax, ay, bx, by)


def segment_costs(
    table: Table, a: np.ndarray, b: np.ndarray, lines: np.ndarray | None = None
) -> np.ndarray:
    """Movement cost of each segment ``a[m] -> b[m]``: length plus the length in difficult ground.

    ``lines`` may pass the segments as shapely line strings already built.
    """
    a = np.asarray(a, dtype=np.float64).reshape(-1, 2)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 2)
    if 0 < len(a) <= _PLAIN_BATCH and table.difficult is not None:
        found = _plain_costs(None, table, a, b)
        if found is not None:
            return found
    cost = np.hypot(*(b - a).T)
    if table.difficult is None or len(a) == 0:
        return cost
    hit = _geos.intersects(table.difficult, segment_lines(a, b) if lines is None else lines)
    if hit.any():
        lo, hi = difficult_spans(table, a[hit], b[hit])
        cost[hit] *= 1.0 + np.sum(hi - lo, axis=1)
    return cost


def _inside_bounds(points: np.ndarray, bounds: tuple[float, float, float, float]) -> np.ndarray:
    xmin, ymin, xmax, ymax = bounds
    eps = 1e-9
    return (
        (points[:, 0] >= xmin - eps)
        & (points[:, 0] <= xmax + eps)
        & (points[:, 1] >= ymin - eps)
        & (points[:, 1] <= ymax + eps)
    )


def _convex_corners(geometry: shapely.Geometry) -> list[np.ndarray]:
    """Corners of a polygon's outlines that stick out into free space.

    Only such corners can be bends of a shortest path; hollow corners never are.
    """
    corners = []
    for poly in getattr(geometry, "geoms", [geometry]):
        if poly.is_empty:
            continue
        poly = orient(poly, sign=1.0)  # exterior counter-clockwise, holes clockwise
        for ring in (poly.exterior, *poly.interiors):
            pts = np.asarray(ring.coords)[:-1]
            before = pts - np.roll(pts, 1, axis=0)
            after = np.roll(pts, -1, axis=0) - pts
            turn = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
            corners.append(pts[turn > 1e-12])  # a left turn: the material's outer corner
    return corners


# -- the static graph -----------------------------------------------------------------------
class StaticNav:
    """The visibility graph for bases of one radius on one table (static terrain only).

    Attributes:
        radius: Base radius, inches.
        bounds: The box a base centre must stay within.
        clearance: Impassable terrain grown by ``radius - tolerance`` (prepared) or ``None``.
        clearance_outlines: The outlines of the clearance's polygons (plain floats).
        extent: The largest absolute coordinate of the table, its terrain and the clearance.
        nodes: ``(N, 2)`` waypoints.
        graph: ``networkx.Graph`` over waypoint indices, edge attribute ``weight`` = cost.
        cost: ``(N, N)`` direct edge costs (``inf`` where no edge).
        dist: ``(N, N)`` shortest path costs.
        next_hop: ``(N, N)`` the node after ``i`` on a shortest path from ``i`` to ``j``.
        edges: ``(E, 2)`` node index pairs of the graph's edges.
        edge_boxes: ``(4, E)`` each edge's bounding box: x min, y min, x max, y max.
        ends: Cache of route ends' links to the graph (:mod:`riven_env.table.links`).
        navigators: Recently used navigators by base layout (:mod:`riven_env.table.routing`).
        routes: Recently planned terrain-only routes, by what they depend on (ditto).
        wraps: Recently used convex wraps of clusters of bases, by their content (ditto).
        cuts: Per recently blocking base, the edges it cuts (ditto).
    """

    def __init__(self, table: Table, radius: float) -> None:
        cfg = geometry_config()
        self.radius = radius
        self.bounds = table.centre_bounds(radius)
        self.clearance = table.for_radius(radius).clearance
        # For the plain-float certain tests of links (see _meets): the clearance's polygons,
        # and a bound on every coordinate they and the table's terrain have.
        self.clearance_outlines = _part_outlines(self.clearance)
        self.extent = max(
            [
                table.extent,
                *(abs(c) for c in (() if self.clearance is None else self.clearance.bounds)),
            ]
        )
        self.ends: OrderedDict[Hashable, object] = OrderedDict()  # see riven_env.table.links
        self.navigators: OrderedDict[Hashable, object] = OrderedDict()  # see ...table.routing
        self.routes: OrderedDict[Hashable, object] = OrderedDict()  # ditto
        self.wraps: OrderedDict[Hashable, object] = OrderedDict()  # ditto
        self.cuts: OrderedDict[Hashable, object] = OrderedDict()  # ditto
        self._as_lists: tuple[list[list[float]], list[list[float]], list[list[int]]] | None = None
        self.nodes = self._waypoints(table, radius, cfg.waypoint_margin)
        n = len(self.nodes)
        cost = np.full((n, n), np.inf)
        ii, jj = np.triu_indices(n, k=1)
        if len(ii):
            a, b = self.nodes[ii], self.nodes[jj]
            seen = self.visible(a, b)
            ii, jj = ii[seen], jj[seen]
            weights = segment_costs(table, self.nodes[ii], self.nodes[jj])
            cost[ii, jj] = weights
            cost[jj, ii] = weights
        self.cost = cost
        self.edges = np.stack((ii, jj), axis=1) if len(ii) else np.zeros((0, 2), dtype=np.int64)
        # Each edge's box (x min, y min, x max, y max): a point farther from the box than a
        # limit is farther than it from the edge, so blocking bases skip most edges.
        ends_a, ends_b = self.nodes[ii], self.nodes[jj]
        self.edge_boxes = np.concatenate(
            (np.minimum(ends_a, ends_b), np.maximum(ends_a, ends_b)), axis=1
        ).T.copy()
        self.graph = nx.Graph()
        self.graph.add_nodes_from((k, {"pos": tuple(self.nodes[k])}) for k in range(n))
        self.graph.add_weighted_edges_from(
            (int(i), int(j), float(cost[i, j])) for i, j in self.edges
        )
        if n:
            self.dist = nx.floyd_warshall_numpy(self.graph, nodelist=range(n), weight="weight")
            np.fill_diagonal(self.dist, 0.0)
            self.next_hop = np.empty((n, n), dtype=np.int64)
            for i in range(n):
                self.next_hop[i] = np.argmin(cost[i][:, None] + self.dist, axis=0)
            np.fill_diagonal(self.next_hop, np.arange(n))
        else:
            self.dist = np.zeros((0, 0))
            self.next_hop = np.zeros((0, 0), dtype=np.int64)

    def _waypoints(self, table: Table, radius: float, margin: float) -> np.ndarray:
        sides = geometry_config().circle_waypoint_sides
        rings: list[np.ndarray] = []
        borders = []
        for piece in table.pieces:
            if not (piece.impassable or piece.difficult):
                continue
            grow = radius + margin if piece.impassable else margin
            grown = piece.polygon.buffer(grow, join_style="mitre")
            borders.append(grown.boundary)
            if piece.shape[0] == "circle":
                # A few waypoints on a polygon circumscribing the grown circle are enough.
                cx, cy, r = piece.shape[1]
                spoke = (r + grow) / math.cos(math.pi / sides)
                angles = 2.0 * math.pi * np.arange(sides) / sides
                rings.append(
                    np.stack((cx + spoke * np.cos(angles), cy + spoke * np.sin(angles)), 1)
                )
            else:
                rings.extend(_convex_corners(grown))
        if not rings:
            return np.zeros((0, 2))
        points = np.concatenate(rings)
        xmin, ymin, xmax, ymax = self.bounds
        if xmin >= xmax or ymin >= ymax:
            return np.zeros((0, 2))
        inner = shapely.box(xmin, ymin, xmax, ymax).boundary
        crossings = shapely.get_coordinates(shapely.intersection(borders, inner))
        points = np.concatenate((points, crossings)) if len(crossings) else points
        points = points[_inside_bounds(points, self.bounds)]
        if self.clearance is not None and len(points):
            points = points[~_geos.contains_xy(self.clearance, points[:, 0], points[:, 1])]
        if len(points) == 0:
            return np.zeros((0, 2))
        return np.unique(np.round(points, 9), axis=0)

    def visible(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """For each segment ``a[m] -> b[m]``, whether it keeps the base clear of static terrain."""
        if self.clearance is None or len(a) == 0:
            return np.ones(len(a), dtype=bool)
        if len(a) <= _PLAIN_BATCH:
            pairs = zip(a.tolist(), b.tolist(), strict=True)
            return np.array([not self.blocks(ax, ay, bx, by) for (ax, ay), (bx, by) in pairs])
        return ~_geos.intersects(self.clearance, segment_lines(a, b))

    def blocks(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """Whether the segment ``a -> b`` brings the base into impassable terrain (exactly
        GEOS's ``intersects`` with the clearance)."""
        if self.clearance is None:
            return False
        err = _error_bound(self.extent, ax, ay, bx, by)
        return _meets(self.clearance, self.clearance_outlines, err, ax, ay, bx, by)

    def legal(self, points: np.ndarray) -> np.ndarray:
        """For each point, whether a base centre there is on the table and clear of terrain."""
        ok = _inside_bounds(points, self.bounds)
        if self.clearance is not None and ok.any():
            ok[ok] = ~_geos.contains_xy(self.clearance, points[ok, 0], points[ok, 1])
        return ok

    def legal_xy(self, x: float, y: float) -> bool:
        """``legal`` of the one point (x, y), on plain floats."""
        xmin, ymin, xmax, ymax = self.bounds
        eps = 1e-9
        if not (xmin - eps <= x <= xmax + eps and ymin - eps <= y <= ymax + eps):
            return False
        return self.clearance is None or not _geos.contains_xy(self.clearance, x, y)

    def static_path(self, i: int, j: int) -> list[int]:
        """Node indices of a shortest static path from ``i`` to ``j`` (both included)."""
        rows = self._lists()[2]
        path = [i]
        for _ in range(len(rows)):
            if path[-1] == j:
                break
            path.append(rows[path[-1]][j])
        return path

    def node_xy(self, hops: list[int]) -> list[list[float]]:
        """The waypoints ``hops`` as ``[x, y]`` lists of floats."""
        xy = self._lists()[0]
        return [xy[k] for k in hops]

    def hop_costs(self, hops: list[int]) -> list[float]:
        """The edge costs along the waypoints ``hops``, as floats."""
        cost = self._lists()[1]
        return [cost[i][j] for i, j in zip(hops[:-1], hops[1:], strict=True)]

    def _lists(self) -> tuple[list[list[float]], list[list[float]], list[list[int]]]:
        """Nodes, edge costs and next hops as nested lists (indexing them beats numpy's)."""
        if self._as_lists is None:
            self._as_lists = (self.nodes.tolist(), self.cost.tolist(), self.next_hop.tolist())
        return self._as_lists


def static_nav(table: Table, radius: float) -> StaticNav:
    """The table's cached :class:`StaticNav` for ``radius`` (built on first use)."""
    geometry = table.for_radius(radius)
    if geometry._nav is None:
        geometry._nav = StaticNav(table, geometry.radius)
    return geometry._nav


def link_costs(nav: StaticNav, table: Table, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Exact static costs of the segments ``a[m] -> b[m]``: ``inf`` where terrain blocks them."""
    cost = np.full(len(a), np.inf)
    if len(a) == 0:
        return cost
    if len(a) <= _PLAIN_BATCH:
        found = _plain_costs(nav, table, a, b)
        if found is not None:
            return found
    lines = segment_lines(a, b)
    clearance = nav.clearance
    seen = np.ones(len(a), dtype=bool) if clearance is None else ~_geos.intersects(clearance, lines)
    if seen.any():
        cost[seen] = segment_costs(table, a[seen], b[seen], lines[seen])
    return cost


# A sum of at most two nonzero stretches rounds the same in any order and with any number
# of zero slots beside them, so it does not depend on the batch (see link_costs_alone).
_BATCH_FREE_STRETCHES = 2


def link_costs_alone(
    nav: StaticNav, table: Table, a: np.ndarray, b: np.ndarray
) -> np.ndarray | None:
    """``link_costs`` of some segments, each equal bit for bit to its value in any batch.

    A segment's difficult stretches are summed in one row whose width is set by the batch
    (the segment crossing the most outline edges); numpy adds a row of eight or more slots
    pairwise, so three or more nonzero stretches could round differently from batch to
    batch. With at most two per segment no batch can change the sum, so a lazy search may
    check links a few at a time and still get the values a one-pass check of all of them
    gives.

    Returns:
        The costs, or ``None`` when some segment runs through more difficult stretches.
    """
    cost = np.full(len(a), np.inf)
    if len(a) == 0:
        return cost
    if len(a) <= _PLAIN_BATCH:
        return _plain_costs(nav, table, a, b)
    lines = segment_lines(a, b)
    clearance = nav.clearance
    seen = np.ones(len(a), dtype=bool) if clearance is None else ~_geos.intersects(clearance, lines)
    if not seen.any():
        return cost
    a, b, lines = a[seen], b[seen], lines[seen]
    part = np.hypot(*(b - a).T)
    if table.difficult is not None:
        hit = _geos.intersects(table.difficult, lines)
        if hit.any():
            near = _near_edges(_difficult_edges(table), a[hit], b[hit])
            lo, hi = _spans(table, a[hit], b[hit], near)  # type: ignore[misc]
            stretches = hi - lo
            if np.count_nonzero(stretches, axis=1).max() > _BATCH_FREE_STRETCHES:
                return None
            part[hit] *= 1.0 + np.sum(stretches, axis=1)
    cost[seen] = part
    return cost


def link_cost(
    nav: StaticNav, table: Table, a: tuple[float, float], b: tuple[float, float]
) -> float:
    """``link_costs`` of the one segment ``a -> b``: the same value, on plain floats."""
    (ax, ay), (bx, by) = a, b
    ax, ay, bx, by = float(ax), float(ay), float(bx), float(by)
    if nav.blocks(ax, ay, bx, by):
        return math.inf
    cost = float(np.hypot(bx - ax, by - ay))
    if not in_difficult(table, ax, ay, bx, by):
        return cost
    total = _stretch_sum(table, ax, ay, bx, by)
    if total is not None:
        return cost * (1.0 + total)
    lo, hi = difficult_spans(table, np.array((a,)), np.array((b,)))
    return float(cost * (1.0 + np.sum(hi - lo, axis=1))[0])


def total_cost(costs: list[float]) -> float:
    """``float(np.sum(costs))``: numpy adds fewer than eight values in order, so plain floats do."""
    if len(costs) > _SEQUENTIAL_SUM_SLOTS:
        return float(np.sum(costs))
    total = 0.0
    for cost in costs:
        total += cost
    return total


def fan_link_costs(nav: StaticNav, table: Table, starts: np.ndarray) -> np.ndarray:
    """Exact static costs from each start point to every waypoint, in one vectorised pass.

    Row ``p`` equals ``link_costs(nav, table, broadcast(starts[p]), nav.nodes)`` bit for bit:
    every value comes from the same operations on the same operands, and each start's
    difficult-ground test keeps the candidate edges its own call would have (the box of its
    own segments). Should a segment cross so many outline edges that its stretches no longer
    fit the slots numpy adds one after another (longer rows are summed pairwise, so the
    slot count would change the rounding), the starts are evaluated one by one instead.

    Returns:
        ``(P, N)`` link costs (``inf`` where terrain blocks).
    """
    n = len(nav.nodes)
    p = len(starts)
    if p == 0 or n == 0:
        return np.full((p, n), np.inf)
    a = np.repeat(starts, n, axis=0)
    b = np.tile(nav.nodes, (p, 1))
    lines = segment_lines(a, b)
    clearance = nav.clearance
    seen = np.ones(len(a), dtype=bool) if clearance is None else ~_geos.intersects(clearance, lines)
    cost = np.full(len(a), np.inf)
    cost[seen] = np.hypot(*(b[seen] - a[seen]).T)
    if table.difficult is not None and seen.any():
        rows = np.flatnonzero(seen)
        rows = rows[_geos.intersects(table.difficult, lines[rows])]
        if len(rows):
            ra, rb = a[rows], b[rows]
            group = rows // n
            first = np.flatnonzero(np.diff(group, prepend=-1))
            lo_xy = np.minimum.reduceat(np.minimum(ra, rb), first, axis=0)
            hi_xy = np.maximum.reduceat(np.maximum(ra, rb), first, axis=0)
            edges = _difficult_edges(table)
            near = (
                (edges.xmax[None, :] >= lo_xy[:, :1])
                & (edges.xmin[None, :] <= hi_xy[:, :1])
                & (edges.ymax[None, :] >= lo_xy[:, 1:])
                & (edges.ymin[None, :] <= hi_xy[:, 1:])
            )
            member = np.cumsum(np.diff(group, prepend=group[0]) != 0)
            spans = _spans(table, ra, rb, near[member], max_cuts=_SEQUENTIAL_SUM_SLOTS - 1)
            if spans is None:
                return np.stack(
                    [link_costs(nav, table, np.broadcast_to(s, (n, 2)), nav.nodes) for s in starts]
                )
            lo, hi = spans
            cost[rows] *= 1.0 + np.sum(hi - lo, axis=1)
    return cost.reshape(p, n)


# How far a squared length must be from a squared limit for plain floats to settle a
# comparison that numpy's hypot would make: far beyond the rounding error of both sides.
_HYPOT_MARGIN = 1e-9


def _hypot_order(dx: float, dy: float, limit: float) -> int:
    """The sign of ``np.hypot(dx, dy) - limit`` (as its comparisons give it), mostly without numpy.

    The squared length decides unless it lies within a relative hair of the squared limit;
    only then is numpy's hypot (whose last bit plain ``math.hypot`` may not share) asked.
    """
    d2 = dx * dx + dy * dy
    l2 = limit * limit
    if d2 > l2 * (1.0 + _HYPOT_MARGIN):
        return 1
    if d2 < l2 * (1.0 - _HYPOT_MARGIN):
        return -1
    length = np.hypot(dx, dy)
    return int(length > limit) - int(length < limit)


def hypot_above(dx: float, dy: float, limit: float) -> bool:
    """Exactly ``np.hypot(dx, dy) > limit`` (for ``limit >= 1e-100``)."""
    return _hypot_order(dx, dy, limit) > 0


def hypot_at_least(dx: float, dy: float, limit: float) -> bool:
    """Exactly ``np.hypot(dx, dy) >= limit``; a limit <= 0 always holds."""
    return limit <= 0.0 or _hypot_order(dx, dy, limit) >= 0


def _dedupe(points: np.ndarray) -> np.ndarray:
    keep = np.ones(len(points), dtype=bool)
    keep[1:] = np.hypot(*np.diff(points, axis=0).T) > 1e-12
    return points[keep]


def dedupe_xy(points: list[list[float]]) -> list[list[float]]:
    """The points without each one within 1e-12 of the point before it (plain floats)."""
    kept = points[:1]
    for k in range(1, len(points)):
        (ax, ay), (bx, by) = points[k - 1], points[k]
        if hypot_above(bx - ax, by - ay, 1e-12):
            kept.append(points[k])
    return kept


def _point_at_cost(
    table: Table, a: np.ndarray, b: np.ndarray, budget: float, cost: float
) -> np.ndarray:
    """The point of segment ``a -> b`` (costing ``cost`` in all) where ``budget`` runs out."""
    length = float(np.hypot(*(b - a)))
    if length <= 0.0:
        return a.copy()
    if cost <= length + 1e-12:  # open ground all along
        return a + (b - a) * (min(budget, length) / length)
    lo, hi = difficult_spans(table, a[None, :], b[None, :])
    spans = sorted(
        (float(x) * length, float(y) * length) for x, y in zip(lo[0], hi[0], strict=True) if y > x
    )
    spent, position = 0.0, 0.0
    for enter, leave in spans:
        if enter > position:  # open ground up to the difficult stretch
            if spent + (enter - position) >= budget:
                return a + (b - a) * ((position + budget - spent) / length)
            spent += enter - position
            position = enter
        leave = max(leave, position)
        if spent + 2.0 * (leave - position) >= budget:
            return a + (b - a) * ((position + (budget - spent) / 2.0) / length)
        spent += 2.0 * (leave - position)
        position = leave
    return a + (b - a) * (min(length, position + budget - spent) / length)


def _end_at_cost(
    table: Table, a: list[float], b: list[float], budget: float, cost: float
) -> list[float]:
    """:func:`_point_at_cost` on plain floats (numpy only for a stretch in difficult ground)."""
    (ax, ay), (bx, by) = a, b
    length = float(np.hypot(bx - ax, by - ay))
    if length <= 0.0:
        return [ax, ay]
    if cost <= length + 1e-12:  # open ground all along
        f = min(budget, length) / length
        return [ax + (bx - ax) * f, ay + (by - ay) * f]
    return _point_at_cost(table, np.array(a), np.array(b), budget, cost).tolist()


def truncate(
    table: Table, points: np.ndarray, allowance: float, costs: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """The part of a polyline that an allowance pays for (difficult ground costs double).

    Args:
        table: The table.
        points: ``(P, 2)`` polyline.
        allowance: Movement available.
        costs: Cost of each segment if already known (``segment_costs``).

    Returns:
        ``(points, cost)``: the truncated polyline (at least the start) and its cost.
    """
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(points) < 2:
        return points[:1].copy(), 0.0
    if costs is None:
        costs = segment_costs(table, points[:-1], points[1:])
    # Plain floats: a route has a handful of segments. accumulate adds them in order, as
    # numpy's cumsum does, and bisect_right finds what searchsorted(side="right") would.
    total = list(accumulate(costs.tolist()))
    if total[-1] <= allowance + 1e-9:
        return points.copy(), total[-1]
    k = bisect_right(total, allowance)
    spent = total[k - 1] if k else 0.0
    xy = points[: k + 2].tolist()
    end = _end_at_cost(table, xy[k], xy[k + 1], allowance - spent, costs[k])
    return np.array(dedupe_xy([*xy[: k + 1], end])), float(allowance)
