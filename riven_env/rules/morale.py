"""Morale: the test (RAW) and its triggers (house rules, data).

RAW test: one die vs the model's Mettle; on a failure it moves d6 + 3" directly toward the
nearest table edge, and reaching the edge removes it (it Fled). The rules leave the trigger
list blank; ``[morale.triggers.*]`` designs it, each with an ``enabled`` flag and parameters.
The game loop detects triggers and calls :func:`roll_morale`; a model tests at most once per
trigger event.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from riven_env.errors import RulesDataError
from riven_env.rules.datacheck import read_bool, read_float, read_str, read_table
from riven_env.rules.dice import roll_dice
from riven_env.rules.results import MoraleResult

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig

FLIGHT_ROUTES = ("straight", "around")
"""Readings of the flight's route (``morale.flight_route``): ``straight`` is RAW, ``around``
a house-rule variant (``docs/rules-reference.md``, Morale)."""

MORALE_TRIGGERS = ("friend_lost", "leader_out", "half_strength", "recoiled", "terror_charge")
"""Triggers the game loop knows how to detect."""


@dataclass(frozen=True)
class MoraleTrigger:
    """One morale trigger.

    Attributes:
        name: Trigger name (one of :data:`MORALE_TRIGGERS`).
        enabled: Whether the game loop applies it.
        description: Rules text.
        params: Its parameters: ``radius`` (inches), ``fraction``, ``keyword``.
    """

    name: str
    enabled: bool
    description: str
    params: Mapping[str, Any] = field(default_factory=dict)


_PARAMS: dict[str, tuple[str, ...]] = {
    "friend_lost": ("radius",),
    "leader_out": ("keyword",),
    "half_strength": ("fraction",),
    "recoiled": (),
    "terror_charge": ("keyword",),
}


def parse_morale_triggers(raw: Mapping[str, Any], source: str) -> dict[str, MoraleTrigger]:
    """Parse ``[morale.triggers.*]``; every known trigger must be present (enabled or not)."""
    triggers_table = read_table(read_table(raw, "morale", source), "triggers", f"{source}: morale")
    keywords = read_table(raw, "profiles", source).get("keywords", [])
    triggers: dict[str, MoraleTrigger] = {}
    for name in triggers_table:
        if name not in _PARAMS:
            raise RulesDataError(
                f"{source}: morale.triggers.{name}: unknown trigger; allowed: "
                f"{', '.join(MORALE_TRIGGERS)}"
            )
    for name in MORALE_TRIGGERS:
        where = f"{source}: morale.triggers.{name}"
        table = read_table(triggers_table, name, f"{source}: morale.triggers")
        allowed = {"enabled", "description", *_PARAMS[name]}
        for key in table:
            if key not in allowed:
                raise RulesDataError(
                    f"{where}.{key}: unknown field; allowed: {', '.join(sorted(allowed))}"
                )
        params: dict[str, Any] = {}
        for param in _PARAMS[name]:
            if param == "radius":
                params[param] = read_float(table, param, where, low=0.0, high=100.0)
            elif param == "fraction":
                params[param] = read_float(table, param, where, low=0.0, high=1.0)
            else:
                params[param] = read_str(table, param, where, choices=keywords)
        triggers[name] = MoraleTrigger(
            name=name,
            enabled=read_bool(table, "enabled", where),
            description=read_str(table, "description", where, default=""),
            params=params,
        )
    return triggers


@functools.lru_cache(maxsize=32)
def morale_triggers(rules: RulesConfig) -> Mapping[str, MoraleTrigger]:
    """Every morale trigger, by name (cached per rules)."""
    return parse_morale_triggers(rules.raw, rules.source)


def enabled_morale_triggers(rules: RulesConfig) -> list[MoraleTrigger]:
    """The triggers the game loop should apply, in :data:`MORALE_TRIGGERS` order."""
    return [t for t in morale_triggers(rules).values() if t.enabled]


def flee_distance(flee_dice: tuple[int, ...], rules: RulesConfig) -> float:
    """Inches a failed model flees: the flee dice plus ``morale.flee_base``."""
    return float(sum(flee_dice)) + float(rules.get("morale.flee_base"))


def roll_morale(mettle: int, rng: np.random.Generator, rules: RulesConfig) -> MoraleResult:
    """Roll a morale test: one die vs Mettle (meets or beats: passed).

    On a failure the flee dice are rolled too (and only then, so a pass draws one number
    from ``rng``).
    """
    faces = int(rules.get("dice.faces"))
    (die,) = roll_dice(rng, int(rules.get("morale.test_dice")), faces)
    if die >= mettle:
        return MoraleResult(mettle=mettle, die=die, passed=True, flee_distance=0.0, flee_dice=())
    dice = roll_dice(rng, int(rules.get("morale.flee_dice")), faces)
    return MoraleResult(
        mettle=mettle,
        die=die,
        passed=False,
        flee_distance=flee_distance(dice, rules),
        flee_dice=dice,
    )
