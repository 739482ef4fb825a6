"""What the Enemy Oracle sees: lazily computed facts about one model, and the predicates,
target selectors and order keys of the vocabulary evaluated over them.

A :class:`Situation` is built for one model at one decision point and computes each fact at
most once (distances, charge and shot targets, cover, objective control), so that walking a
priority list costs little more than its most expensive condition. When the model is the
active model, facts are read from the legal decisions the game already computed. The
Situations of one decision point share a :class:`Board`: facts about other models
(distances, who is engaged, who holds an objective) are computed once for all of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from riven_env.game import Decision, GameState
from riven_env.game.actions import engaged_forbids, move_allowance, shot_targets
from riven_env.game.effects import limits
from riven_env.game.victory import controller
from riven_env.rules.profiles import ModelProfile
from riven_env.table import CONTACT_TOL, charge_targets, cover_rank, sight
from riven_env.table.layout import Layout
from riven_env.table.measure import layout_edge_distance

if TYPE_CHECKING:
    from riven_agents.oracle.profiles import Condition

LEADER_KEYWORD = "leader"

# The cheap bounds below measure in plain floats, while the exact queries they spare measure
# another way (contacts from numpy rows of gaps, objective distances with numpy's hypot),
# which may differ in the last bits. A bound keeps whatever lies within its limit plus this
# margin, far above rounding, so it never leaves out a model the exact query would keep.
_BOUND_MARGIN = 1e-6

_Value = TypeVar("_Value")


class _lazy(Generic[_Value]):  # noqa: N801 - used as a decorator, like functools' original
    """``functools.cached_property`` without its lock (Python 3.11 takes one per first read,
    and a Situation's facts are mostly read once)."""

    def __init__(self, compute: Callable[[Any], _Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __get__(self, owner: Any, cls: type | None = None) -> _Value:
        if owner is None:
            return self  # type: ignore[return-value]
        value = self.compute(owner)
        owner.__dict__[self.name] = value
        return value


class _Facts:
    """A board's answers about one situation, kept in the game's situation memo.

    Every answer depends only on what that memo is keyed by (where the bases stand, every
    model's status and Conditions), so the decision points and agents that meet the same
    situation share them, and a copy of the game still in that situation reads right ones.
    """

    __slots__ = ("controllers", "distances", "enemies", "engaged", "gaps")

    def __init__(self) -> None:
        self.distances: dict[tuple[int, int], float] = {}
        self.enemies: dict[str, list[int]] = {}
        self.engaged: dict[int, tuple[int, ...]] = {}
        self.controllers: dict[int, str | None] = {}
        self.gaps: dict[int, list[tuple[int, float]]] = {}


_FACTS_KEY = "oracle.board"


class Board:
    """Facts about the whole game at one decision point, shared by that point's Situations.

    Every answer is remembered in the game's situation memo (see :class:`_Facts`), so the
    state must not change while a board is in use: build a fresh one at every decision
    point (it then finds the answers already given in the same situation).

    Args:
        state: The game (not changed).

    Attributes:
        memo: The game's situation memo for this decision point.
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        memo = state.situation_memo()
        facts = memo.get(_FACTS_KEY)
        if facts is None:
            facts = memo[_FACTS_KEY] = _Facts()
        self.memo = memo
        self._distances = facts.distances
        self._enemies = facts.enemies
        self._engaged = facts.engaged
        self._controllers = facts.controllers
        self._gaps = facts.gaps

    def distance(self, i: int, j: int) -> float:
        """Edge-to-edge distance from model ``i`` to model ``j`` (as ``GameState.distance``)."""
        key = (i, j)
        found = self._distances.get(key)
        if found is None:
            found = self._distances[key] = self._measure(i, j)
        return found

    def _measure(self, i: int, j: int) -> float:
        # GameState.distance on the layout fetched once per decision point rather than once
        # per pair (the same function underneath, so the same float).
        return layout_edge_distance(self._layout, i, j)

    def enemies_of(self, i: int) -> list[int]:
        """Active enemies of model ``i`` (the list is shared: do not change it)."""
        side = self.state.models[i].side
        found = self._enemies.get(side)
        if found is None:
            found = self._enemies[side] = self.state.enemies_of(i)
        return found

    def enemy_gaps(self, i: int) -> list[tuple[int, float]]:
        """``(enemy, distance)`` for every active enemy of model ``i``, in index order.

        Measured in one pass on the layout (as :meth:`distance`, the same floats), and
        remembered: every contact, range and reach bound of a model reads them.
        """
        found = self._gaps.get(i)
        if found is None:
            distances = self._distances
            layout = self._layout
            on_table, radii = layout.on_table, layout.radii
            xi, yi = layout.centers[i]
            ri = radii[i]
            found = []
            for j in self.enemies_of(i):
                gap = distances.get((i, j))
                if gap is None:  # as _measure, inline: the hottest loop of an activation
                    if on_table[i] and on_table[j]:
                        xj, yj = layout.centers[j]
                        gap = max(0.0, math.hypot(xi - xj, yi - yj) - ri - radii[j])
                    else:
                        gap = math.inf
                    distances[i, j] = gap
                found.append((j, gap))
            self._gaps[i] = found
        return found

    def enemies_within(self, i: int, limit: float) -> list[int]:
        """The active enemies of model ``i`` that may stand within ``limit`` of it.

        Every enemy within ``limit`` is kept, and those beyond it by more than a margin
        far above rounding are left out: the bound stands for contact too, which the game
        decides from distances measured another way (numpy).
        """
        limit += _BOUND_MARGIN
        return [j for j, gap in self.enemy_gaps(i) if gap <= limit]

    @_lazy
    def _layout(self) -> Layout:
        return self.state.bases.layout()

    def engaged_enemies(self, i: int) -> tuple[int, ...]:
        """Active enemies in base contact with model ``i`` (as ``GameState.engaged_enemies``)."""
        engaged = self._engaged
        found = engaged.get(i)
        if found is None:
            # The game finds contacts from a numpy row of gaps, costly to build for one
            # model; most models have no enemy near, which the bound shows.
            found = ()
            limit = CONTACT_TOL + _BOUND_MARGIN
            for _, gap in self.enemy_gaps(i):
                if gap <= limit:
                    found = tuple(self.state.engaged_enemies(i))
                    break
            engaged[i] = found
        return found

    def may_reach_point(self, i: int, point: tuple[float, float], limit: float) -> bool:
        """Whether model ``i``'s base may come within ``limit`` of ``point``.

        A bound from the centre, with a margin: False means that it surely does not,
        however exactly the distance is measured.
        """
        layout = self._layout
        if not layout.on_table[i]:
            return False
        x, y = layout.centers[i]
        return math.hypot(x - point[0], y - point[1]) - layout.radii[i] <= limit + _BOUND_MARGIN

    def may_control(self, side: str, k: int) -> bool:
        """Whether ``side`` may control objective ``k``: one of its active models may be on it.

        A side controls an objective only with models within its radius
        (``victory.controller``), so False means that it surely does not.
        """
        obj = self.state.objectives[k]
        point = (obj.x, obj.y)
        return any(
            self.may_reach_point(j, point, obj.radius) for j in self.state.active_models(side)
        )

    def controller(self, k: int) -> str | None:
        """The side controlling objective ``k`` (as ``victory.controller``)."""
        if k not in self._controllers:
            self._controllers[k] = controller(self.state, k)
        return self._controllers[k]


class Situation:
    """Facts about model ``i`` of ``state`` at the current decision point.

    Args:
        state: The game (not changed).
        i: The model the facts are about.
        legal: The legal decisions when ``i`` is the active model (action phase), else None.
        board: The decision point's shared facts (a fresh one when None).
    """

    def __init__(
        self,
        state: GameState,
        i: int,
        legal: Sequence[Decision] | None = None,
        board: Board | None = None,
    ) -> None:
        self.state = state
        self.i = i
        self.model = state.models[i]
        self.legal = legal
        self.board = board if board is not None else Board(state)
        self._objective_distances: dict[int, float] = {}

    # ------------------------------------------------------------------ models around
    @_lazy
    def enemies(self) -> list[int]:
        return self.board.enemies_of(self.i)

    @_lazy
    def friends(self) -> list[int]:
        """Friends still on the table (active or Down)."""
        return self.state.friends_of(self.i)

    @_lazy
    def active_friends(self) -> list[int]:
        return [j for j in self.friends if self.state.models[j].is_active]

    @_lazy
    def engaged(self) -> tuple[int, ...]:
        return self.board.engaged_enemies(self.i)

    def distance(self, j: int) -> float:
        """Edge-to-edge distance to model ``j``."""
        return self.board.distance(self.i, j)

    @_lazy
    def _distances(self) -> dict[int, float]:
        """Distances to the enemies."""
        return dict(self.board.enemy_gaps(self.i))

    @_lazy
    def nearest_enemy_distance(self) -> float:
        return min(self._distances.values(), default=float("inf"))

    @_lazy
    def nearest_enemy(self) -> int | None:
        if not self.enemies:
            return None
        return min(self.enemies, key=lambda j: (self._distances[j], j))

    # ------------------------------------------------------------------ what it can do
    @_lazy
    def legal_kinds(self) -> frozenset[str]:
        """Kinds of the legal decisions (empty when ``i`` is not the active model)."""
        return frozenset({d.kind for d in self.legal or ()})

    def _legal_targets(self, kind: str) -> list[int]:
        if kind not in self.legal_kinds:
            return []
        return [d.target for d in self.legal or () if d.kind == kind and d.target is not None]

    @_lazy
    def charge_targets(self) -> list[int]:
        """Enemies it may charge now (from the legal decisions when it is active)."""
        if self.legal is not None:
            return self._legal_targets("charge")
        if "charge" in self._forbids:
            return []
        reach = move_allowance(self.state, self.i) * self.state.rules.get(
            "distances.charge_reach_factor"
        )
        if reach <= 0:
            return []
        # A charge moves into contact: enemies already in contact are fought, not charged.
        near = [
            j for j, gap in self.board.enemy_gaps(self.i) if gap <= reach and j not in self.engaged
        ]
        if not near:
            return []
        return charge_targets(self.state.table, self.state.bases, self.i, reach, near)

    @_lazy
    def shots(self) -> dict[int, str]:
        """Enemies it may shoot now -> the cover each would have."""
        if self.legal is not None:
            if "shoot" not in self.legal_kinds:
                return {}
        elif "shoot" in self._forbids or not self._may_have_shots():
            return {}
        return dict(shot_targets(self.state, self.i, self.board.memo))

    def _may_have_shots(self) -> bool:
        # The game's list of shots checks contacts and lines of sight (costly); a model with
        # no weapon or with no enemy within its weapon's range has none.
        weapon = self.profile.ranged
        if weapon is None:
            return False
        return bool(self.board.enemies_within(self.i, weapon.range))

    @_lazy
    def _forbids(self) -> frozenset[str]:
        """Actions its Conditions forbid, and those its engagement forbids (as the game's list)."""
        forbids = limits(self.state, self.i).forbids
        if self.engaged:
            forbids = forbids | engaged_forbids(self.state.rules)
        return forbids

    @_lazy
    def can_attack(self) -> bool:
        return bool(self.engaged or self.shots or self.charge_targets)

    # ------------------------------------------------------------------ itself
    @property
    def profile(self) -> ModelProfile:
        return self.model.profile

    @_lazy
    def strain_max(self) -> int:
        return self.profile.strain_max(self.state.rules)

    @_lazy
    def in_cover(self) -> bool:
        """Whether the nearest enemy would see it in cover (or not see it at all)."""
        foe = self.nearest_enemy
        if foe is None:
            return True
        visible, cover = sight(self.state.table, self.state.bases, foe, self.i)
        return (not visible) or cover_rank(cover) > 0

    @_lazy
    def is_leader(self) -> bool:
        return LEADER_KEYWORD in self.profile.keywords

    # ------------------------------------------------------------------ objectives
    @_lazy
    def open_objectives(self) -> list[int]:
        """Objectives still in play (a looted objective is gone)."""
        return [k for k in range(len(self.state.objectives)) if k not in self.state.looted]

    @_lazy
    def objectives_not_held(self) -> list[int]:
        side = self.model.side
        out = []
        for k in self.open_objectives:
            obj = self.state.objectives[k]
            if (
                obj.kind == "hold"
                and self.board.may_control(side, k)
                and self.board.controller(k) == side
            ):
                continue
            out.append(k)
        return out

    def objective_distance(self, k: int) -> float:
        found = self._objective_distances.get(k)
        if found is None:
            obj = self.state.objectives[k]
            found = self._objective_distances[k] = self.state.distance_to_point(
                self.i, (obj.x, obj.y)
            )
        return found

    @_lazy
    def on_objective(self) -> bool:
        return any(
            self.within_objective(k, self.state.objectives[k].radius) for k in self.open_objectives
        )

    def within_objective(self, k: int, limit: float) -> bool:
        """Whether its base comes within ``limit`` of objective ``k``."""
        # The bound spares the exact distance when the objective is surely farther.
        obj = self.state.objectives[k]
        return self.board.may_reach_point(self.i, (obj.x, obj.y), limit) and (
            self.objective_distance(k) <= limit
        )

    @_lazy
    def nearest_objective_distance(self) -> float:
        return min((self.objective_distance(k) for k in self.open_objectives), default=float("inf"))


# ----------------------------------------------------------------------------- predicates
def _friend_engaged_within(s: Situation, radius: float) -> bool:
    board = s.board
    return any(s.distance(j) <= radius and board.engaged_enemies(j) for j in s.active_friends)


def _outnumbering(s: Situation) -> bool:
    side = s.model.side
    for j in s.engaged:
        helpers = [k for k in s.board.engaged_enemies(j) if s.state.models[k].side == side]
        if len(helpers) > 1:
            return True
    return False


def _leader_alive(s: Situation) -> bool:
    side = s.model.side
    return any(
        LEADER_KEYWORD in s.state.models[j].profile.keywords for j in s.state.active_models(side)
    )


def _legal_kind(s: Situation, kind: str) -> bool:
    return s.legal is not None and kind in s.legal_kinds


def _friend_down_nearby(s: Situation) -> bool:
    if s.legal is not None:
        return _legal_kind(s, "stabilise")
    reach = s.state.rules.get("distances.stabilise_range")
    return any(
        s.state.models[j].is_down and not s.state.models[j].stable and s.distance(j) <= reach
        for j in s.friends
    )


def _friend_needs_rally(s: Situation) -> bool:
    if s.legal is not None:
        return _legal_kind(s, "rally")
    from riven_env.rules.actions import action_spec

    removes = action_spec("rally", s.state.rules).removes
    reach = s.state.rules.get("distances.rally_range")
    return bool(removes.intersection(s.model.conditions)) or any(
        removes.intersection(s.state.models[j].conditions) and s.distance(j) <= reach
        for j in s.active_friends
    )


def _strain_high(s: Situation) -> bool:
    return s.model.strain + s.state.rules.get("strain.spend_cost") > s.strain_max


def _objective_within_move(s: Situation) -> bool:
    allowance = move_allowance(s.state, s.i)
    return any(
        s.within_objective(k, allowance + s.state.objectives[k].radius)
        for k in s.objectives_not_held
    )


def _side_outnumbered(s: Situation) -> bool:
    side = s.model.side
    return len(s.state.active_models(side)) < len(s.enemies)


def _actions_left(s: Situation) -> int:
    return s.state.actions_left if s.state.active_model == s.i else 0


def _first_action(s: Situation) -> bool:
    return s.state.active_model != s.i or not s.state.taken_actions


def _took(s: Situation, action: str) -> bool:
    return s.state.active_model == s.i and action in s.state.taken_actions


PREDICATES: dict[str, Callable[[Situation, object], bool]] = {
    "always": lambda s, a: True,
    "engaged": lambda s, a: bool(s.engaged),
    "outnumbered": lambda s, a: len(s.engaged) > 1,
    "outnumbering": lambda s, a: _outnumbering(s),
    "wounded": lambda s, a: s.model.wounds < s.profile.wounds,
    "badly_wounded": lambda s, a: 2 * s.model.wounds <= s.profile.wounds,
    "enemy_in_charge_reach": lambda s, a: bool(s.charge_targets),
    "enemy_in_shot": lambda s, a: bool(s.shots),
    "enemy_in_shot_without_cover": lambda s, a: any(c == "none" for c in s.shots.values()),
    "friend_down_nearby": lambda s, a: _friend_down_nearby(s),
    "friend_needs_rally": lambda s, a: _friend_needs_rally(s),
    "has_condition": lambda s, a: a in s.model.conditions,
    "strain_high": lambda s, a: _strain_high(s),
    "strained": lambda s, a: s.model.strain > 0,
    "in_cover": lambda s, a: s.in_cover,
    "objective_uncontrolled": lambda s, a: bool(s.objectives_not_held),
    "objective_within_move": lambda s, a: _objective_within_move(s),
    "on_objective": lambda s, a: s.on_objective,
    "can_interact": lambda s, a: _legal_kind(s, "interact"),
    "leader_alive": lambda s, a: _leader_alive(s),
    "is_leader": lambda s, a: s.is_leader,
    "enemies_closer_than": lambda s, a: s.nearest_enemy_distance < float(a),
    "no_friend_within": lambda s, a: all(s.distance(j) > float(a) for j in s.active_friends),
    "friend_engaged_within": lambda s, a: _friend_engaged_within(s, float(a)),
    "side_outnumbered": lambda s, a: _side_outnumbered(s),
    "momentum_at_least": lambda s, a: s.state.momentum_of(s.model.side) >= float(a),
    "has_ranged": lambda s, a: s.profile.ranged is not None,
    "actions_left_at_least": lambda s, a: _actions_left(s) >= float(a),
    "first_action": lambda s, a: _first_action(s),
    "took": lambda s, a: _took(s, str(a)),
    "mettle_at_least": lambda s, a: s.profile.mettle >= float(a),
}
"""The implementation of every condition of :data:`riven_agents.oracle.vocabulary.CONDITIONS`."""


def holds(situation: Situation, condition: Condition) -> bool:
    """Whether one (possibly negated) condition holds."""
    value = PREDICATES[condition.name](situation, condition.arg)
    return value != condition.negated


def all_hold(situation: Situation, conditions: Sequence[Condition]) -> bool:
    """Whether every condition holds (an empty list always holds)."""
    return all(holds(situation, c) for c in conditions)


# ----------------------------------------------------------------------------- selectors
def _danger(state: GameState, j: int) -> tuple[int, int]:
    p = state.models[j].profile
    return (max(p.might, p.agility if p.ranged is not None else 0), state.models[j].wounds)


def _closest_to_friend(s: Situation, j: int) -> float:
    board = s.board
    return min((board.distance(j, f) for f in s.active_friends), default=float("inf"))


SELECTOR_KEYS: dict[str, Callable[[Situation, int], tuple]] = {
    "nearest": lambda s, j: (),
    "farthest": lambda s, j: (-s.distance(j),),
    "weakest": lambda s, j: (s.state.models[j].wounds,),
    "strongest": lambda s, j: (-s.state.models[j].wounds,),
    # Worst cover first; a candidate it cannot shoot counts as in the open.
    "out_of_cover": lambda s, j: (cover_rank(s.shots.get(j, "none")),),
    "leader": lambda s, j: (LEADER_KEYWORD not in s.state.models[j].profile.keywords,),
    "most_dangerous": lambda s, j: tuple(-v for v in _danger(s.state, j)),
    "easiest": lambda s, j: (s.state.models[j].profile.might,),
    "threatening": lambda s, j: (_closest_to_friend(s, j),),
}
"""Sort keys of the target selectors (smaller is preferred)."""


def select(situation: Situation, selector: str, candidates: Sequence[int]) -> int | None:
    """Pick one of ``candidates`` by ``selector``; ties go to the nearest, then the lowest index."""
    if not candidates:
        return None
    key = SELECTOR_KEYS[selector]
    return min(candidates, key=lambda j: (*key(situation, j), situation.distance(j), j))


# ----------------------------------------------------------------------------- order keys
ORDER_FUNCTIONS: dict[str, Callable[[Situation], float]] = {
    "engaged": lambda s: 0 if s.engaged else 1,
    "can_attack": lambda s: 0 if s.can_attack else 1,
    "most_reliable": lambda s: s.profile.mettle,
    "least_reliable": lambda s: -s.profile.mettle,
    "nearest_enemy": lambda s: s.nearest_enemy_distance,
    "farthest_enemy": lambda s: -s.nearest_enemy_distance,
    "wounded_first": lambda s: 0 if s.model.wounds < s.profile.wounds else 1,
    "wounded_last": lambda s: 1 if s.model.wounds < s.profile.wounds else 0,
    "ranged_first": lambda s: 0 if s.profile.ranged is not None else 1,
    "melee_first": lambda s: 1 if s.profile.ranged is not None else 0,
    "leader_first": lambda s: 0 if s.is_leader else 1,
    "leader_last": lambda s: 1 if s.is_leader else 0,
    "on_objective_first": lambda s: 0 if s.on_objective else 1,
    "nearest_objective": lambda s: s.nearest_objective_distance,
}
"""Sort keys of the activation order keys (smaller activates first)."""


# Order keys that cost a search (every shot and charge path) and take only the values 0 and
# 1, 0 being best: first_in_order checks them one candidate at a time and stops at a 0.
_COSTLY_BINARY_KEYS = frozenset({"can_attack"})


def first_in_order(
    situations: Mapping[int, Situation], order: Sequence[str], candidates: Sequence[int]
) -> int:
    """The candidate that activates first: smallest by the ``order`` keys, then by index.

    The same choice as ``min(candidates, key=lambda i: (*(key(i) for key in order), i))``,
    with less work: each key is computed only for the candidates still tied on the keys
    before it (none once one candidate is left), and a costly 0/1 key followed by cheap
    keys only is computed in the order of those cheap keys until a candidate scores 0
    (that candidate is then first; when none does, the first in that order is).

    Args:
        situations: Model index -> its :class:`Situation`, for every candidate.
        order: Order key names (:data:`ORDER_FUNCTIONS`), applied left to right.
        candidates: Model indices (not empty).
    """
    tied = sorted(candidates)
    for position, name in enumerate(order):
        if len(tied) == 1:
            break
        key = ORDER_FUNCTIONS[name]
        rest = order[position + 1 :]
        if name in _COSTLY_BINARY_KEYS and _COSTLY_BINARY_KEYS.isdisjoint(rest):
            first = None
            for i in _in_order(situations, rest, tied):
                if key(situations[i]) == 0:
                    return i
                first = i if first is None else first
            return first  # type: ignore[return-value] # tied is not empty
        values = [key(situations[i]) for i in tied]
        best = min(values)
        tied = [i for i, value in zip(tied, values, strict=True) if value == best]
    return tied[0]


def _in_order(
    situations: Mapping[int, Situation], keys: Sequence[str], candidates: list[int]
) -> Iterator[int]:
    """``candidates`` sorted by the ``keys``, then by index, computed as the caller reads.

    Each key is computed only for the candidates tied on the keys before it, and only when
    the caller reads that far: a caller that stops at the first candidate computes the
    later keys for its tie group alone.
    """
    if not keys or len(candidates) == 1:
        yield from sorted(candidates)
        return
    key = ORDER_FUNCTIONS[keys[0]]
    groups: dict[float, list[int]] = {}
    for i in candidates:
        groups.setdefault(key(situations[i]), []).append(i)
    for value in sorted(groups):
        yield from _in_order(situations, keys[1:], groups[value])


__all__ = [
    "ORDER_FUNCTIONS",
    "PREDICATES",
    "SELECTOR_KEYS",
    "Board",
    "Situation",
    "all_hold",
    "first_in_order",
    "holds",
    "select",
]
