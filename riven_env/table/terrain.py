"""Terrain pieces and the validation of terrain specs.

A terrain spec is a mapping with a ``type`` (a key of ``terrain_types.toml``), a shape
(exactly one of ``polygon`` (with optional ``holes``), ``rect`` or ``circle``), an optional
``name`` and optional overrides of the type's properties. Everything malformed is refused
with :class:`~riven_env.errors.TerrainError` naming the piece (by name and index) and the
problem.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from riven_env.errors import TerrainError
from riven_env.files import limit
from riven_env.table.config import (
    COVER_LEVELS,
    TERRAIN_PROPERTIES,
    Cover,
    geometry_config,
    terrain_types,
)

SHAPE_KEYS: tuple[str, ...] = ("polygon", "rect", "circle")
"""The keys that give a piece its shape; a piece has exactly one."""

PIECE_KEYS: frozenset[str] = frozenset({"name", "type", "holes", *SHAPE_KEYS, *TERRAIN_PROPERTIES})
"""Every key a terrain piece spec may hold."""

_EDGE_SLACK = 1e-9  # pieces may touch the table edge; float noise must not refuse them


@dataclass(frozen=True)
class TerrainPiece:
    """One piece of terrain on the table.

    Attributes:
        name: The piece's name (from the spec, or ``"<type>-<index>"``).
        type: Its terrain type, a key of ``terrain_types.toml``.
        polygon: Its footprint in table inches (a valid shapely polygon, maybe with holes).
        cover: Cover it grants.
        blocks_los: Whether it blocks sight lines through it.
        difficult: Whether moving inside it costs double.
        impassable: Whether bases may not enter it.
        shape: How the spec gave the shape, for :meth:`to_spec`: ``("rect", (x0, y0, x1, y1))``,
            ``("circle", (cx, cy, r))`` or ``("polygon", (exterior, holes))``.
    """

    name: str
    type: str
    polygon: Polygon
    cover: Cover
    blocks_los: bool
    difficult: bool
    impassable: bool
    shape: tuple[str, Any] = field(default=("polygon", None), compare=False, repr=False)

    def to_spec(self) -> dict[str, Any]:
        """The piece as a spec mapping: name, type, shape and the properties that differ
        from the type's defaults (so ``parse_piece(piece.to_spec(), ...)`` gives it back)."""
        spec: dict[str, Any] = {"name": self.name, "type": self.type}
        kind, data = self.shape
        if kind == "rect" or kind == "circle":
            spec[kind] = [float(v) for v in data]
        else:
            exterior = [[float(x), float(y)] for x, y in self.polygon.exterior.coords[:-1]]
            spec["polygon"] = exterior
            holes = [
                [[float(x), float(y)] for x, y in ring.coords[:-1]]
                for ring in self.polygon.interiors
            ]
            if holes:
                spec["holes"] = holes
        default = terrain_types()[self.type]
        for prop in TERRAIN_PROPERTIES:
            if getattr(self, prop) != getattr(default, prop):
                spec[prop] = getattr(self, prop)
        return spec


def _is_number(value: Any) -> bool:
    return (
        not isinstance(value, bool)
        and isinstance(value, (int, float))
        and math.isfinite(float(value))
    )


def _numbers(value: Any, count: int, where: str, what: str) -> tuple[float, ...]:
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, Sequence)
        or len(value) != count
        or not all(_is_number(v) for v in value)
    ):
        raise TerrainError(f"{where}: {what} must be {count} finite numbers, got {value!r}")
    return tuple(float(v) for v in value)


def _ring(value: Any, where: str, what: str) -> list[tuple[float, float]]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) < 3:
        raise TerrainError(f"{where}: {what} must be a list of at least 3 [x, y] points")
    points = []
    for k, point in enumerate(value):
        points.append(_numbers(point, 2, where, f"{what} point {k}"))
    return points  # type: ignore[return-value]


def _shape(spec: Mapping[str, Any], where: str) -> tuple[Polygon, tuple[str, Any]]:
    given = [key for key in SHAPE_KEYS if key in spec]
    if len(given) != 1:
        raise TerrainError(
            f"{where}: give exactly one shape of {list(SHAPE_KEYS)}, got {given or 'none'}"
        )
    kind = given[0]
    if "holes" in spec and kind != "polygon":
        raise TerrainError(f"{where}: 'holes' is only allowed with 'polygon', not with {kind!r}")
    if kind == "rect":
        x0, y0, x1, y1 = _numbers(spec["rect"], 4, where, "rect [x0, y0, x1, y1]")
        if not (x1 > x0 and y1 > y0):
            raise TerrainError(f"{where}: rect {[x0, y0, x1, y1]} needs x0 < x1 and y0 < y1")
        return shapely.box(x0, y0, x1, y1), ("rect", (x0, y0, x1, y1))
    if kind == "circle":
        cx, cy, r = _numbers(spec["circle"], 3, where, "circle [cx, cy, r]")
        if r <= 0:
            raise TerrainError(f"{where}: circle radius {r} must be positive")
        quad = geometry_config().circle_quad_segments
        return shapely.Point(cx, cy).buffer(r, quad_segs=quad), ("circle", (cx, cy, r))
    raw_holes = spec.get("holes", [])
    if isinstance(raw_holes, (str, bytes)) or not isinstance(raw_holes, Sequence):
        raise TerrainError(f"{where}: holes must be a list of rings, got {raw_holes!r}")
    # Counted before any point is read, so that a huge outline is refused at once.
    vertices = sum(
        len(ring) if isinstance(ring, Sequence) else 0 for ring in [spec["polygon"], *raw_holes]
    )
    most = int(limit("table.max_vertices"))
    if vertices > most:
        raise TerrainError(
            f"{where}: {vertices} vertices (holes included); at most {most} on a table "
            "(table.max_vertices in riven_env/data/limits.toml)"
        )
    exterior = _ring(spec["polygon"], where, "polygon")
    holes = [_ring(hole, where, f"hole {k}") for k, hole in enumerate(raw_holes)]
    polygon = Polygon(exterior, holes)
    if not polygon.is_valid:
        reason = shapely.is_valid_reason(polygon)
        raise TerrainError(f"{where}: polygon is not valid ({reason}); self-intersecting?")
    if polygon.area <= 0:
        raise TerrainError(f"{where}: polygon has no area")
    return polygon, ("polygon", None)


def parse_piece(spec: Any, index: int, width: float, height: float, where: str) -> TerrainPiece:
    """Validate one terrain spec and build its :class:`TerrainPiece`.

    Args:
        spec: The piece's mapping (see the module docstring).
        index: Its position in the terrain list (for messages and the default name).
        width: Table width, inches.
        height: Table height, inches.
        where: Prefix for messages, for example ``"scenario.toml: table"``.

    Returns:
        The piece.

    Raises:
        TerrainError: Unknown key or type, bad coordinates, an invalid polygon, a piece off
            the table, a bad property value; the message names the piece.
    """
    if not isinstance(spec, Mapping):
        raise TerrainError(f"{where}.terrain[{index}]: must be a table/mapping, got {spec!r}")
    raw_name = spec.get("name")
    if raw_name is not None and not isinstance(raw_name, str):
        raise TerrainError(f"{where}.terrain[{index}]: name {raw_name!r} is not text")
    kind = spec.get("type")
    name = raw_name or f"{kind}-{index}"
    here = f"{where}.terrain[{index}] ({name!r})"
    unknown = sorted(set(spec) - PIECE_KEYS)
    if unknown:
        raise TerrainError(f"{here}: unknown key(s) {unknown}; allowed: {sorted(PIECE_KEYS)}")
    types = terrain_types()
    if not isinstance(kind, str) or kind not in types:  # a TOML table or list is unhashable
        raise TerrainError(
            f"{here}: unknown terrain type {kind!r}; known types: {', '.join(types)}"
        )
    polygon, shape = _shape(spec, here)
    table_box = shapely.box(0.0, 0.0, width, height).buffer(_EDGE_SLACK, join_style="mitre")
    if not polygon.within(table_box):
        raise TerrainError(
            f'{here}: extends off the {width:g}" x {height:g}" table '
            f"(bounds {tuple(round(v, 3) for v in polygon.bounds)})"
        )
    base = types[kind]
    props: dict[str, Any] = {p: getattr(base, p) for p in TERRAIN_PROPERTIES}
    for prop in TERRAIN_PROPERTIES:
        if prop not in spec:
            continue
        value = spec[prop]
        if prop == "cover":
            if value not in COVER_LEVELS:
                raise TerrainError(f"{here}: cover {value!r}; allowed: {list(COVER_LEVELS)}")
        elif not isinstance(value, bool):
            raise TerrainError(f"{here}: {prop} {value!r} must be true or false")
        props[prop] = value
    if props["difficult"] and props["impassable"]:
        raise TerrainError(f"{here}: cannot be both difficult and impassable")
    return TerrainPiece(name=name, type=kind, polygon=polygon, shape=shape, **props)


def clearance_shape(geometry: BaseGeometry, distance: float, slack: float) -> BaseGeometry:
    """``geometry`` grown by about ``distance``, its outline between ``distance - slack`` and
    ``distance`` from ``geometry`` everywhere.

    Rounded corners are polygons; their chords cut inside the true circle. Choosing the
    fewest segments per quarter circle whose chords stay within ``slack`` keeps the shape
    exact to ``slack`` while making predicates on it as cheap as possible.
    """
    inner = distance - slack
    if distance <= 0 or inner <= 0:
        return geometry.buffer(distance, quad_segs=2) if distance < 0 else geometry
    most = geometry_config().clearance_quad_segments
    quad = 2
    while quad < most and inner / math.cos(math.pi / (4 * quad)) > distance:
        quad += 1
    return shapely.buffer(geometry, inner / math.cos(math.pi / (4 * quad)), quad_segs=quad)
