"""Per-scenario constants of the observation encoder, built once and reused every step.

Everything here depends on the scenario only (who is on which side, profiles, objectives,
the table size), never on the game position, so one :class:`ScenarioConstants` serves every
state of every game of a scenario. :class:`SightCache` remembers line-of-sight answers by
the exact base positions they were asked for, because most models stand still from one
observation to the next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from riven_env.encoding.layout import SIDES, Layout
from riven_env.table import sight

KEYWORD_FEATURES = ("leader", "hero")
ATTRIBUTE_FEATURES = ("might", "agility", "wit", "resolve")

# Profile features that never change during a game (columns filled once per scenario).
PROFILE_FEATURES = (
    *ATTRIBUTE_FEATURES,
    "mettle_quality",
    "move",
    "base",
    "melee_modifier",
    "has_ranged",
    "ranged_range",
    "ranged_modifier",
    *(f"keyword_{k}" for k in KEYWORD_FEATURES),
)

# Distinct scenarios (or tables) one encoder keeps constants for; an encoder normally sees
# one, so this only bounds memory when a caller feeds many.
CONSTANTS_LIMIT = 8
# Remembered line-of-sight answers per encoder; the cache starts afresh when full.
SIGHT_CACHE_LIMIT = 4096


@dataclass(frozen=True)
class ScenarioConstants:
    """Arrays of one scenario that every observation of it reuses (treat as read-only).

    Attributes:
        scenario: The scenario they were built for (kept to check identity).
        table: The table they were built for.
        width: Table width, inches.
        height: Table height, inches.
        diagonal: Table diagonal, inches.
        own: Side -> ``(N,)`` bool, True for that side's models.
        own_list: The same as Python bools.
        enemies_of: Per model, the indices of the other side's models.
        side_models: Side -> the indices of its models.
        slot_rows: Side -> ``(rows, models)``: the row of the side-relative ``models`` block
            each model fills (own slots first, then enemy slots) and the model indices.
        full_wounds: ``(N,)`` float32, each profile's wounds (at least 1).
        strain_max: ``(N,)`` float32, each model's Strain track length (at least 1).
        profiles: ``(N, len(PROFILE_FEATURES))`` float32 constant profile columns.
        objective_xy: ``(K', 2)`` float64 objective centres (absolute), K' = objectives
            encoded (the scenario's, at most the layout's slots).
        objective_radius: ``(K',)`` float64 objective radii.
        radius_list: The same as Python floats.
        objective_rows: Side -> ``(K, F_o)`` float32 rows with the constant columns filled
            (present, side-relative position, radius, kind, points).
    """

    scenario: Any
    table: Any
    width: float
    height: float
    diagonal: float
    own: Mapping[str, np.ndarray]
    own_list: Mapping[str, tuple[bool, ...]]
    enemies_of: tuple[tuple[int, ...], ...]
    side_models: Mapping[str, tuple[int, ...]]
    slot_rows: Mapping[str, tuple[np.ndarray, np.ndarray]]
    full_wounds: np.ndarray
    strain_max: np.ndarray
    profiles: np.ndarray
    objective_xy: np.ndarray
    objective_radius: np.ndarray
    radius_list: tuple[float, ...]
    objective_rows: Mapping[str, np.ndarray]


def build_constants(
    state: Any,
    layout: Layout,
    scales: Mapping[str, float],
    strain_per_wit: float,
    objective_features: Sequence[str],
) -> ScenarioConstants:
    """The constants of ``state``'s scenario and table.

    Args:
        state: Any game state of the scenario.
        layout: The encoder's slot layout.
        scales: The encoding scales (``encoding.toml`` ``[scales]``).
        strain_per_wit: Strain track length per point of Wit (rules data).
        objective_features: The encoder's objective column names.
    """
    table = state.table
    width, height = float(table.width), float(table.height)
    models = state.models
    sides = np.array([m.side for m in models])
    own = {side: sides == side for side in SIDES}
    slot_rows = {}
    s = layout.models_per_side
    for side in SIDES:
        mine = list(layout.side_models[side])
        theirs = list(layout.side_models["red" if side == "blue" else "blue"])
        rows = [*range(len(mine)), *range(s, s + len(theirs))]
        slot_rows[side] = (np.array(rows, dtype=np.intp), np.array(mine + theirs, dtype=np.intp))
    count = min(len(state.objectives), layout.objectives)
    objectives = state.objectives[:count]
    return ScenarioConstants(
        scenario=state.scenario,
        table=table,
        width=width,
        height=height,
        diagonal=float(np.hypot(width, height)),
        own=own,
        own_list={side: tuple(own[side].tolist()) for side in SIDES},
        side_models={side: tuple(np.flatnonzero(own[side]).tolist()) for side in SIDES},
        enemies_of=tuple(
            tuple(j for j, other in enumerate(models) if other.side != m.side) for m in models
        ),
        slot_rows=slot_rows,
        full_wounds=np.array([max(1, m.profile.wounds) for m in models], dtype=np.float32),
        strain_max=np.array(
            [max(1.0, m.profile.wit * strain_per_wit) for m in models], dtype=np.float32
        ),
        profiles=profile_columns(models, scales),
        objective_xy=np.array([(o.x, o.y) for o in objectives], dtype=np.float64).reshape(-1, 2),
        objective_radius=np.array([o.radius for o in objectives], dtype=np.float64),
        radius_list=tuple(float(o.radius) for o in objectives),
        objective_rows={
            side: _objective_rows(
                objectives, side, width, height, layout, scales, objective_features
            )
            for side in SIDES
        },
    )


def profile_columns(models: Sequence[Any], scales: Mapping[str, float]) -> np.ndarray:
    """The constant profile columns (:data:`PROFILE_FEATURES`) of every model, float32."""
    rows = []
    for model in models:
        p = model.profile
        melee_mod = p.melee.modifier if p.melee is not None else 0
        ranged = p.ranged
        rows.append(
            [
                *(getattr(p, a) / scales["attribute"] for a in ATTRIBUTE_FEATURES),
                # Lower Mettle thresholds activate more reliably: 1 at threshold 1, 0 at 7.
                (scales["mettle"] + 1 - p.mettle) / scales["mettle"],
                p.move / scales["move"],
                p.base_diameter / scales["base"],
                melee_mod / scales["weapon_modifier"],
                1.0 if ranged is not None else 0.0,
                (ranged.range / scales["weapon_range"]) if ranged is not None else 0.0,
                (ranged.modifier / scales["weapon_modifier"]) if ranged is not None else 0.0,
                *(1.0 if k in p.keywords else 0.0 for k in KEYWORD_FEATURES),
            ]
        )
    return np.asarray(rows, dtype=np.float32).reshape(len(models), len(PROFILE_FEATURES))


def _objective_rows(
    objectives: Sequence[Any],
    side: str,
    width: float,
    height: float,
    layout: Layout,
    scales: Mapping[str, float],
    names: Sequence[str],
) -> np.ndarray:
    """The ``objectives`` block with its position-independent columns filled for ``side``."""
    col = {name: k for k, name in enumerate(names)}
    out = np.zeros((layout.objectives, len(names)), dtype=np.float32)
    for k, obj in enumerate(objectives):
        # Red sees the table rotated half a turn (see ObservationEncoder).
        x, y = (width - obj.x, height - obj.y) if side == "red" else (obj.x, obj.y)
        row = out[k]
        row[col["present"]] = 1.0
        row[col["x"]] = x / width
        row[col["y"]] = y / height
        row[col["radius"]] = obj.radius / scales["move"]
        if f"kind_{obj.kind}" in col:
            row[col[f"kind_{obj.kind}"]] = 1.0
        row[col["points"]] = obj.points / scales["objective_points"]
    return out


class SightCache:
    """Line of sight and cover between two bases, remembered by their exact positions.

    :func:`riven_env.table.sight` depends on the table and on the two bases only (centres
    and radii; models never block sight), so an answer holds for as long as neither base
    moves. The cache is tied to one table (a different table empties it) and holds at most
    :data:`SIGHT_CACHE_LIMIT` answers (it empties when full, so memory stays bounded).
    """

    def __init__(self, limit: int = SIGHT_CACHE_LIMIT) -> None:
        self._limit = limit
        self._table: Any = None
        self._answers: dict[tuple[float, ...], tuple[bool, str]] = {}

    def __len__(self) -> int:
        return len(self._answers)

    def sight(
        self,
        table: Any,
        bases: Any,
        shooter: int,
        target: int,
        centres: list,
        radii: list,
    ) -> tuple[bool, str]:
        """``sight(table, bases, shooter, target)``, from the cache when the bases stood so before.

        Args:
            table: The table.
            bases: The bases.
            shooter: Model index of the shooter.
            target: Model index of the target.
            centres: ``bases.centers.tolist()`` (passed in: one conversion per observation).
            radii: ``bases.radii.tolist()``.
        """
        present = bases.on_table.tolist()
        return self.sights(table, bases, [(shooter, target)], centres, radii, present)[0]

    def sights(
        self,
        table: Any,
        bases: Any,
        pairs: Sequence[tuple[int, int]],
        centres: list,
        radii: list,
        present: list,
    ) -> list[tuple[bool, str]]:
        """:meth:`sight` for every ``(shooter, target)`` pair, in order.

        Args:
            table: The table.
            bases: The bases.
            pairs: ``(shooter, target)`` model indices.
            centres: ``bases.centers.tolist()``.
            radii: ``bases.radii.tolist()``.
            present: ``bases.on_table.tolist()``.
        """
        if table is not self._table:
            self._table = table
            self._answers = {}
        answers = self._answers
        found_all = []
        for shooter, target in pairs:
            # Off-table bases answer (False, "none") whatever their position, so the flags
            # are part of the key too.
            key = (
                *centres[shooter],
                radii[shooter],
                *centres[target],
                radii[target],
                present[shooter],
                present[target],
            )
            found = answers.get(key)
            if found is None:
                if len(answers) >= self._limit:
                    answers = self._answers = {}
                found = answers[key] = sight(table, bases, shooter, target)
            found_all.append(found)
        return found_all
