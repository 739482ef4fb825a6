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

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from riven_env.game.state import SIDES

__all__ = ["core_seats", "play_in_core", "rollout_in_core"]

T = TypeVar("T")


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


def _seated(state: Any, agents: Mapping[str, Any], call: Callable[..., T]) -> T | None:
    """``call(core, model, native, blue_oracle, blue_rng, red_oracle, red_rng)`` with both
    agents seated in the core, under the state's guard (the GIL is let go while the core plays:
    one thread at a time); the agents' streams handed back afterwards. None when a side cannot
    sit there."""
    from riven_env.native import load

    seats = core_seats(state, agents)
    if seats is None:
        return None
    (blue_oracle, blue_rng), (red_oracle, red_rng) = seats
    with state.guard:
        result = call(load(), state.model, state.native, blue_oracle, blue_rng, red_oracle, red_rng)
        state._changed()
    for side, (_, stream) in zip(SIDES, seats, strict=True):
        agents[side].seat_done(stream)
    return result


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
    played = _seated(
        state,
        agents,
        lambda core, *seated: core.play_seats(
            *seated, -1 if max_decisions is None else int(max_decisions), costs is not None
        ),
    )
    if played is None:
        return None
    events, decisions, _stopped, spent = played
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
    rolled = _seated(
        state, agents, lambda core, *seated: core.rollout_seats(*seated, int(max_decisions))
    )
    if rolled is None:
        return None
    decisions, stopped = rolled
    return int(decisions), str(stopped)
