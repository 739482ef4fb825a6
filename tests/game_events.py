"""Helpers shared by the scripted game tests: find events, activate with scripted dice, act."""

from __future__ import annotations

from riven_env.game import Decision
from riven_env.game.decisions import ACCEPT


def of_type(events, kind):
    """The events of type ``kind``."""
    return [e for e in events if e["type"] == kind]


def one(events, kind):
    """The single event of type ``kind`` (the test fails if there are none or several)."""
    found = of_type(events, kind)
    assert len(found) == 1, (kind, found)
    return found[0]


def activate(state, script_dice, i, faces):
    """Activate model ``i`` with the activation dice scripted to ``faces``."""
    script_dice(state, *faces)
    return state.apply(Decision("activate", model=i, dice=len(faces)))


def act(state, decision):
    """Apply ``decision`` and accept any roll offered for spending; return every event."""
    events = state.apply(decision)
    while state.phase == "spend":
        events += state.apply(ACCEPT)
    return events
