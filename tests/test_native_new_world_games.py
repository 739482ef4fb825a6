"""New World's dice in the core, in real games: the event logs equal the Python engine's.

These games run on the Python game loop with the core's
:class:`~riven_env.native.new_world.NativeNewWorldResolution` behind the seam; that every roll,
helper allocation, Luck spend (the defender's too), Oracle choice, aftermath and ``detail`` of
the core leaves the Python engine's event log is tests/test_native_system_games.py's, for every
ported system. Here: the games call helpers and spend Luck.
"""

from __future__ import annotations

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import seam_log  # noqa: E402

PAIRINGS = (("random", "random"), ("oracle", "oracle"))
SEEDS = range(6)
SYSTEM = "new-world"


def _log(mission: str, blue: str, red: str, seed: int, *, core: bool) -> list[str]:
    from riven_env.native.new_world import NativeNewWorldResolution

    return seam_log(SYSTEM, NativeNewWorldResolution if core else None, mission, blue, red, seed)


def test_the_games_call_helpers_and_spend_luck() -> None:
    """The seam's games (tests/test_native_system_games.py) reach the system's choices: helpers called, Luck spent by attackers
    and by defenders (hold-the-line's rallies and objectives are where helpers stand by)."""
    lines: list[str] = []
    for blue, red in PAIRINGS:
        for seed in SEEDS:
            lines += _log("hold-the-line", blue, red, seed, core=True)
    text = "\n".join(lines)
    assert '"help:' in text and '"defender:luck"' in text and '"luck spent"' in text
