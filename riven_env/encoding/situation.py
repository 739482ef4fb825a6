"""The parts of an observation that depend on the situation only, cached by its content.

Most of an observation depends only on where the bases stand and on every model's status
(the *situation*): positions, gaps, engagement, the nearest enemies, cover and objective
control. Consecutive observations often share it (activations, spends and most actions move
nobody), and a search agent's copies of a game share it with their original, so the encoder
keeps these parts by the situation's content (:func:`situation_key`), never by the identity
of a state: an answer is reused only for the very same bytes of every base centre, radius and
presence, every status and the same observing side. What changes without moving anyone
(wounds, Strain, Conditions, activations, the turn) is written afresh on every call.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Situations (and status templates) one encoder remembers per scenario; the cache starts
# afresh when full, so memory stays bounded. Reuse is almost all between neighbouring
# observations: 8 entries miss only 5% more often than 512.
SITUATION_LIMIT = 64


@dataclass(frozen=True)
class Frame:
    """Where one side's observation puts each model, and its constant entries.

    Attributes:
        template: The flat float32 vector with every constant entry filled (presence, own,
            profiles and the constant objective columns); the rest 0.
        offsets: The flat index of each model's row.
        dynamic_index: ``(N, D)`` intp, the flat indices of the columns written from model
            fields on every call (see ``ObservationEncoder._dynamic_columns``).
        dynamic_divisors: ``(N, D)`` float32, what each of those fields is divided by.
        acting_index: ``(3 N,)`` intp, the flat indices of each model's acting columns.
        position_index: ``(5 N,)`` intp, the flat indices of each model's position columns
            (see ``ObservationEncoder._build_situation``).
    """

    template: np.ndarray
    offsets: tuple[int, ...]
    dynamic_index: np.ndarray
    dynamic_divisors: np.ndarray
    acting_index: np.ndarray
    position_index: np.ndarray


@dataclass
class Situation:
    """The situation-dependent part of one side's observation.

    Attributes:
        vector: The flat float32 vector with the constant and situation entries filled
            (not clipped); treat as read-only.
        rel: Each base centre ``[x, y]`` in the observer's frame.
        centre_gaps: ``N x N`` centre-to-centre distances (``np.hypot``), as lists.
        radii: Base radii.
        on_table: Whether each model stands on the table.
        active_own: The observer's active models.
        active_enemy: The other side's active models.
        by_acting: Acting model index -> ``vector`` with the acting model's columns filled
            (built on first use).
    """

    vector: np.ndarray
    rel: list[list[float]]
    centre_gaps: list[list[float]]
    radii: list[float]
    on_table: tuple[bool, ...]
    active_own: int
    active_enemy: int
    by_acting: dict[int, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class NearestEnemies:
    """Each model's nearest active enemy and the enemies in base contact with it.

    Attributes:
        enemy: Index of the nearest active enemy (the first of equals), -1 for none or for a
            model off the table.
        gap: The edge-to-edge gap to it (0 when touching or overlapping); the table's
            diagonal when there is none.
        engaged: Active enemies within the contact tolerance.
    """

    enemy: list[int]
    gap: list[float]
    engaged: list[int]


def nearest_enemies(
    centre_gaps: list[list[float]],
    radii: list[float],
    status: StatusArrays,
    diagonal: float,
    contact: float,
) -> NearestEnemies:
    """The :class:`NearestEnemies` of every model.

    The same float64 arithmetic as the vectorised ``hypot - r_i - r_j``, ``maximum(gap, 0)``
    and first-minimum ``argmin`` it replaces, so the results are bit-identical; plain
    Python beats a dozen numpy calls on ten-odd models.

    Args:
        centre_gaps: ``N x N`` centre distances.
        radii: Base radii.
        status: The models' status flags (with each model's active enemies).
        diagonal: The table's diagonal (the gap when there is no enemy).
        contact: The base-contact tolerance (inches).
    """
    n = len(radii)
    enemy = [-1] * n
    gap = [diagonal] * n
    engaged = [0] * n
    for i, candidates in enumerate(status.active_enemies):
        if not candidates:  # off the table, or no active enemy left
            continue
        row = centre_gaps[i]
        ri = radii[i]
        best = math.inf
        best_j = -1
        count = 0
        for j in candidates:
            raw = row[j] - ri - radii[j]
            if raw <= contact:
                count += 1
            # As np.maximum(raw, 0.0), which returns its second operand on ties.
            clamped = raw if raw > 0.0 else 0.0
            if clamped < best:  # the first of equals, as argmin
                best = clamped
                best_j = j
        engaged[i] = count
        enemy[i] = best_j
        gap[i] = best
    return NearestEnemies(enemy=enemy, gap=gap, engaged=engaged)


@dataclass(frozen=True)
class StatusArrays:
    """What follows from the models' statuses alone, for one observing side.

    Attributes:
        on_table: ``ModelState.on_table`` of each model.
        active: ``ModelState.is_active`` of each model.
        active_enemies: Per model on the table, its active enemies (ascending); empty for a
            model off the table.
        template: The side's flat vector of constants with the status one-hot columns
            filled; treat as read-only.
    """

    on_table: tuple[bool, ...]
    active: tuple[bool, ...]
    active_enemies: tuple[tuple[int, ...], ...]
    template: np.ndarray


def status_arrays(
    models: Sequence[Any], enemies_of: Sequence[Sequence[int]], template: np.ndarray
) -> StatusArrays:
    """The :class:`StatusArrays` of ``models`` with the given ``template``.

    Args:
        models: The models (their statuses).
        enemies_of: Per model, the indices of the other side's models (ascending).
        template: The side's template with the status columns filled.
    """
    on_table = tuple([m.on_table for m in models])
    active = tuple([m.is_active for m in models])
    return StatusArrays(
        on_table=on_table,
        active=active,
        active_enemies=tuple(
            tuple([j for j in enemies if active[j]]) if here else ()
            for here, enemies in zip(on_table, enemies_of, strict=True)
        ),
        template=template,
    )


def situation_key(layout: Any, models: Sequence[Any], side: str) -> tuple[Any, ...]:
    """Everything a :class:`Situation` depends on, by content (hashable).

    Args:
        layout: ``bases.layout()``; its key holds the raw bytes of every centre, radius and
            on-table flag.
        models: The models (their statuses).
        side: The observing side.
    """
    return (side, layout.key, tuple([m.status for m in models]))
