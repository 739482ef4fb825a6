"""The tabletop's dynamic queries on the native core (``riven_env._native.TableGeometry``).

shapely and networkx stay the geometry of record: the Python engine validates the table and
prepares its static geometry (terrain unions, the pieces grown per base radius, the cover
lookup grid). :class:`NativeTable` hands that prepared geometry to the core as arrays once per
table (and once per base radius), and then answers the queries that depend on where the bases
stand, with the same answers as the Python functions they mirror:

* sight: :func:`riven_env.table.sight.line_of_sight`, ``cover_for_shot``, ``sight``,
  ``sight_between``;
* measurement: :mod:`riven_env.table.measure`'s ``edge_distance``, ``in_contact``,
  ``contacts``, ``engagements``, ``nearest``, ``models_within``;
* destinations: :func:`riven_env.table.destinations.destination_options` (the moves the game
  lists, without routing);
* straight moves: :func:`riven_env.table.movement.plan_push` (recoil) and ``plan_flight``
  (the RAW straight flight), and :func:`riven_env.table.navigation.segment_costs` for one
  segment.

* routing (:mod:`riven_env.table.routing`'s ``Navigator.route``): :meth:`NativeTable.route`
  and ``route_length``, :func:`riven_env.table.movement.plan_move`, ``plan_charge``,
  ``charge_targets``, ``plan_flight(around=True)``, and
  :func:`riven_env.table.destinations.plan_destination` and ``candidate_destinations``. The static visibility graph
  (:class:`~riven_env.table.navigation.StaticNav`: waypoints, edge costs, all-pairs costs and
  next hops) and the cover spots stay Python's; they cross once per base radius.

* the full menu with planned paths:
  :func:`riven_env.table.destinations.candidate_destinations`.

``docs/tabletop.md`` ("Native core") lists the near-ties where an answer may differ from the
Python engine's; ``tests/test_native_table*.py`` prove the rest. Nothing here is wired into
the game loop.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
import shapely

from riven_env.errors import TerrainError
from riven_env.native import load
from riven_env.table.bases import Bases
from riven_env.table.config import COVER_LEVELS, Cover, geometry_config
from riven_env.table.destinations import DESTINATION_KINDS, Destination, _cover_spots
from riven_env.table.lru import remembered
from riven_env.table.movement import MovePlan
from riven_env.table.navigation import static_nav
from riven_env.table.routing import Route, _unit_ring
from riven_env.table.table import _COVER_GRID_CELL, RadiusGeometry, Table

__all__ = [
    "NativeTable",
    "contacts",
    "edge_distance",
    "engagements",
    "in_contact",
    "models_within",
    "native_table",
    "nearest",
]

ShapeSpec = tuple[list[float], list[int]]
"""A polygon or multipolygon as the core takes it: flat ``x, y`` coordinates of every ring
(exteriors and holes, each closed as GEOS stores it) and the point count at each ring's end."""

_NATIVE: OrderedDict[tuple[Any, ...], NativeTable] = OrderedDict()


def shape_spec(geometry: shapely.Geometry | None) -> ShapeSpec:
    """The rings of a polygon or multipolygon in the core's form (empty for ``None``)."""
    coords: list[float] = []
    ends: list[int] = []
    if geometry is None or geometry.is_empty:
        return coords, ends
    count = 0
    for polygon in shapely.get_parts(geometry).tolist():
        for ring in (polygon.exterior, *polygon.interiors):
            xy = np.asarray(ring.coords, dtype=np.float64)[:, :2]
            coords.extend(xy.reshape(-1).tolist())
            count += len(xy)
            ends.append(count)
    return coords, ends


def _cover_grid(geometry: RadiusGeometry) -> tuple[int, int, list[int], list[int]]:
    """The cover lookup grid flattened: ``(cols, rows, starts, ids)``, cell ``cx * rows + cy``."""
    grid = geometry.cover_grid
    cols, rows = len(grid), len(grid[0])
    starts, ids = [0], []
    for column in grid:
        for cell in column:
            ids.extend(cell)
            starts.append(len(ids))
    return cols, rows, starts, ids


def _plan(found: tuple[list[tuple[float, float]], float, bool]) -> MovePlan:
    path, cost, reached = found
    points = tuple((float(x), float(y)) for x, y in path)
    return MovePlan(points[0], points[-1], points, float(cost), bool(reached))


def _check_model(bases: Bases, i: int, what: str) -> None:
    if not 0 <= i < len(bases):
        raise TerrainError(f"{what}: model index {i} is not in 0..{len(bases) - 1}")


class NativeTable:
    """A :class:`~riven_env.table.table.Table`'s prepared geometry in the core, and its queries.

    Build it with :func:`native_table` (one per map, shared like the Python derived geometry).
    Base radii are registered on first use (:meth:`ensure_radius`), from the Python
    ``table.for_radius`` geometry, so both engines test the very same polygons.
    """

    def __init__(self, table: Table) -> None:
        cfg = geometry_config()
        pieces = table.pieces
        self.table = table
        self.core = load().TableGeometry(
            table.width,
            table.height,
            cfg.contact_tolerance,
            cfg.cover_behind_distance,
            _COVER_GRID_CELL,
            cfg.min_move,
            [shape_spec(p.polygon) for p in pieces],
            list(table.cover_ranks),
            [p.blocks_los for p in pieces],
            [p.difficult for p in pieces],
            [p.impassable for p in pieces],
            shape_spec(table.los_solid),
            shape_spec(table.los_area),
            shape_spec(table.difficult),
        )
        self._radii: set[float] = set()
        self._geometries: dict[int, int] = {}  # id of a RadiusGeometry -> its index in the core
        self._held: list[RadiusGeometry] = []  # keeps those ids from being reused
        self._navs: set[float] = set()  # radii whose visibility graph the core holds
        self._nav_indices: set[int] = set()
        sides = cfg.base_waypoint_sides
        self.core.set_routing(
            cfg.waypoint_margin,
            sides,
            np.ascontiguousarray(_unit_ring(sides)),
            np.ascontiguousarray(_unit_ring(2 * sides)),
            cfg.cover_max_candidates,
            cfg.distinct_distance,
        )

    def ensure_radius(self, radius: float) -> None:
        """Register the geometry for bases of ``radius`` (Python's ``table.for_radius``)."""
        radius = float(radius)
        if radius in self._radii:
            return
        geometry = self.table.for_radius(radius)
        index = self._geometries.get(id(geometry))
        if index is None:
            cols, rows, starts, ids = _cover_grid(geometry)
            index = self.core.add_radius(
                geometry.radius,
                None if geometry.clearance is None else shape_spec(geometry.clearance),
                [shape_spec(g) for g in geometry.inside],
                [shape_spec(g) for g in geometry.touching],
                cols,
                rows,
                starts,
                ids,
            )
            self._geometries[id(geometry)] = index
            self._held.append(geometry)
        self.core.alias_radius(radius, index)
        self._radii.add(radius)

    def ensure_nav(self, radius: float) -> None:
        """Register the static visibility graph and cover spots for bases of ``radius``.

        Python's :func:`~riven_env.table.navigation.static_nav` (built with shapely and
        networkx on first use) and ``destinations._cover_spots``, handed over as arrays once
        per geometry; routing queries call this for the mover's radius.
        """
        radius = float(radius)
        if radius in self._navs:
            return
        self.ensure_radius(radius)
        index = self._geometries[id(self.table.for_radius(radius))]
        if index not in self._nav_indices:
            nav = static_nav(self.table, radius)
            # _cover_spots reads only the radius and the static graph of a navigator (and
            # keeps its answer per geometry, as the Python engine does).
            spots = _cover_spots(self.table, SimpleNamespace(radius=radius, nav=nav))  # type: ignore[arg-type]
            n = len(nav.nodes)
            self.core.set_nav(
                index,
                np.ascontiguousarray(nav.nodes, dtype=np.float64).reshape(n, 2),
                np.ascontiguousarray(nav.cost, dtype=np.float64).reshape(n, n),
                np.ascontiguousarray(nav.dist, dtype=np.float64).reshape(n, n),
                np.ascontiguousarray(nav.next_hop, dtype=np.int64).reshape(n, n),
                np.ascontiguousarray(nav.edges, dtype=np.int64).reshape(-1, 2),
                tuple(float(v) for v in nav.bounds),
                np.ascontiguousarray(spots, dtype=np.float64).reshape(-1, 2),
            )
            self._nav_indices.add(index)
        self._navs.add(radius)

    def _mover(self, bases: Bases, i: int, what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        _check_model(bases, i, what)
        arrays = self._bases(bases)
        radius = float(bases.radii[i])
        if radius not in self._navs:
            self.ensure_nav(radius)
        return arrays

    def _bases(self, bases: Bases) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        for radius in bases.radii.tolist():
            if radius not in self._radii:
                self.ensure_radius(radius)
        return (
            np.ascontiguousarray(bases.centers, dtype=np.float64),
            np.ascontiguousarray(bases.radii, dtype=np.float64),
            np.ascontiguousarray(bases.on_table, dtype=bool),
        )

    # -- sight --------------------------------------------------------------------------------
    def line_of_sight(
        self,
        a_xy: Sequence[float],
        b_xy: Sequence[float],
        *,
        a_radius: float = 0.0,
        b_radius: float = 0.0,
    ) -> bool:
        """:func:`riven_env.table.sight.line_of_sight` on the core."""
        # The binding converts the numbers (floats, numpy floats, ints); the wrapper only
        # makes sure both radii have their geometry in the core.
        radii = self._radii
        if a_radius not in radii or b_radius not in radii:
            self.ensure_radius(a_radius)
            self.ensure_radius(b_radius)
        return self.core.line_of_sight(a_xy[0], a_xy[1], a_radius, b_xy[0], b_xy[1], b_radius)

    def cover_for_shot(
        self,
        shooter_xy: Sequence[float],
        shooter_radius: float,
        target_xy: Sequence[float],
        target_radius: float,
    ) -> Cover:
        """:func:`riven_env.table.sight.cover_for_shot` on the core."""
        radii = self._radii
        if shooter_radius not in radii or target_radius not in radii:
            self.ensure_radius(shooter_radius)
            self.ensure_radius(target_radius)
        rank = self.core.cover_for_shot(
            shooter_xy[0], shooter_xy[1], shooter_radius, target_xy[0], target_xy[1], target_radius
        )
        return COVER_LEVELS[rank]

    def sight_between(
        self, sx: float, sy: float, sr: float, tx: float, ty: float, tr: float
    ) -> tuple[bool, Cover]:
        """:func:`riven_env.table.sight.sight_between` on the core (which remembers recent
        answers per thread, keyed by this table and the two bases)."""
        radii = self._radii
        if sr not in radii or tr not in radii:
            self.ensure_radius(sr)
            self.ensure_radius(tr)
        visible, rank = self.core.sight_between(sx, sy, sr, tx, ty, tr)
        return visible, COVER_LEVELS[rank]

    def sight(self, bases: Bases, shooter: int, target: int) -> tuple[bool, Cover]:
        """:func:`riven_env.table.sight.sight` on the core."""
        if not (bases.on_table[shooter] and bases.on_table[target]):
            return False, "none"
        sx, sy = bases.center(shooter)
        tx, ty = bases.center(target)
        return self.sight_between(
            sx, sy, float(bases.radii[shooter]), tx, ty, float(bases.radii[target])
        )

    def sight_matrix(self, bases: Bases) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`sight` for every ordered pair of models in one call.

        Returns:
            ``(visible, cover)``: ``(N, N)`` bool flags and int8 cover ranks (0 none, 1 soft,
            2 hard; ``COVER_LEVELS[rank]`` names them), row the shooter, column the target;
            ``False`` and 0 where either model is off the table.
        """
        centers, radii, on_table = self._bases(bases)
        n = len(radii)
        visible = np.zeros((n, n), dtype=bool)
        cover = np.zeros((n, n), dtype=np.uint8)
        self.core.sight_matrix(centers, radii, on_table, visible, cover)
        return visible, cover.astype(np.int8)

    # -- destinations -------------------------------------------------------------------------
    def destination_options(
        self,
        bases: Bases,
        i: int,
        *,
        enemies: Sequence[int],
        friends: Sequence[int],
        objectives: Sequence[tuple[float, float]],
    ) -> list[tuple[str, int | None]]:
        """:func:`riven_env.table.destinations.destination_options` on the core."""
        _check_model(bases, i, "destination_options")
        centers, radii, on_table = self._bases(bases)
        found = self.core.destination_options(
            centers,
            radii,
            on_table,
            int(i),
            np.ascontiguousarray(enemies, dtype=np.int64).reshape(-1),
            np.ascontiguousarray(friends, dtype=np.int64).reshape(-1),
            np.ascontiguousarray(objectives, dtype=np.float64).reshape(-1, 2),
        )
        return [(DESTINATION_KINDS[kind], ref) for kind, ref in found]

    # -- straight moves -----------------------------------------------------------------------
    def segment_cost(self, a: Sequence[float], b: Sequence[float]) -> float:
        """:func:`riven_env.table.navigation.segment_costs` of the one segment ``a -> b``."""
        return float(self.core.segment_cost(float(a[0]), float(a[1]), float(b[0]), float(b[1])))

    def plan_push(
        self, bases: Bases, i: int, away_from_xy: Sequence[float], distance: float
    ) -> MovePlan:
        """:func:`riven_env.table.movement.plan_push` (recoil) on the core."""
        _check_model(bases, i, "plan_push")
        centers, radii, on_table = self._bases(bases)
        return _plan(
            self.core.plan_push(
                centers,
                radii,
                on_table,
                int(i),
                float(away_from_xy[0]),
                float(away_from_xy[1]),
                float(distance),
            )
        )

    def plan_flight(
        self, bases: Bases, i: int, distance: float, *, around: bool = False
    ) -> tuple[MovePlan, bool]:
        """:func:`riven_env.table.movement.plan_flight` on the core (RAW straight, or ``around``).

        Raises:
            TerrainError: ``i`` is not a model index.
        """
        _check_model(bases, i, "plan_flight")
        if around:
            found, left = self.core.plan_flight_around(
                *self._mover(bases, i, "plan_flight"), int(i), float(distance)
            )
            return _plan(found), bool(left)
        centers, radii, on_table = self._bases(bases)
        found, left = self.core.plan_flight(centers, radii, on_table, int(i), float(distance))
        return _plan(found), bool(left)

    # -- routing ----------------------------------------------------------------------------------
    def route(
        self,
        bases: Bases,
        i: int,
        allowance: float,
        *,
        goal: Sequence[float] | None = None,
        target: int | None = None,
    ) -> Route:
        """``routing.navigator(table, bases, i).route(allowance, goal=..., target=...)`` on the core.

        Raises:
            TerrainError: ``i`` is not a model index, neither or both of ``goal`` and
                ``target`` are given, or ``target`` is the mover or off the table.
        """
        arrays = self._mover(bases, i, "route")
        if (goal is None) == (target is None):
            raise TerrainError("route: give exactly one of goal and target")
        if target is not None:
            _check_model(bases, int(target), "route target")
            if int(target) == int(i) or not bases.on_table[target]:
                raise TerrainError(f"route: target {target} is the mover or off the table")
        xy = None if goal is None else (float(goal[0]), float(goal[1]))
        points, cost, reached, costs = self.core.route(
            *arrays, int(i), float(allowance), xy, None if target is None else int(target)
        )
        return Route(
            np.array(points, dtype=np.float64).reshape(-1, 2),
            float(cost),
            bool(reached),
            None if costs is None else np.array(costs, dtype=np.float64),
        )

    def route_length(
        self,
        bases: Bases,
        i: int,
        allowance: float,
        *,
        goal: Sequence[float] | None = None,
        target: int | None = None,
    ) -> float:
        """The cost of :meth:`route` (the whole route, not truncated to ``allowance``)."""
        return self.route(bases, i, allowance, goal=goal, target=target).cost

    def plan_move(
        self,
        bases: Bases,
        i: int,
        goal_xy: Sequence[float] | None,
        allowance: float,
        *,
        stop_in_contact_with: int | None = None,
    ) -> MovePlan:
        """:func:`riven_env.table.movement.plan_move` on the core."""
        arrays = self._mover(bases, i, "plan_move")
        target = stop_in_contact_with
        if target is not None:
            _check_model(bases, int(target), "stop_in_contact_with")
        elif goal_xy is None:
            raise TerrainError("plan_move: give a goal point or stop_in_contact_with")
        xy = None if goal_xy is None else (float(goal_xy[0]), float(goal_xy[1]))
        return _plan(
            self.core.plan_move(
                *arrays, int(i), xy, float(allowance), None if target is None else int(target)
            )
        )

    def plan_charge(self, bases: Bases, i: int, target: int, reach: float) -> MovePlan | None:
        """:func:`riven_env.table.movement.plan_charge` on the core."""
        arrays = self._mover(bases, i, "plan_charge")
        _check_model(bases, int(target), "stop_in_contact_with")
        found = self.core.plan_charge(*arrays, int(i), int(target), float(reach))
        return None if found is None else _plan(found)

    def charge_targets(
        self, bases: Bases, i: int, reach: float, enemies: Sequence[int]
    ) -> list[int]:
        """:func:`riven_env.table.movement.charge_targets` on the core."""
        arrays = self._mover(bases, i, "charge_targets")
        indices = np.ascontiguousarray(enemies, dtype=np.int64).reshape(-1)
        if len(indices) and (indices.min() < 0 or indices.max() >= len(bases)):
            raise TerrainError(
                f"charge_targets: enemies {list(enemies)} not all in 0..{len(bases) - 1}"
            )
        return [int(j) for j in self.core.charge_targets(*arrays, int(i), float(reach), indices)]

    def plan_destination(
        self,
        bases: Bases,
        i: int,
        allowance: float,
        kind: str,
        ref: int | None,
        *,
        objectives: Sequence[tuple[float, float]],
        enemy_gap: float | None = None,
    ) -> Destination | None:
        """:func:`riven_env.table.destinations.plan_destination` on the core."""
        if kind not in DESTINATION_KINDS:
            raise ValueError(
                f"unknown destination kind {kind!r}; known: {', '.join(DESTINATION_KINDS)}"
            )
        arrays = self._mover(bases, i, "plan_destination")
        gap = geometry_config().enemy_gap if enemy_gap is None else float(enemy_gap)
        found = self.core.plan_destination(
            *arrays,
            int(i),
            float(allowance),
            DESTINATION_KINDS.index(kind),
            -1 if ref is None else int(ref),
            np.ascontiguousarray(objectives, dtype=np.float64).reshape(-1, 2),
            gap,
        )
        if found is None:
            return None
        _, found_ref, point, cost, label, path, reached = found
        return Destination(
            kind,
            None if ref is None else int(found_ref),
            (float(point[0]), float(point[1])),
            float(cost),
            label,
            tuple((float(x), float(y)) for x, y in path),
            bool(reached),
        )

    def candidate_destinations(
        self,
        bases: Bases,
        i: int,
        allowance: float,
        *,
        enemies: Sequence[int],
        friends: Sequence[int],
        objectives: Sequence[tuple[float, float]],
        enemy_gap: float | None = None,
    ) -> list[Destination]:
        """:func:`riven_env.table.destinations.candidate_destinations` on the core."""
        arrays = self._mover(bases, i, "candidate_destinations")
        gap = geometry_config().enemy_gap if enemy_gap is None else float(enemy_gap)
        found = self.core.candidate_destinations(
            *arrays,
            int(i),
            float(allowance),
            np.ascontiguousarray(enemies, dtype=np.int64).reshape(-1),
            np.ascontiguousarray(friends, dtype=np.int64).reshape(-1),
            np.ascontiguousarray(objectives, dtype=np.float64).reshape(-1, 2),
            gap,
        )
        return [
            Destination(
                DESTINATION_KINDS[kind],
                int(ref),
                (float(point[0]), float(point[1])),
                float(cost),
                label,
                tuple((float(x), float(y)) for x, y in path),
                bool(reached),
            )
            for kind, ref, point, cost, label, path, reached in found
        ]


def native_table(table: Table) -> NativeTable:
    """The core's copy of ``table``'s geometry, built once per map (by size and pieces)."""
    return remembered(
        _NATIVE,
        (table.width, table.height, table.pieces),
        lambda: NativeTable(table),
        geometry_config().shared_tables,
    )


# -- measurement (no terrain) -------------------------------------------------------------------
def _arrays(bases: Bases) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.ascontiguousarray(bases.centers, dtype=np.float64),
        np.ascontiguousarray(bases.radii, dtype=np.float64),
        np.ascontiguousarray(bases.on_table, dtype=bool),
    )


def _index(bases: Bases, i: int, what: str) -> int:
    i = int(i)
    _check_model(bases, i, what)
    return i


def edge_distance(bases: Bases, i: int, j: int) -> float:
    """:func:`riven_env.table.measure.edge_distance` on the core."""
    i, j = _index(bases, i, "edge_distance"), _index(bases, j, "edge_distance")
    return float(load().edge_distance(*_arrays(bases), i, j))


def in_contact(bases: Bases, i: int, j: int, tol: float | None = None) -> bool:
    """:func:`riven_env.table.measure.in_contact` on the core."""
    tol = geometry_config().contact_tolerance if tol is None else float(tol)
    return int(i) != int(j) and edge_distance(bases, i, j) <= tol


def contacts(bases: Bases, i: int, tol: float | None = None) -> list[int]:
    """:func:`riven_env.table.measure.contacts` on the core."""
    tol = geometry_config().contact_tolerance if tol is None else float(tol)
    return list(load().contacts(*_arrays(bases), _index(bases, i, "contacts"), tol))


def engagements(bases: Bases, tol: float | None = None) -> list[tuple[int, int]]:
    """:func:`riven_env.table.measure.engagements` on the core."""
    tol = geometry_config().contact_tolerance if tol is None else float(tol)
    return [(int(i), int(j)) for i, j in load().engagements(*_arrays(bases), tol)]


def nearest(bases: Bases, i: int, candidates: Sequence[int]) -> int | None:
    """:func:`riven_env.table.measure.nearest` on the core."""
    indices = np.ascontiguousarray(candidates, dtype=np.int64).reshape(-1)
    if len(indices) and (indices.min() < 0 or indices.max() >= len(bases)):
        raise TerrainError(f"nearest: candidates {list(candidates)} not all in 0..{len(bases) - 1}")
    found = load().nearest(*_arrays(bases), _index(bases, i, "nearest"), indices)
    return None if found is None else int(found)


def models_within(bases: Bases, point_or_index: int | Sequence[float], r: float) -> list[int]:
    """:func:`riven_env.table.measure.models_within` on the core."""
    if isinstance(point_or_index, (int, np.integer)):
        i = _index(bases, int(point_or_index), "models_within")
        return list(load().models_within_model(*_arrays(bases), i, float(r)))
    x, y = float(point_or_index[0]), float(point_or_index[1])
    return list(load().models_within_point(*_arrays(bases), x, y, float(r)))
