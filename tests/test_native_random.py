"""The core's random stream is numpy's, bit for bit (cpp/riven/rules/pcg64.hpp)."""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.native import available
from riven_env.native.random import native_stream, numpy_state, to_generator

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, 2**63 - 1])
def test_integers_match_numpy_for_every_range_the_game_draws(seed: int) -> None:
    reference = np.random.default_rng(seed)
    stream = native_stream(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    for _ in range(5000):
        low = int(rng.integers(-3, 3))
        high = low + int(rng.choice([1, 2, 3, 6, 7, 10, 13, 100, 2**31, 2**32]))
        assert stream.integers(low, high) == int(reference.integers(low, high))
    assert numpy_state(stream) == reference.bit_generator.state


def test_raw_draws_and_the_buffered_half_match_numpy() -> None:
    reference = np.random.default_rng(99)
    stream = native_stream(np.random.default_rng(99))
    words = reference.bit_generator.random_raw(50)
    assert [stream.next_uint64() for _ in range(50)] == [int(w) for w in words]
    # next_uint32 keeps the upper half of a 64-bit draw for the next call, as numpy does.
    reference_halves = np.random.default_rng(5).integers(0, 2**32, size=9, dtype=np.uint64)
    stream = native_stream(np.random.default_rng(5))
    assert [stream.next_uint32() for _ in range(9)] == [int(v) for v in reference_halves]


def test_state_round_trips_mid_stream_with_a_pending_half() -> None:
    reference = np.random.default_rng(3)
    reference.integers(1, 7)  # leaves has_uint32 set
    assert reference.bit_generator.state["has_uint32"] == 1
    stream = native_stream(reference)
    back = to_generator(stream)
    assert back.bit_generator.state == reference.bit_generator.state
    assert [int(back.integers(1, 7)) for _ in range(20)] == [
        stream.integers(1, 7) for _ in range(20)
    ]


def test_dice_match_the_python_dice_helpers() -> None:
    from riven_env._native import roll_dice

    from riven_env.rules.dice import roll_dice as python_roll_dice

    reference = np.random.default_rng(11)
    stream = native_stream(np.random.default_rng(11))
    for count in range(0, 8):
        assert tuple(roll_dice(stream, count)) == python_roll_dice(reference, count)


def test_bad_ranges_are_refused() -> None:
    stream = native_stream(np.random.default_rng(0))
    with pytest.raises(ValueError):
        stream.integers(3, 3)
    with pytest.raises(ValueError):
        stream.integers(5, 2)


def test_wide_ranges_are_numpys() -> None:
    # Ranges above 2**32 take numpy's 64-bit Lemire draw (an MCTS simulation's seed, the batch's
    # game seeds), between narrow ones that use the buffered 32-bit halves.
    reference = np.random.default_rng(11)
    stream = native_stream(np.random.default_rng(11))
    for high in (2**33, 6, 2**62, 2**63 - 1, 3, 2**40 + 7, 2**32, 2**32 + 1):
        expected = [int(reference.integers(0, high)) for _ in range(20)]
        assert [stream.integers(0, high) for _ in range(20)] == expected, high
    assert stream.integers(-(2**63), 2**63 - 1) == int(reference.integers(-(2**63), 2**63 - 1))
