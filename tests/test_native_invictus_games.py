"""Invictus's dice in the core, in real games: the event logs equal the Python engine's.

These games run on the Python game loop (the native loop's own Invictus games are
tests/test_native_invictus_loop.py's) with the core's
:class:`~riven_env.native.invictus.NativeInvictusResolution` behind the seam; that every roll,
spend, Oracle choice, aftermath and ``detail`` of the core leaves the Python engine's event log is
tests/test_native_system_games.py's, for every ported system. Here: the games spend Luck and
Favour.
"""

from __future__ import annotations

from typing import Any

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import seam_log  # noqa: E402

PAIRINGS = (("random", "random"), ("oracle", "oracle"))
SEEDS = range(8)
SYSTEM = "invictus"


def _log(mission: str, blue: str, red: str, seed: int, *, core: bool) -> list[str]:
    from riven_env.native.invictus import NativeInvictusResolution

    return seam_log(SYSTEM, NativeInvictusResolution if core else None, mission, blue, red, seed)


def test_the_games_spend_luck_and_favour() -> None:
    lines: list[Any] = []
    for seed in SEEDS:
        lines += _log("skirmish-5v5", "oracle", "oracle", seed, core=True)
    text = "\n".join(lines)
    assert '"favour:' in text and '"danger_dice": [' in text
