"""The side-relative layout shared by the observation encoder and the action catalogue.

Both see the game from one side ("own") against the other ("enemy"): own models fill slots
``0..S-1`` in scenario order, enemy models fill slots ``0..S-1`` of the enemy block, and
unused slots are padding. ``S`` (models per side) and ``K`` (objectives) are fixed when the
encoder or catalogue is built, so that a policy's input and output sizes never change within
a scenario (or across scenarios that share the same padding).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riven_env.encoding.config import CatalogueError

SIDES = ("blue", "red")


def enemy_of(side: str) -> str:
    """The other side."""
    return "red" if side == "blue" else "blue"


@dataclass(frozen=True)
class Layout:
    """Padding sizes and each side's model order.

    Attributes:
        models_per_side: ``S``, the number of model slots of each side.
        objectives: ``K``, the number of objective slots.
        side_models: Side -> model indices (``GameState.models`` order) of that side.
    """

    models_per_side: int
    objectives: int
    side_models: dict[str, tuple[int, ...]]

    def slot_of(self, model: int, side: str) -> int:
        """The slot of model ``model`` within ``side``'s block.

        Raises:
            CatalogueError: The model is not one of ``side``'s models.
        """
        try:
            return self.side_models[side].index(model)
        except ValueError:
            raise CatalogueError(
                f"model {model} is not a {side} model (the {side} models are "
                f"{list(self.side_models[side])})"
            ) from None

    def model_at(self, slot: int, side: str) -> int | None:
        """The model index in ``side``'s slot ``slot`` (None for a padding slot)."""
        models = self.side_models[side]
        return models[slot] if 0 <= slot < len(models) else None


def _source_parts(source: Any) -> tuple[Any, Any]:
    """(scenario, rules) of a scenario, game state, bundled name or path."""
    if hasattr(source, "legal_decisions"):  # a GameState
        return source.scenario, source.rules
    if isinstance(source, str | Path):
        from riven_env.rules import load_rules
        from riven_env.scenario import load_scenario

        rules = load_rules()
        return load_scenario(source, rules=rules), rules
    return source, None


def build_layout(
    source: Any,
    *,
    models_per_side: int | None = None,
    objectives: int | None = None,
) -> tuple[Layout, Any]:
    """The layout of a scenario (or game state), and the rules of a game state if given.

    Args:
        source: A loaded Scenario, a GameState, or a bundled scenario name or path.
        models_per_side: Pad each side to this many slots (default: the larger side).
        objectives: Pad objectives to this many slots (default: the scenario's count, at
            least 1).

    Returns:
        ``(layout, rules)``; ``rules`` is None when ``source`` carries none.

    Raises:
        CatalogueError: A padding size is smaller than the scenario needs.
    """
    scenario, rules = _source_parts(source)
    counts = {side: len(scenario.sides[side].models) for side in SIDES}
    order: dict[str, list[int]] = {side: [] for side in SIDES}
    for index, entry in enumerate(scenario.models()):
        order[entry.side].append(index)
    need = max(counts.values())
    size = need if models_per_side is None else int(models_per_side)
    if size < need:
        raise CatalogueError(
            f"models_per_side={models_per_side} is too small: scenario {scenario.name!r} "
            f"has {need} models on its larger side"
        )
    n_obj = len(scenario.objectives)
    # At least one (padding) slot, so that the objectives block never has a zero dimension.
    k = max(n_obj, 1) if objectives is None else int(objectives)
    if k < n_obj:
        raise CatalogueError(
            f"objectives={objectives} is too small: scenario {scenario.name!r} has {n_obj}"
        )
    layout = Layout(
        models_per_side=size,
        objectives=k,
        side_models={side: tuple(order[side]) for side in SIDES},
    )
    return layout, rules
