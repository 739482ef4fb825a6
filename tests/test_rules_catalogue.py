"""Data catalogues: Conditions, actions, profiles and heroes, Momentum, morale triggers, the seam."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from riven_env.errors import ProfileError, RulesDataError
from riven_env.rules import (
    ActivationResult,
    ModelProfile,
    ResolutionSystem,
    RivenResolution,
    Weapon,
    action_spec,
    action_specs,
    add_momentum,
    can_afford,
    check_hero,
    condition_limits,
    condition_modifiers,
    condition_specs,
    conditions_expiring,
    conditions_removed_by,
    enabled_morale_triggers,
    excluded_by,
    get_resolution,
    load_rules,
    momentum_cost,
    momentum_gain,
    momentum_pool_owner,
    morale_triggers,
    strain_max,
)

RULES = load_rules()
WEAPONS = {
    "sword": Weapon("sword", "melee", 0.0, 0, frozenset()),
    "bow": Weapon.from_dict(
        "bow", {"kind": "ranged", "range": 18, "traits": ["accurate"]}, "w.bow"
    ),
}
HERO = {
    "might": 3,
    "agility": 2,
    "wit": 2,
    "resolve": 2,
    "mettle": 3,
    "wounds": 3,
    "melee": "sword",
    "keywords": ["hero", "leader"],
}


# ---------------------------------------------------------------- Conditions


def test_required_conditions_exist_with_a_way_out() -> None:
    specs = condition_specs(RULES)
    for name in ("dazed", "shaken", "exhausted", "prone", "pinned", "bleeding", "exposed"):
        spec = specs[name]
        assert spec.expires != "never" or spec.removed_by, f"{name} can never end"


def test_condition_modifiers_by_kind() -> None:
    held = ("shaken", "dazed", "prone")
    melee = condition_modifiers(held, "melee", RULES)
    assert [m.source for m in melee] == ["condition:dazed", "condition:prone", "condition:shaken"]
    assert sum(m.value for m in melee) == -4
    assert [m.value for m in condition_modifiers(held, "test", RULES)] == [-1]
    with pytest.raises(RulesDataError, match="kind 'magic'"):
        condition_modifiers(held, "magic", RULES)
    with pytest.raises(RulesDataError, match="unknown Condition 'cursed'"):
        condition_modifiers(("cursed",), "melee", RULES)


def test_condition_limits_combine() -> None:
    limits = condition_limits(("dazed", "exhausted", "pinned", "prone", "bleeding"), RULES)
    assert limits.max_actions == 1 and limits.max_dice == 2
    assert limits.move_penalty == 3.0
    assert limits.forbids == {"move", "charge"}
    assert limits.cover_steps == 1 and not limits.ignores_cover
    assert limits.end_of_turn_wound_check
    none = condition_limits((), RULES)
    assert none.max_actions is None and none.max_dice is None and none.forbids == frozenset()


def test_condition_removal_and_expiry() -> None:
    held = ("shaken", "pinned", "exhausted", "exposed", "aiming")
    assert conditions_removed_by("rally", held, RULES) == ["pinned", "shaken"]
    assert conditions_removed_by("rest", held, RULES) == ["exhausted"]
    assert conditions_expiring("end_of_next_activation", held, RULES) == ["exposed", "pinned"]
    assert conditions_expiring("end_of_activation", held, RULES) == ["aiming"]


# ---------------------------------------------------------------- actions


def test_action_catalogue() -> None:
    specs = action_specs(RULES)
    expected = {
        "move", "charge", "melee", "shoot", "aim", "disengage", "focus",
        "rest", "stabilise", "rally", "interact", "take_cover", "end",
    }  # fmt: skip
    assert set(specs) == expected
    assert action_spec("rally", RULES).attribute == "resolve"
    assert action_spec("interact", RULES).attribute == "wit"
    assert action_spec("disengage", RULES).difficulty == "standard"
    assert action_spec("stabilise", RULES).range == "stabilise_range"
    assert action_spec("aim", RULES).applies == "aiming"
    assert action_spec("end", RULES).cost == 0
    with pytest.raises(RulesDataError, match="unknown action 'fly'"):
        action_spec("fly", RULES)


def test_rest_excludes_moving_and_attacking_both_ways_and_focus_repeats() -> None:
    assert {"move", "charge", "melee", "shoot"} <= excluded_by(["rest"], RULES)
    assert "rest" in excluded_by(["move"], RULES)
    # RAW: an action may be taken again; once_per_activation is a House lever.
    assert "focus" not in excluded_by(["focus"], RULES)
    capped = load_rules(overrides={"actions.focus.once_per_activation": True})
    assert "focus" in excluded_by(["focus"], capped)
    assert excluded_by(["aim"], RULES) == frozenset()


# ---------------------------------------------------------------- profiles and heroes


def test_profile_parsing_defaults_and_strain_track() -> None:
    profile = ModelProfile.from_dict("Ysolde", HERO, WEAPONS, "profiles.toml: ysolde", RULES)
    assert profile.move == 5.0 and profile.base_diameter == 1.0
    assert profile.melee == WEAPONS["sword"] and profile.ranged is None
    assert profile.strain_max(RULES) == 4 == strain_max(2, RULES)
    assert profile.attribute("resolve") == 2
    unarmed = ModelProfile.from_dict(
        "brute", {k: v for k, v in HERO.items() if k != "melee"}, WEAPONS, "p.brute", RULES
    )
    assert unarmed.melee is not None and unarmed.melee.name == "unarmed"


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ({"might": 6}, r"p\.x\.might = 6: expected an integer in 1\.\.5"),
        ({"mettle": 1}, r"p\.x\.mettle = 1"),
        ({"wounds": 0}, r"p\.x\.wounds = 0"),
        ({"melee": "axe"}, r"p\.x\.melee = 'axe': unknown weapon"),
        ({"melee": "bow"}, r"p\.x\.melee = 'bow': that weapon is ranged"),
        ({"keywords": ["dragon"]}, r"p\.x\.keywords contains 'dragon'"),
        ({"speed": 3}, r"p\.x\.speed is not a known field"),
    ],
)
def test_bad_profile_values_are_refused_naming_the_key(change: dict, pattern: str) -> None:
    with pytest.raises(ProfileError, match=pattern):
        ModelProfile.from_dict("x", {**HERO, **change}, WEAPONS, "p.x", RULES)


def test_bad_weapon_is_refused() -> None:
    with pytest.raises(ProfileError, match=r"w\.gun\.kind = 'laser'"):
        Weapon.from_dict("gun", {"kind": "laser", "range": 12}, "w.gun")
    with pytest.raises(
        ProfileError, match=r"w\.gun\.range = 0\.0: a ranged weapon needs range > 0"
    ):
        Weapon.from_dict("gun", {"kind": "ranged", "range": 0}, "w.gun")
    odd = {"club": Weapon("club", "melee", 0.0, 0, frozenset({"glowing"}))}
    with pytest.raises(ProfileError, match="glowing"):
        ModelProfile.from_dict("x", {**HERO, "melee": "club"}, odd, "p.x", RULES)


def test_hero_creation_rules() -> None:
    check_hero(ModelProfile.from_dict("ok", HERO, WEAPONS, "p", RULES), RULES)
    ten = ModelProfile.from_dict("ten", {**HERO, "resolve": 3}, WEAPONS, "p", RULES)
    with pytest.raises(ProfileError, match="add up to 10.*exactly 9"):
        check_hero(ten, RULES)
    five = ModelProfile.from_dict(
        "five", {**HERO, "might": 5, "agility": 1, "wit": 1, "resolve": 2}, WEAPONS, "p", RULES
    )
    with pytest.raises(ProfileError, match="might = 5: no attribute may be above 4"):
        check_hero(five, RULES)


# ---------------------------------------------------------------- Momentum, morale triggers


def test_momentum_sources_costs_and_cap() -> None:
    assert [momentum_gain(s, RULES) for s in ("critical", "objective", "focus")] == [1, 1, 1]
    assert momentum_cost("reroll", RULES) == 1 and momentum_cost("bonus_action", RULES) == 2
    assert add_momentum(5, 3, RULES) == 6 and add_momentum(1, -3, RULES) == 0
    assert can_afford(2, "boost", RULES) and not can_afford(1, "boost", RULES)
    assert momentum_pool_owner(False, RULES) == "side"
    assert momentum_pool_owner(True, RULES) == "model"
    with pytest.raises(RulesDataError, match="unknown Momentum spend 'bribe'"):
        momentum_cost("bribe", RULES)


def test_morale_triggers_are_data_with_switches() -> None:
    triggers = morale_triggers(RULES)
    assert list(triggers) == [
        "friend_lost",
        "leader_out",
        "half_strength",
        "recoiled",
        "terror_charge",
    ]
    assert triggers["friend_lost"].params == {"radius": 6.0}
    assert triggers["terror_charge"].params == {"keyword": "terror"}
    quiet = load_rules(overrides={"morale.triggers.recoiled.enabled": "false"})
    assert "recoiled" not in [t.name for t in enabled_morale_triggers(quiet)]


# ---------------------------------------------------------------- resolution seam, purity


def test_riven_resolution_implements_the_protocol() -> None:
    system = get_resolution("riven", RULES)
    assert isinstance(system, RivenResolution) and isinstance(system, ResolutionSystem)
    rng = np.random.default_rng(3)
    assert isinstance(system.roll_activation(4, 2, rng), ActivationResult)
    roll = system.roll_test("shot", "agility", 3, system.shot_tn("soft"), [], rng)
    result = system.finalise(roll)
    assert system.shot_effect(result.result).wounds in (0, 1)
    with pytest.raises(RulesDataError, match="unknown resolution system 'dragon-dice'.*riven"):
        get_resolution("dragon-dice", RULES)


def test_rules_package_imports_no_heavy_frameworks() -> None:
    code = (
        "import sys, riven_env.rules; "
        "bad = [m for m in ('gymnasium', 'pettingzoo', 'torch', 'matplotlib') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
