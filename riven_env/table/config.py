"""The tabletop's data: geometry constants and terrain types, loaded once from TOML.

Both files live in ``riven_env/table/data``: ``geometry.toml`` (contact tolerance, cover
distance, navigation settings, candidate-destination settings, cache sizes) and
``terrain_types.toml`` (what each terrain type grants). Every value is validated on load and a bad one raises
:class:`~riven_env.errors.TerrainError` naming the file, the key, the value and what was allowed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from riven_env.errors import TerrainError

Cover = Literal["none", "soft", "hard"]
"""The cover a terrain piece grants, worst to best."""

COVER_LEVELS: tuple[Cover, ...] = ("none", "soft", "hard")
"""Cover levels in order, worst first; the index is the level's rank."""

GEOMETRY_FILE = "geometry.toml"
TERRAIN_TYPES_FILE = "terrain_types.toml"

TERRAIN_PROPERTIES: tuple[str, ...] = ("cover", "blocks_los", "difficult", "impassable")
"""The properties a terrain type sets and a piece may override."""

_TYPE_KEYS = frozenset(TERRAIN_PROPERTIES) | {"setting", "description", "colour"}
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_SETTINGS = ("any", "fantasy", "scifi")


@dataclass(frozen=True)
class GeometryConfig:
    """The tabletop constants from ``geometry.toml`` (all distances in inches).

    Attributes:
        default_width: Table width when a spec gives none.
        default_height: Table height when a spec gives none.
        compact_width: Width of the compact (2' x 2') table.
        compact_height: Height of the compact table.
        default_base_diameter: Base diameter of a model that gives none.
        contact_tolerance: Largest edge gap (or overlap) that still counts as base contact.
        cover_behind_distance: How close to the target's base edge a cover piece must be
            crossed by the sight line for the target to be "directly behind" it.
        waypoint_margin: Clearance added around obstacles when placing waypoints.
        base_waypoint_sides: Sides of the waypoint polygon drawn around another base.
        circle_quad_segments: Segments per quarter circle for circular terrain.
        clearance_quad_segments: Segments per quarter circle for rounded clearance shapes.
        circle_waypoint_sides: Waypoints placed around a circular terrain piece.
        min_move: Shortest move a candidate destination may be.
        distinct_distance: Candidates with end points closer than this are merged.
        cover_sample_spacing: Spacing of sampled positions along cover pieces.
        cover_max_candidates: Cover positions path-checked per request.
        enemy_gap: Where "toward an enemy" stops, short of base contact.
        shared_tables: Maps whose derived geometry a process keeps (least recently used
            dropped first); equal tables share it.
        route_cache_entries: Route ends (start points, goal points, contact targets) whose
            terrain links a navigation graph keeps, per base radius.
        layout_query_entries: Table query answers (charge reach, planned paths) one base
            layout remembers before it starts over.
        sight_cache_entries: Sight lines (line of sight and cover between two base
            positions) a table remembers, per map.
        navigator_entries: Route planners (one per mover and base layout) kept per map and
            base size, so that layouts repeated across decisions and games plan once.
        navigator_answer_entries: Plans one route planner remembers.
        static_route_entries: Terrain-only routes kept per map and base size.
        cluster_wrap_entries: Convex wraps of clusters of bases kept per map and base size.
        cut_entries: Per standing base, the static links it cuts, kept per map and base size.
    """

    default_width: float
    default_height: float
    compact_width: float
    compact_height: float
    default_base_diameter: float
    contact_tolerance: float
    cover_behind_distance: float
    waypoint_margin: float
    base_waypoint_sides: int
    circle_quad_segments: int
    clearance_quad_segments: int
    circle_waypoint_sides: int
    min_move: float
    distinct_distance: float
    cover_sample_spacing: float
    cover_max_candidates: int
    enemy_gap: float
    shared_tables: int
    route_cache_entries: int
    layout_query_entries: int
    sight_cache_entries: int
    navigator_entries: int
    navigator_answer_entries: int
    static_route_entries: int
    cluster_wrap_entries: int
    cut_entries: int


@dataclass(frozen=True)
class TerrainType:
    """One terrain type from ``terrain_types.toml``.

    Attributes:
        name: The type's key, for example ``"woods"``.
        cover: Cover granted.
        blocks_los: Whether sight lines through it are blocked.
        difficult: Whether moving inside costs double.
        impassable: Whether bases may not enter it.
        setting: ``"any"``, ``"fantasy"`` or ``"scifi"`` (flavour only).
        description: Free text for designers and reports.
        colour: Fill colour for rendering, ``"#rrggbb"``.
    """

    name: str
    cover: Cover
    blocks_los: bool
    difficult: bool
    impassable: bool
    setting: str
    description: str
    colour: str


def _read_toml(file_name: str) -> dict[str, Any]:
    text = resources.files("riven_env.table").joinpath("data", file_name).read_text("utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TerrainError(f"{file_name}: not valid TOML: {exc}") from exc


def _number(
    data: Mapping[str, Any], file_name: str, section: str, key: str, *, minimum: float
) -> float:
    where = f"{file_name}: [{section}] {key}"
    if key not in data:
        raise TerrainError(f"{where}: missing; a number >= {minimum} is required")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TerrainError(f"{where}: {value!r} is not a number; a number >= {minimum} is required")
    if value < minimum:
        raise TerrainError(f"{where}: {value!r} is below the minimum {minimum}")
    return float(value)


def _integer(
    data: Mapping[str, Any], file_name: str, section: str, key: str, *, minimum: int
) -> int:
    where = f"{file_name}: [{section}] {key}"
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TerrainError(
            f"{where}: {value!r} is not an integer; an integer >= {minimum} is required"
        )
    if value < minimum:
        raise TerrainError(f"{where}: {value!r} is below the minimum {minimum}")
    return value


def _boolean(data: Mapping[str, Any], file_name: str, section: str, key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise TerrainError(f"{file_name}: [{section}] {key}: {value!r} is not true or false")
    return value


def _section(raw: Mapping[str, Any], file_name: str, name: str) -> Mapping[str, Any]:
    section = raw.get(name)
    if not isinstance(section, Mapping):
        raise TerrainError(f"{file_name}: section [{name}] is missing")
    return section


@lru_cache(maxsize=1)
def geometry_config() -> GeometryConfig:
    """Load and validate ``geometry.toml`` (once per process).

    Returns:
        The frozen constants.

    Raises:
        TerrainError: A value is missing, not a number or out of range.
    """
    f = GEOMETRY_FILE
    raw = _read_toml(f)
    table = _section(raw, f, "table")
    measure = _section(raw, f, "measure")
    cover = _section(raw, f, "cover")
    nav = _section(raw, f, "navigation")
    dest = _section(raw, f, "destinations")
    cache = _section(raw, f, "cache")
    tiny = 1e-9
    return GeometryConfig(
        default_width=_number(table, f, "table", "default_width", minimum=1.0),
        default_height=_number(table, f, "table", "default_height", minimum=1.0),
        compact_width=_number(table, f, "table", "compact_width", minimum=1.0),
        compact_height=_number(table, f, "table", "compact_height", minimum=1.0),
        default_base_diameter=_number(table, f, "table", "default_base_diameter", minimum=tiny),
        contact_tolerance=_number(measure, f, "measure", "contact_tolerance", minimum=0.0),
        cover_behind_distance=_number(cover, f, "cover", "behind_distance", minimum=0.0),
        waypoint_margin=_number(nav, f, "navigation", "waypoint_margin", minimum=tiny),
        base_waypoint_sides=_integer(nav, f, "navigation", "base_waypoint_sides", minimum=4),
        circle_quad_segments=_integer(nav, f, "navigation", "circle_quad_segments", minimum=1),
        clearance_quad_segments=_integer(
            nav, f, "navigation", "clearance_quad_segments", minimum=2
        ),
        circle_waypoint_sides=_integer(nav, f, "navigation", "circle_waypoint_sides", minimum=4),
        min_move=_number(dest, f, "destinations", "min_move", minimum=0.0),
        distinct_distance=_number(dest, f, "destinations", "distinct_distance", minimum=0.0),
        cover_sample_spacing=_number(dest, f, "destinations", "cover_sample_spacing", minimum=0.05),
        cover_max_candidates=_integer(dest, f, "destinations", "cover_max_candidates", minimum=1),
        enemy_gap=_number(dest, f, "destinations", "enemy_gap", minimum=0.0),
        shared_tables=_integer(cache, f, "cache", "shared_tables", minimum=1),
        route_cache_entries=_integer(cache, f, "cache", "route_cache_entries", minimum=1),
        layout_query_entries=_integer(cache, f, "cache", "layout_query_entries", minimum=1),
        sight_cache_entries=_integer(cache, f, "cache", "sight_cache_entries", minimum=1),
        navigator_entries=_integer(cache, f, "cache", "navigator_entries", minimum=1),
        navigator_answer_entries=_integer(cache, f, "cache", "navigator_answer_entries", minimum=1),
        static_route_entries=_integer(cache, f, "cache", "static_route_entries", minimum=1),
        cluster_wrap_entries=_integer(cache, f, "cache", "cluster_wrap_entries", minimum=1),
        cut_entries=_integer(cache, f, "cache", "cut_entries", minimum=1),
    )


def _terrain_type(name: str, entry: Any) -> TerrainType:
    f = TERRAIN_TYPES_FILE
    where = f"types.{name}"
    if not isinstance(entry, Mapping):
        raise TerrainError(f"{f}: [{where}] must be a table of properties")
    unknown = sorted(set(entry) - _TYPE_KEYS)
    if unknown:
        raise TerrainError(
            f"{f}: [{where}] unknown key(s) {unknown}; allowed: {sorted(_TYPE_KEYS)}"
        )
    cover = entry.get("cover")
    if cover not in COVER_LEVELS:
        raise TerrainError(f"{f}: [{where}] cover: {cover!r}; allowed: {list(COVER_LEVELS)}")
    setting = entry.get("setting", "any")
    if setting not in _SETTINGS:
        raise TerrainError(f"{f}: [{where}] setting: {setting!r}; allowed: {list(_SETTINGS)}")
    description = entry.get("description", "")
    if not isinstance(description, str):
        raise TerrainError(f"{f}: [{where}] description: {description!r} is not text")
    colour = entry.get("colour", "#808080")
    if not isinstance(colour, str) or not _COLOUR.match(colour):
        raise TerrainError(f'{f}: [{where}] colour: {colour!r} is not a colour like "#4a4a4a"')
    kind = TerrainType(
        name=name,
        cover=cover,
        blocks_los=_boolean(entry, f, where, "blocks_los"),
        difficult=_boolean(entry, f, where, "difficult"),
        impassable=_boolean(entry, f, where, "impassable"),
        setting=setting,
        description=description,
        colour=colour,
    )
    if kind.difficult and kind.impassable:
        raise TerrainError(f"{f}: [{where}] is both difficult and impassable; choose one")
    return kind


@lru_cache(maxsize=1)
def terrain_types() -> Mapping[str, TerrainType]:
    """Load and validate ``terrain_types.toml`` (once per process).

    Returns:
        The terrain types by name, in file order.

    Raises:
        TerrainError: An entry has an unknown key or a bad value.
    """
    raw = _read_toml(TERRAIN_TYPES_FILE)
    types = raw.get("types")
    if not isinstance(types, Mapping) or not types:
        raise TerrainError(f"{TERRAIN_TYPES_FILE}: section [types] is missing or empty")
    return MappingProxyType({name: _terrain_type(name, entry) for name, entry in types.items()})
