"""Routing one model across the table, around terrain and the other models' bases.

A :class:`Navigator` plans for one moving model on one base layout and reuses work across
goals (a candidate-destination menu asks it for a dozen routes from the same start):

1. Straight line: if the segment to the goal is clear of terrain, bases and difficult
   ground, that is the route (no graph search at all).
2. Terrain route: the start's links to every waypoint and its cheapest costs beyond
   (:class:`~riven_env.table.links.StartReach`, cached per start point) meet the goal's
   links (:class:`~riven_env.table.links.GoalLinks`, cached per goal); both are checked
   lazily, cheapest lower bound first, until the best candidate uses only checked links. The
   route depends on no base but through which goal links end clear of bases, so it is
   remembered by that content for every layout that asks the same.
3. Bases: only the part of the route the allowance pays for must be clear. A base it
   crosses (with every base packed against it) is wrapped in a convex polygon and the
   crossing segment replaced by the shorter way around it that terrain allows.
4. Fallback (a start or goal pressed against bases, bases closing a gap, a charge target
   screened by others): the crossed bases join the graph as obstacles, with waypoints
   around them, and the route is found by lazy shortest paths (links checked only when a
   candidate route uses them).

Navigators themselves are shared by every query on one layout (:func:`navigator`), and
remember the plans asked of them, so listing charges, weighing a move and making it plan
each route once. Plain floats stand in for numpy wherever a step handles a few points;
every such step performs the same IEEE operations as the array code it replaces (numpy's
``hypot`` is asked whenever plain arithmetic cannot settle a comparison), so routes are
bit-for-bit the same.

A route is the cheapest path in this graph (up to the waypoint margin) for impassable
terrain; in difficult ground it may bend only at waypoints, and detours around bases are
local repairs, so it is a close approximation there. Every point of a returned path is a
legal base position: inside the table, not overlapping impassable terrain or another base
by more than the contact tolerance.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import numpy as np
import shapely
from shapely import lib as _geos
from shapely.geometry.polygon import orient

from riven_env.table.bases import Bases
from riven_env.table.config import geometry_config
from riven_env.table.links import (
    GoalLinks,
    StartReach,
    contact_goal,
    contact_spots,
    links_from,
    point_goal,
    start_links,
    start_reach,
)
from riven_env.table.lru import remembered
from riven_env.table.navigation import (
    _HYPOT_MARGIN,
    StaticNav,
    _dedupe,
    hypot_above,
    hypot_at_least,
    in_difficult,
    link_cost,
    link_costs,
    link_costs_alone,
    segment_costs,
    segment_point_distances,
    static_nav,
    total_cost,
    truncate,
)
from riven_env.table.table import Table

_Answer = TypeVar("_Answer")

_MAX_LAZY_ROUNDS = 8  # each round adds every base the route crossed; 8 is far beyond need
_BATCH = 8  # links evaluated per refinement step of the lazy searches


@dataclass(frozen=True)
class Route:
    """A planned route before truncation to an allowance.

    Attributes:
        points: ``(P, 2)`` path points from the start to the end.
        cost: Movement cost of the whole route.
        goal_reached: Whether the route ends at the requested goal (or in contact).
        costs: ``(P - 1,)`` cost of each segment, when the search already knows them
            (otherwise computed on first use).
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


def _route(xy: list[list[float]], costs: list[float], goal_reached: bool) -> Route:
    """A :class:`Route` through points with known segment costs (zero-length hops dropped).

    Plain floats: the hops are the few segments of one route.
    """
    kept_xy, kept_costs = xy[:1], []
    for k in range(1, len(xy)):
        (ax, ay), (bx, by) = xy[k - 1], xy[k]
        if hypot_above(bx - ax, by - ay, 1e-12):
            kept_xy.append(xy[k])
            kept_costs.append(costs[k - 1])
    return Route(np.array(kept_xy), total_cost(kept_costs), goal_reached, np.array(kept_costs))


@dataclass
class _GoalSpec:
    """Where a route may end: one point per waypoint (contact spots differ per approach)."""

    direct: np.ndarray | None  # goal for a straight link from the start (None: unusable)
    points: np.ndarray  # (V, 2) goal point reached from each waypoint
    usable: np.ndarray  # (V,) bool
    aim: np.ndarray  # what "nearest to the goal" means when the goal is unreachable


class _ActiveGraph:
    """Waypoints and exact link costs with some bases blocking (shared across goals).

    The points are the static waypoints, waypoints around each blocking base and the start.
    Every link between them is known exactly. Links that cross a blocking base are cut
    first (those between static waypoints remembered per base), and only the others have
    their terrain checked: links to static waypoints are kept in the cached
    :class:`~riven_env.table.links.StartReach` of each point (a base that stands still keeps
    its ring points, so later queries find them cached). Only the goal's links are left to
    check lazily.

    Attributes:
        active: Obstacle positions (into the navigator's ``obstacle_ids``) that block.
        points: ``(V, 2)`` static waypoints, then ring waypoints, then the start (last).
        start: Index of the start in ``points``.
        matrix: ``(V, V)`` link costs (``inf``: no link).
        usable: ``(V,)`` whether a base may stand at each point.
        dist: ``(V,)`` cheapest costs from the start; ``pred``: predecessors on those routes.
    """

    def __init__(self, navigator: Navigator, active: np.ndarray) -> None:
        nav = navigator.nav
        self.active = active
        centres = navigator.obstacle_centres[active]
        limit = navigator.obstacle_reach[active] - navigator.tol
        # Waypoints on a polygon around each blocking base: its sides clear the base.
        sides = navigator.sides
        spoke = (navigator.obstacle_reach[active] + navigator.margin) / math.cos(math.pi / sides)
        ring = _unit_ring(sides)
        extra = (centres[:, None, :] + spoke[:, None, None] * ring[None, :, :]).reshape(-1, 2)
        extra = extra[navigator.legal(extra)]
        self.points = np.vstack((nav.nodes, extra, navigator.start[None, :]))
        self.start = len(self.points) - 1
        self.matrix, self.usable, self.dist, self.pred = self._links(
            navigator, extra, centres, limit
        )

    def _links(
        self, navigator: Navigator, extra: np.ndarray, centres: np.ndarray, limit: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(matrix, usable, dist, pred)`` for the points."""
        nav = navigator.nav
        table = navigator.table
        n = len(nav.nodes)
        v = len(self.points)
        matrix = np.full((v, v), np.inf)
        matrix[:n, :n] = nav.cost
        if len(nav.edges):
            cut = np.zeros(len(nav.edges), dtype=bool)
            for (x, y), lim in zip(centres.tolist(), limit.tolist(), strict=True):
                cut |= _static_cut(nav, x, y, lim)
            ends = nav.edges[cut]
            matrix[ends[:, 0], ends[:, 1]] = np.inf
            matrix[ends[:, 1], ends[:, 0]] = np.inf
        ok = np.ones(v, dtype=bool)
        if n:
            gaps = np.hypot(*(nav.nodes[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
            ok[:n] = np.all(gaps >= limit, axis=1)
            # A link a blocking base cuts, or one to a waypoint no base may stand on, ends
            # up ``inf`` whatever its terrain: only the others have their terrain checked.
            ends = self.points[n:]
            a, b = np.repeat(ends, n, axis=0), np.tile(nav.nodes, (len(ends), 1))
            needed = ~_cut(a, b, centres, limit).reshape(len(ends), n) & ok[:n]
            links = links_from(nav, table, ends, needed)
            links[~needed] = np.inf
            matrix[n:, :n] = links
            matrix[:n, n:] = links.T
        iu, ju = _pairs(v - n)
        if len(iu):
            a, b = self.points[n + iu], self.points[n + ju]
            keep = ~_cut(a, b, centres, limit)
            cost = np.full(len(iu), np.inf)
            found = link_costs_alone(nav, table, a[keep], b[keep])
            cost[keep] = link_costs(nav, table, a, b)[keep] if found is None else found
            matrix[n + iu, n + ju] = cost
            matrix[n + ju, n + iu] = cost
        matrix[~ok, :] = np.inf
        matrix[:, ~ok] = np.inf
        np.fill_diagonal(matrix, np.inf)  # no self-links: predecessors must not loop
        dist, pred = _relax(matrix, self.start)
        return matrix, ok, dist, pred

    def path_to(self, node: int) -> list[int]:
        """Point indices of the cheapest route from the start to ``node`` (both included)."""
        path = [node]
        while path[-1] != self.start and len(path) <= len(self.points):
            path.append(int(self.pred[path[-1]]))
        path.reverse()
        return path


def _cut(a: np.ndarray, b: np.ndarray, centres: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """Which segments ``a[m] -> b[m]`` pass closer to some centre than its limit."""
    if len(a) == 0:
        return np.zeros(0, dtype=bool)
    return np.any(segment_point_distances(a, b, centres) < limit, axis=1)


def _static_cut(nav: StaticNav, x: float, y: float, limit: float) -> np.ndarray:
    """Which static edges (``nav.edges``) pass closer than ``limit`` to the point (x, y).

    A base that stands still cuts the same edges in every layout, so the map's graph keeps
    the answer by the base's centre and limit (distances do not depend on the batch they
    are computed in, so this equals the one pass over all links it replaces). Only edges
    whose box comes within the limit of the point (and a hair more, far beyond rounding)
    are measured: the point is farther than that from every other edge.
    """

    def build() -> np.ndarray:
        xmin, ymin, xmax, ymax = nav.edge_boxes
        reach = limit * (1.0 + 1e-9) + 1e-9
        near = np.flatnonzero(
            (xmin - reach <= x) & (xmax + reach >= x) & (ymin - reach <= y) & (ymax + reach >= y)
        )
        cut = np.zeros(len(nav.edges), dtype=bool)
        if len(near):
            ends = nav.edges[near]
            a, b = nav.nodes[ends[:, 0]], nav.nodes[ends[:, 1]]
            cut[near] = segment_point_distances(a, b, np.array(((x, y),)))[:, 0] < limit
        cut.flags.writeable = False
        return cut

    limit_entries = geometry_config().cut_entries
    return remembered(nav.cuts, (x, y, limit), build, limit_entries)  # type: ignore[return-value]


@lru_cache(maxsize=64)
def _pairs(count: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.triu_indices(count, k=1)``, read-only and remembered (numpy builds it slowly,
    and a graph only ever has a few counts of ring points)."""
    iu, ju = np.triu_indices(count, k=1)
    iu.flags.writeable = False
    ju.flags.writeable = False
    return iu, ju


@lru_cache(maxsize=8)
def _unit_ring(sides: int) -> np.ndarray:
    """``(sides, 2)`` unit vectors at equal angles from the x axis (read-only)."""
    angles = 2.0 * math.pi * np.arange(sides) / sides
    ring = np.stack((np.cos(angles), np.sin(angles)), axis=1)
    ring.flags.writeable = False
    return ring


def _relax(matrix: np.ndarray, source: int) -> tuple[np.ndarray, np.ndarray]:
    """Single-source cheapest costs on a dense cost matrix (vectorised Bellman-Ford).

    Each round relaxes only the links out of the nodes whose cost fell in the round before
    (a node that did not change cannot improve its neighbours again).

    Returns:
        ``(dist, pred)``: costs from ``source`` and each node's predecessor (``-1`` at the
        source; meaningless where ``dist`` is ``inf``).
    """
    dist = matrix[source].copy()
    dist[source] = 0.0
    frontier = np.flatnonzero(np.isfinite(dist))
    for _ in range(len(dist)):
        if len(frontier) == 0:
            break
        relaxed = np.minimum(dist, np.min(dist[frontier, None] + matrix[frontier], axis=0))
        frontier = np.flatnonzero(relaxed < dist)
        dist = relaxed
    pred = np.argmin(dist[:, None] + matrix, axis=0)
    pred[source] = -1
    return dist, pred


class Navigator:
    """Plans routes for one model on one base layout; reuses work across goals.

    Everything it remembers (the start's links, graphs with blocking bases, the plans in
    :meth:`remember`) is a pure function of the table's geometry and the base layout, so
    one navigator serves every equal layout (see :func:`navigator`).

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
        self._reach: StartReach | None = None
        # Plain floats for the scalar fast paths: the start, and per other base its centre
        # and the squared centre distance below which the mover's base would overlap it.
        self._start_xy = (float(self.start[0]), float(self.start[1]))
        self._obstacles = []
        # Per other base: centre and the centre distance it needs, as ``legal`` tests it.
        self._limits = []
        xs, ys = self.obstacle_centres.T.tolist() if len(others) else ([], [])
        for x, y, reach in zip(xs, ys, self.obstacle_reach.tolist(), strict=True):
            self._obstacles.append((x, y, max(reach - self.tol, 0.0) ** 2))
            self._limits.append((x, y, reach - self.tol))
        self._graphs: dict[frozenset[int], _ActiveGraph] = {}
        self._answers: dict[Hashable, object] = {}
        self._clusters: dict[int, np.ndarray] = {}
        self._chains: list[list[int]] | None = None

    def remember(self, key: Hashable, compute: Callable[[], _Answer]) -> _Answer:
        """The remembered answer to query ``key`` (an immutable plan), or ``compute()``.

        ``key`` must name everything the answer depends on besides the table and the layout.
        """
        if key in self._answers:
            return self._answers[key]  # type: ignore[return-value]
        value = compute()
        if len(self._answers) >= geometry_config().navigator_answer_entries:
            self._answers.clear()  # a pathological caller: start over rather than grow
        self._answers[key] = value
        return value

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
            gaps = self._gaps(points)
            for k in skip:
                gaps[k] = np.inf
            ok &= np.all(gaps >= 0.0, axis=0)
        return ok

    def _gaps(self, points: np.ndarray) -> np.ndarray:
        """``(K, M)``: how far each other base is from overlapping the mover at each point.

        Laid out base by base, so that numpy's inner loops run along the points.
        """
        (cx, cy), limit = self.obstacle_centres.T, self.obstacle_reach - self.tol
        return np.hypot(points[:, 0] - cx[:, None], points[:, 1] - cy[:, None]) - limit[:, None]

    def legal_xy(self, x: float, y: float, skip: int = -1) -> bool:
        """``legal`` of the one point (x, y) on plain floats (``skip``: an obstacle position)."""
        if not self.nav.legal_xy(x, y):
            return False
        for k, (ox, oy, limit) in enumerate(self._limits):
            if k != skip and not hypot_at_least(x - ox, y - oy, limit):
                return False
        return True

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
        flags = self._overlaps(points.tolist(), range(len(self._limits)))
        if flags is None:
            d = segment_point_distances(points[:-1], points[1:], self.obstacle_centres)
            flags = np.any(d < self.obstacle_reach - self.tol, axis=0).tolist()
        return [k for k, hit in enumerate(flags) if hit]

    def _overlaps(self, xy: list[list[float]], members: Iterable[int]) -> list[bool] | None:
        """Per obstacle of ``members``: whether the polyline ``xy`` overlaps its base.

        Exactly ``np.any(segment_point_distances(...) < reach - tol, axis=0)`` on plain
        floats (a few segments and bases: numpy's per-call overhead would dominate). The
        squared distance settles each comparison unless it lies within a relative hair of
        the squared limit; then ``None`` tells the caller to ask numpy.
        """
        flags = []
        for k in members:
            ox, oy, limit = self._limits[k]
            if limit <= 0.0:  # no distance is below it
                flags.append(False)
                continue
            l2 = limit * limit
            below, above = l2 * (1.0 - _HYPOT_MARGIN), l2 * (1.0 + _HYPOT_MARGIN)
            hit = False
            for s in range(len(xy) - 1):
                (ax, ay), (bx, by) = xy[s], xy[s + 1]
                dx, dy = bx - ax, by - ay
                denom = dx * dx + dy * dy
                t = ((ox - ax) * dx + (oy - ay) * dy) / (denom if denom > 0.0 else 1.0)
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                ex, ey = ox - (ax + t * dx), oy - (ay + t * dy)
                d2 = ex * ex + ey * ey
                if d2 < below:
                    hit = True
                    break
                if d2 <= above:
                    return None
            flags.append(hit)
        return flags

    def start_reach(self) -> StartReach:
        """The start's static links and cheapest costs to every waypoint (cached per start)."""
        if self._reach is None:
            self._reach = start_reach(self.nav, self.table, self.start)
        return self._reach

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
            found, ok = contact_spots(centre, contact, origins)
            if ok.any():
                ok[ok] = self.legal(found[ok], skip=(target,))
            return found, ok

        direct, direct_ok = spots(self.start[None, :])
        found, ok = spots(points)
        return _GoalSpec(direct[0] if direct_ok[0] else None, found, ok, centre)

    # -- searches ---------------------------------------------------------------------------
    def _goal_links(
        self, goal: np.ndarray | None, target: int | None
    ) -> tuple[GoalLinks, np.ndarray, np.ndarray | None, np.ndarray]:
        """The goal's cached static links, which of them end clear of bases, the end of a
        straight link from the start (``None``: unusable) and the point to aim at."""
        if target is None:
            point = np.asarray(goal, dtype=np.float64)
            links = point_goal(self.nav, point)
            return links, links.usable, point, point
        centre = self.obstacle_centres[target]
        contact = self.obstacle_reach[target] + self.tol / 2.0
        links = contact_goal(self.nav, centre, contact)
        usable = links.usable.copy()
        if usable.any() and len(self.obstacle_ids) > 1:
            usable[usable] = self._clear_of_bases(links.points[usable], skip=target)
        return links, usable, self._direct_spot(target), centre

    def _direct_spot(self, target: int) -> np.ndarray | None:
        """The contact spot with obstacle ``target`` facing the start, if a base may stand there.

        :func:`~riven_env.table.links.contact_spots` of the start on plain floats.
        """
        cx, cy, _ = self._limits[target]
        contact = float(self.obstacle_reach[target]) + self.tol / 2.0
        sx, sy = self._start_xy
        ox, oy = sx - cx, sy - cy
        length = float(np.hypot(ox, oy))
        if not length > contact:
            return None
        x, y = cx + ox * (contact / length), cy + oy * (contact / length)
        return np.array((x, y)) if self.legal_xy(x, y, skip=target) else None

    def _clear_of_bases(self, points: np.ndarray, skip: int) -> np.ndarray:
        """Whether the mover's base at each point stays clear of the bases (``skip`` aside)."""
        gaps = self._gaps(points)
        gaps[skip] = np.inf
        return np.all(gaps >= 0.0, axis=0)

    def _route_static(self, goal: np.ndarray | None, target: int | None) -> Route:
        """Cheapest route with terrain only (bases not yet in the way), remembered by content.

        It depends on nothing but the start, the goal's links, which of them end clear of
        bases and the end of the straight link: the map's graph keeps recent routes by
        those, for other layouts and queries that ask the same.
        """
        links, usable, direct, aim = self._goal_links(goal, target)
        key = (
            self.start.tobytes(),
            aim.tobytes(),
            None if target is None else (float(self.obstacle_reach[target]), usable.tobytes()),
            None if direct is None else direct.tobytes(),
        )

        def build() -> Route:
            route = self._search_static(links, usable, direct, aim)
            route.points.flags.writeable = False
            if route.costs is not None:
                route.costs.flags.writeable = False
            return route

        limit = geometry_config().static_route_entries
        return remembered(self.nav.routes, key, build, limit)  # type: ignore[return-value]

    def _search_static(
        self, links: GoalLinks, usable: np.ndarray, direct: np.ndarray | None, aim: np.ndarray
    ) -> Route:
        """The search of :meth:`_route_static`.

        Both ends' links are checked lazily: straight lengths stand in for unchecked ones
        (the start's cheapest costs to every waypoint are then lower bounds too), and the
        most promising are checked in batches until the best candidate is exact: its goal
        link checked, and every start link that could lead to it as cheaply.
        """
        nav = self.nav
        best_cost, best_node, direct_costs = math.inf, -1, None
        if direct is not None:
            best_cost = link_cost(nav, self.table, self._start_xy, (direct[0], direct[1]))
            direct_costs = [best_cost]
        first = None
        if len(nav.nodes):
            start = start_links(nav, self.start)
            for _ in range(2 * len(nav.nodes) + 2):  # each round checks a link
                reach, first, via = self._reach_bounds(start)
                known = links.cost
                unknown = np.isnan(known)
                total = reach + np.where(usable, np.where(unknown, links.bound, known), np.inf)
                node = int(np.argmin(total))
                if not total[node] < best_cost - 1e-12:
                    break
                if via is not None:
                    # The cheapest way to ``node`` is exact once no unchecked start link
                    # could match it (ties too: the lowest index wins, as in a full pass).
                    col = via[:, node]
                    pending = np.flatnonzero(np.isnan(start.links) & (col <= reach[node]))
                    if len(pending):
                        open_ = np.flatnonzero(np.isnan(start.links))
                        start.settle(
                            nav, self.table, open_[np.argsort(col[open_], kind="stable")[:_BATCH]]
                        )
                        continue
                if not unknown[node]:
                    best_cost, best_node = float(total[node]), node
                    break
                open_ = np.flatnonzero(unknown & usable)
                links.settle(
                    nav, self.table, open_[np.argsort(total[open_], kind="stable")[:_BATCH]]
                )
        if best_node >= 0:
            return self._static_route(best_node, links, start, first)  # type: ignore[arg-type]
        if direct_costs is not None and math.isfinite(best_cost):
            return _route([list(self._start_xy), direct.tolist()], direct_costs, True)
        return self._static_nearest(aim)

    def _reach_bounds(self, start: StartReach) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``(reach, first, via)``: the start's cheapest costs to every waypoint (exact
        when every link is checked, else lower bounds), the first waypoint of each, and
        the ``(V, V)`` costs via each first waypoint (``None`` when exact)."""
        if start.bound is None:
            return start.reach, start.first, None
        via = np.where(np.isnan(start.links), start.bound, start.links)[:, None] + self.nav.dist
        first = np.argmin(via, axis=0)
        return via[first, np.arange(len(first))], first, via

    def _static_route(
        self, node: int, links: GoalLinks, start: StartReach, first: np.ndarray
    ) -> Route:
        """The route start -> cheapest way to waypoint ``node`` -> the goal's link from it."""
        nav = self.nav
        hops = nav.static_path(int(first[node]), node)
        xy = [list(self._start_xy), *nav.node_xy(hops), links.points[node].tolist()]
        costs = [float(start.links[hops[0]]), *nav.hop_costs(hops), float(links.cost[node])]
        return _route(xy, costs, True)

    def _static_nearest(self, aim: np.ndarray) -> Route:
        """The terrain route to the reachable waypoint nearest to an unreachable goal."""
        nav = self.nav
        if len(nav.nodes) == 0:
            return Route(self.start[None, :].copy(), 0.0, False)
        reach = self.start_reach()
        reachable = np.flatnonzero(np.isfinite(reach.reach))
        if len(reachable) == 0:
            return Route(self.start[None, :].copy(), 0.0, False)
        node = int(reachable[np.argmin(np.hypot(*(nav.nodes[reachable] - aim).T))])
        hops = nav.static_path(int(reach.first[node]), node)
        xy = [list(self._start_xy), *nav.node_xy(hops)]
        return _route(xy, [float(reach.links[hops[0]]), *nav.hop_costs(hops)], False)

    def _graph(self, active: frozenset[int]) -> _ActiveGraph:
        graph = self._graphs.get(active)
        if graph is None:
            graph = _ActiveGraph(self, np.array(sorted(active), dtype=np.int64))
            self._graphs[active] = graph
        return graph

    def _route_active(
        self, active: frozenset[int], goal: np.ndarray | None, target: int | None
    ) -> Route:
        """Cheapest route with the ``active`` bases blocking.

        The graph's costs from the start are exact; the goal's links are checked lazily,
        cheapest lower bound (straight length) first, until the best ending is exact.
        """
        graph = self._graph(active)
        spec = self._goal_spec(graph.points, goal, target)
        usable = spec.usable & graph.usable
        if spec.direct is not None:
            usable[graph.start] = True
            spec.points[graph.start] = spec.direct
        else:
            usable[graph.start] = False
        link = np.where(usable, np.hypot(*(spec.points - graph.points).T), np.inf)
        known = ~usable
        for _ in range(len(link) // _BATCH + 2):
            total = graph.dist + link
            last = int(np.argmin(total))
            if not np.isfinite(total[last]):
                break
            if known[last]:
                path = graph.path_to(last)
                points = np.vstack((graph.points[path], spec.points[last]))
                return Route(_dedupe(points), float(total[last]), True)
            ends = np.flatnonzero(~known & np.isfinite(graph.dist))
            ends = ends[np.argsort(total[ends], kind="stable")[:_BATCH]]
            seen = self.visible(graph.points[ends], spec.points[ends], graph.active)
            cost = np.full(len(ends), np.inf)
            if seen.any():
                cost[seen] = segment_costs(
                    self.table, graph.points[ends][seen], spec.points[ends][seen]
                )
            link[ends] = cost
            known[ends] = True
        return self._nearest_reachable(active, spec)

    def _nearest_reachable(self, active: frozenset[int], spec: _GoalSpec) -> Route:
        """The route to the reachable waypoint nearest to an unreachable goal (or no move)."""
        graph = self._graph(active)
        reachable = np.flatnonzero(np.isfinite(graph.dist))
        if len(reachable) == 0:
            return Route(self.start[None, :].copy(), 0.0, False)
        node = int(reachable[np.argmin(np.hypot(*(graph.points[reachable] - spec.aim).T))])
        points = graph.points[graph.path_to(node)]
        return Route(_dedupe(points), float(graph.dist[node]), False)

    def _straight(self, goal: np.ndarray | None, target: int | None) -> Route | None:
        """The straight route when it is clear of terrain, bases and difficult ground.

        Scalar arithmetic throughout: this runs for every route and usually settles it, and
        for one segment and a dozen bases plain floats beat numpy's per-call overhead.
        """
        sx, sy = self._start_xy
        if target is not None:
            cx, cy, _ = self._obstacles[target]
            dx, dy = sx - cx, sy - cy
            length = math.hypot(dx, dy)
            contact = float(self.obstacle_reach[target]) + self.tol / 2.0
            if length <= contact:
                return None
            gx, gy = cx + dx * contact / length, cy + dy * contact / length
            if not self._spot_clear(gx, gy, target):
                return None
        else:
            gx, gy = float(goal[0]), float(goal[1])  # type: ignore[index]
        length = math.hypot(gx - sx, gy - sy)
        if length <= 1e-12:
            return Route(self.start[None, :].copy(), 0.0, True, np.zeros(0))
        if self._segment_meets_bases(sx, sy, gx, gy):
            return None
        if self.nav.blocks(sx, sy, gx, gy) or in_difficult(self.table, sx, sy, gx, gy):
            return None
        return Route(np.array(((sx, sy), (gx, gy))), length, True, np.array((length,)))

    def _spot_clear(self, x: float, y: float, skip: int) -> bool:
        """Whether the mover's base may stand at (x, y): table, terrain, bases but ``skip``."""
        xmin, ymin, xmax, ymax = self.nav.bounds
        eps = 1e-9
        if not (xmin - eps <= x <= xmax + eps and ymin - eps <= y <= ymax + eps):
            return False
        clearance = self.nav.clearance
        if clearance is not None and _geos.contains_xy(clearance, x, y):
            return False
        for k, (ox, oy, limit2) in enumerate(self._obstacles):
            if k != skip and (x - ox) ** 2 + (y - oy) ** 2 < limit2:
                return False
        return True

    def _legs_clear(self, legs: np.ndarray, members: np.ndarray) -> bool:
        """Whether a polyline keeps the mover's base clear of the bases ``members``."""
        flags = self._overlaps(legs.tolist(), members.tolist())
        if flags is not None:
            return not any(flags)
        d = segment_point_distances(legs[:-1], legs[1:], self.obstacle_centres[members])
        return bool(np.all(d >= self.obstacle_reach[members] - self.tol))

    def _first_crossing(self, points: np.ndarray) -> int:
        """Index of the first segment of a polyline whose base overlaps another, or -1."""
        if not self._obstacles:
            return -1
        coords = points.tolist()
        for k in range(len(coords) - 1):
            (ax, ay), (bx, by) = coords[k], coords[k + 1]
            if self._segment_meets_bases(ax, ay, bx, by):
                return k
        return -1

    def _first_crossed(self, leg: np.ndarray, p: np.ndarray, q: np.ndarray) -> int:
        """The base that the segment ``leg`` overlaps first along ``p -> q``."""
        flags = self._overlaps(leg.tolist(), range(len(self._limits)))
        if flags is None:
            d = segment_point_distances(leg[:1], leg[1:], self.obstacle_centres)
            flags = (d[0] < self.obstacle_reach - self.tol).tolist()
        crossing = [k for k, hit in enumerate(flags) if hit]
        if len(crossing) == 1:
            return crossing[0]
        along = (self.obstacle_centres - p) @ (q - p)
        return crossing[int(np.argmin(along[crossing]))]

    def _segment_meets_bases(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """Whether the mover's base overlaps another base anywhere along ``a -> b``."""
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        for ox, oy, limit2 in self._obstacles:
            t = ((ox - ax) * dx + (oy - ay) * dy) / length2 if length2 > 0.0 else 0.0
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            if (ax + t * dx - ox) ** 2 + (ay + t * dy - oy) ** 2 < limit2:
                return True
        return False

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
        found = self._clusters.get(k)
        if found is None:
            chained = self._chained()
            members = {k}
            frontier = [k]
            while frontier:
                for m in chained[frontier.pop()]:
                    if m not in members:
                        members.add(m)
                        frontier.append(m)
            found = np.array(sorted(members))
            found.flags.writeable = False
            self._clusters[k] = found
        return found

    def _chained(self) -> list[list[int]]:
        """Per obstacle, the obstacles closer to it than the mover can pass (itself included).

        Row ``j`` holds the bases ``m`` with ``hypot(c[m] - c[j]) - reach[m] - reach[j]``
        below twice the margin, each value computed as a per-base pass would.
        """
        if self._chains is None:
            (cx, cy), reach = self.obstacle_centres.T, self.obstacle_reach
            gaps = np.hypot(cx - cx[:, None], cy - cy[:, None]) - reach - reach[:, None]
            rows, cols = np.nonzero(gaps < 2.0 * self.margin)
            self._chains = [[] for _ in range(len(reach))]
            for j, m in zip(rows.tolist(), cols.tolist(), strict=True):
                self._chains[j].append(m)
        return self._chains

    def _wrap(self, cluster: np.ndarray) -> tuple[shapely.Geometry, np.ndarray]:
        """The convex polygon wrapping a cluster of bases, and its corners (remembered).

        Each base is circumscribed by a polygon of twice the base waypoint sides. The wrap
        depends only on the cluster's centres and reaches, so the map's graph keeps it by
        them: a cluster that stands still serves the navigators of later layouts.
        """
        centres, reach = self.obstacle_centres[cluster], self.obstacle_reach[cluster]
        key = (self.sides, self.margin, centres.tobytes(), reach.tobytes())

        def build() -> tuple[shapely.Geometry, np.ndarray]:
            sides = 2 * self.sides
            spoke = (reach + self.margin) / math.cos(math.pi / sides)
            wrap = centres[:, None, :] + spoke[:, None, None] * _unit_ring(sides)
            hull = shapely.convex_hull(shapely.multipoints(wrap.reshape(-1, 2)))
            corners = np.asarray(hull.exterior.coords)[:-1]
            corners.flags.writeable = False
            return hull, corners

        limit = geometry_config().cluster_wrap_entries
        return remembered(self.nav.wraps, key, build, limit)  # type: ignore[return-value]

    def _detour(self, route: Route, allowance: float, target: int | None) -> Route | None:
        """Repair a terrain-only route around the bases its paid-for part crosses.

        The first base crossed (with every base packed against it) is wrapped in a convex
        polygon, and the crossing segment is replaced by the shorter way around that polygon
        that terrain allows. An end touching the cluster (the mover in contact with it, a
        contact spot beside it) joins the nearest corner of the wrap, if that leg is clear.
        ``None`` when a repair fails (the caller then plans with those bases as graph
        obstacles): both ways blocked, or too many rounds. A route to a target that crosses
        the target itself goes around it the same way; :meth:`route` still plans with the
        bases when the repaired route is too long but contact may be within reach.
        """
        points = route.points
        costs = route.segment_costs(self.table)
        for _ in range(_MAX_LAZY_ROUNDS):
            total = float(np.sum(costs))
            head = (
                points if total <= allowance else truncate(self.table, points, allowance, costs)[0]
            )
            seg = self._first_crossing(head)
            if seg < 0:
                return Route(points, total, route.goal_reached, costs)
            p, q = points[seg], points[seg + 1]
            k = self._first_crossed(head[seg : seg + 2], p, q)
            cluster = self._cluster(k)
            hull, corners = self._wrap(cluster)
            p_inside = bool(_geos.intersects_xy(hull, p[0], p[1]))
            q_inside = bool(_geos.intersects_xy(hull, q[0], q[1]))
            ways = _around(corners, p, q, p_inside, q_inside)
            best = None
            for way in ways:
                legs = np.vstack((p, way, q))
                legal = all(self.nav.legal_xy(x, y) for x, y in way.tolist())
                if not (legal and np.all(self.nav.visible(legs[:-1], legs[1:]))):
                    continue
                if (p_inside or q_inside) and not self._legs_clear(legs, cluster):
                    continue  # an end touches the cluster: its leg may cut a base of it
                leg_costs = segment_costs(self.table, legs[:-1], legs[1:])
                if best is None or leg_costs.sum() < best[1].sum():
                    best = (way, leg_costs)
            if best is None:
                return None
            way, leg_costs = best
            points = np.vstack((points[: seg + 1], way, points[seg + 1 :]))
            costs = np.concatenate((costs[:seg], leg_costs, costs[seg + 1 :]))
        return None


def navigator(table: Table, bases: Bases, mover: int) -> Navigator:
    """The :class:`Navigator` of ``mover`` for the bases as they stand (shared).

    Listing charges, weighing them and then making a move all route the same model from
    the same layout, and every game of a playtest opens with the same layouts. The
    navigator (with the plans it remembers) is kept for the layout
    (:meth:`~riven_env.table.layout.Layout.answer`) and, by the layout's content, in a
    small least-recently-used cache of the map's graph, so all of them share it.
    """
    mover = int(mover)
    layout = bases.layout()
    return layout.answer(
        table, ("navigator", mover), lambda: _shared_navigator(table, bases, layout.key, mover)
    )


def _shared_navigator(table: Table, bases: Bases, layout: bytes, mover: int) -> Navigator:
    # Kept per map and base size: the layouts of one decision, and the opening layouts that
    # every game of a playtest repeats (deployment is fixed, so are the first moves).
    cache = static_nav(table, float(bases.radii[mover])).navigators
    limit = geometry_config().navigator_entries
    return remembered(  # type: ignore[return-value]
        cache, (layout, mover), lambda: Navigator(table, bases, mover), limit
    )


def _around(
    polygon: np.ndarray,
    p: np.ndarray,
    q: np.ndarray,
    p_inside: bool = False,
    q_inside: bool = False,
) -> list[np.ndarray]:
    """The two ways from ``p`` to ``q`` around a convex polygon (vertex chains, p and q excluded).

    Both are chains of the convex hull of the polygon with ``p`` and ``q``: one runs
    counter-clockwise from ``p`` to ``q``, the other clockwise. An end inside the polygon
    (a base touching the wrapped cluster) is not on that hull: its chain then begins (or
    ends) at the hull vertex nearest to it, which the caller must check it can reach.
    """
    allpts = np.vstack((polygon, p, q))
    hull = shapely.convex_hull(shapely.multipoints(allpts))
    ring = orient(hull, sign=1.0).exterior.coords[:-1]
    ring = np.asarray(ring)
    ip = int(np.argmin(np.hypot(*(ring - p).T)))
    iq = int(np.argmin(np.hypot(*(ring - q).T)))
    n = len(ring)
    lead = 0 if p_inside else 1
    tail = 1 if q_inside else 0
    forward = [ring[(ip + k) % n] for k in range(lead, (iq - ip) % n + tail)]
    backward = [ring[(ip - k) % n] for k in range(lead, (ip - iq) % n + tail)]
    return [np.array(way).reshape(-1, 2) for way in (forward, backward) if way]
