"""Play whole games between agents and collect the event log."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from riven_env.game.decisions import is_listed
from riven_env.game.events import Event
from riven_env.game.setup import new_game
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
        from riven_env.native.play import play_in_core

        found = play_in_core(state, agents, max_decisions=max_decisions, costs=costs)
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


def play_game(
    scenario: Any,
    blue: str,
    red: str,
    seed: int,
    *,
    overrides: Mapping[str, object] | None = None,
    max_decisions: int | None = None,
    on_decision: Callable[[GameState], None] | None = None,
    costs: dict[str, dict[str, Any]] | None = None,
    engine: str | None = None,
) -> list[Event]:
    """Play one game of ``scenario`` between the agents named ``blue`` and ``red``.

    Args:
        scenario: A bundled scenario name, a file path or a loaded Scenario.
        blue: Agent spec for blue (``"oracle"``, ``"random"``, ``"mcts:100"``...).
        red: Agent spec for red.
        seed: The game seed: dice and both agents' private streams derive from it.
        overrides: Rules data overrides for this game.
        max_decisions: Stop early after this many decisions (the game is then unfinished).
        on_decision: Called with the state after every decision.
        costs: Filled with each side's decisions and seconds spent deciding (see :func:`play`).
        engine: ``"auto"``, ``"python"`` or ``"native"`` (None: the process default,
            ``--engine``, else ``auto``: native where the core can play the game).

    Returns:
        The event log (JSON-ready dicts; ``docs/event-log.md``).
    """
    from riven_agents.registry import make_agent

    state = new_game(
        scenario,
        int(np.uint64(seed)) if seed is not None else None,
        overrides=overrides,
        engine=engine,
    )
    seeds = agent_seeds(seed)
    agents = {
        "blue": make_agent(blue, "blue", seeds["blue"]),
        "red": make_agent(red, "red", seeds["red"]),
    }
    events = state.drain_events()
    events[0]["agents"] = {"blue": blue, "red": red}
    # The Oracle profiles each side really plays with, resolved by the agent itself (an
    # ``oracle:PROFILE`` spec overrides the scenario's): reports name them per side.
    # (A native game answers from the state it started from: the models' profiles and Oracle
    # names never change, and its position need not be exported.)
    start = getattr(state, "start_state", state)
    events[0]["oracle_profiles"] = {
        side: agent.resolved_profiles(start)
        for side, agent in agents.items()
        if callable(getattr(agent, "resolved_profiles", None))
    }
    events.extend(
        play(state, agents, max_decisions=max_decisions, on_decision=on_decision, costs=costs)
    )
    return events
