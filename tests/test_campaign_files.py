"""Campaign file and campaign rules validation: one line naming the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from riven_env.campaign import CampaignError, load_campaign, validate_campaign_file
from riven_env.campaign.loader import bundled_campaign_dir
from riven_env.campaign.rules import default_campaign_rules_path, load_campaign_rules

GOOD = (bundled_campaign_dir() / "iron-road.toml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str, name: str = "c.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def only_problem(path: Path) -> str:
    problems = validate_campaign_file(path)
    assert len(problems) == 1, problems
    assert "\n" not in problems[0]
    with pytest.raises(CampaignError) as caught:
        load_campaign(path)
    assert str(caught.value) == problems[0]
    return problems[0]


@pytest.mark.parametrize("name", ["iron-road", "derelict-run", "barrow-delve"])
def test_bundled_campaigns_are_valid(name: str) -> None:
    assert validate_campaign_file(bundled_campaign_dir() / f"{name}.toml") == []
    assert load_campaign(name).name == name


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        (
            'mode = "warband"',
            'mode = "warband"\ncolour = "red"',
            "campaign.colour",
            "unknown key 'colour'",
        ),
        (
            'profile = "veteran"',
            'profile = "veteran"\nmight = 6',
            "warband.models[1].might",
            "must be at most 5",
        ),
        (
            'profile = "veteran"',
            'profile = "veteran"\nmight = 5',
            "warband.models[1].might",
            "above 4 at creation",
        ),
        (
            'mission = "skirmish-5v5"',
            'mission = "no-such-mission"',
            "chain[2].mission",
            "missing mission 'no-such-mission'",
        ),
        (
            'generator = "ruins"',
            'generator = "caves"',
            "chain[1].generator",
            "allowed: field, ruins, dungeon",
        ),
        ("points_start = 30", "points_start = nan", "threat.points_start", "expected an integer"),
        ("points = 6", "points = -1", "warband.points", "must be at least 0"),
        (
            'profile = "archer"',
            'profile = "archr"',
            "warband.models[2].profile",
            "did you mean archer",
        ),
        ('enemy = ["warrior"', 'enemy = ["dragon"', "threat.enemy[0]", "unknown profile 'dragon'"),
        ("max_models = 6", "max_models = 3", "warband.models", "at most max_models = 3"),
    ],
)
def test_one_bad_value_one_line(tmp_path: Path, old: str, new: str, field: str, words: str) -> None:
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    line = only_problem(path)
    assert line.startswith(f"{path}: {field}: "), line
    assert words in line, line


def test_a_file_mission_is_found_next_to_the_campaign(tmp_path: Path) -> None:
    from riven_env.scenario import bundled_dir

    (tmp_path / "missions").mkdir()
    mission = (bundled_dir() / "open-field.toml").read_text(encoding="utf-8")
    write(tmp_path / "missions", mission, "mine.toml")
    path = write(
        tmp_path, GOOD.replace('mission = "skirmish-5v5"', 'mission = "missions/mine.toml"')
    )
    assert validate_campaign_file(path) == []


def test_a_mission_that_names_blue_models_cannot_field_the_warband(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace('mission = "skirmish-5v5"', 'mission = "escort-extract"'))
    line = only_problem(path)
    assert f"{path}: chain[2].mission: mission 'escort-extract' cannot field this warband" in line


def test_solo_hero_needs_one_hero(tmp_path: Path) -> None:
    solo = (bundled_campaign_dir() / "barrow-delve.toml").read_text(encoding="utf-8")
    path = write(tmp_path, solo.replace('profile = "hero"', 'profile = "captain"'))
    problems = validate_campaign_file(path)
    assert any("warband.models: mode 'solo_hero' needs exactly one model" in p for p in problems)
    path = write(tmp_path, solo.replace("resolve = 2", "resolve = 3"), "b.toml")
    assert "a hero distributes exactly 9 points" in only_problem(path)


def test_missing_and_broken_files(tmp_path: Path) -> None:
    missing = validate_campaign_file(tmp_path / "none.toml")
    assert len(missing) == 1 and str(tmp_path / "none.toml") in missing[0], missing
    broken = write(tmp_path, "schema_version = 1\n[campaign\n")
    assert "not valid TOML" in only_problem(broken)


# ---------------------------------------------------------------- the campaign rules file

RULES_TEXT = default_campaign_rules_path().read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        (
            'difficulty = "standard"\nstabilised_modifier = 2',
            'difficulty = "harsh"\nstabilised_modifier = 2',
            "fate.down.difficulty",
        ),
        ("survived = 1", "survived = 1\nlooted = 2", "experience.looted"),
        ("per_mission = 1", "per_mission = -1", "advances.per_mission"),
        ('ranged = "longbow"', 'ranged = "sword"', "talents.marksman.ranged"),
        ("troll = 14", "dragon = 14", "points.dragon"),
        ("move_min = 3.0", "move_min = nan", "injuries.move_min"),
        ("wounds = true", "wounds = false", "reset.wounds"),
    ],
)
def test_campaign_rules_refuse_bad_keys(tmp_path: Path, old: str, new: str, field: str) -> None:
    assert old in RULES_TEXT
    path = write(tmp_path, RULES_TEXT.replace(old, new, 1), "rules.toml")
    with pytest.raises(CampaignError) as caught:
        load_campaign_rules(path)
    line = str(caught.value)
    assert "\n" not in line and line.startswith(f"{path}: {field}: "), line


def test_a_campaign_names_its_own_rules_file(tmp_path: Path) -> None:
    write(tmp_path, RULES_TEXT.replace("cost = 6", "cost = 3", 1), "house.toml")
    path = write(
        tmp_path, GOOD.replace('mode = "warband"', 'mode = "warband"\nrules = "house.toml"')
    )
    spec = load_campaign(path)
    assert load_campaign_rules(spec.rules_path).attribute_cost == 3
    bad = write(
        tmp_path,
        GOOD.replace('mode = "warband"', 'mode = "warband"\nrules = "nope.toml"'),
        "d.toml",
    )
    assert only_problem(bad).startswith(f"{bad}: campaign.rules: ")
