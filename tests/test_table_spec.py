"""Table specs: validation, round trips, pickling, terrain types."""

from __future__ import annotations

import pickle

import pytest

from riven_env.errors import TerrainError
from riven_env.table import Table, better_cover, cover_step, terrain_types
from riven_env.table.config import geometry_config

SPEC = {
    "width": 36,
    "height": 24,
    "name": "farm",
    "terrain": [
        {"name": "old wall", "type": "wall", "polygon": [[2, 2], [8, 2], [8, 3], [2, 3]]},
        {"type": "woods", "circle": [18, 12, 3]},
        {"name": "hut", "type": "building", "rect": [25, 15, 30, 20], "cover": "soft"},
        {"name": "crater", "type": "rubble", "rect": [10, 15, 12, 18], "difficult": False},
    ],
}


def test_from_spec_builds_pieces_with_type_defaults_and_overrides() -> None:
    table = Table.from_spec(SPEC)
    assert (table.width, table.height, table.name) == (36.0, 24.0, "farm")
    wall, woods, hut, crater = table.pieces
    assert (wall.cover, wall.blocks_los, wall.impassable) == ("hard", True, True)
    assert woods.name == "woods-1" and woods.difficult and not woods.impassable
    assert hut.cover == "soft" and hut.impassable
    assert crater.cover == "hard" and not crater.difficult
    assert woods.polygon.area == pytest.approx(3.14159 * 9, rel=0.1)


def test_to_spec_round_trips_and_keeps_only_overrides() -> None:
    table = Table.from_spec(SPEC)
    spec = table.to_spec()
    assert Table.from_spec(spec) == table
    assert spec["terrain"][2]["cover"] == "soft"
    assert "blocks_los" not in spec["terrain"][2]
    assert spec["terrain"][1]["circle"] == [18.0, 12.0, 3.0]


def test_defaults_come_from_data() -> None:
    table = Table.from_spec({"terrain": []})
    cfg = geometry_config()
    assert (table.width, table.height) == (cfg.default_width, cfg.default_height)


def test_table_pickles_and_compares_equal() -> None:
    table = Table.from_spec(SPEC)
    table.for_radius(0.5)  # caches must not break pickling
    copy = pickle.loads(pickle.dumps(table))
    assert copy == table and hash(copy) == hash(table)
    assert copy.pieces[0].polygon.equals(table.pieces[0].polygon)


def test_dungeon_polygon_with_holes_is_accepted() -> None:
    rock = {
        "name": "rock",
        "type": "wall",
        "polygon": [[0, 0], [20, 0], [20, 10], [0, 10]],
        "holes": [[[1, 1], [9, 1], [9, 9], [1, 9]], [[11, 1], [19, 1], [19, 9], [11, 9]]],
    }
    table = Table.from_spec({"width": 20, "height": 10, "terrain": [rock]})
    assert len(table.pieces[0].polygon.interiors) == 2
    assert Table.from_spec(table.to_spec()) == table


@pytest.mark.parametrize(
    ("piece", "words"),
    [
        (
            {"type": "wall", "polygon": [[0, 0], [4, 4], [4, 0], [0, 4]]},
            ["terrain[0]", "not valid"],
        ),
        ({"name": "far", "type": "wall", "rect": [30, 10, 40, 12]}, ["'far'", "off the"]),
        ({"type": "wall", "rect": [1, 1, 2, 2], "height": 3}, ["unknown key", "height"]),
        ({"type": "lava", "rect": [1, 1, 2, 2]}, ["unknown terrain type 'lava'", "wall"]),
        (
            {"name": "odd", "type": {}, "rect": [1, 1, 2, 2]},
            ["'odd'", "unknown terrain type {}", "wall"],
        ),
        ({"type": ["wall"], "rect": [1, 1, 2, 2]}, ["unknown terrain type ['wall']", "woods"]),
        ({"type": "wall", "polygon": [[0, 0], ["a", 1], [1, 1]]}, ["finite numbers", "'a'"]),
        ({"type": "wall", "rect": [1, True, 2, 2]}, ["finite numbers"]),
        ({"type": "wall", "rect": [3, 1, 2, 2]}, ["x0 < x1"]),
        ({"type": "wall", "circle": [5, 5, -1]}, ["radius"]),
        ({"type": "wall", "rect": [1, 1, 2, 2], "circle": [5, 5, 1]}, ["exactly one shape"]),
        ({"type": "wall"}, ["exactly one shape"]),
        ({"type": "wall", "rect": [1, 1, 2, 2], "cover": "total"}, ["cover 'total'", "hard"]),
        ({"type": "woods", "rect": [1, 1, 2, 2], "impassable": True}, ["both difficult"]),
        ({"type": "wall", "rect": [1, 1, 2, 2], "blocks_los": "yes"}, ["true or false"]),
        ("wall", ["mapping"]),
    ],
)
def test_malformed_terrain_is_refused_naming_the_piece(piece: object, words: list[str]) -> None:
    with pytest.raises(TerrainError) as caught:
        Table.from_spec({"width": 36, "height": 36, "terrain": [piece]}, where="s.toml: table")
    message = str(caught.value)
    assert "s.toml: table" in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    "spec",
    [{"width": -1}, {"width": "wide"}, {"height": True}, {"size": 3}, {"terrain": {"a": 1}}],
)
def test_malformed_table_is_refused(spec: dict) -> None:
    with pytest.raises(TerrainError):
        Table.from_spec(spec)


def test_terrain_types_cover_the_catalogue() -> None:
    types = terrain_types()
    for name in (
        "wall",
        "ruin",
        "low_wall",
        "rubble",
        "hedge",
        "woods",
        "scrub",
        "building",
        "rocks",
        "boulder",
        "water",
        "marsh",
        "pit",
        "chasm",
        "crates",
        "barricade",
        "container",
        "pillar",
        "bulkhead",
    ):
        assert name in types
    assert types["ruin"].cover == "hard" and types["ruin"].difficult and types["ruin"].blocks_los
    assert types["pit"].impassable and not types["pit"].blocks_los
    assert not any(t.difficult and t.impassable for t in types.values())


def test_cover_helpers() -> None:
    assert better_cover("soft", "hard") == "hard"
    assert better_cover("none", "soft") == "soft"
    assert cover_step("none", 1) == "soft"
    assert cover_step("hard", 1) == "hard"
    assert cover_step("hard", -3) == "none"
    with pytest.raises(TerrainError):
        cover_step("total", 1)  # type: ignore[arg-type]
