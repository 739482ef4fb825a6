"""The native tabletop queries answer as the Python (shapely/networkx) reference does.

On every bundled map and 50 generated ones, random queries of each kind the core answers
(``tests/native_table_cases.py``): sight, cover, contact, straight flight, recoil and the
destination options, with a share of points exactly on outline vertices and edge midpoints,
and layouts packed at the contact tolerance; and, fewer per map (each plans routes on both
engines), the routing kinds: route length and polyline, ``plan_destination`` of every menu
option, charge paths and targets, and the ``around`` flight. ``benchmarks/native_table_equivalence.py`` runs the same check at 100,000+
queries per kind. Plus the awkward sight lines of ``test_table_sight_exact.py`` and the seam's
errors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from benchmark_scripts import load_benchmark
from native_table_cases import (
    DIAMETERS,
    KINDS,
    Agreement,
    _layout,
    check_map,
    equivalence_maps,
)

from riven_env.errors import TerrainError
from riven_env.native import available
from riven_env.native import table as native
from riven_env.scenario.loader import bundled_dir
from riven_env.table import (
    Bases,
    Table,
    charge_targets,
    cover_for_shot,
    line_of_sight,
    plan_flight,
    sight,
    sight_between,
)
from riven_env.table.config import COVER_LEVELS
from riven_env.table.routing import navigator

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

QUERIES_PER_MAP = 40  # x 62 maps: about 2,500 queries of each kind
ROUTING_QUERIES_PER_MAP = 4  # x 62 maps: about 250 of each routing kind (a minute in all)
ROUTING_KINDS = ("route", "plan_destination", "charge", "flight_around", "candidates")


@pytest.fixture(scope="module")
def maps() -> list[tuple[str, Table]]:
    found = equivalence_maps(50)
    for _, table in found:  # build each map's geometry once, for every base size drawn
        for diameter in set(DIAMETERS):
            native.native_table(table).ensure_radius(diameter / 2.0)
    return found


@pytest.mark.parametrize("kind", ["sight", "cover", "contact", "flight", "recoil", "destinations"])
def test_every_query_kind_agrees_on_every_bundled_and_50_generated_maps(
    kind: str, maps: list[tuple[str, Table]]
) -> None:
    assert kind in KINDS
    total = Agreement(kind)
    for seed, (_, table) in enumerate(maps):
        total.merge(check_map(table, seed, QUERIES_PER_MAP, kinds=(kind,))[kind])
    generated = [name for name, _ in maps if name.rsplit("-", 1)[-1].isdigit()]
    assert len(generated) == 50
    missions = [p for p in bundled_dir().glob("*.toml") if p.stem != "profiles"]
    assert len(maps) - len(generated) == len(missions)
    assert total.queries == len(maps) * QUERIES_PER_MAP
    assert total.agreed == total.queries, total.examples
    assert total.max_length_error <= 1e-9


AWKWARD = Table.from_spec(
    {
        "width": 36,
        "height": 36,
        "terrain": [
            {"name": "wall", "type": "wall", "rect": [17, 10, 19, 26]},
            {"name": "touching wall", "type": "wall", "rect": [19, 10, 21, 12]},
            {"name": "tilted", "type": "building", "polygon": [[3, 3], [9, 5], [7, 11], [1, 8]]},
            {"name": "pillar", "type": "pillar", "circle": [28, 28, 1.5]},
            {
                "name": "ring ruin",
                "type": "ruin",
                "polygon": [[24, 2], [34, 2], [34, 12], [24, 12]],
                "holes": [[[27, 5], [31, 5], [31, 9], [27, 9]]],
            },
            {"name": "woods", "type": "woods", "rect": [4, 28, 12, 34]},
            {"name": "overlapping woods", "type": "woods", "rect": [10, 24, 14, 30]},
            {"name": "low wall", "type": "low_wall", "rect": [26, 14, 26.5, 22]},
            {"name": "scrub", "type": "scrub", "circle": [6, 18, 2]},
            {"name": "marsh", "type": "marsh", "rect": [14, 2, 22, 8]},
        ],
    }
)


def _awkward_segments(rng: np.random.Generator) -> list[tuple[float, float, float, float]]:
    """Segments between vertices, past and short of them, along edges and of zero length."""
    corners = np.concatenate([shapely.get_coordinates(p.polygon) for p in AWKWARD.pieces])
    segments = []
    for i, j in rng.integers(0, len(corners), size=(400, 2)):
        (ax, ay), (bx, by) = corners[i], corners[j]
        segments.append((ax, ay, bx, by))
        segments.append((ax, ay, ax + 2.0 * (bx - ax), ay + 2.0 * (by - ay)))
        segments.append((ax - (bx - ax), ay - (by - ay), ax, ay))
        segments.append((ax, ay, ax, ay))
    for ax, ay in corners:
        for dx, dy in ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (-1.0, 1e-17), (1e-300, 3.0)):
            segments.append((ax - dx, ay - dy, ax + dx, ay + dy))
    return segments


def test_awkward_sight_lines_along_edges_and_through_vertices_agree() -> None:
    nat = native.native_table(AWKWARD)
    rng = np.random.default_rng(5)
    radii = (0.5, 0.63, 1.0)
    for ax, ay, bx, by in _awkward_segments(rng):
        ar, br = (float(r) for r in rng.choice(radii, 2))
        a, b = (float(ax), float(ay)), (float(bx), float(by))
        assert nat.line_of_sight(a, b, a_radius=ar, b_radius=br) == line_of_sight(
            AWKWARD, a, b, a_radius=ar, b_radius=br
        )
        assert nat.cover_for_shot(a, ar, b, br) == cover_for_shot(AWKWARD, a, ar, b, br)
        assert nat.sight_between(*a, ar, *b, br) == sight_between(AWKWARD, *a, ar, *b, br)


def _walled_and_open(wall: list[float]) -> list[tuple[Table, object]]:
    """A 36 x 36 table with one wall (``[xmin, ymin, xmax, ymax]``) and an open one, each with
    its core table: the memo tests ask both the same queries."""
    walled = Table.from_spec(
        {"width": 36, "height": 36, "terrain": [{"name": "w", "type": "wall", "rect": wall}]}
    )
    open_field = Table.from_spec({"width": 36, "height": 36, "terrain": []})
    return [(t, native.native_table(t)) for t in (walled, open_field)]


def test_the_cores_sight_memo_never_answers_for_another_table() -> None:
    # The core remembers sight answers per thread, keyed by the table: the same query on an
    # open table and on one with a wall across it, asked turn about, gets each table's answer.
    tables = _walled_and_open([17, 0, 19, 36]) + [(AWKWARD, native.native_table(AWKWARD))]
    rng = np.random.default_rng(9)
    queries = [
        (*rng.uniform(1.0, 35.0, 2), 0.5, *rng.uniform(1.0, 35.0, 2), 0.63) for _ in range(200)
    ]
    seen = set()
    for _ in range(2):
        for query in queries:
            for table, nat in tables:
                answer = nat.sight_between(*query)
                assert answer == sight_between(table, *query)
                seen.add(answer[0])
    assert seen == {True, False}


def test_the_cores_charge_memo_never_answers_for_another_table() -> None:
    # Charge plans are remembered per thread, keyed by the table and the whole layout: the same
    # charges across a wall and over open ground, asked turn about, get each table's answer.
    from riven_env.table.movement import charge_targets as python_charge_targets
    from riven_env.table.movement import plan_charge as python_plan_charge

    tables = _walled_and_open([17, 8, 19, 28])
    rng = np.random.default_rng(13)
    reached = set()
    for _ in range(40):
        centres = np.column_stack([rng.uniform(12.0, 16.0, 4), rng.uniform(10.0, 26.0, 4)])
        centres[2:, 0] += 8.0  # two chargers west of the wall, two targets east of it
        bases = Bases(centres, np.full(4, 0.5), np.ones(4, dtype=bool))
        reach = float(rng.uniform(6.0, 14.0))
        for table, nat in tables * 2:
            assert nat.charge_targets(bases, 0, reach, [2, 3]) == python_charge_targets(
                table, bases, 0, reach, [2, 3]
            )
            mine, theirs = (
                nat.plan_charge(bases, 1, 2, reach),
                python_plan_charge(table, bases, 1, 2, reach),
            )
            assert (mine is None) == (theirs is None)
            if mine is not None:
                assert mine.path == theirs.path and mine.cost == theirs.cost
            reached.add(mine is not None)
    assert reached == {True, False}


def test_difficult_ground_costs_double_on_the_core_too() -> None:
    nat = native.native_table(AWKWARD)
    # 4" of open ground, 8" of marsh (costs 16), 1" of open ground.
    assert math.isclose(nat.segment_cost((10.0, 5.0), (23.0, 5.0)), 21.0, abs_tol=1e-12)
    assert nat.segment_cost((0.5, 20.0), (0.5, 30.0)) == 10.0


def test_flight_through_the_marsh_matches_the_reference() -> None:
    nat = native.native_table(AWKWARD)
    bases = Bases.from_lists([[18.0, 6.5], [30.0, 20.0]], 1.0)
    for distance in (1.0, 3.0, 6.0, 9.0):
        assert nat.plan_flight(bases, 0, distance) == plan_flight(AWKWARD, bases, 0, distance)


@pytest.mark.parametrize("kind", ROUTING_KINDS)
def test_every_routing_kind_agrees_on_every_bundled_and_50_generated_maps(
    kind: str, maps: list[tuple[str, Table]]
) -> None:
    assert kind in KINDS
    total = Agreement(kind)
    for seed, (_, table) in enumerate(maps):
        total.merge(check_map(table, seed, ROUTING_QUERIES_PER_MAP, kinds=(kind,))[kind])
    assert total.queries == len(maps) * ROUTING_QUERIES_PER_MAP
    assert total.agreed == total.queries, total.examples
    assert total.max_length_error <= 1e-9


def test_routes_around_a_packed_cluster_match_the_reference() -> None:
    """A wall of touching bases between the mover and its goal: the detour around the wrapped
    cluster, and with too little allowance, the graph with the bases as obstacles."""
    table = AWKWARD
    nat = native.native_table(table)
    wall = [[30.0, 16.5 + 1.0 * k] for k in range(8)]
    bases = Bases.from_lists([[24.0, 20.0], *wall, [33.0, 20.0]], 1.0)
    for allowance in (2.0, 6.0, 30.0):
        python = navigator(table, bases, 0).route(allowance, goal=(34.5, 20.5))
        core = nat.route(bases, 0, allowance, goal=(34.5, 20.5))
        assert python.points.tolist() == core.points.tolist()
        assert python.cost == core.cost and python.goal_reached == core.goal_reached
        for target in (1, 9):
            python = navigator(table, bases, 0).route(allowance, target=target)
            core = nat.route(bases, 0, allowance, target=target)
            assert python.points.tolist() == core.points.tolist()
            assert python.cost == core.cost and python.goal_reached == core.goal_reached
    assert nat.route_length(bases, 0, 30.0, target=9) == core.cost
    assert nat.charge_targets(bases, 0, 12.0, [9, 1]) == charge_targets(
        table, bases, 0, 12.0, [9, 1]
    )


OPEN = Table.from_spec({"width": 36, "height": 36, "terrain": []})


def test_mirror_symmetric_routes_around_bases_match_the_reference() -> None:
    """Two equally long ways around a wall of bases (the layout mirrored about the line from the
    mover to its goal): the core's lazy graph search settles the tie as the eager reference
    does (the first waypoint by index), so points, costs and decisions are the same."""
    nat = native.native_table(OPEN)
    for half in (1, 2, 3):
        wall = [[18.0, 18.0 + 1.0 * k] for k in range(-half, half + 1)]
        bases = Bases.from_lists([[12.0, 18.0], *wall, [19.0, 18.0], [25.0, 18.0]], 1.0)
        touching, beyond = len(bases) - 2, len(bases) - 1
        for allowance in (1.0, 3.0, 6.0, 6.5, 8.0, 30.0):
            for way in ({"target": touching}, {"target": beyond}, {"goal": (24.0, 18.0)}):
                python = navigator(OPEN, bases, 0).route(allowance, **way)
                core = nat.route(bases, 0, allowance, **way)
                assert python.points.tolist() == core.points.tolist()
                assert python.cost == core.cost and python.goal_reached == core.goal_reached
                # The mirrored way around is as long (the tie is real, to rounding).
                mirrored = Bases(
                    bases.centers * [1.0, -1.0] + [0.0, 36.0], bases.radii, bases.on_table
                )
                goal = {"goal": (24.0, 18.0)} if "goal" in way else way
                assert abs(nat.route(mirrored, 0, allowance, **goal).cost - core.cost) <= 1e-9
            assert nat.charge_targets(bases, 0, allowance, [touching, beyond]) == charge_targets(
                OPEN, bases, 0, allowance, [touching, beyond]
            )


def test_the_native_table_is_built_once_per_map() -> None:
    again = Table.from_spec(AWKWARD.to_spec())
    assert native.native_table(again) is native.native_table(AWKWARD)


def test_seam_errors_name_the_problem() -> None:
    nat = native.native_table(AWKWARD)
    bases = Bases.from_lists([[5.0, 20.0]], 1.0)
    with pytest.raises(TerrainError, match="model index 3"):
        nat.plan_push(bases, 3, (0.0, 0.0), 1.0)
    with pytest.raises(TerrainError, match="exactly one of goal and target"):
        nat.route(bases, 0, 5.0)
    with pytest.raises(TerrainError, match="mover or off the table"):
        nat.route(bases, 0, 5.0, target=0)
    with pytest.raises(ValueError, match="unknown destination kind"):
        nat.plan_destination(bases, 0, 5.0, "sideways", None, objectives=[])
    with pytest.raises(IndexError, match="objective index"):
        nat.plan_destination(bases, 0, 5.0, "toward_objective", 2, objectives=[(1.0, 1.0)])
    with pytest.raises(TerrainError, match="candidates"):
        native.nearest(bases, 0, [4])
    with pytest.raises(IndexError, match="no geometry registered"):
        nat.core.cover_for_shot(1.0, 1.0, 0.123, 2.0, 2.0, 0.5)
    with pytest.raises(ValueError, match="ring"):
        native.load().TableGeometry(
            36.0, 36.0, 0.02, 1.0, 0.5, 0.25, [([0.0, 0.0], [1])], [0], [False], [False], [False],
            ([], []), ([], []), ([], []),
        )  # fmt: skip


def test_sight_matrix_is_sight_for_every_ordered_pair(maps: list[tuple[str, Table]]) -> None:
    rng = np.random.default_rng(11)
    for _, table in maps[::4]:
        bases = _layout(table, rng, 8)
        bases.on_table[int(rng.integers(len(bases)))] = False
        visible, cover = native.native_table(table).sight_matrix(bases)
        for s in range(len(bases)):
            for t in range(len(bases)):
                expected = sight(table, bases, s, t)
                assert (bool(visible[s, t]), COVER_LEVELS[cover[s, t]]) == expected


def test_the_cores_python_hypot_is_math_hypot_to_the_last_bit() -> None:
    # math.hypot and math.dist (CPython's own algorithm) can differ in the last bit from the C
    # library's hypot; the core uses its compiled copy wherever the Python engine uses them.
    rng = np.random.default_rng(3)
    hypot = native.load().python_hypot
    values = np.concatenate(
        [
            rng.uniform(-40.0, 40.0, size=(20000, 2)),
            rng.normal(0.0, 1e-6, size=(2000, 2)),
            np.ldexp(
                rng.uniform(0.5, 1.0, size=(2000, 2)), rng.integers(-1074, 1000, size=(2000, 2))
            ),
        ]
    )
    differs_from_libm = 0
    for a, b in values.tolist():
        assert hypot(a, b) == math.hypot(a, b)
        differs_from_libm += float(np.hypot(a, b)) != math.hypot(a, b)
    for a, b in ((0.0, 0.0), (-0.0, 5e-324), (math.inf, math.nan), (3.0, -4.0), (1e308, 1e308)):
        assert hypot(a, b) == math.hypot(a, b)
    assert math.isnan(hypot(math.nan, 1.0))
    # The reason for the copy: the two disagree now and then.
    assert differs_from_libm > 0


def test_the_cores_hypot_comparisons_are_math_hypots() -> None:
    # The destination menus compare distances without the hypot unless they are near the
    # limit: right at, a bit off and far off the limit, and at the edges of the float range.
    rng = np.random.default_rng(5)
    core = native.load()
    cases = []
    for dx, dy in rng.uniform(-30.0, 30.0, size=(4000, 2)).tolist():
        exact = math.hypot(dx, dy)
        for limit in (
            exact,
            math.nextafter(exact, 0.0),
            math.nextafter(exact, math.inf),
            exact * (1 + 1e-9),
            exact * (1 - 1e-9),
            exact * 1.5,
            exact / 1.5,
        ):
            cases.append((dx, dy, limit))
    cases += [
        (0.0, 0.0, 0.0),
        (0.0, 0.0, -1.0),
        (1e-170, 1e-170, 1e-170),
        (1e-200, 0.0, 1e-300),
        (1e200, 1e200, 1e300),
        (math.inf, 0.0, 1.0),
        (math.nan, 1.0, 1.0),
        (1.0, 1.0, math.inf),
        (1.0, 1.0, math.nan),
        (3.0, 4.0, 5.0),
        (5e-324, 0.0, 5e-324),
    ]
    for dx, dy, limit in cases:
        assert core.python_hypot_above(dx, dy, limit) == (math.hypot(dx, dy) > limit)
        assert core.python_hypot_at_least(dx, dy, limit) == (math.hypot(dx, dy) >= limit)


def test_equivalence_benchmark_rounds_cover_every_map_and_stop_on_time(capsys, monkeypatch) -> None:
    import json

    module = load_benchmark("native_table_equivalence")
    # Two small maps stand for the benchmark's list (its rounds, not the maps, are under test).
    chosen = [pair for pair in equivalence_maps(0) if pair[0] in ("duel-1v1", "open-field")]
    monkeypatch.setattr(module, "equivalence_maps", lambda generated, seed: chosen)
    maps = len(chosen)
    # Two rounds of one query per map; --seconds 0 lets only the first round start.
    args = ["--queries", str(2 * maps), "--generated", "0", "--kinds", "sight", "--json"]
    full = module.main([*args, "--rounds", "2"])
    assert full["sight"]["queries"] == full["sight"]["agreed"] == 2 * maps
    first = module.main([*args, "--rounds", "2", "--seconds", "0"])
    assert first["sight"]["queries"] == first["sight"]["agreed"] == maps
    out, decoder, reports = capsys.readouterr().out, json.JSONDecoder(), []
    at = 0
    while out[at:].strip():
        report, at = decoder.raw_decode(out, at + len(out[at:]) - len(out[at:].lstrip()))
        reports.append(report)
    assert [(r["maps"], r["rounds"]) for r in reports] == [(maps, 2), (maps, 1)]


def test_contacts_and_nearest_agree_at_the_contact_limit() -> None:
    # The core decides contact from squared distances unless a pair is within a hair of the
    # limit: pairs placed exactly at, and a few ulps either side of, radius + radius + tol.
    from riven_env.table import measure

    rng = np.random.default_rng(11)
    for _ in range(300):
        radii = rng.choice([0.5, 0.625, 1.0, 1.5], size=6)
        tol = float(rng.choice([0.0, 0.02, 0.1, 1.0, 3.0]))
        # The mover at the origin: an offset along an axis is then exactly the distance.
        centres = [[0.0, 0.0]]
        for j in range(1, 6):
            reach = radii[0] + radii[j] + tol
            reach = float(reach + rng.choice([-2, -1, 0, 1, 2]) * math.ulp(reach))
            reach *= float(rng.choice([1.0, 1.0, 1.0 + 1e-10, 1.0 - 1e-10, 1.5]))
            angle = float(rng.choice([0.0, math.pi / 2, rng.uniform(0.0, 2.0 * math.pi)]))
            x, y = (
                (reach, 0.0)
                if angle == 0.0
                else (0.0, -reach)
                if angle == math.pi / 2
                else (reach * math.cos(angle), reach * math.sin(angle))
            )
            centres.append([x, y])
        bases = Bases(np.asarray(centres), radii, np.ones(6, dtype=bool))
        if rng.random() < 0.2:
            bases.remove(int(rng.integers(1, 6)))
        assert native.contacts(bases, 0, tol) == measure.contacts(bases, 0, tol)
        candidates = [int(j) for j in rng.permutation(6)[:4]]
        assert native.nearest(bases, 0, candidates) == measure.nearest(bases, 0, candidates)
