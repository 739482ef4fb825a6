"""Measurement between bases: edge-to-edge distance, contact, range and edge queries.

All distances are measured edge to edge between round bases (centre distance minus both
radii), never negative. Removed models are infinitely far away.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from riven_env.table.bases import Bases
from riven_env.table.config import geometry_config
from riven_env.table.layout import HYPOT_BAND, Layout
from riven_env.table.table import Table

CONTACT_TOL: float = geometry_config().contact_tolerance
"""Largest edge gap that still counts as base contact (``geometry.toml`` [measure])."""


def edge_distance(bases: Bases, i: int, j: int) -> float:
    """Edge-to-edge distance between models ``i`` and ``j`` (inf if either is removed)."""
    return layout_edge_distance(bases.layout(), i, j)


def layout_edge_distance(layout: Layout, i: int, j: int) -> float:
    """:func:`edge_distance` on a layout snapshot already in hand (the same float)."""
    # Plain floats: a scalar query, asked many times per decision.
    on_table = layout.on_table
    if not (on_table[i] and on_table[j]):
        return math.inf
    (xi, yi), (xj, yj) = layout.centers[i], layout.centers[j]
    radii = layout.radii
    return max(0.0, math.hypot(xi - xj, yi - yj) - radii[i] - radii[j])


def _gaps_from(bases: Bases, i: int) -> np.ndarray:
    gaps = np.hypot(*(bases.centers - bases.centers[i]).T) - bases.radii - bases.radii[i]
    gaps = np.maximum(gaps, 0.0)
    gaps[~bases.on_table] = np.inf
    gaps[i] = np.inf
    if not bases.on_table[i]:
        gaps[:] = np.inf
    return gaps


def edge_distances_from(bases: Bases, i: int) -> np.ndarray:
    """Edge-to-edge distances from model ``i`` to every model (inf for removed and for ``i``).

    Returns:
        A new array (the layout's remembered row stays untouched).
    """
    i = int(i)
    return bases.layout().gaps_from(i, lambda: _gaps_from(bases, i)).copy()


def in_contact(bases: Bases, i: int, j: int, tol: float = CONTACT_TOL) -> bool:
    """Whether bases ``i`` and ``j`` touch (edge gap at most ``tol``); symmetric."""
    return i != j and edge_distance(bases, i, j) <= tol


def contacts(bases: Bases, i: int, tol: float = CONTACT_TOL) -> list[int]:
    """Models in base contact with ``i``, in index order."""
    i = int(i)
    layout = bases.layout()
    found = layout.contacts(
        i, float(tol), lambda: layout.gaps_from(i, lambda: _gaps_from(bases, i))
    )
    return list(found)


def engagements(bases: Bases, tol: float = CONTACT_TOL) -> list[tuple[int, int]]:
    """Every pair ``(i, j)``, ``i < j``, of on-table models in base contact."""
    pairs = []
    for i in np.flatnonzero(bases.on_table):
        pairs.extend((int(i), j) for j in contacts(bases, int(i), tol) if j > i)
    return pairs


def models_within(bases: Bases, point_or_index: int | Sequence[float], r: float) -> list[int]:
    """Models whose base comes within ``r`` of a point or of a model's base edge.

    Args:
        bases: The bases.
        point_or_index: A model index (measured edge to edge, the model itself excluded)
            or an ``(x, y)`` point (measured from the point to each base edge).
        r: Range, inches.

    Returns:
        Indices of on-table models in range, ascending.
    """
    if isinstance(point_or_index, (int, np.integer)):
        i = int(point_or_index)
        gaps = bases.layout().gaps_from(i, lambda: _gaps_from(bases, i))
    else:
        px, py = float(point_or_index[0]), float(point_or_index[1])
        gaps = np.hypot(bases.centers[:, 0] - px, bases.centers[:, 1] - py) - bases.radii
        gaps = np.where(bases.on_table, np.maximum(gaps, 0.0), np.inf)
    return [int(j) for j in np.flatnonzero(gaps <= r)]


def nearest(bases: Bases, i: int, candidates: Sequence[int]) -> int | None:
    """The on-table candidate nearest to ``i`` (edge to edge); ties go to the first listed."""
    if len(candidates) == 0:
        return None
    # Plain-float gaps pick the winner; numpy's exact row (the reference, see
    # Layout.contacts) decides only when several candidates are within a hair of the best.
    layout = bases.layout()
    gaps = [layout_edge_distance(layout, i, int(j)) if j != i else math.inf for j in candidates]
    best = min(gaps)
    if not math.isfinite(best):
        return None
    close = [k for k, gap in enumerate(gaps) if gap <= best + HYPOT_BAND]
    if len(close) == 1:
        return int(candidates[close[0]])
    row = bases.layout().gaps_from(i, lambda: _gaps_from(bases, i))
    return int(candidates[int(np.argmin(row[np.asarray(candidates, dtype=np.int64)]))])


def distance_to_nearest_edge(table: Table, bases: Bases, i: int) -> float:
    """Distance from model ``i``'s base edge to the nearest table edge (0 when touching)."""
    x, y = bases.center(i)
    r = float(bases.radii[i])
    return max(0.0, min(x, y, table.width - x, table.height - y) - r)


def nearest_edge_point(table: Table, bases: Bases, i: int) -> tuple[float, float]:
    """The point of the table edge nearest to model ``i``'s centre.

    Ties between edges go in the order left, bottom, right, top.
    """
    x, y = bases.center(i)
    options = (
        (x, (0.0, y)),
        (y, (x, 0.0)),
        (table.width - x, (table.width, y)),
        (table.height - y, (x, table.height)),
    )
    return min(options, key=lambda option: option[0])[1]
