"""A square raster of the table: terrain, objectives and models as image channels.

Used as the optional ``raster`` observation for convolutional policies and by the
environments' ``rgb_array`` rendering. Cell ``[c, row, col]`` covers the table square whose
centre is at ``x = (col + 0.5) * width / size`` and ``y = (row + 0.5) * height / size``
(row 0 at y = 0). A side-relative raster is rotated half a turn for red, so that row 0 is
always the observer's own table edge when the deployment zones face each other.

The terrain layers depend on the table only; callers that raster many states of one table
pass them in (``terrain=``) instead of building them again. A disc depends on its centre and
radius only, and most bases stand still from one raster to the next, so each disc's cells
are remembered (bounded) and a layer is the union of its discs.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import shapely

TERRAIN_CHANNELS = ("impassable", "blocks_los", "cover_soft", "cover_hard", "difficult")
MODEL_CHANNELS = ("own_active", "own_down", "enemy_active", "enemy_down", "acting_model")
RASTER_CHANNELS = (*TERRAIN_CHANNELS, "objectives", *MODEL_CHANNELS)
"""Channel names in order."""

# Discs remembered per process (by centre, radius and raster geometry); the store starts
# afresh when full. A game sees a few hundred distinct base positions.
DISC_LIMIT = 4096
_DISCS: dict[tuple[float, float, float, float, float, int], np.ndarray] = {}


def cell_centres(width: float, height: float, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(xs, ys)``, each ``(size, size)``: the centres of the raster cells in inches."""
    xs = (np.arange(size) + 0.5) * (width / size)
    ys = (np.arange(size) + 0.5) * (height / size)
    grid_x, grid_y = np.meshgrid(xs, ys)
    return grid_x, grid_y


def terrain_layers(table: Any, size: int) -> np.ndarray:
    """The terrain channels of ``table`` at ``size`` cells per side (absolute orientation).

    Returns:
        A ``(len(TERRAIN_CHANNELS), size, size)`` float32 array of 0/1.
    """
    grid_x, grid_y = cell_centres(table.width, table.height, size)
    layers = np.zeros((len(TERRAIN_CHANNELS), size, size), dtype=np.float32)
    for piece in table.pieces:
        inside = shapely.contains_xy(piece.polygon, grid_x, grid_y)
        flags = (
            piece.impassable,
            piece.blocks_los,
            piece.cover == "soft",
            piece.cover == "hard",
            piece.difficult,
        )
        for channel, flag in enumerate(flags):
            if flag:
                layers[channel][inside] = 1.0
    return layers


def discs(
    centres: np.ndarray, radii: np.ndarray, width: float, height: float, size: int
) -> np.ndarray:
    """A ``(size, size)`` 0/1 layer with a disc per centre (at least the centre's cell).

    Args:
        centres: ``(M, 2)`` points in inches.
        radii: ``(M,)`` radii in inches.
        width: Table width.
        height: Table height.
        size: Cells per side.
    """
    layer = np.zeros((size, size), dtype=np.float32)
    covered = None
    for (x, y), r in zip(centres.tolist(), radii.tolist(), strict=True):
        cells = _disc(x, y, r, width, height, size)
        covered = cells.copy() if covered is None else np.logical_or(covered, cells, out=covered)
    if covered is not None:
        layer[covered] = 1.0
    return layer


def _disc(x: float, y: float, r: float, width: float, height: float, size: int) -> np.ndarray:
    """The cells of one disc and its centre's cell (bool, read-only; remembered).

    The same float64 operations, element by element, as the batched formula it replaced.
    """
    key = (x, y, r, width, height, size)
    found = _DISCS.get(key)
    if found is None:
        grid_x, grid_y = _grid(width, height, size)
        dx = grid_x - x
        dy = grid_y - y
        found = dx * dx + dy * dy <= r * r
        col = min(max(int(x / width * size), 0), size - 1)
        row = min(max(int(y / height * size), 0), size - 1)
        found[row, col] = True
        found.flags.writeable = False
        if len(_DISCS) >= DISC_LIMIT:
            _DISCS.clear()
        _DISCS[key] = found
    return found


@functools.lru_cache(maxsize=16)
def _grid(width: float, height: float, size: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cell_centres`, built once per raster geometry (read-only)."""
    grid_x, grid_y = cell_centres(width, height, size)
    grid_x.flags.writeable = False
    grid_y.flags.writeable = False
    return grid_x, grid_y


def orient(layers: np.ndarray, flip: bool) -> np.ndarray:
    """Rotate ``(..., rows, cols)`` layers half a turn when ``flip`` (the red view)."""
    return layers[..., ::-1, ::-1] if flip else layers


def table_raster(
    state: Any,
    side: str | None,
    size: int,
    terrain: np.ndarray | None = None,
    *,
    acting: bool = True,
) -> np.ndarray:
    """The raster of ``state`` as seen by ``side``.

    Args:
        state: The game state.
        side: The observer (``"red"`` rotates the raster); None: absolute orientation,
            blue models in the ``own`` channels.
        size: Cells per side.
        terrain: ``terrain_layers(state.table, size)`` if already built.
        acting: Fill the ``acting_model`` channel (else it stays 0; see
            :func:`acting_layer`).

    Returns:
        A ``(len(RASTER_CHANNELS), size, size)`` float32 array of 0/1.
    """
    table = state.table
    width, height = table.width, table.height
    out = np.zeros((len(RASTER_CHANNELS), size, size), dtype=np.float32)
    out[: len(TERRAIN_CHANNELS)] = terrain if terrain is not None else terrain_layers(table, size)
    objectives = [o for k, o in enumerate(state.objectives) if k not in state.looted]
    if objectives:
        points = np.array([(o.x, o.y) for o in objectives], dtype=np.float64)
        radii = np.array([o.radius for o in objectives], dtype=np.float64)
        out[len(TERRAIN_CHANNELS)] = discs(points, radii, width, height, size)
    centres = state.bases.centers
    radii = state.bases.radii
    base = len(TERRAIN_CHANNELS) + 1
    groups: dict[str, list[int]] = {name: [] for name in MODEL_CHANNELS}
    for model in state.models:
        if not model.on_table:
            continue
        who = "own" if model.side == (side or "blue") else "enemy"
        groups[f"{who}_{'active' if model.is_active else 'down'}"].append(model.index)
    if acting and state.active_model is not None and state.models[state.active_model].on_table:
        groups["acting_model"].append(state.active_model)
    for offset, name in enumerate(MODEL_CHANNELS):
        chosen = groups[name]
        if chosen:
            out[base + offset] = discs(centres[chosen], radii[chosen], width, height, size)
    return np.ascontiguousarray(orient(out, side == "red"))


def acting_layer(state: Any, side: str | None, size: int) -> np.ndarray | None:
    """The ``acting_model`` channel of :func:`table_raster` alone (None when it is empty)."""
    i = state.active_model
    if i is None or not state.models[i].on_table:
        return None
    table = state.table
    bases = state.bases
    layer = discs(bases.centers[[i]], bases.radii[[i]], table.width, table.height, size)
    return orient(layer, side == "red")
