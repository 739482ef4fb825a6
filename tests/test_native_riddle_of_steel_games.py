"""The Riddle of Steel's dice in the core, in real games: the event logs equal the Python engine's.

These games run on the Python game loop twice per seed: once with the Python
:class:`~riven_env.rules.systems.riddle_of_steel.RiddleOfSteelResolution` and once with the
core's :class:`~riven_env.native.riddle_of_steel.NativeRiddleOfSteelResolution` behind the seam.
Every Attribute Test, shot, Combat Round (each choice of the choice phase, the Oracle's
included), exchange, Damage Table reading and effect of the core must leave the same event log,
byte for byte, random against random and Oracle against Oracle.
"""

from __future__ import annotations

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import seam_log  # noqa: E402

MISSIONS = ("duel-1v1", "skirmish-5v5", "hold-the-line")
PAIRINGS = (("random", "random"), ("oracle", "oracle"), ("random", "oracle"))
SEEDS = range(4)
SYSTEM = "riddle-of-steel"


def _log(mission: str, blue: str, red: str, seed: int, *, core: bool) -> list[str]:
    from riven_env.native.riddle_of_steel import NativeRiddleOfSteelResolution

    return seam_log(
        SYSTEM, NativeRiddleOfSteelResolution if core else None, mission, blue, red, seed
    )


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize(("blue", "red"), PAIRINGS)
def test_event_logs_are_identical(mission: str, blue: str, red: str) -> None:
    exchanges = 0
    for seed in SEEDS:
        python = _log(mission, blue, red, seed, core=False)
        native = _log(mission, blue, red, seed, core=True)
        assert native == python, (mission, blue, red, seed)
        exchanges += sum('"type": "ros_exchange"' in line for line in python)
    if blue == "oracle" or red == "oracle":
        assert exchanges > 0  # the Oracle fights Combat Rounds in every mission


def test_the_games_reach_the_rounds_rules() -> None:
    """The sweep above reaches the system's rules: tests and shots as d10 pools, hits through
    the Damage Table, Pain carried, the Oracle's RoS choices explained."""
    lines: list[str] = []
    for blue, red in PAIRINGS:
        for seed in SEEDS:
            lines += _log("hold-the-line", blue, red, seed, core=True)
    text = "\n".join(lines)
    assert '"system": "riddle-of-steel"' in text and '"outcome": "hit"' in text
    assert '"type": "ros_pain"' in text and '"rule": "ros:attack:' in text
