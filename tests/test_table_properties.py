"""Property-based checks of movement, recoil, flight and contact over random tables.

Deterministic: hypothesis runs derandomised with a bounded number of examples, and the
tables come from a handful of seeded layouts (cached: building navigation is the slow part).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riven_env.table import (
    CONTACT_TOL,
    Bases,
    Table,
    candidate_destinations,
    distance_to_nearest_edge,
    in_contact,
    plan_charge,
    plan_flight,
    plan_move,
    plan_push,
)
from riven_env.table.navigation import segment_costs
from riven_env.table.sampling import random_bases, random_table

SLACK = 1e-6
PROPERTY = settings(
    derandomize=True,
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@cache
def layout(seed: int) -> tuple[Table, Bases]:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=12)
    return table, random_bases(table, rng, 10, [1.0] * 8 + [1.5, 2.0])


def overlap_free(table: Table, bases: Bases, i: int, xy: tuple[float, float]) -> bool:
    """Whether model i's base at xy stays on the table and off terrain and other bases."""
    r = float(bases.radii[i])
    x, y = xy
    if not (
        r - SLACK <= x <= table.width - r + SLACK and r - SLACK <= y <= table.height - r + SLACK
    ):
        return False
    point = shapely.Point(x, y)
    for piece in table.pieces:
        if piece.impassable and piece.polygon.distance(point) < r - CONTACT_TOL - SLACK:
            return False
    for j in bases.others(i):
        reach = r + bases.radii[j]
        if math.dist(xy, bases.center(int(j))) < reach - CONTACT_TOL - SLACK:
            return False
    return True


def path_clear_of_terrain(table: Table, r: float, path: tuple[tuple[float, float], ...]) -> bool:
    if len(path) < 2:
        return True
    line = shapely.LineString(path)
    return all(
        piece.polygon.distance(line) >= r - CONTACT_TOL - SLACK
        for piece in table.pieces
        if piece.impassable
    )


seeds = st.integers(min_value=0, max_value=5)
models = st.integers(min_value=0, max_value=9)
coords = st.floats(min_value=0.0, max_value=36.0, allow_nan=False)
allowances = st.floats(min_value=0.5, max_value=14.0, allow_nan=False)


@PROPERTY
@given(seeds, models, coords, coords, allowances)
def test_moves_stay_legal_and_within_allowance(seed, i, gx, gy, allowance) -> None:
    table, bases = layout(seed)
    plan = plan_move(table, bases, i, (gx, gy), allowance)
    assert plan.start == bases.center(i)
    assert overlap_free(table, bases, i, plan.end)
    assert path_clear_of_terrain(table, float(bases.radii[i]), plan.path)
    assert plan.cost <= allowance + 1e-6
    if len(plan.path) > 1:
        pts = np.array(plan.path)
        paid = float(segment_costs(table, pts[:-1], pts[1:]).sum())
        assert paid == pytest.approx(plan.cost, abs=1e-6)
        assert (
            paid
            >= sum(math.dist(a, b) for a, b in zip(plan.path[:-1], plan.path[1:], strict=True))
            - 1e-9
        )


@PROPERTY
@given(seeds, models, models, allowances)
def test_charges_end_in_contact_and_legal(seed, i, j, reach) -> None:
    table, bases = layout(seed)
    if i == j:
        return
    plan = plan_charge(table, bases, i, j, reach)
    if plan is None:
        return
    moved = bases.copy()
    moved.move_to(i, plan.end)
    assert in_contact(moved, i, j)
    assert overlap_free(table, bases, i, plan.end)
    assert path_clear_of_terrain(table, float(bases.radii[i]), plan.path)
    assert plan.cost <= reach + 1e-6


@PROPERTY
@given(seeds, models, coords, coords, st.floats(min_value=0.1, max_value=6.0))
def test_recoil_never_moves_toward_the_source(seed, i, sx, sy, distance) -> None:
    table, bases = layout(seed)
    plan = plan_push(table, bases, i, (sx, sy), distance)
    before = math.dist(bases.center(i), (sx, sy))
    assert math.dist(plan.end, (sx, sy)) >= before - 1e-9
    assert plan.moved <= distance + 1e-9
    assert overlap_free(table, bases, i, plan.end)


@PROPERTY
@given(seeds, models, st.floats(min_value=4.0, max_value=9.0), st.booleans())
def test_flight_never_increases_the_distance_to_the_nearest_edge(seed, i, distance, around) -> None:
    table, bases = layout(seed)
    plan, left = plan_flight(table, bases, i, distance, around=around)
    moved = bases.copy()
    moved.move_to(i, plan.end)
    after = distance_to_nearest_edge(table, moved, i)
    assert after <= distance_to_nearest_edge(table, bases, i) + 1e-9
    assert overlap_free(table, bases, i, plan.end)
    # Touching the edge and leaving the table are the same thing.
    assert left == (after <= CONTACT_TOL)
    assert plan.cost <= distance + 1e-9


@PROPERTY
@given(seeds, models, st.floats(min_value=4.0, max_value=9.0))
def test_straight_flight_uses_its_whole_distance_unless_blocked(seed, i, distance) -> None:
    # RAW flight: with a clear lane the model spends its whole distance or leaves the table;
    # stopping short means a base or impassable terrain stands in its way.
    table, bases = layout(seed)
    plan, left = plan_flight(table, bases, i, distance)
    if left or plan.cost >= distance - 1e-6:
        return
    moved = bases.copy()
    moved.move_to(i, plan.end)
    touching_base = any(in_contact(moved, i, j) for j in range(len(bases)) if j != i)
    clearance = table.for_radius(float(bases.radii[i])).clearance
    at_terrain = clearance is not None and clearance.distance(shapely.Point(plan.end)) <= 1e-4
    assert touching_base or at_terrain
    start = np.asarray(bases.center(i))
    step = np.asarray(plan.end) - start
    # Straight: every point of the path lies on the line toward the nearest edge.
    assert len(plan.path) <= 2 and min(abs(step[0]), abs(step[1])) <= 1e-9


@PROPERTY
@given(st.lists(st.tuples(coords, coords), min_size=2, max_size=6), st.floats(0.5, 2.0))
def test_contact_is_symmetric(points, diameter) -> None:
    bases = Bases.from_lists(points, diameter)
    for i in range(len(points)):
        for j in range(len(points)):
            assert in_contact(bases, i, j) == in_contact(bases, j, i)


@settings(derandomize=True, max_examples=12, deadline=None)
@given(seeds, models)
def test_candidate_destinations_are_legal(seed, i) -> None:
    table, bases = layout(seed)
    enemies = [j for j in range(10) if (j < 5) != (i < 5)]
    friends = [j for j in range(10) if (j < 5) == (i < 5) and j != i]
    menu = candidate_destinations(
        table, bases, i, 6.0, enemies=enemies, friends=friends, objectives=[(18.0, 18.0)]
    )
    for d in menu:
        assert overlap_free(table, bases, i, d.point)
        assert d.cost <= 6.0 + 1e-6
        assert path_clear_of_terrain(table, float(bases.radii[i]), d.path)
