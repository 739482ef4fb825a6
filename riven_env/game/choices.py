"""The ``choice`` phase: decisions a resolution system asks of either side mid-action.

A resolution system whose melee is a sequence of declarations (The Riddle of Steel's Combat
Round: manoeuvre, zone, dice, defence, feint) sets ``has_choices = True`` and offers
``open_melee`` / ``choice_options`` / ``apply_choice`` / ``choice_model`` (see
``riven_env/rules/systems/riddle_of_steel.py``). :func:`open_melee` puts the game in the
``choice`` phase with the session in ``state.pending``; while it lasts, ``state.decider`` is
the side of the model that must choose (the defender chooses its defence during the
attacker's turn), each legal decision is ``Decision("choose", option=...)``, and the events
the session records are written to the log as they happen. When the session is done, its
effects (Pain, wounds, Down, Out, Conditions) are applied through
:mod:`riven_env.game.effects` and the action phase resumes.

Per-model state a system keeps between melees (RoS Pain) lives in ``state.system_state``,
copied with the game (values immutable).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from riven_env.game import effects
from riven_env.game.decisions import PHASE_ACTION, PHASE_CHOICE, Decision, shared_decision
from riven_env.game.model_state import OUT

if TYPE_CHECKING:
    from riven_env.game.state_data import StateData

CHOOSE = "choose"


def uses_choices(state: StateData) -> bool:
    """Whether the game's resolution system resolves melee through the choice phase."""
    return bool(getattr(state.resolution, "has_choices", False))


def pain_of(state: StateData, i: int) -> int:
    """Pain model ``i`` carries (Combat Pool dice lost until the end of the game)."""
    return int(state.system_state.get(("pain", i), 0))


def open_melee(state: StateData, i: int, j: int, a_mods: list, d_mods: list) -> None:
    """Start the system's melee between the acting model ``i`` and enemy ``j``."""
    fighters = []
    for k in (i, j):
        model = state.models[k]
        fighters.append((k, model.id, model.profile, model.wounds, pain_of(state, k)))
    session = state.resolution.open_melee(
        fighters[0], fighters[1], tuple(a_mods), tuple(d_mods), state.rng
    )
    state.pending = (session, i, {"action": "melee", "target": j})
    state.phase = PHASE_CHOICE
    _settle(state)


def choice_decisions(state: StateData) -> list[Decision]:
    """The options of the pending session as ``choose`` decisions."""
    session = state.pending[0]
    return [shared_decision(CHOOSE, option=o) for o in state.resolution.choice_options(session)]


def apply_choice(state: StateData, decision: Decision) -> None:
    """Apply a ``choose`` decision to the pending session."""
    session, i, context = state.pending
    session = state.resolution.apply_choice(session, decision.option, state.rng)
    state.pending = (session, i, context)
    _settle(state)


def _settle(state: StateData) -> None:
    """Write the session's new events; hand the choice to its side, or finish it."""
    session, i, context = state.pending
    for type_, fields in session.new_events:
        state.emit(type_, **fields)
    session = _drained(session)
    state.pending = (session, i, context)
    if not session.done:
        state.decider = state.models[state.resolution.choice_model(session)].side
        return
    state.pending = None
    state.decider = None
    state.phase = PHASE_ACTION
    _apply_effects(state, session.effects, [f.index for f in session.fighters])


def _drained(session: Any) -> Any:
    return replace(session, new_events=()) if session.new_events else session


def _apply_effects(state: StateData, found: tuple, fighters: list[int]) -> None:
    for effect in found:
        if state.over:
            return
        kind, i = effect[0], effect[1]
        model = state.models[i]
        source = next((k for k in fighters if k != i), None)
        if kind == "pain":
            state.system_state[("pain", i)] = pain_of(state, i) + int(effect[2])
            state.emit("ros_pain", model=model.id, pain=effect[2], total=pain_of(state, i))
        elif kind == "wound":
            effects.wound(state, i, int(effect[2]), source, "melee")
        elif kind == "down":
            if model.is_active:
                effects.wound(state, i, model.wounds, source, "melee")
        elif kind == "out":
            if model.is_active:
                effects.wound(state, i, model.wounds, source, "melee")
            if model.on_table and not state.over:
                effects.remove(state, i, OUT)
        elif kind == "condition" and model.is_active:
            effects.gain_condition(state, i, str(effect[2]), "melee wound")


__all__ = ["CHOOSE", "apply_choice", "choice_decisions", "open_melee", "pain_of", "uses_choices"]
