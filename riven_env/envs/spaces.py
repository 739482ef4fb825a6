"""Gymnasium spaces built from the encoder's plain-data space spec."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from riven_env.encoding import ObservationEncoder


def box(entry: dict) -> spaces.Box:
    """A Box from one entry of :meth:`ObservationEncoder.space_spec`."""
    dtype = np.dtype(entry["dtype"])
    return spaces.Box(
        low=dtype.type(entry["low"]),
        high=dtype.type(entry["high"]),
        shape=tuple(entry["shape"]),
        dtype=dtype.type,
    )


def observation_space(encoder: ObservationEncoder, mode: str) -> spaces.Space:
    """The observation space of ``mode``: ``"dict"`` or ``"entity"`` (a Dict of Boxes, from
    an ObservationEncoder or an EntityEncoder) or ``"flat"`` (a Box)."""
    spec = encoder.space_spec()
    if mode == "flat":
        return spaces.Box(low=-1.0, high=1.0, shape=(encoder.flat_size,), dtype=np.float32)
    return spaces.Dict({key: box(entry) for key, entry in spec.items()})


def mask_space(size: int) -> spaces.Box:
    """The space of an ``int8`` action mask of ``size`` entries."""
    return spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
