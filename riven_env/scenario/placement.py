"""Deterministic placement of models in their side's deployment zone.

Models without a ``position`` in the scenario file are placed here, in file order, after
every model with a fixed position. No randomness: the same file always gives the same
positions.

The search, for each side:

1. **Formation.** A lattice through the centre of each deployment rectangle with a pitch
   of the largest base diameter plus ``placement.gap`` (``data/defaults.toml``), so that
   models stand spread out with room to move between them. Lattice points are tried
   nearest the rectangle's centre first, distance measured in units of the rectangle's
   width and height (ties broken by y, then x), so a shallow strip fills as a line along
   its length and a square room as a block. With several rectangles, model *n* starts at
   rectangle *n* mod their count, sharing the models out.
2. **Fallback.** When the formation does not fit (crowded zone, terrain), a fine grid
   (``placement.fine_step``) over the same rectangles, in the same order, where bases may
   stand closer but never overlap.

A position is legal when the whole base is on the table and inside one of the side's
rectangles, does not overlap impassable terrain and does not overlap another base.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely

from riven_env.errors import ScenarioError
from riven_env.scenario.defaults import loader_defaults

if TYPE_CHECKING:
    from riven_env.table import Table

Rect = tuple[float, float, float, float]
Point = tuple[float, float]


@dataclass(frozen=True)
class PlacementSlot:
    """One model to place.

    Attributes:
        label: How the model is named in an error message (its id).
        side: The side whose deployment zone it is placed in.
        radius: Base radius in inches.
        position: A fixed position from the file, or ``None`` to place it.
    """

    label: str
    side: str
    radius: float
    position: Point | None = None


def _impassable(table: Table) -> shapely.Geometry | None:
    shapes = [piece.polygon for piece in table.pieces if piece.impassable]
    return shapely.union_all(shapes) if shapes else None


def impassable_overlap(table: Table, centre: Point, radius: float) -> str | None:
    """Name the impassable terrain piece a base at ``centre`` would overlap.

    Args:
        table: The tabletop.
        centre: Base centre in inches.
        radius: Base radius in inches.

    Returns:
        The overlapped piece's name, or ``None`` when the base is clear of impassable terrain.
    """
    tolerance = float(loader_defaults()["placement"]["tolerance"])
    point = shapely.Point(centre)
    for piece in table.pieces:
        if piece.impassable and piece.polygon.distance(point) < radius - tolerance:
            return piece.name
    return None


def off_table(table: Table, centre: Point, radius: float) -> bool:
    """Return whether any part of a base at ``centre`` lies off the table."""
    tolerance = float(loader_defaults()["placement"]["tolerance"])
    x, y = centre
    return (
        x - radius < -tolerance
        or y - radius < -tolerance
        or x + radius > table.width + tolerance
        or y + radius > table.height + tolerance
    )


def _lattice(rects: Sequence[Rect], margin: float, pitch: float) -> np.ndarray:
    """Points ``pitch`` apart through the centre of each rectangle shrunk by ``margin``."""
    points: list[np.ndarray] = []
    for x0, y0, x1, y1 in rects:
        axes = []
        for low, high in ((x0 + margin, x1 - margin), (y0 + margin, y1 - margin)):
            if high < low:
                break
            middle = (low + high) / 2
            steps = int(np.floor((high - middle) / pitch + 1e-9))
            axes.append(middle + pitch * np.arange(-steps, steps + 1))
        if len(axes) < 2:
            continue
        xs, ys = np.meshgrid(axes[0], axes[1])
        points.append(np.column_stack([xs.ravel(), ys.ravel()]))
    if not points:
        return np.empty((0, 2))
    return np.unique(np.concatenate(points), axis=0)


def _zone_frame(rects: Sequence[Rect]) -> tuple[np.ndarray, np.ndarray]:
    """The area-weighted centre of a zone and the extent of its bounding box."""
    boxes = np.asarray(rects, dtype=float)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    centres = np.column_stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2])
    extent = np.array(
        [boxes[:, 2].max() - boxes[:, 0].min(), boxes[:, 3].max() - boxes[:, 1].min()]
    )
    return (centres * areas[:, None]).sum(axis=0) / areas.sum(), extent


def _ordered(candidates: np.ndarray, rects: Sequence[Rect]) -> np.ndarray:
    """Sort candidates nearest the zone's centre first; ties by y then x.

    Distances are measured in units of the zone's extent along each axis, so a long, shallow
    strip fills as a line along its length and a square room as a block.
    """
    if len(candidates) == 0:
        return candidates
    centre, extent = _zone_frame(rects)
    distance = np.round(np.hypot(*((candidates - centre) / extent).T), 9)
    order = np.lexsort((np.round(candidates[:, 0], 9), np.round(candidates[:, 1], 9), distance))
    return candidates[order]


def _inside_any(points: np.ndarray, rects: Sequence[Rect], radius: float, tol: float) -> np.ndarray:
    inside = np.zeros(len(points), dtype=bool)
    for x0, y0, x1, y1 in rects:
        inside |= (
            (points[:, 0] - radius >= x0 - tol)
            & (points[:, 0] + radius <= x1 + tol)
            & (points[:, 1] - radius >= y0 - tol)
            & (points[:, 1] + radius <= y1 + tol)
        )
    return inside


class _Placer:
    """The state of one placement run: bases already standing and static obstacles."""

    def __init__(self, table: Table):
        settings = loader_defaults()["placement"]
        self.gap = float(settings["gap"])
        self.fine_step = float(settings["fine_step"])
        self.tol = float(settings["tolerance"])
        self.table = table
        self.obstacles = _impassable(table)
        self.centres: list[Point] = []
        self.radii: list[float] = []

    def add(self, centre: Point, radius: float) -> None:
        self.centres.append(centre)
        self.radii.append(radius)

    def legal(
        self, points: np.ndarray, radius: float, rects: Sequence[Rect], spacing: float
    ) -> np.ndarray:
        """Mask of candidate centres legal for a base of ``radius`` with ``spacing`` to others."""
        ok = _inside_any(points, rects, radius, self.tol)
        ok &= (points[:, 0] - radius >= -self.tol) & (points[:, 1] - radius >= -self.tol)
        ok &= points[:, 0] + radius <= self.table.width + self.tol
        ok &= points[:, 1] + radius <= self.table.height + self.tol
        if self.obstacles is not None and ok.any():
            clear = shapely.distance(self.obstacles, shapely.points(points[ok]))
            ok[np.flatnonzero(ok)] = clear >= radius - self.tol
        if self.centres and ok.any():
            others = np.asarray(self.centres)
            reach = np.asarray(self.radii) + radius + spacing
            gaps = np.hypot(
                points[:, None, 0] - others[None, :, 0], points[:, None, 1] - others[None, :, 1]
            )
            ok &= (gaps >= reach[None, :] - self.tol).all(axis=1)
        return ok

    def place_side(
        self, side: str, rects: Sequence[Rect], slots: Sequence[PlacementSlot]
    ) -> list[Point]:
        if not slots:
            return []
        widest = max(slot.radius for slot in slots)
        # Per rectangle: the spaced formation, then the fine fallback grid.
        grids = [
            (
                _ordered(_lattice([rect], widest, 2 * widest + self.gap), [rect]),
                _ordered(_lattice([rect], 0.0, self.fine_step), [rect]),
            )
            for rect in rects
        ]
        placed: list[Point] = []
        for number, slot in enumerate(slots):
            point = self._first_legal(slot, number, rects, grids)
            if point is None:
                zone = ", ".join(f"[{', '.join(f'{v:g}' for v in rect)}]" for rect in rects)
                raise ScenarioError(
                    f'cannot place model {slot.label!r} (base {2 * slot.radius:g}"): no free room '
                    f"left in side {side!r}'s deployment zone {zone} after {len(placed)} placed; "
                    "enlarge the zone, clear terrain from it, or give models positions",
                    field=f"deployment.{side}",
                )
            self.add(point, slot.radius)
            placed.append(point)
        return placed

    def _first_legal(
        self,
        slot: PlacementSlot,
        number: int,
        rects: Sequence[Rect],
        grids: Sequence[tuple[np.ndarray, np.ndarray]],
    ) -> Point | None:
        """The first legal spot for a slot: formations before fine grids, and the
        rectangles taken in turn (model n starts at rectangle n mod count) so that a zone
        made of several rectangles is shared out between them."""
        order = [(number + offset) % len(rects) for offset in range(len(rects))]
        for stage, spacing in ((0, self.gap), (1, 0.0)):
            for index in order:
                candidates = grids[index][stage]
                if len(candidates) == 0:
                    continue
                legal = np.flatnonzero(self.legal(candidates, slot.radius, [rects[index]], spacing))
                if len(legal):
                    x, y = candidates[legal[0]]
                    return (round(float(x), 6), round(float(y), 6))
        return None


def place_models(
    table: Table, deployment: Mapping[str, Sequence[Rect]], slots: Sequence[PlacementSlot]
) -> tuple[Point, ...]:
    """Give every slot a position: fixed ones as given, the others placed in their zone.

    Args:
        table: The tabletop (its impassable terrain is avoided).
        deployment: Deployment rectangles per side.
        slots: The models, in file order.

    Returns:
        One position per slot, in the order of ``slots``.

    Raises:
        ScenarioError: A model does not fit in its side's zone (the message names the side,
            the zone and the model), or a side without a deployment zone has unplaced models.
    """
    placer = _Placer(table)
    positions: list[Point | None] = [slot.position for slot in slots]
    for slot in slots:
        if slot.position is not None:
            placer.add(slot.position, slot.radius)
    by_side: dict[str, list[int]] = {}
    for index, slot in enumerate(slots):
        if slot.position is None:
            by_side.setdefault(slot.side, []).append(index)
    for side, indices in by_side.items():
        rects = deployment.get(side, ())
        if not rects:
            raise ScenarioError(
                f"side {side!r} has models without a position but no deployment zone",
                field=f"deployment.{side}",
            )
        for index, point in zip(
            indices, placer.place_side(side, rects, [slots[i] for i in indices]), strict=True
        ):
            positions[index] = point
    return tuple(position for position in positions if position is not None)


__all__ = [
    "PlacementSlot",
    "impassable_overlap",
    "off_table",
    "place_models",
]
