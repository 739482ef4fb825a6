"""How route ends join the static navigation graph, remembered per map and base size.

A route joins its start and its goal to the waypoints of a :class:`StaticNav`. Whether a
link is clear of terrain, and what it costs, depends only on the table, the base radius
and the two points, never on where other models stand. So the links are computed once per
end point and kept in the graph's least-recently-used cache (``[cache]
route_cache_entries``): a model queried again from the same spot, an objective point, a
charge target that has not moved, all skip their terrain tests.

* :class:`StartReach`: a start point's links to every waypoint (all checked at once, since
  every goal of a query needs them) and the cheapest static cost from the start to each
  waypoint (one min-plus product with the precomputed all-pairs costs).
* :class:`GoalLinks`: the links from every waypoint to a goal, checked lazily (a search
  checks only the links it might use, cheapest lower bound first). A contact goal ("base
  contact with a model centred at c") has its own end point per waypoint: the contact spot
  facing it.

Everything here ignores other models' bases; :mod:`riven_env.table.routing` adds them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

import numpy as np

from riven_env.table.config import geometry_config
from riven_env.table.lru import remembered
from riven_env.table.navigation import StaticNav, fan_link_costs, link_costs, link_costs_alone
from riven_env.table.table import Table

_Entry = TypeVar("_Entry", "StartReach", "GoalLinks")


class StartReach:
    """A start point's static links and its cheapest static costs to every waypoint.

    The links may be checked lazily (:func:`start_links`): a route search usually needs a
    few of them, cheapest lower bound first. Reading :attr:`reach` or :attr:`first`
    needs them all (:meth:`complete`); :func:`start_reach` returns complete entries.

    Attributes:
        point: The start, ``(2,)``.
        links: ``(V,)`` cost of the straight link start -> waypoint (``inf``: terrain blocks;
            ``nan``: not checked yet).
        bound: ``(V,)`` straight lengths (lower bounds of the links), or ``None`` once
            every link is checked.
        reach: ``(V,)`` cheapest static cost start -> waypoint (``inf``: unreachable).
        first: ``(V,)`` the first waypoint of that cheapest way.
    """

    __slots__ = ("_dist", "_first", "_reach", "bound", "links", "point")

    def __init__(self, nav: StaticNav, point: np.ndarray, links: np.ndarray | None = None) -> None:
        self.point = point
        self._dist = nav.dist
        self._first: np.ndarray | None = None
        self._reach: np.ndarray | None = None
        if links is None:
            self.links = np.full(len(nav.nodes), np.nan)
            # The same hypot link_costs starts from; a link costs at least its length.
            self.bound: np.ndarray | None = np.hypot(*(nav.nodes - point).T)
        else:
            self.links = links
            self.bound = None

    def settle(self, nav: StaticNav, table: Table, nodes: np.ndarray) -> None:
        """Check the links to ``nodes`` (waypoint indices); all of them if a batch could
        round them differently (:func:`~riven_env.table.navigation.link_costs_alone`)."""
        if self.bound is None or len(nodes) == 0:
            return
        found = link_costs_alone(
            nav, table, np.broadcast_to(self.point, (len(nodes), 2)), nav.nodes[nodes]
        )
        if found is None:
            self.complete(nav, table)
            return
        self.fill(nodes, found)

    def fill(self, nodes: np.ndarray, costs: np.ndarray) -> None:
        """Store the checked costs of the links to ``nodes``."""
        self.links[nodes] = costs
        if not np.isnan(self.links).any():
            self.bound = None

    def complete(self, nav: StaticNav, table: Table) -> StartReach:
        """Check every link not yet checked, all in one pass (as an eager entry would)."""
        if self.bound is not None:
            n = len(nav.nodes)
            every = link_costs(nav, table, np.broadcast_to(self.point, (n, 2)), nav.nodes)
            unknown = np.isnan(self.links)
            self.links[unknown] = every[unknown]
            self.bound = None
        return self

    @property
    def reach(self) -> np.ndarray:
        """Cheapest static costs from the start (the entry must be complete)."""
        if self._reach is None:
            self._relax()
        return self._reach  # type: ignore[return-value]

    @property
    def first(self) -> np.ndarray:
        """First waypoint of each cheapest way (the entry must be complete)."""
        if self._first is None:
            self._relax()
        return self._first  # type: ignore[return-value]

    def _relax(self) -> None:
        if self.bound is not None:
            raise ValueError("StartReach: check every link (complete) before reading reach")
        n = len(self.links)
        if n:
            via = self.links[:, None] + self._dist
            self._first = np.argmin(via, axis=0)
            self._reach = via[self._first, np.arange(n)]
        else:
            self._first = np.zeros(0, dtype=np.int64)
            self._reach = np.zeros(0)


class GoalLinks:
    """Static links from every waypoint to a goal, exact where checked.

    Attributes:
        points: ``(V, 2)`` the goal point reached from each waypoint (the same point for a
            point goal; the facing contact spot for a contact goal).
        usable: ``(V,)`` whether that end point is a legal base position as far as terrain
            and the table edge go (other bases are the caller's business).
        bound: ``(V,)`` straight lengths: lower bounds of the link costs.
        cost: ``(V,)`` exact link costs where checked, ``nan`` where not yet, ``inf`` where
            blocked or unusable.
    """

    __slots__ = ("bound", "cost", "points", "usable")

    def __init__(self, nav: StaticNav, points: np.ndarray, usable: np.ndarray) -> None:
        self.points = points
        self.usable = usable
        self.bound = np.where(usable, np.hypot(*(points - nav.nodes).T), np.inf)
        self.cost = np.where(usable, np.nan, np.inf)

    def settle(self, nav: StaticNav, table: Table, nodes: np.ndarray) -> None:
        """Check the links of ``nodes`` (waypoint indices) and store their exact costs."""
        if len(nodes):
            self.cost[nodes] = link_costs(nav, table, nav.nodes[nodes], self.points[nodes])


def _remember(nav: StaticNav, key: Hashable, build: Callable[[], _Entry]) -> _Entry:
    """The cached entry ``key`` of ``nav``'s end cache, built by ``build()`` when missing."""
    limit = geometry_config().route_cache_entries
    return remembered(nav.ends, key, build, limit)  # type: ignore[return-value]


def start_links(nav: StaticNav, point: np.ndarray) -> StartReach:
    """The (cached) :class:`StartReach` of a start point, its links perhaps not all checked."""
    x, y = float(point[0]), float(point[1])
    return _remember(nav, ("start", x, y), lambda: StartReach(nav, np.array((x, y))))


def start_reach(nav: StaticNav, table: Table, point: np.ndarray) -> StartReach:
    """The (cached) :class:`StartReach` of a start point, every link checked."""
    return start_links(nav, point).complete(nav, table)


def start_reaches(nav: StaticNav, table: Table, points: np.ndarray) -> list[StartReach]:
    """The (cached) :class:`StartReach` of each point; the missing ones built in one pass.

    Equal to ``[start_reach(nav, table, p) for p in points]`` (a start's links depend on
    nothing but the point), but the links of every uncached point are computed together
    (:func:`~riven_env.table.navigation.fan_link_costs`), which saves numpy's per-call
    overhead when a route adds a ring of waypoints around each blocking base.
    """
    cache: OrderedDict[Hashable, object] = nav.ends
    keys = [("start", x, y) for x, y in np.asarray(points, dtype=np.float64).tolist()]
    found: dict[Hashable, StartReach] = {}
    missing: list[Hashable] = []
    for key in keys:
        if key in found:
            continue
        entry = cache.get(key)
        if entry is None:
            if key not in missing:
                missing.append(key)
        else:
            cache.move_to_end(key)
            found[key] = entry.complete(nav, table)  # type: ignore[attr-defined]
    if missing:
        starts = np.array([key[1:] for key in missing], dtype=np.float64)  # type: ignore[index]
        links = fan_link_costs(nav, table, starts)
        limit = geometry_config().route_cache_entries
        for key, start, row in zip(missing, starts, links, strict=True):
            entry = StartReach(nav, start, row)
            found[key] = entry
            cache[key] = entry
        while len(cache) > limit:
            cache.popitem(last=False)
    return [found[key] for key in keys]


def links_from(nav: StaticNav, table: Table, points: np.ndarray, needed: np.ndarray) -> np.ndarray:
    """Static links from each point to the waypoints, exact wherever ``needed``.

    The links of each point are kept in its cached :class:`StartReach` (see
    :func:`start_links`); those needed and not yet checked are checked in one pass over
    every point (:func:`~riven_env.table.navigation.link_costs_alone`; should a batch
    round one differently, each such point has all its links checked in its own pass).

    Args:
        nav: The static graph.
        table: The table.
        points: ``(P, 2)`` link ends.
        needed: ``(P, V)`` which links the caller reads.

    Returns:
        ``(P, V)`` link costs (``inf``: terrain blocks; ``nan``: neither needed nor known).
    """
    entries = [start_links(nav, point) for point in points]
    if not entries:
        return np.zeros((0, len(nav.nodes)))
    rows = np.stack([entry.links for entry in entries])
    pairs, nodes = np.nonzero(np.isnan(rows) & needed)
    if len(pairs):
        found = link_costs_alone(nav, table, points[pairs], nav.nodes[nodes])
        # np.nonzero lists the pairs point by point: each point's run is one slice.
        ks, begins = np.unique(pairs, return_index=True)
        ends = [*begins[1:].tolist(), len(pairs)]
        for k, begin, end in zip(ks.tolist(), begins.tolist(), ends, strict=True):
            if found is None:  # a batch could round a link differently: one pass per point
                entries[k].complete(nav, table)
                continue
            entries[k].fill(nodes[begin:end], found[begin:end])
        rows = np.stack([entry.links for entry in entries])
    return rows


def point_goal(nav: StaticNav, point: np.ndarray) -> GoalLinks:
    """The (cached) :class:`GoalLinks` of a goal point."""
    x, y = float(point[0]), float(point[1])

    def build() -> GoalLinks:
        n = len(nav.nodes)
        return GoalLinks(nav, np.tile((x, y), (n, 1)), np.ones(n, dtype=bool))

    return _remember(nav, ("goal", x, y), build)


def contact_goal(nav: StaticNav, centre: np.ndarray, contact: float) -> GoalLinks:
    """The (cached) :class:`GoalLinks` of base contact with a model centred at ``centre``.

    Args:
        nav: The static graph of the mover's radius.
        centre: The target's base centre.
        contact: Centre-to-centre distance of the contact spots (both radii, a hair less
            than the contact tolerance apart).
    """
    cx, cy = float(centre[0]), float(centre[1])

    def build() -> GoalLinks:
        points, usable = contact_spots(np.array((cx, cy)), contact, nav.nodes)
        if usable.any():
            usable[usable] = nav.legal(points[usable])
        return GoalLinks(nav, points, usable)

    return _remember(nav, ("contact", cx, cy, float(contact)), build)


def contact_spots(
    centre: np.ndarray, contact: float, origins: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The contact spot facing each origin, and whether the origin is outside contact range.

    Returns:
        ``(spots, outside)``: ``(M, 2)`` points at ``contact`` from ``centre`` toward each
        origin, and ``(M,)`` whether the origin is farther than ``contact`` (else no spot).
    """
    offset = origins - centre
    length = np.hypot(*offset.T)
    outside = length > contact
    safe = np.where(outside, length, 1.0)
    return centre + offset * (contact / safe)[:, None], outside
