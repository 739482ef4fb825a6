"""The Oracle's profile data: the bundled file, the vocabulary and validation of bad files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from riven_agents.oracle import OracleDataError, load_profiles, profile_names
from riven_agents.oracle import vocabulary as vocab
from riven_agents.oracle.profiles import DATA_FILE
from riven_agents.oracle.situation import ORDER_FUNCTIONS, PREDICATES, SELECTOR_KEYS

from riven_env.errors import RivenError
from riven_env.scenario import oracle_profile_names
from riven_env.table import DESTINATION_KINDS

REQUIRED = {"aggressive", "cautious", "tactical", "defensive", "beast", "rampage", "guardian"}

MINIMAL = """
[profiles.test]
description = "A test profile."
activation_order = ["engaged"]
dice = [{ when = ["always"], dice = 2 }]
targets = { default = "nearest" }
spend = [{ id = "reroll_miss", option = "reroll", on = ["miss"], min_momentum = 1 }]

[[profiles.test.priorities]]
id = "fight"
when = ["engaged"]
do = "melee"

[profiles.test.fallback_d6]
1 = "focus"
2 = "focus"
3 = "move:toward_enemy"
4 = "move:toward_enemy"
5 = "take_cover"
6 = "end"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "profiles.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_profiles_load_and_include_the_required_seven() -> None:
    data = load_profiles()
    assert set(data.profiles) >= REQUIRED
    assert data.default_profile in data.profiles
    assert profile_names() == list(data.profiles)


def test_scenario_validator_reads_the_same_names() -> None:
    assert set(oracle_profile_names()) == set(profile_names())


def test_every_vocabulary_name_is_implemented() -> None:
    assert set(PREDICATES) == set(vocab.CONDITIONS)
    assert set(SELECTOR_KEYS) == set(vocab.SELECTORS)
    assert set(ORDER_FUNCTIONS) == set(vocab.ORDER_KEYS)
    assert set(vocab.DESTINATION_TEXT) == set(DESTINATION_KINDS)


def test_profiles_are_distinct() -> None:
    data = load_profiles()
    signatures = {
        name: tuple((r.id, str(r.action), r.when) for r in p.priorities)
        for name, p in data.profiles.items()
    }
    assert len(set(signatures.values())) == len(signatures)


def test_minimal_file_loads(tmp_path: Path) -> None:
    data = load_profiles(write(tmp_path, MINIMAL))
    profile = data.profiles["test"]
    assert profile.title == "Test"
    assert [e.roll for e in profile.fallback] == [1, 2, 3, 4, 5, 6]
    assert "fight" in profile.rule_ids() and "d6:6" in profile.rule_ids()


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            'when = ["engaged"]',
            'when = ["engagd"]',
            r"profiles\.test\.priorities\[0\] \(rule 'fight'\).*unknown condition 'engagd'; allowed: .*engaged",
        ),
        (
            'do = "melee"',
            'do = "dance"',
            r"rule 'fight'.*unknown action 'dance'; allowed: .*move:toward_enemy",
        ),
        (
            'do = "melee"',
            'do = "melee"\ntarget = "tastiest"',
            r"rule 'fight'.*unknown target selector 'tastiest'; allowed: nearest",
        ),
        (
            'do = "melee"',
            'do = "focus"\ntarget = "nearest"',
            r"rule 'fight'.*action 'focus' takes no target",
        ),
        (
            'when = ["engaged"]',
            'when = ["has_condition:sleepy"]',
            r"unknown condition 'sleepy'; allowed: .*shaken",
        ),
        (
            'when = ["engaged"]',
            'when = ["enemies_closer_than:far"]',
            r"argument 'far' is not a number",
        ),
        ('when = ["engaged"]', 'when = ["engaged:3"]', r"takes no argument"),
        ('6 = "end"', "", r"fallback_d6: the d6 table needs exactly the faces 1, 2, 3, 4, 5, 6"),
        (
            'dice = [{ when = ["always"], dice = 2 }]',
            'dice = [{ when = ["engaged"], dice = 2 }]',
            r"last dice rule must have when",
        ),
        (
            'dice = [{ when = ["always"], dice = 2 }]',
            'dice = [{ when = ["always"], dice = 7 }]',
            r"7 is not a number of dice 1\.\.3",
        ),
        (
            'dice = [{ when = ["always"], dice = 2 }]',
            'dice = [{ when = ["always"], policy = "yolo" }]',
            r"unknown dice policy 'yolo'",
        ),
        (
            'activation_order = ["engaged"]',
            'activation_order = ["tallest"]',
            r"activation_order: unknown name 'tallest'",
        ),
        (
            'option = "reroll"',
            'option = "pray"',
            r"spend\[0\] \(rule 'reroll_miss'\)\.option: unknown spend option 'pray'",
        ),
        (
            'targets = { default = "nearest" }',
            'targets = { focus = "nearest" }',
            r"'default' entry",
        ),
        (
            'description = "A test profile."',
            'description = "A test profile."\ncolour = "red"',
            r"unknown key\(s\) colour",
        ),
        ('id = "fight"', 'id = "Fight Now"', r"rule id 'Fight Now' must match"),
    ],
)
def test_bad_entries_are_refused_with_a_precise_message(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    assert old in MINIMAL
    path = write(tmp_path, MINIMAL.replace(old, new, 1))
    with pytest.raises(OracleDataError) as info:
        load_profiles(path)
    message = str(info.value)
    assert str(path) in message
    assert re.search(expected, message), message
    assert isinstance(info.value, RivenError)


def test_duplicate_rule_ids_are_refused(tmp_path: Path) -> None:
    text = MINIMAL.replace(
        "[profiles.test.fallback_d6]",
        '[[profiles.test.priorities]]\nid = "fight"\ndo = "focus"\n\n[profiles.test.fallback_d6]',
    )
    with pytest.raises(OracleDataError, match="duplicate rule id 'fight'"):
        load_profiles(write(tmp_path, text))


def test_missing_and_broken_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OracleDataError, match="cannot read"):
        load_profiles(tmp_path / "absent.toml")
    with pytest.raises(OracleDataError, match="not valid TOML"):
        load_profiles(write(tmp_path, "[profiles.x\n"))
    with pytest.raises(OracleDataError, match="default_profile: 'nobody' is not a profile"):
        load_profiles(write(tmp_path, 'default_profile = "nobody"\n' + MINIMAL))


def test_bundled_file_is_the_package_data_file() -> None:
    assert DATA_FILE.is_file()
    assert load_profiles().source == str(DATA_FILE)
