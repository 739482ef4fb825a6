"""Where the replay writes its labels, so that no label covers another or another's anchor.

Every model has a short label (``cap`` for ``blue-captain``) and every objective its name. A
label is tried at a fixed list of spots around its anchor (a model's base with its wound pips
and condition badges, an objective's marker) and takes the first spot that overlaps no label
placed before it, no other anchor and nothing outside the drawing; a model label sits inside
its own base whenever the text fits there. Labels are placed in a fixed order (models, then
objectives, each in ``game_start`` order), so the same log always gives the same layout.

Models move, go Down, gain badges and leave the table, so the layout is recomputed after every
event that changes any of that; :func:`label_layout` returns one frame per distinct layout and
the frame each event shows. The page script only applies these frames.

Text is measured with a conservative estimate (:data:`CHAR_EM` wide, :data:`LINE_EM` high per
em of font size), since the page's fonts are not known here; the browser test measures the
drawn boxes and checks the estimate holds.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from riven_env.replay.spec import BoardSpec

__all__ = [
    "CHAR_EM",
    "LINE_EM",
    "Box",
    "LabelLayout",
    "collisions",
    "label_layout",
    "layout_moments",
    "model_label_text",
    "place_labels",
]

# Text metrics, in ems of the font size: the widest common glyphs of the bold sans-serif
# fonts browsers pick for system-ui (digits of DejaVu Sans Bold are 0.70 em) and the full
# line box, so an estimated box is never smaller than the drawn one.
CHAR_EM = 0.72
LINE_EM = 1.2
# Font sizes of labels, inches: models' labels shrink (to MODEL_FONT_MIN at most) to fit
# inside their base; objective names keep theirs.
MODEL_FONT = 0.5
MODEL_FONT_MIN = 0.34
OBJECTIVE_FONT = 0.6
# Marks drawn around a base by the page script (replay.js): wound pips below the base,
# condition badges above it, in inches. They belong to the model's anchor.
PIP_EXTENT = 0.3
PIP_PITCH = 0.3
PIP_RADIUS = 0.11
BADGE_EXTENT = 0.5
BADGE_PITCH = 0.67
# Half-diagonal of an objective's marker (board.py draws the diamond with it).
OBJECTIVE_MARKER = 0.45
# Air between a label and the anchor it belongs to, inches.
GAP = 0.08
# How far out candidate spots go: rings at 1, 2, ... times the label's own size from its anchor.
RINGS = 4
# Directions tried on each ring, in order: below, above, right, left, then the diagonals.
_DIRECTIONS: tuple[tuple[float, float], ...] = (
    (0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (-1, -1), (1, 1), (-1, 1),
)  # fmt: skip
# Room around the table that the board's view box gives (board.py _MARGIN), inches.
VIEW_MARGIN = 1.4


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in table inches (y up)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlap(self, other: Box) -> float:
        """Area shared with ``other`` (0 when they only touch or are apart)."""
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0

    def inside(self, other: Box) -> bool:
        """Whether this box lies wholly within ``other``."""
        return (
            self.x0 >= other.x0
            and self.y0 >= other.y0
            and self.x1 <= other.x1
            and self.y1 <= other.y1
        )


def _centred(x: float, y: float, w: float, h: float) -> Box:
    return Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)


@dataclass(frozen=True)
class Anchor:
    """What a label belongs to, and what other labels must stay off.

    Attributes:
        key: ``"m:<model id>"`` or ``"o:<objective index>"``.
        x: Centre x, inches.
        y: Centre y, inches.
        box: The box around all of the anchor (candidate spots are set around it).
        parts: Boxes it is drawn as (a marker; a model's pip row and badge row).
        radius: A model's base radius: the base is a circle around ``(x, y)``; 0 otherwise.
    """

    key: str
    x: float
    y: float
    box: Box
    parts: tuple[Box, ...] = ()
    radius: float = 0.0

    def overlap(self, box: Box) -> float:
        """How much ``box`` covers this anchor (0: not at all)."""
        cover = sum(box.overlap(part) for part in self.parts)
        if self.radius > 0:
            # Distance from the base centre to the nearest point of the box.
            nx = min(max(self.x, box.x0), box.x1)
            ny = min(max(self.y, box.y0), box.y1)
            if math.hypot(nx - self.x, ny - self.y) < self.radius:
                r = self.radius
                cover += box.overlap(Box(self.x - r, self.y - r, self.x + r, self.y + r))
        return cover


@dataclass(frozen=True)
class Label:
    """A label to place: its text size, the anchor it belongs to."""

    anchor: Anchor
    width: float
    height: float


def text_size(text: str, font: float) -> tuple[float, float]:
    """Estimated ``(width, height)`` of a text at font size ``font`` (see :data:`CHAR_EM`)."""
    return max(1, len(text)) * CHAR_EM * font, LINE_EM * font


def model_label_text(model_id: str) -> str:
    """The short label of a model: the last ``-`` part of its id, at most 3 characters."""
    return str(model_id).split("-")[-1][:3]


def model_font(text: str, base: float) -> float:
    """The font size that fits ``text`` inside a base of diameter ``base`` (within the bounds)."""
    w, h = text_size(text, 1.0)
    fit = (base / 2) / math.hypot(w / 2, h / 2)
    # Rounded down to the 3 decimals the page is given, so the label still fits there.
    return max(MODEL_FONT_MIN, min(MODEL_FONT, math.floor(fit * 1000) / 1000))


def _fits_inside(label: Label) -> bool:
    r = label.anchor.radius
    return r > 0 and math.hypot(label.width / 2, label.height / 2) <= r


def _candidates(label: Label) -> list[tuple[float, float]]:
    """Centres to try for a label, in order of preference."""
    a = label.anchor
    spots = [(a.x, a.y)] if _fits_inside(label) else []
    half_w = (a.box.x1 - a.box.x0) / 2
    half_h = (a.box.y1 - a.box.y0) / 2
    cx, cy = (a.box.x0 + a.box.x1) / 2, (a.box.y0 + a.box.y1) / 2
    for ring in range(RINGS):
        dx = half_w + GAP + label.width / 2 + ring * label.width
        dy = half_h + GAP + label.height / 2 + ring * label.height
        spots.extend((cx + ux * dx, cy + uy * dy) for ux, uy in _DIRECTIONS)
    return spots


def place_labels(labels: Sequence[Label], bounds: Box) -> dict[str, tuple[float, float]]:
    """Place labels in order, each at its first spot that collides with nothing placed.

    A spot collides with a label placed before it, with the anchor of any other label, or
    leaves ``bounds``. When every spot collides, the one with the least overlap wins (the
    earliest among equals), so a crowded table still gets a readable, stable layout.

    Args:
        labels: Labels in placement order.
        bounds: The drawing's box.

    Returns:
        ``{anchor key: (x, y)}``: the centre of each label, in table inches.
    """
    placed: list[Box] = []
    where: dict[str, tuple[float, float]] = {}
    anchors = [label.anchor for label in labels]
    for label in labels:
        own = label.anchor.key
        best: tuple[float, tuple[float, float], Box] | None = None
        for x, y in _candidates(label):
            box = _centred(x, y, label.width, label.height)
            if not box.inside(bounds):
                continue
            cost = sum(box.overlap(p) for p in placed) + sum(
                a.overlap(box) for a in anchors if a.key != own
            )
            if best is None or cost < best[0]:
                best = (cost, (x, y), box)
            if cost == 0:
                break
        if best is None:  # no spot within bounds at all: keep it on its anchor
            best = (0.0, (label.anchor.x, label.anchor.y), _centred(label.anchor.x, label.anchor.y, label.width, label.height))  # fmt: skip
        where[own] = best[1]
        placed.append(best[2])
    return where


@dataclass(frozen=True)
class LabelLayout:
    """The replay's labels for a whole log (JSON-ready through :meth:`to_json`).

    Attributes:
        model_fonts: ``{model id: font size}`` of each model's label (inches).
        model_texts: ``{model id: label text}``.
        frames: Distinct layouts: ``{"m": {model id: [dx, dy]} (offset from the base centre),
            "o": [[x, y], ...] (objective label centres, in ``game_start`` order)}``.
        frame_of: For each event index, the frame it shows.
    """

    model_fonts: dict[str, float]
    model_texts: dict[str, str]
    frames: list[dict[str, Any]]
    frame_of: list[int]

    def to_json(self) -> dict[str, Any]:
        """The layout as the page script reads it (``config.labels``)."""
        return {
            "font": self.model_fonts,
            "text": self.model_texts,
            "frames": self.frames,
            "frame_of": self.frame_of,
        }


# Events that change what the layout depends on: positions, presence, badges.
_LAYOUT_EVENTS = frozenset({"move", "removed", "down", "stabilise", "condition"})


@dataclass
class _Piece:
    x: float
    y: float
    base: float
    on_table: bool = True
    conditions: tuple[str, ...] = ()
    down: bool = False
    stable: bool = False

    def badges(self) -> int:
        # As replay.js draws them: one per Condition, "dwn" while Down, "stb" when stabilised.
        return len(self.conditions) + int(self.down) + int(self.down and self.stable)


def _fold(piece: _Piece, event: Mapping[str, Any]) -> None:
    kind = event.get("type")
    if kind == "move":
        to = event.get("to")
        if isinstance(to, Sequence) and len(to) == 2:
            piece.x, piece.y = float(to[0]), float(to[1])
    elif kind == "removed":
        piece.on_table = False
    elif kind == "down":
        piece.down, piece.stable = True, False
    elif kind == "stabilise":
        piece.stable = True
    elif kind == "condition":
        name = str(event.get("condition"))
        if event.get("gained") and name not in piece.conditions:
            piece.conditions = (*piece.conditions, name)
        elif not event.get("gained"):
            piece.conditions = tuple(c for c in piece.conditions if c != name)


def _model_anchor(model_id: str, piece: _Piece, pips: int) -> Anchor:
    x, y, r = piece.x, piece.y, piece.base / 2
    half_pips = (max(pips, 1) - 1) * PIP_PITCH / 2 + PIP_RADIUS
    parts = [Box(x - half_pips, y - r - PIP_EXTENT, x + half_pips, y - r)]
    badges = piece.badges()
    if badges:
        half_badges = badges * BADGE_PITCH / 2
        parts.append(Box(x - half_badges, y + r, x + half_badges, y + r + BADGE_EXTENT))
    half = max(r, half_pips, badges * BADGE_PITCH / 2)
    top = r + (BADGE_EXTENT if badges else 0.0)
    box = Box(x - half, y - r - PIP_EXTENT, x + half, y + top)
    return Anchor(f"m:{model_id}", x, y, box, tuple(parts), radius=r)


def frame_labels(
    board: BoardSpec,
    pieces: Mapping[str, _Piece],
    fonts: Mapping[str, float],
    texts: Mapping[str, str],
) -> list[Label]:
    """The labels of one moment, in placement order: models on the table, then objectives."""
    labels: list[Label] = []
    for model in board.models:
        piece = pieces[model.id]
        if not piece.on_table:
            continue
        w, h = text_size(texts[model.id], fonts[model.id])
        labels.append(Label(_model_anchor(model.id, piece, model.wounds), w, h))
    for k, obj in enumerate(board.objectives):
        marker = _centred(obj.x, obj.y, 2 * OBJECTIVE_MARKER, 2 * OBJECTIVE_MARKER)
        w, h = text_size(obj.name, OBJECTIVE_FONT)
        labels.append(Label(Anchor(f"o:{k}", obj.x, obj.y, marker, (marker,)), w, h))
    return labels


def view_bounds(board: BoardSpec) -> Box:
    """The box labels must stay in: the table and the margin of the board's view box."""
    return Box(-VIEW_MARGIN, -VIEW_MARGIN, board.width + VIEW_MARGIN, board.height + VIEW_MARGIN)


def collisions(labels: Sequence[Label], where: Mapping[str, tuple[float, float]]) -> list[tuple[str, str]]:  # fmt: skip
    """Pairs ``(label key, what it covers)`` of a placement: another label, or another anchor."""
    boxes = {
        label.anchor.key: _centred(*where[label.anchor.key], label.width, label.height)
        for label in labels
    }
    found = []
    for k, label in enumerate(labels):
        key = label.anchor.key
        for other in labels[k + 1 :]:
            if boxes[key].overlap(boxes[other.anchor.key]) > 0:
                found.append((key, other.anchor.key))
        for other in labels:
            if other.anchor.key != key and other.anchor.overlap(boxes[key]) > 0:
                found.append((key, f"anchor {other.anchor.key}"))
    return found


def layout_moments(
    board: BoardSpec, events: Sequence[Mapping[str, Any]]
) -> Iterator[tuple[int, list[Label], dict[str, tuple[float, float]]]]:
    """Every moment the layout is recomputed: ``(event index, labels, placement)``.

    The first is the deployment (index 0); then one after each event that moves a model,
    removes it, puts it Down, stabilises it or changes its Conditions.
    """
    texts = {m.id: model_label_text(m.id) for m in board.models}
    fonts = {m.id: model_font(texts[m.id], m.base) for m in board.models}
    pieces = {m.id: _Piece(m.x, m.y, m.base) for m in board.models}
    bounds = view_bounds(board)
    labels = frame_labels(board, pieces, fonts, texts)
    yield 0, labels, place_labels(labels, bounds)
    for index, event in enumerate(events[1:], start=1):
        piece = pieces.get(str(event.get("model")))
        if piece is not None and event.get("type") in _LAYOUT_EVENTS:
            _fold(piece, event)
            labels = frame_labels(board, pieces, fonts, texts)
            yield index, labels, place_labels(labels, bounds)


def label_layout(board: BoardSpec, events: Sequence[Mapping[str, Any]]) -> LabelLayout:
    """Lay out every label of a replay, event by event.

    Args:
        board: The log's validated board (:func:`riven_env.replay.spec.read_board`).
        events: The whole log.

    Returns:
        The :class:`LabelLayout`: one frame per distinct layout and the frame of each event.
    """
    texts = {m.id: model_label_text(m.id) for m in board.models}
    fonts = {m.id: model_font(texts[m.id], m.base) for m in board.models}
    centres = {m.id: (m.x, m.y) for m in board.models}
    frames: list[dict[str, Any]] = []
    frame_of: list[int] = []
    for index, labels, where in layout_moments(board, events):
        frame_of.extend([len(frames) - 1] * (index - len(frame_of)))  # no label changed
        if index:
            event = events[index]
            if event.get("type") == "move" and isinstance(event.get("to"), Sequence):
                centres[str(event["model"])] = (float(event["to"][0]), float(event["to"][1]))
        frame = {
            "m": {
                label.anchor.key[2:]: [
                    round(where[label.anchor.key][0] - centres[label.anchor.key[2:]][0], 3),
                    round(where[label.anchor.key][1] - centres[label.anchor.key[2:]][1], 3),
                ]
                for label in labels
                if label.anchor.key.startswith("m:")
            },
            "o": [[round(v, 3) for v in where[f"o:{k}"]] for k in range(len(board.objectives))],
        }
        if not frames or frame != frames[-1]:
            frames.append(frame)
        frame_of.append(len(frames) - 1)
    frame_of.extend([len(frames) - 1] * (len(events) - len(frame_of)))
    return LabelLayout(fonts, texts, frames, frame_of)
