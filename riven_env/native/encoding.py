"""The Python side of the native observation encoder and action mask (``cpp/riven/encoding``).

:class:`NativeEncoder` mirrors a Python :class:`~riven_env.encoding.ObservationEncoder` (the same
layout, encoding data and rules values) and gives the same arrays from the core: one state at a
time (:meth:`NativeEncoder.encode_flat`, :meth:`NativeEncoder.encode`) or a batch written into a
preallocated array with the GIL released (:meth:`NativeEncoder.encode_batch`).
:class:`NativeCatalogue` mirrors an :class:`~riven_env.encoding.ActionCatalogue`: the same
entries and labels, and the mask of native decisions.

Line of sight from each model's nearest enemy (the cover columns) is a table query: until the
core's own table queries take over, the wrapper asks the Python table for the pairs the core
names (:meth:`NativeEncoder.sight_codes`, through the Python encoder's cache), and the terrain
layers of the raster are the Python table's (``raster.terrain_layers``), prepared once per table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from riven_env.encoding.catalogue import DESTINATION_KINDS_BY_ACTION, ActionCatalogue
from riven_env.encoding.config import CatalogueError
from riven_env.encoding.constants import KEYWORD_FEATURES
from riven_env.encoding.observation import ObservationEncoder
from riven_env.game.decisions import Decision
from riven_env.game.state import SIDES
from riven_env.native import load
from riven_env.native.game import NativeStateError, native_static, to_native
from riven_env.rules import action_specs
from riven_env.rules.resolution import get_resolution
from riven_env.scenario import OBJECTIVE_KINDS
from riven_env.table.measure import CONTACT_TOL

__all__ = ["COVER_CODES", "NativeCatalogue", "NativeEncoder", "native_decision"]

COVER_CODES = {"none": 0, "soft": 1, "hard": 2}
"""``riven::encoding::SightCode`` of a visible target's cover (-1: not seen)."""


class NativeEncoder:
    """The core's twin of ``encoder`` (a Python :class:`ObservationEncoder`).

    Args:
        encoder: The Python encoder whose layout, data and rules it takes.
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.python = encoder
        self._native: dict[int, tuple[Any, Any]] = {}  # id(GameStatic) -> (static, encoder)

    def spec(self) -> Any:
        """The core ``EncoderSpec`` of the Python encoder."""
        enc = self.python
        spec = load().EncoderSpec()
        spec.models_per_side = enc.layout.models_per_side
        spec.objectives = enc.layout.objectives
        scales = load().EncodingScales()
        for key, value in enc.config.scales.items():
            setattr(scales, key, float(value))
        spec.scales = scales
        spec.cover_vs_nearest_enemy = bool(enc.config.cover_vs_nearest_enemy)
        spec.raster = enc.raster
        spec.raster_size = int(enc.config.raster_size)
        spec.max_dice = enc._max_dice
        spec.momentum_cap = enc._momentum_cap
        spec.strain_per_wit = enc._strain_per_wit
        spec.max_spends = enc._max_spends
        spec.contact_tolerance = float(CONTACT_TOL)
        spec.objective_kinds = list(OBJECTIVE_KINDS)
        spec.keyword_features = list(KEYWORD_FEATURES)
        return spec

    def native(self, state: Any) -> Any:
        """The core encoder for ``state``'s game (a Python or a native state)."""
        st = state.statics if isinstance(state, load().GameState) else native_static(state)
        found = self._native.get(id(st))
        if found is None or found[0] is not st:
            terrain: list[float] = []
            if self.python.raster:
                if isinstance(state, load().GameState):
                    raise NativeStateError(
                        "the raster's terrain layers come from the Python table: encode a Python "
                        "state of this game first"
                    )
                terrain = self.python._terrain(state.table).ravel().tolist()
            try:
                found = (st, load().ObservationEncoder(self.spec(), st, terrain))
            except ValueError as error:
                raise NativeStateError(f"native encoder: {error}") from None
            self._native[id(st)] = found
        return found[1]

    def sight_codes(self, state: Any, native_state: Any | None = None) -> np.ndarray:
        """Per model, what its nearest active enemy sees of it (``COVER_CODES``, -1 unseen)."""
        n = len(state.models)
        codes = np.full(n, -1, dtype=np.int8)
        if not self.python.config.cover_vs_nearest_enemy:
            return codes
        native_state = to_native(state) if native_state is None else native_state
        nearest = self.native(state).nearest_enemies(native_state)
        pairs = [(j, i) for i, j in enumerate(nearest) if j >= 0]
        layout = state.bases.layout()
        answers = self.python._sight.sights(
            state.table, state.bases, pairs, layout.centers, layout.radii, layout.on_table
        )
        for (_, i), (visible, cover) in zip(pairs, answers, strict=True):
            if visible:
                codes[i] = COVER_CODES[cover]
        return codes

    def encode_flat(self, state: Any, side: str) -> np.ndarray:
        """``ObservationEncoder.encode_flat`` of a Python state, by the core."""
        native_state = to_native(state)
        return self.encode_native(state, native_state, side)

    def encode_native(self, state: Any, native_state: Any, side: str) -> np.ndarray:
        """The flat observation of ``native_state`` (the export of Python ``state``)."""
        codes = self.sight_codes(state, native_state)
        try:
            return self.native(state).encode(native_state, SIDES.index(side), codes)
        except ValueError as error:
            raise NativeStateError(f"native encoder: {error}") from None

    def encode(self, state: Any, side: str) -> dict[str, np.ndarray]:
        """``ObservationEncoder.encode`` of a Python state, by the core."""
        native_state = to_native(state)
        flat = self.encode_native(state, native_state, side)
        enc = self.python
        split_models, split_objectives = enc._flat_splits
        obs = {
            "models": flat[:split_models].reshape(enc._models_shape),
            "objectives": flat[split_models:split_objectives].reshape(enc._objectives_shape),
            "global": flat[split_objectives:],
        }
        if enc.raster:
            size = enc.config.raster_size
            out = np.empty((1, len(enc.raster_channels), size, size), dtype=np.uint8)
            self.native(state).encode_raster_into([native_state], [SIDES.index(side)], out)
            obs["raster"] = out[0]
        return obs

    def encode_batch(
        self,
        native_states: Sequence[Any],
        sides: Sequence[str],
        sight: np.ndarray,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """Encode N native states of one game's scenario at once (the GIL released).

        Args:
            native_states: Core ``GameState`` values (one static part, see :meth:`native`).
            sides: The observing side of each.
            sight: ``(N, models)`` int8 sight codes (:meth:`sight_codes`).
            out: ``(N, flat_size)`` float32 to write into (default: a new array).

        Returns:
            ``out``.
        """
        if not native_states:
            raise NativeStateError("encode_batch: no states")
        encoder = self.native(native_states[0])
        if out is None:
            out = np.empty((len(native_states), encoder.flat_size), dtype=np.float32)
        try:
            encoder.encode_into(
                list(native_states),
                [SIDES.index(s) for s in sides],
                np.ascontiguousarray(sight, dtype=np.int8),
                out,
            )
        except (ValueError, TypeError) as error:
            raise NativeStateError(f"encode_batch: {error}") from None
        return out


_VOCABULARIES: dict[int, tuple[Any, dict, dict, dict]] = {}
_VOCABULARY_LIMIT = 64


def _vocabulary(static: Any) -> tuple[dict, dict, dict]:
    """``(kinds, destination kinds, options)`` name -> id of a ``GameStatic`` (remembered: its
    fields are copied into Python lists on every read)."""
    found = _VOCABULARIES.get(id(static))
    if found is None or found[0] is not static:
        kinds_list = list(load().DECISION_POINT_KINDS) + list(static.actions)
        kinds: dict[str, int] = {}
        for k, name in enumerate(kinds_list):
            kinds.setdefault(name, k)
        if len(_VOCABULARIES) >= _VOCABULARY_LIMIT:
            _VOCABULARIES.clear()
        found = _VOCABULARIES[id(static)] = (
            static,
            kinds,
            {name: k for k, name in enumerate(static.destination_kinds)},
            {name: k for k, name in enumerate(static.options)},
        )
    return found[1], found[2], found[3]


def native_decision(decision: Decision, static: Any) -> Any:
    """The core ``Decision`` of a Python one (ids into the game's static vocabularies).

    Raises:
        CatalogueError: A kind, option or destination kind that the game's vocabulary lacks.
    """
    kinds, destinations, options = _vocabulary(static)
    kind_id = kinds.get(decision.kind)
    if kind_id is None:
        raise CatalogueError(
            f"decision {decision}: kind {decision.kind!r} is not in the game's vocabulary"
        )
    dest_kind = dest_ref = -1
    if decision.destination is not None:
        name, ref = decision.destination
        dest_kind = destinations.get(name, -1)
        if dest_kind < 0:
            raise CatalogueError(f"decision {decision}: destination kind {name!r} is unknown")
        dest_ref = -1 if ref is None else int(ref)
    option = -1
    if decision.option is not None:
        option = options.get(decision.option, -1)
        if option < 0:
            raise CatalogueError(f"decision {decision}: option {decision.option!r} is unknown")
    return load().Decision(
        kind_id,
        -1 if decision.model is None else decision.model,
        -1 if decision.dice is None else decision.dice,
        -1 if decision.target is None else decision.target,
        dest_kind,
        dest_ref,
        option,
    )


class NativeCatalogue:
    """The core's twin of ``catalogue`` (a Python :class:`ActionCatalogue`) for one game.

    Args:
        catalogue: The Python catalogue whose layout and data it takes.
        state: A Python state of the game (its static vocabularies).
    """

    def __init__(self, catalogue: ActionCatalogue, state: Any) -> None:
        native = load()
        self.python = catalogue
        self.static = native_static(state)
        spec = native.CatalogueSpec()
        spec.models_per_side = catalogue.layout.models_per_side
        spec.objectives = catalogue.layout.objectives
        spec.max_dice = int(catalogue.rules.get("activation.max_dice"))
        actions = []
        for name, action in action_specs(catalogue.rules).items():
            entry = native.CatalogueAction()
            entry.name, entry.target = name, action.target
            entry.allowed_kinds = sorted(DESTINATION_KINDS_BY_ACTION.get(name, ()))
            actions.append(entry)
        spec.actions = actions
        spec.destination_refs = [
            (kind, getattr(native.RefKind, ref))
            for kind, ref in catalogue.config.destination_refs.items()
        ]
        system = get_resolution(str(catalogue.rules.get("meta.resolution")), catalogue.rules)
        spec.choices = list(system.choice_vocabulary())
        try:
            self.native = native.ActionCatalogue(spec, self.static)
        except ValueError as error:
            raise CatalogueError(f"native catalogue: {error}") from None

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.native.labels)

    @property
    def size(self) -> int:
        return int(self.native.size)

    def mask(self, state: Any, legal: Sequence[Decision] | None = None) -> np.ndarray:
        """``ActionCatalogue.mask`` of a Python state, by the core."""
        if state.is_terminal:
            return np.zeros(self.size, dtype=bool)
        if legal is None:
            legal = state.legal_decisions()
        side = state.current_side if state.current_side is not None else state.side
        decisions = [native_decision(d, self.static) for d in legal]
        try:
            return self.native.mask(decisions, SIDES.index(side))
        except ValueError as error:
            raise CatalogueError(f"native catalogue: {error}") from None
