"""The encoder's per-scenario constants and line-of-sight cache change no observation."""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.encoding import ObservationEncoder
from riven_env.encoding.constants import SightCache
from riven_env.engines import new_game
from riven_env.game.victory import controller
from riven_env.scenario import load_scenario
from riven_env.table import sight

SCENARIOS = ["skirmish-5v5", "dungeon-crawl", "escort-extract"]


def walk(scenario, seed: int, decisions: int = 150):
    """States along one random game (each a copy, so that they can be kept)."""
    rng = np.random.default_rng(seed)
    state = new_game(scenario, seed)
    for _ in range(decisions):
        if state.is_terminal:
            break
        yield state.copy()
        legal = state.legal_decisions()
        state.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_warm_encoder_encodes_like_a_fresh_one(name: str) -> None:
    scenario = load_scenario(name)
    warm = ObservationEncoder(scenario)
    for state in walk(scenario, 3):
        for side in ("blue", "red"):
            fresh = ObservationEncoder(scenario).encode_flat(state, side)
            np.testing.assert_array_equal(warm.encode_flat(state, side), fresh)


@pytest.mark.parametrize("name", ["skirmish-5v5", "dungeon-crawl", "hold-the-line"])
def test_objective_control_columns_agree_with_the_game(name: str) -> None:
    scenario = load_scenario(name)
    encoder = ObservationEncoder(scenario)
    col = {n: k for k, n in enumerate(encoder.objective_features)}
    checked = 0
    for state in walk(scenario, 5):
        for side in ("blue", "red"):
            rows = encoder.encode(state, side)["objectives"]
            for k in range(len(state.objectives)):
                holder = controller(state, k)
                assert rows[k, col["controlled_own"]] == (1.0 if holder == side else 0.0)
                enemy_holds = holder is not None and holder != side
                assert rows[k, col["controlled_enemy"]] == (1.0 if enemy_holds else 0.0)
                checked += 1
    assert checked > 0


def test_sight_cache_answers_as_the_table_and_stays_bounded() -> None:
    scenario = load_scenario("skirmish-5v5")
    cache = SightCache(limit=16)
    asked = 0
    for state in walk(scenario, 11, decisions=80):
        centres, radii = state.bases.centers.tolist(), state.bases.radii.tolist()
        n = len(state.models)
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                got = cache.sight(state.table, state.bases, i, j, centres, radii)
                assert got == sight(state.table, state.bases, i, j)
                assert len(cache) <= 16
                asked += 1
    assert asked > 16


def test_sight_cache_forgets_answers_of_another_table() -> None:
    first = new_game(load_scenario("skirmish-5v5"), 0)
    other = new_game(load_scenario("duel-1v1"), 0)
    cache = SightCache()
    centres, radii = first.bases.centers.tolist(), first.bases.radii.tolist()
    cache.sight(first.table, first.bases, 0, 1, centres, radii)
    assert len(cache) == 1
    centres, radii = other.bases.centers.tolist(), other.bases.radii.tolist()
    assert cache.sight(other.table, other.bases, 0, 1, centres, radii) == sight(
        other.table, other.bases, 0, 1
    )
    assert len(cache) == 1
