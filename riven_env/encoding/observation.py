"""The observation encoder: a game state as fixed-size arrays, seen from one side.

:meth:`ObservationEncoder.encode` returns a dict of float32 arrays, every value in
``[-1, 1]``:

* ``models``: ``(2S, F_m)``, own model slots first, then enemy slots (padding rows are 0);
* ``objectives``: ``(K, F_o)``;
* ``global``: ``(F_g,)``;
* ``raster`` (only with ``raster=True``): ``(C, R, R)`` uint8 image (0 or 255 per cell), see
  :mod:`riven_env.encoding.raster`.

Positions are side-relative: red sees the table rotated half a turn, so that a policy sees
its own deployment edge at y = 0 whichever side it plays. The feature names are
:attr:`ObservationEncoder.model_features`, ``objective_features`` and ``global_features``;
``docs/environments.md`` documents each one. The encoder imports numpy only (plus the game's
pure tabletop for line of sight).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from riven_env.encoding.config import EncodingConfig, load_encoding_config
from riven_env.encoding.constants import (
    ATTRIBUTE_FEATURES,
    CONSTANTS_LIMIT,
    KEYWORD_FEATURES,
    PROFILE_FEATURES,
    ScenarioConstants,
    SightCache,
    build_constants,
)
from riven_env.encoding.layout import SIDES, Layout, build_layout, enemy_of
from riven_env.encoding.raster import (
    RASTER_CHANNELS,
    acting_layer,
    table_raster,
    terrain_layers,
)
from riven_env.encoding.situation import (
    SITUATION_LIMIT,
    Frame,
    NearestEnemies,
    Situation,
    StatusArrays,
    nearest_enemies,
    situation_key,
    status_arrays,
)
from riven_env.game.decisions import PHASE_ACTION, PHASE_ACTIVATE, PHASE_OVER, PHASE_SPEND
from riven_env.game.model_state import ACTIVE, DOWN, EXTRACTED, FLED, OUT
from riven_env.rules import RulesConfig, action_specs, condition_specs, load_rules
from riven_env.rules.results import BANDS
from riven_env.scenario import OBJECTIVE_KINDS
from riven_env.table.measure import CONTACT_TOL

STATUSES = (ACTIVE, DOWN, OUT, FLED, EXTRACTED)
PHASES = (PHASE_ACTIVATE, PHASE_ACTION, PHASE_SPEND, PHASE_OVER)
COVERS = ("none", "soft", "hard")
# Row of each status among the status one-hot columns.
_STATUS_INDEX = {status: k for k, status in enumerate(STATUSES)}
# Model columns of the situation written in one go, in the order _build_situation writes.
_POSITION_COLUMNS = ("x", "y", "distance_nearest_enemy", "engaged", "engaged_count")
# Model columns about the acting model, in the order ObservationEncoder._with_acting writes.
_ACTING_COLUMNS = ("dx_acting", "dy_acting", "distance_acting")
# Model columns written on every call from one model field each (in this order), because
# they change without anyone moving; see ObservationEncoder._dynamic_columns.
_DYNAMIC_COLUMNS = ("wounds", "wounds_fraction", "strain_fraction", "stable", "activated")
# The model fields those columns are computed from.
_DYNAMIC_FIELDS = attrgetter("wounds", "wounds", "strain", "stable", "activated")
# Rasters one encoder remembers per scenario (each ~25 KB); the store starts afresh when
# full. Reuse is almost all between neighbouring observations.
RASTER_LIMIT = 16
_ACTING_CHANNEL = RASTER_CHANNELS.index("acting_model")


class ObservationEncoder:
    """Encodes game states of one scenario for one side at a time.

    Args:
        source: A loaded Scenario, a GameState, or a bundled scenario name or path.
        rules: Rules data (default: the game state's rules, else the bundled rules).
        models_per_side: Model slots per side (default: the larger side).
        objectives: Objective slots (default: the scenario's objectives, at least 1).
        raster: Also return the ``raster`` array.
        config: Encoding data (default: the bundled ``encoding.toml``).

    Attributes:
        model_features: Names of the ``models`` columns.
        objective_features: Names of the ``objectives`` columns.
        global_features: Names of the ``global`` entries.
        raster_channels: Names of the ``raster`` channels (empty without a raster).
    """

    def __init__(
        self,
        source: Any,
        *,
        rules: RulesConfig | None = None,
        models_per_side: int | None = None,
        objectives: int | None = None,
        raster: bool = False,
        config: EncodingConfig | None = None,
    ) -> None:
        layout, state_rules = build_layout(
            source, models_per_side=models_per_side, objectives=objectives
        )
        self.layout: Layout = layout
        self.rules: RulesConfig = rules or state_rules or load_rules()
        self.config = config or load_encoding_config()
        self.raster = bool(raster)
        self._conditions = tuple(condition_specs(self.rules))
        self._actions = tuple(name for name in action_specs(self.rules) if name != "end")
        self._max_dice = int(self.rules.get("activation.max_dice"))
        self._momentum_cap = max(1, int(self.rules.get("momentum.cap")))
        self._strain_per_wit = float(self.rules.get("strain.track_per_wit"))
        # Most spends one test can take: the reroll and boost limits plus one Strain spend.
        self._max_spends = max(
            1,
            int(self.rules.get("momentum.max_rerolls_per_test"))
            + int(self.rules.get("momentum.max_boosts_per_test"))
            + 1,
        )
        self.model_features: tuple[str, ...] = (
            "present",
            "own",
            *(f"status_{s}" for s in STATUSES),
            "x",
            "y",
            "dx_acting",
            "dy_acting",
            "distance_acting",
            "distance_nearest_enemy",
            "wounds",
            "wounds_fraction",
            "stable",
            "strain_fraction",
            *(f"condition_{c}" for c in self._conditions),
            "activated",
            "can_activate",
            "acting",
            "engaged",
            "engaged_count",
            "seen_by_nearest_enemy",
            *(f"cover_{c}" for c in COVERS),
            *PROFILE_FEATURES,
        )
        self.objective_features: tuple[str, ...] = (
            "present",
            "x",
            "y",
            "radius",
            *(f"kind_{k}" for k in OBJECTIVE_KINDS),
            "points",
            "looted",
            "own_within",
            "enemy_within",
            "controlled_own",
            "controlled_enemy",
            "distance_nearest_own",
            "distance_nearest_enemy",
        )
        self.global_features: tuple[str, ...] = (
            "round_fraction",
            "rounds_left_fraction",
            *(f"phase_{p}" for p in PHASES),
            "own_turn",
            "own_side_first",
            "second_turn_of_round",
            "actions_left",
            "turn_passes_after",
            "momentum_own",
            "momentum_enemy",
            "points_own",
            "points_enemy",
            "points_difference",
            "active_own",
            "active_enemy",
            *(f"taken_{a}" for a in self._actions),
            "pending_own",
            *(f"pending_band_{b}" for b in BANDS),
            "pending_margin",
            "pending_spends",
            *(f"pending_action_{a}" for a in self._actions),
        )
        self.raster_channels: tuple[str, ...] = RASTER_CHANNELS if self.raster else ()
        self._col = {name: k for k, name in enumerate(self.model_features)}
        self._gcol = {name: k for k, name in enumerate(self.global_features)}
        self._ocol = {name: k for k, name in enumerate(self.objective_features)}
        self._condition_index = {c: k for k, c in enumerate(self._conditions)}
        self._cover_col = {c: self._col[f"cover_{c}"] for c in COVERS}
        self._profile_start = self._col[PROFILE_FEATURES[0]]
        self._engaged_values = [
            self._engaged_count(k) for k in range(2 * self.layout.models_per_side + 1)
        ]
        self._condition_start = (
            self._col[f"condition_{self._conditions[0]}"] if self._conditions else 0
        )
        # Bounded caches (see riven_env.encoding.constants and .situation): per-scenario
        # arrays and situations, terrain raster layers per table, and line-of-sight answers
        # by base positions.
        self._scenario_cache: dict[tuple[int, int], _ScenarioEntry] = {}
        self._terrain_cache: dict[int, tuple[Any, np.ndarray]] = {}
        self._sight = SightCache()
        s2 = 2 * self.layout.models_per_side
        self._models_shape = (s2, len(self.model_features))
        self._objectives_shape = (self.layout.objectives, len(self.objective_features))
        split_models = s2 * len(self.model_features)
        split_objectives = split_models + self.layout.objectives * len(self.objective_features)
        self._flat_splits = (split_models, split_objectives)
        self._flat_length = split_objectives + len(self.global_features)

    # ------------------------------------------------------------------ spec
    def space_spec(self) -> dict[str, dict[str, Any]]:
        """Shapes, dtypes and bounds of every array :meth:`encode` returns.

        Returns:
            ``{key: {"shape": tuple, "dtype": "float32", "low": -1.0, "high": 1.0,
            "names": tuple}}`` (the raster: ``dtype "uint8"``, ``low 0``, ``high 255``); the
            environments build their spaces from it.
        """
        s2 = 2 * self.layout.models_per_side
        spec = {
            "models": {"shape": (s2, len(self.model_features)), "names": self.model_features},
            "objectives": {
                "shape": (self.layout.objectives, len(self.objective_features)),
                "names": self.objective_features,
            },
            "global": {"shape": (len(self.global_features),), "names": self.global_features},
        }
        if self.raster:
            size = self.config.raster_size
            spec["raster"] = {
                "shape": (len(RASTER_CHANNELS), size, size),
                "names": RASTER_CHANNELS,
            }
        for key, entry in spec.items():
            if key == "raster":  # an image: SB3 feeds uint8 0..255 images to a CNN
                entry.update(dtype="uint8", low=0, high=255)
            else:
                entry.update(dtype="float32", low=-1.0, high=1.0)
        return spec

    @property
    def flat_size(self) -> int:
        """Length of :meth:`flatten`'s output (the raster is not flattened)."""
        return sum(int(np.prod(v["shape"])) for k, v in self.space_spec().items() if k != "raster")

    def flatten(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """Concatenate ``models``, ``objectives`` and ``global`` into one float32 vector."""
        return np.concatenate(
            (obs["models"].ravel(), obs["objectives"].ravel(), obs["global"])
        ).astype(np.float32, copy=False)

    def encode_flat(self, state: Any, side: str) -> np.ndarray:
        """:meth:`encode` then :meth:`flatten` (without computing a raster)."""
        return self._flat(state, side)

    # ------------------------------------------------------------------ encoding
    def encode(self, state: Any, side: str) -> dict[str, np.ndarray]:
        """Encode ``state`` as seen by ``side`` (``"blue"`` or ``"red"``).

        Returns:
            ``{"models", "objectives", "global"}`` float32 arrays in ``[-1, 1]``, plus the uint8
        ``raster`` image when the encoder was built with ``raster=True``.
        """
        flat = self._flat(state, side)
        split_models, split_objectives = self._flat_splits
        obs = {
            "models": flat[:split_models].reshape(self._models_shape),
            "objectives": flat[split_models:split_objectives].reshape(self._objectives_shape),
            "global": flat[split_objectives:],
        }
        if self.raster:
            obs["raster"] = self._raster(state, side)
        return obs

    def _raster(self, state: Any, side: str) -> np.ndarray:
        """The uint8 ``raster`` of ``state`` for ``side``.

        All but the acting model's channel depend on the table, the bases, the statuses
        and the looted objectives only, which consecutive observations mostly share: that
        part is remembered by them, and the acting model's disc drawn on a copy.
        """
        entry = self._scenario(state)
        key = (
            side,
            state.bases.layout().key,
            tuple([m.status for m in state.models]),
            frozenset(state.looted),
        )
        size = self.config.raster_size
        found = entry.rasters.get(key)
        if found is None:
            if len(entry.rasters) >= RASTER_LIMIT:
                entry.rasters.clear()
            layers = table_raster(state, side, size, self._terrain(state.table), acting=False)
            found = (layers * 255).astype(np.uint8)
            entry.rasters[key] = found
        raster = found.copy()
        acting = acting_layer(state, side, size)
        if acting is not None:
            raster[_ACTING_CHANNEL] = acting * 255
        return raster

    def _flat(self, state: Any, side: str) -> np.ndarray:
        """The flat vector: the ``models``, ``objectives`` and ``global`` blocks in turn."""
        entry = self._scenario(state)
        frame = entry.frames[side]
        situation = self._situation(state, side, entry)
        acting = state.active_model
        if acting is None:
            flat = situation.vector.copy()
        else:
            vector = situation.by_acting.get(acting)
            if vector is None:
                vector = self._with_acting(situation, frame, entry.constants, acting)
                situation.by_acting[acting] = vector
            flat = vector.copy()
        self._dynamic_columns(state, frame, flat)
        split_models, split_objectives = self._flat_splits
        if state.looted:
            count = len(entry.constants.objective_radius)
            width = len(self.objective_features)
            looted = split_models + self._ocol["looted"]
            for k in state.looted:
                if k < count:
                    flat[looted + k * width] = 1.0
        self._global_vector(state, side, situation, flat[split_objectives:])
        # np.clip's Python wrapper costs more than these two ufuncs (same result).
        np.maximum(flat, -1.0, out=flat)
        np.minimum(flat, 1.0, out=flat)
        return flat

    def _terrain(self, table: Any) -> np.ndarray:
        cached = self._terrain_cache.get(id(table))
        if cached is None or cached[0] is not table:
            if len(self._terrain_cache) >= CONSTANTS_LIMIT:
                self._terrain_cache.clear()
            cached = (table, terrain_layers(table, self.config.raster_size))
            self._terrain_cache[id(table)] = cached
        return cached[1]

    def _scenario(self, state: Any) -> _ScenarioEntry:
        """The constants, frames and situations of ``state``'s scenario (built on first sight)."""
        key = (id(state.scenario), id(state.table))
        found = self._scenario_cache.get(key)
        if (
            found is not None
            and found.constants.scenario is state.scenario
            and found.constants.table is state.table
        ):
            return found
        if len(self._scenario_cache) >= CONSTANTS_LIMIT:
            self._scenario_cache.clear()
        consts = build_constants(
            state,
            self.layout,
            self.config.scales,
            self._strain_per_wit,
            self.objective_features,
        )
        found = _ScenarioEntry(consts, {side: self._frame(consts, side) for side in SIDES})
        self._scenario_cache[key] = found
        return found

    def _frame(self, consts: ScenarioConstants, side: str) -> Frame:
        """Where ``side``'s observation puts each model, and its constant entries."""
        col = self._col
        n = len(consts.profiles)
        width = len(self.model_features)
        # The constant columns of each model's row, in model order.
        model_rows = np.zeros((n, width), dtype=np.float32)
        model_rows[:, col["present"]] = 1.0
        model_rows[:, col["own"]] = consts.own[side]
        model_rows[:, self._profile_start :] = consts.profiles
        rows, sources = consts.slot_rows[side]
        row_of = np.empty(n, dtype=np.intp)
        row_of[sources] = rows
        split_models, split_objectives = self._flat_splits
        template = np.zeros(self._flat_length, dtype=np.float32)
        template[:split_models].reshape(self._models_shape)[row_of] = model_rows
        template[split_models:split_objectives] = consts.objective_rows[side].ravel()
        row_start = row_of * width
        sc = self.config.scales
        ones = np.ones(n, dtype=np.float32)
        divisors = np.column_stack(
            (
                np.full(n, sc["wounds"], dtype=np.float32),
                consts.full_wounds,
                consts.strain_max,
                ones,
                ones,
            )
        ).astype(np.float32)
        return Frame(
            template=template,
            offsets=tuple(row_start.tolist()),
            dynamic_index=row_start[:, None] + np.array([col[c] for c in _DYNAMIC_COLUMNS]),
            acting_index=(row_start[:, None] + np.array([col[c] for c in _ACTING_COLUMNS])).ravel(),
            position_index=(
                row_start[:, None] + np.array([col[c] for c in _POSITION_COLUMNS])
            ).ravel(),
            dynamic_divisors=divisors,
        )

    def _situation(self, state: Any, side: str, entry: _ScenarioEntry) -> Situation:
        """The situation part of ``side``'s observation of ``state`` (cached by content)."""
        # The tabletop's snapshot of the bases: its key and float lists are already made
        # for the game's own queries.
        layout = state.bases.layout()
        key = situation_key(layout, state.models, side)
        found = entry.situations.get(key)
        if found is None:
            if len(entry.situations) >= SITUATION_LIMIT:
                entry.situations.clear()
            found = self._build_situation(state, side, entry, layout)
            entry.situations[key] = found
        return found

    def _statuses(self, state: Any, side: str, entry: _ScenarioEntry) -> StatusArrays:
        """The models' status flags, and ``side``'s template with the statuses filled (cached)."""
        statuses = tuple([m.status for m in state.models])
        key = (side, statuses)
        found = entry.statuses.get(key)
        if found is None:
            if len(entry.statuses) >= SITUATION_LIMIT:
                entry.statuses.clear()
            frame = entry.frames[side]
            template = frame.template.copy()
            first = self._col["status_active"]
            for i, status in enumerate(statuses):
                template[frame.offsets[i] + first + _STATUS_INDEX[status]] = 1.0
            found = status_arrays(state.models, entry.constants.enemies_of, template)
            entry.statuses[key] = found
        return found

    def _build_situation(
        self, state: Any, side: str, entry: _ScenarioEntry, layout: Any
    ) -> Situation:
        """Everything of ``side``'s observation that depends on the situation only.

        One batched ``np.hypot`` for the centre distances; the rest is plain float64
        arithmetic on ten-odd models (cheaper than a numpy call per feature) with the same
        operations as the vectorised formulas, so the values are bit-identical.
        """
        consts = entry.constants
        frame = entry.frames[side]
        status = self._statuses(state, side, entry)
        bases = state.bases
        centres = bases.centers
        width, height = consts.width, consts.height
        # Positions in the observer's frame: red sees the table rotated half a turn.
        if side == "red":
            rel = [[width - x, height - y] for x, y in layout.centers]
        else:
            rel = layout.centers  # read-only, as the layout's
        # Centre distances from every base and every objective centre to every base, in
        # one call (hypot ignores the signs, so objective rows equal base-minus-objective).
        n = len(centres)
        points = np.concatenate((centres, consts.objective_xy))
        diff = points[:, None, :] - centres[None, :, :]
        distances = np.hypot(diff[..., 0], diff[..., 1]).tolist()
        centre_gaps = distances[:n]
        radii = layout.radii
        nearby = nearest_enemies(centre_gaps, radii, status, consts.diagonal, CONTACT_TOL)
        vector = status.template.copy()
        vector[frame.position_index] = self._position_values(consts, status, rel, nearby)
        if self.config.cover_vs_nearest_enemy:
            self._cover_columns(state, layout, frame, status, nearby.enemy, vector)
        split_models, split_objectives = self._flat_splits
        objectives = vector[split_models:split_objectives].reshape(self._objectives_shape)
        self._objective_matrix(side, consts, status, radii, distances[n:], objectives)
        active = status.active
        own = sum(active[i] for i in consts.side_models[side])
        return Situation(
            vector=vector,
            rel=rel,
            centre_gaps=centre_gaps,
            radii=radii,
            on_table=status.on_table,
            active_own=own,
            active_enemy=sum(active) - own,
        )

    def _position_values(
        self,
        consts: ScenarioConstants,
        status: StatusArrays,
        rel: list[list[float]],
        nearby: NearestEnemies,
    ) -> list[float]:
        """The :data:`_POSITION_COLUMNS` of every model, flattened in model order.

        As the vectorised ``where(on_table, rel / (width, height), 0)``, ``gap / diagonal``,
        ``count > 0`` and the float32 ``count / scale``.
        """
        width, height, diagonal = consts.width, consts.height, consts.diagonal
        engaged_values = self._engaged_values
        values: list[float] = []
        for (x, y), on_table, gap, engaged in zip(
            rel, status.on_table, nearby.gap, nearby.engaged, strict=True
        ):
            values += (
                x / width if on_table else 0.0,
                y / height if on_table else 0.0,
                gap / diagonal,
                1.0 if engaged > 0 else 0.0,
                engaged_values[engaged],
            )
        return values

    def _engaged_count(self, count: int) -> float:
        """``engaged_count`` for ``count`` enemies: the float32 division it always was."""
        return float(np.float32(count) / np.float32(self.config.scales["engaged"]))

    def _with_acting(
        self, situation: Situation, frame: Frame, consts: ScenarioConstants, acting: int
    ) -> np.ndarray:
        """The situation's vector with the columns about the acting model filled.

        dx_acting, dy_acting and distance_acting, in float64 as ``(rel - rel[acting]) /
        (width, height)`` and ``max(gap, 0) / diagonal`` (0 off the table).
        """
        width, height, diagonal = consts.width, consts.height, consts.diagonal
        ax, ay = situation.rel[acting]
        row = situation.centre_gaps[acting]
        radii = situation.radii
        ra = radii[acting]
        values: list[float] = []
        for j, (x, y) in enumerate(situation.rel):
            if situation.on_table[j]:
                gap = row[j] - ra - radii[j]
                # As np.maximum(gap, 0.0), which returns its second operand on ties.
                gap = gap if gap > 0.0 else 0.0
                values += ((x - ax) / width, (y - ay) / height, gap / diagonal)
            else:
                values += (0.0, 0.0, 0.0)
        vector = situation.vector.copy()
        vector[frame.acting_index] = values
        vector[frame.offsets[acting] + self._col["acting"]] = 1.0
        return vector

    def _dynamic_columns(self, state: Any, frame: Frame, flat: np.ndarray) -> None:
        """Write the model columns that change without anyone moving: the
        :data:`_DYNAMIC_FIELDS` columns, can_activate and the Conditions.

        They change between almost every two observations of an environment (a turn
        resets the activations), so they are computed afresh rather than cached.
        """
        models = state.models
        # float32 throughout: wounds / scale and wounds / full wounds as the float32
        # divisions they always were; Strain / track rounds to the same float32 as the
        # float64 division it was.
        values = np.fromiter(
            chain.from_iterable(map(_DYNAMIC_FIELDS, models)),
            dtype=np.float32,
            count=frame.dynamic_index.size,
        ).reshape(frame.dynamic_index.shape)
        values /= frame.dynamic_divisors
        flat[frame.dynamic_index] = values
        offsets = frame.offsets
        if state.phase == PHASE_ACTIVATE:
            # Only the side to play may activate (the situation left the column 0).
            can_activate = self._col["can_activate"]
            to_play = state.side
            for m in models:
                if m.side == to_play and m.status == ACTIVE and not m.activated:
                    flat[offsets[m.index] + can_activate] = 1.0
        cond_index = self._condition_index
        first = self._condition_start
        for m in models:
            if m.conditions:
                start = offsets[m.index] + first
                for name in m.conditions:
                    k = cond_index.get(name)
                    if k is not None:
                        flat[start + k] = 1.0

    def _cover_columns(
        self,
        state: Any,
        layout: Any,
        frame: Frame,
        status: StatusArrays,
        nearest_enemy: list[int],
        vector: np.ndarray,
    ) -> None:
        """Whether the nearest active enemy sees each model, and the cover it would have."""
        seen = self._col["seen_by_nearest_enemy"]
        cover_col = self._cover_col
        pairs = [
            (j, i)
            for i, (on_table, j) in enumerate(zip(status.on_table, nearest_enemy, strict=True))
            if on_table and j >= 0
        ]
        answers = self._sight.sights(
            state.table, state.bases, pairs, layout.centers, layout.radii, layout.on_table
        )
        offsets = frame.offsets
        for (_, i), (visible, cover) in zip(pairs, answers, strict=True):
            if visible:
                vector[offsets[i] + seen] = 1.0
                vector[offsets[i] + cover_col[cover]] = 1.0

    def _objective_matrix(
        self,
        side: str,
        consts: ScenarioConstants,
        status: StatusArrays,
        radii: list[float],
        centre_distances: list[list[float]],
        out: np.ndarray,
    ) -> None:
        """Fill the situation columns of the ``objectives`` block ``out``.

        They are six adjacent columns: own_within, enemy_within, controlled_own,
        controlled_enemy, distance_nearest_own, distance_nearest_enemy. A scenario has a
        few objectives and models, so plain Python (the same float64 subtractions,
        comparisons, divisions and minima as the vectorised formulas) beats a dozen numpy
        calls. ``centre_distances[k][i]`` is the distance from objective ``k``'s centre to
        base ``i``'s.
        """
        # Which active models are the observer's (True) or the other side's (False).
        own = consts.own_list[side]
        members = [(i, own[i]) for i, active in enumerate(status.active) if active]
        s = float(self.layout.models_per_side)
        diagonal = consts.diagonal
        first = self._ocol["own_within"]
        for k, (row, radius) in enumerate(zip(centre_distances, consts.radius_list, strict=True)):
            own_within = enemy_within = 0
            own_nearest = enemy_nearest = np.inf
            for i, mine in members:
                # Edge distance, as GameState.distance_to_point and np.maximum(0.0, d)
                # (which returns its second operand on ties).
                d = row[i] - radii[i]
                d = d if d >= 0.0 else 0.0
                if mine:
                    own_within += d <= radius
                    if d < own_nearest:
                        own_nearest = d
                else:
                    enemy_within += d <= radius
                    if d < enemy_nearest:
                        enemy_nearest = d
            block = out[k]
            block[first] = own_within / s
            block[first + 1] = enemy_within / s
            # The controller (riven_env.game.victory.controller): the only side with
            # active models within the radius.
            block[first + 2] = 1.0 if own_within and not enemy_within else 0.0
            block[first + 3] = 1.0 if enemy_within and not own_within else 0.0
            # A side without active models is as far as can be.
            block[first + 4] = own_nearest / diagonal if own_nearest != np.inf else 1.0
            block[first + 5] = enemy_nearest / diagonal if enemy_nearest != np.inf else 1.0

    def _global_vector(self, state: Any, side: str, situation: Situation, out: np.ndarray) -> None:
        """Fill the ``global`` vector ``out`` (zeros on entry)."""
        sc = self.config.scales
        col = self._gcol
        enemy = enemy_of(side)
        limit = max(1, state.round_limit)
        out[col["round_fraction"]] = state.round / limit
        out[col["rounds_left_fraction"]] = max(0, limit - state.round) / limit
        out[col[f"phase_{state.phase}"]] = 1.0
        out[col["own_turn"]] = 1.0 if (not state.is_terminal and state.side == side) else 0.0
        out[col["own_side_first"]] = 1.0 if state.first_side == side else 0.0
        out[col["second_turn_of_round"]] = float(state.turn_index)
        out[col["actions_left"]] = state.actions_left / self._max_dice
        out[col["turn_passes_after"]] = 1.0 if state.turn_passes_after else 0.0
        out[col["momentum_own"]] = state.momentum_of(side) / self._momentum_cap
        out[col["momentum_enemy"]] = state.momentum_of(enemy) / self._momentum_cap
        own_points, enemy_points = state.points[side], state.points[enemy]
        out[col["points_own"]] = own_points / sc["points"]
        out[col["points_enemy"]] = enemy_points / sc["points"]
        out[col["points_difference"]] = (own_points - enemy_points) / sc["points"]
        s = float(self.layout.models_per_side)
        out[col["active_own"]] = situation.active_own / s
        out[col["active_enemy"]] = situation.active_enemy / s
        for name in state.taken_actions:
            k = col.get(f"taken_{name}")
            if k is not None:
                out[k] = 1.0
        if state.pending is not None:
            roll, i, context = state.pending
            out[col["pending_own"]] = 1.0 if state.models[i].side == side else 0.0
            out[col[f"pending_band_{roll.result}"]] = 1.0
            out[col["pending_margin"]] = roll.margin / sc["test_margin"]
            out[col["pending_spends"]] = len(roll.spends) / self._max_spends
            k = col.get(f"pending_action_{context.get('action')}")
            if k is not None:
                out[k] = 1.0


@dataclass(frozen=True)
class _ScenarioEntry:
    """One scenario's constants, per-side frames, remembered situations and rasters."""

    constants: ScenarioConstants
    frames: dict[str, Frame]
    situations: dict[tuple[Any, ...], Situation] = field(default_factory=dict)
    statuses: dict[tuple[str, ...], StatusArrays] = field(default_factory=dict)
    rasters: dict[tuple[Any, ...], np.ndarray] = field(default_factory=dict)


__all__ = [
    "ATTRIBUTE_FEATURES",
    "COVERS",
    "KEYWORD_FEATURES",
    "PHASES",
    "STATUSES",
    "ObservationEncoder",
]
