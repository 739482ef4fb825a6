"""Rendering of a game state for the environments: ``rgb_array`` (numpy) and ``ansi`` (text).

Both are drawn from the tabletop data with numpy alone (no matplotlib), so rendering works
in any worker process. The ``rgb_array`` image is the table seen from above, blue's edge at
the bottom: terrain by kind, objectives, then bases (blue, red; Down models pale; the acting
model outlined in yellow).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from riven_env.encoding.raster import RASTER_CHANNELS, table_raster

# Colours (RGB) painted in this order; later layers cover earlier ones.
_PALETTE: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("difficult", (196, 186, 150)),
    ("blocks_los", (90, 90, 90)),
    ("cover_soft", (120, 170, 100)),
    ("cover_hard", (140, 140, 140)),
    ("impassable", (50, 50, 50)),
    ("objectives", (230, 200, 60)),
    ("own_down", (150, 170, 230)),
    ("enemy_down", (230, 150, 150)),
    ("own_active", (40, 80, 220)),
    ("enemy_active", (210, 40, 40)),
)
_BACKGROUND = (225, 215, 185)
_ACTING_OUTLINE = (255, 230, 0)
_CHANNEL = {name: k for k, name in enumerate(RASTER_CHANNELS)}


def render_rgb(state: Any, pixels_per_inch: int) -> np.ndarray:
    """The table from above as an ``(H, W, 3)`` uint8 image (blue's edge at the bottom)."""
    width = int(round(state.table.width * pixels_per_inch))
    height = int(round(state.table.height * pixels_per_inch))
    size = max(width, height)
    layers = table_raster(state, None, size)
    image = np.empty((size, size, 3), dtype=np.uint8)
    image[:] = _BACKGROUND
    for name, colour in _PALETTE:
        image[layers[_CHANNEL[name]] > 0] = colour
    acting = layers[_CHANNEL["acting_model"]] > 0
    if acting.any():
        edge = acting & ~_eroded(acting)
        image[edge] = _ACTING_OUTLINE
    # Raster rows grow with y; images grow downward: flip so that y = 0 is at the bottom.
    image = image[::-1]
    return np.ascontiguousarray(
        image[size - height :, :width] if size != height else image[:, :width]
    )


def _eroded(mask: np.ndarray) -> np.ndarray:
    inner = mask.copy()
    inner[1:, :] &= mask[:-1, :]
    inner[:-1, :] &= mask[1:, :]
    inner[:, 1:] &= mask[:, :-1]
    inner[:, :-1] &= mask[:, 1:]
    return inner


def render_ansi(state: Any, columns_per_inch: float, rows_per_inch: float) -> str:
    """A text board (terrain ``#`` impassable, ``%`` hard cover, ``"`` soft cover, ``~``
    difficult, ``O`` objectives, blue models ``A..``, red ``a..``, Down models ``*``) followed
    by the round, phase, points and a line per model."""
    cols = max(8, int(round(state.table.width * columns_per_inch)))
    rows = max(4, int(round(state.table.height * rows_per_inch)))
    size = max(cols, rows)
    layers = table_raster(state, None, size)
    grid = np.full((size, size), " ", dtype="<U1")
    for name, char in (
        ("difficult", "~"),
        ("cover_soft", '"'),
        ("cover_hard", "%"),
        ("impassable", "#"),
        ("objectives", "O"),
    ):
        grid[layers[_CHANNEL[name]] > 0] = char
    letters = {"blue": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "red": "abcdefghijklmnopqrstuvwxyz"}
    count = {"blue": 0, "red": 0}
    lines_models = []
    for model in state.models:
        letter = letters[model.side][count[model.side] % 26]
        count[model.side] += 1
        x, y = state.position(model.index)
        if model.on_table:
            col = min(size - 1, max(0, int(x / state.table.width * size)))
            row = min(size - 1, max(0, int(y / state.table.height * size)))
            grid[row, col] = letter if model.is_active else "*"
        flags = "".join(sorted(model.conditions))
        lines_models.append(
            f"{letter} {model.id:<16} {model.status:<9} wounds {model.wounds} strain "
            f"{model.strain} at ({x:5.1f},{y:5.1f}) {flags}"
        )
    # Resample the square grid to the board's aspect, y = 0 at the bottom.
    row_index = (np.arange(rows) * size // rows)[::-1]
    col_index = np.arange(cols) * size // cols
    board = grid[np.ix_(row_index, col_index)]
    border = "+" + "-" * cols + "+"
    text = [border, *("|" + "".join(r) + "|" for r in board), border]
    header = (
        f"round {state.round}/{state.round_limit}  side {state.side}  phase {state.phase}  "
        f"points blue {state.points['blue']} red {state.points['red']}  momentum blue "
        f"{state.momentum_of('blue')} red {state.momentum_of('red')}"
    )
    if state.is_terminal:
        header += f"  OVER: winner {state.winner} ({state.end_reason})"
    return "\n".join([header, *text, *lines_models]) + "\n"


__all__ = ["render_ansi", "render_rgb"]
