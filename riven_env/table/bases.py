"""The :class:`Bases`: where every model's round base is (mutable, cheap to copy)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from riven_env.errors import TerrainError
from riven_env.table.layout import Layout


class Bases:
    """Round bases of all models in a game, by model index.

    Attributes:
        centers: ``(N, 2)`` float64 base centres, inches.
        radii: ``(N,)`` float64 base radii, inches.
        on_table: ``(N,)`` bool; ``False`` once a model is removed (Out, fled).
    """

    __slots__ = ("_layout", "centers", "on_table", "radii")

    def __init__(self, centers: np.ndarray, radii: np.ndarray, on_table: np.ndarray) -> None:
        self.centers = np.asarray(centers, dtype=np.float64).reshape(-1, 2)
        self.radii = np.asarray(radii, dtype=np.float64).reshape(-1)
        self.on_table = np.asarray(on_table, dtype=bool).reshape(-1)
        n = len(self.centers)
        if len(self.radii) != n or len(self.on_table) != n:
            raise TerrainError(
                f"bases: {n} centres but {len(self.radii)} radii and {len(self.on_table)} flags"
            )
        if n and (not np.all(np.isfinite(self.centers)) or not np.all(self.radii > 0)):
            raise TerrainError("bases: centres must be finite and radii positive")
        self._layout: Layout | None = None

    @classmethod
    def from_lists(
        cls, centers: Sequence[Sequence[float]], diameters: float | Sequence[float]
    ) -> Bases:
        """Build bases from centre points and base diameters (one per model, or one for all).

        Raises:
            TerrainError: Counts differ, a diameter is not positive or a centre not finite.
        """
        xy = np.asarray(centers, dtype=np.float64).reshape(-1, 2)
        d = np.broadcast_to(np.asarray(diameters, dtype=np.float64), (len(xy),)).copy()
        return cls(xy, d / 2.0, np.ones(len(xy), dtype=bool))

    def __getstate__(self) -> dict[str, np.ndarray]:
        # Pickle the positions only: remembered answers are rebuilt where they are needed.
        return {"centers": self.centers, "radii": self.radii, "on_table": self.on_table}

    def __setstate__(self, state: dict[str, np.ndarray]) -> None:
        self.centers = state["centers"]
        self.radii = state["radii"]
        self.on_table = state["on_table"]
        self._layout = None

    def __len__(self) -> int:
        return len(self.centers)

    def __repr__(self) -> str:
        return f"Bases({len(self)} models, {int(self.on_table.sum())} on the table)"

    def copy(self) -> Bases:
        """An independent copy (numpy array copies)."""
        new = Bases.__new__(Bases)
        new.centers = self.centers.copy()
        new.radii = self.radii.copy()
        new.on_table = self.on_table.copy()
        new._layout = self._layout  # answers for the same layout hold for the copy too
        return new

    def layout(self) -> Layout:
        """The :class:`~riven_env.table.layout.Layout` of the bases as they stand now.

        The same object (with its remembered answers) while nothing changes; a fresh one as
        soon as any centre, radius or on-table flag differs, however it was changed.
        """
        key = self.centers.tobytes() + self.radii.tobytes() + self.on_table.tobytes()
        layout = self._layout
        if layout is None or layout.key != key:
            layout = Layout(key, self.centers, self.radii, self.on_table)
            self._layout = layout
        return layout

    def center(self, i: int) -> tuple[float, float]:
        """Model ``i``'s centre as a tuple of floats."""
        return (float(self.centers[i, 0]), float(self.centers[i, 1]))

    def move_to(self, i: int, xy: Sequence[float]) -> None:
        """Put model ``i``'s base centre at ``xy`` (no legality check: plan moves first)."""
        self.centers[i, 0] = float(xy[0])
        self.centers[i, 1] = float(xy[1])

    def remove(self, i: int) -> None:
        """Take model ``i`` off the table (its centre is kept for reports)."""
        self.on_table[i] = False

    def others(self, i: int, exclude: Sequence[int] = ()) -> np.ndarray:
        """Indices of on-table models other than ``i`` and ``exclude``."""
        mask = self.on_table.copy()
        mask[i] = False
        for j in exclude:
            mask[j] = False
        return np.flatnonzero(mask)
