"""Invictus's dice in the core, in real games: the event logs equal the Python engine's.

These games run on the Python game loop (the native loop's own Invictus games are
tests/test_native_invictus_loop.py's) twice per seed: once with the Python :class:`~riven_env.rules.systems.invictus.InvictusResolution`
and once with the core's :class:`~riven_env.native.invictus.NativeInvictusResolution` behind
the seam. Every roll, spend, Oracle choice, aftermath and ``detail`` of the core must leave the
same event log, byte for byte, random against random and Oracle against Oracle.
"""

from __future__ import annotations

from typing import Any

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import seam_log  # noqa: E402

MISSIONS = ("duel-1v1", "skirmish-5v5", "hold-the-line")
PAIRINGS = (("random", "random"), ("oracle", "oracle"))
SEEDS = range(8)
SYSTEM = "invictus"


def _log(mission: str, blue: str, red: str, seed: int, *, core: bool) -> list[str]:
    from riven_env.native.invictus import NativeInvictusResolution

    return seam_log(SYSTEM, NativeInvictusResolution if core else None, mission, blue, red, seed)


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize(("blue", "red"), PAIRINGS)
def test_event_logs_are_identical(mission: str, blue: str, red: str) -> None:
    rolls = 0
    for seed in SEEDS:
        python = _log(mission, blue, red, seed, core=False)
        native = _log(mission, blue, red, seed, core=True)
        assert native == python, (mission, blue, red, seed)
        rolls += sum('"system": "invictus"' in line for line in python)
    if blue == "oracle":
        assert rolls > 0  # the Oracle rolls Invictus tests, shots and melee in every mission


def test_the_games_spend_luck_and_favour() -> None:
    lines: list[Any] = []
    for seed in SEEDS:
        lines += _log("skirmish-5v5", "oracle", "oracle", seed, core=True)
    text = "\n".join(lines)
    assert '"favour:' in text and '"danger_dice": [' in text
