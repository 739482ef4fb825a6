"""The action catalogue: every decision of a scenario as one index of a fixed ``Discrete`` space.

A decision point of RIVEN is one of three phases (``docs/environments.md``, "Action
catalogue"): choosing what to activate, choosing the active model's next action, or choosing
a spend on a pending 2d6 test. One catalogue covers all three, seen from the side to play:

* ``pass``;
* ``activate own:s dice:d`` for each own model slot ``s`` and dice count ``d``;
* ``bonus own:s`` (a Momentum bonus activation);
* for each action of the rules data (``[actions.*]``), in data order, one entry per target
  the action's ``target`` kind allows: ``none`` one entry; ``enemy`` one per enemy slot;
  ``friend`` one per own slot (a model may target itself); ``objective`` one per objective
  slot; ``destination`` one per candidate destination kind and ref slot (``encoding.toml``,
  ``[destinations]``; kinds the tabletop offers once at a time take one entry). Only the active model acts in the action phase, so actions carry no
  model axis;
* ``spend`` with each option (``reroll:0`` .. ``reroll:N-1`` for the N test dice, ``boost``,
  ``strain``) and ``spend accept``; under another resolution system its own
  ``choice_vocabulary()`` (``spend`` and pre-roll ``allocate`` options) before ``spend accept``.

The catalogue is side-relative (own/enemy slots), so one policy can play either side.
:meth:`ActionCatalogue.mask` marks exactly the legal decisions; distinct legal decisions
always take distinct indices (:class:`CatalogueError` otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from riven_env.encoding.config import CatalogueError, EncodingConfig, load_encoding_config
from riven_env.encoding.layout import Layout, build_layout, enemy_of
from riven_env.errors import IllegalActionError
from riven_env.game.actions import DISENGAGE_KINDS
from riven_env.game.decisions import Decision
from riven_env.rules import RulesConfig, action_specs, load_rules
from riven_env.rules.resolution import get_resolution

ACCEPT_OPTION = "accept"

# Destination kinds each destination action may take, where the game restricts them (a
# disengaging model never moves toward an enemy): entries that could never be legal are left
# out of the catalogue.
DESTINATION_KINDS_BY_ACTION: dict[str, frozenset[str]] = {"disengage": DISENGAGE_KINDS}

Key = tuple[Any, ...]
# Decisions whose index one catalogue remembers per side (by identity, see legal_index); the
# memo starts afresh when full. The game shares one object per distinct decision, so a
# scenario needs a few hundred.
_INDEX_MEMO_LIMIT = 4096
# Decision kinds that are not actions of the rules data.
_DECISION_POINT_KINDS = frozenset({"pass", "activate", "bonus", "spend", "allocate"})


class ActionCatalogue:
    """A fixed, side-relative numbering of every decision of a scenario.

    Args:
        source: A loaded Scenario, a GameState, or a bundled scenario name or path.
        rules: Rules data (default: the game state's rules, else the bundled rules).
        models_per_side: Model slots per side (default: the larger side of the scenario).
        objectives: Objective slots (default: the scenario's objectives, at least 1).
        config: Encoding data (default: the bundled ``encoding.toml``).

    Attributes:
        size: Number of entries (the ``Discrete`` size).
        labels: A readable label per index (``"shoot enemy:2"``).
        layout: The side-relative slot layout.
    """

    def __init__(
        self,
        source: Any,
        *,
        rules: RulesConfig | None = None,
        models_per_side: int | None = None,
        objectives: int | None = None,
        config: EncodingConfig | None = None,
    ) -> None:
        layout, state_rules = build_layout(
            source, models_per_side=models_per_side, objectives=objectives
        )
        self.layout: Layout = layout
        self.rules: RulesConfig = rules or state_rules or load_rules()
        self.config = config or load_encoding_config()
        self._specs = action_specs(self.rules)
        # Lookups for key_of: each action's target kind (the activation and spend kinds keep
        # their meaning whatever the rules data name), each model's slot by side.
        self._targets: dict[str, str] = {
            name: spec.target
            for name, spec in self._specs.items()
            if name not in _DECISION_POINT_KINDS
        }
        self._slots: dict[str, dict[int, int]] = {
            side: {model: slot for slot, model in enumerate(models)}
            for side, models in layout.side_models.items()
        }
        keys = self._build_keys()
        self._keys: tuple[Key, ...] = tuple(keys)
        self._index: dict[Key, int] = {key: i for i, key in enumerate(keys)}
        refs = self.config.destination_refs
        self.labels: tuple[str, ...] = tuple(_label(key, refs) for key in keys)
        self.size: int = len(keys)
        self._memo: dict[str, dict[int, tuple[Decision, int]]] = {}

    # ------------------------------------------------------------------ layout
    def _build_keys(self) -> list[Key]:
        slots = range(self.layout.models_per_side)
        objective_slots = range(self.layout.objectives)
        max_dice = int(self.rules.get("activation.max_dice"))
        keys: list[Key] = [("pass",)]
        keys += [("activate", s, d) for s in slots for d in range(1, max_dice + 1)]
        keys += [("bonus", s) for s in slots]
        for name, spec in self._specs.items():
            if spec.target == "none":
                keys.append((name,))
            elif spec.target in ("enemy", "friend"):
                keys += [(name, spec.target, s) for s in slots]
            elif spec.target == "objective":
                keys += [(name, "objective", k) for k in objective_slots]
            else:  # destination
                allowed = DESTINATION_KINDS_BY_ACTION.get(name)
                for kind, ref in self.config.destination_refs.items():
                    if allowed is not None and kind not in allowed:
                        continue
                    if ref in ("none", "single"):
                        keys.append((name, kind, None))
                    elif ref == "objective":
                        keys += [(name, kind, k) for k in objective_slots]
                    else:
                        keys += [(name, kind, s) for s in slots]
        # The resolution system's choices on a pending roll (RIVEN: a reroll of each test
        # die, boost, strain), then accept: under RIVEN the same entries as ever.
        system = get_resolution(str(self.rules.get("meta.resolution")), self.rules)
        keys += [(kind, option) for kind, option in system.choice_vocabulary()]
        keys.append(("spend", ACCEPT_OPTION))
        return keys

    # ------------------------------------------------------------------ encoding
    def key_of(self, decision: Decision, side: str) -> Key:
        """The side-relative key of ``decision`` taken by ``side``.

        Raises:
            CatalogueError: The decision has a kind, target or destination the catalogue
                cannot place (the message names it).
        """
        kind = decision.kind
        # Actions first: most decision points are the active model's actions.
        target = self._targets.get(kind)
        if target is not None:
            if target == "none":
                return (kind,)
            if target == "enemy":
                return (kind, "enemy", self._slot(decision.target, enemy_of(side)))
            if target == "friend":
                return (kind, "friend", self._slot(decision.target, side))
            return self._destination_key(decision, side, target)
        if kind == "activate":
            return ("activate", self._slot(decision.model, side), decision.dice)
        if kind == "spend" or kind == "allocate":
            return (kind, decision.option)
        if kind == "pass":
            return ("pass",)
        if kind == "bonus":
            return ("bonus", self._slot(decision.model, side))
        raise CatalogueError(
            f"decision {decision}: kind {kind!r} is neither pass/activate/bonus/spend nor "
            f"an action of the rules data ({', '.join(self._specs)})"
        )

    def _slot(self, model: int, side: str) -> int:
        """:meth:`Layout.slot_of`, by dict (it raises for a model not of ``side``)."""
        slot = self._slots[side].get(model)
        return self.layout.slot_of(model, side) if slot is None else slot

    def _destination_key(self, decision: Decision, side: str, target: str) -> Key:
        """The key of an action that targets an objective or a destination."""
        kind = decision.kind
        if decision.destination is None:
            raise CatalogueError(f"decision {decision}: action {kind!r} needs a destination")
        dest_kind, ref = decision.destination
        if target == "objective":
            return (kind, "objective", ref)
        how = self.config.destination_refs.get(dest_kind)
        if how is None:
            raise CatalogueError(
                f"decision {decision}: destination kind {dest_kind!r} is not in "
                f"{self.config.source} [destinations] ({', '.join(self.config.destination_refs)})"
            )
        if how == "enemy":
            return (kind, dest_kind, self._slot(ref, enemy_of(side)))
        if how == "friend":
            return (kind, dest_kind, self._slot(ref, side))
        if how == "single":
            return (kind, dest_kind, None)
        if how == "none" and ref is not None:
            raise CatalogueError(
                f"decision {decision}: destination kind {dest_kind!r} is declared without a "
                f"ref in {self.config.source}, but the game gave ref {ref!r}"
            )
        return (kind, dest_kind, ref)

    def encode(self, decision: Decision, state: Any) -> int:
        """The index of ``decision`` for the side to play in ``state``.

        Raises:
            CatalogueError: The decision has no index (see :meth:`key_of`).
        """
        key = self.key_of(decision, _side_to_play(state))
        index = self._index.get(key)
        if index is None:
            raise CatalogueError(
                f"decision {decision} (key {key}) is outside the catalogue of {self.size} "
                f"entries (models per side {self.layout.models_per_side}, objectives "
                f"{self.layout.objectives})"
            )
        return index

    def legal_index(
        self, state: Any, legal: Sequence[Decision] | None = None
    ) -> dict[int, Decision]:
        """Index -> legal decision, for every legal decision of ``state``.

        Raises:
            CatalogueError: Two legal decisions share an index, or one has none.
        """
        if legal is None:
            legal = state.legal_decisions()
        side = _side_to_play(state)
        memo = self._memo.get(side)
        if memo is None:
            memo = self._memo[side] = {}
        found: dict[int, Decision] = {}
        for decision in legal:
            # Decisions are immutable and the game hands out one shared object per choice,
            # so an index found once holds for that object (kept alive by the memo, so its
            # id cannot be reused while remembered).
            remembered = memo.get(id(decision))
            if remembered is not None and remembered[0] is decision:
                index = remembered[1]
            else:
                index = self._index_of(decision, side)
                if len(memo) >= _INDEX_MEMO_LIMIT:
                    memo.clear()
                memo[id(decision)] = (decision, index)
            if index in found:
                raise CatalogueError(
                    f"legal decisions {found[index]} and {decision} share catalogue index "
                    f"{index} ({self.labels[index]})"
                )
            found[index] = decision
        return found

    def _index_of(self, decision: Decision, side: str) -> int:
        """The index of legal ``decision`` taken by ``side``.

        Raises:
            CatalogueError: The decision has no index.
        """
        index = self._index.get(self.key_of(decision, side))
        if index is None:
            raise CatalogueError(f"legal decision {decision} is outside the catalogue")
        return index

    def mask(self, state: Any, legal: Sequence[Decision] | None = None) -> np.ndarray:
        """A bool array of :attr:`size`: True exactly at the legal decisions' indices."""
        mask = np.zeros(self.size, dtype=bool)
        if state.is_terminal:
            return mask
        indices = list(self.legal_index(state, legal))
        mask[indices] = True
        return mask

    def decode(self, index: int, state: Any) -> Decision:
        """The legal decision at ``index`` in ``state``.

        Raises:
            IllegalActionError: ``index`` is out of range or not legal now; the message
                names the entry and lists the legal decisions.
        """
        legal = state.legal_decisions()
        index = int(index)
        if not 0 <= index < self.size:
            raise IllegalActionError(
                f"action index {index}", legal, f"the catalogue has indices 0..{self.size - 1}"
            )
        decision = self.legal_index(state, legal).get(index)
        if decision is None:
            raise IllegalActionError(
                f"action {index} ({self.labels[index]})", legal, "masked out in this state"
            )
        return decision

    @property
    def keys(self) -> tuple[Key, ...]:
        """The key of every index, in index order (``("shoot", "enemy", 2)``...)."""
        return self._keys

    def __repr__(self) -> str:
        return (
            f"ActionCatalogue(size={self.size}, models_per_side={self.layout.models_per_side}, "
            f"objectives={self.layout.objectives})"
        )


def _side_to_play(state: Any) -> str:
    side = state.current_side
    return side if side is not None else state.side


def _label(key: Key, refs: Any) -> str:
    kind, *rest = key
    if kind == "activate":
        return f"activate own:{rest[0]} dice:{rest[1]}"
    if kind == "bonus":
        return f"bonus own:{rest[0]}"
    if kind == "spend" or kind == "allocate":
        return f"{kind} {rest[0]}"
    if not rest:
        return kind
    what, ref = rest
    if what == "enemy" or what == "friend":
        return f"{kind} {'enemy' if what == 'enemy' else 'own'}:{ref}"
    if what == "objective":
        return f"{kind} objective:{ref}"
    slot = {"enemy": "enemy", "friend": "own", "objective": "objective"}.get(refs.get(what))
    return f"{kind} @{what}" + ("" if ref is None else f" {slot}:{ref}")
