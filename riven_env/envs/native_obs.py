"""Flat observations of native games, encoded by the core (``engine="native"`` environments).

The Python encoder would read a :class:`~riven_env.native.loop.NativeGameState` through its
Python view (a full export per step); this encodes the native state directly, with line of
sight and cover from the native table (``riven_env._native.encode_native``), the same arrays
as the Python encoder gives (``tests/test_native_batch.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from riven_env.encoding.layout import SIDES


class NativeFlatEncoder:
    """The core twin of a Python ``ObservationEncoder`` for native states.

    Args:
        encoder: The Python encoder (its layout, data and rules).
    """

    def __init__(self, encoder: Any) -> None:
        self.python = encoder
        self._found: tuple[Any, Any] | None = None

    def encode_flat(self, state: Any, side: str) -> np.ndarray:
        """The flat observation of ``state`` (a NativeGameState) for ``side``."""
        from riven_env.native import load
        from riven_env.native.encoding import NativeEncoder

        found = self._found
        if found is None or found[0] is not state.model:
            found = self._found = (state.model, NativeEncoder(self.python).native(state.native))
        flat = np.empty(found[1].flat_size, dtype=np.float32)
        load().encode_native(state.model, found[1], state.native, SIDES.index(side), flat)
        return flat

    def encode(self, state: Any, side: str) -> dict[str, np.ndarray]:
        """The Dict observation (models, objectives, global) of ``state`` for ``side``."""
        flat = self.encode_flat(state, side)
        enc = self.python
        split_models, split_objectives = enc._flat_splits
        return {
            "models": flat[:split_models].reshape(enc._models_shape),
            "objectives": flat[split_models:split_objectives].reshape(enc._objectives_shape),
            "global": flat[split_objectives:],
        }
