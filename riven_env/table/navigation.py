"""Pathfinding: a visibility graph over terrain; other models' bases handled per query.

Static part (:class:`StaticNav`, built once per table and base radius, cached on the table):
waypoints at the outward corners of impassable terrain grown by the base radius (plus a
small margin, mitred corners; a few points around circular pieces), at the outward corners
of difficult terrain, and where grown terrain meets the table's inner border. A
``networkx`` graph joins every pair of waypoints that see each other (the segment keeps
the whole base clear of impassable terrain); an edge costs its length plus its length
inside difficult terrain (difficult ground costs double). All-pairs cheapest costs and
next hops are precomputed (Floyd-Warshall), so a query only has to link its two ends.

Per query (:class:`Navigator`, one per moving model and base layout):

1. Straight line: if the segment to the goal is clear of terrain, bases and difficult
   ground, that is the route.
2. Terrain route: the start and goal join the static graph; their links are checked
   lazily, cheapest lower bound (straight length) first, until the best candidate uses
   only checked links. Start links are shared by every goal of the same navigator.
3. Bases: only the part of the route the allowance pays for must be clear. A base it
   crosses (with every base packed against it) is wrapped in a convex polygon and the
   crossing segment replaced by the shorter way around it that terrain allows.
4. Fallback (rare: a start or goal pressed against bases, bases closing a gap): the
   crossed bases join the graph as obstacles, with waypoints around them, and the route
   is found by lazy shortest paths (links checked only when a candidate route uses them).

A route is the cheapest path in this graph (up to the waypoint margin) for impassable
terrain; in difficult ground it may bend only at waypoints, and detours around bases are
local repairs, so it is a close approximation there. Every point of a returned path is a
legal base position: inside the table, not overlapping impassable terrain or another base
by more than the contact tolerance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
import shapely
from shapely import lib as _geos
from shapely.geometry.polygon import orient

from riven_env.table.bases import Bases
from riven_env.table.config import geometry_config
from riven_env.table.table import Table

_MAX_LAZY_ROUNDS = 8  # each round adds every base the route crossed; 8 is far beyond need


# -- vectorised geometry helpers ------------------------------------------------------------
def segment_point_distances(a: np.ndarray, b: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Distances from each segment ``a[m]-b[m]`` to each point ``centres[k]``: shape (M, K)."""
    ab = b - a
    denom = np.einsum("ij,ij->i", ab, ab)
    denom = np.where(denom > 0.0, denom, 1.0)
    ac = centres[None, :, :] - a[:, None, :]
    t = np.einsum("mkj,mj->mk", ac, ab) / denom[:, None]
    np.clip(t, 0.0, 1.0, out=t)
    closest = a[:, None, :] + t[..., None] * ab[:, None, :]
    return np.hypot(*(centres[None, :, :] - closest).transpose(2, 0, 1))


def _lines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return shapely.linestrings(np.stack((a, b), axis=1))


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
    e0, e1 = table.difficult_edges
    # Only outline edges whose box meets the segments' box can cross them.
    lo_xy = np.minimum(a, b).min(axis=0)
    hi_xy = np.maximum(a, b).max(axis=0)
    near = (
        (np.maximum(e0[:, 0], e1[:, 0]) >= lo_xy[0])
        & (np.minimum(e0[:, 0], e1[:, 0]) <= hi_xy[0])
        & (np.maximum(e0[:, 1], e1[:, 1]) >= lo_xy[1])
        & (np.minimum(e0[:, 1], e1[:, 1]) <= hi_xy[1])
    )
    e0, e1 = e0[near], e1[near]
    ax, ay = a[:, :1], a[:, 1:]
    dx, dy = b[:, :1] - ax, b[:, 1:] - ay
    fx, fy = (e1[:, 0] - e0[:, 0])[None, :], (e1[:, 1] - e0[:, 1])[None, :]
    wx, wy = e0[None, :, 0] - ax, e0[None, :, 1] - ay
    denom = dx * fy - dy * fx
    parallel = np.abs(denom) <= 1e-15
    denom = np.where(parallel, 1.0, denom)
    t = (wx * fy - wy * fx) / denom
    u = (wx * dy - wy * dx) / denom
    hit = ~parallel & (t > 0.0) & (t < 1.0) & (u >= 0.0) & (u <= 1.0)
    most = int(hit.sum(axis=1).max()) if hit.size else 0
    cuts = np.sort(np.where(hit, t, 1.0), axis=1)[:, :most] if most else np.zeros((m, 0))
    bounds = np.concatenate((np.zeros((m, 1)), cuts, np.ones((m, 1))), axis=1)
    lo, hi = bounds[:, :-1], bounds[:, 1:]
    mid = (lo + hi) / 2.0
    inside = (hi > lo) & _geos.contains_xy(table.difficult, ax + mid * dx, ay + mid * dy)
    return np.where(inside, lo, 0.0), np.where(inside, hi, 0.0)


def segment_costs(
    table: Table, a: np.ndarray, b: np.ndarray, lines: np.ndarray | None = None
) -> np.ndarray:
    """Movement cost of each segment ``a[m] -> b[m]``: length plus the length in difficult ground.

    ``lines`` may pass the segments as shapely line strings already built.
    """
    a = np.asarray(a, dtype=np.float64).reshape(-1, 2)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 2)
    cost = np.hypot(*(b - a).T)
    if table.difficult is None or len(a) == 0:
        return cost
    hit = _geos.intersects(table.difficult, _lines(a, b) if lines is None else lines)
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
        nodes: ``(N, 2)`` waypoints.
        graph: ``networkx.Graph`` over waypoint indices, edge attribute ``weight`` = cost.
        cost: ``(N, N)`` direct edge costs (``inf`` where no edge).
        dist: ``(N, N)`` shortest path costs.
        next_hop: ``(N, N)`` the node after ``i`` on a shortest path from ``i`` to ``j``.
        edges: ``(E, 2)`` node index pairs of the graph's edges.
    """

    def __init__(self, table: Table, radius: float) -> None:
        cfg = geometry_config()
        self.radius = radius
        self.bounds = table.centre_bounds(radius)
        self.clearance = table.for_radius(radius).clearance
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
        return ~_geos.intersects(self.clearance, _lines(a, b))

    def legal(self, points: np.ndarray) -> np.ndarray:
        """For each point, whether a base centre there is on the table and clear of terrain."""
        ok = _inside_bounds(points, self.bounds)
        if self.clearance is not None and ok.any():
            ok[ok] = ~_geos.contains_xy(self.clearance, points[ok, 0], points[ok, 1])
        return ok

    def static_path(self, i: int, j: int) -> list[int]:
        """Node indices of a shortest static path from ``i`` to ``j`` (both included)."""
        path = [i]
        for _ in range(len(self.nodes)):
            if path[-1] == j:
                break
            path.append(int(self.next_hop[path[-1], j]))
        return path


def static_nav(table: Table, radius: float) -> StaticNav:
    """The table's cached :class:`StaticNav` for ``radius`` (built on first use)."""
    geometry = table.for_radius(radius)
    if geometry._nav is None:
        geometry._nav = StaticNav(table, geometry.radius)
    return geometry._nav


# -- routing for one model --------------------------------------------------------------------
_BATCH = 8  # links evaluated per refinement step of the lazy searches


@dataclass(frozen=True)
class Route:
    """A planned route before truncation to an allowance.

    Attributes:
        points: ``(P, 2)`` path points from the start to the end.
        cost: Movement cost of the whole route.
        goal_reached: Whether the route ends at the requested goal (or in contact).
    """

    points: np.ndarray
    cost: float
    goal_reached: bool
    costs: np.ndarray | None = None

    def head(self, table: Table, allowance: float) -> tuple[np.ndarray, float]:
        """The part of the route the allowance pays for: ``(points, cost)``."""
        return truncate(table, self.points, allowance, self.segment_costs(table))

    def segment_costs(self, table: Table) -> np.ndarray:
        """Cost of each segment (computed once)."""
        if self.costs is None:
            object.__setattr__(
                self, "costs", segment_costs(table, self.points[:-1], self.points[1:])
            )
        return self.costs  # type: ignore[return-value]


@dataclass
class _GoalSpec:
    """Where a route may end: one point per waypoint (contact spots differ per approach)."""

    direct: np.ndarray | None  # goal for a straight link from the start (None: unusable)
    points: np.ndarray  # (V, 2) goal point reached from each waypoint
    usable: np.ndarray  # (V,) bool
    aim: np.ndarray  # what "nearest to the goal" means when the goal is unreachable


class _ActiveGraph:
    """Waypoints and link costs with some bases blocking (built lazily, shared across goals).

    ``matrix`` holds exact costs where ``known`` and straight-line lower bounds elsewhere;
    links are checked only when a candidate route uses them (lazy shortest paths).
    """

    def __init__(self, navigator: Navigator, active: np.ndarray) -> None:
        nav = navigator.nav
        n = len(nav.nodes)
        self.active = active
        centres = navigator.obstacle_centres[active]
        reach = navigator.obstacle_reach[active]
        # Waypoints on a polygon around each blocking base: its sides clear the base.
        sides = navigator.sides
        spoke = (reach + navigator.margin) / math.cos(math.pi / sides)
        angles = 2.0 * math.pi * np.arange(sides) / sides
        ring = np.stack((np.cos(angles), np.sin(angles)), axis=1)
        extra = (centres[:, None, :] + spoke[:, None, None] * ring[None, :, :]).reshape(-1, 2)
        extra = extra[navigator.legal(extra)]
        self.points = np.vstack((nav.nodes, extra, navigator.start[None, :]))
        v = len(self.points)
        self.start = v - 1
        diff = self.points[:, None, :] - self.points[None, :, :]
        self.matrix = np.hypot(diff[..., 0], diff[..., 1])
        self.known = np.zeros((v, v), dtype=bool)
        np.fill_diagonal(self.known, True)
        ok = np.ones(v, dtype=bool)
        if n:
            gaps = np.hypot(*(nav.nodes[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
            ok[:n] = np.all(gaps >= reach - navigator.tol, axis=1)
            block = nav.cost.copy()
            if len(nav.edges):
                e = nav.edges
                d = segment_point_distances(nav.nodes[e[:, 0]], nav.nodes[e[:, 1]], centres)
                cut = np.any(d < reach - navigator.tol, axis=1)
                block[e[cut, 0], e[cut, 1]] = np.inf
                block[e[cut, 1], e[cut, 0]] = np.inf
            self.matrix[:n, :n] = block
            self.known[:n, :n] = True
        self.usable = ok
        self.matrix[~ok, :] = np.inf
        self.matrix[:, ~ok] = np.inf
        self.known[~ok, :] = True
        self.known[:, ~ok] = True
        np.fill_diagonal(self.matrix, np.inf)  # no self-links: predecessors must not loop
        # The start's links are needed by every route: check them all at once.
        others = np.flatnonzero(ok[: self.start])
        self.settle(navigator, np.full(len(others), self.start), others)

    def settle(self, navigator: Navigator, rows: np.ndarray, cols: np.ndarray) -> None:
        """Check links ``rows[k] - cols[k]`` and store their exact costs (inf if blocked)."""
        if len(rows) == 0:
            return
        a, b = self.points[rows], self.points[cols]
        seen = navigator.visible(a, b, self.active)
        cost = np.full(len(rows), np.inf)
        if seen.any():
            cost[seen] = segment_costs(navigator.table, a[seen], b[seen])
        self.matrix[rows, cols] = cost
        self.matrix[cols, rows] = cost
        self.known[rows, cols] = True
        self.known[cols, rows] = True


def _relax(matrix: np.ndarray, source: int) -> tuple[np.ndarray, np.ndarray]:
    """Single-source cheapest costs on a dense cost matrix (vectorised Bellman-Ford)."""
    dist = matrix[source].copy()
    dist[source] = 0.0
    for _ in range(len(dist)):
        relaxed = np.minimum(dist, np.min(dist[:, None] + matrix, axis=0))
        if np.array_equal(relaxed, dist):
            break
        dist = relaxed
    pred = np.argmin(dist[:, None] + matrix, axis=0)
    pred[source] = -1
    return dist, pred


class Navigator:
    """Plans routes for one model on one base layout; reuses work across goals.

    Args:
        table: The table.
        bases: The bases (read, never changed).
        mover: Index of the moving model.
    """

    def __init__(self, table: Table, bases: Bases, mover: int) -> None:
        cfg = geometry_config()
        self.table = table
        self.mover = mover
        self.radius = float(bases.radii[mover])
        self.start = bases.centers[mover].astype(np.float64).copy()
        self.nav = static_nav(table, self.radius)
        self.tol = cfg.contact_tolerance
        self.margin = cfg.waypoint_margin
        self.sides = cfg.base_waypoint_sides
        others = bases.others(mover)
        self.obstacle_ids = others
        self.obstacle_centres = bases.centers[others].astype(np.float64)
        self.obstacle_reach = bases.radii[others] + self.radius  # centre-to-centre at contact
        n = len(self.nav.nodes)
        # Start-to-waypoint links of the static graph, checked lazily and shared by all goals.
        self._start_bound = np.hypot(*(self.nav.nodes - self.start).T) if n else np.zeros(0)
        self._start_exact = np.full(n, np.nan)
        self._graphs: dict[frozenset[int], _ActiveGraph] = {}

    # -- legality and visibility ------------------------------------------------------------
    def legal(self, points: np.ndarray, skip: Sequence[int] = ()) -> np.ndarray:
        """Whether the mover's base may stand at each point (table, terrain and other bases).

        Args:
            points: ``(M, 2)`` base centres.
            skip: Obstacle positions (into ``obstacle_ids``) to ignore.
        """
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        ok = self.nav.legal(points)
        if len(self.obstacle_ids) and ok.any():
            gaps = np.hypot(
                points[:, None, 0] - self.obstacle_centres[None, :, 0],
                points[:, None, 1] - self.obstacle_centres[None, :, 1],
            ) - (self.obstacle_reach - self.tol)
            for k in skip:
                gaps[:, k] = np.inf
            ok &= np.all(gaps >= 0.0, axis=1)
        return ok

    def visible(self, a: np.ndarray, b: np.ndarray, active: np.ndarray) -> np.ndarray:
        """Whether each segment keeps the base clear of terrain and of the ``active`` bases."""
        seen = self.nav.visible(a, b)
        if len(active) and seen.any():
            d = segment_point_distances(a[seen], b[seen], self.obstacle_centres[active])
            seen[seen] = np.all(d >= self.obstacle_reach[active] - self.tol, axis=1)
        return seen

    def crossed(self, points: np.ndarray) -> list[int]:
        """Obstacle positions (into ``obstacle_ids``) whose bases the polyline overlaps."""
        if len(self.obstacle_ids) == 0 or len(points) < 2:
            return []
        d = segment_point_distances(points[:-1], points[1:], self.obstacle_centres)
        hit = np.any(d < self.obstacle_reach - self.tol, axis=0)
        return [int(k) for k in np.flatnonzero(hit)]

    def _links(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Exact static costs of segments ``a[m] -> b[m]`` (inf where terrain blocks)."""
        cost = np.full(len(a), np.inf)
        lines = _lines(a, b)
        clearance = self.nav.clearance
        seen = (
            np.ones(len(a), dtype=bool)
            if clearance is None
            else ~_geos.intersects(clearance, lines)
        )
        if seen.any():
            cost[seen] = segment_costs(self.table, a[seen], b[seen], lines[seen])
        return cost

    # -- goals ------------------------------------------------------------------------------
    def _goal_spec(
        self, points: np.ndarray, goal: np.ndarray | None, target: int | None
    ) -> _GoalSpec:
        if target is None:
            point = np.asarray(goal, dtype=np.float64)
            return _GoalSpec(
                point,
                np.tile(point, (len(points), 1)),
                np.ones(len(points), dtype=bool),
                point,
            )
        centre = self.obstacle_centres[target]
        contact = self.obstacle_reach[target] + self.tol / 2.0

        def spots(origins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            offset = origins - centre
            length = np.hypot(*offset.T)
            ok = length > contact
            safe = np.where(ok, length, 1.0)
            found = centre + offset * (contact / safe)[:, None]
            if ok.any():
                ok[ok] = self.legal(found[ok], skip=(target,))
            return found, ok

        direct, direct_ok = spots(self.start[None, :])
        found, ok = spots(points)
        return _GoalSpec(direct[0] if direct_ok[0] else None, found, ok, centre)

    # -- searches ---------------------------------------------------------------------------
    def _route_static(self, goal: np.ndarray | None, target: int | None) -> Route:
        """Cheapest route with terrain only (bases not yet in the way), checking links lazily.

        Lower bounds (straight lengths) stand in for unchecked start and goal links; the
        best candidate pair of (first, last) waypoints is checked, in batches, until the
        best candidate uses only checked links.
        """
        nav = self.nav
        n = len(nav.nodes)
        spec = self._goal_spec(nav.nodes, goal, target)
        best_cost, best_path = np.inf, None
        if spec.direct is not None:
            direct = self._links(self.start[None, :], spec.direct[None, :])[0]
            if np.isfinite(direct):
                best_cost, best_path = direct, [self.start, spec.direct]
        if n:
            g_bound = np.where(spec.usable, np.hypot(*(spec.points - nav.nodes).T), np.inf)
            g_exact = np.where(spec.usable, np.nan, np.inf)
            s_exact = self._start_exact
            for _ in range(2 * n // _BATCH + 2):
                s_cost = np.where(np.isnan(s_exact), self._start_bound, s_exact)
                g_cost = np.where(np.isnan(g_exact), g_bound, g_exact)
                via = nav.dist + g_cost[None, :]
                total = s_cost + via.min(axis=1)
                first = int(np.argmin(total))
                if not total[first] < best_cost - 1e-12:
                    break
                last = int(np.argmin(via[first]))
                if not (np.isnan(s_exact[first]) or np.isnan(g_exact[last])):
                    best_cost = float(total[first])
                    best_path = [
                        self.start,
                        *(nav.nodes[k] for k in nav.static_path(first, last)),
                        spec.points[last],
                    ]
                    break
                # Check the most promising unchecked links on both sides in one batch.
                open_s = np.flatnonzero(np.isnan(s_exact))
                pick_s = open_s[np.argsort(total[open_s], kind="stable")[:_BATCH]]
                col = np.min(s_cost[:, None] + nav.dist, axis=0) + g_cost
                open_g = np.flatnonzero(np.isnan(g_exact))
                pick_g = open_g[np.argsort(col[open_g], kind="stable")[:_BATCH]]
                starts = np.concatenate(
                    (np.broadcast_to(self.start, (len(pick_s), 2)), nav.nodes[pick_g])
                )
                ends = np.concatenate((nav.nodes[pick_s], spec.points[pick_g]))
                cost = self._links(starts, ends)
                s_exact[pick_s] = cost[: len(pick_s)]
                g_exact[pick_g] = cost[len(pick_s) :]
        if best_path is not None:
            return Route(_dedupe(np.array(best_path)), float(best_cost), True)
        return self._nearest_reachable(frozenset(), spec)

    def _graph(self, active: frozenset[int]) -> _ActiveGraph:
        graph = self._graphs.get(active)
        if graph is None:
            graph = _ActiveGraph(self, np.array(sorted(active), dtype=np.int64))
            self._graphs[active] = graph
        return graph

    def _route_active(
        self, active: frozenset[int], goal: np.ndarray | None, target: int | None
    ) -> Route:
        """Cheapest route with the ``active`` bases blocking (lazy shortest paths)."""
        graph = self._graph(active)
        v = len(graph.points)
        spec = self._goal_spec(graph.points, goal, target)
        usable = spec.usable & graph.usable
        if spec.direct is not None:
            usable[graph.start] = True
            spec.points[graph.start] = spec.direct
        else:
            usable[graph.start] = False
        sink = v
        matrix = np.full((v + 1, v + 1), np.inf)
        matrix[:v, :v] = graph.matrix
        link = np.where(usable, np.hypot(*(spec.points - graph.points).T), np.inf)
        matrix[:v, sink] = link
        link_known = ~usable
        for _ in range(4 * v):
            dist, pred = _relax(matrix, graph.start)
            if not np.isfinite(dist[sink]):
                return self._nearest_reachable(active, spec)
            path = [sink]
            while path[-1] != graph.start and len(path) <= v + 1:
                path.append(int(pred[path[-1]]))
            path.reverse()
            hops = list(zip(path[:-1], path[1:], strict=True))
            rows = [u for u, w in hops if w != sink and not graph.known[u, w]]
            cols = [w for u, w in hops if w != sink and not graph.known[u, w]]
            last = path[-2]
            if not rows and link_known[last]:
                points = [graph.points[k] for k in path[:-1]]
                points.append(spec.points[last])
                return Route(_dedupe(np.array(points)), float(dist[sink]), True)
            if rows:
                graph.settle(self, np.array(rows), np.array(cols))
                matrix[:v, :v] = graph.matrix
            if not link_known[last]:
                ends = np.flatnonzero(~link_known)
                ends = ends[np.argsort(dist[ends] + link[ends], kind="stable")[:_BATCH]]
                seen = self.visible(graph.points[ends], spec.points[ends], graph.active)
                cost = np.full(len(ends), np.inf)
                if seen.any():
                    cost[seen] = segment_costs(
                        self.table, graph.points[ends][seen], spec.points[ends][seen]
                    )
                matrix[ends, sink] = cost
                link[ends] = cost
                link_known[ends] = True
        return self._nearest_reachable(active, spec)

    def _nearest_reachable(self, active: frozenset[int], spec: _GoalSpec) -> Route:
        """The route to the reachable waypoint nearest to an unreachable goal (or no move)."""
        graph = self._graph(active)
        dist, pred = _relax(graph.matrix, graph.start)
        for _ in range(len(dist)):
            reachable = np.flatnonzero(np.isfinite(dist))
            gaps = np.hypot(*(graph.points[reachable] - spec.aim).T)
            node = int(reachable[np.argmin(gaps)])
            path = [node]
            while path[-1] != graph.start and len(path) <= len(dist):
                path.append(int(pred[path[-1]]))
            path.reverse()
            rows = [u for u, w in zip(path[:-1], path[1:], strict=True) if not graph.known[u, w]]
            cols = [w for u, w in zip(path[:-1], path[1:], strict=True) if not graph.known[u, w]]
            if not rows:
                points = np.array([graph.points[k] for k in path])
                return Route(_dedupe(points), float(dist[node]), False)
            graph.settle(self, np.array(rows), np.array(cols))
            dist, pred = _relax(graph.matrix, graph.start)
        return Route(self.start[None, :].copy(), 0.0, False)

    def _straight(self, goal: np.ndarray | None, target: int | None) -> Route | None:
        """The straight route when it is clear of terrain, bases and difficult ground."""
        if target is not None:
            centre = self.obstacle_centres[target]
            offset = self.start - centre
            length = math.hypot(*offset)
            contact = self.obstacle_reach[target] + self.tol / 2.0
            if length <= contact:
                return None
            goal = centre + offset * (contact / length)
            if not self.legal(goal[None, :], skip=(target,))[0]:
                return None
        points = np.stack((self.start, goal))
        if not self.nav.visible(points[:1], points[1:])[0] or self.crossed(points):
            return None
        if self.table.difficult is not None and _geos.intersects(
            self.table.difficult, shapely.linestrings(points)
        ):
            return None
        return Route(_dedupe(points), float(math.hypot(*(goal - self.start))), True)

    def route(
        self,
        allowance: float,
        *,
        goal: Sequence[float] | None = None,
        target: int | None = None,
    ) -> Route:
        """Plan a route to a point or into base contact with a model.

        Bases crossed by the part of the route within ``allowance`` are added as obstacles
        and the route is planned again, until that part is clear.

        Args:
            allowance: Movement allowance; only this much of the route must be clear of bases.
            goal: Destination point (a legal base position), or ``None`` with ``target``.
            target: Model index to reach base contact with, or ``None`` with ``goal``.

        Returns:
            The full route (not truncated).
        """
        target_pos = None if target is None else int(np.searchsorted(self.obstacle_ids, target))
        goal_xy = None if goal is None else np.asarray(goal, dtype=np.float64)
        straight = self._straight(goal_xy, target_pos)
        if straight is not None:
            return straight
        route = self._route_static(goal_xy, target_pos)
        repaired = self._detour(route, allowance, target_pos)
        if repaired is not None and (
            target_pos is None
            or repaired.cost <= allowance + 1e-9
            or self._contact_bound(target_pos) > allowance
        ):
            return repaired
        active: frozenset[int] = frozenset()
        if target_pos is not None:
            # Contact spots hidden behind bases packed around the target: plan with them.
            active = frozenset(int(k) for k in self._cluster(target_pos))
            route = self._route_active(active, goal_xy, target_pos)
        for _ in range(_MAX_LAZY_ROUNDS):
            head = route.head(self.table, allowance)[0]
            hits = set(self.crossed(head)) - active
            if not hits:
                break
            active = active | hits
            route = self._route_active(active, goal_xy, target_pos)
        if repaired is not None and (not route.goal_reached or repaired.cost < route.cost):
            return repaired
        return route

    def _contact_bound(self, k: int) -> float:
        """Straight distance to base contact with obstacle ``k`` (a lower bound on any route)."""
        return math.hypot(*(self.obstacle_centres[k] - self.start)) - self.obstacle_reach[k]

    def _cluster(self, k: int) -> np.ndarray:
        """Obstacle ``k`` and every base chained to it too closely for the mover to pass."""
        centres, reach = self.obstacle_centres, self.obstacle_reach
        members = {k}
        frontier = [k]
        while frontier:
            j = frontier.pop()
            gaps = np.hypot(*(centres - centres[j]).T) - reach - reach[j]
            for m in np.flatnonzero(gaps < 2.0 * self.margin):
                if int(m) not in members:
                    members.add(int(m))
                    frontier.append(int(m))
        return np.array(sorted(members))

    def _detour(self, route: Route, allowance: float, target: int | None) -> Route | None:
        """Repair a terrain-only route around the bases its paid-for part crosses.

        The first base crossed (with every base packed against it) is wrapped in a convex
        polygon, and the crossing segment is replaced by the shorter way around that polygon
        that terrain allows. ``None`` when a repair fails (the caller then plans with those
        bases as graph obstacles): a start or end inside the polygon, both ways blocked, or
        too many rounds.
        """
        points = route.points
        costs = route.segment_costs(self.table)
        sides = 2 * self.sides
        angles = 2.0 * math.pi * np.arange(sides) / sides
        ring = np.stack((np.cos(angles), np.sin(angles)), axis=1)
        for _ in range(_MAX_LAZY_ROUNDS):
            head, _spent = truncate(self.table, points, allowance, costs)
            if len(head) < 2 or len(self.obstacle_ids) == 0:
                return Route(points, float(np.sum(costs)), route.goal_reached, costs)
            d = segment_point_distances(head[:-1], head[1:], self.obstacle_centres)
            bad = d < self.obstacle_reach - self.tol
            if not bad.any():
                return Route(points, float(np.sum(costs)), route.goal_reached, costs)
            seg = int(np.flatnonzero(bad.any(axis=1))[0])
            p, q = points[seg], points[seg + 1]
            along = (self.obstacle_centres - p) @ (q - p)
            crossing = np.flatnonzero(bad[seg])
            k = int(crossing[np.argmin(along[crossing])])
            if target is not None and k == target:
                return None
            cluster = self._cluster(k)
            spoke = (self.obstacle_reach[cluster] + self.margin) / math.cos(math.pi / sides)
            wrap = self.obstacle_centres[cluster][:, None, :] + spoke[:, None, None] * ring
            hull = shapely.convex_hull(shapely.multipoints(wrap.reshape(-1, 2)))
            if _geos.intersects_xy(hull, p[0], p[1]) or _geos.intersects_xy(hull, q[0], q[1]):
                return None
            ways = _around(np.asarray(hull.exterior.coords)[:-1], p, q)
            best = None
            for way in ways:
                legs = np.vstack((p, way, q))
                if not (
                    np.all(self.nav.legal(way)) and np.all(self.nav.visible(legs[:-1], legs[1:]))
                ):
                    continue
                leg_costs = segment_costs(self.table, legs[:-1], legs[1:])
                if best is None or leg_costs.sum() < best[1].sum():
                    best = (way, leg_costs)
            if best is None:
                return None
            way, leg_costs = best
            points = np.vstack((points[: seg + 1], way, points[seg + 1 :]))
            costs = np.concatenate((costs[:seg], leg_costs, costs[seg + 1 :]))
        return None


def _around(polygon: np.ndarray, p: np.ndarray, q: np.ndarray) -> list[np.ndarray]:
    """The two ways from ``p`` to ``q`` around a convex polygon (vertex chains, p and q excluded).

    Both are chains of the convex hull of the polygon with ``p`` and ``q``: one runs
    counter-clockwise from ``p`` to ``q``, the other clockwise.
    """
    allpts = np.vstack((polygon, p, q))
    hull = shapely.convex_hull(shapely.multipoints(allpts))
    ring = orient(hull, sign=1.0).exterior.coords[:-1]
    ring = np.asarray(ring)
    ip = int(np.argmin(np.hypot(*(ring - p).T)))
    iq = int(np.argmin(np.hypot(*(ring - q).T)))
    n = len(ring)
    forward = [ring[(ip + k) % n] for k in range(1, (iq - ip) % n)]
    backward = [ring[(ip - k) % n] for k in range(1, (ip - iq) % n)]
    return [np.array(way).reshape(-1, 2) for way in (forward, backward) if way]


def _dedupe(points: np.ndarray) -> np.ndarray:
    keep = np.ones(len(points), dtype=bool)
    keep[1:] = np.hypot(*np.diff(points, axis=0).T) > 1e-12
    return points[keep]


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
    total = np.cumsum(costs)
    if total[-1] <= allowance + 1e-9:
        return points.copy(), float(total[-1])
    k = int(np.searchsorted(total, allowance, side="right"))
    spent = float(total[k - 1]) if k else 0.0
    end = _point_at_cost(table, points[k], points[k + 1], allowance - spent, float(costs[k]))
    kept = np.vstack((points[: k + 1], end[None, :]))
    return _dedupe(kept), float(allowance)
