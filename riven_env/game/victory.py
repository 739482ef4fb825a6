"""Objectives and victory conditions of a scenario (schema: ``docs/scenario-schema.md``).

Condition types: ``eliminate`` (a side with no active models loses at once), ``hold``
(controlled objectives score at the end of each round), ``casualties`` (points per enemy
taken Out or Fled), ``extract`` (named models reach a zone: points or an immediate win),
``protect`` (a side loses at once when a named model is Out or Fled) and ``survive``
(points at the round limit for a side with enough active models). When nothing ended the
game earlier, ``victory.at_round_limit`` decides: ``points``, ``draw`` or ``side:NAME``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riven_env.game.effects import change_momentum, remove
from riven_env.game.model_state import EXTRACTED

if TYPE_CHECKING:
    from riven_env.game.state_data import StateData

SIDES = ("blue", "red")


def _conditions(state: StateData, kind: str):
    return [c for c in state.scenario.victory.conditions if c.type == kind]


def _model_index(state: StateData, model_id: str) -> int | None:
    for model in state.models:
        if model.id == model_id:
            return model.index
    return None


def score(state: StateData, side: str, points: int, reason: str) -> None:
    """Add victory points to ``side`` and record it."""
    if points == 0:
        return
    state.points[side] += points
    state.emit("score", side=side, points=points, total=state.points[side], reason=reason)


def objective_gained(state: StateData, side: str, objective: int, event: str) -> None:
    """A side completed (``looted``, ``extracted``) or held (``controlled``) an objective.

    Records it and grants Momentum: ``momentum.gain.objective`` for completing one (RAW,
    "complete a mission objective"), ``momentum.gain.objective_held`` for holding one at
    the end of a round (House, 0 by default: holding scores points, it completes nothing).
    """
    state.emit("objective", objective=state.objectives[objective].name, side=side, event=event)
    if event == "controlled":
        change_momentum(
            state, side, state.rules.get("momentum.gain.objective_held"), "objective held"
        )
    else:
        change_momentum(state, side, state.rules.get("momentum.gain.objective"), "objective")


def controller(state: StateData, objective: int) -> str | None:
    """The side controlling an objective: only its active models are within the radius."""
    obj = state.objectives[objective]
    gaps = state.distances_to_point((obj.x, obj.y))
    present = set()
    for model in state.models:
        if model.is_active and gaps[model.index] <= obj.radius:
            present.add(model.side)
    return next(iter(present)) if len(present) == 1 else None


def check_immediate(state: StateData) -> None:
    """Check the conditions that end the game at once (eliminate, protect)."""
    if state.over:
        return
    for condition in _conditions(state, "protect"):
        for model_id in condition.models:
            i = _model_index(state, model_id)
            if i is not None and state.models[i].status in ("out", "fled"):
                state.end_game(state.enemy_side(condition.side), "protect")
                return
    if _conditions(state, "eliminate"):
        # A side that got models away by extraction left the table; it was not wiped out.
        wiped = [s for s in SIDES if not state.active_models(s) and not _extracted_any(state, s)]
        if len(wiped) == 2:
            state.end_game(None, "eliminate")
            return
        if wiped:
            state.end_game(state.enemy_side(wiped[0]), "eliminate")
            return
    if not state.active_models("blue") and not state.active_models("red"):
        end_at_round_limit(state, reason="no_models")


def _extracted_any(state: StateData, side: str) -> bool:
    return any(state.models[i].status == EXTRACTED for i in state.side_models(side))


def on_casualty(state: StateData, i: int) -> None:
    """Score ``casualties`` points for the side that took model ``i`` Out or made it flee."""
    enemy = state.enemy_side(state.models[i].side)
    for condition in _conditions(state, "casualties"):
        score(state, enemy, condition.points, f"casualty {state.models[i].id}")


def after_move(state: StateData, i: int) -> None:
    """Check ``extract`` zones after model ``i`` moved."""
    model = state.models[i]
    extracts = _conditions(state, "extract")
    if not extracts or not model.is_active:
        return
    x, y = state.position(i)
    for condition in extracts:
        if model.side != condition.side or model.id not in condition.models or not condition.zone:
            continue
        x0, y0, x1, y1 = condition.zone
        if x0 <= x <= x1 and y0 <= y <= y1:
            extract(state, i, condition)
            return


def extract(state: StateData, i: int, condition=None) -> None:
    """Model ``i`` leaves the table through an extraction point or zone."""
    model = state.models[i]
    conditions = (
        [condition]
        if condition is not None
        else [
            c
            for c in _conditions(state, "extract")
            if c.side == model.side and model.id in c.models
        ]
    )
    remove(state, i, EXTRACTED)
    if state.over:  # nothing follows game_end
        return
    for cond in conditions:
        score(state, model.side, cond.points, f"extracted {model.id}")
        if cond.win:
            state.end_game(model.side, "extract")
            return


def end_of_round(state: StateData) -> None:
    """Score ``hold`` objectives at the end of a round."""
    for condition in _conditions(state, "hold"):
        if state.round < (condition.from_round or 1):
            continue
        for k, obj in enumerate(state.objectives):
            if obj.kind != "hold":
                continue
            side = controller(state, k)
            if side is not None:
                score(state, side, obj.points * max(1, condition.points or 1), f"hold {obj.name}")
                objective_gained(state, side, k, "controlled")


def end_at_round_limit(state: StateData, reason: str = "round_limit") -> None:
    """End the game when the rounds run out, per ``victory.at_round_limit``."""
    if state.over:
        return
    for condition in _conditions(state, "survive"):
        active = len(state.active_models(condition.side))
        if active >= (condition.min_models or 1):
            score(state, condition.side, condition.points, "survived")
    rule = state.scenario.victory.at_round_limit
    if rule.startswith("side:"):
        state.end_game(rule.split(":", 1)[1], reason)
    elif rule == "draw":
        state.end_game(None, reason)
    else:
        blue, red = state.points["blue"], state.points["red"]
        state.end_game(None if blue == red else ("blue" if blue > red else "red"), reason)
