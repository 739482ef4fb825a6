"""Game metrics a designer asks for, each with a 95% interval (definitions: ``docs/metrics.md``).

The metrics follow Browne's evaluation of games (Ludii's ``metrics``: advantage, balance,
drawishness, decisiveness, lead change, drama, duration) and TAG's game statistics, adapted
to a wargame whose state is scored by points and by the models still fighting:

* the *lead* at a checkpoint is the side with more points, or on equal points the side with
  more active models (:meth:`~riven_env.analytics.trajectory.Checkpoint.lead`);
* a checkpoint is taken at every turn end and at the game's end.

Each metric is computed from :class:`GameFacts` (plain data, so tests build games with known
answers); :func:`facts_from_db` reads them from a stored run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from riven_env.analytics.trajectory import Checkpoint, checkpoints
from riven_env.extras import require
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.stats import DEFAULT_CONFIDENCE, Interval, mean_interval, wilson_interval

SIDES = ("blue", "red")
# Bootstrap resamples and the seed of their generator: fixed so a report is reproducible;
# 2000 percentile resamples put the 2.5% and 97.5% quantiles within about 0.01 of their limit.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20190101
# Model statuses at the end of a game that count as lost (taken Down, Out or fled).
LOST_STATUSES = ("down", "out", "fled")
# Order in which metrics are listed (JSON, report, table).
METRIC_NAMES = (
    "first_player_advantage",
    "balance",
    "decisiveness",
    "drawishness",
    "lead_changes",
    "drama",
    "length",
    "lethality",
    "flight_share",
)


@dataclass(frozen=True)
class GameFacts:
    """What the metrics need of one game.

    Attributes:
        winner: Winning side or ``None``.
        draw: Whether the game was drawn.
        first_side: Side that took the first turn (``None`` when unknown).
        rounds: Rounds played.
        decisions: Decisions taken.
        lost: ``{side: models lost}`` (Down, Out or fled at the end).
        fled: ``{side: models that fled off the table}``.
        trajectory: Checkpoints in order (empty when not stored).
    """

    winner: str | None
    draw: bool
    first_side: str | None
    rounds: int
    decisions: int
    lost: Mapping[str, int] = field(default_factory=dict)
    fled: Mapping[str, int] = field(default_factory=dict)
    trajectory: Sequence[Checkpoint] = ()

    @property
    def loser(self) -> str | None:
        """The side that lost, if any."""
        if self.winner not in SIDES:
            return None
        return SIDES[1 - SIDES.index(self.winner)]


@dataclass(frozen=True)
class Metric:
    """One metric of a run.

    Attributes:
        name: Metric name (:data:`METRIC_NAMES`).
        estimate: The value with its 95% interval and the number of games it rests on.
        method: How the interval was found (``wilson``, ``t``, ``bootstrap``).
        parts: Named sub-measures (per colour, the second quantity of ``length`` ...).
        meaning: One plain-language sentence for the report.
    """

    name: str
    estimate: Interval
    method: str
    parts: Mapping[str, Interval] = field(default_factory=dict)
    meaning: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"value", "low", "high", "n", "method", "parts": {name: {...}}}`` (NaN as null)."""
        return {
            **_interval_json(self.estimate),
            "method": self.method,
            "parts": {name: _interval_json(i) for name, i in self.parts.items()},
        }


def _clean(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _interval_json(i: Interval) -> dict[str, Any]:
    return {"value": _clean(i.value), "low": _clean(i.low), "high": _clean(i.high), "n": i.n}


# ---------------------------------------------------------------------- intervals
def bootstrap_interval(
    samples: Sequence[Sequence[float]],
    statistic: Callable[..., float],
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval:
    """Percentile bootstrap over games (``scipy.stats.bootstrap``, paired samples).

    Args:
        samples: One or more equally long per-game sequences (resampled together, so a
            ratio of sums keeps each game's numerator with its denominator).
        statistic: ``f(*arrays) -> float`` on the per-game arrays.
        confidence: Confidence level.

    Returns:
        The statistic on the data with its interval; NaN bounds with fewer than two games,
        a zero-width interval when every resample gives the same value.
    """
    arrays = [np.asarray(s, dtype=float) for s in samples]
    n = int(arrays[0].size) if arrays else 0
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    value = float(statistic(*arrays))
    if n < 2:
        return Interval(value, math.nan, math.nan, n)
    stats = require("scipy.stats", "playtest", "playtest statistics")
    result = stats.bootstrap(
        tuple(arrays),
        lambda *a: statistic(*a),
        paired=True,
        vectorized=False,
        n_resamples=BOOTSTRAP_RESAMPLES,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(BOOTSTRAP_SEED),
    )
    low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    if math.isnan(low) or math.isnan(high):  # every resample equal: no spread to show
        low = high = value
    return Interval(value, min(low, value), max(high, value), n)


def mean_boot(values: Sequence[float]) -> Interval:
    """Mean with a percentile bootstrap interval (stays inside the data's range, unlike t)."""
    return bootstrap_interval([values], np.mean) if len(values) else mean_interval(values)


def score_interval(scores: Sequence[float], confidence: float = DEFAULT_CONFIDENCE) -> Interval:
    """Mean score (a win 1, a draw 1/2, a loss 0) with a Wilson score interval.

    The Wilson formula takes the observed proportion whatever it is made of, so a draw
    counts half a success; unlike a bootstrap it does not collapse to zero width when
    every game has the same result.
    """
    n = len(scores)
    if n == 0:
        return Interval(math.nan, 0.0, 1.0, 0)
    stats = require("scipy.stats", "playtest", "playtest statistics")
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    p = float(np.mean(scores))
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), n)


def _rate(flags: Sequence[bool]) -> Interval:
    return wilson_interval(int(sum(flags)), len(flags))


# ---------------------------------------------------------------------- per game
def clear_index(game: GameFacts) -> int | None:
    """Index of the checkpoint from which the winner led at every later checkpoint.

    ``None`` for a game without a winner or without a trajectory. When the winner does not
    lead at the last checkpoint (a win the lead measure does not see, such as a mission
    objective), the outcome counts as clear only at the last checkpoint.
    """
    if game.winner is None or not game.trajectory:
        return None
    k = len(game.trajectory)
    for index in range(len(game.trajectory) - 1, -1, -1):
        if game.trajectory[index].lead() != game.winner:
            break
        k = index
    return min(k, len(game.trajectory) - 1)


def game_decisiveness(game: GameFacts) -> float | None:
    """Share of the game still to come when the winner took the lead for good.

    ``1 - (k + 1) / T`` for ``T`` checkpoints and :func:`clear_index` ``k``: near 1 when the
    winner led from the first turn, 0 when it was clear only at the end.
    """
    k = clear_index(game)
    if k is None:
        return None
    return 1.0 - (k + 1) / len(game.trajectory)


def game_lead_changes(game: GameFacts) -> int:
    """Times the leader changed (a level checkpoint neither starts nor ends a lead)."""
    changes, leader = 0, None
    for point in game.trajectory:
        lead = point.lead()
        if lead is None:
            continue
        if leader is not None and lead != leader:
            changes += 1
        leader = lead
    return changes


def game_drama(game: GameFacts) -> float | None:
    """Share of checkpoints at which the eventual loser was level or ahead (decided games)."""
    loser = game.loser
    if loser is None or not game.trajectory:
        return None
    close = sum(1 for point in game.trajectory if point.lead() in (None, loser))
    return close / len(game.trajectory)


def game_loser_led(game: GameFacts) -> bool | None:
    """Whether the eventual loser led at some checkpoint (decided games)."""
    loser = game.loser
    if loser is None or not game.trajectory:
        return None
    return any(point.lead() == loser for point in game.trajectory)


# ---------------------------------------------------------------------- the metrics
def first_player_advantage(games: Sequence[GameFacts]) -> Metric:
    """The first player's score: 1 a win, 1/2 a draw, 0 a loss (Ludii's advantage); 0.5 is fair."""
    known = [g for g in games if g.first_side in SIDES]
    scores = [1.0 if g.winner == g.first_side else 0.5 if g.winner is None else 0.0 for g in known]
    est = bootstrap_interval([scores], np.mean)
    return Metric(
        "first_player_advantage",
        est,
        "bootstrap",
        parts={
            "first_wins": _rate([g.winner == g.first_side for g in known]),
            "second_wins": _rate(
                [g.winner is not None and g.winner != g.first_side for g in known]
            ),
            **{f"first_is_{side}": _rate([g.first_side == side for g in known]) for side in SIDES},
        },
        meaning="Score of the side that moved first (a win 1, a draw 1/2): 0.5 means moving "
        "first is worth nothing; 0.6 means the first player scores 60% of the points.",
    )


def balance(games: Sequence[GameFacts]) -> Metric:
    """``1 - |P(blue wins) - P(red wins)|``: 1 when both colours win equally often."""
    blue = [1.0 if g.winner == "blue" else 0.0 for g in games]
    red = [1.0 if g.winner == "red" else 0.0 for g in games]
    est = bootstrap_interval([blue, red], lambda b, r: 1.0 - abs(float(np.mean(b) - np.mean(r))))
    return Metric(
        "balance",
        est,
        "bootstrap",
        parts={f"{side}_wins": _rate([g.winner == side for g in games]) for side in SIDES},
        meaning="1 minus the gap between the colours' win rates: 1.0 is perfectly even, 0.5 "
        "means one colour wins 50 points more often than the other.",
    )


def drawishness(games: Sequence[GameFacts]) -> Metric:
    """Share of games drawn (Wilson interval)."""
    return Metric(
        "drawishness",
        _rate([g.draw for g in games]),
        "wilson",
        parts={"undecided": _rate([g.winner is None for g in games])},
        meaning="Share of games that end drawn ('undecided' also counts unfinished games).",
    )


def decisiveness(games: Sequence[GameFacts]) -> Metric:
    """Mean :func:`game_decisiveness` over decided games with a trajectory (bootstrap)."""
    values = [v for v in (game_decisiveness(g) for g in games) if v is not None]
    return Metric(
        "decisiveness",
        mean_boot(values),
        "bootstrap",
        meaning="How early the winner is clear: the share of the game still to play when the "
        "eventual winner took the lead (points, then models standing) for good. Near 1: the "
        "first blows decide; near 0: it stays open to the end.",
    )


def lead_changes(games: Sequence[GameFacts]) -> Metric:
    """Mean number of lead changes per game with a trajectory (bootstrap)."""
    values = [game_lead_changes(g) for g in games if g.trajectory]
    return Metric(
        "lead_changes",
        mean_boot(values),
        "bootstrap",
        parts={"any_change": _rate([v > 0 for v in values])},
        meaning="How often the side ahead (points, then models standing) changes in a game; "
        "0 means whoever gets ahead stays ahead.",
    )


def drama(games: Sequence[GameFacts]) -> Metric:
    """Mean :func:`game_drama` over decided games (bootstrap), and how often the loser led."""
    values = [v for v in (game_drama(g) for g in games) if v is not None]
    led = [v for v in (game_loser_led(g) for g in games) if v is not None]
    return Metric(
        "drama",
        mean_boot(values),
        "bootstrap",
        parts={"loser_led": _rate(led)},
        meaning="How close the loser came: the share of the game in which the eventual loser "
        "was level or ahead ('loser_led': games in which the loser was ahead at some point).",
    )


def length(games: Sequence[GameFacts]) -> Metric:
    """Mean rounds (the estimate) and mean decisions (a part), t intervals."""
    return Metric(
        "length",
        mean_interval([g.rounds for g in games]),
        "t",
        parts={"decisions": mean_interval([g.decisions for g in games])},
        meaning="Rounds a game lasts, and decisions the players take in it.",
    )


def _lost(game: GameFacts, side: str | None = None) -> int:
    sides = SIDES if side is None else (side,)
    return sum(int(game.lost.get(s, 0)) for s in sides)


def _fled(game: GameFacts, side: str | None = None) -> int:
    sides = SIDES if side is None else (side,)
    return sum(int(game.fled.get(s, 0)) for s in sides)


def lethality(games: Sequence[GameFacts]) -> Metric:
    """Models lost (Down, Out or fled at the end) per round played, both sides; bootstrap."""
    played = [g for g in games if g.rounds > 0]
    parts = {
        f"{side}_lost": mean_boot([_lost(g, side) / g.rounds for g in played]) for side in SIDES
    }
    return Metric(
        "lethality",
        mean_boot([_lost(g) / g.rounds for g in played]),
        "bootstrap",
        parts=parts,
        meaning="Casualties per round: models taken Down, Out or put to flight, both sides "
        "together, divided by the rounds played.",
    )


def flight_share(games: Sequence[GameFacts]) -> Metric:
    """Fled models over lost models, pooled over games (ratio of sums, bootstrap)."""

    def ratio(fled: np.ndarray, lost: np.ndarray) -> float:
        total = float(lost.sum())
        return float(fled.sum()) / total if total else math.nan

    with_losses = [g for g in games if _lost(g) > 0]
    est = bootstrap_interval(
        [[_fled(g) for g in with_losses], [_lost(g) for g in with_losses]], ratio
    )
    parts = {}
    for side in SIDES:
        sided = [g for g in games if _lost(g, side) > 0]
        parts[side] = bootstrap_interval(
            [[_fled(g, side) for g in sided], [_lost(g, side) for g in sided]], ratio
        )
    return Metric(
        "flight_share",
        est,
        "bootstrap",
        parts=parts,
        meaning="Of the models lost, the share that ran off the table after a failed morale "
        "test rather than falling: high values mean morale, not wounds, empties the table.",
    )


METRICS: dict[str, Callable[[Sequence[GameFacts]], Metric]] = {
    "first_player_advantage": first_player_advantage,
    "balance": balance,
    "decisiveness": decisiveness,
    "drawishness": drawishness,
    "lead_changes": lead_changes,
    "drama": drama,
    "length": length,
    "lethality": lethality,
    "flight_share": flight_share,
}


def compute_metrics(games: Sequence[GameFacts]) -> dict[str, Metric]:
    """Every metric of :data:`METRIC_NAMES` over the games."""
    return {name: METRICS[name](games) for name in METRIC_NAMES}


def metrics_json(metrics: Mapping[str, Metric]) -> dict[str, Any]:
    """``{name: Metric.to_json()}`` for ``--json``."""
    return {name: metric.to_json() for name, metric in metrics.items()}


# ---------------------------------------------------------------------- from the database
def facts_from_db(db: ResultsDB, run_id: str) -> list[GameFacts]:
    """The :class:`GameFacts` of every stored game of a run, by game index."""
    from riven_env.analytics.store import trajectories

    statuses = db.query(
        "SELECT game_index, side, status, count(*) AS n FROM game_models WHERE run_id = ? "
        "GROUP BY game_index, side, status",
        [run_id],
    )
    lost: dict[int, dict[str, int]] = {}
    fled: dict[int, dict[str, int]] = {}
    for row in statuses:
        index = int(row["game_index"])
        if row["status"] in LOST_STATUSES:
            side_lost = lost.setdefault(index, {})
            side_lost[row["side"]] = side_lost.get(row["side"], 0) + int(row["n"])
        if row["status"] == "fled":
            fled.setdefault(index, {})[row["side"]] = int(row["n"])
    paths = trajectories(db, run_id)
    return [
        GameFacts(
            winner=g["winner"],
            draw=bool(g["draw"]),
            first_side=g["first_side"],
            rounds=int(g["rounds"]),
            decisions=int(g["decisions"]),
            lost=lost.get(int(g["game_index"]), {}),
            fled=fled.get(int(g["game_index"]), {}),
            trajectory=checkpoints(paths.get(int(g["game_index"]), [])),
        )
        for g in db.games(run_id)
    ]


def run_metrics(db: ResultsDB, run_id: str) -> dict[str, Metric]:
    """:func:`compute_metrics` of a stored run."""
    return compute_metrics(facts_from_db(db, run_id))


def metric_rows(run_id: str, metrics: Mapping[str, Metric]) -> list[tuple]:
    """Rows of the ``run_metrics`` table (the estimate has part ``""``)."""
    rows = []
    for name, metric in metrics.items():
        for part, est in (("", metric.estimate), *metric.parts.items()):
            rows.append(
                (run_id, name, part, _clean(est.value), _clean(est.low), _clean(est.high),
                 est.n, metric.method)
            )  # fmt: skip
    return rows


def store_metrics(db: ResultsDB, run_id: str, metrics: Mapping[str, Metric]) -> None:
    """Write (replace) the ``run_metrics`` rows of a run."""
    from riven_env.analytics.store import replace_rows

    replace_rows(db, "run_metrics", "run_id", run_id, metric_rows(run_id, metrics))


def attach_metrics(db_path: Any, run_id: str) -> dict[str, Any]:
    """Compute, store (``run_metrics``) and return the ``--json`` ``metrics`` of a run."""
    with ResultsDB(db_path) as db:
        metrics = run_metrics(db, run_id)
        store_metrics(db, run_id, metrics)
    return metrics_json(metrics)
