"""The core keeps 64-bit point totals: a score may be 2**31 - 1 (scenario.max_points), so a
game's total passes 32 bits. A scenario whose totals could pass 64 bits is refused by the
core (one line, naming the points), and ``auto`` plays it on the Python engine instead."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from riven_env.engines import new_game, pick_engine, play_game
from riven_env.game.state import GameState
from riven_env.native import NativeUnavailableError, available
from riven_env.native.loop import NativeGameState
from riven_env.scenario import load_scenario

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")

ROOT = Path(__file__).resolve().parents[1]
MOST = 2**31 - 1  # riven_env/data/limits.toml scenario.max_points


def _rich_duel(tmp_path: Path) -> Path:
    # The pre-balance duel (six rounds, hold from round 2): its Oracle mirror scores the
    # circle and a casualty in one game, so two scores of MOST add up past 2**31.
    text = (ROOT / "tests" / "data" / "pre-balance" / "duel-1v1.toml").read_text(encoding="utf-8")
    text = text.replace("points = 1", f"points = {MOST}")
    path = tmp_path / "rich-duel.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_totals_past_32_bits_are_the_reference_totals(tmp_path: Path) -> None:
    scenario = _rich_duel(tmp_path)
    widest = 0
    for seed in range(4):
        python = play_game(scenario, "oracle", "oracle", seed, engine="python")
        native = play_game(scenario, "oracle", "oracle", seed, engine="native")
        assert native == python
        widest = max(widest, *python[-1]["points"].values())
    assert widest > 2**31  # what the 32-bit totals got wrong


def test_a_game_whose_totals_could_pass_64_bits_is_refused_and_auto_plays_python(
    tmp_path: Path,
) -> None:
    # No valid scenario comes near 2**63 (at most about 2**48: 32 holds of 32 objectives of
    # MOST over 100 rounds), so the guard is met only by a Scenario built in code past the
    # limits: here four holds of MOST, each counted for 2**31 - 1 rounds (about 2**64).
    duel = load_scenario(_rich_duel(tmp_path))
    (hold,) = [c for c in duel.victory.conditions if c.type == "hold"]
    victory = dataclasses.replace(
        duel.victory, conditions=(*duel.victory.conditions, hold, hold, hold)
    )
    scenario = dataclasses.replace(duel, rounds=MOST, victory=victory)
    with pytest.raises(NativeUnavailableError, match=r"points can pass 2\*\*63 - 1"):
        new_game(scenario, 0, engine="native")
    assert isinstance(new_game(scenario, 0, engine="auto"), GameState)
    assert pick_engine("auto", [scenario]) == "python"
    # The bundled limits' worst case fits: 100 rounds are played on the core.
    widest = dataclasses.replace(scenario, rounds=100)
    assert isinstance(new_game(widest, 0, engine="auto"), NativeGameState)
