"""The plain-float shortcuts of sight and cover answer exactly as GEOS does.

:mod:`riven_env.table.sight` skips GEOS calls when a plain-float test is certain. These
tests compare it with a direct GEOS implementation of the same rules on random sight lines
and on the awkward ones: along edges, through vertices, grazing corners, ending on or in
pieces, of zero length.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from riven_env.scenario import load_scenario
from riven_env.table import Table, sight_between
from riven_env.table.config import COVER_LEVELS, geometry_config
from riven_env.table.sight import _meets, _tolerance

AWKWARD = Table.from_spec(
    {
        "width": 36,
        "height": 36,
        "terrain": [
            {"name": "wall", "type": "wall", "rect": [17, 10, 19, 26]},
            {"name": "touching wall", "type": "wall", "rect": [19, 10, 21, 12]},
            {"name": "tilted", "type": "building", "polygon": [[3, 3], [9, 5], [7, 11], [1, 8]]},
            {"name": "pillar", "type": "pillar", "circle": [28, 28, 1.5]},
            {
                "name": "ring ruin",
                "type": "ruin",
                "polygon": [[24, 2], [34, 2], [34, 12], [24, 12]],
                "holes": [[[27, 5], [31, 5], [31, 9], [27, 9]]],
            },
            {"name": "woods", "type": "woods", "rect": [4, 28, 12, 34]},
            {"name": "overlapping woods", "type": "woods", "rect": [10, 24, 14, 30]},
            {"name": "low wall", "type": "low_wall", "rect": [26, 14, 26.5, 22]},
            {"name": "scrub", "type": "scrub", "circle": [6, 18, 2]},
            {"name": "crates", "type": "crates", "rect": [30, 30, 31, 31]},
        ],
    }
)


def _tables() -> list[Table]:
    return [AWKWARD, load_scenario("skirmish-5v5").table, load_scenario("ruins").table]


def _vertices(table: Table) -> np.ndarray:
    return np.concatenate([shapely.get_coordinates(p.polygon) for p in table.pieces])


def _segments(table: Table, rng: np.random.Generator) -> list[tuple[float, float, float, float]]:
    """Random segments, and segments between vertices, along edges and of zero length."""
    points = rng.uniform(0.0, 36.0, size=(300, 4)).tolist()
    corners = _vertices(table)
    picks = rng.integers(0, len(corners), size=(300, 2))
    for i, j in picks:
        (ax, ay), (bx, by) = corners[i], corners[j]
        points.append((ax, ay, bx, by))
        # Past a vertex, stopping short of it, and on the line through two vertices.
        points.append((ax, ay, ax + 2.0 * (bx - ax), ay + 2.0 * (by - ay)))
        points.append((ax - (bx - ax), ay - (by - ay), ax, ay))
        points.append((ax, ay, ax + 0.5 * (bx - ax), ay + 0.5 * (by - ay)))
        points.append((ax, ay, ax, ay))
    for ax, ay in corners[:: max(1, len(corners) // 40)]:
        for dx, dy in ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (-1.0, 1e-17), (1e-300, 3.0)):
            points.append((ax - dx, ay - dy, ax + dx, ay + dy))
    return points


def _reference(table: Table, sx: float, sy: float, sr: float, tx: float, ty: float, tr: float):
    """The sight rules with a GEOS call for every test (no shortcut)."""
    line = shapely.LineString([(sx, sy), (tx, ty)])
    if table.los_solid is not None and shapely.intersects(table.los_solid, line):
        return False, "none"
    at_s, at_t = table.for_radius(sr), table.for_radius(tr)
    area = table.los_area
    for k in table.los_area_ids if area is not None and shapely.intersects(area, line) else ():
        if not shapely.intersects(table.shapes[k], line):
            continue
        if shapely.contains_xy(at_s.inside[k], sx, sy) or shapely.contains_xy(
            at_t.inside[k], tx, ty
        ):
            continue
        return False, "none"
    best = 0
    length = math.hypot(sx - tx, sy - ty)
    for k in at_t.cover_candidates(tx, ty):
        piece = table.pieces[k]
        rank = COVER_LEVELS.index(piece.cover)
        if rank <= best:
            continue
        if not piece.impassable and shapely.contains_xy(at_t.inside[k], tx, ty):
            best = rank
            continue
        if shapely.contains_xy(at_s.touching[k], sx, sy):
            continue
        if length <= 0.0:
            break
        reach = min(length, tr + geometry_config().cover_behind_distance) / length
        near = shapely.LineString([(tx, ty), (tx + (sx - tx) * reach, ty + (sy - ty) * reach)])
        if shapely.intersects(table.shapes[k], near):
            best = rank
    return True, COVER_LEVELS[best]


@pytest.mark.parametrize("which", range(3))
def test_segment_tests_agree_with_geos(which: int) -> None:
    table = _tables()[which]
    rng = np.random.default_rng(which)
    groups = [
        (table.los_solid, table.los_solid_outlines),
        (table.los_area, table.los_area_outlines),
    ]
    groups += list(zip(table.shapes, table.shape_parts, strict=True))
    for ax, ay, bx, by in _segments(table, rng):
        line = shapely.LineString([(ax, ay), (bx, by)])
        err = _tolerance(table, ax, ay, bx, by)
        for geometry, parts in groups:
            if geometry is None:
                continue
            want = bool(shapely.intersects(geometry, line))
            assert _meets(geometry, parts, ax, ay, bx, by, err, []) == want, (ax, ay, bx, by)


@pytest.mark.parametrize("which", range(3))
def test_sight_agrees_with_geos(which: int) -> None:
    table = _tables()[which]
    rng = np.random.default_rng(10 + which)
    radii = (0.5, 0.75, 1.0)
    for ax, ay, bx, by in _segments(table, rng):
        sr, tr = radii[int(rng.integers(3))], radii[int(rng.integers(3))]
        want = _reference(table, ax, ay, sr, bx, by, tr)
        assert sight_between(table, ax, ay, sr, bx, by, tr) == want, (ax, ay, sr, bx, by, tr)
