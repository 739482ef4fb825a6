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

    def __getstate__(self) -> dict[str, Any]:  # the core's encoder is built again when used
        return {**self.__dict__, "_found": None}

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


def native_pair_encoder(entity: Any, statics: Any) -> Any:
    """The core's pair encoder (``riven_env._native.PairEncoder``) of an :class:`EntityEncoder`.

    Args:
        entity: The Python :class:`~riven_env.encoding.entity.EntityEncoder` (its layout, rules
            value ``distances.charge_reach_factor`` and ``entity.charge_paths``).
        statics: The native ``GameStatic`` of the game it encodes.
    """
    from riven_env.native import load
    from riven_env.table.measure import CONTACT_TOL

    native = load()
    spec = native.PairSpec()
    spec.models_per_side = entity.layout.models_per_side
    spec.charge_reach_factor = float(entity._charge_factor)
    spec.charge_paths = bool(entity._charge_paths)
    spec.contact_tolerance = float(CONTACT_TOL)
    return native.PairEncoder(spec, statics)


class EntityRows:
    """The native batch's entity rows as :class:`EntityEncoder` Dict observations.

    A row of the batch in entity mode is the flat vector (``models``, ``objectives``,
    ``global``), the ``pairs`` block and the action mask as 0/1 floats; the ``terrain`` rows
    depend on the table and the side only and are built here once per side
    (:func:`~riven_env.encoding.entity.terrain_rows`), then picked by each row's learner side.

    Args:
        entity: The Python EntityEncoder.
        table: The Python table of the scenario.
    """

    def __init__(self, entity: Any, table: Any) -> None:
        from riven_env.encoding.entity import terrain_rows

        base = entity.base
        self.entity = entity
        self.splits = (*base._flat_splits, base.flat_size)
        self.pairs_shape = entity._pairs_shape
        self.pairs_end = self.splits[2] + int(np.prod(self.pairs_shape))
        self.models_shape = base._models_shape
        self.objectives_shape = base._objectives_shape
        entity._check_terrain(table)
        self.terrain = np.stack(
            [terrain_rows(table, side, entity.terrain_slots) for side in SIDES]
        )  # (2, T, F_t), by side index

    def split(self, rows: np.ndarray, sides: np.ndarray) -> dict[str, np.ndarray]:
        """The Dict of ``rows`` (N, row size) whose learners play ``sides`` (N, 0 blue 1 red)."""
        n = rows.shape[0]
        split_models, split_objectives, flat = self.splits
        return {
            "models": rows[:, :split_models].reshape(n, *self.models_shape).copy(),
            "objectives": rows[:, split_models:split_objectives]
            .reshape(n, *self.objectives_shape)
            .copy(),
            "global": rows[:, split_objectives:flat].copy(),
            "pairs": rows[:, flat : self.pairs_end].reshape(n, *self.pairs_shape).copy(),
            "terrain": self.terrain[np.asarray(sides, dtype=np.intp)],
            "action_mask": rows[:, self.pairs_end :].astype(np.int8),
        }


class NativeEntityEncoder:
    """The core twin of a Python :class:`EntityEncoder` for native states.

    The flat blocks and the pair block come from the core; the terrain rows are the Python
    encoder's (static per table and side) and the mask is the caller's, as
    :meth:`EntityEncoder.encode` takes it.

    Args:
        entity: The Python EntityEncoder.
    """

    def __init__(self, entity: Any) -> None:
        self.python = entity
        self.flat = NativeFlatEncoder(entity.base)
        self._pairs: tuple[Any, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:  # the core's pair encoder is built again when used
        return {**self.__dict__, "_pairs": None}

    def encode(
        self, state: Any, side: str, mask: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """The entity observation of ``state`` (a NativeGameState) for ``side``."""
        entity = self.python
        obs = self.flat.encode(state, side)
        found = self._pairs
        if found is None or found[0] is not state.model:
            found = self._pairs = (state.model, native_pair_encoder(entity, state.native.statics))
        pairs = np.empty(found[1].size, dtype=np.float32)
        found[1].encode_into(state.model, state.native, SIDES.index(side), pairs)
        obs["pairs"] = pairs.reshape(entity._pairs_shape)
        obs["terrain"] = entity._terrain_block(state.start_state.table, side).copy()
        action_mask = np.zeros(entity.actions, dtype=np.int8)
        if mask is not None:
            action_mask[: len(mask)] = mask
        obs["action_mask"] = action_mask
        return obs
