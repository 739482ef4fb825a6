"""The procedural generator: deterministic, always valid, dungeons connected."""

from __future__ import annotations

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

import pytest
import shapely

from riven_env.errors import ScenarioError
from riven_env.scenario import GENERATOR_KINDS, generate_scenario, load_scenario_text, to_toml
from riven_env.scenario.layout import connected


@pytest.mark.parametrize("kind", GENERATOR_KINDS)
def test_same_seed_same_bytes(kind: str) -> None:
    first = to_toml(generate_scenario(kind, 11, setting="scifi"))
    again = to_toml(generate_scenario(kind, 11, setting="scifi"))
    other = to_toml(generate_scenario(kind, 12, setting="scifi"))
    assert first == again
    assert first != other


@pytest.mark.parametrize("kind", GENERATOR_KINDS)
def test_thirty_seeds_validate_and_place(kind: str) -> None:
    for seed in range(30):
        setting = ("fantasy", "scifi")[seed % 2]
        doc = generate_scenario(kind, seed, setting=setting, models_per_side=1 + seed % 8)
        text = to_toml(doc)
        assert tomllib.loads(text) == doc
        scenario = load_scenario_text(text, source=f"{kind}-{seed}")
        assert scenario.setting == setting
        assert all(len(side.models) == 1 + seed % 8 for side in scenario.sides.values())
        assert scenario.table.pieces


@pytest.mark.parametrize("seed", range(8))
def test_dungeon_rooms_all_connect(seed: int) -> None:
    scenario = load_scenario_text(to_toml(generate_scenario("dungeon", seed)))
    walls = [p for p in scenario.table.pieces if p.type == "wall"]
    assert len(walls) >= 24  # six rooms of at least four wall runs
    obstacles = [p.polygon for p in scenario.table.pieces if p.impassable]
    size = (scenario.table.width, scenario.table.height)
    loot = [(o.x, o.y) for o in scenario.objectives]
    assert len(loot) == 4 and {o.kind for o in scenario.objectives} == {"loot"}
    zones = [
        ((x0 + x1) / 2, (y0 + y1) / 2)
        for rects in scenario.deployment.values()
        for x0, y0, x1, y1 in rects
    ]
    assert connected(size, obstacles, loot + zones + [m.position for m in scenario.models()], 1.0)


def test_connectivity_check_detects_a_sealed_room() -> None:
    """The check the generator relies on can fail: loot ringed by a wall is cut off."""
    scenario = load_scenario_text(to_toml(generate_scenario("dungeon", 3)))
    sealed = [p.polygon for p in scenario.table.pieces if p.impassable]
    room = scenario.objectives[0]
    ring = shapely.Point(room.x, room.y).buffer(6).exterior.buffer(0.5)
    size = (scenario.table.width, scenario.table.height)
    assert not connected(
        size, [*sealed, ring], [(room.x, room.y), scenario.models()[0].position], 1.0
    )


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"kind": "cave", "seed": 1}, "kind"),
        ({"kind": "field", "seed": -1}, "seed"),
        ({"kind": "field", "seed": 1, "setting": "steampunk"}, "setting"),
        ({"kind": "field", "seed": 1, "models_per_side": 0}, "models_per_side"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, field: str) -> None:
    with pytest.raises(ScenarioError) as raised:
        generate_scenario(**kwargs)
    assert raised.value.field == field
