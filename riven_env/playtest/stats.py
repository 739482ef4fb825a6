"""Statistics for playtests: rates, means, paired differences and a sequential test.

* Rates (win, draw) get 95% **Wilson score** intervals (scipy's ``binomtest``), which stay
  sensible near 0% and 100% and for small samples, unlike the normal approximation.
* Means get Student-t intervals.
* Rule variants are compared on the **same seeds** (common random numbers), so the per-seed
  differences are paired and their mean gets a paired t interval; pairing removes the luck
  both arms share and needs far fewer games than comparing two independent samples.
* ``--until-significant`` uses an **always-valid confidence sequence** for the mean paired
  difference (Waudby-Smith & Ramdas 2023, "Estimating means of bounded random variables by
  betting", hedged capital process with predictable plug-in bets). The sequence may be
  checked after every batch and the run stopped as soon as it excludes 0: the chance of
  ever wrongly declaring a difference is at most ``alpha`` however often one looks (Ville's
  inequality), which a fixed-sample test checked repeatedly does not give.

scipy is imported lazily (it is part of the ``playtest`` extra).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from riven_env.extras import require
from riven_env.playtest.errors import PlaytestError

DEFAULT_CONFIDENCE = 0.95
# Points on which the confidence sequence is evaluated between -1 and +1: the reported
# bounds are exact to half a grid step (0.001 in win-rate difference).
CS_GRID_POINTS = 2001
# Largest bet as a fraction of the most the capital can lose on one game: below 1 so
# that the capital never reaches 0 (Waudby-Smith & Ramdas use 1/2 or 3/4).
CS_MAX_BET = 0.75


@dataclass(frozen=True)
class Interval:
    """An estimate with a two-sided confidence interval.

    Attributes:
        value: The point estimate (rate, mean or difference).
        low: Lower bound.
        high: Upper bound.
        n: Sample size it rests on.
    """

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        """Return ``{"value", "low", "high", "n"}``."""
        return asdict(self)

    def excludes(self, point: float = 0.0) -> bool:
        """Whether ``point`` lies outside the interval."""
        return point < self.low or point > self.high


def _stats():
    return require("scipy.stats", "playtest", "playtest statistics")


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise PlaytestError(
            f"confidence={confidence!r} is not allowed; allowed: 0 < confidence < 1"
        )


def wilson_interval(
    successes: int, trials: int, confidence: float = DEFAULT_CONFIDENCE
) -> Interval:
    """Wilson score interval for a proportion.

    Args:
        successes: Number of successes (for example blue wins).
        trials: Number of trials (games). With 0 trials the interval is [0, 1].
        confidence: Confidence level.

    Returns:
        The rate with its interval.

    Raises:
        PlaytestError: Counts are negative or successes exceed trials.
    """
    _check_confidence(confidence)
    if trials < 0 or successes < 0 or successes > trials:
        raise PlaytestError(
            f"successes={successes}, trials={trials} are not allowed; "
            "allowed: 0 <= successes <= trials"
        )
    if trials == 0:
        return Interval(value=math.nan, low=0.0, high=1.0, n=0)
    ci = (
        _stats()
        .binomtest(successes, trials)
        .proportion_ci(confidence_level=confidence, method="wilson")
    )
    return Interval(value=successes / trials, low=float(ci.low), high=float(ci.high), n=trials)


def mean_interval(values: Sequence[float], confidence: float = DEFAULT_CONFIDENCE) -> Interval:
    """Mean with a Student-t confidence interval.

    Args:
        values: The sample.
        confidence: Confidence level.

    Returns:
        The mean with its interval (NaN bounds for fewer than two values; a zero-width
        interval when every value is the same).
    """
    _check_confidence(confidence)
    data = np.asarray(values, dtype=float)
    n = int(data.size)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = float(data.mean())
    if n == 1:
        return Interval(mean, math.nan, math.nan, 1)
    sem = float(data.std(ddof=1)) / math.sqrt(n)
    half = float(_stats().t.ppf(0.5 + confidence / 2, n - 1)) * sem
    return Interval(mean, mean - half, mean + half, n)


def paired_difference(
    variant: Sequence[float], baseline: Sequence[float], confidence: float = DEFAULT_CONFIDENCE
) -> Interval:
    """Mean of per-seed differences ``variant - baseline`` with a paired t interval.

    Args:
        variant: One value per seed under the variant (1/0 for a win, or rounds).
        baseline: The values on the same seeds under the baseline, in the same order.
        confidence: Confidence level.

    Returns:
        The mean difference with its interval.

    Raises:
        PlaytestError: The two samples differ in length.
    """
    if len(variant) != len(baseline):
        raise PlaytestError(
            f"paired samples differ in length: variant {len(variant)}, baseline {len(baseline)}; "
            "both arms must play the same seeds"
        )
    diffs = np.asarray(variant, dtype=float) - np.asarray(baseline, dtype=float)
    return mean_interval(diffs, confidence)


@dataclass(frozen=True)
class SequentialResult:
    """State of the always-valid test after the games seen so far.

    Attributes:
        n: Paired games seen.
        mean: Mean paired difference.
        low: Lower bound of the confidence sequence.
        high: Upper bound of the confidence sequence.
        significant: Whether the sequence excludes 0 (stop: the difference is real).
        alpha: Error rate the sequence controls.
    """

    n: int
    mean: float
    low: float
    high: float
    significant: bool
    alpha: float

    def to_dict(self) -> dict[str, float | int | bool]:
        """Return the fields as a dict."""
        return asdict(self)


def confidence_sequence(differences: Sequence[float], alpha: float = 0.05) -> SequentialResult:
    """Always-valid confidence sequence for the mean of paired differences in [-1, 1].

    The differences are mapped to ``x = (d + 1) / 2`` in [0, 1]. For each candidate mean
    ``m`` on a grid, two gamblers bet on ``x > m`` and ``x < m`` with predictable plug-in
    stakes; ``m`` is rejected once their hedged capital reaches ``1 / alpha`` at any time so
    far. By Ville's inequality the true mean is rejected with probability at most
    ``alpha`` over the whole, unbounded sequence, so the result may be checked after every
    batch ("until significant") without inflating the error rate. Stakes shrink with the
    observed variance, so identical outcomes on both arms (common random numbers) make the
    sequence narrow quickly.

    Args:
        differences: Paired differences in order of play, each in [-1, 1] (a win
            indicator difference; other bounded measures must be scaled first).
        alpha: Error rate (0.05 gives 95% coverage).

    Returns:
        The current :class:`SequentialResult`.

    Raises:
        PlaytestError: ``alpha`` is outside (0, 1) or a difference is outside [-1, 1].
    """
    if not 0.0 < alpha < 1.0:
        raise PlaytestError(f"alpha={alpha!r} is not allowed; allowed: 0 < alpha < 1")
    d = np.asarray(differences, dtype=float)
    if d.size and (d.min() < -1.0 or d.max() > 1.0):
        raise PlaytestError("paired differences must lie in [-1, 1]; scale the measure first")
    n = int(d.size)
    if n == 0:
        return SequentialResult(0, math.nan, -1.0, 1.0, False, alpha)
    x = (d + 1.0) / 2.0
    # Predictable plug-in mean and variance (each bet uses only earlier games).
    t = np.arange(1, n + 1, dtype=float)
    mu_hat = (0.5 + np.cumsum(x)) / (t + 1.0)
    var_hat = (0.25 + np.cumsum((x - mu_hat) ** 2)) / (t + 1.0)
    var_prev = np.concatenate(([0.25], var_hat[:-1]))
    stake = np.sqrt(2.0 * math.log(2.0 / alpha) / (var_prev * t * np.log(t + 1.0)))
    grid = np.linspace(0.0, 1.0, CS_GRID_POINTS)[1:-1]
    # Truncation keeps each factor positive: lambda * |x - m| <= CS_MAX_BET.
    up = np.minimum(stake[:, None], CS_MAX_BET / grid[None, :])
    down = np.minimum(stake[:, None], CS_MAX_BET / (1.0 - grid[None, :]))
    centred = x[:, None] - grid[None, :]
    log_up = np.cumsum(np.log1p(up * centred), axis=0)
    log_down = np.cumsum(np.log1p(-down * centred), axis=0)
    capital = 0.5 * np.exp(log_up) + 0.5 * np.exp(log_down)
    rejected = (capital >= 1.0 / alpha).any(axis=0)
    kept = grid[~rejected]
    if kept.size == 0:  # every grid point rejected: collapse onto the running mean
        low = high = float(x.mean())
    else:
        low, high = float(kept.min()), float(kept.max())
    low_d, high_d = 2.0 * low - 1.0, 2.0 * high - 1.0
    return SequentialResult(
        n=n,
        mean=float(d.mean()),
        low=low_d,
        high=high_d,
        significant=bool(low_d > 0.0 or high_d < 0.0),
        alpha=alpha,
    )


def _wilson_bounds(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    interval = wilson_interval(successes, trials, confidence)
    return interval.low, interval.high


def paired_proportion_difference(
    first: Sequence[bool | int | float],
    second: Sequence[bool | int | float],
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval:
    """Difference of two paired proportions with Newcombe's square-and-add interval.

    ``first[i]`` and ``second[i]`` are the outcomes (1 = success) of the two arms on the same
    seed ``i``: a best responder's win and the Oracle mirror's win from the same seat, say.
    The interval is Newcombe's (1998, method 10, the one Fagerland, Lydersen & Laake
    recommend for the paired 2x2 table): the scipy Wilson intervals of both marginal rates,
    combined by squaring and adding with the estimated correlation of the pairs (with
    Newcombe's continuity adjustment of that correlation). Unlike a paired t interval it
    stays inside [-1, 1] and is not of zero width when every pair agrees.

    Args:
        first: Outcomes of the first arm, one per seed (0/1 or booleans).
        second: Outcomes of the second arm on the same seeds, in the same order.
        confidence: Confidence level.

    Returns:
        ``rate(first) - rate(second)`` with its interval; ``n`` is the number of pairs
        (NaN value and the whole [-1, 1] with no pairs).

    Raises:
        PlaytestError: The arms differ in length or an outcome is not 0 or 1.
    """
    if len(first) != len(second):
        raise PlaytestError(
            f"paired samples differ in length: first {len(first)}, second {len(second)}; "
            "both arms must play the same seeds"
        )
    a = np.asarray(first, dtype=float)
    b = np.asarray(second, dtype=float)
    if not np.isin(a, (0.0, 1.0)).all() or not np.isin(b, (0.0, 1.0)).all():
        raise PlaytestError("paired proportions need outcomes of 0 or 1 (a win, or not)")
    n = int(a.size)
    if n == 0:
        return Interval(math.nan, -1.0, 1.0, 0)
    both = int(((a == 1) & (b == 1)).sum())
    only_first = int(((a == 1) & (b == 0)).sum())
    only_second = int(((a == 0) & (b == 1)).sum())
    neither = n - both - only_first - only_second
    k1, k2 = both + only_first, both + only_second
    p1, p2 = k1 / n, k2 / n
    l1, u1 = _wilson_bounds(k1, n, confidence)
    l2, u2 = _wilson_bounds(k2, n, confidence)
    margins = k1 * (n - k1) * k2 * (n - k2)
    phi = 0.0
    if margins > 0:
        cross = both * neither - only_first * only_second
        if cross > n / 2:
            phi = (cross - n / 2) / math.sqrt(margins)
        elif cross < 0:
            phi = cross / math.sqrt(margins)
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)))
    above = math.sqrt(max(0.0, (p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1)))
    d = p1 - p2
    return Interval(d, max(-1.0, d - below), min(1.0, d + above), n)


def proportion_difference(
    successes_1: int,
    trials_1: int,
    successes_2: int,
    trials_2: int,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval:
    """Difference of two independent proportions with Newcombe's hybrid score interval.

    ``successes_1 / trials_1 - successes_2 / trials_2`` (a rule's firing rate in the games
    the Oracle lost minus its rate in the games it did not lose), with the interval built
    from the scipy Wilson intervals of both rates (Newcombe 1998, independent samples,
    method 10).

    Returns:
        The difference with its interval; ``n`` is ``trials_1 + trials_2``. With no trials
        on a side the value is NaN and the interval [-1, 1].
    """
    if trials_1 <= 0 or trials_2 <= 0:
        return Interval(math.nan, -1.0, 1.0, max(0, trials_1) + max(0, trials_2))
    p1, p2 = successes_1 / trials_1, successes_2 / trials_2
    l1, u1 = _wilson_bounds(successes_1, trials_1, confidence)
    l2, u2 = _wilson_bounds(successes_2, trials_2, confidence)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    return Interval(d, max(-1.0, low), min(1.0, high), trials_1 + trials_2)
