"""Entity observations: per-model rows, pairwise rows between every two models, terrain pieces.

:class:`EntityEncoder` is what ``riven/Skirmish-v1`` observes (``obs_mode="entity"``). It
returns the :class:`~riven_env.encoding.ObservationEncoder` blocks (``models``,
``objectives``, ``global``) plus:

* ``pairs``: ``(2S, 2S, F_p)`` float32, row ``a`` column ``b`` describes model slot ``a``
  (own slots first, then enemy slots, as the ``models`` rows) looking at slot ``b``: whether
  both stand on the table, whether they are enemies, the offset and edge gap, base contact,
  line of sight and the cover ``b`` would have against a shot from ``a``, whether ``b`` is in
  ``a``'s weapon range, whether ``a`` may shoot ``b`` now under the shooting rules
  (:func:`riven_env.game.actions.shot_targets`: range, sight, no shot into a melee), and
  whether ``a`` can reach base contact with ``b`` in one charge (the tabletop's charge path
  planner, or the straight-line edge gap with ``entity.charge_paths = false``). Sight,
  cover, range, shot and charge columns are filled for enemy pairs only (0 for friends);
* ``terrain``: ``(T, F_t)`` float32, one row per terrain piece (side-relative centre and
  extent, area, and the piece's flags), padded to ``T`` = ``entity.terrain_slots`` rows;
* ``action_mask``: ``(A,)`` int8, filled by the environment (the encoder writes zeros when
  it is not given a mask), so that a policy can read the legal actions.

The feature names are :attr:`EntityEncoder.pair_features` and
:attr:`EntityEncoder.terrain_features`; ``docs/environments.md`` documents each. Terrain rows
depend on the table only and are built once per table; pair rows depend on the situation
(bases, statuses, Conditions) and are remembered by it (bounded). Imports numpy and the pure
game layers only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from riven_env.encoding.config import CatalogueError, EncodingConfig, load_encoding_config
from riven_env.encoding.constants import CONSTANTS_LIMIT
from riven_env.encoding.layout import SIDES, enemy_of
from riven_env.encoding.observation import COVERS, ObservationEncoder
from riven_env.game.actions import effective_cover, move_allowance, shot_targets
from riven_env.game.model_state import OUT
from riven_env.rules import RulesConfig
from riven_env.rules.shooting import in_range
from riven_env.table.measure import CONTACT_TOL
from riven_env.table.movement import charge_targets
from riven_env.table.sight import sight

PAIR_FEATURES: tuple[str, ...] = (
    "present",
    "enemy",
    "dx",
    "dy",
    "gap",
    "contact",
    "line_of_sight",
    *(f"cover_{c}" for c in COVERS),
    "in_range",
    "shot_legal",
    "charge_reach",
)
"""Columns of the ``pairs`` block."""

TERRAIN_FEATURES: tuple[str, ...] = (
    "present",
    "x",
    "y",
    "half_width",
    "half_height",
    "area",
    "impassable",
    "blocks_los",
    "cover_soft",
    "cover_hard",
    "difficult",
)
"""Columns of the ``terrain`` block."""

# Situations whose pair block one encoder remembers; the store starts afresh when full.
PAIR_CACHE_LIMIT = 2048
_P = {name: k for k, name in enumerate(PAIR_FEATURES)}
_T = {name: k for k, name in enumerate(TERRAIN_FEATURES)}


class EntityEncoder:
    """Encodes game states of one scenario as entity observations, for one side at a time.

    Args:
        source: A loaded Scenario, a GameState, or a bundled scenario name or path.
        rules: Rules data (default: the game state's rules, else the bundled rules).
        models_per_side: Model slots per side (default: the larger side).
        objectives: Objective slots (default: the scenario's objectives, at least 1).
        terrain_slots: Terrain rows (default: ``entity.terrain_slots`` of ``encoding.toml``).
        actions: Length of the ``action_mask`` block (the action catalogue's size).
        config: Encoding data (default: the bundled ``encoding.toml``).

    Attributes:
        base: The :class:`ObservationEncoder` of the ``models``, ``objectives`` and
            ``global`` blocks.
        pair_features: Names of the ``pairs`` columns.
        terrain_features: Names of the ``terrain`` columns.

    Raises:
        CatalogueError: The scenario's table has more terrain pieces than ``terrain_slots``.
    """

    def __init__(
        self,
        source: Any,
        *,
        rules: RulesConfig | None = None,
        models_per_side: int | None = None,
        objectives: int | None = None,
        terrain_slots: int | None = None,
        actions: int = 1,
        config: EncodingConfig | None = None,
    ) -> None:
        self.config = config or load_encoding_config()
        self.base = ObservationEncoder(
            source,
            rules=rules,
            models_per_side=models_per_side,
            objectives=objectives,
            config=self.config,
        )
        self.layout = self.base.layout
        self.rules = self.base.rules
        self.terrain_slots = int(
            self.config.terrain_slots if terrain_slots is None else terrain_slots
        )
        self.actions = int(actions)
        self.pair_features = PAIR_FEATURES
        self.terrain_features = TERRAIN_FEATURES
        self._charge_factor = float(self.rules.get("distances.charge_reach_factor"))
        self._charge_paths = self.config.charge_paths
        self._pairs: dict[tuple[Any, ...], np.ndarray] = {}
        self._terrain: dict[tuple[int, str], tuple[Any, np.ndarray]] = {}
        s2 = 2 * self.layout.models_per_side
        # Row of each model index in each side's view (own slots, then enemy slots).
        self._rows: dict[str, dict[int, int]] = {}
        for side in SIDES:
            rows = {m: k for k, m in enumerate(self.layout.side_models[side])}
            rows.update(
                {
                    m: self.layout.models_per_side + k
                    for k, m in enumerate(self.layout.side_models[enemy_of(side)])
                }
            )
            self._rows[side] = rows
        self._pairs_shape = (s2, s2, len(PAIR_FEATURES))
        source_table = getattr(getattr(source, "scenario", source), "table", None)
        if source_table is not None:
            self._check_terrain(source_table)

    # ------------------------------------------------------------------ spec
    def space_spec(self) -> dict[str, dict[str, Any]]:
        """Shapes, dtypes, bounds and names of every array :meth:`encode` returns."""
        spec = self.base.space_spec()
        spec["pairs"] = {
            "shape": self._pairs_shape,
            "names": PAIR_FEATURES,
            "dtype": "float32",
            "low": -1.0,
            "high": 1.0,
        }
        spec["terrain"] = {
            "shape": (self.terrain_slots, len(TERRAIN_FEATURES)),
            "names": TERRAIN_FEATURES,
            "dtype": "float32",
            "low": -1.0,
            "high": 1.0,
        }
        spec["action_mask"] = {
            "shape": (self.actions,),
            "names": (),
            "dtype": "int8",
            "low": 0,
            "high": 1,
        }
        return spec

    # ------------------------------------------------------------------ encoding
    def encode(
        self, state: Any, side: str, mask: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """Encode ``state`` as seen by ``side``, with the legal-action ``mask`` if given."""
        obs = self.base.encode(state, side)
        # Copies: a caller may keep (or change) what it is given, the caches must not change.
        obs["pairs"] = self._pair_block(state, side).copy()
        obs["terrain"] = self._terrain_block(state.table, side).copy()
        action_mask = np.zeros(self.actions, dtype=np.int8)
        if mask is not None:
            action_mask[: len(mask)] = mask
        obs["action_mask"] = action_mask
        return obs

    def _check_terrain(self, table: Any) -> None:
        count = len(table.pieces)
        if count > self.terrain_slots:
            raise CatalogueError(
                f"terrain_slots={self.terrain_slots} is too small: the table has {count} "
                "terrain pieces (raise entity.terrain_slots in encoding.toml or pass "
                "terrain_slots=)"
            )

    def _terrain_block(self, table: Any, side: str) -> np.ndarray:
        """The terrain rows of ``table`` seen from ``side`` (built once per table and side)."""
        key = (id(table), side)
        found = self._terrain.get(key)
        if found is None or found[0] is not table:
            if len(self._terrain) >= 2 * CONSTANTS_LIMIT:
                self._terrain.clear()
            self._check_terrain(table)
            found = (table, terrain_rows(table, side, self.terrain_slots))
            self._terrain[key] = found
        return found[1]

    def _pair_block(self, state: Any, side: str) -> np.ndarray:
        """The ``pairs`` block (remembered by the situation, which it depends on alone)."""
        bases = state.bases
        key = (
            side,
            bases.centers.tobytes(),
            bases.on_table.tobytes(),
            tuple((m.status, *m.conditions) for m in state.models),
        )
        found = self._pairs.get(key)
        if found is None:
            if len(self._pairs) >= PAIR_CACHE_LIMIT:
                self._pairs.clear()
            found = self._build_pairs(state, side)
            self._pairs[key] = found
        return found

    def _build_pairs(self, state: Any, side: str) -> np.ndarray:
        out = np.zeros(self._pairs_shape, dtype=np.float32)
        rows = self._rows[side]
        table, bases = state.table, state.bases
        width, height = float(table.width), float(table.height)
        diagonal = float(np.hypot(width, height))
        sign = -1.0 if side == "red" else 1.0  # red sees the table rotated half a turn
        centres = bases.centers.tolist()
        radii = bases.radii.tolist()
        models = state.models
        on_table = [bool(bases.on_table[m.index]) and m.status != OUT for m in models]
        memo = state.situation_memo()
        shots: dict[int, set[int]] = {}
        reach: dict[int, set[int]] = {}
        for m in models:
            i = m.index
            if not (on_table[i] and m.is_active):
                continue
            if m.profile.ranged is not None:
                shots[i] = {j for j, _ in shot_targets(state, i, memo)}
            allowance = move_allowance(state, i) * self._charge_factor
            enemies = [j for j in state.enemies_of(i) if on_table[j]]
            if allowance <= 0:
                reach[i] = set()
            elif self._charge_paths:
                reach[i] = set(charge_targets(table, bases, i, allowance, enemies))
            else:
                reach[i] = {j for j in enemies if state.distance(i, j) <= allowance + 1e-9}
        for a in models:
            i = a.index
            ra = rows.get(i)
            if ra is None or not on_table[i]:
                continue
            for b in models:
                j = b.index
                rb = rows.get(j)
                if rb is None or j == i or not on_table[j]:
                    continue
                row = out[ra, rb]
                gap = max(
                    0.0, float(np.hypot(*np.subtract(centres[j], centres[i]))) - radii[i] - radii[j]
                )
                row[_P["present"]] = 1.0
                row[_P["dx"]] = sign * (centres[j][0] - centres[i][0]) / width
                row[_P["dy"]] = sign * (centres[j][1] - centres[i][1]) / height
                row[_P["gap"]] = min(1.0, gap / diagonal)
                row[_P["contact"]] = 1.0 if gap <= CONTACT_TOL else 0.0
                if a.side == b.side:
                    continue
                row[_P["enemy"]] = 1.0
                visible, cover = sight(table, bases, i, j)
                if visible:
                    row[_P["line_of_sight"]] = 1.0
                    # The cover a shot from a would face: the terrain's, after b's
                    # Conditions and a's weapon traits.
                    row[_P[f"cover_{effective_cover(state, i, j, cover)}"]] = 1.0
                weapon = a.profile.ranged
                if weapon is not None and in_range(weapon, state.distance(i, j)):
                    row[_P["in_range"]] = 1.0
                if j in shots.get(i, ()):
                    row[_P["shot_legal"]] = 1.0
                if j in reach.get(i, ()):
                    row[_P["charge_reach"]] = 1.0
        return out


def terrain_rows(table: Any, side: str, slots: int) -> np.ndarray:
    """The ``terrain`` block of ``table`` seen from ``side``: one row per piece, padded.

    Positions are side-relative as everywhere (red sees the table rotated half a turn);
    extents are half the bounding box over the table size, area the piece's share of the
    table.
    """
    out = np.zeros((slots, len(TERRAIN_FEATURES)), dtype=np.float32)
    width, height = float(table.width), float(table.height)
    for k, piece in enumerate(table.pieces[:slots]):
        x0, y0, x1, y1 = piece.polygon.bounds
        cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
        if side == "red":
            cx, cy = width - cx, height - cy
        row = out[k]
        row[_T["present"]] = 1.0
        row[_T["x"]] = cx / width
        row[_T["y"]] = cy / height
        row[_T["half_width"]] = (x1 - x0) / 2.0 / width
        row[_T["half_height"]] = (y1 - y0) / 2.0 / height
        row[_T["area"]] = min(1.0, piece.polygon.area / (width * height))
        row[_T["impassable"]] = float(piece.impassable)
        row[_T["blocks_los"]] = float(piece.blocks_los)
        row[_T["cover_soft"]] = float(piece.cover == "soft")
        row[_T["cover_hard"]] = float(piece.cover == "hard")
        row[_T["difficult"]] = float(piece.difficult)
    return out


def decision_group(key: tuple[Any, ...]) -> str:
    """The group of a catalogue key (see :func:`pointer_layout`)."""
    kind = str(key[0])
    if kind in ("pass", "activate", "bonus"):
        return "activate"
    if kind in ("spend", "allocate"):
        return "spend"
    if len(key) == 1:  # an action without a target, or end
        return "self"
    return kind


def pointer_layout(catalogue: Any) -> tuple[list[int], list[int], list[int], list[str]]:
    """How a pointer policy scores each catalogue entry: a group, a head and an entity.

    Entities are numbered as a policy sees them: own model slots ``0..S-1``, enemy slots
    ``S..2S-1``, then objective slots ``2S..2S+K-1``. An entry that names a model or an
    objective (``activate own:2 dice:1``, ``shoot enemy:3``, ``move @toward_objective
    objective:0``) points at that entity; the rest (``pass``, ``focus``, ``spend boost``,
    ``move @away``) at none. Entries of the same kind that differ only in their entity share
    a head (``shoot`` at any enemy, ``activate`` with 1 die for any own model). Entries of
    the same decision kind form a group, so that a policy can choose the kind first and the
    entry within it second, and a kind with one legal entry (a charge) is not drowned by one
    with a dozen (the moves). The groups (:func:`decision_group`): one per action that takes
    a target or a destination (``move``, ``charge``, ``shoot``...); one for the actions
    without a target and ``end`` (``self``: aim, focus, rest, take cover, end); one for the
    activation decisions with ``pass`` (``activate``); one for the spend choices (``spend``).
    ``pass`` and ``end`` stay single entries among many, as with a flat softmax: in a group
    of their own an untrained policy would give up half its turns.

    Returns:
        ``(groups, heads, entities, head_names)``: per entry its group index (groups are
        numbered in catalogue order of their first entry), head index and entity index (-1:
        none), and the name of every head.
    """
    s = catalogue.layout.models_per_side
    refs = catalogue.config.destination_refs
    names: dict[str, int] = {}
    group_names: dict[str, int] = {}
    groups: list[int] = []
    heads: list[int] = []
    entities: list[int] = []
    for key in catalogue.keys:
        kind, *rest = key
        entity = -1
        if kind == "activate":
            head, entity = f"activate:{rest[1]}", rest[0]
        elif kind == "bonus":
            head, entity = "bonus", rest[0]
        elif kind in ("spend", "allocate") or not rest:
            head = ":".join(str(part) for part in key)
        else:
            what, ref = rest
            how = {"enemy": "enemy", "friend": "friend", "objective": "objective"}.get(
                what, refs.get(what)
            )
            head = f"{kind}:{what}"
            if ref is not None and how == "enemy":
                entity = s + ref
            elif ref is not None and how == "friend":
                entity = ref
            elif ref is not None and how == "objective":
                entity = 2 * s + ref
        groups.append(group_names.setdefault(decision_group(key), len(group_names)))
        heads.append(names.setdefault(head, len(names)))
        entities.append(int(entity))
    return groups, heads, entities, list(names)


__all__ = [
    "PAIR_FEATURES",
    "TERRAIN_FEATURES",
    "EntityEncoder",
    "decision_group",
    "pointer_layout",
    "terrain_rows",
]
