"""Validated view of the parts of an event log that the replay draws.

The replay draws the table from the ``game_start`` event alone (``docs/event-log.md``), so it
works for any log, with or without the scenario files. Terrain pieces may be written out in full
(``polygon`` with ``cover``, ``blocks_los``, ``difficult``, ``impassable``) or in the table spec
form the game reads (``polygon`` with ``holes``, ``rect`` or ``circle``, properties left to the
piece's type in ``riven_env/table/data/terrain_types.toml``). Everything it relies on is checked here,
and every error names the event field at fault, the bad value and what was allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from riven_env.errors import RivenError
from riven_env.table.config import TERRAIN_PROPERTIES, terrain_types

__all__ = [
    "BoardSpec",
    "ModelSpec",
    "ObjectiveSpec",
    "ReplayError",
    "SideSpec",
    "TerrainSpec",
    "read_board",
]


class ReplayError(RivenError):
    """An event log cannot be replayed; the message names the event field and the bad value."""


Ring = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class TerrainSpec:
    """One terrain piece as the replay draws it.

    Attributes:
        name: The piece's name (may be empty).
        type: Its terrain type (a key of the table's ``terrain_types.toml``, or any label).
        rings: For polygon and rect pieces: the outline, then any holes (table inches).
        circle: For circle pieces: ``(cx, cy, r)``; ``None`` otherwise.
        cover: ``"none"``, ``"soft"`` or ``"hard"``.
        blocks_los: Whether it blocks sight lines.
        difficult: Whether moving inside costs double.
        impassable: Whether bases may not enter it.
    """

    name: str
    type: str
    rings: tuple[Ring, ...]
    circle: tuple[float, float, float] | None
    cover: str
    blocks_los: bool
    difficult: bool
    impassable: bool


@dataclass(frozen=True)
class ObjectiveSpec:
    """An objective marker with its control radius (inches)."""

    name: str
    x: float
    y: float
    radius: float
    kind: str
    points: float


@dataclass(frozen=True)
class SideSpec:
    """A side: its id in the log, display name and the colour the replay gives it."""

    id: str
    name: str
    colour: str


@dataclass(frozen=True)
class ModelSpec:
    """The starting state of one model."""

    id: str
    side: str
    name: str
    profile: str
    x: float
    y: float
    base: float
    wounds: int


@dataclass(frozen=True)
class BoardSpec:
    """Everything static the replay needs: table, deployment, objectives, sides, models."""

    title: str
    width: float
    height: float
    terrain: tuple[TerrainSpec, ...]
    deployment: dict[str, tuple[tuple[float, float, float, float], ...]]
    objectives: tuple[ObjectiveSpec, ...]
    sides: tuple[SideSpec, ...]
    models: tuple[ModelSpec, ...]


# Colours for sides whose id names a colour; other sides take the palette in order.
_NAMED_COLOURS: dict[str, str] = {
    "blue": "#2f6fd6",
    "red": "#d0413a",
    "green": "#2e9d4f",
    "yellow": "#d9a617",
    "orange": "#e07b26",
    "purple": "#8a4fc7",
    "teal": "#1f9e9a",
    "black": "#3a3a3a",
    "white": "#d8d8d8",
}
_PALETTE: tuple[str, ...] = ("#2f6fd6", "#d0413a", "#2e9d4f", "#d9a617", "#8a4fc7", "#1f9e9a")
_COVER_VALUES = ("none", "soft", "hard")


def _fail(where: str, value: Any, allowed: str) -> ReplayError:
    return ReplayError(f"{where} = {value!r} cannot be replayed; expected {allowed}")


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, value, "an object")
    return value


def _number(value: Any, where: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(where, value, "a finite number")
    if positive and value <= 0:
        raise _fail(where, value, "a number > 0")
    return float(value)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(where, value, "a non-empty string")
    return value


def _flag(value: Any, where: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _fail(where, value, "true or false")
    return value


def _ring(value: Any, where: str) -> Ring:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) < 3:
        raise _fail(where, value, "a list of at least 3 [x, y] points")
    points = []
    for i, point in enumerate(value):
        if not isinstance(point, Sequence) or isinstance(point, str) or len(point) != 2:
            raise _fail(f"{where}[{i}]", point, "an [x, y] pair")
        points.append(
            (_number(point[0], f"{where}[{i}][0]"), _number(point[1], f"{where}[{i}][1]"))
        )
    return tuple(points)


def _numbers(value: Any, count: int, where: str, what: str) -> tuple[float, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != count:
        raise _fail(where, value, what)
    return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(value))


def _shape(
    piece: Mapping[str, Any], where: str
) -> tuple[tuple[Ring, ...], tuple[float, float, float] | None]:
    """The outline of a piece given as ``polygon`` (+ ``holes``), ``rect`` or ``circle``."""
    if "polygon" in piece:
        holes = piece.get("holes") or []
        if not isinstance(holes, Sequence) or isinstance(holes, str):
            raise _fail(f"{where}.holes", holes, "a list of rings of [x, y] points")
        return (
            _ring(piece["polygon"], f"{where}.polygon"),
            *(_ring(h, f"{where}.holes[{i}]") for i, h in enumerate(holes)),
        ), None
    if "rect" in piece:
        x0, y0, x1, y1 = _numbers(piece["rect"], 4, f"{where}.rect", "[x0, y0, x1, y1]")
        return (((x0, y0), (x1, y0), (x1, y1), (x0, y1)),), None
    if "circle" in piece:
        cx, cy, r = _numbers(piece["circle"], 3, f"{where}.circle", "[cx, cy, r]")
        if r <= 0:
            raise _fail(f"{where}.circle[2]", r, "a radius > 0")
        return (), (cx, cy, r)
    raise _fail(where, dict(piece), "a piece with a 'polygon', 'rect' or 'circle'")


def _type_defaults(terrain_type: str) -> dict[str, Any]:
    """The properties the table's terrain type data gives ``terrain_type`` (empty if unknown).

    Logs hold the table spec as the game read it, where a piece may leave its properties to
    its type; the replay resolves them from the same data file the game uses.
    """
    known = terrain_types().get(terrain_type)
    return {prop: getattr(known, prop) for prop in TERRAIN_PROPERTIES} if known else {}


def _terrain(piece: Any, where: str) -> TerrainSpec:
    piece = _mapping(piece, where)
    terrain_type = str(piece.get("type", "terrain"))
    rings, circle = _shape(piece, where)
    props = {**_type_defaults(terrain_type), **{k: v for k, v in piece.items() if v is not None}}
    cover = props.get("cover", "none")
    if cover not in _COVER_VALUES:
        raise _fail(f"{where}.cover", cover, f"one of {', '.join(_COVER_VALUES)}")
    return TerrainSpec(
        name=str(piece.get("name", "")),
        type=terrain_type,
        rings=rings,
        circle=circle,
        cover=cover,
        blocks_los=_flag(props.get("blocks_los"), f"{where}.blocks_los"),
        difficult=_flag(props.get("difficult"), f"{where}.difficult"),
        impassable=_flag(props.get("impassable"), f"{where}.impassable"),
    )


def _deployment(value: Any, where: str) -> dict[str, tuple[tuple[float, float, float, float], ...]]:
    zones: dict[str, tuple[tuple[float, float, float, float], ...]] = {}
    for side, rects in _mapping(value or {}, where).items():
        if not isinstance(rects, Sequence) or isinstance(rects, str):
            raise _fail(f"{where}.{side}", rects, "a list of [x0, y0, x1, y1] rectangles")
        parsed = []
        for i, rect in enumerate(rects):
            if not isinstance(rect, Sequence) or isinstance(rect, str) or len(rect) != 4:
                raise _fail(f"{where}.{side}[{i}]", rect, "[x0, y0, x1, y1]")
            x0, y0, x1, y1 = (_number(v, f"{where}.{side}[{i}]") for v in rect)
            parsed.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        zones[str(side)] = tuple(parsed)
    return zones


def _objective(value: Any, where: str) -> ObjectiveSpec:
    obj = _mapping(value, where)
    return ObjectiveSpec(
        name=_text(obj.get("name"), f"{where}.name"),
        x=_number(obj.get("x"), f"{where}.x"),
        y=_number(obj.get("y"), f"{where}.y"),
        radius=_number(obj.get("radius", 0), f"{where}.radius"),
        kind=str(obj.get("kind", "")),
        points=_number(obj.get("points", 0), f"{where}.points"),
    )


def _sides(start: Mapping[str, Any], models: Sequence[Mapping[str, Any]]) -> tuple[SideSpec, ...]:
    declared = _mapping(start.get("sides") or {}, "events[0].sides")
    order = [str(side) for side in declared]
    for model in models:  # sides named only by their models still need a colour
        if str(model.get("side")) not in order:
            order.append(str(model.get("side")))
    specs = []
    used: set[str] = set()
    for side in order:
        colour = _NAMED_COLOURS.get(side.lower())
        if colour is None or colour in used:
            colour = next((c for c in _PALETTE if c not in used), "#777777")
        used.add(colour)
        info = declared.get(side) or {}
        name = str(info.get("name") or side) if isinstance(info, Mapping) else side
        specs.append(SideSpec(id=side, name=name, colour=colour))
    return tuple(specs)


def _model(value: Any, where: str) -> ModelSpec:
    model = _mapping(value, where)
    wounds = model.get("wounds", 1)
    if isinstance(wounds, bool) or not isinstance(wounds, int) or wounds < 0:
        raise _fail(f"{where}.wounds", wounds, "an integer >= 0")
    return ModelSpec(
        id=_text(model.get("id"), f"{where}.id"),
        side=_text(model.get("side"), f"{where}.side"),
        name=str(model.get("name") or model.get("id")),
        profile=str(model.get("profile") or ""),
        x=_number(model.get("x"), f"{where}.x"),
        y=_number(model.get("y"), f"{where}.y"),
        base=_number(model.get("base", 1.0), f"{where}.base", positive=True),
        wounds=wounds,
    )


def read_board(events: Sequence[Mapping[str, Any]]) -> BoardSpec:
    """Validate the log's ``game_start`` event and return what the replay draws.

    Args:
        events: The event log; its first event must be ``game_start``.

    Returns:
        The static board: table size, terrain, deployment zones, objectives, sides, models.

    Raises:
        ReplayError: The log is empty, does not start with ``game_start``, or a field the
            replay needs is missing or malformed (the message names ``events[0].<field>``).
    """
    if not events:
        raise ReplayError("the event log is empty; a replay needs at least a game_start event")
    start = _mapping(events[0], "events[0]")
    if start.get("type") != "game_start":
        raise _fail("events[0].type", start.get("type"), "'game_start' (the first event of a log)")
    table = _mapping(start.get("table"), "events[0].table")
    terrain = table.get("terrain") or []
    if not isinstance(terrain, Sequence) or isinstance(terrain, str):
        raise _fail("events[0].table.terrain", terrain, "a list of terrain pieces")
    raw_models = start.get("models") or []
    if not isinstance(raw_models, Sequence) or isinstance(raw_models, str):
        raise _fail("events[0].models", raw_models, "a list of models")
    models = tuple(_model(m, f"events[0].models[{i}]") for i, m in enumerate(raw_models))
    seen: set[str] = set()
    for i, model in enumerate(models):
        if model.id in seen:
            raise _fail(f"events[0].models[{i}].id", model.id, "a model id used only once")
        seen.add(model.id)
    objectives = start.get("objectives") or []
    if not isinstance(objectives, Sequence) or isinstance(objectives, str):
        raise _fail("events[0].objectives", objectives, "a list of objectives")
    return BoardSpec(
        title=str(start.get("title") or start.get("scenario") or "RIVEN replay"),
        width=_number(table.get("width"), "events[0].table.width", positive=True),
        height=_number(table.get("height"), "events[0].table.height", positive=True),
        terrain=tuple(_terrain(p, f"events[0].table.terrain[{i}]") for i, p in enumerate(terrain)),
        deployment=_deployment(start.get("deployment"), "events[0].deployment"),
        objectives=tuple(
            _objective(o, f"events[0].objectives[{i}]") for i, o in enumerate(objectives)
        ),
        sides=_sides(start, [m for m in raw_models if isinstance(m, Mapping)]),
        models=models,
    )
