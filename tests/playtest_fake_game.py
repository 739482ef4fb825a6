"""A FAKE game for playtest tests: synthetic event logs that follow docs/event-log.md.

It stands in for ``riven_env.engines.play_game`` where a test needs exact control of
outcomes (statistics, compare) or speed. It knows one scenario, ``fake-duel``; one rule
override, ``blue_edge`` (added to blue's chance of a wounding shot); and the agents
``random``, ``greedy`` and ``oracle[:PROFILE]``. Anything else raises the same RivenError
subclasses the real game raises for bad input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from riven_env.errors import AgentSpecError, RulesDataError, ScenarioError

FAKE_SCENARIO = "fake-duel"
FAKE_RULES = ("blue_edge",)
FAKE_AGENTS = ("random", "greedy", "oracle")
ORACLE_RULES = ("finish-down", "charge-nearest", "shoot-best", "advance")
MODELS_PER_SIDE = 2
ROUND_LIMIT = 6


def _check(scenario: str, agents: list[str], overrides: Mapping[str, object]) -> None:
    if scenario != FAKE_SCENARIO:
        raise ScenarioError(f"unknown scenario {scenario!r}; allowed: {FAKE_SCENARIO}")
    for agent in agents:
        if agent.split(":")[0] not in FAKE_AGENTS:
            raise AgentSpecError(f"unknown agent {agent!r}; allowed: {', '.join(FAKE_AGENTS)}")
    for key in overrides:
        if key not in FAKE_RULES:
            raise RulesDataError(f"unknown rules key {key!r}; allowed: {', '.join(FAKE_RULES)}")


def play_game(
    scenario: str,
    blue: str,
    red: str,
    seed: int,
    *,
    overrides: Mapping[str, object] | None = None,
    max_decisions: int | None = None,
) -> list[dict[str, Any]]:
    """Play a fake game; same arguments as the real ``play_game``."""
    overrides = dict(overrides or {})
    _check(scenario, [blue, red], overrides)
    rng = np.random.default_rng(seed)
    agents = {"blue": blue, "red": red}
    edge = float(overrides.get("blue_edge", 0.0))
    models = []
    for side in ("blue", "red"):
        for k in range(MODELS_PER_SIDE):
            oracle = agents[side].split(":")[1] if agents[side].startswith("oracle:") else None
            models.append(
                {"id": f"{side}-{k}", "side": side, "profile": "veteran", "name": f"{side} {k}",
                 "x": 1.0, "y": 1.0, "base": 1.0, "wounds": 2, "mettle": 3 + k, "might": 2,
                 "agility": 2, "wit": 2, "resolve": 2, "move": 5, "strain_max": 4,
                 "keywords": [], "oracle": oracle}
            )  # fmt: skip
    first = "blue" if rng.random() < 0.5 else "red"
    events: list[dict[str, Any]] = [
        {"type": "game_start", "schema": 1, "scenario": scenario, "title": "Fake duel",
         "setting": "fantasy", "mode": "versus", "seed": seed,
         "rules": {"source": "fake", "overrides": overrides}, "rounds": ROUND_LIMIT,
         "first_side": first, "agents": agents, "table": {"width": 24, "height": 24, "terrain": []},
         "deployment": {}, "objectives": [], "sides": {"blue": {"name": "Blue"}, "red": {"name": "Red"}},
         "models": models}
    ]  # fmt: skip
    wounds = {m["id"]: m["wounds"] for m in models}
    alive = {m["id"] for m in models}
    decisions = 0

    def emit(event: dict[str, Any], rnd: int, side: str | None) -> None:
        events.append({**event, "seq": len(events) - 1, "round": rnd, "side": side})

    order = [first, "red" if first == "blue" else "blue"]
    rnd = 0
    winner: str | None = None
    while winner is None and rnd < ROUND_LIMIT:
        rnd += 1
        emit({"type": "round_start"}, rnd, None)
        for side in order:
            emit({"type": "turn_start"}, rnd, side)
            enemy = "red" if side == "blue" else "blue"
            for model in (m for m in models if m["side"] == side and m["id"] in alive):
                decisions += 1
                emit({"type": "decision", "decision": "activate", "kind": "activate"}, rnd, side)
                if agents[side].startswith("oracle"):
                    rule = ORACLE_RULES[int(rng.integers(len(ORACLE_RULES) - 1))]
                    emit({"type": "oracle_decision", "model": model["id"],
                          "profile": model["oracle"] or "aggressive", "rule": rule,
                          "decision": "activate", "explanation": "fake"}, rnd, side)  # fmt: skip
                dice = [int(d) for d in rng.integers(1, 7, size=int(rng.integers(1, 4)))]
                successes = sum(d >= model["mettle"] for d in dice)
                passes = successes == 0 or (successes == 1 and len(dice) > 1)
                emit({"type": "activation", "model": model["id"], "mettle": model["mettle"],
                      "dice": dice, "successes": successes, "actions": successes,
                      "turn_passes": passes, "bonus": False}, rnd, side)  # fmt: skip
                if successes:
                    targets = sorted(t for t in alive if t.startswith(enemy))
                    if not targets:
                        break
                    target = targets[0]
                    chance = 0.35 + (edge if side == "blue" else 0.0)
                    result = "hit" if rng.random() < chance else "miss"
                    emit({"type": "shot", "shooter": model["id"], "target": target,
                          "cover": "none", "tn": 8, "modifiers": [], "dice": [3, 4],
                          "total": 9, "result": result}, rnd, side)  # fmt: skip
                    if result == "hit":
                        wounds[target] -= 1
                        emit({"type": "wound", "model": target, "amount": 1,
                              "wounds_left": wounds[target], "source": model["id"],
                              "cause": "shot"}, rnd, side)  # fmt: skip
                        if wounds[target] == 0:
                            emit({"type": "down", "model": target}, rnd, side)
                            emit({"type": "removed", "model": target, "reason": "out"}, rnd, side)
                            alive.discard(target)
                            for friend in sorted(t for t in alive if t.startswith(enemy)):
                                die = int(rng.integers(1, 7))
                                fled = die < 3
                                emit({"type": "morale", "model": friend, "trigger": "friend_out",
                                      "mettle": 4, "die": die, "passed": die >= 4,
                                      "flee_distance": 0 if die >= 4 else die + 3,
                                      "fled_off_table": fled}, rnd, side)  # fmt: skip
                                if fled:
                                    emit(
                                        {"type": "removed", "model": friend, "reason": "fled"},
                                        rnd,
                                        side,
                                    )
                                    alive.discard(friend)
                    else:
                        emit({"type": "strain", "model": model["id"], "delta": 1, "value": 1,
                              "reason": "push"}, rnd, side)  # fmt: skip
                    if rng.random() < 0.2:
                        emit({"type": "momentum", "owner": side, "delta": 1, "value": 1,
                              "reason": "critical"}, rnd, side)  # fmt: skip
                        emit({"type": "momentum", "owner": side, "delta": -1, "value": 0,
                              "reason": "reroll"}, rnd, side)  # fmt: skip
                if passes:
                    break
            if not any(t.startswith(enemy) for t in alive):
                winner = side
            emit({"type": "turn_end", "reason": "pass"}, rnd, side)
            if winner is not None or (max_decisions is not None and decisions >= max_decisions):
                break
        emit({"type": "round_end"}, rnd, None)
        if max_decisions is not None and decisions >= max_decisions and winner is None:
            return events  # cut short: no game_end
    # Round limit: the side with more models left wins; equal numbers draw.
    points = {s: sum(1 for t in alive if t.startswith(s)) for s in ("blue", "red")}
    if winner is None and points["blue"] != points["red"]:
        winner = "blue" if points["blue"] > points["red"] else "red"
    emit({"type": "game_end", "winner": winner, "draw": winner is None,
          "reason": "annihilation" if winner and rnd < ROUND_LIMIT else "round_limit",
          "rounds": rnd, "points": points}, rnd, None)  # fmt: skip
    return events
