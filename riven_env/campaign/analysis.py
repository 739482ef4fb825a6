"""What a campaign playtest says, read from its DuckDB tables (:mod:`riven_env.campaign.playtest`).

:func:`analyse_campaigns` turns the stored campaigns of one run into the numbers of the
campaign report (:mod:`riven_env.campaign.report`):

* the warband's survival by mission step: Kaplan-Meier (``lifelines``) with its 95%
  interval; a campaign that ends ``wiped_out``, ``hero_dead`` or ``hero_retired`` is an
  event at its last step, one that ends ``completed`` or ``victory`` is censored there;
* each model's survival by missions fought (death is the event; retirement and the
  campaign's end censor it);
* the mission win rate of each step with its Wilson interval, the campaign length;
* deaths, injuries, convalescence and retirements per step (per campaign that played it);
* attribute and Mettle growth (mean over the living models after each step);
* the advances bought and the next mission's win rate after a step that bought one
  against after a step that did not (Newcombe's interval; an association, not a cause);
* the snowball measure: P(win step k+1 | won step k) - P(win step k+1 | not won step k),
  pooled over k, with a percentile bootstrap over campaigns (seeded: the same data give
  the same interval), and per k with Newcombe's interval.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from riven_env.extras import require
from riven_env.playtest.stats import Interval, proportion_difference, wilson_interval

#: Results that end a campaign because the warband (or the hero) is gone.
LOST_RESULTS: tuple[str, ...] = ("wiped_out", "hero_dead", "hero_retired")
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 41
ATTRIBUTES = ("might", "agility", "wit", "resolve")


@dataclass(frozen=True)
class SurvivalPoint:
    """The Kaplan-Meier estimate after ``time`` steps (or missions)."""

    time: int
    survival: float
    low: float
    high: float
    at_risk: int
    events: int

    def to_dict(self) -> dict[str, Any]:
        return {"time": self.time, "survival": self.survival, "low": self.low,
                "high": self.high, "at_risk": self.at_risk, "events": self.events}  # fmt: skip


@dataclass(frozen=True)
class StepCasualties:
    """Fate outcomes of one step, over the campaigns that played it."""

    step: int
    campaigns: int
    dead: int
    injured: int
    convalescing: int
    retired: int


@dataclass(frozen=True)
class AdvanceUse:
    """One advance: how often it was bought and the next mission's win rate after it."""

    advance: str
    chosen: int
    campaigns: int
    after: Interval
    without: Interval
    difference: Interval


@dataclass(frozen=True)
class Snowball:
    """Does winning step k raise the chance of winning step k+1?"""

    after_win: Interval
    after_other: Interval
    difference: Interval
    per_step: list[tuple[int, Interval, Interval, Interval]]


@dataclass
class CampaignAnalysis:
    """The numbers of one run's campaign report."""

    run_key: str
    campaign: str
    blue: str
    red: str
    policy: str
    campaigns: int
    steps: int
    results: dict[str, int]
    survival: list[SurvivalPoint]
    model_survival: list[SurvivalPoint]
    win_rates: list[tuple[int, Interval, int]]
    lengths: dict[tuple[int, str], int]
    casualties: list[StepCasualties]
    growth: list[dict[str, float]]
    advances: list[AdvanceUse]
    snowball: Snowball
    completion: Interval
    mission_win: Interval
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The headline numbers as JSON."""
        return {
            "run": self.run_key,
            "campaigns": self.campaigns,
            "results": self.results,
            "completion": self.completion.to_dict(),
            "mission_win": self.mission_win.to_dict(),
            "survival": [p.to_dict() for p in self.survival],
            "snowball": {
                "after_win": self.snowball.after_win.to_dict(),
                "after_other": self.snowball.after_other.to_dict(),
                "difference": self.snowball.difference.to_dict(),
            },
        }


def kaplan_meier(durations: list[int], events: list[bool], horizon: int) -> list[SurvivalPoint]:
    """Kaplan-Meier survival at 0..``horizon`` with lifelines' 95% (exponential Greenwood)
    interval; ``at_risk`` and ``events`` are those at each time."""
    lifelines = require("lifelines", "campaign", "campaign survival curves")
    if not durations:
        return []
    fitter = lifelines.KaplanMeierFitter()
    fitter.fit(durations, event_observed=events, timeline=list(range(horizon + 1)))
    curve = fitter.survival_function_.iloc[:, 0]
    bounds = fitter.confidence_interval_survival_function_
    d = np.asarray(durations)
    e = np.asarray(events, dtype=bool)
    points = []
    for t in range(horizon + 1):
        low, high = (float(v) for v in bounds.loc[t])
        points.append(SurvivalPoint(t, float(curve.loc[t]), low, high,
                                    int((d >= t).sum()), int(((d == t) & e).sum())))  # fmt: skip
    return points


def mission_win_rate(
    won: np.ndarray, played: np.ndarray, rng_seed: int = BOOTSTRAP_SEED
) -> Interval:
    """Missions won / missions played over campaigns, with a percentile bootstrap over
    campaigns (a campaign's missions are not independent of each other)."""
    n = int(won.size)
    total = float(played.sum())
    if n == 0 or total == 0:
        return Interval(math.nan, 0.0, 1.0, 0)
    weights = _weights(n, rng_seed)
    w, p = weights @ won, weights @ played
    ratios = np.divide(w, p, out=np.full_like(w, np.nan), where=p > 0)
    low, high = np.nanpercentile(ratios, [2.5, 97.5])
    return Interval(float(won.sum()) / total, float(low), float(high), int(total))


def _weights(n: int, rng_seed: int) -> np.ndarray:
    """Bootstrap resample counts: row b says how often each campaign is drawn in sample b."""
    rng = np.random.default_rng(rng_seed)
    return rng.multinomial(n, np.full(n, 1.0 / n), size=BOOTSTRAP_SAMPLES).astype(float)


def snowball(
    pairs: dict[int, list[tuple[int, bool, bool]]], rng_seed: int = BOOTSTRAP_SEED
) -> Snowball:
    """The snowball measure from ``{seed: [(k, won k, won k+1), ...]}``."""
    seeds = sorted(pairs)
    counts = np.zeros((len(seeds), 4))  # after a win: n, won; after no win: n, won
    per_k: dict[int, list[int]] = {}
    for i, s in enumerate(seeds):
        for k, won_k, won_next in pairs[s]:
            j = 0 if won_k else 2
            counts[i, j] += 1
            counts[i, j + 1] += won_next
            slot = per_k.setdefault(k, [0, 0, 0, 0])
            slot[j] += 1
            slot[j + 1] += int(won_next)
    totals = counts.sum(axis=0)
    after_win = wilson_interval(int(totals[1]), int(totals[0]))
    after_other = wilson_interval(int(totals[3]), int(totals[2]))
    if len(seeds) and totals[0] and totals[2]:
        sums = _weights(len(seeds), rng_seed) @ counts
        with np.errstate(invalid="ignore", divide="ignore"):
            diffs = sums[:, 1] / sums[:, 0] - sums[:, 3] / sums[:, 2]
        low, high = np.nanpercentile(diffs, [2.5, 97.5])
        value = totals[1] / totals[0] - totals[3] / totals[2]
        difference = Interval(float(value), float(low), float(high), len(seeds))
    else:
        difference = Interval(math.nan, -1.0, 1.0, len(seeds))
    per_step = []
    for k in sorted(per_k):
        n_w, s_w, n_o, s_o = per_k[k]
        per_step.append((k, wilson_interval(s_w, n_w), wilson_interval(s_o, n_o),
                         proportion_difference(s_w, n_w, s_o, n_o)))  # fmt: skip
    return Snowball(after_win, after_other, difference, per_step)


def _rows(con: Any, sql: str, key: str) -> list[tuple]:
    return con.execute(sql, [key]).fetchall()


def analyse_campaigns(con: Any, key: str, seeds: range | None = None) -> CampaignAnalysis:
    """Analyse the stored campaigns of run ``key`` (only ``seeds`` when given)."""
    runs = _rows(con, "SELECT seed, campaign, blue, red, policy, result, steps_played, steps, won, "
                 "lost, draw, skipped FROM campaign_runs WHERE run_key = ? ORDER BY seed", key)  # fmt: skip
    if seeds is not None:
        runs = [r for r in runs if r[0] in seeds]
    chosen = {r[0] for r in runs}

    def pick(rows: list[tuple]) -> list[tuple]:
        return [r for r in rows if r[0] in chosen]

    steps_rows = pick(_rows(con, "SELECT seed, step, result FROM campaign_steps WHERE run_key = ? "
                            "ORDER BY seed, step", key))  # fmt: skip
    fates = pick(_rows(con, "SELECT seed, step, outcome, retired FROM campaign_fates "
                       "WHERE run_key = ?", key))  # fmt: skip
    advances = pick(_rows(con, "SELECT seed, step, advance FROM campaign_advances "
                          "WHERE run_key = ?", key))  # fmt: skip
    roster = pick(_rows(con, "SELECT seed, step, status, might, agility, wit, resolve, mettle "
                        "FROM campaign_roster WHERE run_key = ?", key))  # fmt: skip
    models = pick(_rows(con, "SELECT seed, missions, status FROM campaign_models WHERE run_key = ?",
                        key))  # fmt: skip
    n = len(runs)
    first = runs[0] if runs else (0, key.split("|")[0], "", "", "", "", 0, 0)
    horizon = max((r[7] for r in runs), default=0)
    results = dict(sorted(Counter(r[5] for r in runs).items()))

    survival = kaplan_meier([r[6] for r in runs], [r[5] in LOST_RESULTS for r in runs], horizon)
    fought = [m for m in models if m[1] > 0]
    model_survival = kaplan_meier(
        [m[1] for m in fought],
        [m[2] == "dead" for m in fought],
        max((m[1] for m in fought), default=0),
    )

    by_step: dict[int, list[str]] = {}
    by_seed: dict[int, dict[int, str]] = {}
    for seed, step, result in steps_rows:
        by_step.setdefault(step, []).append(result)
        by_seed.setdefault(seed, {})[step] = result
    win_rates = []
    for step in sorted(by_step):
        outcomes = by_step[step]
        played = [o for o in outcomes if o != "skipped"]
        win_rates.append((step, wilson_interval(played.count("won"), len(played)), len(outcomes)))

    lengths = Counter((r[6], r[5]) for r in runs)

    casualties = []
    for step in sorted(by_step):
        here = [f for f in fates if f[1] == step]
        casualties.append(StepCasualties(
            step, len(by_step[step]),
            dead=sum(1 for f in here if f[2] == "dead"),
            injured=sum(1 for f in here if f[2] == "injury" and not f[3]),
            convalescing=sum(1 for f in here if f[2] == "convalesce"),
            retired=sum(1 for f in here if f[3]),
        ))  # fmt: skip

    growth = []
    for step in sorted({r[1] for r in roster}):
        living = [r for r in roster if r[1] == step and r[2] in ("fit", "convalescing")]
        if not living:
            continue
        row: dict[str, float] = {"step": step, "models": len(living) / max(1, n)}
        for j, name in enumerate((*ATTRIBUTES, "mettle")):
            row[name] = float(np.mean([r[3 + j] for r in living]))
        row["total"] = sum(row[a] for a in ATTRIBUTES)
        growth.append(row)

    # Next-mission wins after a step that bought an advance of a kind, against the rest.
    bought: dict[tuple[int, int], Counter] = {}
    for seed, step, advance in advances:
        bought.setdefault((seed, step), Counter())[advance] += 1
    nexts = []
    for seed, results_by_step in by_seed.items():
        for step in results_by_step:
            following = results_by_step.get(step + 1)
            if following is not None and following != "skipped":
                nexts.append((bought.get((seed, step), Counter()), following == "won"))
    uses = []
    for advance, chosen in Counter(a[2] for a in advances).most_common():
        took = [won for kinds, won in nexts if advance in kinds]
        rest = [won for kinds, won in nexts if advance not in kinds]
        uses.append(AdvanceUse(
            advance, chosen, len({(a[0]) for a in advances if a[2] == advance}),
            wilson_interval(sum(took), len(took)), wilson_interval(sum(rest), len(rest)),
            proportion_difference(sum(took), len(took), sum(rest), len(rest)),
        ))  # fmt: skip

    pairs: dict[int, list[tuple[int, bool, bool]]] = {}
    for seed, results_by_step in by_seed.items():
        pairs[seed] = [
            (k, r == "won", results_by_step[k + 1] == "won")
            for k, r in sorted(results_by_step.items())
            if r != "skipped" and results_by_step.get(k + 1, "skipped") != "skipped"
        ]
    won = np.array([float(r[8]) for r in runs])
    played = np.array([float(r[8] + r[9] + r[10]) for r in runs])
    return CampaignAnalysis(
        run_key=key, campaign=first[1], blue=first[2], red=first[3], policy=first[4],
        campaigns=n, steps=horizon, results=results, survival=survival,
        model_survival=model_survival, win_rates=win_rates, lengths=dict(lengths),
        casualties=casualties, growth=growth, advances=uses, snowball=snowball(pairs),
        completion=wilson_interval(sum(1 for r in runs if r[5] not in LOST_RESULTS), n),
        mission_win=mission_win_rate(won, played),
    )  # fmt: skip


def run_keys(con: Any) -> list[str]:
    """The run keys stored in a campaign database, in order."""
    return [r[0] for r in con.execute(
        "SELECT DISTINCT run_key FROM campaign_runs ORDER BY run_key").fetchall()]  # fmt: skip


__all__ = [
    "LOST_RESULTS",
    "AdvanceUse",
    "CampaignAnalysis",
    "Snowball",
    "StepCasualties",
    "SurvivalPoint",
    "analyse_campaigns",
    "kaplan_meier",
    "mission_win_rate",
    "run_keys",
    "snowball",
]
