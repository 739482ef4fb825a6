"""Seeded random tables and base layouts (for tests, benchmarks and quick experiments).

Every function takes a ``numpy.random.Generator``; the same seed gives the same result.
These are not the mission generator (``riven_env.scenario``): no balance, no deployment.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from riven_env.errors import TerrainError
from riven_env.table.bases import Bases
from riven_env.table.navigation import static_nav
from riven_env.table.table import Table

DEFAULT_MIX: tuple[str, ...] = (
    "wall",
    "building",
    "ruin",
    "woods",
    "low_wall",
    "rubble",
    "scrub",
    "boulder",
    "water",
    "crates",
    "hedge",
    "pit",
)
"""Terrain types :func:`random_table` cycles through (one of each for 12 pieces)."""


def random_terrain_spec(
    rng: np.random.Generator,
    *,
    width: float = 36.0,
    height: float = 36.0,
    pieces: int = 12,
    types: Sequence[str] = DEFAULT_MIX,
    size: tuple[float, float] = (1.5, 6.0),
    edge_gap: float = 1.0,
) -> dict[str, object]:
    """A table spec with ``pieces`` rectangles and circles of the given types.

    Args:
        rng: Random generator.
        width: Table width.
        height: Table height.
        pieces: Number of pieces.
        types: Terrain types, used in turn.
        size: Smallest and largest side (or diameter) of a piece, inches.
        edge_gap: Distance kept between pieces and the table edge.

    Returns:
        A spec for :meth:`Table.from_spec`.
    """
    lo, hi = size
    if hi + 2 * edge_gap > min(width, height):
        raise TerrainError(f'random_terrain_spec: pieces up to {hi}" do not fit the table')
    terrain = []
    for k in range(pieces):
        kind = types[k % len(types)]
        if rng.random() < 0.3:
            r = float(rng.uniform(lo, hi)) / 2.0
            cx = float(rng.uniform(edge_gap + r, width - edge_gap - r))
            cy = float(rng.uniform(edge_gap + r, height - edge_gap - r))
            shape: dict[str, object] = {"circle": [round(cx, 3), round(cy, 3), round(r, 3)]}
        else:
            w, h = (float(v) for v in rng.uniform(lo, hi, size=2))
            if kind in ("wall", "low_wall", "hedge"):
                w, h = (w * 1.5, 0.5) if rng.random() < 0.5 else (0.5, h * 1.5)
                w, h = min(w, width - 2 * edge_gap), min(h, height - 2 * edge_gap)
            x0 = float(rng.uniform(edge_gap, width - edge_gap - w))
            y0 = float(rng.uniform(edge_gap, height - edge_gap - h))
            shape = {"rect": [round(x0, 3), round(y0, 3), round(x0 + w, 3), round(y0 + h, 3)]}
        terrain.append({"name": f"{kind} {k}", "type": kind, **shape})
    return {"width": width, "height": height, "terrain": terrain}


def random_table(rng: np.random.Generator, **kwargs: object) -> Table:
    """:func:`random_terrain_spec` built into a :class:`Table`."""
    return Table.from_spec(random_terrain_spec(rng, **kwargs))  # type: ignore[arg-type]


def random_bases(
    table: Table,
    rng: np.random.Generator,
    count: int,
    diameter: float | Sequence[float] = 1.0,
    *,
    attempts: int = 10_000,
) -> Bases:
    """``count`` bases at random legal, non-overlapping positions.

    Args:
        table: The table.
        rng: Random generator.
        count: Number of bases.
        diameter: One diameter for all, or one per base.
        attempts: Random points tried in all before giving up.

    Raises:
        TerrainError: Not enough room found within ``attempts`` tries.
    """
    diameters = np.broadcast_to(np.asarray(diameter, dtype=np.float64), (count,))
    placed: list[np.ndarray] = []
    tries = 0
    for k in range(count):
        radius = float(diameters[k]) / 2.0
        nav = static_nav(table, radius)
        xmin, ymin, xmax, ymax = nav.bounds
        while True:
            tries += 1
            if tries > attempts:
                raise TerrainError(f"random_bases: placed only {k} of {count} bases")
            point = np.array([rng.uniform(xmin, xmax), rng.uniform(ymin, ymax)])
            if not nav.legal(point[None, :])[0]:
                continue
            if placed:
                gaps = np.hypot(*(np.array(placed) - point).T) - diameters[: len(placed)] / 2.0
                if np.min(gaps) < radius:
                    continue
            placed.append(point)
            break
    return Bases.from_lists(np.array(placed).reshape(-1, 2), diameters)
