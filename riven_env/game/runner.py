"""Play whole games between agents and collect the event log."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from riven_env.game.decisions import is_listed
from riven_env.game.events import Event
from riven_env.game.state import SIDES, GameState


def agent_seeds(seed: int) -> dict[str, list[int]]:
    """Private seeds of the two agents, derived from the game seed (separate from the dice)."""
    return {side: [int(seed), 1 + k] for k, side in enumerate(SIDES)}


def play(
    state: GameState,
    agents: Mapping[str, Any],
    *,
    max_decisions: int | None = None,
    on_decision: Callable[[GameState], None] | None = None,
    costs: dict[str, dict[str, Any]] | None = None,
) -> list[Event]:
    """Play ``state`` to the end with ``agents`` (side -> Agent); return the new events.

    ``on_decision(state)``, when given, is called after every decision (a progress bar).
    ``costs``, when given, is filled with each side's ``{"decisions", "seconds",
    "cpu_seconds"}`` spent in its agent's ``act`` (wall clock and this process's CPU time, the
    cost on one core whatever else the machine runs; never part of the event log, which
    stays reproducible),
    plus ``"search"``: the agent's own ``stats.summary()`` line when it keeps one.
    """
    from riven_env.errors import IllegalActionError

    events = state.drain_events()
    decisions = 0
    if on_decision is None and getattr(state, "in_core", False):
        # A native game whose agents all sit in the core plays there in one call (no Python
        # per decision: riven_env/native/play.py); what the core leaves over is played below.
        found = state.play_in_core(agents, max_decisions=max_decisions, costs=costs)
        if found is not None:
            events.extend(found[0])
            decisions = found[1]
    while not state.is_terminal:
        if max_decisions is not None and decisions >= max_decisions:
            break
        side = state.current_side
        legal = state.legal_decisions()
        agent = agents[side]
        started, cpu_started = time.perf_counter(), time.process_time()
        decision = agent.act(state, legal)
        if costs is not None:
            spent = costs.setdefault(side, {"decisions": 0, "seconds": 0.0, "cpu_seconds": 0.0})
            spent["decisions"] += 1
            spent["seconds"] += time.perf_counter() - started
            spent["cpu_seconds"] += time.process_time() - cpu_started
        if not is_listed(decision, legal):
            raise IllegalActionError(decision, legal, f"agent {agent.name} for {side}")
        explanation = getattr(agent, "last_explanation", None)
        if explanation:
            state.emit("oracle_decision", **explanation)
        events.extend(state.apply(decision))
        decisions += 1
        if on_decision is not None:
            on_decision(state)
    if costs is not None:
        for side, agent in agents.items():
            stats = getattr(agent, "stats", None)
            if side in costs and callable(getattr(stats, "summary", None)):
                costs[side]["search"] = stats.summary()
    return events
