"""Pure SVG rendering of a table and its models (no matplotlib; hand-built elements).

The HTML replay draws the static terrain once with :func:`svg_terrain` and moves model
groups (``<g id="model-3" transform="translate(x y)">``) with :func:`svg_models`.
:func:`svg_for_state` makes a complete, standalone SVG document.

Table coordinates have their origin at the bottom-left and y up; SVG's y grows down, so
every point is drawn at ``(x * scale, (height - y) * scale)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from riven_env.table.bases import Bases
from riven_env.table.config import terrain_types
from riven_env.table.table import Table

DEFAULT_SCALE = 20.0
"""Pixels per inch."""

SIDE_COLOURS: Mapping[str, str] = {"blue": "#2b6cb0", "red": "#c53030", "green": "#2f855a"}
"""Fill colours of the usual side names; other sides take :data:`FALLBACK_COLOURS` in turn."""

FALLBACK_COLOURS: tuple[str, ...] = ("#6b46c1", "#dd6b20", "#319795", "#d53f8c")

Zone = tuple[str, tuple[float, float, float, float]]
"""A deployment zone: ``(side, (x0, y0, x1, y1))``."""


def side_colour(side: str, sides_seen: Sequence[str] = ()) -> str:
    """The fill colour of a side (stable for a given list of sides)."""
    if side in SIDE_COLOURS:
        return SIDE_COLOURS[side]
    unknown = [s for s in dict.fromkeys(sides_seen) if s not in SIDE_COLOURS]
    k = unknown.index(side) if side in unknown else 0
    return FALLBACK_COLOURS[k % len(FALLBACK_COLOURS)]


def _xy(table: Table, x: float, y: float, scale: float) -> tuple[float, float]:
    return (round(x * scale, 2), round((table.height - y) * scale, 2))


def _ring_path(table: Table, coords: np.ndarray, scale: float) -> str:
    points = [_xy(table, float(x), float(y), scale) for x, y in coords]
    return "M " + " L ".join(f"{x} {y}" for x, y in points) + " Z"


def svg_terrain(table: Table, *, scale: float = DEFAULT_SCALE) -> str:
    """The table surface and its terrain as one ``<g id="terrain">`` element.

    Each piece is a ``<path>`` (holes cut with the even-odd rule) with ``data-type`` and a
    ``<title>`` naming it; impassable pieces get a solid outline, line-blocking ones a
    heavier one.
    """
    types = terrain_types()
    parts = [
        '<g id="terrain">',
        f'<rect x="0" y="0" width="{table.width * scale:g}" height="{table.height * scale:g}" '
        'fill="#e9e4d4" stroke="#333" stroke-width="2"/>',
    ]
    for piece in table.pieces:
        colour = types[piece.type].colour if piece.type in types else "#808080"
        rings = [piece.polygon.exterior, *piece.polygon.interiors]
        d = " ".join(_ring_path(table, np.asarray(r.coords)[:-1], scale) for r in rings)
        width = 2.0 if piece.blocks_los else 1.0
        dash = "" if piece.impassable else ' stroke-dasharray="4 3"'
        opacity = 0.95 if piece.impassable else 0.7
        title = f"{piece.name} ({piece.type}; cover {piece.cover})"
        parts.append(
            f"<path d={quoteattr(d)} data-type={quoteattr(piece.type)} fill={quoteattr(colour)} "
            f'fill-opacity="{opacity}" fill-rule="evenodd" stroke="#222" '
            f'stroke-width="{width}"{dash}><title>{escape(title)}</title></path>'
        )
    parts.append("</g>")
    return "".join(parts)


def svg_models(
    table: Table,
    bases: Bases,
    sides: Sequence[str],
    labels: Sequence[str] | None = None,
    marks: Sequence[str] | None = None,
    *,
    scale: float = DEFAULT_SCALE,
) -> str:
    """One ``<g id="model-i">`` per on-table model, translated to its centre.

    Args:
        table: The table.
        bases: The bases.
        sides: Side name of each model (colours the base).
        labels: Text inside each base (default: the index).
        marks: Small text above each base (wounds, conditions); empty for none.
        scale: Pixels per inch.
    """
    parts = ['<g id="models">']
    for i in range(len(bases)):
        if not bases.on_table[i]:
            continue
        x, y = _xy(table, float(bases.centers[i, 0]), float(bases.centers[i, 1]), scale)
        r = round(float(bases.radii[i]) * scale, 2)
        side = sides[i]
        label = str(i) if labels is None else labels[i]
        mark = "" if marks is None else marks[i]
        font = max(8.0, r * 0.9)
        parts.append(
            f'<g id="model-{i}" class={quoteattr("model side-" + side)} '
            f'transform="translate({x} {y})">'
            f'<circle r="{r}" fill={quoteattr(side_colour(side, sides))} stroke="#111" '
            f'stroke-width="1.5"/>'
            f'<text text-anchor="middle" dominant-baseline="central" font-size="{font:.1f}" '
            f'fill="#fff" font-family="sans-serif">{escape(label)}</text>'
        )
        if mark:
            parts.append(
                f'<text y="{-r - 3}" text-anchor="middle" font-size="{font * 0.8:.1f}" '
                f'fill="#000" font-family="sans-serif">{escape(mark)}</text>'
            )
        parts.append("</g>")
    parts.append("</g>")
    return "".join(parts)


def _overlays(
    table: Table,
    bases: Bases,
    sides: Sequence[str],
    objectives: Sequence[Sequence[float]],
    zones: Sequence[Zone],
    sight_lines: Sequence[tuple[int, int]],
    paths: Sequence[Sequence[Sequence[float]]],
    scale: float,
) -> str:
    parts = ['<g id="zones">']
    for side, (x0, y0, x1, y1) in zones:
        ax, ay = _xy(table, x0, max(y0, y1), scale)
        parts.append(
            f'<rect x="{ax}" y="{ay}" width="{abs(x1 - x0) * scale:g}" '
            f'height="{abs(y1 - y0) * scale:g}" fill={quoteattr(side_colour(side, sides))} '
            f'fill-opacity="0.12" stroke={quoteattr(side_colour(side, sides))} '
            f'stroke-dasharray="6 4"/>'
        )
    parts.append('</g><g id="objectives">')
    for k, objective in enumerate(objectives):
        x, y = _xy(table, float(objective[0]), float(objective[1]), scale)
        radius = float(objective[2]) if len(objective) > 2 else 0.5
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{radius * scale:g}" fill="#f6e05e" '
            f'fill-opacity="0.5" stroke="#b7791f" stroke-width="2"/>'
            f'<text x="{x}" y="{y}" text-anchor="middle" dominant-baseline="central" '
            f'font-size="10" font-family="sans-serif">O{k}</text>'
        )
    parts.append('</g><g id="paths">')
    for path in paths:
        if len(path) < 2:
            continue
        pts = " ".join("{},{}".format(*_xy(table, float(p[0]), float(p[1]), scale)) for p in path)
        parts.append(
            f'<polyline points="{pts}" fill="none" stroke="#2d3748" stroke-width="2" '
            f'stroke-dasharray="5 3"/>'
        )
    parts.append('</g><g id="sight">')
    for a, b in sight_lines:
        x1, y1 = _xy(table, float(bases.centers[a, 0]), float(bases.centers[a, 1]), scale)
        x2, y2 = _xy(table, float(bases.centers[b, 0]), float(bases.centers[b, 1]), scale)
        parts.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#e53e3e" '
            f'stroke-width="1.5" stroke-opacity="0.8"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def svg_for_state(
    table: Table,
    bases: Bases,
    sides: Sequence[str],
    labels: Sequence[str] | None = None,
    marks: Sequence[str] | None = None,
    objectives: Sequence[Sequence[float]] = (),
    *,
    zones: Sequence[Zone] = (),
    sight_lines: Sequence[tuple[int, int]] = (),
    paths: Sequence[Sequence[Sequence[float]]] = (),
    scale: float = DEFAULT_SCALE,
    title: str = "",
) -> str:
    """A complete SVG document of the table, terrain, zones, objectives, paths and models.

    Args:
        table: The table.
        bases: The bases.
        sides: Side name per model.
        labels: Text inside each base (default: the model index).
        marks: Small text above each base (wounds, conditions).
        objectives: ``(x, y)`` or ``(x, y, radius)`` per objective.
        zones: Deployment zones, ``(side, (x0, y0, x1, y1))``.
        sight_lines: Model index pairs to join with a sight line.
        paths: Polylines (for example planned moves).
        scale: Pixels per inch.
        title: Document title.

    Returns:
        The SVG text.
    """
    width, height = table.width * scale, table.height * scale
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">'
    )
    name = f"<title>{escape(title)}</title>" if title else ""
    return "".join(
        (
            head,
            name,
            svg_terrain(table, scale=scale),
            _overlays(table, bases, sides, objectives, zones, sight_lines, paths, scale),
            svg_models(table, bases, sides, labels, marks, scale=scale),
            "</svg>",
        )
    )


def to_svg(table: Table, bases: Bases | None = None, **options: object) -> str:
    """Shorthand: :func:`svg_for_state` with every model on side ``"blue"`` unless given.

    With ``bases=None`` only the terrain is drawn.
    """
    bases = bases if bases is not None else Bases.from_lists(np.zeros((0, 2)), 1.0)
    sides = options.pop("sides", ["blue"] * len(bases))
    return svg_for_state(table, bases, sides, **options)  # type: ignore[arg-type]
