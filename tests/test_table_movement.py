"""Moves, charges, recoil, flight and candidate destinations on hand-made tables."""

from __future__ import annotations

import math

import numpy as np
import pytest

from riven_env.table import (
    CONTACT_TOL,
    DESTINATION_KINDS,
    Bases,
    Table,
    candidate_destinations,
    charge_targets,
    edge_distance,
    in_contact,
    plan_charge,
    plan_flight,
    plan_move,
    plan_push,
    sight,
)
from riven_env.table.navigation import segment_costs

WALL = Table.from_spec(
    {"width": 36, "height": 36, "terrain": [{"type": "wall", "rect": [17, 8, 19, 28]}]}
)
MARSH = Table.from_spec(
    {"width": 36, "height": 36, "terrain": [{"type": "marsh", "rect": [10, 0, 14, 36]}]}
)


def path_length(points: tuple[tuple[float, float], ...]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points[:-1], points[1:], strict=True))


def test_open_ground_move_is_straight_and_truncated() -> None:
    bases = Bases.from_lists([[5, 5]], 1.0)
    plan = plan_move(WALL, bases, 0, (5, 15), 6.0)
    assert plan.end == pytest.approx((5, 11))
    assert plan.cost == pytest.approx(6.0) and not plan.reached
    full = plan_move(WALL, bases, 0, (5, 10), 6.0)
    assert full.reached and full.end == pytest.approx((5, 10))


def test_path_goes_around_a_wall() -> None:
    bases = Bases.from_lists([[12, 18]], 1.0)
    plan = plan_move(WALL, bases, 0, (24, 18), 40.0)
    assert plan.reached
    straight = 12.0
    assert plan.cost > straight + 10  # around a 20" wall
    assert plan.cost == pytest.approx(path_length(plan.path))
    assert all(p[1] >= 28.5 - 1e-6 or p[1] <= 7.5 + 1e-6 for p in plan.path[1:-1])


def test_difficult_ground_costs_double() -> None:
    bases = Bases.from_lists([[5, 18]], 1.0)
    plan = plan_move(MARSH, bases, 0, (20, 18), 40.0)
    assert plan.reached and plan.cost == pytest.approx(15 + 4)
    short = plan_move(MARSH, bases, 0, (20, 18), 7.0)
    assert short.end == pytest.approx((11.0, 18.0))  # 5" to the marsh, then 1" for 2"
    assert segment_costs(MARSH, np.array([[5.0, 18.0]]), np.array([[11.0, 18.0]]))[0] == (
        pytest.approx(7.0)
    )


def test_other_bases_are_avoided_and_never_overlapped() -> None:
    bases = Bases.from_lists([[5, 18], [10, 18], [10, 19], [10, 17]], 1.0)
    plan = plan_move(WALL, bases, 0, (15, 18), 20.0)
    assert plan.reached
    for a, b in zip(plan.path[:-1], plan.path[1:], strict=True):
        for j in (1, 2, 3):
            c = bases.centers[j]
            t = np.clip(np.dot(c - a, np.subtract(b, a)) / max(math.dist(a, b) ** 2, 1e-12), 0, 1)
            closest = np.add(a, t * np.subtract(b, a))
            assert math.dist(closest, c) >= 1.0 - CONTACT_TOL - 1e-9


def test_goal_on_a_base_ends_next_to_it() -> None:
    bases = Bases.from_lists([[5, 5], [12, 5]], 1.0)
    plan = plan_move(WALL, bases, 0, (12, 5), 20.0)
    assert not plan.reached
    assert edge_distance(Bases.from_lists([plan.end, [12, 5]], 1.0), 0, 1) >= -CONTACT_TOL
    assert math.dist(plan.end, (12, 5)) < 1.1


def test_charge_ends_in_contact() -> None:
    bases = Bases.from_lists([[12, 18], [24, 18], [3, 3]], 1.0)
    plan = plan_charge(WALL, bases, 0, 1, 40.0)
    assert plan is not None
    moved = bases.copy()
    moved.move_to(0, plan.end)
    assert in_contact(moved, 0, 1)
    assert plan_charge(WALL, bases, 0, 1, 8.0) is None  # must go round the wall
    assert charge_targets(WALL, bases, 0, 40.0, [1, 2]) == [1, 2]
    assert charge_targets(WALL, bases, 0, 8.0, [1, 2]) == []


def test_charge_reaches_the_free_side_of_a_screened_target() -> None:
    bases = Bases.from_lists([[5, 4], [12, 4], [11, 4], [12, 5], [12, 3]], 1.0)
    plan = plan_charge(WALL, bases, 0, 1, 20.0)
    assert plan is not None
    moved = bases.copy()
    moved.move_to(0, plan.end)
    assert in_contact(moved, 0, 1)
    assert plan.end[0] > 12.5  # only the far side is free


def test_push_goes_directly_away_and_stops_at_obstacles() -> None:
    bases = Bases.from_lists([[15, 18], [20, 3], [30, 18], [31.5, 18]], 1.0)
    push = plan_push(WALL, bases, 0, (13, 18), 3.0)
    assert push.end[0] == pytest.approx(16.5, abs=0.05) and push.end[1] == pytest.approx(18)
    assert not push.reached
    edge = plan_push(WALL, bases, 1, (20, 5), 5.0)
    assert edge.end == pytest.approx((20, 0.5))
    blocked = plan_push(WALL, bases, 2, (28, 18), 3.0)
    assert blocked.end == pytest.approx((30.5, 18))  # stops in contact with model 3
    bases.move_to(3, (31.0, 18))
    assert plan_push(WALL, bases, 2, (28, 18), 3.0).end == (30.0, 18.0)  # already touching
    assert plan_push(WALL, bases, 0, (15, 18), 3.0).end == (15.0, 18.0)


def test_flight_reaches_the_edge_and_leaves() -> None:
    bases = Bases.from_lists([[4, 20], [16, 18]], 1.0)
    plan, left = plan_flight(WALL, bases, 0, 5.0)
    assert left and plan.end == pytest.approx((0.5, 20))
    plan, left = plan_flight(WALL, bases, 0, 2.0)
    assert not left and plan.end == pytest.approx((2, 20))
    plan, left = plan_flight(WALL, bases, 1, 9.0)
    assert not left and plan.end[0] < 16  # nearest edge is left; straight there


def test_flight_runs_straight_and_stops_at_a_blocker() -> None:
    # RAW: directly toward the nearest edge; a wall in the way stops the model there.
    table = Table.from_spec({"terrain": [{"type": "wall", "rect": [2, 15, 3, 21]}]})
    bases = Bases.from_lists([[4, 18]], 1.0)
    plan, left = plan_flight(table, bases, 0, 10.0)
    assert not left and plan.end == pytest.approx((3.5, 18), abs=CONTACT_TOL)
    assert len(plan.path) == 2


def test_flight_around_a_blocker_is_the_house_variant() -> None:
    table = Table.from_spec({"terrain": [{"type": "wall", "rect": [2, 15, 3, 21]}]})
    bases = Bases.from_lists([[4, 18]], 1.0)
    plan, left = plan_flight(table, bases, 0, 10.0, around=True)
    assert left and plan.end[0] == pytest.approx(0.5)
    assert plan.cost <= 10.0 + 1e-9 and len(plan.path) > 2


def test_flight_whose_edge_point_is_taken_still_leaves_the_table() -> None:
    # The point straight ahead on the edge is partly held by another base: the route ends
    # at the nearest free spot, its base touching the edge beside that base. A base that
    # touches the edge has left the table.
    bases = Bases.from_lists([[3, 18], [0.5, 18.6]], 1.0)
    plan, left = plan_flight(WALL, bases, 0, 6.0, around=True)
    assert left and plan.end[0] == pytest.approx(0.5, abs=1e-6) and plan.end[1] < 18
    # Straight (RAW) it runs into that base and stops in contact, short of the edge.
    plan, left = plan_flight(WALL, bases, 0, 6.0)
    assert not left and plan.end[1] == 18 and 0.5 + CONTACT_TOL < plan.end[0] < 1.5


def test_flight_touching_the_edge_on_the_way_leaves_there() -> None:
    # The plan ends where the base first touches the edge, even with distance to spare.
    bases = Bases.from_lists([[2, 30]], 1.0)
    plan, left = plan_flight(WALL, bases, 0, 9.0)
    assert left and plan.end == pytest.approx((0.5, 30)) and plan.cost == pytest.approx(1.5)


def test_flight_through_difficult_ground_costs_double() -> None:
    bases = Bases.from_lists([[15, 18]], 1.0)  # nearest edge: left, across the marsh
    plan, left = plan_flight(MARSH, bases, 0, 6.0)
    # 1" of open ground, then 5" of allowance buy 2.5" of marsh.
    assert not left and plan.end == pytest.approx((11.5, 18)) and plan.cost == pytest.approx(6.0)


def test_dungeon_corridor_path() -> None:
    rock = {
        "type": "wall",
        "polygon": [[0, 0], [24, 0], [24, 12], [0, 12]],
        "holes": [  # two rooms joined by a 1.5" corridor
            [
                [1, 1],
                [9, 1],
                [9, 5],
                [15, 5],
                [15, 1],
                [23, 1],
                [23, 11],
                [15, 11],
                [15, 6.5],
                [9, 6.5],
                [9, 11],
                [1, 11],
            ],
        ],
    }
    table = Table.from_spec({"width": 24, "height": 12, "terrain": [rock]})
    bases = Bases.from_lists([[3, 9]], 1.0)
    plan = plan_move(table, bases, 0, (20, 3), 40.0)
    assert plan.reached
    assert all(5.0 < y < 6.5 for x, y in plan.path if 9.5 < x < 14.5)
    wide = Bases.from_lists([[3, 9]], 2.0)  # a 2" base cannot fit the 1.5" corridor
    assert not plan_move(table, wide, 0, (20, 3), 40.0).reached


def test_candidate_destinations_order_and_legality() -> None:
    table = Table.from_spec(
        {
            "terrain": [
                {"type": "wall", "rect": [17, 8, 19, 28]},
                {"type": "ruin", "rect": [8, 8, 11, 12]},
            ]
        }
    )
    bases = Bases.from_lists([[12, 18], [24, 18], [30, 30], [14, 4]], 1.0)
    menu = candidate_destinations(
        table, bases, 0, 6.0, enemies=[1, 2], friends=[3], objectives=[(12, 30)]
    )
    kinds = [d.kind for d in menu]
    assert kinds == sorted(kinds, key=DESTINATION_KINDS.index)
    assert {"toward_enemy", "toward_objective", "away", "toward_friend"} <= set(kinds)
    for d in menu:
        assert d.cost <= 6.0 + 1e-9
        assert math.dist(d.point, bases.center(0)) >= 0.25
    for a in menu:
        for b in menu:
            if a is not b:
                assert math.dist(a.point, b.point) >= 0.25
    cover = [d for d in menu if d.kind == "cover_from_enemy"]
    assert cover and cover[0].ref == 1
    moved = bases.copy()
    moved.move_to(0, cover[0].point)
    seen, level = sight(table, moved, 1, 0)
    assert not seen or level != "none"
