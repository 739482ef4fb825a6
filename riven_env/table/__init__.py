"""The tabletop: continuous geometry in inches (shapely + networkx, no rendering imports).

A :class:`Table` (immutable terrain) and :class:`Bases` (mutable model positions) are the
state; the functions below query them. See ``docs/tabletop.md`` for the exact rules of
measurement, movement, line of sight, cover, recoil and flight.
"""

from __future__ import annotations

from riven_env.table.bases import Bases
from riven_env.table.config import (
    COVER_LEVELS,
    Cover,
    GeometryConfig,
    TerrainType,
    geometry_config,
    terrain_types,
)
from riven_env.table.cover import better_cover, cover_rank, cover_step
from riven_env.table.destinations import (
    DESTINATION_KINDS,
    Destination,
    candidate_destinations,
    destination_options,
    plan_destination,
)
from riven_env.table.layout import Layout
from riven_env.table.measure import (
    CONTACT_TOL,
    contacts,
    distance_to_nearest_edge,
    edge_distance,
    edge_distances_from,
    engagements,
    in_contact,
    models_within,
    nearest,
    nearest_edge_point,
)
from riven_env.table.movement import (
    MovePlan,
    charge_targets,
    plan_charge,
    plan_flight,
    plan_move,
    plan_push,
)
from riven_env.table.navigation import StaticNav, static_nav
from riven_env.table.render import render_table
from riven_env.table.routing import Navigator
from riven_env.table.sight import cover_for_shot, line_of_sight, sight, sight_between
from riven_env.table.svg import svg_for_state, svg_models, svg_terrain, to_svg
from riven_env.table.table import Table
from riven_env.table.terrain import TerrainPiece

__all__ = [
    "CONTACT_TOL",
    "COVER_LEVELS",
    "DESTINATION_KINDS",
    "Bases",
    "Cover",
    "Destination",
    "GeometryConfig",
    "Layout",
    "MovePlan",
    "Navigator",
    "StaticNav",
    "Table",
    "TerrainPiece",
    "TerrainType",
    "better_cover",
    "candidate_destinations",
    "destination_options",
    "charge_targets",
    "contacts",
    "cover_for_shot",
    "cover_rank",
    "cover_step",
    "distance_to_nearest_edge",
    "edge_distance",
    "edge_distances_from",
    "engagements",
    "geometry_config",
    "in_contact",
    "line_of_sight",
    "models_within",
    "nearest",
    "nearest_edge_point",
    "plan_charge",
    "plan_destination",
    "plan_flight",
    "plan_move",
    "plan_push",
    "render_table",
    "sight",
    "sight_between",
    "static_nav",
    "svg_for_state",
    "svg_models",
    "svg_terrain",
    "terrain_types",
    "to_svg",
]
