"""The bundled missions and the profile library: every file loads, validates and places."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from riven_env.errors import ScenarioError
from riven_env.rules.config import load_rules
from riven_env.rules.profiles import check_hero
from riven_env.scenario import (
    SETTINGS,
    Scenario,
    bundled_dir,
    list_bundled,
    load_library,
    load_scenario,
    validate_file,
)
from riven_env.scenario.layout import connected

BUNDLED = [info.name for info in list_bundled()]
REQUIRED = {
    "skirmish-5v5",
    "open-field",
    "ruins",
    "dungeon-crawl",
    "solo-hero-horde",
    "hold-the-line",
    "escort-extract",
    "ranged-vs-melee",
    "scifi-skirmish-5v5",
    "scifi-derelict",
    "scifi-hold",
    "duel-1v1",
}


def test_the_bundled_set_is_complete_and_named_by_file() -> None:
    assert len(BUNDLED) >= 10
    assert set(BUNDLED) >= REQUIRED
    assert len(BUNDLED) == len(set(BUNDLED))
    for info in list_bundled():
        assert info.path.parent == bundled_dir()
        assert info.path.stem == info.name
        assert info.setting in SETTINGS


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenario_validates(name: str) -> None:
    info = next(i for i in list_bundled() if i.name == name)
    assert validate_file(info.path) == []


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenario_places_every_model_legally(name: str) -> None:
    scenario = load_scenario(name)
    table = scenario.table
    models = scenario.models()
    assert models and all(side.models for side in scenario.sides.values())
    centres = np.array([m.position for m in models])
    radii = np.array([m.profile.base_diameter / 2 for m in models])
    gaps = (
        np.linalg.norm(centres[:, None] - centres[None, :], axis=2)
        - radii[:, None]
        - radii[None, :]
    )
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() >= -1e-9, "bases overlap"
    impassable = [p for p in table.pieces if p.impassable]
    fixed = {
        entry.get("id")
        for side in scenario.raw["sides"].values()
        for entry in side["models"]
        if "position" in entry
    }
    for model, (x, y), r in zip(models, centres, radii, strict=True):
        assert r <= x <= table.width - r and r <= y <= table.height - r, model.id
        for piece in impassable:
            assert piece.polygon.distance(shapely.Point(x, y)) >= r - 1e-6, (model.id, piece.name)
        if model.id not in fixed:
            assert any(
                x0 <= x - r + 1e-9
                and x + r <= x1 + 1e-9
                and y0 <= y - r + 1e-9
                and y + r <= y1 + 1e-9
                for x0, y0, x1, y1 in scenario.deployment[model.side]
            ), f"{model.id} outside its deployment zone"


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenario_is_connected(name: str) -> None:
    """Every model can reach every objective and every enemy (1" bases; the widest base of
    the scenario from the objectives to its own model)."""
    scenario = load_scenario(name)
    size = (scenario.table.width, scenario.table.height)
    obstacles = [p.polygon for p in scenario.table.pieces if p.impassable]
    objectives = [(o.x, o.y) for o in scenario.objectives]
    assert connected(size, obstacles, [m.position for m in scenario.models()] + objectives, 1.0)
    widest = max(scenario.models(), key=lambda m: m.profile.base_diameter)
    assert connected(size, obstacles, [widest.position, *objectives], widest.profile.base_diameter)


def test_scenario_lookup_by_name_and_unknown_names() -> None:
    assert isinstance(load_scenario("duel-1v1"), Scenario)
    with pytest.raises(ScenarioError) as raised:
        load_scenario("no-such-mission")
    assert "no-such-mission" in str(raised.value) and "skirmish-5v5" in str(raised.value)


def test_reference_mission_shape() -> None:
    scenario = load_scenario("skirmish-5v5")
    assert (scenario.table.width, scenario.table.height, scenario.rounds) == (36, 36, 8)
    assert 10 <= len(scenario.table.pieces) <= 14
    # Five Wardens against six Reavers since the mission was rebalanced (docs/balance.md).
    assert [len(scenario.sides[s].models) for s in ("blue", "red")] == [5, 6]
    assert {c.type for c in scenario.victory.conditions} == {"eliminate", "casualties", "hold"}
    ranged = [m for m in scenario.models() if m.profile.ranged is not None]
    assert 0 < len(ranged) < len(scenario.models())


def test_duel_is_small_and_fast() -> None:
    scenario = load_scenario("duel-1v1")
    assert (scenario.table.width, scenario.table.height) == (24, 24)
    assert scenario.rounds <= 6
    assert all(len(side.models) <= 2 for side in scenario.sides.values())


def test_solo_hero_mission() -> None:
    scenario = load_scenario("solo-hero-horde")
    assert scenario.mode == "solo_hero"
    [hero] = scenario.sides["blue"].models
    assert "hero" in hero.profile.keywords
    assert len(scenario.sides["red"].models) >= 6  # a horde (nine since issue 15's tuning)
    assert "survive" in {c.type for c in scenario.victory.conditions}


def test_escort_mission_names_its_courier() -> None:
    scenario = load_scenario("escort-extract")
    kinds = {c.type: c for c in scenario.victory.conditions}
    assert kinds["extract"].models == ("blue-courier",) and kinds["extract"].win
    assert kinds["protect"].models == ("blue-courier",)


def test_sci_fi_twin_shares_the_reference_geometry() -> None:
    fantasy, scifi = load_scenario("skirmish-5v5"), load_scenario("scifi-skirmish-5v5")
    assert scifi.setting == "scifi"
    assert [p.polygon.wkt for p in fantasy.table.pieces] == [
        p.polygon.wkt for p in scifi.table.pieces
    ]
    assert [m.profile for m in fantasy.models()] == [m.profile for m in scifi.models()]


def test_profile_library_heroes_names_and_ranges() -> None:
    rules = load_rules()
    library = load_library(rules=rules)
    assert 12 <= len(library.profiles) <= 20
    heroes = [p for p in library.profiles.values() if "hero" in p.keywords]
    assert heroes
    for hero in heroes:
        check_hero(hero, rules)
        assert hero.might + hero.agility + hero.wit + hero.resolve == 9
    for entry in [*library.profiles.values(), *library.weapons.values()]:
        assert set(entry.display_names) == set(SETTINGS), entry.name
    for profile in library.profiles.values():
        assert 4 <= profile.move <= 6, profile.name
    for weapon in library.weapons.values():
        if weapon.kind == "ranged":
            assert 6 <= weapon.range <= 24, weapon.name
        else:
            assert weapon.range == 0, weapon.name
