"""The native observation encoder and action mask (cpp/riven/encoding) equal the Python ones.

On the states after every decision of real seeded games on every bundled mission, for the
bundled encoding data and for variants of it (no cover columns, another raster size, other
scales, padded slots), the native flat vectors and rasters equal the Python ones exactly (the
same float64 arithmetic rounded once to float32, the same float32 divisions), and the masks and
catalogue labels are identical. The batched call writes the same rows into one array.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from riven_env.encoding import ActionCatalogue, ObservationEncoder
from riven_env.encoding.config import load_encoding_config
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

if available():
    from riven_env.native.encoding import NativeCatalogue, NativeEncoder
    from riven_env.native.game import NativeStateError, to_native

from native_games import game, mission_states, missions  # noqa: E402


def _variants():
    bundled = load_encoding_config()
    scales = {k: v * 1.5 + 0.25 for k, v in bundled.scales.items()}
    return {
        "bundled": (bundled, {}, True),
        "no-cover-raster-16": (
            dataclasses.replace(bundled, cover_vs_nearest_enemy=False, raster_size=16),
            {},
            True,
        ),
        "scales-padded": (dataclasses.replace(bundled, scales=scales), {"pad": True}, False),
    }


def _encoders(state, variant):
    config, options, raster = _variants()[variant]
    kwargs = {}
    if options.get("pad"):
        kwargs = {
            "models_per_side": max(len(state.side_models(s)) for s in ("blue", "red")) + 2,
            "objectives": max(1, len(state.objectives)) + 1,
        }
    python = ObservationEncoder(state, config=config, raster=raster, **kwargs)
    return python, NativeEncoder(python)


@pytest.mark.parametrize("variant", list(_variants()))
@pytest.mark.parametrize("mission", missions())
def test_observations_equal_the_python_encoder(mission: str, variant: str) -> None:
    states = mission_states(mission)
    if variant != "bundled":  # the variants on every third state
        states = states[::3]
    python, native = _encoders(states[0], variant)
    names = native.native(states[0])
    assert tuple(names.model_features) == python.model_features
    assert tuple(names.objective_features) == python.objective_features
    assert tuple(names.global_features) == python.global_features
    assert names.flat_size == python.flat_size
    for state in states:
        for side in ("blue", "red"):
            expected = python.encode(state, side)
            got = native.encode(state, side)
            assert got.keys() == expected.keys()
            for key, value in expected.items():
                assert got[key].dtype == value.dtype
                assert np.array_equal(got[key], value), (mission, variant, side, key, state)


@pytest.mark.parametrize("mission", missions())
def test_masks_and_labels_equal_the_python_catalogue(mission: str) -> None:
    states = mission_states(mission)
    # The scenario's own sizes, and padded beyond the largest bundled side (13 models).
    for kwargs in ({}, {"models_per_side": 16, "objectives": 6}):
        python = ActionCatalogue(states[0], **kwargs)
        native = NativeCatalogue(python, states[0])
        assert native.labels == python.labels
        masked = 0
        for state in states:
            expected = python.mask(state)
            assert np.array_equal(native.mask(state), expected), (mission, state)
            masked += int(expected.sum())
        assert masked > len(states) // 2


def test_each_legal_decision_has_the_python_index() -> None:
    from riven_env.native.encoding import native_decision

    states, _ = game("skirmish-5v5", "oracle", "random", 2)
    python = ActionCatalogue(states[0])
    native = NativeCatalogue(python, states[0])
    for state in states[:-1]:
        side = 0 if state.current_side == "blue" else 1
        for decision in state.legal_decisions():
            index = native.native.index_of(native_decision(decision, native.static), side)
            assert index == python.encode(decision, state)


def test_a_batch_is_encoded_into_one_preallocated_array() -> None:
    states, _ = game("skirmish-5v5", "oracle", "oracle", 0)
    python = ObservationEncoder(states[0])
    native = NativeEncoder(python)
    sides = ["blue" if k % 2 else "red" for k in range(len(states))]
    natives = [to_native(s) for s in states]
    sight = np.stack([native.sight_codes(s, n) for s, n in zip(states, natives, strict=True)])
    out = np.full((len(states), python.flat_size), np.nan, dtype=np.float32)
    assert native.encode_batch(natives, sides, sight, out) is out
    expected = np.stack(
        [python.encode_flat(s, side) for s, side in zip(states, sides, strict=True)]
    )
    assert np.array_equal(out, expected)
    with pytest.raises(NativeStateError, match="agree"):
        native.encode_batch(natives, sides[:-1], sight, out)
    with pytest.raises(NativeStateError):
        native.encode_batch(natives, sides, sight, out[:, :-1])
