"""Skill trace: does a stronger agent win more on this mission?

A ladder of agents in the order of strength they are expected to have (random, greedy, the
Oracle profiles, MCTS at doubling budgets) plays a round robin
(:mod:`riven_env.analytics.matrix`). Reported, each with a 95% interval:

* the win-rate (score) matrix, per colour as well;
* each agent's **strength**: its mean score against all the others;
* **Kendall's tau** between ladder level and strength (1: strength rises with every step
  of the ladder; near 0: skill does not pay on this mission), with a bootstrap interval
  (games resampled within each run);
* for each step of the ladder, the score of the upper agent against the one below
  (**monotone** when every step's interval lies above 1/2).

After Ludii's skill trace (Browne; Stephenson et al. 2019) and TAG's agent-strength matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

import numpy as np

from riven_env.analytics.matrix import Matrix, matrix_rows, play_round_robin
from riven_env.analytics.metrics import BOOTSTRAP_SEED, score_interval
from riven_env.analytics.store import replace_rows
from riven_env.extras import require
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.stats import Interval

KIND = "skill-trace"
# Bootstrap replicates for tau: each replicate re-scores every run, so fewer than the
# per-metric bootstrap; 1000 keep the percentile bounds within about 0.02.
TAU_RESAMPLES = 1000
# The default ladder below MCTS, weakest first (the Oracle profiles in between).
DEFAULT_BASE = ("random", "greedy")
DEFAULT_PROFILES = ("oracle",)


def default_ladder(
    profiles: Sequence[str] = DEFAULT_PROFILES, mcts_start: int = 8, mcts_rungs: int = 3
) -> list[str]:
    """``random, greedy, <profiles>, mcts:N, mcts:2N, ...`` (``mcts_rungs`` budgets)."""
    ladder = [*DEFAULT_BASE, *profiles]
    ladder += [f"mcts:{mcts_start * 2**k}" for k in range(mcts_rungs)]
    return ladder


@dataclass(frozen=True)
class SkillTrace:
    """Results of a skill trace.

    Attributes:
        group_id: Id of the trace's runs.
        scenario: The mission.
        matrix: The round robin.
        strength: Each agent's mean score against all others, with an interval.
        tau: Kendall's tau between ladder level and strength, bootstrap interval.
        steps: ``[(upper, lower, Interval of upper's score against lower)]``.
        monotone: Every step's interval lies above 1/2.
    """

    group_id: str
    scenario: str
    matrix: Matrix
    strength: dict[str, Interval]
    tau: Interval
    steps: list[tuple[str, str, Interval]]
    monotone: bool

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``riven skill-trace --json``)."""
        return {
            "group_id": self.group_id,
            "scenario": self.scenario,
            "ladder": list(self.matrix.labels),
            **self.matrix.to_json(),
            "strength": {k: v.to_dict() for k, v in self.strength.items()},
            "kendall_tau": self.tau.to_dict(),
            "steps": [{"upper": u, "lower": lo, "score": i.to_dict()} for u, lo, i in self.steps],
            "monotone": self.monotone,
        }


def kendall_tau(strengths: Sequence[float]) -> float:
    """Kendall's tau-b between ladder position ``0..k-1`` and ``strengths``."""
    stats = require("scipy.stats", "playtest", "playtest statistics")
    tau = stats.kendalltau(np.arange(len(strengths)), np.asarray(strengths)).statistic
    return 0.0 if np.isnan(tau) else float(tau)


def analyse(matrix: Matrix, group_id: str, scenario: str) -> SkillTrace:
    """Strength, tau and ladder steps of a played round robin."""
    k = len(matrix.labels)
    strength = {}
    for i, label in enumerate(matrix.labels):
        games = [s for j in range(k) if j != i for s in matrix.scores.get((i, j), [])]
        strength[label] = score_interval(games)
    point = matrix.point()
    rows = lambda m: [(m[i].sum() - m[i, i]) / (k - 1) for i in range(k)]  # noqa: E731
    tau = kendall_tau(rows(point))
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    replicates = [kendall_tau(rows(matrix.resample(rng))) for _ in range(TAU_RESAMPLES)]
    low, high = np.percentile(replicates, [2.5, 97.5])
    games = sum(len(v) for v in matrix.scores.values()) // 2
    steps = [
        (matrix.labels[i + 1], matrix.labels[i], matrix.interval(i + 1, i)) for i in range(k - 1)
    ]
    return SkillTrace(
        group_id=group_id,
        scenario=scenario,
        matrix=matrix,
        strength=strength,
        tau=Interval(tau, min(float(low), tau), max(float(high), tau), games),
        steps=steps,
        monotone=all(i.low > 0.5 for _, _, i in steps),
    )


def run_skill_trace(
    base: PlaytestConfig, ladder: Sequence[str], *, progress: bool = True
) -> SkillTrace:
    """Play the ladder's round robin on ``base.scenario`` and analyse it (stored in
    ``skill_trace``; the runs have kind ``skill-trace``)."""
    from riven_env.playtest.runner import check_inputs

    if len(ladder) < 2 or len(set(ladder)) != len(ladder):
        raise PlaytestError(f"a skill trace needs two or more distinct agents; got {list(ladder)}")
    for agent in ladder:
        check_inputs(base.with_(blue=agent, red=agent))
    group = f"skill-{uuid4().hex[:12]}"
    with ResultsDB(base.db) as db:
        matrix = play_round_robin(
            base,
            ladder,
            lambda i, j: base.with_(blue=ladder[i], red=ladder[j]),
            kind=KIND,
            group_id=group,
            progress=progress,
            db=db,
        )
        trace = analyse(matrix, group, base.scenario)
        replace_rows(db, "skill_trace", "group_id", group, matrix_rows(group, matrix, True))
    return trace
