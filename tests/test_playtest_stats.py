"""Intervals, paired differences and the always-valid sequential test."""

from __future__ import annotations

import math

import numpy as np
import pytest

from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.stats import (
    confidence_sequence,
    mean_interval,
    paired_difference,
    wilson_interval,
)


def test_wilson_matches_the_closed_form():
    k, n, z = 7, 20, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    got = wilson_interval(k, n)
    assert got.value == pytest.approx(0.35)
    assert got.low == pytest.approx(centre - half, abs=1e-9)
    assert got.high == pytest.approx(centre + half, abs=1e-9)


def test_wilson_edges_and_bad_counts():
    assert wilson_interval(0, 10).low == 0.0 and wilson_interval(10, 10).high == 1.0
    empty = wilson_interval(0, 0)
    assert empty.n == 0 and (empty.low, empty.high) == (0.0, 1.0)
    with pytest.raises(PlaytestError, match="successes"):
        wilson_interval(5, 3)
    with pytest.raises(PlaytestError, match="confidence"):
        wilson_interval(1, 3, confidence=1.5)


def test_mean_interval_uses_student_t():
    got = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 3.182446305284263 * np.std([1, 2, 3, 4], ddof=1) / 2
    assert got.value == 2.5
    assert got.high - got.value == pytest.approx(half)
    assert math.isnan(mean_interval([]).value)


def test_paired_difference_needs_equal_lengths():
    got = paired_difference([1, 1, 0, 1], [0, 1, 0, 0])
    assert got.value == 0.5 and got.n == 4
    with pytest.raises(PlaytestError, match="same seeds"):
        paired_difference([1, 0], [1])


def test_confidence_sequence_keeps_its_error_rate_under_the_null():
    # 120 experiments with no true difference, each looked at after every game up to 250:
    # an always-valid 95% sequence may wrongly exclude 0 in at most ~5% of them.
    rng = np.random.default_rng(2024)
    false_alarms = 0
    for _ in range(120):
        base = rng.random(250) < 0.5
        variant = rng.random(250) < 0.5
        d = variant.astype(float) - base.astype(float)
        if confidence_sequence(d, alpha=0.05).significant:
            false_alarms += 1
    assert false_alarms <= 6


def test_confidence_sequence_detects_a_real_difference_and_contains_the_mean():
    rng = np.random.default_rng(7)
    shared = rng.random(400)  # common random numbers: both arms see the same luck
    base = (shared < 0.4).astype(float)
    variant = (shared < 0.7).astype(float)
    result = confidence_sequence(variant - base, alpha=0.05)
    assert result.significant and result.low > 0
    assert result.low <= result.mean <= result.high


def test_confidence_sequence_bad_input():
    with pytest.raises(PlaytestError, match="alpha"):
        confidence_sequence([0.0], alpha=0)
    with pytest.raises(PlaytestError, match=r"\[-1, 1\]"):
        confidence_sequence([2.0])
    assert not confidence_sequence([]).significant
