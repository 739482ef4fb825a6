"""A heuristic value of a game state for one side, shared by the greedy and MCTS agents.

The value is in [-1, 1]: a finished game is exact (+1 win, -1 loss, 0 draw); otherwise each
feature is measured for both sides, the weighted differences are summed and squashed with
``tanh`` so that no feature can push the estimate past a certain result.

Features (each "mine minus theirs"):

* ``wounds``: share of the side's starting wounds still on active models;
* ``models``: share of the side's models still active;
* ``on_table``: share still on the table (a Down model may yet be stabilised);
* ``points``: victory points (per point);
* ``objectives``: hold objectives controlled now (per objective);
* ``proximity``: for each hold objective, how close the side's nearest active model is
  (1 at the objective, 0 across the table's diagonal);
* ``holding``: the points the hold objectives controlled now would score if held to the
  end: each one's points times the end-of-round scorings left (this round's included,
  none before the condition's ``from_round``). ``objectives`` sees control now; this sees
  what it is worth over the rounds that remain (an early hold is worth more than a late
  one). Its default weight is 0 (greedy and mcts do not use it; the expert's settings do);
* ``momentum``: Momentum tokens (per token);
* ``tempo``: actions left to the side's active model (it is about to use them).
* ``threat``: the wounds the side's shooters would expect to deal if each shot now at its
  best target in range and sight (a wound for any result but a Miss, at the exact odds of
  ``riven_env.rules.odds.shoot_odds`` against the target's cover), as a share of the
  enemy's starting wounds. It sees one enemy turn ahead what the other features see only
  once the shots are rolled: standing in the open within an archer's sight costs, cover
  and sight lines of one's own pay. Its default weight is 0 (greedy and mcts do not use
  it; the expert's settings do), and it is computed only when its weight is not 0.

On a game played by the native core (a ``NativeGameState``, ``engine="native"``) the features
are computed in the core (``cpp/riven/agents/evaluation.cpp``) on the core's own state, with the
same float operations summed in the same order: the same total bit for bit
(tests/test_native_evaluation.py), with no Python state built. The exact shot odds are not in
the core: the chance that a shot wounds is handed over once per game, per profile and cover.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from riven_env.game import GameState
from riven_env.game.state import SIDES
from riven_env.game.victory import controller


@dataclass(frozen=True)
class EvaluationWeights:
    """Weights of the features (see the module docstring); ``scale`` multiplies the sum
    before ``tanh`` (larger: the value saturates sooner)."""

    # Casualties decide most games, so the three casualty features carry most weight.
    wounds: float = 1.0
    models: float = 1.0
    on_table: float = 0.4
    # One victory point is worth about a quarter of a model in a 5-model warband.
    points: float = 0.25
    objectives: float = 0.2
    # Off by default (the expert turns it on): the future scorings of what is held now.
    holding: float = 0.0
    # Small: it only breaks ties between moves that change nothing else.
    proximity: float = 0.1
    momentum: float = 0.03
    tempo: float = 0.02
    # Off by default: it costs a sight check per shooter and target (the expert turns it on).
    threat: float = 0.0
    scale: float = 1.0


DEFAULT_WEIGHTS = EvaluationWeights()


# (rules, agility, cover) -> chance that a shot wounds (exact odds, as a float).
_WOUND_CHANCE: dict[tuple[int, int, str], float] = {}


def _wound_chance(state: GameState, agility: int, cover: str) -> float:
    from riven_env.rules.odds import shoot_odds

    key = (id(state.rules), agility, cover)
    found = _WOUND_CHANCE.get(key)
    if found is None:
        if len(_WOUND_CHANCE) > 1024:  # a guard: a handful of entries per rules set
            _WOUND_CHANCE.clear()
        found = _WOUND_CHANCE[key] = 1.0 - float(shoot_odds(agility, cover, 0, state.rules)["miss"])
    return found


# The core's EvaluationGame of a game, by its ForwardModel (kept beside it, so that an id
# reused by a later model is never mistaken for it), and the core's weights by their values.
_NATIVE_GAMES: dict[int, tuple[Any, Any]] = {}
_NATIVE_WEIGHTS: dict[EvaluationWeights, Any] = {}
_NATIVE_LIMIT = 64


def native_game(state: Any) -> Any:
    """The core's ``EvaluationGame`` of a NativeGameState's game (built once per game)."""
    model = state.model
    found = _NATIVE_GAMES.get(id(model))
    if found is not None and found[0] is model:
        return found[1]
    from riven_env.native import load

    like = state.start_state  # the game's scenario, rules, table and profiles
    covers = list(like.rules.get("shooting.cover_tn"))
    game = load().EvaluationGame()
    game.diagonal = math.hypot(like.table.width, like.table.height)
    game.covers = covers
    game.wound_chance = [
        _wound_chance(like, profile.agility, cover)
        for profile in state.native.statics.profiles
        for cover in covers
    ]
    game.validate(state.native.statics)
    if len(_NATIVE_GAMES) >= _NATIVE_LIMIT:
        _NATIVE_GAMES.clear()
    _NATIVE_GAMES[id(model)] = (model, game)
    return game


def native_weights(weights: EvaluationWeights) -> Any:
    """The core's ``EvaluationWeights`` of ``weights`` (``scale`` stays in Python)."""
    found = _NATIVE_WEIGHTS.get(weights)
    if found is None:
        from riven_env.native import load

        found = load().EvaluationWeights()
        for name, value in asdict(weights).items():
            if name != "scale":
                setattr(found, name, float(value))
        if len(_NATIVE_WEIGHTS) >= _NATIVE_LIMIT:
            _NATIVE_WEIGHTS.clear()
        _NATIVE_WEIGHTS[weights] = found
    return found


def threat(state: GameState, side: str) -> float:
    """Expected wounds if every active shooter of ``side`` shot its best target now.

    As a share of the enemy's starting wounds (see the module docstring, ``threat``).
    """
    from riven_env.game.actions import shot_targets

    if getattr(state, "in_core", False):  # a NativeGameState: in the core, on its own state
        from riven_env.native import load

        return load().evaluation_threat(
            state.model, state.native, SIDES.index(side), native_game(state)
        )

    total = 0.0
    for i in state.active_models(side):
        model = state.models[i]
        if model.profile.ranged is None:
            continue
        agility = model.profile.agility
        best = max(
            (_wound_chance(state, agility, cover) for _, cover in shot_targets(state, i)),
            default=0.0,
        )
        total += best
    enemy = [state.models[i] for i in state.side_models(state.enemy_side(side))]
    return total / (sum(m.profile.wounds for m in enemy) or 1)


def _holding(state: GameState, side: str) -> float:
    """Points the hold objectives ``side`` controls now would score if held to the end."""
    conditions = [c for c in state.scenario.victory.conditions if c.type == "hold"]
    total = 0.0
    for condition in conditions:
        first = max(state.round, condition.from_round or 1)
        scorings = max(0, state.round_limit - first + 1)
        if not scorings:
            continue
        for k, obj in enumerate(state.objectives):
            if obj.kind == "hold" and controller(state, k) == side:
                total += obj.points * max(1, condition.points or 1) * scorings
    return total


def _side_features(
    state: GameState, side: str, weights: EvaluationWeights | None = None
) -> dict[str, float]:
    models = [state.models[i] for i in state.side_models(side)]
    start_wounds = sum(m.profile.wounds for m in models) or 1
    count = len(models) or 1
    active = [m for m in models if m.is_active]
    features = {
        "wounds": sum(m.wounds for m in active) / start_wounds,
        "models": len(active) / count,
        "on_table": sum(1 for m in models if m.on_table) / count,
        "points": float(state.points.get(side, 0)),
        "momentum": float(state.momentum_of(side)),
        "tempo": float(state.actions_left)
        if state.active_model is not None and state.models[state.active_model].side == side
        else 0.0,
    }
    held = 0.0
    proximity = 0.0
    diagonal = math.hypot(state.table.width, state.table.height)
    for k, obj in enumerate(state.objectives):
        if obj.kind != "hold":
            continue
        if controller(state, k) == side:
            held += 1.0
        nearest = min(
            (state.distance_to_point(m.index, (obj.x, obj.y)) for m in active), default=diagonal
        )
        proximity += max(0.0, 1.0 - nearest / diagonal)
    features["objectives"] = held
    features["proximity"] = proximity
    if weights is not None and weights.holding:
        features["holding"] = _holding(state, side)
    if weights is not None and weights.threat:
        features["threat"] = threat(state, side)
    return features


def weighted_total(
    state: GameState, side: str, weights: EvaluationWeights = DEFAULT_WEIGHTS
) -> float:
    """The weighted sum of feature differences ("mine minus theirs") before any squashing.

    ``evaluate`` squashes it with ``tanh``; a search that compares states with one another
    (the expert's ``value.baseline``) may subtract a reference state's total first, so that
    the squash does not flatten the differences of a game far from even. A finished game
    has no special case here (its features are read like any other state's).

    Args:
        state: The game (not changed).
        side: The side whose view the total takes.
        weights: Feature weights (``scale`` is not applied).
    """
    if getattr(state, "in_core", False):  # a NativeGameState: in the core, on its own state
        from riven_env.native import load

        return load().evaluation_total(
            state.model,
            state.native,
            SIDES.index(side),
            native_weights(weights),
            native_game(state),
        )
    mine = _side_features(state, side, weights)
    theirs = _side_features(state, state.enemy_side(side), weights)
    return sum(getattr(weights, name) * (mine[name] - theirs[name]) for name in mine)


def evaluate(state: GameState, side: str, weights: EvaluationWeights = DEFAULT_WEIGHTS) -> float:
    """The value of ``state`` for ``side``, in [-1, 1].

    Args:
        state: The game (not changed).
        side: The side whose view the value takes.
        weights: Feature weights.

    Returns:
        +1 / -1 / 0 for a finished game won / lost / drawn; otherwise a ``tanh``-squashed
        weighted sum of feature differences, strictly inside (-1, 1).
    """
    if state.is_terminal:
        winner = state.result["winner"] if getattr(state, "in_core", False) else state.winner
        if winner is None:
            return 0.0
        return 1.0 if winner == side else -1.0
    total = weighted_total(state, side, weights)
    # Keep a non-terminal estimate strictly inside the exact results of finished games.
    return max(-0.999, min(0.999, math.tanh(weights.scale * total)))


__all__ = [
    "DEFAULT_WEIGHTS",
    "EvaluationWeights",
    "evaluate",
    "native_game",
    "native_weights",
    "weighted_total",
]
