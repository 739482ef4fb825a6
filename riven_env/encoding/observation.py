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
from riven_env.encoding.layout import Layout, build_layout, enemy_of
from riven_env.encoding.raster import RASTER_CHANNELS, table_raster, terrain_layers
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
        # Bounded caches (see riven_env.encoding.constants): per-scenario arrays, terrain
        # raster layers per table, and line-of-sight answers by base positions.
        self._constants_cache: dict[tuple[int, int], ScenarioConstants] = {}
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
        flat, _, _, _ = self._arrays(state, side)
        return flat

    # ------------------------------------------------------------------ encoding
    def encode(self, state: Any, side: str) -> dict[str, np.ndarray]:
        """Encode ``state`` as seen by ``side`` (``"blue"`` or ``"red"``).

        Returns:
            ``{"models", "objectives", "global"}`` float32 arrays in ``[-1, 1]``, plus the uint8
        ``raster`` image when the encoder was built with ``raster=True``.
        """
        _, models, objectives, glob = self._arrays(state, side)
        obs = {"models": models, "objectives": objectives, "global": glob}
        if self.raster:
            layers = table_raster(state, side, self.config.raster_size, self._terrain(state.table))
            obs["raster"] = (layers * 255).astype(np.uint8)
        return obs

    def _arrays(
        self, state: Any, side: str
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The flat vector and the ``models``, ``objectives`` and ``global`` views of it."""
        consts = self._constants(state)
        # One buffer for the three blocks: encode_flat returns it as it is, and one clip
        # covers everything.
        flat = np.zeros(self._flat_length, dtype=np.float32)
        split_models, split_objectives = self._flat_splits
        out_models = flat[:split_models].reshape(self._models_shape)
        objectives = flat[split_models:split_objectives].reshape(self._objectives_shape)
        glob = flat[split_objectives:]
        models = state.models
        n = len(models)
        bases = state.bases
        centres = bases.centers
        radii = bases.radii
        width, height, diagonal = consts.width, consts.height, consts.diagonal
        on_table = np.array([m.on_table for m in models])
        active = np.array([m.is_active for m in models])
        # Positions in the observer's frame: red sees the table rotated half a turn.
        if side == "red":
            rel = np.column_stack((width - centres[:, 0], height - centres[:, 1]))
        else:
            rel = centres
        # Edge-to-edge gaps between every pair of bases (negative when overlapping).
        xs, ys = centres[:, 0], centres[:, 1]
        raw_gaps = (
            np.hypot(xs[:, None] - xs[None, :], ys[:, None] - ys[None, :])
            - radii[:, None]
            - radii[None, :]
        )
        gaps = np.maximum(raw_gaps, 0.0)
        # Pairs (i, j): i on the table, j an active enemy of i.
        facing = on_table[:, None] & active[None, :] & consts.opposed
        engaged_counts = (facing & (raw_gaps <= CONTACT_TOL)).sum(axis=1).astype(np.float32)
        enemy_gaps = np.where(facing, gaps, np.inf)
        nearest = np.argmin(enemy_gaps, axis=1)
        nearest_gap = enemy_gaps[np.arange(n), nearest]
        has_enemy = np.isfinite(nearest_gap)
        nearest_enemy = np.where(has_enemy, nearest, -1)
        nearest_enemy_gap = np.where(has_enemy & on_table, nearest_gap, diagonal)

        per_model = self._model_matrix(
            state, consts, on_table, active, rel, gaps, engaged_counts, nearest_enemy_gap
        )
        if self.config.cover_vs_nearest_enemy:
            self._cover_columns(state, on_table, nearest_enemy, per_model)
        rows, sources = consts.slot_rows[side]
        out_models[rows] = per_model[sources]
        out_models[consts.own_rows[side], self._col["own"]] = 1.0
        self._objective_matrix(state, side, consts, active, objectives)
        self._global_vector(state, side, consts, active, glob)
        np.clip(flat, -1.0, 1.0, out=flat)
        return flat, out_models, objectives, glob

    def _terrain(self, table: Any) -> np.ndarray:
        cached = self._terrain_cache.get(id(table))
        if cached is None or cached[0] is not table:
            if len(self._terrain_cache) >= CONSTANTS_LIMIT:
                self._terrain_cache.clear()
            cached = (table, terrain_layers(table, self.config.raster_size))
            self._terrain_cache[id(table)] = cached
        return cached[1]

    def _constants(self, state: Any) -> ScenarioConstants:
        """The per-scenario constants of ``state`` (built on first sight of its scenario)."""
        key = (id(state.scenario), id(state.table))
        found = self._constants_cache.get(key)
        if found is not None and found.scenario is state.scenario and found.table is state.table:
            return found
        if len(self._constants_cache) >= CONSTANTS_LIMIT:
            self._constants_cache.clear()
        found = build_constants(
            state,
            self.layout,
            self.config.scales,
            self._strain_per_wit,
            self.objective_features,
        )
        self._constants_cache[key] = found
        return found

    def _model_matrix(
        self,
        state: Any,
        consts: ScenarioConstants,
        on_table: np.ndarray,
        active: np.ndarray,
        rel: np.ndarray,
        gaps: np.ndarray,
        engaged_counts: np.ndarray,
        nearest_enemy_gap: np.ndarray,
    ) -> np.ndarray:
        """Every model's row, in ``GameState.models`` order (the own column left 0)."""
        sc = self.config.scales
        col = self._col
        models = state.models
        n = len(models)
        width, height, diagonal = consts.width, consts.height, consts.diagonal
        out = np.zeros((n, len(self.model_features)), dtype=np.float32)
        out[:, col["present"]] = 1.0
        status_first = col["status_active"]
        out[np.arange(n), [status_first + _STATUS_INDEX[m.status] for m in models]] = 1.0
        out[:, col["x"]] = np.where(on_table, rel[:, 0] / width, 0.0)
        out[:, col["y"]] = np.where(on_table, rel[:, 1] / height, 0.0)
        acting = state.active_model
        if acting is not None:
            delta = rel - rel[acting]
            out[:, col["dx_acting"]] = np.where(on_table, delta[:, 0] / width, 0.0)
            out[:, col["dy_acting"]] = np.where(on_table, delta[:, 1] / height, 0.0)
            out[:, col["distance_acting"]] = np.where(on_table, gaps[acting] / diagonal, 0.0)
            out[acting, col["acting"]] = 1.0
        out[:, col["distance_nearest_enemy"]] = nearest_enemy_gap / diagonal
        wounds = np.array([m.wounds for m in models], dtype=np.float32)
        out[:, col["wounds"]] = wounds / sc["wounds"]
        out[:, col["wounds_fraction"]] = wounds / consts.full_wounds
        out[:, col["stable"]] = [1.0 if m.stable else 0.0 for m in models]
        out[:, col["strain_fraction"]] = np.array([m.strain for m in models]) / consts.strain_max
        first = col[f"condition_{self._conditions[0]}"] if self._conditions else 0
        cond_index = self._condition_index
        for m in models:
            for name in m.conditions:
                k = cond_index.get(name)
                if k is not None:
                    out[m.index, first + k] = 1.0
        activated = np.array([m.activated for m in models])
        out[:, col["activated"]] = activated
        if state.phase == PHASE_ACTIVATE:
            out[:, col["can_activate"]] = active & ~activated & consts.own[state.side]
        out[:, col["engaged"]] = engaged_counts > 0
        out[:, col["engaged_count"]] = engaged_counts / sc["engaged"]
        out[:, self._profile_start :] = consts.profiles
        return out

    def _cover_columns(
        self, state: Any, on_table: np.ndarray, nearest_enemy: np.ndarray, out: np.ndarray
    ) -> None:
        """Whether the nearest active enemy sees each model, and the cover it would have."""
        col = self._col
        seen = col["seen_by_nearest_enemy"]
        cover_col = self._cover_col
        table, bases = state.table, state.bases
        centres = bases.centers.tolist()
        radii = bases.radii.tolist()
        for i in np.flatnonzero(on_table & (nearest_enemy >= 0)).tolist():
            visible, cover = self._sight.sight(
                table, bases, int(nearest_enemy[i]), i, centres, radii
            )
            if visible:
                out[i, seen] = 1.0
                out[i, cover_col[cover]] = 1.0

    def _objective_matrix(
        self,
        state: Any,
        side: str,
        consts: ScenarioConstants,
        active: np.ndarray,
        out: np.ndarray,
    ) -> None:
        """Fill the ``objectives`` block ``out`` (zeros on entry)."""
        col = self._ocol
        out[:] = consts.objective_rows[side]
        count = len(consts.objective_radius)
        if count == 0:
            return
        s = float(self.layout.models_per_side)
        own = consts.own[side]
        own_mask = active & own
        enemy_mask = active & ~own
        centres = state.bases.centers
        xy = consts.objective_xy
        # Edge distance of every base to every objective centre, as GameState.distance_to_point.
        dist = np.maximum(
            0.0,
            np.hypot(centres[None, :, 0] - xy[:, 0, None], centres[None, :, 1] - xy[:, 1, None])
            - state.bases.radii[None, :],
        )
        within = dist <= consts.objective_radius[:, None]
        # ufunc reductions directly: the np.count_nonzero / np.min wrappers cost more than
        # the work on these few numbers.
        own_count = np.add.reduce(within & own_mask, axis=1)
        enemy_count = np.add.reduce(within & enemy_mask, axis=1)
        block = out[:count]
        if state.looted:
            looted = [k for k in state.looted if k < count]
            block[looted, col["looted"]] = 1.0
        block[:, col["own_within"]] = own_count / s
        block[:, col["enemy_within"]] = enemy_count / s
        # The controller (riven_env.game.victory.controller): the only side with active
        # models within the radius.
        block[:, col["controlled_own"]] = (own_count > 0) & (enemy_count == 0)
        block[:, col["controlled_enemy"]] = (enemy_count > 0) & (own_count == 0)
        diagonal = consts.diagonal
        for name, mask in (
            ("distance_nearest_own", own_mask),
            ("distance_nearest_enemy", enemy_mask),
        ):
            if mask.any():
                nearest = np.minimum.reduce(np.where(mask, dist, np.inf), axis=1)
                block[:, col[name]] = nearest / diagonal
            else:
                block[:, col[name]] = 1.0

    def _global_vector(
        self,
        state: Any,
        side: str,
        consts: ScenarioConstants,
        active: np.ndarray,
        out: np.ndarray,
    ) -> None:
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
        own = consts.own[side]
        out[col["active_own"]] = int(np.count_nonzero(active & own)) / s
        out[col["active_enemy"]] = int(np.count_nonzero(active & ~own)) / s
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


__all__ = [
    "ATTRIBUTE_FEATURES",
    "COVERS",
    "KEYWORD_FEATURES",
    "PHASES",
    "STATUSES",
    "ObservationEncoder",
]
