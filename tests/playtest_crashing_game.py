"""A FAKE game for playtest tests that crashes (a bug, not bad input) on its fourth game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from playtest_fake_game import play_game as play_fake_game

from riven_env.playtest.config import game_seed

# The run seed the crash test uses (``_config`` in test_playtest_runner.py) and the game
# index that crashes.
CRASH_RUN_SEED = 5
CRASH_INDEX = 3


def play_game(
    scenario: str,
    blue: str,
    red: str,
    seed: int,
    *,
    overrides: Mapping[str, object] | None = None,
    max_decisions: int | None = None,
) -> list[dict[str, Any]]:
    """Play the fake game, except that game ``CRASH_INDEX`` divides by zero."""
    if seed == game_seed(CRASH_RUN_SEED, CRASH_INDEX):
        return [{"type": "game_start", "value": 1 // 0}]
    return play_fake_game(
        scenario, blue, red, seed, overrides=overrides, max_decisions=max_decisions
    )
