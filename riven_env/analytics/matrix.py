"""Round robins between entrants (agents or rosters) and their win-rate matrix.

Every ordered pair of distinct entrants plays ``games`` games (so each pair meets on both
colours), all pairs on the same run seed. The *score* of a game for an entrant is 1 for a
win, 1/2 for a draw, 0 for a loss; ``M[i][j]`` is entrant ``i``'s mean score against ``j``
over both colours (``M[j][i] = 1 - M[i][j]``), with a Wilson score interval
(:func:`~riven_env.analytics.metrics.score_interval`), and the same per colour of ``i``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

import numpy as np

from riven_env.analytics.metrics import score_interval
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.stats import Interval

COLOURS = ("both", "blue", "red")


@dataclass
class Matrix:
    """Scores of every entrant against every other.

    Attributes:
        labels: Entrant names in order.
        scores: ``{(i, j): [score of i per game]}`` over both colours (``i != j``), in
            game order (blue games first).
        by_colour: ``{(i, j, colour): [scores]}`` with ``i`` on ``colour``.
        runs: ``{(blue i, red j): run_id}``.
    """

    labels: list[str]
    scores: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    by_colour: dict[tuple[int, int, str], list[float]] = field(default_factory=dict)
    runs: dict[tuple[int, int], str] = field(default_factory=dict)

    def point(self) -> np.ndarray:
        """``M`` as an array (diagonal 1/2)."""
        k = len(self.labels)
        m = np.full((k, k), 0.5)
        for (i, j), values in self.scores.items():
            if values:
                m[i, j] = float(np.mean(values))
        return m

    def interval(self, i: int, j: int, colour: str = "both") -> Interval:
        """``M[i][j]`` (or on one colour of ``i``) with its Wilson score interval."""
        values = self.scores.get((i, j), []) if colour == "both" else self.by_colour.get(
            (i, j, colour), []
        )  # fmt: skip
        return score_interval(values)

    def resample(self, rng: np.random.Generator) -> np.ndarray:
        """One bootstrap replicate of ``M``: each ordered run's games resampled."""
        k = len(self.labels)
        m = np.full((k, k), 0.5)
        for i in range(k):
            for j in range(i + 1, k):
                a = np.asarray(self.by_colour.get((i, j, "blue"), []), dtype=float)
                b = np.asarray(self.by_colour.get((i, j, "red"), []), dtype=float)
                parts = [x[rng.integers(0, x.size, x.size)] for x in (a, b) if x.size]
                if parts:
                    m[i, j] = float(np.concatenate(parts).mean())
                    m[j, i] = 1.0 - m[i, j]
        return m

    def to_json(self) -> dict[str, Any]:
        """``{"labels", "matrix": [[{value, low, high, n} | null]], "per_colour": ...}``."""
        k = len(self.labels)

        def cell(i: int, j: int, colour: str) -> dict[str, Any] | None:
            if i == j:
                return None
            return self.interval(i, j, colour).to_dict()

        return {
            "labels": list(self.labels),
            "matrix": [[cell(i, j, "both") for j in range(k)] for i in range(k)],
            "as_blue": [[cell(i, j, "blue") for j in range(k)] for i in range(k)],
            "as_red": [[cell(i, j, "red") for j in range(k)] for i in range(k)],
        }


def game_score(winner: str | None, colour: str) -> float:
    """1 for a win of ``colour``, 1/2 for no winner, 0 for a loss."""
    return 1.0 if winner == colour else 0.5 if winner is None else 0.0


def add_run(matrix: Matrix, i: int, j: int, winners: Sequence[str | None]) -> None:
    """Add the games of a run with entrant ``i`` on blue and ``j`` on red."""
    blue = [game_score(w, "blue") for w in winners]
    red = [game_score(w, "red") for w in winners]
    matrix.by_colour[(i, j, "blue")] = blue
    matrix.by_colour[(j, i, "red")] = red
    matrix.scores.setdefault((i, j), []).extend(blue)
    matrix.scores.setdefault((j, i), []).extend(red)


def play_round_robin(
    base: PlaytestConfig,
    labels: Sequence[str],
    pairing: Callable[[int, int], PlaytestConfig],
    *,
    kind: str,
    group_id: str,
    progress: bool = True,
    db: ResultsDB,
) -> Matrix:
    """Play every ordered pair; ``pairing(i, j)`` gives the run with ``i`` blue, ``j`` red.

    Returns:
        The :class:`Matrix` (runs are stored with ``kind`` and ``group_id``).
    """
    from riven_env.playtest.runner import run_playtest

    matrix = Matrix(labels=list(labels))
    for i, j in permutations(range(len(labels)), 2):
        config = pairing(i, j).with_(
            kind=kind, group_id=group_id, label=f"{labels[i]} vs {labels[j]}"
        )
        result = run_playtest(config, progress=progress, db=db)
        add_run(matrix, i, j, [g["winner"] for g in db.games(result.run_id)])
        matrix.runs[(i, j)] = result.run_id
    return matrix


def matrix_from_group(db: ResultsDB, group_id: str) -> Matrix:
    """Rebuild the matrix of a stored round robin from its runs' labels ``A vs B``."""
    runs = db.runs(group_id)
    labels: list[str] = []
    pairs = []
    for run in runs:
        blue, _, red = str(run["label"]).partition(" vs ")
        for name in (blue, red):
            if name not in labels:
                labels.append(name)
        pairs.append((blue, red, run["run_id"]))
    matrix = Matrix(labels=labels)
    for blue, red, run_id in pairs:
        i, j = labels.index(blue), labels.index(red)
        add_run(matrix, i, j, [g["winner"] for g in db.games(run_id)])
        matrix.runs[(i, j)] = run_id
    return matrix


def matrix_rows(group_id: str, matrix: Matrix, levels: bool) -> list[tuple]:
    """Rows of ``skill_trace`` (``levels``: with ladder levels) or ``meta_payoffs``."""
    rows = []
    k = len(matrix.labels)
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            for colour in COLOURS:
                est = matrix.interval(i, j, colour)
                lead = (group_id, matrix.labels[i], matrix.labels[j])
                if levels:
                    lead = (*lead, i, j)
                rows.append((*lead, colour, est.value, est.low, est.high, est.n, "wilson"))
    return rows
