"""Routing internals that make the tabletop fast: shared geometry, cached route ends,
exact lazy searches and the repairs around bases that avoid the slow graph search."""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riven_env.table import (
    CONTACT_TOL,
    Bases,
    Table,
    candidate_destinations,
    in_contact,
    plan_charge,
    plan_move,
    static_nav,
)
from riven_env.table.links import start_reach, start_reaches
from riven_env.table.navigation import fan_link_costs, link_costs
from riven_env.table.routing import Navigator
from riven_env.table.sampling import random_bases, random_table, random_terrain_spec

WALL = {"width": 36, "height": 36, "terrain": [{"type": "wall", "rect": [17, 8, 19, 28]}]}


@cache
def layout(seed: int) -> tuple[Table, Bases]:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=12)
    return table, random_bases(table, rng, 10, 1.0)


def overlaps_a_base(bases: Bases, i: int, path: tuple[tuple[float, float], ...]) -> bool:
    """Whether model i's base, moved along the path, overlaps another base anywhere."""
    r = float(bases.radii[i])
    for a, b in zip(path[:-1], path[1:], strict=True):
        ab = np.subtract(b, a)
        length2 = max(float(ab @ ab), 1e-18)
        for j in bases.others(i):
            c = bases.centers[j]
            t = float(np.clip((c - a) @ ab / length2, 0.0, 1.0))
            gap = math.dist(np.add(a, t * ab), c) - r - bases.radii[j]
            if gap < -CONTACT_TOL - 1e-9:
                return True
    return False


def test_equal_tables_share_their_derived_geometry() -> None:
    first, second = Table.from_spec(WALL), Table.from_spec(WALL)
    assert first is not second
    assert static_nav(first, 0.5) is static_nav(second, 0.5)
    assert first.for_radius(0.75) is second.for_radius(0.75)
    other = Table.from_spec({**WALL, "terrain": [{"type": "wall", "rect": [17, 8, 19, 27]}]})
    assert static_nav(other, 0.5) is not static_nav(first, 0.5)


def test_route_ends_are_cached_per_point() -> None:
    table = Table.from_spec(WALL)
    nav = static_nav(table, 0.5)
    point = np.array([12.0, 18.0])
    reach = start_reach(nav, table, point)
    assert start_reach(nav, table, point.copy()) is reach
    assert start_reach(nav, table, point + 1e-9) is not reach


def test_start_reach_is_the_cheapest_static_cost_to_every_waypoint() -> None:
    table, _ = layout(1)
    nav = static_nav(table, 0.5)
    start = np.array([3.0, 3.0])
    reach = start_reach(nav, table, start)
    links = link_costs(nav, table, np.broadcast_to(start, nav.nodes.shape), nav.nodes)
    brute = np.min(links[:, None] + nav.dist, axis=0)
    assert np.allclose(reach.reach, brute)
    assert np.allclose(
        reach.links[reach.first] + nav.dist[reach.first, np.arange(len(brute))], brute
    )


@pytest.mark.parametrize("pieces", [12, 40])
def test_links_from_many_starts_equal_one_start_at_a_time_bit_for_bit(pieces: int) -> None:
    # 40 small pieces make segments cross more outlines than the batched sum may hold,
    # which exercises the one-at-a-time fallback; 12 pieces the batched arithmetic.
    rng = np.random.default_rng(pieces)
    table = Table.from_spec(random_terrain_spec(rng, pieces=pieces, size=(1.0, 3.0)))
    nav = static_nav(table, 0.5)
    xmin, ymin, xmax, ymax = nav.bounds
    starts = rng.uniform((xmin, ymin), (xmax, ymax), (24, 2))
    n = len(nav.nodes)
    one_by_one = np.stack(
        [link_costs(nav, table, np.broadcast_to(s, (n, 2)), nav.nodes) for s in starts]
    )
    assert fan_link_costs(nav, table, starts).tobytes() == one_by_one.tobytes()


def test_start_reaches_share_the_cache_with_start_reach() -> None:
    table, _ = layout(2)
    nav = static_nav(table, 0.5)
    cached = start_reach(nav, table, np.array([4.0, 5.0]))
    points = np.array([[4.0, 5.0], [30.0, 31.0], [30.0, 31.0], [9.5, 20.25]])
    reaches = start_reaches(nav, table, points)
    assert reaches[0] is cached
    assert reaches[1] is reaches[2]
    for point, reach in zip(points, reaches, strict=True):
        assert start_reach(nav, table, point) is reach
        fresh = link_costs(nav, table, np.broadcast_to(point, nav.nodes.shape), nav.nodes)
        assert reach.links.tobytes() == fresh.tobytes()


PROPERTY = settings(
    derandomize=True, max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
coords = st.floats(min_value=0.5, max_value=35.5, allow_nan=False)


@PROPERTY
@given(st.integers(0, 3), coords, coords, coords, coords)
def test_lazy_search_finds_the_cheapest_route_in_the_graph(seed, sx, sy, gx, gy) -> None:
    """With no other models, a route costs exactly the cheapest way through the static graph
    (every start and goal link checked), or the straight line when that is clear."""
    table, _ = layout(seed)
    nav = static_nav(table, 0.5)
    start, goal = np.array([sx, sy]), np.array([gx, gy])
    if not (nav.legal(start[None, :])[0] and nav.legal(goal[None, :])[0]):
        return
    plan = plan_move(table, Bases.from_lists([start], 1.0), 0, goal, 1000.0)
    n = len(nav.nodes)
    s_links = link_costs(nav, table, np.broadcast_to(start, (n, 2)), nav.nodes)
    g_links = link_costs(nav, table, nav.nodes, np.broadcast_to(goal, (n, 2)))
    direct = link_costs(nav, table, start[None, :], goal[None, :])[0]
    best = min(direct, float(np.min(s_links[:, None] + nav.dist + g_links[None, :])))
    if not math.isfinite(best):
        assert not plan.reached
        return
    assert plan.reached
    assert plan.cost == pytest.approx(best, abs=1e-6)


def test_cold_and_warm_caches_give_the_same_plans() -> None:
    table, bases = layout(2)
    nav = static_nav(table, 0.5)
    goals = [(30.0, 30.0), (2.0, 34.0), (18.0, 18.0), (34.0, 2.0)]

    def plans() -> list[tuple]:
        return [plan_move(table, bases, i, g, 6.0).path for i in range(10) for g in goals]

    nav.ends.clear()
    cold = plans()
    warm = plans()
    assert cold == warm


def test_a_model_in_contact_walks_around_the_group_it_touches() -> None:
    """The mover touches a pair of bases standing between it and its goal: the repair goes
    around the group without cutting through either base (no graph search needed)."""
    table = Table.from_spec(WALL)
    bases = Bases.from_lists([[5.0, 4.0], [6.0, 4.0], [7.0, 4.0], [5.5, 12.0]], 1.0)
    plan = plan_move(table, bases, 0, (10.0, 4.0), 8.0)
    assert plan.reached
    assert not overlaps_a_base(bases, 0, plan.path)
    assert any(abs(y - 4.0) > 0.5 for _, y in plan.path)  # it left the line to go round


def test_a_charge_past_an_engaged_enemy_ends_in_contact_without_overlap() -> None:
    table = Table.from_spec(WALL)
    # 0 is in contact with enemy 1; enemy 2 stands right behind 1.
    bases = Bases.from_lists([[5.0, 4.0], [6.0, 4.0], [7.0, 4.0]], 1.0)
    plan = plan_charge(table, bases, 0, 2, 6.0)
    assert plan is not None
    moved = bases.copy()
    moved.move_to(0, plan.end)
    assert in_contact(moved, 0, 2)
    assert not overlaps_a_base(bases, 0, plan.path)


def test_bases_closing_a_corridor_stop_the_route() -> None:
    rock = {
        "type": "wall",
        "polygon": [[0, 0], [24, 0], [24, 12], [0, 12]],
        "holes": [
            [[1, 1], [9, 1], [9, 5], [15, 5], [15, 1], [23, 1], [23, 11], [15, 11]]
            + [[15, 6.5], [9, 6.5], [9, 11], [1, 11]],
        ],
    }
    table = Table.from_spec({"width": 24, "height": 12, "terrain": [rock]})
    open_corridor = Bases.from_lists([[3.0, 9.0], [20.0, 9.0]], 1.0)
    assert plan_move(table, open_corridor, 0, (20.0, 3.0), 40.0).reached
    closed = Bases.from_lists([[3.0, 9.0], [12.0, 5.75]], 1.0)  # a model in the corridor
    plan = plan_move(table, closed, 0, (20.0, 3.0), 40.0)
    assert not plan.reached
    assert not overlaps_a_base(closed, 0, plan.path)
    assert plan.end[0] < 12.0  # it waits on its own side


@settings(derandomize=True, max_examples=10, deadline=None)
@given(st.integers(0, 3), st.integers(0, 9))
def test_menus_never_cut_through_a_base(seed, i) -> None:
    table, bases = layout(seed)
    enemies = [j for j in range(10) if (j < 5) != (i < 5)]
    friends = [j for j in range(10) if (j < 5) == (i < 5) and j != i]
    menu = candidate_destinations(
        table, bases, i, 6.0, enemies=enemies, friends=friends, objectives=[(18.0, 18.0)]
    )
    for d in menu:
        assert not overlaps_a_base(bases, i, d.path)


def test_navigator_reuses_the_start_links_across_goals() -> None:
    table = Table.from_spec(random_terrain_spec(np.random.default_rng(5)))
    bases = Bases.from_lists([[2.0, 2.0]], 1.0)
    navigator = Navigator(table, bases, 0)
    assert navigator.start_reach() is navigator.start_reach()
    assert navigator.start_reach() is start_reach(static_nav(table, 0.5), table, bases.centers[0])


@pytest.mark.parametrize("scenario", ["skirmish-5v5", "ruins", "dungeon-crawl"])
def test_static_cuts_screened_by_edge_boxes_equal_one_pass_over_every_edge(scenario: str) -> None:
    # _static_cut measures only the edges whose box comes near the base: it must flag exactly
    # the edges that one pass over all of them flags (the graph's costs depend on it).
    from riven_env.engines import new_game
    from riven_env.scenario import load_scenario
    from riven_env.table.navigation import segment_point_distances, static_nav
    from riven_env.table.routing import _static_cut

    state = new_game(load_scenario(scenario), 0)
    nav = static_nav(state.table, float(state.bases.radii[0]))
    a, b = nav.nodes[nav.edges[:, 0]], nav.nodes[nav.edges[:, 1]]
    rng = np.random.default_rng(4)
    width, height = state.table.width, state.table.height
    flagged = 0
    for _ in range(400):
        x, y = float(rng.uniform(0, width)), float(rng.uniform(0, height))
        limit = float(rng.uniform(0.3, 2.0))
        nav.cuts.clear()
        screened = _static_cut(nav, x, y, limit)
        every = segment_point_distances(a, b, np.array(((x, y),)))[:, 0] < limit
        assert np.array_equal(screened, every)
        flagged += int(every.sum())
    nav.cuts.clear()
    assert flagged > 0  # the sample does cut edges, so the comparison means something
