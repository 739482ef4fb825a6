"""Terrain layouts for the procedural generator: scattered pieces and dungeon rooms.

Pure geometry over a ``numpy.random.Generator``: every draw comes from the generator passed
in, and every coordinate is rounded (``common.decimals`` in ``data/generator.toml``) before
it is used, so the same seed gives the same layout byte for byte. Each function returns
terrain specs in the scenario format (``{"name", "type", "rect" | "circle" | "polygon"}``)
together with the shapely footprints they describe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely import affinity

Rect = tuple[float, float, float, float]
Point = tuple[float, float]


@dataclass
class Layout:
    """Terrain pieces placed so far.

    Attributes:
        specs: Terrain specs, in the scenario file format.
        shapes: The footprint of each spec (same order).
        impassable: Whether each piece blocks movement (same order).
    """

    specs: list[dict[str, Any]] = field(default_factory=list)
    shapes: list[shapely.Geometry] = field(default_factory=list)
    impassable: list[bool] = field(default_factory=list)

    def add(self, spec: dict[str, Any], shape: shapely.Geometry, impassable: bool) -> None:
        """Append one piece."""
        self.specs.append(spec)
        self.shapes.append(shape)
        self.impassable.append(impassable)


class Draw:
    """Rounded random draws from one generator."""

    def __init__(self, rng: np.random.Generator, decimals: int):
        self.rng = rng
        self.decimals = decimals

    def round(self, value: float) -> float:
        """Round a coordinate to the layout's decimals (as a plain float)."""
        return float(round(float(value), self.decimals))

    def uniform(self, bounds: Sequence[float]) -> float:
        """A rounded uniform draw in ``[low, high]``."""
        return self.round(self.rng.uniform(float(bounds[0]), float(bounds[1])))

    def integer(self, bounds: Sequence[int]) -> int:
        """An integer draw in ``[low, high]`` (both inclusive)."""
        return int(self.rng.integers(int(bounds[0]), int(bounds[1]) + 1))

    def choice(self, options: Sequence[Any]) -> Any:
        """One of ``options``."""
        return options[int(self.rng.integers(0, len(options)))]


def _polygon_spec(
    draw: Draw, polygon: shapely.Geometry
) -> tuple[list[list[float]], shapely.Polygon]:
    points = [[draw.round(x), draw.round(y)] for x, y in polygon.exterior.coords[:-1]]
    return points, shapely.Polygon(points)


def piece_shape(
    draw: Draw, kind: str, centre: Point, shapes: Mapping[str, Any]
) -> tuple[dict[str, Any], shapely.Geometry] | None:
    """Draw the shape of one piece of terrain type ``kind`` around ``centre``.

    Args:
        draw: Random draws.
        kind: The terrain type; ``shapes`` says whether it is linear, a block, round or an area.
        centre: Where the piece is centred.
        shapes: The ``[shapes]`` table of the generator data.

    Returns:
        ``(shape keys of the spec, footprint)``, or ``None`` when rounding made the outline
        invalid (the caller draws again).
    """
    cx, cy = centre
    if kind in shapes["round"]:
        radius = draw.uniform(shapes["round_radius"])
        return {"circle": [cx, cy, radius]}, shapely.Point(cx, cy).buffer(radius)
    if kind in shapes["linear"] or kind in shapes["block"]:
        if kind in shapes["linear"]:
            width = draw.uniform(shapes["linear_length"])
            depth = draw.uniform(shapes["linear_thickness"])
        else:
            width = draw.uniform(shapes["block_side"])
            depth = draw.uniform(shapes["block_side"])
        box = shapely.box(cx - width / 2, cy - depth / 2, cx + width / 2, cy + depth / 2)
        angle = draw.choice((0.0, 90.0, draw.uniform((0.0, 180.0))))
        if angle in (0.0, 90.0):
            rotated = affinity.rotate(box, angle, origin=(cx, cy))
            x0, y0, x1, y1 = (draw.round(v) for v in rotated.bounds)
            return {"rect": [x0, y0, x1, y1]}, shapely.box(x0, y0, x1, y1)
        points, polygon = _polygon_spec(draw, affinity.rotate(box, angle, origin=(cx, cy)))
        return ({"polygon": points}, polygon) if polygon.is_valid else None
    count = draw.integer(shapes["area_vertices"])
    radius = draw.uniform(shapes["area_radius"])
    # Sorted angles around the centre give a star-shaped, hence simple, outline.
    angles = np.sort(draw.rng.uniform(0.0, 2 * np.pi, size=count))
    if np.min(np.diff(np.concatenate([angles, angles[:1] + 2 * np.pi]))) < 0.2:
        return None
    reach = radius * draw.rng.uniform(*shapes["area_jitter"], size=count)
    outline = shapely.Polygon(
        np.column_stack([cx + reach * np.cos(angles), cy + reach * np.sin(angles)])
    )
    points, polygon = _polygon_spec(draw, outline)
    return ({"polygon": points}, polygon) if polygon.is_valid and polygon.area > 0 else None


def scatter(
    draw: Draw,
    size: tuple[float, float],
    count: int,
    types: Sequence[str],
    impassable_types: frozenset[str],
    keep_clear: Sequence[tuple[shapely.Geometry, float]],
    data: Mapping[str, Any],
) -> Layout:
    """Scatter up to ``count`` pieces over the table by rejection sampling.

    A piece is kept when it lies at least ``common.piece_gap`` from the table edge and from
    every other piece, and clear of each ``(geometry, gap)`` in ``keep_clear`` (deployment
    zones, objective circles). A piece that finds no room in ``common.piece_attempts`` tries
    is left out.

    Args:
        draw: Random draws.
        size: Table ``(width, height)``.
        count: Pieces wanted.
        types: Terrain types to draw from (repeat a type to make it likelier).
        impassable_types: Types whose pieces block movement.
        keep_clear: Areas pieces must stay away from, with the gap to keep.
        data: The generator data.

    Returns:
        The layout.
    """
    common, shapes = data["common"], data["shapes"]
    gap = float(common["piece_gap"])
    width, height = size
    inner = shapely.box(gap, gap, width - gap, height - gap)
    layout = Layout()
    for number in range(count):
        kind = draw.choice(types)
        for _ in range(int(common["piece_attempts"])):
            centre = (draw.uniform((gap, width - gap)), draw.uniform((gap, height - gap)))
            drawn = piece_shape(draw, kind, centre, shapes)
            if drawn is None:
                continue
            spec, shape = drawn
            if not inner.contains(shape):
                continue
            if any(shape.distance(other) < gap for other in layout.shapes):
                continue
            if any(shape.distance(area) < clearance for area, clearance in keep_clear):
                continue
            layout.add(
                {"name": f"{kind} {number + 1}", "type": kind, **spec},
                shape,
                kind in impassable_types,
            )
            break
    return layout


@dataclass(frozen=True)
class Room:
    """One dungeon room: its outer wall rectangle and its floor inside the walls."""

    outer: Rect
    floor: Rect

    @property
    def centre(self) -> Point:
        """The centre of the floor."""
        x0, y0, x1, y1 = self.floor
        return ((x0 + x1) / 2, (y0 + y1) / 2)


def _wall_runs(
    draw: Draw, length: float, doors: int, settings: Mapping[str, Any]
) -> list[tuple[float, float]]:
    """Solid stretches ``(start, end)`` along a wall of ``length`` with ``doors`` gaps."""
    width = float(settings["door_width"])
    corner = float(settings["door_corner_gap"]) + float(settings["wall_thickness"])
    runs: list[tuple[float, float]] = []
    start = 0.0
    for _ in range(doors):
        low, high = start + corner, length - corner - width
        if high < low:
            break
        door = draw.uniform((low, high))
        runs.append((start, door))
        start = door + width
    runs.append((start, length))
    return [(a, b) for a, b in runs if b - a > 1e-9]


def dungeon(draw: Draw, setting: str, data: Mapping[str, Any]) -> tuple[Layout, list[Room]]:
    """Rooms on a grid of cells, walled, with doors onto the corridors between them.

    Each room is inset in its cell by a random margin on every side; the space between the
    rooms and the table edge is the corridor network, wider than any base, so it is all one
    connected area. Each room gets ``doors_per_room`` door gaps on randomly chosen walls,
    which connects its floor to the corridors.

    Args:
        draw: Random draws.
        setting: ``"fantasy"`` or ``"scifi"`` (wall and prop terrain types).
        data: The generator data.

    Returns:
        The wall layout and the rooms, row by row from the bottom-left cell.
    """
    settings = data["dungeon"]
    cols, rows = int(settings["cols"]), int(settings["rows"])
    cell_w, cell_h = float(settings["width"]) / cols, float(settings["height"]) / rows
    thick = float(settings["wall_thickness"])
    wall_type = settings["wall"][setting]
    layout = Layout()
    rooms: list[Room] = []
    for row in range(rows):
        for col in range(cols):
            left, bottom = col * cell_w, row * cell_h
            margins = [draw.uniform(settings["margin"]) for _ in range(4)]
            outer = (
                draw.round(left + margins[0]),
                draw.round(bottom + margins[1]),
                draw.round(left + cell_w - margins[2]),
                draw.round(bottom + cell_h - margins[3]),
            )
            floor = (outer[0] + thick, outer[1] + thick, outer[2] - thick, outer[3] - thick)
            room = Room(outer, tuple(draw.round(v) for v in floor))  # type: ignore[arg-type]
            rooms.append(room)
            door_count = draw.integer(settings["doors_per_room"])
            sides = ["south", "north", "west", "east"]
            doors = {side: 0 for side in sides}
            for _ in range(door_count):
                doors[draw.choice(sides)] += 1
            _room_walls(draw, layout, room, doors, wall_type, len(rooms), settings)
    return layout, rooms


def _room_walls(
    draw: Draw,
    layout: Layout,
    room: Room,
    doors: Mapping[str, int],
    wall_type: str,
    number: int,
    settings: Mapping[str, Any],
) -> None:
    x0, y0, x1, y1 = room.outer
    thick = float(settings["wall_thickness"])
    # South and north walls span the full width; west and east walls fit between them.
    for side in ("south", "north", "west", "east"):
        horizontal = side in ("south", "north")
        length = (x1 - x0) if horizontal else (y1 - y0 - 2 * thick)
        for part, (a, b) in enumerate(_wall_runs(draw, length, doors[side], settings)):
            if side == "south":
                rect = (x0 + a, y0, x0 + b, y0 + thick)
            elif side == "north":
                rect = (x0 + a, y1 - thick, x0 + b, y1)
            elif side == "west":
                rect = (x0, y0 + thick + a, x0 + thick, y0 + thick + b)
            else:
                rect = (x1 - thick, y0 + thick + a, x1, y0 + thick + b)
            rect = tuple(draw.round(v) for v in rect)
            if rect[2] - rect[0] <= 0 or rect[3] - rect[1] <= 0:
                continue
            layout.add(
                {
                    "name": f"room {number} {side} wall {part + 1}",
                    "type": wall_type,
                    "rect": list(rect),
                },
                shapely.box(*rect),
                True,
            )


def connected(
    size: tuple[float, float],
    obstacles: Sequence[shapely.Geometry],
    points: Sequence[Point],
    base: float,
) -> bool:
    """Whether a base of diameter ``base`` can travel between all ``points``.

    The free space is the table shrunk by the base radius minus every obstacle grown by it;
    the points are connected when they all lie in one part of it.
    """
    radius = base / 2
    width, height = size
    free = shapely.box(radius, radius, width - radius, height - radius)
    if obstacles:
        free = free.difference(shapely.union_all(obstacles).buffer(radius))
    parts = list(getattr(free, "geoms", [free]))
    owners = set()
    for x, y in points:
        point = shapely.Point(x, y)
        owner = next((i for i, part in enumerate(parts) if part.distance(point) < 1e-9), None)
        if owner is None:
            return False
        owners.add(owner)
    return len(owners) <= 1


__all__ = ["Draw", "Layout", "Room", "connected", "dungeon", "piece_shape", "scatter"]
