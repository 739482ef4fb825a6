"""Render a table state to PNG or SVG with matplotlib (imported lazily, inside the function).

For a dependency-free SVG string (what the HTML replay uses) see :mod:`riven_env.table.svg`;
both are re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from riven_env.errors import TerrainError
from riven_env.extras import require
from riven_env.table.bases import Bases
from riven_env.table.config import terrain_types
from riven_env.table.svg import Zone, side_colour, svg_for_state, svg_models, svg_terrain, to_svg
from riven_env.table.table import Table

__all__ = ["render_table", "svg_for_state", "svg_models", "svg_terrain", "to_svg"]

_FORMATS = {".png": "png", ".svg": "svg"}
_INCH_PIXELS = 20  # figure resolution: pixels per table inch


def render_table(
    table: Table,
    bases: Bases,
    *,
    sides: Sequence[str],
    labels: Sequence[str] | None = None,
    marks: Sequence[str] | None = None,
    objectives: Sequence[Sequence[float]] = (),
    zones: Sequence[Zone] = (),
    sight_lines: Sequence[tuple[int, int]] = (),
    paths: Sequence[Sequence[Sequence[float]]] = (),
    path_out: str | Path,
    title: str = "",
) -> None:
    """Draw the table (terrain by type, bases by side, labels, marks, overlays) to a file.

    Args:
        table: The table.
        bases: The bases.
        sides: Side name per model (base colour).
        labels: Text inside each base (default: the index).
        marks: Small text above each base (wounds, conditions).
        objectives: ``(x, y)`` or ``(x, y, radius)`` per objective.
        zones: Deployment zones, ``(side, (x0, y0, x1, y1))``.
        sight_lines: Model index pairs joined by a line.
        paths: Polylines to draw (planned moves).
        path_out: Output file; ``.png`` or ``.svg``.
        title: Figure title.

    Raises:
        TerrainError: The suffix is neither ``.png`` nor ``.svg``.
        MissingExtraError: matplotlib is not installed (extra ``render``).
    """
    out = Path(path_out)
    fmt = _FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise TerrainError(f"render_table: {out.name!r} must end in one of {sorted(_FORMATS)}")
    figure_mod = require("matplotlib.figure", "render", "Rendering a table")
    patches = require("matplotlib.patches", "render", "Rendering a table")
    mpath = require("matplotlib.path", "render", "Rendering a table")

    width_in = max(4.0, table.width / 6.0)
    fig = figure_mod.Figure(figsize=(width_in, width_in * table.height / table.width))
    ax = fig.add_subplot(1, 1, 1)
    ax.set_xlim(0, table.width)
    ax.set_ylim(0, table.height)
    ax.set_aspect("equal")
    ax.set_facecolor("#e9e4d4")
    if title:
        ax.set_title(title)
    types = terrain_types()
    for side, (x0, y0, x1, y1) in zones:
        colour = side_colour(side, sides)
        ax.add_patch(
            patches.Rectangle(
                (min(x0, x1), min(y0, y1)),
                abs(x1 - x0),
                abs(y1 - y0),
                facecolor=colour,
                alpha=0.12,
                edgecolor=colour,
                linestyle="--",
            )
        )
    for piece in table.pieces:
        rings = [piece.polygon.exterior, *piece.polygon.interiors]
        path = mpath.Path.make_compound_path(
            *(mpath.Path(list(ring.coords), closed=True) for ring in rings)
        )
        colour = types[piece.type].colour if piece.type in types else "#808080"
        ax.add_patch(
            patches.PathPatch(
                path,
                facecolor=colour,
                alpha=0.95 if piece.impassable else 0.7,
                edgecolor="#222",
                linewidth=2.0 if piece.blocks_los else 1.0,
                linestyle="-" if piece.impassable else "--",
            )
        )
    for k, objective in enumerate(objectives):
        radius = float(objective[2]) if len(objective) > 2 else 0.5
        ax.add_patch(
            patches.Circle(
                (objective[0], objective[1]),
                radius,
                facecolor="#f6e05e",
                alpha=0.5,
                edgecolor="#b7791f",
            )
        )
        ax.text(objective[0], objective[1], f"O{k}", ha="center", va="center", fontsize=7)
    for path_points in paths:
        if len(path_points) >= 2:
            xs, ys = zip(*((p[0], p[1]) for p in path_points), strict=True)
            ax.plot(xs, ys, linestyle="--", color="#2d3748", linewidth=1.2)
    for a, b in sight_lines:
        ax.plot(
            [bases.centers[a, 0], bases.centers[b, 0]],
            [bases.centers[a, 1], bases.centers[b, 1]],
            color="#e53e3e",
            linewidth=1.0,
            alpha=0.8,
        )
    for i in range(len(bases)):
        if not bases.on_table[i]:
            continue
        x, y = bases.centers[i]
        r = bases.radii[i]
        ax.add_patch(
            patches.Circle((x, y), r, facecolor=side_colour(sides[i], sides), edgecolor="#111")
        )
        label = str(i) if labels is None else labels[i]
        ax.text(x, y, label, ha="center", va="center", fontsize=6, color="white")
        if marks is not None and marks[i]:
            ax.text(x, y + r + 0.2, marks[i], ha="center", va="bottom", fontsize=5)
    fig.tight_layout()
    fig.savefig(out, format=fmt, dpi=_INCH_PIXELS * 6 if fmt == "png" else None)
