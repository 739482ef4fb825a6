"""New World's dice in the core, in real games: the event logs equal the Python engine's.

These games run on the Python game loop twice per seed: once with the Python
:class:`~riven_env.rules.systems.new_world.NewWorldResolution` and once with the core's
:class:`~riven_env.native.new_world.NativeNewWorldResolution` behind the seam. Every roll,
helper allocation, Luck spend (the defender's too), Oracle choice, aftermath and ``detail`` of
the core must leave the same event log, byte for byte, random against random and Oracle against
Oracle.
"""

from __future__ import annotations

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import seam_log  # noqa: E402

MISSIONS = ("duel-1v1", "skirmish-5v5", "hold-the-line")
PAIRINGS = (("random", "random"), ("oracle", "oracle"))
SEEDS = range(6)
SYSTEM = "new-world"


def _log(mission: str, blue: str, red: str, seed: int, *, core: bool) -> list[str]:
    from riven_env.native.new_world import NativeNewWorldResolution

    return seam_log(SYSTEM, NativeNewWorldResolution if core else None, mission, blue, red, seed)


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize(("blue", "red"), PAIRINGS)
def test_event_logs_are_identical(mission: str, blue: str, red: str) -> None:
    rolls = 0
    for seed in SEEDS:
        python = _log(mission, blue, red, seed, core=False)
        native = _log(mission, blue, red, seed, core=True)
        assert native == python, (mission, blue, red, seed)
        rolls += sum('"system": "new-world"' in line for line in python)
    if blue == "oracle":
        assert rolls > 0  # the Oracle rolls New World tests, shots and melee in every mission


def test_the_games_call_helpers_and_spend_luck() -> None:
    """The sweep above reaches the system's choices: helpers called, Luck spent by attackers
    and by defenders (hold-the-line's rallies and objectives are where helpers stand by)."""
    lines: list[str] = []
    for blue, red in PAIRINGS:
        for seed in SEEDS:
            lines += _log("hold-the-line", blue, red, seed, core=True)
    text = "\n".join(lines)
    assert '"help:' in text and '"defender:luck"' in text and '"luck spent"' in text
