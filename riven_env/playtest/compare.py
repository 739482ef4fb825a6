"""Compare rule variants with the baseline on the same seeds (common random numbers).

The baseline and every variant are separate runs of one group (``runs.group_id``) with the
same run seed, so game ``i`` of each arm plays the same seed: only the rule change differs,
and per-seed differences are paired. ``until_significant`` plays in batches and stops a
variant as soon as the always-valid confidence sequence of its blue-win-rate difference
excludes 0 (:func:`riven_env.playtest.stats.confidence_sequence`); the error rate is split
evenly over the variants (Bonferroni), so the chance that *any* variant is wrongly called
different stays at most ``alpha``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.results import RunSummary, rate_json, summarise_run
from riven_env.playtest.runner import run_playtest
from riven_env.playtest.stats import (
    Interval,
    SequentialResult,
    confidence_sequence,
    mean_interval,
    paired_difference,
    wilson_interval,
)

DEFAULT_ALPHA = 0.05
# Games per arm between two looks of the sequential test, at least; more workers get
# bigger batches so that every look keeps all of them busy.
MIN_SEQUENTIAL_BATCH = 20
BATCHES_PER_WORKER = 4


@dataclass(frozen=True)
class Variant:
    """One rule variant: a label and the overrides it adds to the baseline's.

    Attributes:
        label: Shown in tables (``turnover=sbh``).
        overrides: Rule overrides of the variant (on top of the baseline's ``--set``).
    """

    label: str
    overrides: Mapping[str, object]


ROUND_LIMIT_REASON = "round_limit"
"""``games.reason`` of a game that ran out of rounds (``victory.end_at_round_limit``)."""


@dataclass(frozen=True)
class ArmMeasures:
    """Per-game measures of one arm beyond who won, in ``game_index`` order.

    Attributes:
        casualties: Models of both sides taken Out or Fled, per game.
        flights: Models of both sides that Fled (left the table in flight), per game.
        decisive: 1 for a game won before the round limit (elimination, extraction,
            protection...), 0 for a draw or a game the round limit decided.
        red_win: 1 for a red win.
    """

    casualties: list[float]
    flights: list[float]
    decisive: list[float]
    red_win: list[float]

    def to_json(self) -> dict[str, Any]:
        """Means with intervals (``riven compare --json``)."""
        n = len(self.decisive)
        return {
            "red_win_rate": rate_json(wilson_interval(int(sum(self.red_win)), n)),
            "casualties": mean_interval(self.casualties).to_dict(),
            "flights": mean_interval(self.flights).to_dict(),
            "decisive_rate": rate_json(wilson_interval(int(sum(self.decisive)), n)),
        }


def arm_measures(db: ResultsDB, run_id: str) -> ArmMeasures:
    """Casualties, flights, decisive games and red wins of each game of a run."""
    rows = db.query(
        "SELECT g.game_index AS i, g.winner AS winner, g.reason AS reason, "
        "coalesce(sum(s.out + s.fled), 0) AS casualties, coalesce(sum(s.fled), 0) AS fled "
        "FROM games g LEFT JOIN game_sides s ON s.run_id = g.run_id AND s.game_index = g.game_index "
        "WHERE g.run_id = ? GROUP BY g.game_index, g.winner, g.reason ORDER BY g.game_index",
        [run_id],
    )
    return ArmMeasures(
        casualties=[float(r["casualties"]) for r in rows],
        flights=[float(r["fled"]) for r in rows],
        decisive=[
            float(r["winner"] is not None and r["reason"] != ROUND_LIMIT_REASON) for r in rows
        ],
        red_win=[float(r["winner"] == "red") for r in rows],
    )


def _paired_measures(base: ArmMeasures, variant: ArmMeasures) -> dict[str, Interval]:
    """Paired differences (variant - baseline) of every measure, on the same seeds."""
    return {
        "red_win_diff": paired_difference(variant.red_win, base.red_win),
        "casualties_diff": paired_difference(variant.casualties, base.casualties),
        "flights_diff": paired_difference(variant.flights, base.flights),
        "decisive_diff": paired_difference(variant.decisive, base.decisive),
    }


@dataclass(frozen=True)
class VariantResult:
    """A variant against the baseline on the same seeds.

    Attributes:
        variant: The variant.
        run_id: Its run.
        summary: Its headline results.
        blue_win_diff: Paired difference of blue's win rate (variant - baseline), t interval.
        rounds_diff: Paired difference of rounds played.
        sequential: The confidence sequence (``until_significant`` only).
    """

    variant: Variant
    run_id: str
    summary: RunSummary
    blue_win_diff: Interval
    rounds_diff: Interval
    sequential: SequentialResult | None
    measures: ArmMeasures | None = None
    measure_diffs: Mapping[str, Interval] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``riven compare --json``)."""
        return {
            "label": self.variant.label,
            "overrides": dict(self.variant.overrides),
            "run_id": self.run_id,
            "games": self.summary.games,
            "blue_win_rate": rate_json(self.summary.win_rate["blue"]),
            "mean_rounds": self.summary.rounds.value if self.summary.games else None,
            "rounds": self.summary.rounds.to_dict() if self.summary.games else None,
            **(self.measures.to_json() if self.measures is not None else {}),
            "blue_win_diff": self.blue_win_diff.to_dict(),
            "rounds_diff": self.rounds_diff.to_dict(),
            **{k: v.to_dict() for k, v in (self.measure_diffs or {}).items()},
            "sequential": None if self.sequential is None else self.sequential.to_dict(),
        }


@dataclass(frozen=True)
class CompareResult:
    """Outcome of :func:`run_compare`.

    Attributes:
        group_id: Id shared by the runs of this comparison.
        baseline_run_id: The baseline's run.
        baseline: The baseline's headline results.
        variants: One result per variant.
        config: The baseline configuration.
        until_significant: Whether the sequential test decided when to stop.
    """

    group_id: str
    baseline_run_id: str
    baseline: RunSummary
    variants: list[VariantResult]
    config: PlaytestConfig
    until_significant: bool
    baseline_measures: ArmMeasures | None = None

    def to_json(self) -> dict[str, Any]:
        """The documented ``riven compare --json`` object."""
        c = self.config
        measures = self.baseline_measures
        return {
            "group_id": self.group_id,
            "baseline": {
                "run_id": self.baseline_run_id,
                "games": self.baseline.games,
                "blue_win_rate": rate_json(self.baseline.win_rate["blue"]),
                "mean_rounds": self.baseline.rounds.value if self.baseline.games else None,
                "rounds": self.baseline.rounds.to_dict() if self.baseline.games else None,
                **(measures.to_json() if measures is not None else {}),
            },
            "variants": [v.to_json() for v in self.variants],
            "config": {
                "scenario": c.scenario,
                "blue": c.blue,
                "red": c.red,
                "games": c.games,
                "seed": c.seed,
                "workers": c.worker_count,
                "backend": c.backend,
                "overrides": dict(c.overrides),
                "db": str(c.db),
                "until_significant": self.until_significant,
            },
        }


def _paired(db: ResultsDB, baseline: str, variant: str) -> tuple[list, list, list, list]:
    rows = db.query(
        "SELECT b.winner AS bw, v.winner AS vw, b.rounds AS br, v.rounds AS vr "
        "FROM games b JOIN games v ON b.game_index = v.game_index AND b.seed = v.seed "
        "WHERE b.run_id = ? AND v.run_id = ? ORDER BY b.game_index",
        [baseline, variant],
    )
    base_win = [float(r["bw"] == "blue") for r in rows]
    var_win = [float(r["vw"] == "blue") for r in rows]
    return var_win, base_win, [r["vr"] for r in rows], [r["br"] for r in rows]


def run_compare(
    base: PlaytestConfig,
    variants: Sequence[Variant],
    *,
    until_significant: bool = False,
    alpha: float = DEFAULT_ALPHA,
    batch_games: int | None = None,
    progress: bool = True,
) -> CompareResult:
    """Play the baseline and each variant on the same seeds and compare them.

    Args:
        base: The baseline configuration; ``base.games`` is the number of games per arm
            (the most, with ``until_significant``).
        variants: Rule variants to compare; each adds its overrides to the baseline's.
        until_significant: Play in batches and stop a variant once its confidence
            sequence excludes 0 (stop altogether when every variant is decided or
            ``base.games`` is reached).
        alpha: Error rate over all variants together.
        batch_games: Games per arm between looks (default: from the worker count).
        progress: Show progress bars.

    Returns:
        The :class:`CompareResult`.

    Raises:
        PlaytestError: No variants, a duplicate label, or bad input reported by the game.
    """
    if not variants:
        raise PlaytestError("compare needs at least one --variant KEY=VALUE")
    # ``nan <= 0`` is false: a bare range check would let NaN through to the intervals.
    if isinstance(alpha, bool) or not math.isfinite(alpha) or not 0 < alpha < 1:
        raise PlaytestError(f"--alpha {alpha!r} is not allowed; allowed: a number in (0, 1)")
    labels = [v.label for v in variants]
    if len(set(labels)) != len(labels):
        raise PlaytestError(f"variants repeat a label: {', '.join(labels)}; give distinct ones")
    group = f"compare-{uuid4().hex[:12]}"
    arms = {"baseline": base.with_(kind="compare", group_id=group, label="baseline")}
    for v in variants:
        arms[v.label] = base.with_(
            kind="compare",
            group_id=group,
            label=v.label,
            overrides={**base.overrides, **v.overrides},
        )
    step = batch_games or max(MIN_SEQUENTIAL_BATCH, base.worker_count * BATCHES_PER_WORKER)
    alpha_each = alpha / len(variants)
    run_ids: dict[str, str] = {}
    sequential: dict[str, SequentialResult] = {}
    open_arms = list(arms)
    played = 0
    with ResultsDB(base.db) as db:
        while open_arms:
            played = min(base.games, played + step) if until_significant else base.games
            for label in open_arms:
                result = run_playtest(
                    arms[label].with_(games=played),
                    progress=progress,
                    run_id=run_ids.get(label),
                    db=db,
                    check=label not in run_ids,
                )
                run_ids[label] = result.run_id
            if not until_significant:
                break
            for v in variants:
                if v.label not in open_arms:
                    continue
                var_win, base_win, _, _ = _paired(db, run_ids["baseline"], run_ids[v.label])
                diffs = [a - b for a, b in zip(var_win, base_win, strict=True)]
                sequential[v.label] = confidence_sequence(diffs, alpha_each)
                if sequential[v.label].significant:
                    open_arms.remove(v.label)
            if played >= base.games or open_arms == ["baseline"]:
                break
        results = []
        base_measures = arm_measures(db, run_ids["baseline"])
        for v in variants:
            rid = run_ids[v.label]
            var_win, base_win, var_rounds, base_rounds = _paired(db, run_ids["baseline"], rid)
            measures = arm_measures(db, rid)
            # The sequential arm may stop before the baseline: pair on its games only.
            n = len(measures.decisive)
            head = ArmMeasures(
                *(getattr(base_measures, f)[:n] for f in ArmMeasures.__dataclass_fields__)
            )
            results.append(
                VariantResult(
                    variant=v,
                    run_id=rid,
                    summary=summarise_run(db, rid),
                    blue_win_diff=paired_difference(var_win, base_win),
                    rounds_diff=paired_difference(var_rounds, base_rounds),
                    sequential=sequential.get(v.label),
                    measures=measures,
                    measure_diffs=_paired_measures(head, measures),
                )
            )
        return CompareResult(
            group_id=group,
            baseline_run_id=run_ids["baseline"],
            baseline=summarise_run(db, run_ids["baseline"]),
            variants=results,
            config=base,
            until_significant=until_significant,
            baseline_measures=base_measures,
        )
