"""The static SVG board of a replay: table, grid, deployment zones, terrain, objectives.

Drawn from the ``game_start`` event alone (see :mod:`riven_env.replay.spec`), with no plotting
library. Coordinates are table inches with y pointing up, as on a map of the table: SVG y is
``height - y``. The model layer is left empty for the page script, which places the models
for whatever step is shown.
"""

from __future__ import annotations

import re
from html import escape

from riven_env.replay.spec import BoardSpec, ObjectiveSpec, TerrainSpec

__all__ = ["GRID_INCHES", "svg_board", "svg_legend", "terrain_classes", "terrain_path"]

GRID_INCHES = 6.0
"""Spacing of the grid drawn on the table, in inches."""

# Room around the table for the grid labels, in inches.
_MARGIN = 1.4


def fmt(value: float) -> str:
    """Format a coordinate compactly and deterministically (3 decimals, no trailing zeros)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _slug(text: str) -> str:
    """A CSS-safe class fragment for a terrain type ("Ruined wall" -> "ruined-wall")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "terrain"


def _attr(text: str) -> str:
    return escape(text, quote=True)


def terrain_classes(piece: TerrainSpec) -> str:
    """The CSS classes that style a terrain piece: its type, cover and movement/LOS flags."""
    classes = ["terrain", f"type-{_slug(piece.type)}", f"cover-{piece.cover}"]
    if piece.difficult:
        classes.append("difficult")
    if piece.impassable:
        classes.append("impassable")
    if piece.blocks_los:
        classes.append("blocks-los")
    return " ".join(classes)


def terrain_path(piece: TerrainSpec, height: float) -> str:
    """The SVG path data of a piece: its outline and holes, or its circle as two arcs."""
    if piece.circle is not None:
        cx, cy, r = piece.circle
        y = fmt(height - cy)
        return (
            f"M{fmt(cx - r)},{y} A{fmt(r)},{fmt(r)} 0 1 0 {fmt(cx + r)},{y} "
            f"A{fmt(r)},{fmt(r)} 0 1 0 {fmt(cx - r)},{y} Z"
        )
    return " ".join(
        "M" + " L".join(f"{fmt(x)},{fmt(height - y)}" for x, y in ring) + " Z"
        for ring in piece.rings
    )


def _terrain(piece: TerrainSpec, height: float) -> str:
    flags = [
        label
        for label, on in (
            ("difficult", piece.difficult),
            ("impassable", piece.impassable),
            ("blocks line of sight", piece.blocks_los),
        )
        if on
    ]
    cover = "no cover" if piece.cover == "none" else f"{piece.cover} cover"
    tooltip = f"{piece.name or piece.type} ({piece.type}): {', '.join([cover, *flags])}"
    path = terrain_path(piece, height)
    # The pattern overlay is a second path so that the type colour shows through it;
    # even-odd filling leaves the holes of a piece open.
    overlay = ""
    if piece.impassable:
        overlay = f'<path class="hatch impassable-hatch" fill-rule="evenodd" d="{path}"/>'
    elif piece.difficult:
        overlay = f'<path class="hatch difficult-hatch" fill-rule="evenodd" d="{path}"/>'
    return (
        f'<g data-terrain="{_attr(piece.name)}"><title>{escape(tooltip)}</title>'
        f'<path class="{terrain_classes(piece)}" fill-rule="evenodd" d="{path}"/>{overlay}</g>'
    )


def _grid(width: float, height: float) -> str:
    lines = []
    x = 0.0
    while x <= width + 1e-9:
        lines.append(f'<line x1="{fmt(x)}" y1="0" x2="{fmt(x)}" y2="{fmt(height)}"/>')
        lines.append(
            f'<text class="grid-label" x="{fmt(x)}" y="{fmt(height + 0.9)}">{fmt(x)}"</text>'
        )
        x += GRID_INCHES
    y = 0.0
    while y <= height + 1e-9:
        lines.append(
            f'<line x1="0" y1="{fmt(height - y)}" x2="{fmt(width)}" y2="{fmt(height - y)}"/>'
        )
        lines.append(
            f'<text class="grid-label grid-label-y" x="-0.3" y="{fmt(height - y + 0.2)}">{fmt(y)}"</text>'
        )
        y += GRID_INCHES
    return f'<g id="grid">{"".join(lines)}</g>'


def _deployment(board: BoardSpec) -> str:
    colours = {side.id: side for side in board.sides}
    parts = []
    for side_id, rects in board.deployment.items():
        side = colours.get(side_id)
        colour = side.colour if side else "#777777"
        name = side.name if side else side_id
        for x0, y0, x1, y1 in rects:
            parts.append(
                f'<rect class="deployment" data-side="{_attr(side_id)}" x="{fmt(x0)}" '
                f'y="{fmt(board.height - y1)}" width="{fmt(x1 - x0)}" height="{fmt(y1 - y0)}" '
                f'style="fill:{colour};stroke:{colour}"><title>{escape(name)} deployment zone</title></rect>'
            )
    return f'<g id="deployment">{"".join(parts)}</g>'


def _objective(obj: ObjectiveSpec, height: float) -> str:
    cx, cy = fmt(obj.x), fmt(height - obj.y)
    size = 0.45  # half-diagonal of the objective marker, inches
    diamond = (
        f"{cx},{fmt(height - obj.y - size)} {fmt(obj.x + size)},{cy} "
        f"{cx},{fmt(height - obj.y + size)} {fmt(obj.x - size)},{cy}"
    )
    points = f", {fmt(obj.points)} pts" if obj.points else ""
    kind = f" ({obj.kind})" if obj.kind else ""
    radius = (
        f'<circle class="objective-radius" cx="{cx}" cy="{cy}" r="{fmt(obj.radius)}"/>'
        if obj.radius > 0
        else ""
    )
    return (
        f'<g class="objective" data-objective="{_attr(obj.name)}">'
        f'<title>{escape(obj.name)}{escape(kind)}{points}, control radius {fmt(obj.radius)}"</title>'
        f'{radius}<polygon class="objective-marker" points="{diamond}"/>'
        f'<text class="objective-label" x="{cx}" y="{fmt(height - obj.y + size + 0.8)}">'
        f"{escape(obj.name)}</text></g>"
    )


def svg_board(board: BoardSpec) -> str:
    """Return the board as an inline ``<svg>`` element.

    Args:
        board: The validated static board of a log.

    Returns:
        SVG markup with the layers ``#grid``, ``#deployment``, ``#terrain``, ``#objectives`` and
        the empty layers ``#trails``, ``#models`` and ``#links`` (drawn over the models) that the
        page script fills.
    """
    w, h = board.width, board.height
    view = f"{fmt(-_MARGIN)} {fmt(-_MARGIN)} {fmt(w + 2 * _MARGIN)} {fmt(h + 2 * _MARGIN)}"
    terrain = "".join(_terrain(piece, h) for piece in board.terrain)
    objectives = "".join(_objective(obj, h) for obj in board.objectives)
    return (
        f'<svg id="board" viewBox="{view}" '
        f'data-width="{fmt(w)}" data-height="{fmt(h)}" role="img" '
        f'aria-label="{_attr(board.title)}: table {fmt(w)} by {fmt(h)} inches">'
        "<defs>"
        '<pattern id="pat-difficult" width="0.6" height="0.6" patternUnits="userSpaceOnUse">'
        '<circle cx="0.3" cy="0.3" r="0.09"/></pattern>'
        '<pattern id="pat-impassable" width="0.5" height="0.5" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="0.5"/></pattern>'
        "</defs>"
        f'<rect class="table" x="0" y="0" width="{fmt(w)}" height="{fmt(h)}"/>'
        f"{_grid(w, h)}{_deployment(board)}"
        f'<g id="terrain">{terrain}</g><g id="objectives">{objectives}</g>'
        '<g id="trails"></g><g id="models"></g><g id="links"></g>'
        "</svg>"
    )


# Legend rows: (label, CSS classes of the swatch polygon, overlay class or "").
_LEGEND_ROWS: tuple[tuple[str, str, str], ...] = (
    ("open terrain (no cover)", "terrain cover-none", ""),
    ("soft cover", "terrain cover-soft", ""),
    ("hard cover", "terrain cover-hard", ""),
    ("difficult ground", "terrain cover-none difficult", "difficult-hatch"),
    ("impassable", "terrain cover-hard impassable", "impassable-hatch"),
    ("blocks line of sight", "terrain cover-hard blocks-los", ""),
)


def svg_legend(board: BoardSpec) -> str:
    """Return an HTML legend for the terrain kinds present on the board and the sides."""
    present = {
        "open terrain (no cover)": any(p.cover == "none" for p in board.terrain),
        "soft cover": any(p.cover == "soft" for p in board.terrain),
        "hard cover": any(p.cover == "hard" for p in board.terrain),
        "difficult ground": any(p.difficult for p in board.terrain),
        "impassable": any(p.impassable for p in board.terrain),
        "blocks line of sight": any(p.blocks_los for p in board.terrain),
    }
    swatch = '<svg class="swatch" viewBox="0 0 2 1.4" aria-hidden="true">{}</svg>'
    box = "0.1,0.1 1.9,0.1 1.9,1.3 0.1,1.3"
    items = []
    for label, classes, overlay in _LEGEND_ROWS:
        if not present[label]:
            continue
        shape = f'<polygon class="{classes}" points="{box}"/>'
        if overlay:
            shape += f'<polygon class="hatch {overlay}" points="{box}"/>'
        items.append(f"<li>{swatch.format(shape)}{escape(label)}</li>")
    if board.objectives:
        items.append(
            "<li>"
            + swatch.format(
                '<circle class="objective-radius" cx="1" cy="0.7" r="0.55"/>'
                '<polygon class="objective-marker" points="1,0.4 1.3,0.7 1,1 0.7,0.7"/>'
            )
            + "objective (control radius)</li>"
        )
    for side in board.sides:
        items.append(
            f'<li><svg class="swatch" viewBox="0 0 2 1.4" aria-hidden="true">'
            f'<circle cx="1" cy="0.7" r="0.55" style="fill:{side.colour}"/></svg>'
            f"{escape(side.name)}</li>"
        )
    if board.sides and board.models:
        # As replay.css draws a Down model: its side colour faded, a dashed outline.
        colour = board.sides[0].colour
        items.append(
            '<li class="legend-down"><svg class="swatch" viewBox="0 0 2 1.4" aria-hidden="true">'
            f'<g class="model down"><circle class="base" cx="1" cy="0.7" r="0.55" '
            f'style="fill:{colour}"/></g></svg>Down (faded, dashed, "dwn" badge)</li>'
        )
    return f'<ul id="legend">{"".join(items)}</ul>'
