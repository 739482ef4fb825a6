"""Remembered answers per base layout and per map: never stale, shared only when equal."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from riven_env.table import (
    CONTACT_TOL,
    Bases,
    Table,
    charge_targets,
    contacts,
    edge_distance,
    edge_distances_from,
    plan_charge,
    plan_move,
    sight,
)
from riven_env.table.layout import Layout
from riven_env.table.sight import _clear, _cover, _segment

TABLE = Table.from_spec(
    {
        "width": 24,
        "height": 24,
        "terrain": [
            {"name": "wall", "type": "wall", "rect": [11, 6, 13, 18]},
            {"name": "woods", "type": "woods", "rect": [3, 16, 8, 21]},
            {"name": "scrub", "type": "scrub", "rect": [16, 3, 20, 8]},
        ],
    }
)


def _bases() -> Bases:
    return Bases.from_lists([[5, 5], [7.0, 5], [5, 12], [20, 20], [18, 12]], 1.0)


def test_layout_is_kept_while_nothing_changes_and_replaced_when_anything_does() -> None:
    bases = _bases()
    first = bases.layout()
    assert bases.layout() is first
    bases.centers[0, 0] = 5.5  # a direct write, not move_to: still noticed
    second = bases.layout()
    assert second is not first and second.centers[0] == [5.5, 5.0]
    bases.remove(3)
    assert bases.layout() is not second and bases.layout().on_table[3] is False
    bases.radii[1] = 0.75
    assert bases.layout().radii[1] == 0.75


def test_contacts_and_distances_follow_moves() -> None:
    bases = _bases()
    assert contacts(bases, 0) == []
    bases.move_to(1, (6.0 + CONTACT_TOL / 2, 5.0))
    assert contacts(bases, 0) == [1] and contacts(bases, 1) == [0]
    gaps = edge_distances_from(bases, 0)
    gaps[1] = 99.0  # the caller's copy: the remembered row is untouched
    assert edge_distances_from(bases, 0)[1] == pytest.approx(CONTACT_TOL / 2)
    bases.move_to(1, (9.0, 5.0))
    assert contacts(bases, 0) == []
    assert edge_distance(bases, 0, 1) == 3.0
    bases.remove(1)
    assert edge_distance(bases, 0, 1) == float("inf")


def test_copies_share_a_layout_until_one_moves() -> None:
    bases = _bases()
    charge_targets(TABLE, bases, 0, 8.0, [2, 3, 4])
    twin = bases.copy()
    assert twin.layout() is bases.layout()
    twin.move_to(0, (2.0, 2.0))
    assert twin.layout() is not bases.layout()
    assert bases.layout().centers[0] == [5.0, 5.0]


def test_remembered_charges_match_fresh_ones() -> None:
    rng = np.random.default_rng(5)
    for _ in range(20):
        xy = rng.uniform(2.0, 22.0, size=(5, 2))
        xy = xy[~((xy[:, 0] > 10) & (xy[:, 0] < 14) & (xy[:, 1] > 5) & (xy[:, 1] < 19))]
        if len(xy) < 3:
            continue
        bases = Bases.from_lists(xy, 1.0)
        enemies = list(range(1, len(xy)))
        remembered = charge_targets(TABLE, bases, 0, 8.0, enemies)
        assert charge_targets(TABLE, bases, 0, 8.0, enemies) == remembered
        fresh = Bases.from_lists(xy, 1.0)  # a new layout object: computed from scratch
        fresh_plans = [plan_charge(TABLE, fresh, 0, j, 8.0) for j in enemies]
        assert remembered == [j for j, p in zip(enemies, fresh_plans, strict=True) if p]
        for j, plan in zip(enemies, fresh_plans, strict=True):
            assert plan_charge(TABLE, bases, 0, j, 8.0) == plan


def test_remembered_moves_depend_on_every_argument() -> None:
    bases = _bases()
    short = plan_move(TABLE, bases, 0, (5.0, 9.0), 2.0)
    long = plan_move(TABLE, bases, 0, (5.0, 9.0), 6.0)
    assert short.cost == 2.0 and long.cost > 2.0
    other = plan_move(TABLE, bases, 2, (5.0, 9.0), 2.0)
    assert other.start == (5.0, 12.0)


def test_sight_cache_matches_direct_tracing() -> None:
    rng = np.random.default_rng(11)
    xy = rng.uniform(1.5, 22.5, size=(40, 2))
    bases = Bases.from_lists(xy, 1.0)
    for _ in range(2):  # the second round answers from the cache
        for s in range(0, 40, 3):
            for t in range(1, 40, 4):
                if s == t:
                    continue
                (sx, sy), (tx, ty) = xy[s].tolist(), xy[t].tolist()
                clear = _clear(TABLE, _segment(sx, sy, tx, ty), sx, sy, 0.5, tx, ty, 0.5)
                want = (True, _cover(TABLE, sx, sy, 0.5, tx, ty, 0.5)) if clear else (False, "none")
                assert sight(TABLE, bases, s, t) == want


def test_pickled_bases_leave_their_answers_behind() -> None:
    bases = _bases()
    charge_targets(TABLE, bases, 0, 8.0, [2, 4])
    restored = pickle.loads(pickle.dumps(bases))
    assert restored._layout is None
    assert np.array_equal(restored.centers, bases.centers)
    assert isinstance(restored.layout(), Layout)
    assert restored.layout().key == bases.layout().key


def test_layout_answers_are_bounded() -> None:
    from riven_env.table.config import geometry_config

    layout = _bases().layout()
    limit = geometry_config().layout_query_entries
    for k in range(limit + 5):
        layout.answer(TABLE, ("probe", k), lambda k=k: k)
    assert len(layout._answers) <= limit
    assert layout.answer(TABLE, ("probe", limit + 4), lambda: -1) == limit + 4
