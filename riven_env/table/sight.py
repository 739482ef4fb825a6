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
argument checking per call, and these queries run for every model at every decision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely import lib as _geos

from riven_env.table.bases import Bases
from riven_env.table.config import COVER_LEVELS, Cover, geometry_config
from riven_env.table.cover import cover_rank
from riven_env.table.table import Table

_BEHIND = geometry_config().cover_behind_distance


def _segment(ax: float, ay: float, bx: float, by: float) -> shapely.LineString:
    return shapely.linestrings(np.array(((ax, ay), (bx, by))))


def _clear(
    table: Table,
    line: shapely.LineString,
    ax: float,
    ay: float,
    a_radius: float,
    bx: float,
    by: float,
    b_radius: float,
) -> bool:
    solid = table.los_solid
    if solid is not None and _geos.intersects(solid, line):
        return False
    area = table.los_area
    if area is None or not _geos.intersects(area, line):
        return True
    at_a = table.for_radius(a_radius).inside
    at_b = table.for_radius(b_radius).inside
    for k in table.los_area_ids:
        if not _geos.intersects(table.shapes[k], line):
            continue
        if _geos.contains_xy(at_a[k], ax, ay) or _geos.contains_xy(at_b[k], bx, by):
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
    return _clear(table, _segment(ax, ay, bx, by), ax, ay, a_radius, bx, by, b_radius)


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
    near_line = None
    best = 0
    for k in candidates:
        piece = table.pieces[k]
        rank = cover_rank(piece.cover)
        if rank <= best:
            continue
        if not piece.impassable and _geos.contains_xy(at_target.inside[k], tx, ty):
            best = rank  # the target stands in the piece
            continue
        if _geos.contains_xy(at_shooter.touching[k], sx, sy):
            continue  # the shooter's own cover
        if near_line is None:
            dx, dy = sx - tx, sy - ty
            length = math.hypot(dx, dy)
            if length <= 0.0:
                return COVER_LEVELS[best]
            reach = min(length, target_radius + _BEHIND) / length
            near_line = _segment(tx, ty, tx + dx * reach, ty + dy * reach)
        if _geos.intersects(table.shapes[k], near_line):
            best = rank
    return COVER_LEVELS[best]


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
        if _clear(table, _segment(sx, sy, tx, ty), sx, sy, sr, tx, ty, tr):
            found = (True, _cover(table, sx, sy, sr, tx, ty, tr))
        else:
            found = (False, "none")
        memo[key] = found
        if len(memo) > geometry_config().sight_cache_entries:
            memo.popitem(last=False)
    return found  # type: ignore[return-value]
