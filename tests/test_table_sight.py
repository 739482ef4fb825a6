"""Measurement, line of sight and cover."""

from __future__ import annotations

import math

import numpy as np
import pytest

from riven_env.table import (
    CONTACT_TOL,
    Bases,
    Table,
    contacts,
    cover_for_shot,
    distance_to_nearest_edge,
    edge_distance,
    edge_distances_from,
    engagements,
    in_contact,
    line_of_sight,
    models_within,
    nearest,
    nearest_edge_point,
    sight,
)

TABLE = Table.from_spec(
    {
        "width": 36,
        "height": 36,
        "terrain": [
            {"name": "wall", "type": "wall", "rect": [17, 10, 19, 26]},
            {"name": "woods", "type": "woods", "rect": [4, 28, 12, 34]},
            {"name": "low wall", "type": "low_wall", "rect": [26, 4, 26.5, 12]},
            {"name": "scrub", "type": "scrub", "rect": [30, 20, 33, 24]},
        ],
    }
)


def test_edge_distance_contact_and_ranges() -> None:
    bases = Bases.from_lists([[5, 5], [7, 5], [5, 8], [20, 20]], [1.0, 1.0, 2.0, 1.0])
    assert edge_distance(bases, 0, 1) == pytest.approx(1.0)
    assert edge_distance(bases, 0, 2) == pytest.approx(1.5)
    bases.move_to(1, (6.0 + CONTACT_TOL / 2, 5))
    assert in_contact(bases, 0, 1) and in_contact(bases, 1, 0)
    assert contacts(bases, 0) == [1]
    assert engagements(bases) == [(0, 1)]
    gaps = edge_distances_from(bases, 0)
    assert math.isinf(gaps[0])
    bases.remove(3)
    assert math.isinf(edge_distances_from(bases, 0)[3])
    assert models_within(bases, 0, 1.6) == [1, 2]
    assert models_within(bases, (5.0, 6.0), 0.6) == [0]
    assert models_within(bases, (5.0, 6.0), 1.0) == [0, 1, 2]
    assert nearest(bases, 0, [2, 1]) == 1
    assert nearest(bases, 0, [3]) is None


def test_table_edges() -> None:
    bases = Bases.from_lists([[2, 30], [35.5, 18]], 1.0)
    assert distance_to_nearest_edge(TABLE, bases, 0) == pytest.approx(1.5)
    assert nearest_edge_point(TABLE, bases, 0) == (0.0, 30.0)
    assert distance_to_nearest_edge(TABLE, bases, 1) == pytest.approx(0.0)
    assert nearest_edge_point(TABLE, bases, 1) == (36.0, 18.0)


def test_walls_block_models_do_not() -> None:
    assert not line_of_sight(TABLE, (10, 18), (25, 18))
    assert line_of_sight(TABLE, (10, 5), (25, 5))
    bases = Bases.from_lists([[10, 5], [15, 5], [22, 5]], 1.0)
    assert sight(TABLE, bases, 0, 2) == (True, "none")  # model 1 in between does not block


def test_woods_hide_what_is_behind_but_not_what_is_inside() -> None:
    outside_left, outside_right = (2, 31), (14, 31)
    assert not line_of_sight(TABLE, outside_left, outside_right, a_radius=0.5, b_radius=0.5)
    inside = (8, 31)
    assert line_of_sight(TABLE, outside_right, inside, a_radius=0.5, b_radius=0.5)
    assert line_of_sight(TABLE, inside, outside_right, a_radius=0.5, b_radius=0.5)
    bases = Bases.from_lists([[14, 31], [8, 31]], 1.0)
    assert sight(TABLE, bases, 0, 1) == (True, "soft")


def test_cover_behind_low_wall_within_one_inch() -> None:
    assert cover_for_shot(TABLE, (20, 8), 0.5, (27.2, 8), 0.5) == "hard"  # just behind it
    assert cover_for_shot(TABLE, (20, 8), 0.5, (29.5, 8), 0.5) == "none"  # 3" behind it
    assert cover_for_shot(TABLE, (29.5, 8), 0.5, (20, 8), 0.5) == "none"  # wall at the shooter


def test_shooters_own_cover_does_not_count() -> None:
    # Both touch the low wall from opposite sides: the shooter's cover is not the target's.
    assert cover_for_shot(TABLE, (25.5, 8), 0.5, (27.0, 8), 0.5) == "none"
    assert cover_for_shot(TABLE, (22.0, 8), 0.5, (27.0, 8), 0.5) == "hard"


def test_target_in_soft_area_terrain_and_best_cover_wins() -> None:
    assert cover_for_shot(TABLE, (31.5, 10), 0.5, (31.5, 22), 0.5) == "soft"
    table = Table.from_spec(
        {
            "terrain": [
                {"type": "scrub", "rect": [10, 10, 14, 14]},
                {"type": "low_wall", "rect": [9.2, 10, 9.6, 14]},
            ]
        }
    )
    assert cover_for_shot(table, (2, 12), 0.5, (10.5, 12), 0.5) == "hard"
    assert cover_for_shot(table, (20, 12), 0.5, (10.5, 12), 0.5) == "soft"


def test_sight_agrees_with_separate_queries() -> None:
    rng = np.random.default_rng(5)
    points = rng.uniform(1, 35, size=(40, 2))
    bases = Bases.from_lists(points, 1.0)
    for a, b in rng.integers(0, 40, size=(60, 2)):
        if a == b:
            continue
        seen, cover = sight(TABLE, bases, int(a), int(b))
        pa, pb = points[a], points[b]
        assert seen == line_of_sight(TABLE, pa, pb, a_radius=0.5, b_radius=0.5)
        if seen:
            assert cover == cover_for_shot(TABLE, pa, 0.5, pb, 0.5)
