"""The observation encoder and the action catalogue (numpy only, no gymnasium)."""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.encoding import (
    ActionCatalogue,
    CatalogueError,
    EncodingDataError,
    ObservationEncoder,
)
from riven_env.encoding.config import load_encoding_config, parse_encoding
from riven_env.engines import new_game
from riven_env.errors import IllegalActionError
from riven_env.game import Decision
from riven_env.scenario import load_scenario

# Small and varied: a duel, loot objectives in a dungeon, extraction, a solo hero.
SCENARIOS = ["duel-1v1", "dungeon-crawl", "escort-extract", "solo-hero-horde"]


@pytest.fixture(scope="module")
def loaded() -> dict:
    return {name: load_scenario(name) for name in SCENARIOS}


def random_states(scenario, seed: int, games: int, max_decisions: int = 120):
    """Yield states along random games (every decision point of each game)."""
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = new_game(scenario, seed * 100 + g)
        for _ in range(max_decisions):
            if state.is_terminal:
                break
            yield state
            legal = state.legal_decisions()
            state.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", SCENARIOS)
def test_mask_is_exactly_the_legal_decisions(loaded, name) -> None:
    scenario = loaded[name]
    catalogue = ActionCatalogue(scenario)
    checked = 0
    kinds = set()
    # Three games: solo-hero-horde's tuned horde (issue 15) ends two games in under 40 decisions.
    for state in random_states(scenario, seed=3, games=3, max_decisions=100):
        legal = state.legal_decisions()
        mask = catalogue.mask(state)
        indices = [catalogue.encode(d, state) for d in legal]
        assert len(set(indices)) == len(legal), "two legal decisions share an index"
        assert mask.sum() == len(legal)
        assert set(np.flatnonzero(mask)) == set(indices)
        for d, i in zip(legal, indices, strict=True):
            assert catalogue.decode(i, state) == d
        kinds.update(d.kind for d in legal)
        checked += 1
    assert checked >= 40
    assert {"activate", "pass", "end"} <= kinds


def test_catalogue_covers_every_phase_and_is_side_relative(loaded) -> None:
    scenario = loaded["dungeon-crawl"]
    catalogue = ActionCatalogue(scenario)
    labels = set(catalogue.labels)
    assert {"pass", "end", "spend accept", "spend boost", "activate own:0 dice:3"} <= labels
    blue = new_game(scenario, 1)
    # The first own model of either side activates through the same index.
    own_first = {
        side: next(m.index for m in blue.models if m.side == side) for side in ("blue", "red")
    }
    key_blue = catalogue.key_of(Decision("activate", model=own_first["blue"], dice=2), "blue")
    key_red = catalogue.key_of(Decision("activate", model=own_first["red"], dice=2), "red")
    assert key_blue == key_red == ("activate", 0, 2)


def test_decode_refuses_masked_and_out_of_range_indices(loaded) -> None:
    state = new_game(loaded["duel-1v1"], 0)
    catalogue = ActionCatalogue(state)
    masked = int(np.flatnonzero(~catalogue.mask(state))[0])
    with pytest.raises(IllegalActionError, match="masked out"):
        catalogue.decode(masked, state)
    with pytest.raises(IllegalActionError, match="indices 0.."):
        catalogue.decode(catalogue.size, state)


def test_padding_is_checked_and_changes_only_sizes(loaded) -> None:
    scenario = loaded["duel-1v1"]
    with pytest.raises(CatalogueError, match="models_per_side=0 is too small"):
        ActionCatalogue(scenario, models_per_side=0)
    wide = ActionCatalogue(scenario, models_per_side=4, objectives=3)
    narrow = ActionCatalogue(scenario)
    assert wide.size > narrow.size
    state = new_game(scenario, 5)
    assert wide.mask(state).sum() == narrow.mask(state).sum() == len(state.legal_decisions())


@pytest.mark.parametrize("name", ["duel-1v1", "escort-extract"])
def test_observations_fit_the_spec_and_are_deterministic(loaded, name) -> None:
    scenario = loaded[name]
    encoder = ObservationEncoder(scenario, raster=True)
    spec = encoder.space_spec()
    for state in random_states(scenario, seed=7, games=1, max_decisions=60):
        for side in ("blue", "red"):
            obs = encoder.encode(state, side)
            assert set(obs) == set(spec)
            for key, entry in spec.items():
                assert obs[key].shape == tuple(entry["shape"])
                assert obs[key].dtype == np.dtype(entry["dtype"])
                assert obs[key].min() >= entry["low"] and obs[key].max() <= entry["high"]
            again = encoder.encode(state, side)
            assert all(np.array_equal(obs[k], again[k]) for k in obs)
            flat = encoder.encode_flat(state, side)
            assert flat.shape == (encoder.flat_size,)
            assert np.array_equal(flat, encoder.flatten(obs))


def test_features_read_the_state_side_relatively(loaded) -> None:
    state = new_game(loaded["duel-1v1"], 2)
    encoder = ObservationEncoder(state)
    col = {name: k for k, name in enumerate(encoder.model_features)}
    blue = encoder.encode(state, "blue")["models"]
    red = encoder.encode(state, "red")["models"]
    # Row 0 is the observer's own model, row S the enemy's.
    s = encoder.layout.models_per_side
    assert blue[0, col["own"]] == 1 and blue[s, col["own"]] == 0
    # Red sees the table rotated half a turn: its own model at blue's enemy's mirrored spot.
    assert blue[s, col["y"]] == pytest.approx(1.0 - red[0, col["y"]])
    assert blue[0, col["x"]] == pytest.approx(1.0 - red[s, col["x"]])
    # Damage shows in the wounds features.
    hurt = state.copy()
    hurt.models[0].wounds -= 1
    before = encoder.encode(state, "blue")["models"][0, col["wounds_fraction"]]
    after = encoder.encode(hurt, "blue")["models"][0, col["wounds_fraction"]]
    assert after < before
    glob = encoder.encode(state, "blue")["global"]
    gcol = {name: k for k, name in enumerate(encoder.global_features)}
    assert glob[gcol[f"phase_{state.phase}"]] == 1.0


def test_encoding_data_errors_name_the_key() -> None:
    good = load_encoding_config()
    raw = {
        "scales": dict(good.scales),
        "features": {"cover_vs_nearest_enemy": True},
        "raster": {"size": 48},
        "destinations": dict(good.destination_refs),
    }
    raw["scales"]["wounds"] = 0
    with pytest.raises(EncodingDataError, match=r"scales\.wounds = 0"):
        parse_encoding(raw, "test.toml")
    raw["scales"]["wounds"] = 5
    raw["destinations"]["away"] = "somewhere"
    with pytest.raises(EncodingDataError, match=r"destinations\.away = 'somewhere'"):
        parse_encoding(raw, "test.toml")
    raw["destinations"]["away"] = "single"
    raw["raster"]["size"] = 2
    with pytest.raises(EncodingDataError, match=r"raster\.size = 2"):
        parse_encoding(raw, "test.toml")
