"""Moves, charges, recoil (push) and flight of one model.

* :func:`plan_move`: the farthest legal point along the cheapest path toward a goal within an
  allowance (difficult ground costs double), optionally stopping in base contact with a model.
* :func:`plan_charge` / :func:`charge_targets`: paths that end in base contact within a reach.
* :func:`plan_push`: straight line directly away from a point; stops at terrain, bases and
  the table edge; costs ignore difficult ground (a recoil is a distance, not a move).
* :func:`plan_flight`: directly toward the nearest table edge; touching the edge leaves the
  table (see its docstring).

Planning never changes ``bases``; apply a plan with ``bases.move_to(i, plan.end)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import lib as _geos

from riven_env.errors import TerrainError
from riven_env.table.bases import Bases
from riven_env.table.config import geometry_config
from riven_env.table.measure import distance_to_nearest_edge, edge_distance
from riven_env.table.navigation import segment_costs, truncate
from riven_env.table.routing import Navigator, navigator
from riven_env.table.table import Table

_GOAL_FIX_ROUNDS = 4  # pushing an illegal goal out of terrain/bases; rarely needs a second round
_STOP_SHORT = 1e-6  # stop this far before a terrain hit so float noise never overlaps it


@dataclass(frozen=True)
class MovePlan:
    """A planned movement (nothing is moved until the caller applies it).

    Attributes:
        start: Where the base centre starts.
        end: Where it ends.
        path: The polyline from ``start`` to ``end`` (at least the start).
        cost: Movement spent (difficult ground counted double; for a push, the distance).
        reached: Whether it ended at the goal (or in base contact with the target).
    """

    start: tuple[float, float]
    end: tuple[float, float]
    path: tuple[tuple[float, float], ...]
    cost: float
    reached: bool

    @property
    def moved(self) -> float:
        """Straight distance from start to end."""
        return math.hypot(self.end[0] - self.start[0], self.end[1] - self.start[1])

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "start": list(self.start),
            "end": list(self.end),
            "path": [list(p) for p in self.path],
            "cost": self.cost,
            "reached": self.reached,
        }


def _as_plan(points: np.ndarray, cost: float, reached: bool) -> MovePlan:
    path = tuple((x, y) for x, y in points.tolist())
    return MovePlan(path[0], path[-1], path, float(cost), bool(reached))


def _stay(bases: Bases, i: int, reached: bool) -> MovePlan:
    return _as_plan(bases.centers[i][None, :].astype(np.float64), 0.0, reached)


def _check_model(bases: Bases, i: int, what: str) -> None:
    if not 0 <= i < len(bases):
        raise TerrainError(f"{what}: model index {i} is not in 0..{len(bases) - 1}")


def _legal_goal(nav: Navigator, goal: np.ndarray) -> np.ndarray | None:
    """``goal`` moved to the nearest legal base position nearby, or ``None`` if that fails."""
    xmin, ymin, xmax, ymax = nav.nav.bounds
    if xmin > xmax or ymin > ymax:
        return None
    point = np.array([min(max(goal[0], xmin), xmax), min(max(goal[1], ymin), ymax)])
    margin = nav.margin
    clearance = nav.nav.clearance
    for _ in range(_GOAL_FIX_ROUNDS):
        if nav.legal_xy(float(point[0]), float(point[1])):
            return point
        if clearance is not None and _geos.contains_xy(clearance, point[0], point[1]):
            line = shapely.shortest_line(clearance.boundary, shapely.Point(point))
            edge = np.asarray(line.coords)[0]
            away = edge - point
            norm = math.hypot(*away)
            if norm > 0:
                point = edge + away / norm * margin
        gaps = np.hypot(*(nav.obstacle_centres - point).T)
        for k in np.flatnonzero(gaps < nav.obstacle_reach - nav.tol):
            away = point - nav.obstacle_centres[k]
            norm = math.hypot(*away) or 1.0
            if norm == 1.0 and not away.any():
                away = np.array([1.0, 0.0])
            point = nav.obstacle_centres[k] + away / norm * (nav.obstacle_reach[k] + margin)
        point = np.array([min(max(point[0], xmin), xmax), min(max(point[1], ymin), ymax)])
    return point if nav.legal_xy(float(point[0]), float(point[1])) else None


def plan_with(
    nav: Navigator,
    bases: Bases,
    goal_xy: Sequence[float] | None,
    allowance: float,
    stop_in_contact_with: int | None = None,
) -> MovePlan:
    """:func:`plan_move` with a prepared :class:`Navigator` (reuse it across goals)."""
    i = nav.mover
    allowance = max(0.0, float(allowance))
    target = stop_in_contact_with
    if target is not None:
        _check_model(bases, target, "stop_in_contact_with")
        if target == i or not bases.on_table[target]:
            return _stay(bases, i, False)
        tol = nav.tol
        if edge_distance(bases, i, target) <= tol:
            return _stay(bases, i, True)
        route = nav.route(allowance, target=target)
        points, cost = route.head(nav.table, allowance)
        return _as_plan(points, cost, route.goal_reached and route.cost <= allowance + 1e-9)
    if goal_xy is None:
        raise TerrainError("plan_move: give a goal point or stop_in_contact_with")
    goal = np.asarray(goal_xy, dtype=np.float64).reshape(2)
    legal = _legal_goal(nav, goal)
    aim = goal if legal is None else legal
    route = nav.route(allowance, goal=aim)
    points, cost = route.head(nav.table, allowance)
    at_goal = (
        legal is not None and abs(legal[0] - goal[0]) <= 1e-9 and abs(legal[1] - goal[1]) <= 1e-9
    )
    return _as_plan(points, cost, at_goal and route.goal_reached and route.cost <= allowance + 1e-9)


def plan_move(
    table: Table,
    bases: Bases,
    i: int,
    goal_xy: Sequence[float] | None,
    allowance: float,
    *,
    stop_in_contact_with: int | None = None,
) -> MovePlan:
    """Plan model ``i``'s move toward a point, or into base contact with a model.

    The model follows the cheapest path (around impassable terrain and every other base,
    difficult ground costing double) and stops where the allowance runs out. A goal that
    is not a legal base position (off the table, in terrain, on a base) is replaced by the
    nearest legal spot; a goal that cannot be reached at all makes the model go as far as
    it can toward the reachable waypoint nearest to it.

    Args:
        table: The table.
        bases: The bases (not changed).
        i: The moving model.
        goal_xy: Destination of the base centre (ignored when ``stop_in_contact_with`` is set).
        allowance: Movement allowance, inches.
        stop_in_contact_with: Model to move into base contact with (a charge path).

    Returns:
        The plan; ``reached`` is True when it ends at the goal (or in contact).
    """
    _check_model(bases, i, "plan_move")
    if not bases.on_table[i]:
        return _stay(bases, i, False)
    if stop_in_contact_with is not None:
        key: tuple[object, ...] = ("contact", int(i), int(stop_in_contact_with), float(allowance))
    elif goal_xy is None:
        raise TerrainError("plan_move: give a goal point or stop_in_contact_with")
    else:
        gx, gy = np.asarray(goal_xy, dtype=np.float64).reshape(2).tolist()
        key = ("goal", int(i), gx, gy, float(allowance))
    nav = navigator(table, bases, i)
    return nav.remember(
        key, lambda: plan_with(nav, bases, goal_xy, allowance, stop_in_contact_with)
    )


def plan_charge(table: Table, bases: Bases, i: int, target: int, reach: float) -> MovePlan | None:
    """A path for model ``i`` into base contact with ``target`` within ``reach``, or ``None``."""
    plan = plan_move(table, bases, i, None, reach, stop_in_contact_with=target)
    return plan if plan.reached else None


def charge_targets(
    table: Table, bases: Bases, i: int, reach: float, enemies: Sequence[int]
) -> list[int]:
    """The enemies model ``i`` could reach base contact with, moving at most ``reach``.

    The answer is remembered for the current base layout (:meth:`Bases.layout`), and every
    charge path planned for it by the model's navigator (:func:`navigator`): the game lists
    charges, an agent weighs them and the charge is then planned again, all from the same
    layout.

    Returns:
        Those of ``enemies`` (in the given order) with a legal charge path.
    """
    _check_model(bases, i, "charge_targets")
    if not bases.on_table[i]:
        return []
    i = int(i)
    reach = float(reach)
    enemies = tuple(int(j) for j in enemies)
    layout = bases.layout()
    return list(
        layout.answer(
            table,
            ("charge_targets", i, reach, enemies),
            lambda: _charge_targets(table, bases, i, reach, enemies),
        )
    )


def _charge_targets(
    table: Table, bases: Bases, i: int, reach: float, enemies: tuple[int, ...]
) -> tuple[int, ...]:
    nav: Navigator | None = None
    found = []
    for j in enemies:
        if j == i or not bases.on_table[j] or edge_distance(bases, i, j) > reach + 1e-9:
            continue
        nav = nav or navigator(table, bases, i)
        plan = nav.remember(
            ("contact", i, j, reach),
            lambda nav=nav, j=j: plan_with(nav, bases, None, reach, stop_in_contact_with=j),
        )
        if plan.reached:
            found.append(j)
    return tuple(found)


def _straight_limit(
    table: Table, bases: Bases, i: int, direction: np.ndarray, distance: float
) -> float:
    """How far model ``i`` can slide along ``direction`` (unit) before terrain, a base or the edge."""
    c = bases.centers[i].astype(np.float64)
    r = float(bases.radii[i])
    limit = float(distance)
    xmin, ymin, xmax, ymax = table.centre_bounds(r)
    for axis, lo, hi in ((0, xmin, xmax), (1, ymin, ymax)):
        step = direction[axis]
        if step > 0:
            limit = min(limit, max(0.0, (hi - c[axis]) / step))
        elif step < 0:
            limit = min(limit, max(0.0, (lo - c[axis]) / step))
    others = bases.others(i)
    if len(others):
        rel = c - bases.centers[others]
        reach = bases.radii[others] + r
        along = rel @ direction
        dist2 = np.einsum("ij,ij->i", rel, rel)
        disc = along**2 - (dist2 - reach**2)
        closing = along < 0
        for k in np.flatnonzero(closing & (disc > 0)):
            if dist2[k] <= reach[k] ** 2:
                limit = 0.0  # already touching and moving into it
                continue
            limit = min(limit, max(0.0, -along[k] - math.sqrt(disc[k])))
    clearance = table.for_radius(r).clearance
    if clearance is not None and limit > 0:
        end = c + direction * limit
        line = shapely.linestrings(np.stack((c, end)))
        if _geos.intersects(clearance, line):
            hit = shapely.get_coordinates(shapely.intersection(line, clearance))
            if len(hit):
                first = float(np.min((hit - c) @ direction))
                limit = min(limit, max(0.0, first - _STOP_SHORT))
    return limit


def plan_push(
    table: Table, bases: Bases, i: int, away_from_xy: Sequence[float], distance: float
) -> MovePlan:
    """Recoil or push model ``i`` straight away from ``away_from_xy`` by up to ``distance``.

    It moves along the line from the point through its centre, never toward the point, and
    stops at impassable terrain, at another base (in contact) or at the table edge (a pushed
    model never leaves the table). Difficult ground does not shorten a push. A point at the
    model's own centre gives no direction: the model stays.

    Returns:
        The plan; ``reached`` is True when it moved the full distance.
    """
    _check_model(bases, i, "plan_push")
    if not bases.on_table[i] or distance <= 0:
        return _stay(bases, i, distance <= 0)
    c = bases.centers[i].astype(np.float64)
    away = c - np.asarray(away_from_xy, dtype=np.float64)
    norm = math.hypot(*away)
    if norm <= 1e-12:
        return _stay(bases, i, False)
    direction = away / norm
    moved = _straight_limit(table, bases, i, direction, float(distance))
    points = np.stack((c, c + direction * moved)) if moved > 0 else c[None, :]
    return _as_plan(points, moved, moved >= distance - 1e-9)


def _edge_goal(table: Table, bases: Bases, i: int) -> tuple[np.ndarray, np.ndarray]:
    """(goal centre touching the nearest edge, unit direction toward that edge)."""
    x, y = bases.center(i)
    r = float(bases.radii[i])
    options = (
        (x, np.array([r, y]), np.array([-1.0, 0.0])),
        (y, np.array([x, r]), np.array([0.0, -1.0])),
        (table.width - x, np.array([table.width - r, y]), np.array([1.0, 0.0])),
        (table.height - y, np.array([x, table.height - r]), np.array([0.0, 1.0])),
    )
    _, goal, direction = min(options, key=lambda option: option[0])
    return goal, direction


def plan_flight(
    table: Table, bases: Bases, i: int, distance: float, *, around: bool = False
) -> tuple[MovePlan, bool]:
    """Model ``i`` flees ``distance`` inches directly toward the nearest table edge.

    By default (RAW, "moves d6+3 inches directly toward the nearest table edge") the model
    runs in a straight line at right angles to its nearest edge (ties: left, bottom, right,
    top) and stops at the first base or impassable terrain in its way. Difficult ground
    costs double, as on any move, so a flight through it covers less ground. With
    ``around`` (a house-rule variant, rules key ``morale.flight_route``) it follows the
    cheapest path to the point straight ahead where its base touches that edge, around
    terrain and bases; a path that would end farther from that edge than the model started
    is replaced by the straight run.

    Either way, a base that touches the table edge anywhere along its flight has left the
    table: the plan ends at the first point where it touches, and ``left_table`` is True
    (the caller removes the model). So a flight never ends farther from the nearest edge
    than it began, and with a clear lane it uses its whole distance or leaves the table.

    Returns:
        ``(plan, left_table)``.

    Raises:
        TerrainError: ``i`` is not a model index.
    """
    _check_model(bases, i, "plan_flight")
    if not bases.on_table[i]:
        return _stay(bases, i, False), False
    tol = geometry_config().contact_tolerance
    before = distance_to_nearest_edge(table, bases, i)
    if before <= tol:
        return _stay(bases, i, True), True
    goal, direction = _edge_goal(table, bases, i)
    r = float(bases.radii[i])
    if around:
        plan = plan_move(table, bases, i, goal, distance)
        # Never farther from the edge it flees toward (nor, then, from its nearest edge):
        # the goal touches that edge, so the gap left is the way to the goal along it.
        gap = float((goal - np.asarray(plan.end)) @ direction)
        if gap <= before + 1e-9:
            return _left_at_edge(table, plan, r, tol)
    moved = _straight_limit(table, bases, i, direction, math.inf)
    c = bases.centers[i].astype(np.float64)
    run = np.stack((c, c + direction * moved))
    points, cost = truncate(table, run, float(distance))
    return _left_at_edge(table, _as_plan(points, cost, False), r, tol)


def _left_at_edge(table: Table, plan: MovePlan, r: float, tol: float) -> tuple[MovePlan, bool]:
    """``plan`` cut at the first point where a base of radius ``r`` touches the table edge.

    Returns:
        ``(plan, left_table)``; ``reached`` is True when the base touched the edge.
    """
    path = plan.path
    bounds = (0.0, 0.0, table.width, table.height)

    def gaps(p: tuple[float, float]) -> tuple[float, ...]:
        # Gap from the base edge to the left, bottom, right and top table edges.
        return (p[0] - r, p[1] - r, bounds[2] - p[0] - r, bounds[3] - p[1] - r)

    for k in range(1, len(path)):
        a, b = path[k - 1], path[k]
        ga, gb = gaps(a), gaps(b)
        if min(gb) > tol:
            continue
        # Each gap is linear along the segment. The base leaves where it meets the edge
        # (gap 0), or at the segment's end when that end is only within the tolerance.
        t = min(
            (g0 - max(g1, 0.0)) / (g0 - g1) if g0 > max(g1, 0.0) else 0.0
            for g0, g1 in zip(ga, gb, strict=True)
            if g1 <= tol
        )
        t = min(1.0, max(0.0, t))
        end = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        points = np.array([*path[:k], end], dtype=np.float64)
        if len(points) > 1 and math.hypot(*(points[-1] - points[-2])) <= 1e-12:
            points = points[:-1]
        cost = (
            float(segment_costs(table, points[:-1], points[1:]).sum()) if len(points) > 1 else 0.0
        )
        return _as_plan(points, min(cost, plan.cost), True), True
    return MovePlan(plan.start, plan.end, plan.path, plan.cost, False), False
