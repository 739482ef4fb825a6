"""Entity observations (riven_env.encoding.entity): shapes, pair features, mask alignment."""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.encoding import ActionCatalogue
from riven_env.encoding.config import EncodingDataError, parse_encoding
from riven_env.encoding.entity import (
    PAIR_FEATURES,
    TERRAIN_FEATURES,
    EntityEncoder,
    pointer_layout,
)
from riven_env.engines import new_game
from riven_env.scenario.loader import load_scenario_text
from riven_env.table.sight import sight

P = {name: k for k, name in enumerate(PAIR_FEATURES)}

# A scripted table: a sight-blocking wall across the middle and a hedge (soft cover).
SCRIPTED = """
schema_version = 1

[scenario]
name = "scripted-pairs"
title = "Scripted pairs"
description = "Pair-feature test position."
setting = "fantasy"
mode = "warband"
rounds = 6
first_side = "blue"

[table]
width = 24
height = 24

[[table.terrain]]
name = "wall"
type = "wall"
rect = [7.0, 11.7, 17.0, 12.3]

[[table.terrain]]
name = "hedge"
type = "hedge"
rect = [12.5, 5.5, 13.5, 7.0]

[deployment]
blue = [[0, 0, 24, 4]]
red = [[0, 20, 24, 24]]

[[objectives]]
name = "centre"
x = 12.0
y = 16.0
kind = "hold"
points = 1

[sides.blue]
name = "Blue"
oracle = "tactical"

[[sides.blue.models]]
profile = "archer"
id = "blue-archer"

[[sides.blue.models]]
profile = "warrior"
id = "blue-warrior"

[sides.red]
name = "Red"
oracle = "aggressive"

[[sides.red.models]]
profile = "warrior"
count = 4

[victory]
at_round_limit = "points"

[[victory.conditions]]
type = "eliminate"
"""

# Where each model stands (model index -> centre): blue archer, blue warrior, then red.
POSITIONS = {
    0: (6.0, 4.0),  # blue archer
    1: (20.0, 4.0),  # blue warrior
    2: (6.0, 12.0),  # red 1: straight north of the archer, in clear sight and bow range
    3: (12.0, 20.0),  # red 2: behind the wall from the archer
    4: (20.0, 8.5),  # red 3: within the blue warrior's charge reach
    5: (21.0, 4.0),  # red 4: in base contact with the blue warrior
}


@pytest.fixture(scope="module")
def scripted():
    scenario = load_scenario_text(SCRIPTED, "<scripted>")
    state = new_game(scenario, 0)
    for i, xy in POSITIONS.items():
        state.bases.move_to(i, xy)
    state.positions_changed()
    return state


def test_shapes_fit_the_spec_and_the_terrain_rows(scripted) -> None:
    encoder = EntityEncoder(scripted, actions=7)
    obs = encoder.encode(scripted, "blue")
    spec = encoder.space_spec()
    assert (
        set(obs)
        == set(spec)
        == {
            "models",
            "objectives",
            "global",
            "pairs",
            "terrain",
            "action_mask",
        }
    )
    for key, entry in spec.items():
        assert obs[key].shape == tuple(entry["shape"]), key
        assert obs[key].dtype == np.dtype(entry["dtype"]), key
        assert obs[key].min() >= entry["low"] and obs[key].max() <= entry["high"], key
    s = encoder.layout.models_per_side
    assert obs["pairs"].shape == (2 * s, 2 * s, len(PAIR_FEATURES))
    terrain = obs["terrain"]
    t = {name: k for k, name in enumerate(TERRAIN_FEATURES)}
    assert terrain.shape == (encoder.terrain_slots, len(TERRAIN_FEATURES))
    assert terrain[:2, t["present"]].tolist() == [1.0, 1.0] and terrain[2:].sum() == 0
    wall, hedge = terrain[0], terrain[1]
    assert wall[t["blocks_los"]] == 1 and wall[t["cover_hard"]] == 1
    assert hedge[t["blocks_los"]] == 0 and hedge[t["cover_soft"]] == 1
    assert wall[t["x"]] == pytest.approx(12.0 / 24) and wall[t["y"]] == pytest.approx(12.0 / 24)
    # Red sees the table rotated half a turn.
    red_hedge = encoder.encode(scripted, "red")["terrain"][1]
    assert red_hedge[t["x"]] == pytest.approx(1 - hedge[t["x"]])
    # Too many pieces for the slots: refused, naming the key.
    with pytest.raises(Exception, match="terrain_slots"):
        EntityEncoder(scripted, terrain_slots=1)


def test_pair_features_of_a_scripted_position(scripted) -> None:
    encoder = EntityEncoder(scripted)
    pairs = encoder.encode(scripted, "blue")["pairs"]
    s = encoder.layout.models_per_side  # 4: the larger side
    archer, warrior = 0, 1
    red = [s + k for k in range(4)]
    # Sizes and offsets: the archer sees red 1 straight ahead, 8" centre to centre.
    near = pairs[archer, red[0]]
    assert near[P["present"]] == 1 and near[P["enemy"]] == 1
    assert near[P["dx"]] == pytest.approx(0.0) and near[P["dy"]] == pytest.approx(8 / 24)
    radii = scripted.bases.radii
    gap = 8.0 - radii[0] - radii[2]
    assert near[P["gap"]] == pytest.approx(gap / np.hypot(24, 24), rel=1e-5)
    # In clear sight, in bow range (18"), no cover: a legal shot, but no charge (Move 5).
    assert near[P["line_of_sight"]] == 1 and near[P["cover_none"]] == 1
    assert near[P["in_range"]] == 1 and near[P["shot_legal"]] == 1
    assert near[P["charge_reach"]] == 0
    # Behind the wall: no sight, so no shot, though in range.
    hidden = pairs[archer, red[1]]
    assert hidden[P["line_of_sight"]] == 0 and hidden[P["shot_legal"]] == 0
    assert hidden[P["in_range"]] == 1
    # Red 3 past the hedge: sight and cover as the tabletop answers them.
    visible, cover = sight(scripted.table, scripted.bases, 0, 4)
    past = pairs[archer, red[2]]
    assert past[P["line_of_sight"]] == float(visible)
    assert past[P[f"cover_{cover}"]] == float(visible)
    # Red 4 is in a melee with the blue warrior: the archer (not adjacent to it) may not
    # shoot into it, whatever the sight and range.
    melee = pairs[archer, red[3]]
    assert melee[P["in_range"]] == 1 and melee[P["line_of_sight"]] == 1
    assert melee[P["shot_legal"]] == 0
    # The warrior: base contact with red 4, a charge path to red 3, no ranged weapon.
    assert pairs[warrior, red[3], P["contact"]] == 1
    assert pairs[warrior, red[2], P["charge_reach"]] == 1
    assert pairs[warrior, red[0], P["charge_reach"]] == 0
    assert pairs[warrior, :, P["in_range"]].sum() == 0
    # Friends: geometry only; padding rows (blue slots 2, 3) and the diagonal are zero.
    friend = pairs[archer, warrior]
    assert friend[P["present"]] == 1 and friend[P["enemy"]] == 0
    assert friend[P["line_of_sight"]] == 0
    assert pairs[2:s].sum() == 0 and pairs[:, 2:s].sum() == 0
    assert all(pairs[k, k].sum() == 0 for k in range(2 * s))
    # Red's view: its own models first, and the straight-line variant agrees here.
    red_pairs = encoder.encode(scripted, "red")["pairs"]
    assert red_pairs[0, s + archer, P["shot_legal"]] == 0  # a warrior has no bow
    assert red_pairs[3, s + warrior, P["contact"]] == 1


def test_entity_encoding_data_errors_name_the_key() -> None:
    from importlib import resources

    import tomllib

    text = resources.files("riven_env.encoding").joinpath("data", "encoding.toml").read_text()
    raw = tomllib.loads(text)
    raw["entity"]["charge_paths"] = "yes"
    with pytest.raises(EncodingDataError, match="entity.charge_paths"):
        parse_encoding(raw, "test.toml")
    raw["entity"]["charge_paths"] = True
    raw["entity"]["terrain_slots"] = 0
    with pytest.raises(EncodingDataError, match="entity.terrain_slots"):
        parse_encoding(raw, "test.toml")


def test_mask_and_pairs_align_with_the_legal_decisions() -> None:
    """Along random games: a legal charge has charge_reach, a legal shot has shot_legal,
    for the acting model's row; the pointer layout points at the slot each entry names."""
    state = new_game("skirmish-5v5", 4)
    catalogue = ActionCatalogue(state)
    encoder = EntityEncoder(state, actions=catalogue.size)
    groups, heads, entities, names = pointer_layout(catalogue)
    s = catalogue.layout.models_per_side
    for index, key in enumerate(catalogue.keys):
        if key[0] in ("charge", "shoot", "melee"):
            assert entities[index] == s + key[2]
        if key[0] == "activate":
            assert entities[index] == key[1] and names[heads[index]] == f"activate:{key[2]}"
    assert len(set(groups)) < len(set(heads)) <= catalogue.size
    checked = {"charge": 0, "shoot": 0}
    from riven_agents.registry import make_agent

    for seed in range(3):  # Oracle games: they close in, shoot and charge
        state = new_game("skirmish-5v5", seed)
        agents = {side: make_agent("oracle", side, seed) for side in ("blue", "red")}
        while not state.is_terminal:
            side = state.current_side
            legal = state.legal_decisions()
            mask = catalogue.mask(state, legal)
            obs = encoder.encode(state, side, mask)
            assert np.array_equal(obs["action_mask"].astype(bool), mask)
            if state.phase == "action":
                row = catalogue.layout.slot_of(state.active_model, side)
                for index in np.flatnonzero(mask):
                    kind = catalogue.keys[index][0]
                    if kind == "charge":
                        assert obs["pairs"][row, entities[index], P["charge_reach"]] == 1
                        checked["charge"] += 1
                    elif kind == "shoot":
                        assert obs["pairs"][row, entities[index], P["shot_legal"]] == 1
                        checked["shoot"] += 1
            state.apply(agents[side].act(state, legal))
    assert checked["charge"] > 0 and checked["shoot"] > 0
