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
from riven_env.encoding.layout import Layout, build_layout, enemy_of
from riven_env.encoding.raster import RASTER_CHANNELS, table_raster, terrain_layers
from riven_env.game.decisions import PHASE_ACTION, PHASE_ACTIVATE, PHASE_OVER, PHASE_SPEND
from riven_env.game.model_state import ACTIVE, DOWN, EXTRACTED, FLED, OUT
from riven_env.rules import RulesConfig, action_specs, condition_specs, load_rules
from riven_env.rules.results import BANDS
from riven_env.scenario import OBJECTIVE_KINDS

STATUSES = (ACTIVE, DOWN, OUT, FLED, EXTRACTED)
PHASES = (PHASE_ACTIVATE, PHASE_ACTION, PHASE_SPEND, PHASE_OVER)
COVERS = ("none", "soft", "hard")
KEYWORD_FEATURES = ("leader", "hero")
ATTRIBUTE_FEATURES = ("might", "agility", "wit", "resolve")

# Profile features that never change during a game (columns filled once per scenario).
_PROFILE_FEATURES = (
    *ATTRIBUTE_FEATURES,
    "mettle_quality",
    "move",
    "base",
    "melee_modifier",
    "has_ranged",
    "ranged_range",
    "ranged_modifier",
    *(f"keyword_{k}" for k in KEYWORD_FEATURES),
)


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
            *_PROFILE_FEATURES,
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
        self._profile_cache: dict[int, tuple[Any, np.ndarray]] = {}
        self._terrain_cache: dict[int, tuple[Any, np.ndarray]] = {}

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
        models, objectives, glob = self._arrays(state, side)
        return np.concatenate((models.ravel(), objectives.ravel(), glob)).astype(np.float32)

    # ------------------------------------------------------------------ encoding
    def encode(self, state: Any, side: str) -> dict[str, np.ndarray]:
        """Encode ``state`` as seen by ``side`` (``"blue"`` or ``"red"``).

        Returns:
            ``{"models", "objectives", "global"}`` float32 arrays in ``[-1, 1]``, plus the uint8
        ``raster`` image when the encoder was built with ``raster=True``.
        """
        models, objectives, glob = self._arrays(state, side)
        obs = {"models": models, "objectives": objectives, "global": glob}
        if self.raster:
            layers = table_raster(state, side, self.config.raster_size, self._terrain(state.table))
            obs["raster"] = (layers * 255).astype(np.uint8)
        return obs

    def _arrays(self, state: Any, side: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        geometry = _Geometry(state, side)
        per_model = self._model_matrix(state, side, geometry)
        s = self.layout.models_per_side
        models = np.zeros((2 * s, len(self.model_features)), dtype=np.float32)
        own = self.layout.side_models[side]
        enemy = self.layout.side_models[enemy_of(side)]
        models[: len(own)] = per_model[list(own)]
        models[s : s + len(enemy)] = per_model[list(enemy)]
        models[: len(own), self._col["own"]] = 1.0
        objectives = self._objective_matrix(state, side, geometry)
        glob = self._global_vector(state, side)
        for array in (models, objectives, glob):
            np.clip(array, -1.0, 1.0, out=array)
        return models, objectives, glob

    def _terrain(self, table: Any) -> np.ndarray:
        cached = self._terrain_cache.get(id(table))
        if cached is None or cached[0] is not table:
            cached = (table, terrain_layers(table, self.config.raster_size))
            self._terrain_cache[id(table)] = cached
        return cached[1]

    def _profiles(self, state: Any) -> np.ndarray:
        """The constant profile columns of every model (cached per scenario object)."""
        key = id(state.scenario)
        cached = self._profile_cache.get(key)
        if cached is not None and cached[0] is state.scenario:
            return cached[1]
        sc = self.config.scales
        rows = []
        for model in state.models:
            p = model.profile
            melee_mod = p.melee.modifier if p.melee is not None else 0
            ranged = p.ranged
            rows.append(
                [
                    *(getattr(p, a) / sc["attribute"] for a in ATTRIBUTE_FEATURES),
                    # Lower Mettle thresholds activate more reliably: 1 at threshold 1, 0 at 7.
                    (sc["mettle"] + 1 - p.mettle) / sc["mettle"],
                    p.move / sc["move"],
                    p.base_diameter / sc["base"],
                    melee_mod / sc["weapon_modifier"],
                    1.0 if ranged is not None else 0.0,
                    (ranged.range / sc["weapon_range"]) if ranged is not None else 0.0,
                    (ranged.modifier / sc["weapon_modifier"]) if ranged is not None else 0.0,
                    *(1.0 if k in p.keywords else 0.0 for k in KEYWORD_FEATURES),
                ]
            )
        array = np.asarray(rows, dtype=np.float32).reshape(
            len(state.models), len(_PROFILE_FEATURES)
        )
        self._profile_cache[key] = (state.scenario, array)
        return array

    def _model_matrix(self, state: Any, side: str, geo: _Geometry) -> np.ndarray:
        sc = self.config.scales
        col = self._col
        n = len(state.models)
        out = np.zeros((n, len(self.model_features)), dtype=np.float32)
        models = state.models
        status_index = {s: k for k, s in enumerate(STATUSES)}
        out[:, col["present"]] = 1.0
        out[np.arange(n), [col["status_active"] + status_index[m.status] for m in models]] = 1.0
        on_table = geo.on_table
        out[:, col["x"]] = np.where(on_table, geo.rel[:, 0] / geo.width, 0.0)
        out[:, col["y"]] = np.where(on_table, geo.rel[:, 1] / geo.height, 0.0)
        acting = state.active_model
        if acting is not None:
            delta = geo.rel - geo.rel[acting]
            out[:, col["dx_acting"]] = np.where(on_table, delta[:, 0] / geo.width, 0.0)
            out[:, col["dy_acting"]] = np.where(on_table, delta[:, 1] / geo.height, 0.0)
            out[:, col["distance_acting"]] = np.where(
                on_table, geo.gaps[acting] / geo.diagonal, 0.0
            )
            out[acting, col["acting"]] = 1.0
        out[:, col["distance_nearest_enemy"]] = geo.nearest_enemy_gap / geo.diagonal
        wounds = np.array([m.wounds for m in models], dtype=np.float32)
        full = np.array([max(1, m.profile.wounds) for m in models], dtype=np.float32)
        out[:, col["wounds"]] = wounds / sc["wounds"]
        out[:, col["wounds_fraction"]] = wounds / full
        out[:, col["stable"]] = [1.0 if m.stable else 0.0 for m in models]
        strain_max = np.array(
            [max(1.0, m.profile.wit * self._strain_per_wit) for m in models], dtype=np.float32
        )
        out[:, col["strain_fraction"]] = np.array([m.strain for m in models]) / strain_max
        first = col[f"condition_{self._conditions[0]}"] if self._conditions else 0
        cond_index = {c: k for k, c in enumerate(self._conditions)}
        for m in models:
            for name in m.conditions:
                k = cond_index.get(name)
                if k is not None:
                    out[m.index, first + k] = 1.0
        activated = np.array([m.activated for m in models])
        out[:, col["activated"]] = activated
        can = (
            (geo.active & ~activated & geo.is_side(state.side))
            if state.phase == PHASE_ACTIVATE
            else np.zeros(n, dtype=bool)
        )
        out[:, col["can_activate"]] = can
        engaged_count = geo.engaged_counts
        out[:, col["engaged"]] = engaged_count > 0
        out[:, col["engaged_count"]] = engaged_count / sc["engaged"]
        if self.config.cover_vs_nearest_enemy:
            self._cover_columns(state, geo, out)
        out[:, col[_PROFILE_FEATURES[0]] :] = self._profiles(state)
        return out

    def _cover_columns(self, state: Any, geo: _Geometry, out: np.ndarray) -> None:
        from riven_env.table import sight

        col = self._col
        for i in np.flatnonzero(geo.on_table):
            j = geo.nearest_enemy[i]
            if j < 0:
                continue
            visible, cover = sight(state.table, state.bases, int(j), int(i))
            if visible:
                out[i, col["seen_by_nearest_enemy"]] = 1.0
                out[i, col[f"cover_{cover}"]] = 1.0

    def _objective_matrix(self, state: Any, side: str, geo: _Geometry) -> np.ndarray:
        from riven_env.game.victory import controller

        sc = self.config.scales
        names = self.objective_features
        col = {name: k for k, name in enumerate(names)}
        out = np.zeros((self.layout.objectives, len(names)), dtype=np.float32)
        s = float(self.layout.models_per_side)
        own_mask = geo.active & geo.is_side(side)
        enemy_mask = geo.active & ~geo.is_side(side)
        for k, obj in enumerate(state.objectives[: self.layout.objectives]):
            x, y = geo.relative_point(obj.x, obj.y)
            dist = np.maximum(
                0.0,
                np.hypot(geo.centres[:, 0] - obj.x, geo.centres[:, 1] - obj.y) - geo.radii,
            )
            within = dist <= obj.radius
            row = out[k]
            row[col["present"]] = 1.0
            row[col["x"]] = x / geo.width
            row[col["y"]] = y / geo.height
            row[col["radius"]] = obj.radius / sc["move"]
            if f"kind_{obj.kind}" in col:
                row[col[f"kind_{obj.kind}"]] = 1.0
            row[col["points"]] = obj.points / sc["objective_points"]
            row[col["looted"]] = 1.0 if k in state.looted else 0.0
            row[col["own_within"]] = np.count_nonzero(within & own_mask) / s
            row[col["enemy_within"]] = np.count_nonzero(within & enemy_mask) / s
            holder = controller(state, k)
            row[col["controlled_own"]] = 1.0 if holder == side else 0.0
            row[col["controlled_enemy"]] = 1.0 if holder == enemy_of(side) else 0.0
            row[col["distance_nearest_own"]] = (
                dist[own_mask].min() / geo.diagonal if own_mask.any() else 1.0
            )
            row[col["distance_nearest_enemy"]] = (
                dist[enemy_mask].min() / geo.diagonal if enemy_mask.any() else 1.0
            )
        return out

    def _global_vector(self, state: Any, side: str) -> np.ndarray:
        sc = self.config.scales
        col = self._gcol
        out = np.zeros(len(self.global_features), dtype=np.float32)
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
        out[col["active_own"]] = len(state.active_models(side)) / s
        out[col["active_enemy"]] = len(state.active_models(enemy)) / s
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
        return out


class _Geometry:
    """Per-observation geometry shared by the feature blocks (vectorised over models)."""

    def __init__(self, state: Any, side: str) -> None:
        from riven_env.table.measure import CONTACT_TOL

        table = state.table
        self.width = float(table.width)
        self.height = float(table.height)
        self.diagonal = float(np.hypot(self.width, self.height))
        models = state.models
        self.sides = np.array([m.side for m in models])
        self.active = np.array([m.is_active for m in models])
        self.on_table = np.array([m.on_table for m in models])
        self.centres = state.bases.centers
        self.radii = state.bases.radii
        self._flip = side == "red"
        self.rel = self.relative(self.centres)
        delta = self.centres[:, None, :] - self.centres[None, :, :]
        gaps = np.hypot(delta[..., 0], delta[..., 1]) - self.radii[:, None] - self.radii[None, :]
        self.gaps = np.maximum(gaps, 0.0)
        opposed = self.sides[:, None] != self.sides[None, :]
        both = self.on_table[:, None] & self.active[None, :] & opposed
        contact = both & (gaps <= CONTACT_TOL)
        self.engaged_counts = contact.sum(axis=1).astype(np.float32)
        enemy_gaps = np.where(both, self.gaps, np.inf)
        nearest = np.argmin(enemy_gaps, axis=1)
        has_enemy = np.isfinite(enemy_gaps[np.arange(len(models)), nearest])
        self.nearest_enemy = np.where(has_enemy, nearest, -1)
        self.nearest_enemy_gap = np.where(
            has_enemy & self.on_table, enemy_gaps[np.arange(len(models)), nearest], self.diagonal
        )

    def is_side(self, side: str) -> np.ndarray:
        return self.sides == side

    def relative(self, points: np.ndarray) -> np.ndarray:
        """Points in the observer's frame (rotated half a turn for red)."""
        if not self._flip:
            return points
        return np.column_stack((self.width - points[:, 0], self.height - points[:, 1]))

    def relative_point(self, x: float, y: float) -> tuple[float, float]:
        if not self._flip:
            return x, y
        return self.width - x, self.height - y
