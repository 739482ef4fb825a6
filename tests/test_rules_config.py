"""Rules data loading: defaults, overrides, validation errors naming the key, sharing."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from riven_env.errors import RulesDataError
from riven_env.rules import bundled_rules, default_rules_path, load_rules
from riven_env.rules.config import RulesConfig

ODDS_KEYS = {
    "activation.max_dice": 3,
    "activation.turnover": "raw",
    "activation.sbh_failures_to_pass": 2,
    "test.bands.miss_max": -3,
    "test.bands.partial_max": 0,
    "test.bands.hit_max": 3,
    "test.difficulty.easy": 6,
    "test.difficulty.standard": 8,
    "test.difficulty.hard": 10,
    "test.difficulty.brutal": 12,
    "melee.charge_bonus": 2,
    "melee.outnumbered_penalty": 1,
    "melee.wound_margin": 5,
    "melee.recoil_distance": 2.0,
    "melee.critical_ratio": 2,
    "shooting.cover_tn.none": 8,
    "shooting.cover_tn.soft": 10,
    "shooting.cover_tn.hard": 12,
}


def test_default_file_holds_the_keys_other_modules_read() -> None:
    rules = load_rules()
    for key, value in ODDS_KEYS.items():
        assert rules.get(key) == value, key
    assert type(rules.get("melee.recoil_distance")) is float
    assert rules.source == str(default_rules_path())


def test_unknown_get_key_names_it_and_the_known_keys() -> None:
    with pytest.raises(RulesDataError, match=r"melee\.charge_bonsu.*charge_bonus"):
        load_rules().get("melee.charge_bonsu")


def test_rules_are_frozen_hashable_picklable_and_equal_by_content() -> None:
    first, second = load_rules(), load_rules()
    assert first == second and hash(first) == hash(second)
    assert first != load_rules(overrides={"turnover": "sbh"})
    with pytest.raises(AttributeError):
        first.source = "elsewhere"  # type: ignore[misc]
    clone = pickle.loads(pickle.dumps(first))
    assert clone == first and clone.raw == first.raw
    assert bundled_rules() is bundled_rules()


def test_dotted_and_leaf_overrides_with_cli_string_coercion() -> None:
    rules = load_rules(
        overrides={
            "activation.turnover": "sbh",
            "sbh_failures_to_pass": "3",
            "recoil_distance": "2.5",
            "spend_may_overflow": "false",
            "shooting.cover_order": "none, soft, hard",
        }
    )
    assert rules.get("activation.turnover") == "sbh"
    assert rules.get("activation.sbh_failures_to_pass") == 3
    assert rules.get("melee.recoil_distance") == 2.5
    assert rules.get("strain.spend_may_overflow") is False
    assert rules.overrides["activation.sbh_failures_to_pass"] == 3
    assert set(rules.overrides) == {
        "activation.turnover",
        "activation.sbh_failures_to_pass",
        "melee.recoil_distance",
        "strain.spend_may_overflow",
        "shooting.cover_order",
    }


def test_unknown_override_key_is_refused() -> None:
    with pytest.raises(RulesDataError, match="unknown override key 'turnovr'.*turnover"):
        load_rules(overrides={"turnovr": "sbh"})
    with pytest.raises(RulesDataError, match=r"unknown override key 'melee\.nope'"):
        load_rules(overrides={"melee.nope": 1})


def test_ambiguous_leaf_override_names_the_candidates() -> None:
    with pytest.raises(RulesDataError, match="ambiguous") as info:
        load_rules(overrides={"wounds": "2"})
    assert "melee.wound_wounds" not in str(info.value)  # a different leaf name
    assert "shooting.effects.hit.wounds" in str(info.value)
    assert "shooting.effects.miss.wounds" in str(info.value)


def test_override_of_a_table_is_refused() -> None:
    with pytest.raises(RulesDataError, match="names a table"):
        load_rules(overrides={"test.bands": 1})


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("activation.max_dice", "three", "expected an integer"),
        ("spend_may_overflow", "maybe", "expected a boolean"),
        ("recoil_distance", "far", "expected a number"),
        ("turnover", 3, "expected a string"),
    ],
)
def test_override_that_cannot_be_coerced_is_refused(key: str, value: object, expected: str) -> None:
    with pytest.raises(RulesDataError, match=expected):
        load_rules(overrides={key: value})


def test_override_values_are_validated_like_file_values() -> None:
    with pytest.raises(RulesDataError, match=r"activation\.turnover = 'xyz'.*'raw', 'sbh'"):
        load_rules(overrides={"turnover": "xyz"})


def _write_variant(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = default_rules_path().read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"fixture text {old!r} not in the rules file"
    path = tmp_path / "variant.toml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


BAD_VALUES = [
    # (text in the file, replacement, pattern the error must match)
    ('turnover = "raw"', 'turnover = "xyz"', r"activation\.turnover = 'xyz'"),
    ("max_dice = 3", "max_dice = 0", r"activation\.max_dice = 0: expected an integer in 1\.\.10"),
    ("partial_max = 0", "partial_max = -5", r"test\.bands\.partial_max = -5: must be greater"),
    ("hit_max = 3", "hit_max = 0", r"test\.bands\.hit_max = 0: must be greater"),
    ("critical_ratio = 2", "critical_ratio = 1", r"melee\.critical_ratio = 1"),
    ("recoil_distance = 2.0", 'recoil_distance = "two"', r"melee\.recoil_distance = 'two'"),
    ("soft = 10", "soft = 7", r"shooting\.cover_tn\.soft = 7: better cover"),
    ('6 = "bleeding"\n', "", r"strain\.overflow_table: .*missing 6"),
    ('6 = "bleeding"', '7 = "bleeding"', r"strain\.overflow_table: key '7' is not a face"),
    ('5 = "pinned"', '5 = "panicked"', r"strain\.overflow_table\.5 = 'panicked'"),
    ("[complications.table.6]", "[complications.table.9]", r"complications\.table: key '9'"),
    ('effect = "end_activation"', 'effect = "explode"', r"complications\.table\.3\.effect"),
    ('pool = "side"', 'pool = "everyone"', r"momentum\.pool = 'everyone'"),
    ("cap = 6", "cap = 0", r"momentum\.cap = 0"),
    ('boost_ceiling = "hit"', 'boost_ceiling = "miss"', r"momentum\.boost_ceiling = 'miss'"),
    ("track_per_wit = 2", "track_per_wit = -1", r"strain\.track_per_wit = -1"),
    ('expires = "end_of_next_activation"', 'expires = "soon"', r"conditions\.dazed\.expires"),
    (
        "melee_modifier = -1",
        "melee_modifer = -1",
        r"conditions\.dazed\.melee_modifer is not a known",
    ),
    ('forbids = ["charge"]', 'forbids = ["fly"]', r"conditions\.shaken\.forbids contains 'fly'"),
    ('target = "destination"', 'target = "sky"', r"actions\.move\.target = 'sky'"),
    ('applies = "aiming"', 'applies = "focused"', r"actions\.aim\.applies = 'focused'"),
    (
        'rules_keys = ["distances.move"]',
        'rules_keys = ["distances.mvoe"]',
        r"actions\.move\.rules_keys",
    ),
    ("radius = 6.0", "radius = -1.0", r"morale\.triggers\.friend_lost\.radius = -1\.0"),
    ('keyword = "terror"', 'keyword = "scary"', r"morale\.triggers\.terror_charge\.keyword"),
    ("points = 9", "points = 40", r"profiles\.hero\.points = 40"),
    ("mettle_min = 2", "mettle_min = 0", r"profiles\.mettle_min = 0"),
    ('critical_condition = "dazed"', 'critical_condition = "dizzy"', r"melee\.critical_condition"),
    ("push_distance = 3.0", "push_distance = -3.0", r"shooting\.effects\.critical\.push_distance"),
    (
        "shot_modifier = 1\n\n[weapons",
        "shot_modifier = 9\n\n[weapons",
        r"weapons\.traits\.accurate\.shot_modifier = 9",
    ),
]


@pytest.mark.parametrize(("old", "new", "pattern"), BAD_VALUES)
def test_bad_value_in_file_is_refused_naming_file_and_key(
    tmp_path: Path, old: str, new: str, pattern: str
) -> None:
    path = _write_variant(tmp_path, old, new)
    with pytest.raises(RulesDataError) as info:
        load_rules(path)
    message = str(info.value)
    assert str(path) in message
    assert re.search(pattern, message), message


def test_missing_file_and_bad_toml_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesDataError, match="not found"):
        load_rules(tmp_path / "absent.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[activation\nmax_dice = 3\n", encoding="utf-8")
    with pytest.raises(RulesDataError, match="not valid TOML"):
        load_rules(broken)


def test_valid_variant_file_loads(tmp_path: Path) -> None:
    path = _write_variant(tmp_path, 'turnover = "raw"', 'turnover = "sbh"')
    rules = load_rules(path)
    assert isinstance(rules, RulesConfig)
    assert rules.get("activation.turnover") == "sbh"
    assert rules.source == str(path)
