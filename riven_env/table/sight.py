"""Line of sight and cover for a shot.

The sight line runs from the shooter's base centre to the target's base centre.

* **Blocked** when it touches or crosses a piece that blocks line of sight, except a
  passable piece (woods, ruins) that the shooter or the target stands in (its base overlaps
  the piece by more than the contact tolerance): models in woods see out and are seen, nobody
  sees through. Impassable blockers (walls, buildings) always block.
* **Models never block** sight lines (common skirmish practice; they are mobile and small).
* **Cover** (the best one applying, hard beats soft) comes from a piece when either
  (a) the piece is passable and the target's base overlaps it ("in" it), or
  (b) the sight line crosses the piece within ``behind_distance`` (``geometry.toml``, 1")
  of the target's base edge ("directly behind" it) and the shooter's base does not touch
  the piece (the shooter's own cover never covers the target).

The hot path uses ``shapely.lib`` ufuncs directly: the public wrappers add microseconds of
argument checking per call, and these queries run for every model at every decision. Most
GEOS calls are not made at all: plain-float tests prove that a sight line misses a piece
(a separating axis of the piece's bounding box) or crosses it (a proper crossing of one of
its edges), or that a base centre is outside a grown piece's box; the sight line's GEOS
geometry is only built for the first GEOS call that remains. The plain-float tests answer
only when the answer is certain despite rounding (see :func:`_touch`), so the results are
exactly GEOS's (``tests/test_table_sight_exact.py`` checks awkward lines against it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely import lib as _geos

from riven_env.table.bases import Bases
from riven_env.table.config import COVER_LEVELS, Cover, geometry_config
from riven_env.table.table import Box, Outline, Table

_BEHIND = geometry_config().cover_behind_distance

# Error bound of an orientation determinant dx * (cy - ay) - dy * (cx - ax) in doubles,
# relative to m * m where every coordinate is within [-m, m]: each product is at most
# 4 m^2, and Shewchuk's bound is (3 + 16 eps) eps ~ 3.3e-16 times their sum (8 m^2).
# This is over a thousand times larger, a wide margin at no cost.
_ORIENT_ERR = 1e-11

_NAN_ALLOW = np.intc(0)  # shapely's handle_nan="allow" (the default; coordinates are finite)


def _segment(ax: float, ay: float, bx: float, by: float) -> shapely.LineString:
    return _geos.linestrings(np.array(((ax, ay), (bx, by))), _NAN_ALLOW)


def _tolerance(table: Table, ax: float, ay: float, bx: float, by: float) -> float:
    """The rounding error bound of any orientation determinant of a query on ``table``."""
    m = max(table.extent, ax, -ax, ay, -ay, bx, -bx, by, -by)
    return _ORIENT_ERR * m * m


def _touch(
    parts: tuple[Outline, ...], ax: float, ay: float, bx: float, by: float, err: float
) -> bool | None:
    """Whether the segment from ``a`` to ``b`` meets any of the polygons, when certain.

    ``False``: a separating axis (x, y, or the segment's normal with every corner of the
    box strictly on one side, by more than ``err``) proves a miss for every polygon.
    ``True``: the segment properly crosses an edge (each segment's ends strictly on both
    sides of the other's line, by more than ``err``). ``None``: not certain (touching,
    ending inside, too close to call); ask GEOS, whose predicates are exact, as these are
    when they answer.
    """
    dx, dy = bx - ax, by - ay
    unsure = False
    for (xmin, ymin, xmax, ymax), rings in parts:
        if ax < xmin and bx < xmin or ax > xmax and bx > xmax:
            continue
        if ay < ymin and by < ymin or ay > ymax and by > ymax:
            continue
        # side(c) = dx * (cy - ay) - dy * (cx - ax) is linear in the corner c, so its
        # extremes over the box lie at the corners picked by the signs of dx and dy.
        if dx > 0.0:
            hi_y, lo_y = ymax, ymin
        else:
            hi_y, lo_y = ymin, ymax
        if dy > 0.0:
            hi_x, lo_x = xmin, xmax
        else:
            hi_x, lo_x = xmax, xmin
        if dx * (hi_y - ay) - dy * (hi_x - ax) < -err or dx * (lo_y - ay) - dy * (lo_x - ax) > err:
            continue
        if _crosses_edge(rings, ax, ay, bx, by, err):
            return True
        unsure = True
    return None if unsure else False


def _crosses_edge(
    rings: tuple[tuple[tuple[float, float], ...], ...],
    ax: float,
    ay: float,
    bx: float,
    by: float,
    err: float,
) -> bool:
    """Whether the segment from ``a`` to ``b`` certainly crosses an edge of the rings."""
    dx, dy = bx - ax, by - ay
    for ring in rings:
        px, py = ring[0]
        p_side = dx * (py - ay) - dy * (px - ax)
        for qx, qy in ring:  # the first "edge" is the point ring[0] itself: never crossed
            q_side = dx * (qy - ay) - dy * (qx - ax)
            if p_side > err and q_side < -err or p_side < -err and q_side > err:
                ex, ey = qx - px, qy - py
                a_side = ex * (ay - py) - ey * (ax - px)
                b_side = ex * (by - py) - ey * (bx - px)
                if a_side > err and b_side < -err or a_side < -err and b_side > err:
                    return True
            px, py, p_side = qx, qy, q_side
    return False


def _meets(
    geometry: shapely.Geometry | None,
    parts: tuple[Outline, ...],
    ax: float,
    ay: float,
    bx: float,
    by: float,
    err: float,
    line: list[shapely.LineString],
) -> bool:
    """``intersects(geometry, segment a-b)`` where ``parts`` are the polygons of ``geometry``.

    GEOS is asked only when the plain-float test (:func:`_touch`) is not certain; ``line``
    holds the segment's GEOS geometry once built (empty until then), so that one query
    builds it at most once.
    """
    certain = _touch(parts, ax, ay, bx, by, err)
    if certain is not None:
        return certain
    if not line:
        line.append(_segment(ax, ay, bx, by))
    return bool(_geos.intersects(geometry, line[0]))


def _within(shape: shapely.Geometry, box: Box, x: float, y: float) -> bool:
    """``contains_xy(shape, x, y)``, without the GEOS call when ``(x, y)`` is outside ``box``."""
    if x < box[0] or x > box[2] or y < box[1] or y > box[3]:
        return False
    return bool(_geos.contains_xy(shape, x, y))


def _clear(
    table: Table,
    segment: shapely.LineString | None,
    ax: float,
    ay: float,
    a_radius: float,
    bx: float,
    by: float,
    b_radius: float,
) -> bool:
    # ``segment`` is the sight line's GEOS geometry when the caller has it (built here on
    # first need otherwise).
    err = _tolerance(table, ax, ay, bx, by)
    line: list[shapely.LineString] = [] if segment is None else [segment]
    if _meets(table.los_solid, table.los_solid_outlines, ax, ay, bx, by, err, line):
        return False
    if not _meets(table.los_area, table.los_area_outlines, ax, ay, bx, by, err, line):
        return True
    at_a = table.for_radius(a_radius)
    at_b = table.for_radius(b_radius)
    outlines = table.shape_parts
    for k in table.los_area_ids:
        if not _meets(table.shapes[k], outlines[k], ax, ay, bx, by, err, line):
            continue
        if _within(at_a.inside[k], at_a.inside_boxes[k], ax, ay) or _within(
            at_b.inside[k], at_b.inside_boxes[k], bx, by
        ):
            continue  # a model standing in the piece sees out of it / is seen in it
        return False
    return True


def line_of_sight(
    table: Table,
    a_xy: Sequence[float],
    b_xy: Sequence[float],
    *,
    a_radius: float = 0.0,
    b_radius: float = 0.0,
) -> bool:
    """Whether a sight line from ``a_xy`` to ``b_xy`` is clear of line-blocking terrain.

    Args:
        table: The table.
        a_xy: The viewer's base centre.
        b_xy: The viewed base centre.
        a_radius: The viewer's base radius (decides whether it stands in a piece).
        b_radius: The viewed model's base radius.

    Returns:
        True when nothing blocks (models never block).
    """
    ax, ay, bx, by = float(a_xy[0]), float(a_xy[1]), float(b_xy[0]), float(b_xy[1])
    return _clear(table, None, ax, ay, a_radius, bx, by, b_radius)


def _cover(
    table: Table,
    sx: float,
    sy: float,
    shooter_radius: float,
    tx: float,
    ty: float,
    target_radius: float,
) -> Cover:
    at_target = table.for_radius(target_radius)
    candidates = at_target.cover_candidates(tx, ty)
    if not candidates:
        return "none"
    at_shooter = table.for_radius(shooter_radius)
    ranks = table.cover_ranks
    pieces = table.pieces
    outlines = table.shape_parts
    near_end = None
    near_line: list[shapely.LineString] = []
    best = 0
    for k in candidates:
        rank = ranks[k]
        if rank <= best:
            continue
        if not pieces[k].impassable and _within(
            at_target.inside[k], at_target.inside_boxes[k], tx, ty
        ):
            best = rank  # the target stands in the piece
            continue
        if _within(at_shooter.touching[k], at_shooter.touching_boxes[k], sx, sy):
            continue  # the shooter's own cover
        if near_end is None:
            near_end = _near_end(sx, sy, tx, ty, target_radius)
            if near_end is None:
                return COVER_LEVELS[best]
            err = _tolerance(table, tx, ty, *near_end)
        ex, ey = near_end
        if _meets(table.shapes[k], outlines[k], tx, ty, ex, ey, err, near_line):
            best = rank
    return COVER_LEVELS[best]


def _near_end(
    sx: float, sy: float, tx: float, ty: float, target_radius: float
) -> tuple[float, float] | None:
    """Where the part of the sight line within the behind-distance of the target's base
    edge ends (it starts at the target's centre); ``None`` when the bases share a centre."""
    dx, dy = sx - tx, sy - ty
    length = math.hypot(dx, dy)
    if length <= 0.0:
        return None
    reach = min(length, target_radius + _BEHIND) / length
    return tx + dx * reach, ty + dy * reach


def cover_for_shot(
    table: Table,
    shooter_xy: Sequence[float],
    shooter_radius: float,
    target_xy: Sequence[float],
    target_radius: float,
) -> Cover:
    """The cover a target has against a shooter (line of sight is not checked here).

    Args:
        table: The table.
        shooter_xy: Shooter's base centre.
        shooter_radius: Shooter's base radius.
        target_xy: Target's base centre.
        target_radius: Target's base radius.

    Returns:
        ``"none"``, ``"soft"`` or ``"hard"``: the best cover that applies (module docstring).
    """
    return _cover(
        table,
        float(shooter_xy[0]),
        float(shooter_xy[1]),
        float(shooter_radius),
        float(target_xy[0]),
        float(target_xy[1]),
        float(target_radius),
    )


def sight(table: Table, bases: Bases, shooter: int, target: int) -> tuple[bool, Cover]:
    """Line of sight and cover from model ``shooter`` to model ``target`` in one query.

    Returns:
        ``(visible, cover)``; ``(False, "none")`` when the target cannot be seen or either
        model is off the table.
    """
    layout = bases.layout()
    if not (layout.on_table[shooter] and layout.on_table[target]):
        return False, "none"
    sx, sy = layout.centers[shooter]
    tx, ty = layout.centers[target]
    return sight_between(table, sx, sy, layout.radii[shooter], tx, ty, layout.radii[target])


def sight_between(
    table: Table, sx: float, sy: float, sr: float, tx: float, ty: float, tr: float
) -> tuple[bool, Cover]:
    """Line of sight and cover from a base at ``(sx, sy)`` (radius ``sr``) to one at ``(tx, ty)``.

    The answer depends only on the two bases and the terrain, so it is remembered per map
    (``[cache] sight_cache_entries``, oldest dropped first): models that have not moved are
    asked about again at every decision.

    Returns:
        ``(visible, cover)``; ``(False, "none")`` when sight is blocked.
    """
    key = (sx, sy, sr, tx, ty, tr)
    memo = table._sight_lines
    found = memo.get(key)
    if found is None:
        if _clear(table, None, sx, sy, sr, tx, ty, tr):
            found = (True, _cover(table, sx, sy, sr, tx, ty, tr))
        else:
            found = (False, "none")
        memo[key] = found
        if len(memo) > geometry_config().sight_cache_entries:
            memo.popitem(last=False)
    return found  # type: ignore[return-value]
