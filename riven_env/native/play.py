"""Whole games played in the native core: no Python per decision (issue 13).

:func:`play_in_core` is what :func:`riven_env.game.runner.play` does when the game is a
:class:`~riven_env.native.loop.NativeGameState` routed by the core's planner and both agents can
take a seat in the core (``agent.core_seat(state)``: the Enemy Oracle, plain ``oracle`` or
``native-oracle``, with each side's own profiles or a forced one, and the random agent). One
native call (``play_seats``, ``cpp/riven/oracle/play.hpp``) then plays the game with the GIL
released: each side decided by ``riven::oracle::decide`` on the loop's own state (or by
``legal[integers(0, len(legal))]`` for random) on the agent's own stream, the Oracle's
``oracle_decision`` explanation worded in the core from the profile's card lines, so the event
log and the dice are those of the Python loop, byte for byte (tests/test_native_oracle_loop.py).
The agents' streams are handed back afterwards (``agent.seat_done(stream)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from riven_env.game.state import SIDES

__all__ = ["core_seats", "play_in_core", "rollout_in_core"]


def core_seats(state: Any, agents: Mapping[str, Any]) -> list[tuple[Any, Any]] | None:
    """Each side's seat in the core, blue then red, or None when a side cannot sit there."""
    if not getattr(state, "in_core", False) or not state.model.native_planner:
        return None
    seats = []
    for side in SIDES:
        seat = getattr(agents[side], "core_seat", None)
        found = seat(state) if callable(seat) else None
        if found is None:
            return None
        seats.append(found)
    return seats


def play_in_core(
    state: Any,
    agents: Mapping[str, Any],
    *,
    max_decisions: int | None = None,
    costs: dict[str, dict[str, Any]] | None = None,
) -> tuple[list[dict[str, Any]], int] | None:
    """Play ``state`` in the core with ``agents``; None when they cannot all sit there.

    Returns:
        The new events (the Oracle's ``oracle_decision`` ones included, as
        :func:`~riven_env.game.runner.play` records them) and the decisions made. The game is
        over, or ``max_decisions`` were made, or the core reached a point it leaves to the
        Python agents (the caller goes on from there).
    """
    from riven_env.native import load

    seats = core_seats(state, agents)
    if seats is None:
        return None
    (blue_oracle, blue_rng), (red_oracle, red_rng) = seats
    with state.guard:  # the GIL is let go while the core plays: one thread at a time
        events, decisions, _stopped, spent = load().play_seats(
            state.model,
            state.native,
            blue_oracle,
            blue_rng,
            red_oracle,
            red_rng,
            -1 if max_decisions is None else int(max_decisions),
            costs is not None,
        )
        state._changed()
    for side, (_, stream) in zip(SIDES, seats, strict=True):
        agents[side].seat_done(stream)
    if costs is not None:
        for side, (made, seconds, cpu_seconds) in zip(SIDES, spent, strict=True):
            if made:
                entry = costs.setdefault(side, {"decisions": 0, "seconds": 0.0, "cpu_seconds": 0.0})
                entry["decisions"] += made
                entry["seconds"] += seconds
                entry["cpu_seconds"] += cpu_seconds
    return state.drain_events() + events, int(decisions)


def rollout_in_core(
    state: Any, agents: Mapping[str, Any], max_decisions: int
) -> tuple[int, str] | None:
    """A search's rollout of ``state`` in the core; None when the agents cannot all sit there.

    What a search's Python rollout does (``for _ in range(max_decisions)``: stop at the game's
    end; a single legal decision taken as it is, else ``agents[side].act``), in one native call
    (``rollout_seats``, ``riven::oracle::rollout``) with the GIL released: no event kept, no
    explanation worded, no Python object per decision. The agents' streams move on exactly as
    their ``act`` would have moved them, and are handed back (``agent.seat_done``).

    Returns:
        The decisions made and, when not empty, why the core stopped before the next one (a
        point it leaves to the Python agents: the caller goes on from there, with
        ``max_decisions`` minus those made left).
    """
    from riven_env.native import load

    seats = core_seats(state, agents)
    if seats is None:
        return None
    (blue_oracle, blue_rng), (red_oracle, red_rng) = seats
    with state.guard:  # the GIL is let go while the core plays: one thread at a time
        decisions, stopped = load().rollout_seats(
            state.model,
            state.native,
            blue_oracle,
            blue_rng,
            red_oracle,
            red_rng,
            int(max_decisions),
        )
        state._changed()
    for side, (_, stream) in zip(SIDES, seats, strict=True):
        agents[side].seat_done(stream)
    return int(decisions), str(stopped)
