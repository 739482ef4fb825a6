"""Every ported system's games (tests/native_systems.py SYSTEMS) leave the Python engine's logs.

Seeded games on the bundled missions, under each system (``resolution``):

* on the native loop, in lockstep with the Python engine (the Python agents choosing from the
  Python list): the legal decisions, the current side, the events (``dumps_event``) and the
  state field by field (``native_view == python_view``, the system's pending roll included)
  agree after every decision;
* on the native loop, whole, by ``play`` (the Oracle and random agents, decided in the core):
  the event logs, as JSON dumps, are identical;
* on the Python loop with the core's dice engine behind the seam (the system's
  ``NativeSystemResolution``): every roll, choice, Oracle choice, aftermath and ``detail`` of
  the core leaves the same event log, byte for byte.

The seam's games reach each system's choices (SEAM_REACH); what the native loop's games must
reach (its choices, its melee, its aftermath, the Oracle's rules) is tested in
tests/test_native_<system>_loop.py; the environments in tests/test_native_system_envs.py.
"""

from __future__ import annotations

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import missions, seam_log, system_lockstep, system_log  # noqa: E402
from native_systems import SYSTEMS, load_class  # noqa: E402

LOOP_PAIRINGS = (("random", "random"), ("oracle", "oracle"), ("oracle", "random"))
LOOP_SEEDS = range(4)
SEAM_MISSIONS = ("duel-1v1", "skirmish-5v5", "hold-the-line")
SEAM_PAIRINGS = (("random", "random"), ("oracle", "oracle"))
SEAM_SEEDS = {"invictus": range(8), "new-world": range(6), "riddle-of-steel": range(4)}
# Where the seam's games reach each system's choices, and what they must show there: Invictus's
# Favour and Danger Dice; New World's helpers called and Luck spent by attackers and by
# defenders (hold-the-line's rallies and objectives are where helpers stand by); The Riddle of
# Steel's Combat Rounds: hits, Pain carried, knockdowns, the Oracle's RoS rules.
SEAM_REACH = {
    "invictus": ("skirmish-5v5", (("oracle", "oracle"),), ('"favour:', '"danger_dice": [')),
    "new-world": ("hold-the-line", SEAM_PAIRINGS, ('"help:', '"defender:luck"', '"luck spent"')),
    "riddle-of-steel": (
        "hold-the-line",
        SEAM_PAIRINGS,
        ('"outcome": "hit"', '"type": "ros_pain"', '"rule": "ros:attack:', '"knockdown": {'),
    ),
}


def _rolls(system: str, lines: list[str]) -> int:
    """The lines that carry a roll of ``system`` (its ``detail``, or a mark of its melee)."""
    marks = (f'"system": "{system}"', *SYSTEMS[system].marks)
    return sum(any(mark in line for mark in marks) for line in lines)


@pytest.mark.parametrize("mission", missions())
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_games_match_the_python_engine_step_by_step(system: str, mission: str) -> None:
    for blue, red, seed in (("random", "random", 1), ("oracle", "oracle", 0)):
        steps, _, _ = system_lockstep(system, mission, blue, red, seed)
        assert steps > 0


@pytest.mark.parametrize("mission", missions())
@pytest.mark.parametrize(("blue", "red"), LOOP_PAIRINGS)
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_native_loop_event_logs_are_identical(
    system: str, mission: str, blue: str, red: str
) -> None:
    rolls = 0
    for seed in LOOP_SEEDS:
        python = system_log(system, mission, blue, red, seed, "python")
        native = system_log(system, mission, blue, red, seed, "native")
        assert native == python, (system, mission, blue, red, seed)
        rolls += _rolls(system, python)
    if blue == "oracle":
        assert rolls > 0  # the Oracle rolls the system's tests, shots or melee in every mission


@pytest.mark.parametrize("mission", SEAM_MISSIONS)
@pytest.mark.parametrize(("blue", "red"), SEAM_PAIRINGS)
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_core_dice_behind_the_python_loop_leave_the_same_logs(
    system: str, mission: str, blue: str, red: str
) -> None:
    core = load_class(SYSTEMS[system].native)
    rolls = 0
    for seed in SEAM_SEEDS[system]:
        python = seam_log(system, None, mission, blue, red, seed)
        native = seam_log(system, core, mission, blue, red, seed)
        assert native == python, (system, mission, blue, red, seed)
        rolls += _rolls(system, python)
    if blue == "oracle":
        assert rolls > 0  # the Oracle rolls the system's tests, shots and melee in every mission


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_the_seams_games_reach_the_systems_choices(system: str) -> None:
    mission, pairings, wanted = SEAM_REACH[system]
    core = load_class(SYSTEMS[system].native)
    lines: list[str] = []
    for blue, red in pairings:
        for seed in SEAM_SEEDS[system]:
            lines += seam_log(system, core, mission, blue, red, seed)
    text = "\n".join(lines)
    for part in wanted:
        assert part in text, (system, part)
