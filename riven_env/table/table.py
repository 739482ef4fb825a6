"""The :class:`Table`: size, terrain pieces and the static geometry derived from them.

A table is immutable and shared by every copy of a game. Its static geometry (unions of
line-blocking, impassable and difficult terrain, prepared for fast predicates) and the
per-base-radius geometry built lazily on first use (clearance shapes, the cover lookup grid,
the navigation graph and its route caches, see :mod:`riven_env.table.navigation`) are kept
in a process-wide cache keyed by size and pieces: every equal table (the next game of the
same scenario, an unpickled copy) shares them. They are never pickled.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from riven_env.errors import TerrainError
from riven_env.files import limit
from riven_env.table.config import COVER_LEVELS, geometry_config
from riven_env.table.lru import remembered
from riven_env.table.terrain import TerrainPiece, clearance_shape, parse_piece

TABLE_KEYS = frozenset({"width", "height", "terrain", "name"})
"""Every key a table spec may hold."""

_COVER_GRID_CELL = 0.5  # inches; the cover lookup grid trades memory for one dict lookup
_RADIUS_ENTRIES = 64  # radii remembered for Table.for_radius's lookup without rounding

Box = tuple[float, float, float, float]
"""A bounding box ``(xmin, ymin, xmax, ymax)`` as plain floats."""

Outline = tuple[Box, tuple[tuple[tuple[float, float], ...], ...]]
"""A polygon for plain-float pre-tests: its box and its rings (exterior and holes, each a
closed tuple of ``(x, y)`` vertices, last equal to first), in the polygon's own coordinates."""


def _prepared(geometries: Sequence[BaseGeometry]) -> BaseGeometry | None:
    """The union of ``geometries``, prepared for fast predicates; ``None`` when empty."""
    if not geometries:
        return None
    union = shapely.union_all(list(geometries))
    shapely.prepare(union)
    return union


def _boxes(geometries: Sequence[BaseGeometry]) -> tuple[Box, ...]:
    """The bounding box of each geometry, as plain floats."""
    return tuple(tuple(shapely.bounds(g).tolist()) for g in geometries)  # type: ignore[misc]


def _outline(geometry: BaseGeometry) -> Outline:
    """The :data:`Outline` of a polygon or multipolygon."""
    rings = [
        tuple(map(tuple, np.asarray(ring.coords)[:, :2].tolist()))
        for polygon in shapely.get_parts(geometry).tolist()
        for ring in (polygon.exterior, *polygon.interiors)
    ]
    return _boxes([geometry])[0], tuple(rings)  # type: ignore[return-value]


def _part_outlines(union: BaseGeometry | None) -> tuple[Outline, ...]:
    """The :data:`Outline` of each polygon of ``union`` (none when it is ``None``)."""
    return () if union is None else tuple(map(_outline, shapely.get_parts(union).tolist()))


def _outline_edges(polygons: Sequence[BaseGeometry]) -> tuple[np.ndarray, np.ndarray]:
    """Start and end points ``(E, 2)`` of every outline edge (exteriors and holes)."""
    starts, ends = [], []
    for polygon in polygons:
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.asarray(ring.coords)
            starts.append(coords[:-1])
            ends.append(coords[1:])
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(starts), np.concatenate(ends)


class RadiusGeometry:
    """Static geometry for bases of one radius (built once per table and radius).

    Attributes:
        radius: Base radius, inches.
        clearance: Impassable terrain grown by the radius, its outline between
            ``radius - contact_tolerance`` and ``radius`` out (prepared), or ``None``: a base
            centre outside it overlaps impassable terrain by at most the tolerance.
        inside: Per piece, the piece grown by ``radius - contact_tolerance`` (prepared):
            a centre inside it means the base overlaps the piece ("is in" it).
        inside_boxes: The bounding box of each ``inside`` shape.
        touching: Per piece, the piece grown by ``radius + contact_tolerance`` (prepared):
            a centre inside it means the base touches or overlaps the piece.
        touching_boxes: The bounding box of each ``touching`` shape.
        cover_grid: For each 0.5" cell, the cover pieces within ``radius`` plus the cover
            behind-distance of some point of the cell (candidates for a target there).
    """

    def __init__(self, table: Table, radius: float) -> None:
        cfg = geometry_config()
        tol = cfg.contact_tolerance
        self.radius = radius
        impassable = [p.polygon for p in table.pieces if p.impassable]
        grown = [clearance_shape(poly, radius, tol) for poly in impassable]
        self.clearance = _prepared(grown)
        self.inside: tuple[BaseGeometry, ...] = tuple(
            clearance_shape(p.polygon, radius - tol, tol) for p in table.pieces
        )
        self.touching: tuple[BaseGeometry, ...] = tuple(
            clearance_shape(p.polygon, radius + tol, tol) for p in table.pieces
        )
        for geometry in (*self.inside, *self.touching):
            shapely.prepare(geometry)
        # Plain-float boxes let sight and cover queries skip the GEOS call for a centre
        # outside the box (the answer is then False for certain).
        self.inside_boxes = _boxes(self.inside)
        self.touching_boxes = _boxes(self.touching)
        self.cover_grid = self._build_cover_grid(table, radius + cfg.cover_behind_distance)
        # The static navigation of this radius (riven_env.table.navigation.StaticNav), made
        # there on first use: navigation stands above this module.
        self._nav: Any = None
        self._cover_spots: np.ndarray | None = None

    @staticmethod
    def _build_cover_grid(table: Table, reach: float) -> list[list[tuple[int, ...]]]:
        cols = max(1, math.ceil(table.width / _COVER_GRID_CELL))
        rows = max(1, math.ceil(table.height / _COVER_GRID_CELL))
        grid: list[list[tuple[int, ...]]] = [[() for _ in range(rows)] for _ in range(cols)]
        cover_ids = [k for k, p in enumerate(table.pieces) if p.cover != "none"]
        if not cover_ids:
            return grid
        xs = np.arange(cols) * _COVER_GRID_CELL
        ys = np.arange(rows) * _COVER_GRID_CELL
        gx, gy = np.meshgrid(xs, ys, indexing="ij")
        cells = shapely.box(gx, gy, gx + _COVER_GRID_CELL, gy + _COVER_GRID_CELL)
        hits: dict[tuple[int, int], list[int]] = {}
        for k in cover_ids:
            near = shapely.dwithin(table.pieces[k].polygon, cells, reach)
            for cx, cy in zip(*np.nonzero(near), strict=True):
                hits.setdefault((int(cx), int(cy)), []).append(k)
        for (cx, cy), ids in hits.items():
            grid[cx][cy] = tuple(ids)
        return grid

    def cover_candidates(self, x: float, y: float) -> tuple[int, ...]:
        """Cover pieces that may give cover to a target of this radius centred at (x, y)."""
        grid = self.cover_grid
        cx = min(max(int(x / _COVER_GRID_CELL), 0), len(grid) - 1)
        column = grid[cx]
        cy = min(max(int(y / _COVER_GRID_CELL), 0), len(column) - 1)
        return column[cy]


class _TerrainGeometry:
    """Geometry derived from a table's size and pieces, shared by every equal table.

    Loading the same map again (a new game of the same scenario, an unpickled copy in a
    worker process) finds this in :data:`_SHARED` instead of rebuilding the unions, the
    per-radius geometry and the navigation graphs, which cost far more than a game's moves.
    """

    def __init__(self, width: float, height: float, pieces: Sequence[TerrainPiece]) -> None:
        self.box = shapely.box(0.0, 0.0, width, height)
        # The footprints, prepared for the per-piece predicates of sight and cover queries.
        self.shapes: tuple[BaseGeometry, ...] = tuple(p.polygon for p in pieces)
        for shape in self.shapes:
            shapely.prepare(shape)
        self.los_solid = _prepared([p.polygon for p in pieces if p.blocks_los and p.impassable])
        self.los_area_ids: tuple[int, ...] = tuple(
            k for k, p in enumerate(pieces) if p.blocks_los and not p.impassable
        )
        self.los_area = _prepared([pieces[k].polygon for k in self.los_area_ids])
        # Outlines for the plain-float pre-tests of sight lines (riven_env.table.sight), of
        # the very polygons the GEOS calls test.
        self.shape_parts = tuple((_outline(shape),) for shape in self.shapes)
        self.los_solid_outlines = _part_outlines(self.los_solid)
        self.los_area_outlines = _part_outlines(self.los_area)
        self.extent = max([width, height, *(abs(c) for p in pieces for c in p.polygon.bounds)])
        self.cover_ranks: tuple[int, ...] = tuple(COVER_LEVELS.index(p.cover) for p in pieces)
        self.impassable = _prepared([p.polygon for p in pieces if p.impassable])
        self.difficult = _prepared([p.polygon for p in pieces if p.difficult])
        self.difficult_edges = _outline_edges([p.polygon for p in pieces if p.difficult])
        # By rounded radius, and by every radius asked (see Table.for_radius).
        self.by_radius: dict[float, RadiusGeometry] = {}
        # Sight lines already traced on this map (see riven_env.table.sight), oldest first.
        self.sight_lines: OrderedDict[tuple[float, ...], tuple[bool, str]] = OrderedDict()


_SHARED: OrderedDict[tuple[Any, ...], _TerrainGeometry] = OrderedDict()
"""Derived geometry of recently built tables, by size and pieces (least recently used first)."""


def _shared_geometry(
    width: float, height: float, pieces: tuple[TerrainPiece, ...]
) -> _TerrainGeometry:
    """The derived geometry of a table of this size and pieces (built once per process)."""
    return remembered(
        _SHARED,
        (width, height, pieces),
        lambda: _TerrainGeometry(width, height, pieces),
        geometry_config().shared_tables,
    )


def piece_vertices(polygon: shapely.Polygon) -> int:
    """Vertices of a terrain outline, its holes included (what ``table.max_vertices`` counts)."""
    rings = [polygon.exterior, *polygon.interiors]
    return sum(len(ring.coords) - 1 for ring in rings)


class Table:
    """A rectangular table of ``width`` x ``height`` inches with terrain pieces.

    The origin is the bottom-left corner, x grows to the right and y grows up.
    Immutable: build it with :meth:`from_spec` (validating) or the constructor (trusted
    pieces). Equality compares size, name and pieces; pickling keeps only those.

    Attributes:
        width: Table width, inches.
        height: Table height, inches.
        pieces: The terrain pieces, in spec order.
        name: Optional name of the map.
        shapes: The pieces' footprints, prepared (index as ``pieces``).
        shape_parts: Each footprint as a one-:data:`Outline` tuple (the form the union's
            outlines take).
        los_solid: The union of impassable line-blocking pieces (prepared), or ``None``.
        los_solid_outlines: The outlines of the polygons of ``los_solid``.
        los_area_ids: Indices of the passable line-blocking pieces.
        los_area: Their union (prepared), or ``None``.
        los_area_outlines: The outlines of the polygons of ``los_area``.
        cover_ranks: Each piece's cover rank (0 none, 1 soft, 2 hard).
        extent: The largest absolute coordinate of the table and its pieces.
    """

    def __init__(
        self, width: float, height: float, pieces: Sequence[TerrainPiece] = (), name: str = ""
    ) -> None:
        self._width = float(width)
        self._height = float(height)
        self._pieces = tuple(pieces)
        self._name = name
        derived = _shared_geometry(self._width, self._height, self._pieces)
        self.box = derived.box
        self.shapes = derived.shapes
        self.los_solid = derived.los_solid
        self.los_area_ids = derived.los_area_ids
        self.los_area = derived.los_area
        self.shape_parts = derived.shape_parts
        self.los_solid_outlines = derived.los_solid_outlines
        self.los_area_outlines = derived.los_area_outlines
        self.extent = derived.extent
        self.cover_ranks = derived.cover_ranks
        self.impassable = derived.impassable
        self.difficult = derived.difficult
        self.difficult_edges = derived.difficult_edges
        self._by_radius = derived.by_radius
        self._sight_lines = derived.sight_lines

    # -- identity -------------------------------------------------------------------------
    @property
    def width(self) -> float:
        """Table width, inches."""
        return self._width

    @property
    def height(self) -> float:
        """Table height, inches."""
        return self._height

    @property
    def pieces(self) -> tuple[TerrainPiece, ...]:
        """The terrain pieces, in spec order."""
        return self._pieces

    @property
    def name(self) -> str:
        """The map's name (may be empty)."""
        return self._name

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return (self._width, self._height, self._name, self._pieces) == (
            other._width,
            other._height,
            other._name,
            other._pieces,
        )

    def __hash__(self) -> int:
        return hash((self._width, self._height, self._name, self._pieces))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Table, (self._width, self._height, self._pieces, self._name))

    def __repr__(self) -> str:
        return f"Table({self._width:g}x{self._height:g}, {len(self._pieces)} pieces)"

    # -- specs ----------------------------------------------------------------------------
    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], where: str = "table") -> Table:
        """Validate a table spec and build the table.

        Args:
            spec: ``{"width": 36, "height": 36, "name": "...", "terrain": [piece, ...]}``;
                width and height default to ``geometry.toml``'s table size; see
                :func:`riven_env.table.terrain.parse_piece` for a piece.
            where: Prefix for error messages (the file and section, for example).

        Returns:
            The table.

        Raises:
            TerrainError: Any malformed value; the message names the piece and the problem.
        """
        if not isinstance(spec, Mapping):
            raise TerrainError(f"{where}: must be a table/mapping, got {spec!r}")
        unknown = sorted(set(spec) - TABLE_KEYS)
        if unknown:
            raise TerrainError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(TABLE_KEYS)}")
        cfg = geometry_config()
        largest = float(limit("table.max_size"))
        size = []
        for key, default in (("width", cfg.default_width), ("height", cfg.default_height)):
            value = spec.get(key, default)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TerrainError(f"{where}.{key}: {value!r} is not a number of inches")
            if not math.isfinite(value) or value <= 0:
                raise TerrainError(f"{where}.{key}: {value!r} must be a positive number")
            if value > largest:
                raise TerrainError(
                    f"{where}.{key}: {value!r} inches is too large; at most {largest:g} "
                    "(table.max_size in riven_env/data/limits.toml)"
                )
            size.append(float(value))
        name = spec.get("name", "")
        if not isinstance(name, str):
            raise TerrainError(f"{where}.name: {name!r} is not text")
        terrain = spec.get("terrain", [])
        if isinstance(terrain, (str, bytes, Mapping)) or not isinstance(terrain, Sequence):
            raise TerrainError(f"{where}.terrain: must be a list of pieces, got {terrain!r}")
        most = int(limit("table.max_pieces"))
        if len(terrain) > most:
            raise TerrainError(
                f"{where}.terrain: {len(terrain)} pieces; at most {most} allowed "
                "(table.max_pieces in riven_env/data/limits.toml)"
            )
        pieces = [parse_piece(piece, k, size[0], size[1], where) for k, piece in enumerate(terrain)]
        vertices = sum(piece_vertices(piece.polygon) for piece in pieces)
        most = int(limit("table.max_vertices"))
        if vertices > most:
            raise TerrainError(
                f"{where}.terrain: the outlines have {vertices} vertices in all (a circle "
                f"counts as {4 * cfg.circle_quad_segments}); "
                f"at most {most} allowed (table.max_vertices in riven_env/data/limits.toml)"
            )
        return cls(size[0], size[1], pieces, name)

    def to_spec(self) -> dict[str, Any]:
        """The table as a spec; ``Table.from_spec(t.to_spec()) == t``."""
        spec: dict[str, Any] = {"width": self._width, "height": self._height}
        if self._name:
            spec["name"] = self._name
        spec["terrain"] = [piece.to_spec() for piece in self._pieces]
        return spec

    # -- per-radius geometry --------------------------------------------------------------
    def for_radius(self, radius: float) -> RadiusGeometry:
        """The static geometry for bases of ``radius`` inches (built on first use)."""
        # Radii asked before map straight to their geometry; another is rounded to the key
        # that radii equal to 6 decimals share (and remembered too, up to a bound).
        by_radius = self._by_radius
        geometry = by_radius.get(radius)
        if geometry is None:
            key = round(float(radius), 6)
            geometry = by_radius.get(key)
            if geometry is None:
                geometry = RadiusGeometry(self, key)
                by_radius[key] = geometry
            if len(by_radius) < _RADIUS_ENTRIES:
                by_radius[radius] = geometry
        return geometry

    def centre_bounds(self, radius: float) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` a base centre of ``radius`` must stay within."""
        return (radius, radius, self._width - radius, self._height - radius)
