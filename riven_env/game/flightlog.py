"""Flights read back from an event log alone: counts and the invariants of a failed morale test.

The rules (reading 6 of ``shared/rules/INTERPRETATION.md``): a model that fails a morale
test moves d6 + 3" directly toward the nearest table edge; reaching the edge removes it
(Fled). :func:`audit_flights` replays the positions a log records (``game_start`` models,
then every ``move`` and ``removed``) and checks, for every failed test:

* ``farther``: the flight ended no farther from the table edge nearest the model when it
  began (so no farther from its nearest edge either);
* ``stayed_at_edge``: a model whose base touches the edge after its flight was removed
  (``removed`` with reason ``fled``) and ``fled_off_table`` says so;
* ``acted_after_fleeing``: no model acts (activates, takes an action, moves, fights, shoots,
  tests) after it fled;
* ``flag``: ``fled_off_table`` is true exactly when a ``removed`` ``fled`` follows.

Nothing here reads the table geometry or the rules: only the log (``docs/event-log.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Logs round floats to 4 decimals (events.FLOAT_DIGITS): compare with a margin above that.
_ROUNDING = 1e-3
# Base contact tolerance of the tabletop ([measure] contact_tolerance): touching the edge.
_TOUCH = 0.02

# (event type, field naming the model that acts in it).
_EDGES = ("left", "bottom", "right", "top")

_ACTING_FIELDS = (
    ("activation", "model"),
    ("action", "model"),
    ("move", "model"),
    ("melee", "attacker"),
    ("shot", "shooter"),
    ("test", "model"),
)


@dataclass
class FlightAudit:
    """What :func:`audit_flights` found in one log.

    Attributes:
        flights: Failed morale tests (each is one flight).
        fled: Models removed with reason ``fled``.
        violations: One line per broken invariant (empty when the log is sound).
    """

    flights: int = 0
    fled: int = 0
    violations: list[str] = field(default_factory=list)


def _edge_gaps(
    xy: tuple[float, float], radius: float, width: float, height: float
) -> tuple[float, ...]:
    """Gaps from the base edge to the left, bottom, right and top table edges."""
    x, y = xy
    return tuple(max(0.0, g - radius) for g in (x, y, width - x, height - y))


def audit_flights(events: Iterable[Mapping[str, Any]]) -> FlightAudit:
    """Count the flights of one game's log and check the flight invariants (module docstring).

    Args:
        events: The game's events in order, from ``game_start`` on (dicts as logged).

    Returns:
        The counts and the violations found.
    """
    out = FlightAudit()
    width = height = 0.0
    position: dict[str, tuple[float, float]] = {}
    radius: dict[str, float] = {}
    gone: dict[str, str] = {}  # model -> removal reason
    open_flight: dict[str, Any] | None = None  # the failed test whose movement is being read

    def close_flight(removed_fled: bool) -> None:
        nonlocal open_flight
        if open_flight is None:
            return
        flight, open_flight = open_flight, None
        model = flight["model"]
        where = f"seq {flight['seq']}: {model}"
        gaps = _edge_gaps(position[model], radius[model], width, height)
        end_gap = min(gaps)
        edge = flight["edge"]
        if gaps[edge] > flight["start_gap"] + _ROUNDING:
            out.violations.append(
                f'farther: {where} fled from {flight["start_gap"]:.3f}" to {gaps[edge]:.3f}" '
                f"of the edge nearest it at the start ({_EDGES[edge]})"
            )
        if end_gap <= _TOUCH + _ROUNDING and not removed_fled:
            out.violations.append(
                f'stayed_at_edge: {where} ends its flight {end_gap:.3f}" from the edge '
                "and stays on the table"
            )
        if bool(flight["event"].get("fled_off_table")) != removed_fled:
            out.violations.append(
                f"flag: {where} fled_off_table = {flight['event'].get('fled_off_table')} "
                f"but removed(fled) {'follows' if removed_fled else 'does not follow'}"
            )

    for event in events:
        kind = event["type"]
        if kind == "game_start":
            width, height = float(event["table"]["width"]), float(event["table"]["height"])
            for model in event["models"]:
                position[model["id"]] = (float(model["x"]), float(model["y"]))
                radius[model["id"]] = float(model["base"]) / 2
            continue
        if open_flight is not None:
            model = open_flight["model"]
            if kind == "move" and event["model"] == model and event["kind"] == "flee":
                position[model] = (float(event["to"][0]), float(event["to"][1]))
                continue
            if kind == "removed" and event["model"] == model:
                close_flight(event["reason"] == "fled")
            else:
                close_flight(False)
        for acting, name in _ACTING_FIELDS:
            if kind == acting and gone.get(event.get(name)) == "fled":
                out.violations.append(
                    f"acted_after_fleeing: seq {event['seq']}: {event[name]} in a {kind} event"
                )
        if kind == "move":
            position[event["model"]] = (float(event["to"][0]), float(event["to"][1]))
        elif kind == "removed":
            gone[event["model"]] = event["reason"]
            if event["reason"] == "fled":
                out.fled += 1
        elif kind == "morale" and not event["passed"]:
            out.flights += 1
            model = event["model"]
            gaps = _edge_gaps(position[model], radius[model], width, height)
            open_flight = {
                "model": model,
                "seq": event["seq"],
                "event": event,
                "start_gap": min(gaps),
                "edge": gaps.index(min(gaps)),  # ties: left, bottom, right, top (as the table)
            }
    close_flight(False)
    return out


__all__ = ["FlightAudit", "audit_flights"]
