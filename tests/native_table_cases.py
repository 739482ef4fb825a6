"""Random query cases that hold the native tabletop to the Python reference.

Used by ``tests/test_native_table.py`` (a few thousand queries per kind) and by
``benchmarks/native_table_equivalence.py`` (100,000 and more). Each kind draws seeded random
queries on a map and asks both engines:

* ``sight``: :func:`riven_env.table.sight.line_of_sight` and ``sight_between`` (visible, cover);
* ``cover``: ``cover_for_shot`` (also for shots that are not visible);
* ``contact``: ``contacts``, ``engagements``, ``nearest``, ``models_within`` (from a model and
  from a point) and ``edge_distance``, on layouts with bases packed at and around the contact
  tolerance;
* ``flight``: ``plan_flight`` (straight), with bases and terrain in the runner's lane;
* ``recoil``: ``plan_push`` away from an attacker's centre or a random point;
* ``destinations``: ``destination_options`` (the game's move menu), on packed layouts with
  objectives under and near the model;
* ``route``: ``Navigator.route`` to a point (a legal one, as ``plan_move`` asks) or into base
  contact with a model: the whole polyline, its cost (the route length) and whether it gets
  there, with the allowance the detours around bases are planned for;
* ``plan_destination``: :func:`riven_env.table.destinations.plan_destination` of every option
  ``destination_options`` lists (planned paths, costs, labels), with and without an enemy gap;
* ``charge``: ``plan_charge`` into contact with each enemy and ``charge_targets``;
* ``flight_around``: ``plan_flight(around=True)`` (the House ``morale.flight_route = "around"``);
* ``candidates``: :func:`riven_env.table.destinations.candidate_destinations` (the full menu
  with planned paths and its distinctness filter).

The routing kinds draw layouts with bases packed in clusters (the detours and the graph with
bases as obstacles), beside the uniform ones.

The points are not only uniform: a share sits exactly on the outline vertices and edge
midpoints of the pieces and of their per-radius grown shapes, where touching and collinear
cases live. Discrete answers must be identical and lengths within :data:`LENGTH_TOL`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely

from riven_env.errors import TerrainError
from riven_env.native import table as native
from riven_env.scenario import load_scenario
from riven_env.scenario.generator import GENERATOR_KINDS, generate_scenario
from riven_env.scenario.loader import bundled_dir
from riven_env.table import (
    Bases,
    Table,
    candidate_destinations,
    charge_targets,
    contacts,
    cover_for_shot,
    destination_options,
    edge_distance,
    engagements,
    line_of_sight,
    models_within,
    nearest,
    plan_charge,
    plan_flight,
    plan_push,
    sight_between,
)
from riven_env.table.config import geometry_config
from riven_env.table.destinations import plan_destination
from riven_env.table.movement import MovePlan, _legal_goal
from riven_env.table.routing import Route, navigator

KINDS: tuple[str, ...] = (
    "sight",
    "cover",
    "contact",
    "flight",
    "recoil",
    "destinations",
    "route",
    "plan_destination",
    "charge",
    "flight_around",
    "candidates",
)
"""The query kinds the core answers (new kinds go last: a kind's stream is seeded by its index)."""

LENGTH_TOL = 1e-9
"""Largest difference allowed between the engines' lengths, costs and coordinates."""

DIAMETERS: tuple[float, ...] = (1.0, 1.0, 1.0, 1.26, 1.6, 2.0)
"""Base diameters drawn for the random layouts (1" is the common base)."""

_SPECIAL_SHARE = 0.4  # points drawn from outline vertices and edge midpoints


@dataclass
class Agreement:
    """How often the engines agreed on one kind of query.

    Attributes:
        kind: The query kind.
        queries: Queries asked.
        agreed: Queries whose every answer agreed.
        max_length_error: Largest length/coordinate difference seen.
        examples: Up to a few descriptions of disagreements.
    """

    kind: str
    queries: int = 0
    agreed: int = 0
    max_length_error: float = 0.0
    examples: list[str] = field(default_factory=list)

    def record(self, problem: str | None, length_error: float = 0.0) -> None:
        """Count one query; ``problem`` describes a disagreement (``None`` when they agree)."""
        self.queries += 1
        self.max_length_error = max(self.max_length_error, length_error)
        if problem is None:
            self.agreed += 1
        elif len(self.examples) < 5:
            self.examples.append(problem)

    def merge(self, other: Agreement) -> None:
        """Add another tally of the same kind."""
        self.queries += other.queries
        self.agreed += other.agreed
        self.max_length_error = max(self.max_length_error, other.max_length_error)
        self.examples.extend(other.examples[: max(0, 5 - len(self.examples))])


def equivalence_maps(generated: int = 50, seed: int = 0) -> list[tuple[str, Table]]:
    """Every bundled map and ``generated`` maps from the scenario generator (seeded).

    Returns:
        ``(name, table)`` pairs: bundled missions by name, then ``"<kind>-<seed>"``.
    """
    maps = []
    for path in sorted(Path(bundled_dir()).glob("*.toml")):
        if path.stem == "profiles":
            continue
        maps.append((path.stem, load_scenario(path).table))
    for k in range(generated):
        kind = GENERATOR_KINDS[k % len(GENERATOR_KINDS)]
        setting = "scifi" if (k // len(GENERATOR_KINDS)) % 2 else "fantasy"
        doc = generate_scenario(kind, seed + k, setting=setting)  # type: ignore[arg-type]
        maps.append((f"{kind}-{seed + k}", Table.from_spec(doc["table"])))
    return maps


class _Points:
    """Random points on a table: uniform, or exactly on outline vertices and edge midpoints."""

    def __init__(self, table: Table, rng: np.random.Generator) -> None:
        self.table = table
        self.rng = rng
        shapes = [p.polygon for p in table.pieces]
        for radius in {d / 2.0 for d in DIAMETERS}:
            geometry = table.for_radius(radius)
            shapes.extend(geometry.inside)
            shapes.extend(geometry.touching)
        coords = [shapely.get_coordinates(shape) for shape in shapes]
        vertices = np.concatenate(coords) if coords else np.zeros((0, 2))
        mids = [(c[:-1] + c[1:]) / 2.0 for c in coords if len(c) > 1]
        self.special = np.concatenate([vertices, *mids]) if len(vertices) else vertices

    def point(self) -> tuple[float, float]:
        rng = self.rng
        if len(self.special) and rng.random() < _SPECIAL_SHARE:
            x, y = self.special[int(rng.integers(len(self.special)))].tolist()
            return float(x), float(y)
        return float(rng.uniform(0.0, self.table.width)), float(rng.uniform(0.0, self.table.height))

    def radius(self) -> float:
        return DIAMETERS[int(self.rng.integers(len(DIAMETERS)))] / 2.0


def _layout(table: Table, rng: np.random.Generator, count: int = 10) -> Bases:
    """Random legal, non-overlapping bases of mixed sizes (fewer on a crowded map).

    Legal as the movement code reads it: the centre within the table's centre bounds and
    outside the impassable clearance of its radius (no navigation graph is needed).
    """
    centres: list[tuple[float, float]] = []
    radii: list[float] = []
    for _ in range(count * 20):
        if len(centres) == count:
            break
        r = DIAMETERS[int(rng.integers(len(DIAMETERS)))] / 2.0
        xmin, ymin, xmax, ymax = table.centre_bounds(r)
        x, y = float(rng.uniform(xmin, xmax)), float(rng.uniform(ymin, ymax))
        clearance = table.for_radius(r).clearance
        if clearance is not None and shapely.contains_xy(clearance, x, y):
            continue
        if any(
            math.hypot(x - cx, y - cy) < r + cr for (cx, cy), cr in zip(centres, radii, strict=True)
        ):
            continue
        centres.append((x, y))
        radii.append(r)
    if not centres:
        centres, radii = [(table.width / 2.0, table.height / 2.0)], [0.5]
    return Bases(np.array(centres), np.array(radii), np.ones(len(centres), dtype=bool))


def _verdict(
    mismatch: str | None, error: float, shown: Callable[[], str]
) -> tuple[str | None, float]:
    """A discrete ``mismatch`` first, else a length ``error`` past :data:`LENGTH_TOL` (with
    what differs, ``shown()``), else agreement; the error goes along either way."""
    if mismatch is not None:
        return mismatch, error
    if error > LENGTH_TOL:
        return f"lengths differ by {error:.3g} ({shown()})", error
    return None, error


def _plan_problem(a: MovePlan, b: MovePlan) -> tuple[str | None, float]:
    """A description of how two plans differ (``None`` when they agree) and the length error."""
    if len(a.path) != len(b.path):
        return f"path {a.path} vs {b.path}", math.inf
    error = max(
        abs(a.cost - b.cost),
        max(
            abs(p - q)
            for pa, pb in zip(a.path, b.path, strict=True)
            for p, q in zip(pa, pb, strict=True)
        ),
    )
    mismatch = (
        f"reached {a.reached} vs {b.reached} ({a} vs {b})" if a.reached != b.reached else None
    )
    return _verdict(mismatch, error, lambda: f"{a} vs {b}")


def _sight(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    a, b = pts.point(), pts.point()
    ar, br = pts.radius(), pts.radius()
    python = line_of_sight(table, a, b, a_radius=ar, b_radius=br)
    core = nat.line_of_sight(a, b, a_radius=ar, b_radius=br)
    both = sight_between(table, *a, ar, *b, br), nat.sight_between(*a, ar, *b, br)
    if python != core or both[0] != both[1]:
        tally.record(f"{a} r{ar} -> {b} r{br}: python {python} {both[0]}, native {core} {both[1]}")
    else:
        tally.record(None)


def _cover(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    s, t = pts.point(), pts.point()
    sr, tr = pts.radius(), pts.radius()
    python = cover_for_shot(table, s, sr, t, tr)
    core = nat.cover_for_shot(s, sr, t, tr)
    tally.record(
        None if python == core else f"{s} r{sr} -> {t} r{tr}: python {python}, native {core}"
    )


def _packed(rng: np.random.Generator, table: Table) -> Bases:
    """Bases packed around the contact tolerance: gaps of exactly 0, the tolerance, a hair
    either side of it, small overlaps and a few far apart."""
    tol = geometry_config().contact_tolerance
    count = int(rng.integers(2, 12))
    radii = np.array([DIAMETERS[int(k)] / 2.0 for k in rng.integers(len(DIAMETERS), size=count)])
    centres = np.empty((count, 2))
    centres[0] = rng.uniform(4.0, table.width - 4.0), rng.uniform(4.0, table.height - 4.0)
    gaps = (0.0, tol, tol * (1 + 1e-15), tol - 1e-17, tol + 1e-12, -0.01, 0.005, 0.5, 3.0)
    for k in range(1, count):
        anchor = int(rng.integers(k))
        gap = gaps[int(rng.integers(len(gaps)))] if rng.random() < 0.8 else rng.uniform(0, 2)
        angle = rng.uniform(0.0, 2.0 * math.pi)
        reach = radii[anchor] + radii[k] + gap
        centres[k] = centres[anchor] + reach * np.array([math.cos(angle), math.sin(angle)])
    on_table = rng.random(count) > 0.1
    return Bases(centres, radii, on_table)


def _contact(table: Table, _nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    bases = _packed(rng, table)
    n = len(bases)
    i, j = int(rng.integers(n)), int(rng.integers(n))
    tol = geometry_config().contact_tolerance if rng.random() < 0.7 else float(rng.uniform(0, 2))
    candidates = [int(k) for k in rng.integers(n, size=int(rng.integers(0, n + 1)))]
    r = float(rng.uniform(0.0, 3.0))
    point = tuple(bases.centers[int(rng.integers(n))] + rng.normal(0.0, 1.0, 2))
    answers = {
        "contacts": (contacts(bases, i, tol), native.contacts(bases, i, tol)),
        "engagements": (engagements(bases, tol), native.engagements(bases, tol)),
        "nearest": (nearest(bases, i, candidates), native.nearest(bases, i, candidates)),
        "within model": (models_within(bases, i, r), native.models_within(bases, i, r)),
        "within point": (models_within(bases, point, r), native.models_within(bases, point, r)),
    }
    wrong = [f"{name}: python {p}, native {c}" for name, (p, c) in answers.items() if p != c]
    python_gap, core_gap = edge_distance(bases, i, j), native.edge_distance(bases, i, j)
    error = 0.0 if python_gap == core_gap else abs(python_gap - core_gap)
    if error > LENGTH_TOL:
        wrong.append(f"edge_distance: python {python_gap}, native {core_gap}")
    tally.record("; ".join(wrong) or None, error)


def _crowded_lane(bases: Bases, rng: np.random.Generator, i: int, table: Table) -> None:
    """Sometimes put another base in model ``i``'s way to its nearest edge (or touching it)."""
    if len(bases) < 2 or rng.random() < 0.5:
        return
    x, y = bases.center(i)
    gaps = (x, y, table.width - x, table.height - y)
    step = [(-1, 0), (0, -1), (1, 0), (0, 1)][int(np.argmin(gaps))]
    j = (i + 1) % len(bases)
    ahead = bases.radii[i] + bases.radii[j] + float(rng.choice([0.0, 1e-13, 0.01, 0.5, 2.0]))
    side = float(rng.choice([0.0, 0.3, bases.radii[i] + bases.radii[j], 2.0]))
    bases.move_to(j, (x + step[0] * ahead - step[1] * side, y + step[1] * ahead + step[0] * side))


def _flight(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    bases = _layout(table, rng)
    i = int(rng.integers(len(bases)))
    _crowded_lane(bases, rng, i, table)
    distance = float(rng.uniform(1.0, 12.0))
    (pa, la), (pb, lb) = plan_flight(table, bases, i, distance), nat.plan_flight(bases, i, distance)
    problem, error = _plan_problem(pa, pb)
    if problem is None and la != lb:
        problem = f"left_table {la} vs {lb}"
    tally.record(problem, error)


def _recoil(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    bases = _layout(table, rng)
    i = int(rng.integers(len(bases)))
    if rng.random() < 0.5 and len(bases) > 1:
        j = (i + 1) % len(bases)
        away = bases.center(j)  # recoil from an attacker
    else:
        away = pts.point()
    distance = (
        float(rng.choice([0.0, 1.0, 2.0, 3.0])) if rng.random() < 0.3 else float(rng.uniform(0, 6))
    )
    problem, error = _plan_problem(
        plan_push(table, bases, i, away, distance), nat.plan_push(bases, i, away, distance)
    )
    tally.record(problem, error)


def _destinations(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    bases = _packed(rng, table) if rng.random() < 0.5 else _layout(table, rng)
    n = len(bases)
    i = int(rng.integers(n))
    sides = rng.random(n) < 0.5
    enemies = [int(j) for j in np.flatnonzero(sides != sides[i])]
    friends = [int(j) for j in np.flatnonzero(sides == sides[i])]
    min_move = geometry_config().min_move
    objectives = [pts.point() for _ in range(int(rng.integers(0, 4)))]
    if rng.random() < 0.5:  # one under or right beside the model, around min_move
        x, y = bases.center(i)
        step = float(
            rng.choice([0.0, min_move * (1 - 1e-16), min_move, min_move * (1 + 1e-15), 0.1])
        )
        objectives.append((x + step, y))
    python = destination_options(
        table, bases, i, enemies=enemies, friends=friends, objectives=objectives
    )
    core = nat.destination_options(
        bases, i, enemies=enemies, friends=friends, objectives=objectives
    )
    tally.record(None if python == core else f"model {i}: python {python}, native {core}")


def _crowd(table: Table, rng: np.random.Generator) -> Bases:
    """A routing layout: uniform bases, or clusters packed around the contact tolerance
    (with a few more scattered), or bases packed around one of them."""
    pick = rng.random()
    if pick < 0.4:
        return _layout(table, rng)
    bases = _packed(rng, table)
    if pick < 0.7:
        return bases
    extra = _layout(table, rng, int(rng.integers(2, 8)))
    return Bases(
        np.concatenate((bases.centers, extra.centers)),
        np.concatenate((bases.radii, extra.radii)),
        np.concatenate((bases.on_table, extra.on_table)),
    )


def _legal_bases(table: Table, bases: Bases) -> Bases:
    """``bases`` with every model whose centre the movement code would not accept taken off
    the table (off the centre bounds or in the clearance): a mover starts somewhere legal."""
    on = bases.on_table.copy()
    for k in range(len(bases)):
        r = float(bases.radii[k])
        xmin, ymin, xmax, ymax = table.centre_bounds(r)
        x, y = bases.centers[k].tolist()
        clearance = table.for_radius(r).clearance
        if not (xmin <= x <= xmax and ymin <= y <= ymax) or (
            clearance is not None and shapely.contains_xy(clearance, x, y)
        ):
            on[k] = False
    return Bases(bases.centers.copy(), bases.radii.copy(), on)


def _allowance(rng: np.random.Generator) -> float:
    return (
        float(rng.choice([0.0, 1.0, 3.0, 6.0, 12.0, 40.0]))
        if rng.random() < 0.3
        else float(rng.uniform(0.0, 14.0))
    )


def _route_problem(a: Route, b: Route, table: Table) -> tuple[str | None, float]:
    if len(a.points) != len(b.points):
        return f"points {a.points.tolist()} vs {b.points.tolist()}", math.inf
    error = max(abs(a.cost - b.cost), float(np.max(np.abs(a.points - b.points), initial=0.0)))
    ca, cb = a.segment_costs(table), b.segment_costs(table)
    if len(ca) == len(cb) and len(ca):
        error = max(error, float(np.max(np.abs(ca - cb))))
    mismatch = (
        f"goal_reached {a.goal_reached} vs {b.goal_reached}"
        if a.goal_reached != b.goal_reached
        else None
    )
    return _verdict(mismatch, error, lambda: f"{a.points.tolist()} vs {b.points.tolist()}")


def _route(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    bases = _legal_bases(table, _crowd(table, rng))
    live = np.flatnonzero(bases.on_table)
    if len(live) == 0:
        tally.record(None)
        return
    i = int(rng.choice(live))
    allowance = _allowance(rng)
    nav = navigator(table, bases, i)
    others = [int(j) for j in live if j != i]
    if others and rng.random() < 0.5:
        j = others[int(rng.integers(len(others)))]
        python = nav.route(allowance, target=j)
        core = nat.route(bases, i, allowance, target=j)
        what = f"model {i} to contact with {j}"
    else:
        aim = np.array(pts.point())
        legal = _legal_goal(nav, aim)
        goal = aim if legal is None else legal
        python = nav.route(allowance, goal=goal)
        core = nat.route(bases, i, allowance, goal=goal)
        what = f"model {i} to {goal.tolist()}"
    problem, error = _route_problem(python, core, table)
    tally.record(None if problem is None else f"{what}, allowance {allowance}: {problem}", error)


def _mover_in_crowd(
    table: Table, rng: np.random.Generator, least: int = 1
) -> tuple[Bases, int, np.ndarray] | None:
    """A legal crowd of bases, a mover on the table and a random side for every base.

    None when fewer than ``least`` bases are on the table (the query is then skipped).
    """
    bases = _legal_bases(table, _crowd(table, rng))
    live = np.flatnonzero(bases.on_table)
    if len(live) < least:
        return None
    i = int(rng.choice(live))
    return bases, i, rng.random(len(bases)) < 0.5


def _menu_sides(sides: np.ndarray, i: int, pts: _Points) -> tuple[list[int], list[int], list]:
    """The mover's enemies and friends by side, and 0-2 random objectives."""
    enemies = [int(j) for j in np.flatnonzero(sides != sides[i])]
    friends = [int(j) for j in np.flatnonzero(sides == sides[i])]
    return enemies, friends, [pts.point() for _ in range(int(pts.rng.integers(0, 3)))]


def _destination_problem(a: object, b: object) -> tuple[str | None, float]:
    if a is None or b is None:
        return (None if a is b else f"{a} vs {b}"), 0.0
    plan_a = MovePlan(a.path[0], a.point, a.path, a.cost, a.reached)  # type: ignore[attr-defined]
    plan_b = MovePlan(b.path[0], b.point, b.path, b.cost, b.reached)  # type: ignore[attr-defined]
    problem, error = _plan_problem(plan_a, plan_b)
    if problem is None and (a.kind, a.ref, a.label) != (b.kind, b.ref, b.label):  # type: ignore[attr-defined]
        problem = f"{a} vs {b}"
    return problem, error


def _plan_destination(
    table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement
) -> None:
    rng = pts.rng
    drawn = _mover_in_crowd(table, rng)
    if drawn is None:
        tally.record(None)
        return
    bases, i, sides = drawn
    enemies, friends, objectives = _menu_sides(sides, i, pts)
    options = destination_options(
        table, bases, i, enemies=enemies, friends=friends, objectives=objectives
    )
    # Every kind is asked too for the nearest enemy, so that "cover" and "away" run even on
    # maps where destination_options would not list them.
    live_enemies = [j for j in enemies if j != i and bases.on_table[j]]
    if live_enemies:
        foe = nearest(bases, i, live_enemies)
        for kind in ("cover_from_enemy", "away"):
            if (kind, foe) not in options:
                options.append((kind, foe))
    allowance = _allowance(rng) or 6.0
    gap = None if rng.random() < 0.6 else float(rng.choice([0.0, 0.5, 1.0]))
    wrong, worst = [], 0.0
    for kind, ref in options:
        python = plan_destination(
            table, bases, i, allowance, kind, ref, objectives=objectives, enemy_gap=gap
        )
        core = nat.plan_destination(
            bases, i, allowance, kind, ref, objectives=objectives, enemy_gap=gap
        )
        problem, error = _destination_problem(python, core)
        worst = max(worst, error)
        if problem is not None:
            wrong.append(f"{kind} {ref}: {problem}")
    tally.record(
        f"model {i}, allowance {allowance}, gap {gap}: " + "; ".join(wrong) if wrong else None,
        worst,
    )


def _charge(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    drawn = _mover_in_crowd(table, rng, least=2)
    if drawn is None:
        tally.record(None)
        return
    bases, i, sides = drawn
    enemies = [int(j) for j in np.flatnonzero(sides != sides[i])]
    reach = float(rng.uniform(1.0, 14.0))
    wrong, worst = [], 0.0
    for j in enemies:
        if not bases.on_table[j]:
            continue
        python, core = plan_charge(table, bases, i, j, reach), nat.plan_charge(bases, i, j, reach)
        if python is None or core is None:
            if python is not core:
                wrong.append(f"charge {j}: {python} vs {core}")
            continue
        problem, error = _plan_problem(python, core)
        worst = max(worst, error)
        if problem is not None:
            wrong.append(f"charge {j}: {problem}")
    python_targets = charge_targets(table, bases, i, reach, enemies)
    core_targets = nat.charge_targets(bases, i, reach, enemies)
    if python_targets != core_targets:
        wrong.append(f"targets {python_targets} vs {core_targets}")
    tally.record(f"model {i}, reach {reach}: " + "; ".join(wrong) if wrong else None, worst)


def _flight_around(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    bases = _legal_bases(table, _crowd(table, rng) if rng.random() < 0.5 else _layout(table, rng))
    live = np.flatnonzero(bases.on_table)
    if len(live) == 0:
        tally.record(None)
        return
    i = int(rng.choice(live))
    _crowded_lane(bases, rng, i, table)
    distance = float(rng.uniform(1.0, 12.0))
    pa, la = plan_flight(table, bases, i, distance, around=True)
    pb, lb = nat.plan_flight(bases, i, distance, around=True)
    problem, error = _plan_problem(pa, pb)
    if problem is None and la != lb:
        problem = f"left_table {la} vs {lb}"
    tally.record(None if problem is None else f"model {i}, {distance}: {problem}", error)


def _candidates(table: Table, nat: native.NativeTable, pts: _Points, tally: Agreement) -> None:
    rng = pts.rng
    drawn = _mover_in_crowd(table, rng)
    if drawn is None:
        tally.record(None)
        return
    bases, i, sides = drawn
    enemies, friends, objectives = _menu_sides(sides, i, pts)
    allowance = _allowance(rng) or 6.0
    gap = None if rng.random() < 0.6 else float(rng.choice([0.0, 0.5, 1.0]))
    menu = {"enemies": enemies, "friends": friends, "objectives": objectives, "enemy_gap": gap}
    python = candidate_destinations(table, bases, i, allowance, **menu)  # type: ignore[arg-type]
    core = nat.candidate_destinations(bases, i, allowance, **menu)  # type: ignore[arg-type]
    if len(python) != len(core):
        tally.record(f"model {i}, allowance {allowance}: {python} vs {core}", math.inf)
        return
    wrong, worst = [], 0.0
    for a, b in zip(python, core, strict=True):
        problem, error = _destination_problem(a, b)
        worst = max(worst, error)
        if problem is not None:
            wrong.append(problem)
    tally.record(f"model {i}, allowance {allowance}: " + "; ".join(wrong) if wrong else None, worst)


_QUERIES: dict[str, Callable[[Table, native.NativeTable, _Points, Agreement], None]] = {
    "sight": _sight,
    "cover": _cover,
    "contact": _contact,
    "flight": _flight,
    "recoil": _recoil,
    "destinations": _destinations,
    "route": _route,
    "plan_destination": _plan_destination,
    "charge": _charge,
    "flight_around": _flight_around,
    "candidates": _candidates,
}


def check_map(
    table: Table, seed: int, queries: int, kinds: Iterable[str] = KINDS
) -> dict[str, Agreement]:
    """Ask ``queries`` random queries of each kind on ``table`` of both engines.

    Raises:
        TerrainError: An unknown kind (the known ones are :data:`KINDS`).
    """
    nat = native.native_table(table)
    found = {}
    for kind in kinds:
        query = _QUERIES.get(kind)
        if query is None:
            raise TerrainError(f"check_map: unknown query kind {kind!r}; known: {list(KINDS)}")
        # One stream per map and kind: a kind's cases do not depend on which others ran.
        rng = np.random.default_rng([seed, KINDS.index(kind)])
        points = _Points(table, rng)
        tally = Agreement(kind)
        for _ in range(queries):
            query(table, nat, points, tally)
        found[kind] = tally
    return found
