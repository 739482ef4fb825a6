"""A snapshot of where the bases stand, with the queries already answered for it.

During one decision the game, the agents and the encoder ask the same questions about
the same base layout many times (who touches whom, can this model charge that one). A
:class:`Layout` remembers the answers for one exact layout; :meth:`Bases.layout
<riven_env.table.bases.Bases.layout>` hands out the current one and starts a fresh one as
soon as any centre, radius or on-table flag differs (it compares the raw bytes, so a
layout is never stale, however the arrays were changed).

A layout holds only answers that are pure functions of the layout (and, for the table
queries, of the immutable :class:`~riven_env.table.table.Table`), so copies of a
:class:`~riven_env.table.bases.Bases` share it safely. Its memo of table queries is
bounded (``[cache] layout_query_entries`` of ``geometry.toml``) and dies with the layout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import TypeVar

import numpy as np

from riven_env.table.config import geometry_config

_Answer = TypeVar("_Answer")

HYPOT_BAND = 1e-9
"""How close to a contact threshold a plain-float gap must be to need numpy's exact one.

``math.hypot`` and numpy's ``hypot`` can differ in the last bit, far below this band; the
gaps rows (numpy) stay the reference, so a gap this close to the threshold is read there.
"""


class Layout:
    """One exact base layout and the answers already computed for it.

    Attributes:
        key: The raw bytes of the centres, radii and on-table flags it stands for.
        centers: Base centres as ``[x, y]`` lists of floats (scalar maths beats numpy here).
        radii: Base radii as floats.
        on_table: On-table flags as bools.
    """

    __slots__ = ("_answers", "_contacts", "_rows", "centers", "key", "on_table", "radii")

    def __init__(
        self, key: bytes, centers: np.ndarray, radii: np.ndarray, on_table: np.ndarray
    ) -> None:
        self.key = key
        self.centers: list[list[float]] = centers.tolist()
        self.radii: list[float] = radii.tolist()
        self.on_table: list[bool] = on_table.tolist()
        self._rows: dict[int, np.ndarray] = {}
        self._contacts: dict[tuple[int, float], tuple[int, ...]] = {}
        self._answers: dict[Hashable, tuple[object, object]] = {}

    def gaps_from(self, i: int, compute: Callable[[], np.ndarray]) -> np.ndarray:
        """Model ``i``'s edge gaps to every model (read-only), computed once by ``compute``."""
        row = self._rows.get(i)
        if row is None:
            row = compute()
            row.flags.writeable = False
            self._rows[i] = row
        return row

    def contacts(self, i: int, tol: float, row: Callable[[], np.ndarray]) -> tuple[int, ...]:
        """Models whose edge gap to ``i`` is at most ``tol`` (the gaps ``row()`` decide ties)."""
        key = (i, tol)
        found = self._contacts.get(key)
        if found is None:
            found = self._contacts[key] = self._touching(i, tol, row)
        return found

    def _touching(self, i: int, tol: float, row: Callable[[], np.ndarray]) -> tuple[int, ...]:
        # Plain floats beat a numpy row on a handful of bases; only a gap within the band
        # of the threshold is read from the exact row, so the answer is the row's.
        on_table = self.on_table
        if not on_table[i]:
            return ()
        radii = self.radii
        xi, yi = self.centers[i]
        ri = radii[i]
        found = []
        for j, (xj, yj) in enumerate(self.centers):
            if j == i or not on_table[j]:
                continue
            gap = max(math.hypot(xj - xi, yj - yi) - radii[j] - ri, 0.0)
            if gap <= tol - HYPOT_BAND or (gap <= tol + HYPOT_BAND and row()[j] <= tol):
                found.append(j)
        return tuple(found)

    def answer(self, owner: object, key: Hashable, compute: Callable[[], _Answer]) -> _Answer:
        """The remembered answer to query ``key`` about ``owner`` (a table), or ``compute()``.

        ``owner`` is compared by identity (tables are immutable but costly to hash), and
        held so that its id cannot be reused while the answer lives. Answers must be
        immutable (they are shared by every copy of the bases).
        """
        full = (id(owner), key)
        entry = self._answers.get(full)
        if entry is not None and entry[0] is owner:
            return entry[1]  # type: ignore[return-value]
        value = compute()
        if len(self._answers) >= geometry_config().layout_query_entries:
            self._answers.clear()  # a pathological caller: start over rather than grow
        self._answers[full] = (owner, value)
        return value
