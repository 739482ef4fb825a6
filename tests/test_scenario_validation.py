"""Scenario validation: a corpus of bad files, each refused naming the file and field path."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riven_env.errors import RivenError, ScenarioError
from riven_env.rules.config import load_rules
from riven_env.scenario import (
    ScenarioProblems,
    load_scenario,
    load_scenario_text,
    oracle_names,
    oracle_profile_names,
    to_toml,
    validate_file,
    validate_text,
)
from riven_env.scenario.oracle_names import FALLBACK_ORACLE_PROFILES

Doc = dict[str, Any]


def base_doc() -> Doc:
    """A small valid scenario: 24" table, three terrain pieces, 2 v 2."""
    return {
        "schema_version": 1,
        "scenario": {
            "name": "test-mission",
            "title": "Test Mission",
            "setting": "fantasy",
            "mode": "warband",
            "rounds": 6,
            "first_side": "blue",
        },
        "table": {
            "width": 24,
            "height": 24,
            "terrain": [
                {"name": "ruin", "type": "ruin", "polygon": [[4, 10], [8, 10], [8, 14], [4, 14]]},
                {"name": "woods", "type": "woods", "circle": [18, 12, 2]},
                {"name": "wall", "type": "wall", "rect": [11, 8, 13, 8.5]},
            ],
        },
        "deployment": {"blue": [[0, 0, 24, 4]], "red": [[0, 20, 24, 24]]},
        "objectives": [{"name": "stone", "x": 12.0, "y": 12.0, "kind": "hold", "points": 1}],
        "sides": {
            "blue": {
                "name": "Blue",
                "oracle": "tactical",
                "models": [{"profile": "captain", "id": "blue-captain"}, {"profile": "warrior"}],
            },
            "red": {
                "name": "Red",
                "oracle": "aggressive",
                "models": [{"profile": "veteran"}, {"profile": "archer"}],
            },
        },
        "victory": {
            "at_round_limit": "points",
            "conditions": [{"type": "eliminate"}, {"type": "hold", "from_round": 2}],
        },
    }


def write(tmp_path: Path, doc: Doc, name: str = "mission.toml") -> Path:
    path = tmp_path / name
    path.write_text(to_toml(doc), encoding="utf-8")
    return path


def test_base_document_is_valid(tmp_path: Path) -> None:
    path = write(tmp_path, base_doc())
    assert validate_file(path) == []
    scenario = load_scenario(path)
    assert [m.id for m in scenario.models()] == ["blue-captain", "blue-2", "red-1", "red-2"]
    assert scenario.objectives[0].radius == load_rules().get("distances.objective_radius")


# --- the bad-file corpus -----------------------------------------------------------------


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return mutate


def _delete(path: tuple[Any, ...]) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return mutate


def _hero_with_ten_points(doc: Doc) -> None:
    doc["profiles"] = {
        "superhero": {
            "might": 4,
            "agility": 2,
            "wit": 2,
            "resolve": 2,
            "mettle": 3,
            "wounds": 3,
            "move": 5,
            "melee": "sword",
            "keywords": ["hero"],
        }
    }
    doc["sides"]["blue"]["models"][1]["profile"] = "superhero"


def _duplicate_ids(doc: Doc) -> None:
    doc["sides"]["blue"]["models"][1]["id"] = "blue-captain"


def _overlapping_positions(doc: Doc) -> None:
    doc["sides"]["blue"]["models"][0]["position"] = [6.0, 2.0]
    doc["sides"]["red"]["models"][0]["position"] = [6.5, 2.0]


def _two_problems(doc: Doc) -> None:
    doc["scenario"]["setting"] = "steampunk"
    doc["sides"]["red"]["models"][1]["profile"] = "dragon"


BAD_FILES: list[tuple[str, Callable[[Doc], None], str, str]] = [
    # (case, mutation, field path, words the message must hold)
    ("unknown key", _set(("scenario", "colour"), "red"), "scenario.colour", "allowed keys"),
    ("wrong type", _set(("scenario", "rounds"), "eight"), "scenario.rounds", "integer"),
    ("missing required field", _delete(("scenario", "title")), "scenario.title", "missing"),
    (
        "unknown profile",
        _set(("sides", "blue", "models", 1, "profile"), "dragon"),
        "sides.blue.models[1].profile",
        "known profiles",
    ),
    (
        "unknown terrain type",
        _set(("table", "terrain", 1, "type"), "lava"),
        "table.terrain[1]",
        "unknown terrain type",
    ),
    (
        "self-intersecting polygon",
        _set(("table", "terrain", 0, "polygon"), [[4, 10], [8, 14], [8, 10], [4, 14]]),
        "table.terrain[0]",
        "not valid",
    ),
    (
        "terrain off table",
        _set(("table", "terrain", 2, "rect"), [20, 8, 30, 9]),
        "table.terrain[2]",
        "off the",
    ),
    ("objective off table", _set(("objectives", 0, "x"), 50.0), "objectives[0]", "off the"),
    ("duplicate ids", _duplicate_ids, "sides.blue.models[1].id", "duplicate model id"),
    (
        "unknown oracle profile",
        _set(("sides", "red", "oracle"), "berserk"),
        "sides.red.oracle",
        "allowed",
    ),
    (
        "unknown per-model oracle",
        _set(("sides", "red", "models", 0, "oracle"), "berserk"),
        "sides.red.models[0].oracle",
        "allowed",
    ),
    ("hero with 10 points", _hero_with_ten_points, "profiles.superhero", "10"),
    (
        "bad setting",
        _set(("scenario", "setting"), "steampunk"),
        "scenario.setting",
        "fantasy, scifi",
    ),
    ("bad name", _set(("scenario", "name"), "Test Mission"), "scenario.name", "lower-case"),
    (
        "bad first side",
        _set(("scenario", "first_side"), "green"),
        "scenario.first_side",
        "blue, red, roll",
    ),
    ("bad schema version", _set(("schema_version",), 2), "schema_version", "reads 1"),
    (
        "zone off table",
        _set(("deployment", "red"), [[0, 20, 24, 30]]),
        "deployment.red[0]",
        "off the",
    ),
    (
        "zone upside down",
        _set(("deployment", "red"), [[0, 24, 24, 20]]),
        "deployment.red[0]",
        "y0 < y1",
    ),
    ("missing side", _delete(("sides", "red")), "sides.red", "missing"),
    (
        "unknown side",
        _set(("sides", "green"), {"name": "G", "models": []}),
        "sides.green",
        "allowed keys",
    ),
    (
        "objective in impassable terrain",
        _set(("objectives", 0, "y"), 8.25),
        "objectives[0]",
        "impassable terrain 'wall'",
    ),
    (
        "position in impassable terrain",
        _set(("sides", "blue", "models", 0, "position"), [12.0, 8.25]),
        "sides.blue.models[0].position",
        "impassable terrain 'wall'",
    ),
    (
        "position off table",
        _set(("sides", "blue", "models", 0, "position"), [23.8, 5.0]),
        "sides.blue.models[0].position",
        "not wholly on",
    ),
    ("positions overlap", _overlapping_positions, "sides.red.models[0].position", "overlaps model"),
    (
        "position with count",
        lambda d: d["sides"]["blue"]["models"][1].update(count=2, position=[3.0, 3.0]),
        "sides.blue.models[1].position",
        "count = 2",
    ),
    (
        "unknown victory type",
        _set(("victory", "conditions", 0, "type"), "conquer"),
        "victory.conditions[0].type",
        "eliminate, hold",
    ),
    (
        "victory model missing",
        _set(
            ("victory", "conditions", 1),
            {"type": "protect", "side": "blue", "models": ["blue-king"]},
        ),
        "victory.conditions[1].models",
        "blue-king",
    ),
    (
        "victory key of another type",
        _set(("victory", "conditions", 0, "points"), 3),
        "victory.conditions[0].points",
        "allowed keys",
    ),
    (
        "bad round limit outcome",
        _set(("victory", "at_round_limit"), "side:green"),
        "victory.at_round_limit",
        "side:blue",
    ),
    (
        "zone too small to place",
        _set(("deployment", "blue"), [[0, 0, 1.5, 1.5]]),
        "deployment.blue",
        "cannot place model",
    ),
    (
        "solo hero without a lone hero",
        _set(("scenario", "mode"), "solo_hero"),
        "scenario.mode",
        "exactly one side",
    ),
    (
        "inline profile with a bad value",
        lambda d: d.update(profiles={"giant": {**_giant(), "might": 9}}),
        "profiles.giant.might",
        "9",
    ),
]


def _giant() -> dict[str, Any]:
    return {
        "might": 5,
        "agility": 1,
        "wit": 1,
        "resolve": 2,
        "mettle": 4,
        "wounds": 3,
        "melee": "club",
    }


@pytest.mark.parametrize(
    ("case", "mutate", "field", "words"), BAD_FILES, ids=[c[0] for c in BAD_FILES]
)
def test_bad_file_is_refused_naming_file_and_field(
    tmp_path: Path, case: str, mutate: Callable[[Doc], None], field: str, words: str
) -> None:
    doc = copy.deepcopy(base_doc())
    mutate(doc)
    path = write(tmp_path, doc)
    messages = validate_file(path)
    assert messages, f"{case}: accepted"
    matching = [m for m in messages if m.startswith(f"{path}: {field}")]
    assert matching, f"{case}: no message names {field!r}: {messages}"
    assert any(words in m for m in matching), f"{case}: {words!r} not in {matching}"
    with pytest.raises(ScenarioError) as raised:
        load_scenario(path)
    errors = getattr(raised.value, "errors", [raised.value])
    assert any(error.file == str(path) and error.field == field for error in errors), [
        (e.file, e.field) for e in errors
    ]


def test_not_toml_at_all(tmp_path: Path) -> None:
    path = tmp_path / "notes.toml"
    path.write_text("this is [not toml\n", encoding="utf-8")
    [message] = validate_file(path)
    assert message.startswith(f"{path}: not valid TOML")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_scenario(path)


@pytest.mark.parametrize("kind", ["missing", "directory", "binary"])
def test_unreadable_paths_are_messages(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.toml"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00\x81 binary")
    [message] = validate_file(path)
    assert message.startswith(str(path))
    assert {"missing": "no such file", "directory": "directory", "binary": "UTF-8"}[kind] in message


def test_independent_problems_are_all_reported(tmp_path: Path) -> None:
    doc = base_doc()
    _two_problems(doc)
    doc["table"]["terrain"][1]["type"] = "lava"
    path = write(tmp_path, doc)
    messages = validate_file(path)
    fields = ["scenario.setting", "sides.red.models[1].profile", "table.terrain[1]"]
    for field in fields:
        assert any(m.startswith(f"{path}: {field}") for m in messages), (field, messages)
    with pytest.raises(ScenarioProblems) as raised:
        load_scenario(path)
    assert len(raised.value.errors) == len(messages)
    assert "3 problems" in str(raised.value)


def test_count_expands_ids_and_inline_profiles_override_the_library() -> None:
    doc = base_doc()
    doc["weapons"] = {"maul": {"kind": "melee", "range": 0, "modifier": 1, "traits": ["heavy"]}}
    doc["profiles"] = {"warrior": {**_giant(), "melee": "maul"}}
    doc["sides"]["red"]["models"] = [{"profile": "warrior", "id": "red-ogre", "count": 3}]
    scenario = load_scenario_text(to_toml(doc))
    red = scenario.sides["red"].models
    assert [m.id for m in red] == ["red-ogre-1", "red-ogre-2", "red-ogre-3"]
    assert red[0].profile.might == 5 and red[0].profile.melee.name == "maul"
    # the blue warrior uses the overridden profile too: inline entries replace library ones
    assert scenario.sides["blue"].models[1].profile.might == 5


def test_solo_hero_mode_accepts_one_lone_hero() -> None:
    doc = base_doc()
    doc["scenario"]["mode"] = "solo_hero"
    doc["sides"]["blue"]["models"] = [{"profile": "hero"}]
    assert validate_text(to_toml(doc)) == []


def test_victory_conditions_keep_their_fields() -> None:
    doc = base_doc()
    doc["victory"]["conditions"] += [
        {
            "type": "extract",
            "side": "blue",
            "models": ["blue-captain"],
            "zone": [0, 22, 24, 24],
            "win": True,
        },
        {"type": "survive", "side": "red", "points": 3, "min_models": 2},
        {"type": "casualties", "points": 2},
    ]
    conditions = load_scenario_text(to_toml(doc)).victory.conditions
    extract, survive, casualties = conditions[2:]
    assert extract.models == ("blue-captain",) and extract.zone == (0.0, 22.0, 24.0, 24.0)
    assert extract.win and extract.points == 1
    assert (survive.side, survive.points, survive.min_models) == ("red", 3, 2)
    assert casualties.points == 2 and conditions[1].from_round == 2


def test_oracle_names_fall_back_without_the_oracle_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(oracle_names, "oracle_profiles_file", lambda: None)
    assert set(oracle_profile_names()) == set(FALLBACK_ORACLE_PROFILES)


def test_oracle_names_come_from_the_oracle_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "profiles.toml"
    data.write_text("[profiles.sneaky]\nx = 1\n[profiles.tactical]\nx = 2\n", encoding="utf-8")
    monkeypatch.setattr(oracle_names, "oracle_profiles_file", lambda: data)
    assert oracle_profile_names() == ("sneaky", "tactical")
    doc = base_doc()
    doc["sides"]["red"]["oracle"] = "aggressive"
    [message] = validate_text(to_toml(doc))
    assert "sides.red.oracle" in message and "sneaky, tactical" in message


# --- robustness: any mangled document gives messages, never another exception ------------


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


_JUNK = st.one_of(
    st.integers(-5, 50),
    st.floats(-5, 50, allow_nan=False),
    st.text(max_size=6),
    st.booleans(),
    st.lists(st.integers(0, 30), max_size=5),
    st.just({}),
    st.just([{}]),
    st.just([[1, 2], [3]]),
)


@settings(
    max_examples=200, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_mangled_documents_give_messages_not_crashes(data: st.DataObject) -> None:
    doc = base_doc()
    paths = _paths(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        node = doc
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = data.draw(_JUNK)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation replaced a parent
    try:
        messages = validate_text(to_toml(doc))
    except RivenError:  # pragma: no cover - validate_text reports, it does not raise
        pytest.fail("validate_text raised instead of reporting")
    assert isinstance(messages, list)


def test_placement_is_deterministic_and_legal() -> None:
    doc = base_doc()
    doc["sides"]["red"]["models"] = [{"profile": "goblin", "count": 8}, {"profile": "troll"}]
    first = load_scenario_text(to_toml(doc))
    again = load_scenario_text(to_toml(doc))
    assert [m.position for m in first.models()] == [m.position for m in again.models()]
    centres = np.array([m.position for m in first.models()])
    radii = np.array([m.profile.base_diameter / 2 for m in first.models()])
    gaps = (
        np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
        - radii[:, None]
        - radii
    )
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() >= -1e-9
    for model in first.sides["red"].models:
        x, y = model.position
        r = model.profile.base_diameter / 2
        assert (
            x - r >= 0 - 1e-9 and x + r <= 24 + 1e-9 and y - r >= 20 - 1e-9 and y + r <= 24 + 1e-9
        )
