"""The roster meta-game: every roster against every other, both colours.

Rosters (:func:`riven_env.analytics.rosters.load_roster`) are placed on the mission's seats
(:func:`~riven_env.analytics.rosters.roster_scenario`) and played by the same agent on both
colours (``oracle`` by default: each roster's own Oracle profile). The score matrix
``M`` (:mod:`riven_env.analytics.matrix`) gives the symmetric zero-sum payoff
``A = M - 1/2``, from which:

* the **Nash mixture**: the mix of rosters a player would field so that no roster scores
  better than 1/2 against it (a linear programme, ``scipy.optimize.linprog``);
* **alpha-rank** (Omidshafiei et al. 2019, single population): the stationary distribution
  of a Markov chain in which a population fielding one roster is taken over by a mutant
  roster with the Moran/Fermi fixation probability at ranking intensity ``alpha`` and
  population size ``m``; mass on a roster means it survives evolution against the others;
* **dominant** rosters (score above 1/2 against every other, every interval above 1/2) and
  **rock-paper-scissors cycles** (i beats j beats k beats i, each beat's interval above 1/2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any
from uuid import uuid4

import numpy as np

from riven_env.analytics.matrix import Matrix, matrix_rows, play_round_robin
from riven_env.analytics.rosters import derived_folder, load_roster, roster_scenario
from riven_env.analytics.store import replace_rows
from riven_env.extras import require
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import PlaytestError

KIND = "meta"
# Alpha-rank defaults: a large ranking intensity approaches the paper's infinite-alpha
# limit (mass on the sink strongly connected components of the response graph) while
# keeping ties between equal rosters; m = 50 is the population size of the paper's examples.
ALPHA = 50.0
POPULATION = 50


def nash_mixture(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """Maximin mixture of the row player of a zero-sum game ``payoff[i, j]``.

    Maximise ``v`` subject to ``sum_i x_i payoff[i, j] >= v`` for every ``j``,
    ``sum x = 1``, ``x >= 0``.

    Returns:
        ``(x, v)``: the mixture and the game's value for the row player.
    """
    optimize = require("scipy.optimize", "playtest", "the meta-game")
    k = payoff.shape[0]
    # Variables x_0..x_{k-1}, v; minimise -v.
    c = np.zeros(k + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((payoff.shape[1], 1))])
    b_ub = np.zeros(payoff.shape[1])
    a_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0, None)] * k + [(None, None)]
    result = optimize.linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds)
    if not result.success:
        raise PlaytestError(f"the Nash linear programme failed: {result.message}")
    x = np.clip(result.x[:k], 0.0, None)
    return x / x.sum(), float(result.x[-1])


def fixation_probability(
    payoff: np.ndarray, resident: int, mutant: int, alpha: float, m: int
) -> float:
    """Probability that one ``mutant`` takes over a population of ``m - 1`` ``resident``.

    Single-population alpha-rank (Omidshafiei et al. 2019, eq. for symmetric games): with
    ``k`` mutants, each individual plays a random other one, so the mutant's fitness is
    ``((k - 1) P[mut, mut] + (m - k) P[mut, res]) / (m - 1)`` and the resident's
    ``(k P[res, mut] + (m - k - 1) P[res, res]) / (m - 1)``; with the Fermi selection
    function the fixation probability is ``1 / (1 + sum_l prod_{k<=l} exp(-alpha * (f_mut(k)
    - f_res(k))))``.
    """
    p = payoff
    total, product = 1.0, 1.0
    for k in range(1, m):
        f_mut = ((k - 1) * p[mutant, mutant] + (m - k) * p[mutant, resident]) / (m - 1)
        f_res = (k * p[resident, mutant] + (m - k - 1) * p[resident, resident]) / (m - 1)
        product *= float(np.exp(-alpha * (f_mut - f_res)))
        total += product
    return 1.0 / total


def alpha_rank(payoff: np.ndarray, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """Single-population alpha-rank distribution of a symmetric game ``payoff[i, j]``.

    ``payoff[i, j]`` is what strategy ``i`` earns against ``j``. A mutation picks each other
    strategy with probability ``1 / (K - 1)``; the chain's stationary distribution is the
    ranking.
    """
    k = payoff.shape[0]
    if k == 1:
        return np.ones(1)
    chain = np.zeros((k, k))
    for s in range(k):
        for r in range(k):
            if r != s:
                chain[s, r] = fixation_probability(payoff, s, r, alpha, m) / (k - 1)
        chain[s, s] = 1.0 - chain[s].sum()
    values, vectors = np.linalg.eig(chain.T)
    pi = np.real(vectors[:, int(np.argmin(np.abs(values - 1.0)))])
    pi = np.abs(pi)
    return pi / pi.sum()


def dominant(matrix: Matrix) -> list[str]:
    """Rosters whose score against every other has its interval above 1/2."""
    k = len(matrix.labels)
    return [
        matrix.labels[i]
        for i in range(k)
        if k > 1 and all(matrix.interval(i, j).low > 0.5 for j in range(k) if j != i)
    ]


def cycles(matrix: Matrix, significant: bool = True) -> list[list[str]]:
    """Three-roster cycles i > j > k > i (each beat's interval above 1/2 when ``significant``,
    else on point estimates), each listed once from its first roster in file order."""
    k = len(matrix.labels)
    point = matrix.point()

    def beats(a: int, b: int) -> bool:
        return matrix.interval(a, b).low > 0.5 if significant else point[a, b] > 0.5

    found = []
    for i, j, h in permutations(range(k), 3):
        if i < j and i < h and beats(i, j) and beats(j, h) and beats(h, i):
            found.append([matrix.labels[i], matrix.labels[j], matrix.labels[h]])
    return found


@dataclass(frozen=True)
class MetaGame:
    """Results of a meta-game.

    Attributes:
        group_id: Id of its runs.
        scenario: The mission.
        agent: Agent that played every roster.
        matrix: Score matrix.
        nash: ``{roster: weight}`` of the Nash mixture.
        value: Value of the symmetric game for the Nash mixture (0 for an exact solution).
        alpha_rank: ``{roster: stationary mass}``.
        dominant: Dominant rosters.
        cycles: Significant rock-paper-scissors cycles.
        tentative_cycles: Cycles on point estimates only.
        rosters: ``{label: file}``.
    """

    group_id: str
    scenario: str
    agent: str
    matrix: Matrix
    nash: dict[str, float]
    value: float
    alpha_rank: dict[str, float]
    dominant: list[str]
    cycles: list[list[str]]
    tentative_cycles: list[list[str]] = field(default_factory=list)
    rosters: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``riven meta --json``)."""
        return {
            "group_id": self.group_id,
            "scenario": self.scenario,
            "agent": self.agent,
            "rosters": dict(self.rosters),
            **self.matrix.to_json(),
            "nash": dict(self.nash),
            "nash_value": self.value,
            "alpha_rank": dict(self.alpha_rank),
            "alpha_rank_params": {"alpha": ALPHA, "population": POPULATION},
            "dominant": list(self.dominant),
            "cycles": [list(c) for c in self.cycles],
            "tentative_cycles": [list(c) for c in self.tentative_cycles],
        }


def analyse(matrix: Matrix, group_id: str, scenario: str, agent: str) -> MetaGame:
    """Nash mixture, alpha-rank and flags of a played round robin."""
    point = matrix.point()
    x, value = nash_mixture(point - 0.5)
    ranks = alpha_rank(point)
    return MetaGame(
        group_id=group_id,
        scenario=scenario,
        agent=agent,
        matrix=matrix,
        nash={label: float(w) for label, w in zip(matrix.labels, x, strict=True)},
        value=value,
        alpha_rank={label: float(w) for label, w in zip(matrix.labels, ranks, strict=True)},
        dominant=dominant(matrix),
        cycles=cycles(matrix, significant=True),
        tentative_cycles=cycles(matrix, significant=False),
    )


def run_meta(
    base: PlaytestConfig, roster_files: Sequence[str], *, agent: str = "oracle",
    progress: bool = True,
) -> MetaGame:  # fmt: skip
    """Play every roster against every other on both colours and analyse the meta-game."""
    from riven_env.playtest.runner import check_inputs

    rosters = [load_roster(path) for path in roster_files]
    labels = [r["label"] for r in rosters]
    if len(rosters) < 2 or len(set(labels)) != len(labels):
        raise PlaytestError(
            f"a meta-game needs two or more rosters with distinct file names; got {labels}"
        )
    folder = derived_folder(base.db)
    scenarios = {
        (i, j): str(roster_scenario(base.scenario, rosters[i], rosters[j], folder))
        for i, j in permutations(range(len(rosters)), 2)
    }
    for path in scenarios.values():
        check_inputs(base.with_(scenario=path, blue=agent, red=agent))
    group = f"meta-{uuid4().hex[:12]}"
    with ResultsDB(base.db) as db:
        matrix = play_round_robin(
            base,
            labels,
            lambda i, j: base.with_(scenario=scenarios[(i, j)], blue=agent, red=agent),
            kind=KIND,
            group_id=group,
            progress=progress,
            db=db,
        )
        game = analyse(matrix, group, base.scenario, agent)
        game = MetaGame(**{**game.__dict__, "rosters": {r["label"]: r["path"] for r in rosters}})
        store_meta(db, game)
    return game


def store_meta(db: ResultsDB, game: MetaGame) -> None:
    """Write (replace) the ``meta_payoffs`` and ``meta_strategies`` rows of a meta-game."""
    group = game.group_id
    replace_rows(db, "meta_payoffs", "group_id", group, matrix_rows(group, game.matrix, False))
    strategies = [
        (group, str(game.scenario), label, game.nash[label], game.alpha_rank[label],
         {"dominant": label in game.dominant, "in_cycle": any(label in c for c in game.cycles)})
        for label in game.matrix.labels
    ]  # fmt: skip
    replace_rows(db, "meta_strategies", "group_id", group, strategies)


def meta_of_group(db: ResultsDB, group_id: str, scenario: str) -> MetaGame:
    """Re-analyse the stored runs of a meta-game (for example after an interrupted analysis)."""
    from riven_env.analytics.matrix import matrix_from_group

    runs = db.runs(group_id)
    if not runs:
        raise PlaytestError(f"no runs of group {group_id!r} are stored")
    return analyse(matrix_from_group(db, group_id), group_id, scenario, str(runs[0]["blue"]))
