"""Pathfinding: a visibility graph over terrain, plus the other models' bases per query.

Static part (:class:`StaticNav`, built once per table and base radius, cached on the table):
waypoints at the corners of impassable terrain grown by the base radius (plus a small
margin, mitred corners), at the corners of difficult terrain, and where grown terrain
meets the table's inner border; a ``networkx`` graph joins every pair of waypoints that see
each other (the segment keeps the whole base clear of impassable terrain); an edge costs
its length plus the length of it inside difficult terrain (difficult ground costs double).
All-pairs shortest costs and next hops are precomputed (Floyd-Warshall).

Dynamic part (:class:`Navigator`, one per moving model and base layout): the start joins
the graph by visibility. Other models' bases are added lazily: a route is planned, and only
the bases that the part of it within the allowance actually crosses are added as obstacles
(edges through them removed, waypoints on a polygon around each added), then it is planned
again. Bases beyond the move allowance therefore never cost anything.

A route is the cheapest path in this graph; it is exact for impassable terrain and bases
(up to the waypoint margin) and a close approximation in difficult ground (a path may bend
only at waypoints). Every point of a returned path is a legal base position: inside the
table, not overlapping impassable terrain or another base by more than the contact tolerance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
import shapely
from shapely import lib as _geos

from riven_env.table.bases import Bases
from riven_env.table.config import geometry_config
from riven_env.table.table import Table

_MAX_LAZY_ROUNDS = 8  # each round adds every base the route crossed; 8 is far beyond need
_FIRST_GOAL_BATCH = 16  # goal links tested first (cheapest lower bounds); more only if needed


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


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def difficult_spans(table: Table, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each segment ``a[m] -> b[m]`` runs through difficult ground.

    The segment is cut at every crossing with a difficult piece's outline; each piece of it
    is inside or outside as its midpoint is (so overlapping pieces count once).

    Returns:
        ``(lo, hi)``, both ``(M, K)``: fractions of each segment bounding its difficult
        stretches; unused slots have ``lo == hi``.
    """
    m = len(a)
    edges = table.difficult_edges
    if table.difficult is None or m == 0:
        return np.zeros((m, 1)), np.zeros((m, 1))
    e0, e1 = edges
    d = b - a
    f = e1 - e0
    denom = _cross(d[:, None, :], f[None, :, :])
    w = e0[None, :, :] - a[:, None, :]
    safe = np.where(np.abs(denom) > 1e-15, denom, 1.0)
    t = _cross(w, f[None, :, :]) / safe
    u = _cross(w, d[:, None, :]) / safe
    hit = (np.abs(denom) > 1e-15) & (t > 0.0) & (t < 1.0) & (u >= 0.0) & (u <= 1.0)
    most = int(hit.sum(axis=1).max()) if hit.size else 0
    if most:
        cuts = np.sort(np.where(hit, t, 1.0), axis=1)[:, :most]
    else:
        cuts = np.zeros((m, 0))
    bounds = np.concatenate((np.zeros((m, 1)), cuts, np.ones((m, 1))), axis=1)
    lo, hi = bounds[:, :-1], bounds[:, 1:]
    used = hi > lo
    mid = (lo + hi) / 2.0
    inside = np.zeros_like(used)
    rows, cols = np.nonzero(used)
    if len(rows):
        px = a[rows, 0] + mid[rows, cols] * d[rows, 0]
        py = a[rows, 1] + mid[rows, cols] * d[rows, 1]
        inside[rows, cols] = _geos.contains_xy(table.difficult, px, py)
    return np.where(inside, lo, 0.0), np.where(inside, hi, 0.0)


def segment_costs(table: Table, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Movement cost of each segment ``a[m] -> b[m]``: length plus the length in difficult ground."""
    a = np.asarray(a, dtype=np.float64).reshape(-1, 2)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 2)
    cost = np.hypot(*(b - a).T)
    if table.difficult is None or len(a) == 0:
        return cost
    lo, hi = difficult_spans(table, a, b)
    return cost * (1.0 + np.sum(hi - lo, axis=1))


def _inside_bounds(points: np.ndarray, bounds: tuple[float, float, float, float]) -> np.ndarray:
    xmin, ymin, xmax, ymax = bounds
    eps = 1e-9
    return (
        (points[:, 0] >= xmin - eps)
        & (points[:, 0] <= xmax + eps)
        & (points[:, 1] >= ymin - eps)
        & (points[:, 1] <= ymax + eps)
    )


def _ring_points(geometry: shapely.Geometry) -> list[np.ndarray]:
    rings = []
    for poly in getattr(geometry, "geoms", [geometry]):
        if poly.is_empty:
            continue
        rings.append(np.asarray(poly.exterior.coords)[:-1])
        rings.extend(np.asarray(ring.coords)[:-1] for ring in poly.interiors)
    return rings


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
        rings: list[np.ndarray] = []
        borders = []
        for piece in table.pieces:
            if piece.impassable:
                grown = piece.polygon.buffer(radius + margin, join_style="mitre")
            elif piece.difficult:
                grown = piece.polygon.buffer(margin, join_style="mitre")
            else:
                continue
            rings.extend(_ring_points(grown))
            borders.append(grown.boundary)
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


# -- one solve: costs from the start to every waypoint ----------------------------------------
@dataclass
class _Solve:
    """Cheapest costs from the start to every waypoint with a given set of bases blocking."""

    points: np.ndarray  # (V, 2) waypoints; the start is the last row
    dist: np.ndarray  # (V,) cost from the start
    pred: np.ndarray  # (V,) predecessor (-1 for the start); unused when `first_hop` is set
    active: np.ndarray  # indices into the navigator's obstacle arrays
    first_hop: np.ndarray | None = None  # static-only solve: start -> first_hop[v] -> ... -> v

    def node_path(self, v: int, nav: StaticNav) -> list[int]:
        start = len(self.points) - 1
        if v == start:
            return [start]
        if self.first_hop is not None:
            a = int(self.first_hop[v])
            return [start, *nav.static_path(a, v)]
        path = [v]
        for _ in range(len(self.points)):
            p = int(self.pred[path[-1]])
            if p < 0:
                break
            path.append(p)
        return path[::-1]


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
        self._solves: dict[frozenset[int], _Solve] = {}

    # -- legality ---------------------------------------------------------------------------
    def legal(self, points: np.ndarray, skip: Sequence[int] = ()) -> np.ndarray:
        """Whether the mover's base may stand at each point (table, terrain and other bases)."""
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

    def _visible(self, a: np.ndarray, b: np.ndarray, active: np.ndarray) -> np.ndarray:
        seen = self.nav.visible(a, b)
        if len(active) and seen.any():
            d = segment_point_distances(a[seen], b[seen], self.obstacle_centres[active])
            seen[seen] = np.all(d >= self.obstacle_reach[active] - self.tol, axis=1)
        return seen

    def crossed(self, points: np.ndarray) -> list[int]:
        """Obstacle positions (into the obstacle arrays) whose bases the polyline overlaps."""
        if len(self.obstacle_ids) == 0 or len(points) < 2:
            return []
        d = segment_point_distances(points[:-1], points[1:], self.obstacle_centres)
        hit = np.any(d < self.obstacle_reach - self.tol, axis=0)
        return [int(k) for k in np.flatnonzero(hit)]

    # -- solving ------------------------------------------------------------------------------
    def _solve(self, active: frozenset[int]) -> _Solve:
        cached = self._solves.get(active)
        if cached is not None:
            return cached
        solve = self._solve_static() if not active else self._solve_with(np.array(sorted(active)))
        self._solves[active] = solve
        return solve

    def _solve_static(self) -> _Solve:
        nav = self.nav
        n = len(nav.nodes)
        points = np.vstack((nav.nodes, self.start[None, :]))
        dist = np.full(n + 1, np.inf)
        dist[n] = 0.0
        first_hop = np.full(n + 1, -1, dtype=np.int64)
        if n:
            starts = np.broadcast_to(self.start, (n, 2))
            seen = nav.visible(starts, nav.nodes)
            link = np.full(n, np.inf)
            if seen.any():
                link[seen] = segment_costs(self.table, starts[seen], nav.nodes[seen])
            via = link[:, None] + nav.dist
            first_hop[:n] = np.argmin(via, axis=0)
            dist[:n] = via[first_hop[:n], np.arange(n)]
        empty = np.zeros(0, dtype=np.int64)
        return _Solve(points, dist, np.full(n + 1, -1), empty, first_hop)

    def _solve_with(self, active: np.ndarray) -> _Solve:
        nav = self.nav
        n = len(nav.nodes)
        centres = self.obstacle_centres[active]
        reach = self.obstacle_reach[active]
        # Waypoints on a polygon around each blocking base, far enough out that its edges
        # clear the base (circumscribed polygon) plus the margin.
        spoke = (reach + self.margin) / math.cos(math.pi / self.sides)
        angles = 2.0 * math.pi * np.arange(self.sides) / self.sides
        ring = np.stack((np.cos(angles), np.sin(angles)), axis=1)
        extra = (centres[:, None, :] + spoke[:, None, None] * ring[None, :, :]).reshape(-1, 2)
        extra = extra[self.nav.legal(extra)]
        if len(extra):
            gaps = np.hypot(*(extra[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
            extra = extra[np.all(gaps >= reach - self.tol, axis=1)]
        points = np.vstack((nav.nodes, extra, self.start[None, :]))
        v = len(points)
        matrix = np.full((v, v), np.inf)
        static_ok = np.ones(n, dtype=bool)
        if n:
            gaps = np.hypot(*(nav.nodes[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
            static_ok = np.all(gaps >= reach - self.tol, axis=1)
            matrix[:n, :n] = nav.cost
            if len(nav.edges):
                e = nav.edges
                d = segment_point_distances(nav.nodes[e[:, 0]], nav.nodes[e[:, 1]], centres)
                cut = np.any(d < reach - self.tol, axis=1)
                matrix[e[cut, 0], e[cut, 1]] = np.inf
                matrix[e[cut, 1], e[cut, 0]] = np.inf
            blocked_nodes = np.flatnonzero(~static_ok)
            matrix[blocked_nodes, :] = np.inf
            matrix[:, blocked_nodes] = np.inf
        # New links: every added waypoint and the start to every waypoint before it.
        new_ids = np.arange(n, v)
        rows, cols = [], []
        for k in new_ids:
            rows.append(np.full(k, k))
            cols.append(np.arange(k))
        if rows:
            ii = np.concatenate(rows)
            jj = np.concatenate(cols)
            keep = np.concatenate((static_ok, np.ones(v - n, dtype=bool)))[jj]
            ii, jj = ii[keep], jj[keep]
            seen = self._visible(points[ii], points[jj], active)
            ii, jj = ii[seen], jj[seen]
            weights = segment_costs(self.table, points[ii], points[jj])
            matrix[ii, jj] = weights
            matrix[jj, ii] = weights
        start = v - 1
        dist = matrix[start].copy()
        dist[start] = 0.0
        for _ in range(v):
            relaxed = np.minimum(dist, np.min(dist[:, None] + matrix, axis=0))
            if np.array_equal(relaxed, dist):
                break
            dist = relaxed
        pred = np.argmin(dist[:, None] + matrix, axis=0)
        pred[start] = -1
        pred[~np.isfinite(dist)] = -1
        return _Solve(points, dist, pred, active)

    def _best_link(
        self, solve: _Solve, goals: np.ndarray, usable: np.ndarray
    ) -> tuple[int, float] | None:
        """The cheapest (waypoint, total cost) whose straight link reaches its goal point."""
        candidates = np.flatnonzero(usable & np.isfinite(solve.dist))
        if len(candidates) == 0:
            return None
        straight = np.hypot(*(goals[candidates] - solve.points[candidates]).T)
        bound = solve.dist[candidates] + straight
        order = candidates[np.argsort(bound, kind="stable")]
        bound_sorted = np.sort(bound, kind="stable")
        best: tuple[int, float] | None = None
        tested = 0
        while tested < len(order):
            if best is not None and bound_sorted[tested] >= best[1]:
                break
            batch = order[tested : tested + _FIRST_GOAL_BATCH]
            if best is not None:
                batch = batch[bound_sorted[tested : tested + len(batch)] < best[1]]
            tested += _FIRST_GOAL_BATCH
            seen = self._visible(solve.points[batch], goals[batch], solve.active)
            if not seen.any():
                continue
            batch = batch[seen]
            totals = solve.dist[batch] + segment_costs(
                self.table, solve.points[batch], goals[batch]
            )
            k = int(np.argmin(totals))
            if best is None or totals[k] < best[1]:
                best = (int(batch[k]), float(totals[k]))
        return best

    def _route_once(
        self, active: frozenset[int], goal: np.ndarray | None, target: int | None
    ) -> Route:
        solve = self._solve(active)
        v = len(solve.points)
        usable = np.ones(v, dtype=bool)
        if target is None:
            goals = np.broadcast_to(goal, (v, 2))
        else:
            centre = self.obstacle_centres[target]
            contact = self.obstacle_reach[target] + self.tol / 2.0
            offset = solve.points - centre
            length = np.hypot(*offset.T)
            usable = length > contact
            safe = np.where(usable, length, 1.0)
            goals = centre + offset * (contact / safe)[:, None]
            usable &= self.legal(goals, skip=(target,))
        best = self._best_link(solve, goals, usable)
        if best is not None:
            node, cost = best
            path = [solve.points[k] for k in solve.node_path(node, self.nav)]
            path.append(goals[node])
            return Route(_dedupe(np.array(path)), cost, True)
        # Unreachable: go to the reachable waypoint nearest to the goal (maybe stay put).
        aim = goal if target is None else self.obstacle_centres[target]
        reachable = np.flatnonzero(np.isfinite(solve.dist))
        gaps = np.hypot(*(solve.points[reachable] - aim).T)
        node = int(reachable[np.argmin(gaps)])
        path = [solve.points[k] for k in solve.node_path(node, self.nav)]
        return Route(_dedupe(np.array(path)), float(solve.dist[node]), False)

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
        target_pos: int | None = None
        active: frozenset[int] = frozenset()
        if target is not None:
            target_pos = int(np.searchsorted(self.obstacle_ids, target))
            active = frozenset({target_pos})
        goal_xy = None if goal is None else np.asarray(goal, dtype=np.float64)
        straight = self._straight(goal_xy, target_pos)
        if straight is not None:
            return straight
        route = self._route_once(active, goal_xy, target_pos)
        for _ in range(_MAX_LAZY_ROUNDS):
            head = truncate(self.table, route.points, allowance)[0]
            hits = set(self.crossed(head)) - active
            if not hits:
                break
            active = active | hits
            route = self._route_once(active, goal_xy, target_pos)
        return route


def _dedupe(points: np.ndarray) -> np.ndarray:
    keep = np.ones(len(points), dtype=bool)
    keep[1:] = np.hypot(*np.diff(points, axis=0).T) > 1e-12
    return points[keep]


def _point_at_cost(table: Table, a: np.ndarray, b: np.ndarray, budget: float) -> np.ndarray:
    """The point of segment ``a -> b`` where the movement cost from ``a`` reaches ``budget``."""
    length = float(np.hypot(*(b - a)))
    if length <= 0.0:
        return a.copy()
    lo, hi = difficult_spans(table, a[None, :], b[None, :])
    spans = [(float(x) * length, float(y) * length) for x, y in zip(lo[0], hi[0]) if y > x]
    spans.sort()
    spent, position = 0.0, 0.0
    for lo, hi in spans:
        if lo > position:  # open ground up to the difficult span
            if spent + (lo - position) >= budget:
                return a + (b - a) * ((position + budget - spent) / length)
            spent += lo - position
            position = lo
        hi = max(hi, position)
        if spent + 2.0 * (hi - position) >= budget:
            return a + (b - a) * ((position + (budget - spent) / 2.0) / length)
        spent += 2.0 * (hi - position)
        position = hi
    return a + (b - a) * (min(length, position + budget - spent) / length)


def truncate(table: Table, points: np.ndarray, allowance: float) -> tuple[np.ndarray, float]:
    """The part of a polyline that an allowance pays for (difficult ground costs double).

    Returns:
        ``(points, cost)``: the truncated polyline (at least the start) and its cost.
    """
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(points) < 2:
        return points[:1].copy(), 0.0
    costs = segment_costs(table, points[:-1], points[1:])
    total = np.cumsum(costs)
    if total[-1] <= allowance + 1e-9:
        return points.copy(), float(total[-1])
    k = int(np.searchsorted(total, allowance, side="right"))
    spent = float(total[k - 1]) if k else 0.0
    end = _point_at_cost(table, points[k], points[k + 1], allowance - spent)
    kept = np.vstack((points[: k + 1], end[None, :]))
    return _dedupe(kept), float(allowance)
