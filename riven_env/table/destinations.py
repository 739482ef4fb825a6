"""Candidate destinations: a small, fixed-order menu of tactically meaningful moves.

A discrete action space cannot list every point of the table, so agents choose among
these (each already a legal move, truncated to the allowance):

1. ``toward_enemy`` (``ref`` = enemy index): toward each enemy, stopping in base contact
   (or ``[destinations] enemy_gap`` short of it); in the order the enemies are given.
2. ``toward_objective`` (``ref`` = objective index): toward each objective point.
3. ``cover_from_enemy`` (``ref`` = the nearest enemy): the nearest reachable position where
   the nearest enemy cannot see the model or the model has cover from it.
4. ``away`` (``ref`` = the nearest enemy): directly away from the nearest enemy.
5. ``toward_friend`` (``ref`` = friend index): toward each friend, stopping in base contact.

Moves shorter than ``[destinations] min_move`` are dropped, and so is a destination whose
end lies within ``distinct_distance`` of an earlier one (the earlier kind wins).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from riven_env.table.bases import Bases
from riven_env.table.config import geometry_config
from riven_env.table.measure import nearest
from riven_env.table.movement import MovePlan, plan_with
from riven_env.table.routing import Navigator, navigator
from riven_env.table.sight import sight_between
from riven_env.table.table import Table

DESTINATION_KINDS: tuple[str, ...] = (
    "toward_enemy",
    "toward_objective",
    "cover_from_enemy",
    "away",
    "toward_friend",
)
"""The kinds of candidate destination, in the order they are listed."""


@dataclass(frozen=True)
class Destination:
    """One candidate move.

    Attributes:
        kind: One of :data:`DESTINATION_KINDS`.
        ref: The enemy, objective or friend it refers to (model or objective index).
        point: Where the base centre ends.
        cost: Movement it spends (difficult ground counted double).
        label: Short human-readable description.
        path: The path it follows.
        reached: Whether the move gets all the way (contact, objective, cover spot).
    """

    kind: str
    ref: int | None
    point: tuple[float, float]
    cost: float
    label: str
    path: tuple[tuple[float, float], ...] = ()
    reached: bool = False


def _cover_spots(table: Table, nav: Navigator) -> np.ndarray:
    """Static spots next to or inside cover and line-blocking pieces (cached per radius)."""
    geometry = table.for_radius(nav.radius)
    if geometry._cover_spots is not None:
        return geometry._cover_spots
    cfg = geometry_config()
    r = nav.radius
    rings = []
    for piece in table.pieces:
        if piece.cover == "none" and not piece.blocks_los:
            continue
        rings.append(piece.polygon.buffer(r + cfg.waypoint_margin, join_style="mitre").boundary)
        if not piece.impassable:
            inner = piece.polygon.buffer(-r)
            if not inner.is_empty:
                rings.append(inner.boundary)
            rings.append(shapely.Point(piece.polygon.representative_point()))
    points = []
    for ring in rings:
        if isinstance(ring, shapely.Point):
            points.append(np.array([[ring.x, ring.y]]))
            continue
        for part in getattr(ring, "geoms", [ring]):
            steps = np.arange(0.0, part.length, cfg.cover_sample_spacing)
            points.append(shapely.get_coordinates(shapely.line_interpolate_point(part, steps)))
    spots = np.concatenate(points) if points else np.zeros((0, 2))
    spots = spots[nav.nav.legal(spots)] if len(spots) else spots
    geometry._cover_spots = spots
    return spots


def _protection(
    table: Table, enemy_xy: np.ndarray, enemy_r: float, spot: np.ndarray, r: float
) -> int:
    """0 exposed, 1 soft cover, 2 hard cover, 3 out of sight (from the enemy)."""
    ex, ey = float(enemy_xy[0]), float(enemy_xy[1])
    tx, ty = float(spot[0]), float(spot[1])
    visible, cover = sight_between(table, ex, ey, enemy_r, tx, ty, r)
    if not visible:
        return 3
    return ("none", "soft", "hard").index(cover)


def _cover_move(
    table: Table, bases: Bases, nav: Navigator, enemy: int, allowance: float
) -> tuple[MovePlan, int] | None:
    cfg = geometry_config()
    spots = _cover_spots(table, nav)
    if len(spots) == 0:
        return None
    straight = np.hypot(*(spots - nav.start).T)
    near = (straight <= allowance) & (straight >= cfg.min_move)
    near &= nav.legal(spots) if near.any() else near
    order = np.flatnonzero(near)[np.argsort(straight[near], kind="stable")]
    enemy_xy = bases.centers[enemy]
    enemy_r = float(bases.radii[enemy])
    tried = 0
    for k in order:
        level = _protection(table, enemy_xy, enemy_r, spots[k], nav.radius)
        if level == 0:
            continue
        plan = plan_with(nav, bases, spots[k], allowance)
        tried += 1
        if plan.reached:
            return plan, level
        if tried >= cfg.cover_max_candidates:
            break
    return None


def _short_of_contact(nav: Navigator, target: int, allowance: float, gap: float) -> MovePlan:
    route = nav.route(allowance, target=target)
    budget = min(allowance, max(0.0, route.cost - gap)) if route.goal_reached else allowance
    points, cost = route.head(nav.table, budget)
    path = tuple((x, y) for x, y in points.tolist())
    reached = route.goal_reached and route.cost - gap <= allowance + 1e-9
    return MovePlan(path[0], path[-1], path, cost, reached)


def candidate_destinations(
    table: Table,
    bases: Bases,
    i: int,
    allowance: float,
    *,
    enemies: Sequence[int],
    friends: Sequence[int],
    objectives: Sequence[tuple[float, float]],
    enemy_gap: float | None = None,
) -> list[Destination]:
    """The candidate moves of model ``i`` in the fixed order of :data:`DESTINATION_KINDS`.

    Args:
        table: The table.
        bases: The bases (not changed).
        i: The moving model.
        allowance: Movement allowance, inches.
        enemies: Enemy model indices (removed ones are skipped).
        friends: Friendly model indices (``i`` and removed ones are skipped).
        objectives: Objective points.
        enemy_gap: Where ``toward_enemy`` stops short of contact; default from data.

    Returns:
        Legal, distinct destinations of non-trivial length.
    """
    cfg = geometry_config()
    if not bases.on_table[i] or allowance <= 0:
        return []
    gap = cfg.enemy_gap if enemy_gap is None else float(enemy_gap)
    nav = navigator(table, bases, i)
    found: list[Destination] = []

    def add(kind: str, ref: int | None, plan: MovePlan, label: str) -> None:
        if plan.moved < cfg.min_move:
            return
        for earlier in found:
            if math.dist(earlier.point, plan.end) < cfg.distinct_distance:
                return
        found.append(Destination(kind, ref, plan.end, plan.cost, label, plan.path, plan.reached))

    live_enemies = [int(j) for j in enemies if j != i and bases.on_table[j]]
    for j in live_enemies:
        if gap > 0:
            plan = _short_of_contact(nav, j, allowance, gap)
        else:
            plan = plan_with(nav, bases, None, allowance, stop_in_contact_with=j)
        add("toward_enemy", j, plan, f"toward enemy {j}")
    for k, point in enumerate(objectives):
        add("toward_objective", k, plan_with(nav, bases, point, allowance), f"toward objective {k}")
    foe = nearest(bases, i, live_enemies)
    if foe is not None:
        found_cover = _cover_move(table, bases, nav, foe, allowance)
        if found_cover is not None:
            plan, level = found_cover
            what = ("", "into soft cover from", "into hard cover from", "out of sight of")[level]
            add("cover_from_enemy", foe, plan, f"{what} enemy {foe}")
        away = nav.start - bases.centers[foe]
        norm = math.hypot(*away)
        if norm > 1e-12:
            goal = nav.start + away / norm * allowance
            add("away", foe, plan_with(nav, bases, goal, allowance), f"away from enemy {foe}")
    for f in friends:
        if f == i or not bases.on_table[f]:
            continue
        plan = plan_with(nav, bases, None, allowance, stop_in_contact_with=int(f))
        add("toward_friend", int(f), plan, f"toward friend {f}")
    return found


def destination_options(
    table: Table,
    bases: Bases,
    i: int,
    *,
    enemies: Sequence[int],
    friends: Sequence[int],
    objectives: Sequence[tuple[float, float]],
) -> list[tuple[str, int | None]]:
    """The ``(kind, ref)`` moves model ``i`` may order now, without planning any path.

    The same kinds and refs as :func:`candidate_destinations`, in the same order, but
    nothing is routed: a move is a direction (toward an enemy, objective or friend, into
    cover from or away from the nearest enemy) and :func:`plan_destination` plans it when
    it is made. Only cheap checks prune the list: a model does not move toward a model it
    already touches or onto an objective it stands on, and ``cover_from_enemy`` needs a
    piece that gives cover or blocks sight.
    """
    if not bases.on_table[i]:
        return []
    cfg = geometry_config()
    # Plain floats: a dozen distances, each far cheaper than on numpy rows (same values).
    xy, radii, on_table = bases.centers.tolist(), bases.radii.tolist(), bases.on_table.tolist()
    here = xy[i]
    reach = radii[i] + cfg.contact_tolerance
    options: list[tuple[str, int | None]] = []
    live = [int(j) for j in enemies if j != i and on_table[j]]
    for j in live:
        if math.dist(here, xy[j]) > reach + radii[j]:
            options.append(("toward_enemy", j))
    for k, point in enumerate(objectives):
        if math.dist(here, point) >= cfg.min_move:
            options.append(("toward_objective", k))
    foe = nearest(bases, i, live)
    if foe is not None:
        if any(p.cover != "none" or p.blocks_los for p in table.pieces):
            options.append(("cover_from_enemy", foe))
        options.append(("away", foe))
    for f in friends:
        f = int(f)
        if f != i and on_table[f] and math.dist(here, xy[f]) > reach + radii[f]:
            options.append(("toward_friend", f))
    return options


def plan_destination(
    table: Table,
    bases: Bases,
    i: int,
    allowance: float,
    kind: str,
    ref: int | None,
    *,
    objectives: Sequence[tuple[float, float]],
    enemy_gap: float | None = None,
) -> Destination | None:
    """Plan one move of :func:`destination_options` exactly as the full menu would.

    The answer is remembered by the model's navigator for this base layout
    (:func:`~riven_env.table.routing.navigator`): the same move from the same layout (a
    search agent's copy of the game, the opening of every game of a playtest) is planned
    once.

    Returns:
        The destination (its path is legal and truncated to ``allowance``), or None when
        the model cannot make that move at all (no cover spot in reach, or nothing to
        head for).
    """
    if not bases.on_table[i] or allowance <= 0:
        return None
    if kind not in DESTINATION_KINDS:
        raise ValueError(
            f"unknown destination kind {kind!r}; known: {', '.join(DESTINATION_KINDS)}"
        )
    i = int(i)
    allowance = float(allowance)
    # Only what this kind reads goes into the key.
    detail: object = None
    if kind == "toward_objective":
        detail = tuple(float(v) for v in objectives[ref])  # type: ignore[index]
    elif kind == "toward_enemy":
        detail = geometry_config().enemy_gap if enemy_gap is None else float(enemy_gap)
    nav = navigator(table, bases, i)
    return nav.remember(
        ("destination", allowance, kind, ref, detail),
        lambda: _plan_destination(nav, bases, allowance, kind, ref, detail),
    )


def _plan_destination(
    nav: Navigator, bases: Bases, allowance: float, kind: str, ref: int | None, detail: object
) -> Destination | None:
    """:func:`plan_destination` uncached; ``detail`` is the objective point or the enemy gap."""
    if kind == "toward_enemy":
        gap = float(detail)  # type: ignore[arg-type]
        if gap > 0:
            plan = _short_of_contact(nav, ref, allowance, gap)  # type: ignore[arg-type]
        else:
            plan = plan_with(nav, bases, None, allowance, stop_in_contact_with=ref)
        label = f"toward enemy {ref}"
    elif kind == "toward_objective":
        plan = plan_with(nav, bases, detail, allowance)  # type: ignore[arg-type]
        label = f"toward objective {ref}"
    elif kind == "cover_from_enemy":
        found = _cover_move(nav.table, bases, nav, ref, allowance)  # type: ignore[arg-type]
        if found is None:
            return None
        plan, level = found
        what = ("", "into soft cover from", "into hard cover from", "out of sight of")[level]
        label = f"{what} enemy {ref}"
    elif kind == "away":
        away = nav.start - bases.centers[ref]
        norm = math.hypot(*away)
        if norm <= 1e-12:
            return None
        plan = plan_with(nav, bases, nav.start + away / norm * allowance, allowance)
        label = f"away from enemy {ref}"
    else:  # toward_friend
        plan = plan_with(nav, bases, None, allowance, stop_in_contact_with=ref)
        label = f"toward friend {ref}"
    return Destination(kind, ref, plan.end, plan.cost, label, plan.path, plan.reached)
