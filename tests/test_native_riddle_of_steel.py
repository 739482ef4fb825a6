"""The core's Riddle of Steel engine (cpp/riven/rules/systems/riddle_of_steel.cpp) agrees with the
Python one.

Seeded sweeps over pools and TNs (Stacking, Fumbles), RIVEN tests (kinds, attributes, TNs,
modifiers), profiles (attributes, Mettle, listed and unlisted weapons with traits, Pain,
modifiers) and whole Combat Rounds (random fighters with and without shields, random, illegal
and Oracle choices under every stance and profile) run on
:class:`~riven_env.rules.systems.riddle_of_steel.RiddleOfSteelResolution` with a numpy Generator
and on :class:`~riven_env.native.riddle_of_steel.NativeRiddleOfSteelResolution` with a Generator
at the same state, under several variants of the ``[riddle_of_steel]`` table: the records (test
rolls and results, pools, fighters, sessions with their effects and events, the events' keys in
order), the options, the Oracle's choices, the errors and the stream state after each call must
be identical. RIVEN's rolls that RoS keeps are compared too, and the native struct read back
must be the Python data, key for key.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from riven_env.errors import RivenError
from riven_env.native import available
from riven_env.rules import load_rules
from riven_env.rules.config import RulesConfig
from riven_env.rules.profiles import ModelProfile, Weapon
from riven_env.rules.results import Modifier
from riven_env.rules.systems import riddle_of_steel as ros
from riven_env.rules.systems.ros_data import (
    Attack,
    Defence,
    RosData,
    RosShield,
    RosWeapon,
    Stance,
    Wound,
    ros_data_for,
)
from riven_env.rules.systems.ros_dice import band_for, roll_pool

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

BASE = {"resolution": "riddle-of-steel"}
R = "riddle_of_steel."
VARIANTS: dict[str, dict[str, Any]] = {
    "bundled": {},
    # Every kind of number moved: fewer stacks and a one-1 Fumble, other offsets and bands, a
    # third exchange, dear Feints, the other counter reading, other losses, a wounding head.
    "turned": {
        f"{R}dice.max_stacks": 1,
        f"{R}dice.fumble_ones": 1,
        f"{R}dice.min_tn": 3,
        f"{R}attributes.brawn.offset": 1,
        f"{R}attributes.wits.from": "resolve",
        f"{R}proficiency.base": 9,
        f"{R}proficiency.min": 2,
        f"{R}proficiency.feint_min": 5,
        f"{R}tests.attribute_for.might": "presence",
        f"{R}tests.modifier_dice": 2,
        f"{R}tests.min_dice": 2,
        f"{R}tests.tn_for_riven_tn.8": 7,
        f"{R}tests.bands.partial": 2,
        f"{R}tests.bands.hit": 3,
        f"{R}tests.bands.critical": 5,
        f"{R}shooting.atn": 7,
        f"{R}shooting.cover_tn.soft": 2,
        f"{R}melee.exchanges": 3,
        f"{R}melee.modifier_dice": 2,
        f"{R}melee.ignore_modifier_sources": ["weapon:"],
        f"{R}melee.feint_cost": 2,
        f"{R}melee.feint_die_cost_near": 2,
        f"{R}melee.feint_die_cost_far": 3,
        f"{R}melee.counter_bonus": "attacker_dice",
        f"{R}melee.counter_fail_extra_successes": 2,
        f"{R}melee.stand_steal_cost": 1,
        f"{R}melee.duck_weave_pool_loss": 0.34,
        f"{R}melee.fumble_pool_loss": 1.0,
        f"{R}melee.knockdown_tn_per_margin": 3,
        f"{R}melee.knockdown_condition": "stunned",
        f"{R}melee.bleeding_condition": "dazed",
        f"{R}melee.attacks.thrust.bonus_dice": 2,
        f"{R}melee.attacks.swing_heavy.extra": 2,
        f"{R}melee.defences.dodge_stand.dtn": 6,
        f"{R}melee.defences.counter.cost": 1,
        f"{R}weapons.spear.dr": 3,
        f"{R}weapon_traits.heavy.dr": 2,
        f"{R}shields.heater.passive_av": 6,
        f"{R}damage.V.3.effect": "knockdown",
        f"{R}damage.default.2.wounds": 1,
        f"{R}oracle.default_stance": "guarded",
        f"{R}oracle.stance.bold.first_attack_share": 0.25,
        f"{R}oracle.stance.balanced.defence_share": 0.75,
    },
    # Few dice, many stacks: pools run dry, knockdowns and steals come often.
    "lean": {
        f"{R}dice.max_stacks": 5,
        f"{R}proficiency.base": 5,
        f"{R}melee.stand_steal_cost": 0,
        f"{R}melee.knockdown_tn_per_margin": 5,
        f"{R}melee.duck_weave_pool_loss": 1.0,
        f"{R}melee.fumble_pool_loss": 0.0,
    },
}
KINDS = ("rally", "disengage", "interact", "shot", "resist", "stabilise")
ATTRIBUTES = ("might", "agility", "wit", "resolve")
WEAPONS = (None, "sword", "sword_and_shield", "spear", "dagger", "halberd", "maul", "buckler_axe")
TRAITS = ("heavy", "shield", "reach", "light")
STANCES = (None, "", "bold", "balanced", "guarded", "reckless")
PROFILES = (None, "aggressive", "cautious", "tactical", "berserk")


def _rules(name: str) -> RulesConfig:
    return load_rules(overrides={**BASE, **VARIANTS[name]})


@pytest.fixture(params=list(VARIANTS))
def engines(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    from riven_env.native.riddle_of_steel import NativeRiddleOfSteelResolution

    rules = _rules(request.param)
    return ros.RiddleOfSteelResolution(rules), NativeRiddleOfSteelResolution(rules)


def _outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("value", function())
    except RivenError as error:
        return (type(error).__name__, str(error))


class Pair:
    """Both engines, each with a Generator at the same state."""

    def __init__(self, engines: tuple[Any, Any], seed: int) -> None:
        self.engines = engines
        self.native_value: Any = None
        self.rngs = (np.random.default_rng(seed), np.random.default_rng(seed))

    def same(self, python: Callable[..., Any], native: Callable[..., Any], *args: Any) -> Any:
        """``python(*args, rng)`` and ``native(*args, rng)``: the same outcome (value, or error
        class and message) and the same stream state after it; returns the Python outcome."""
        rng_p, rng_n = self.rngs
        expected = _outcome(lambda: python(*args, rng_p))
        got = _outcome(lambda: native(*args, rng_n))
        assert got == expected
        assert rng_n.bit_generator.state == rng_p.bit_generator.state
        self.native_value = got[1]
        return expected[1]


def _events(session: ros.MeleeSession) -> str:
    """The session's events as the log writes them (the keys' order counts)."""
    return json.dumps([[kind, fields] for kind, fields in session.new_events])


def _profile(draw: np.random.Generator) -> ModelProfile:
    fields: dict[str, Any] = {a: int(draw.integers(1, 6)) for a in ATTRIBUTES}
    fields.update(mettle=int(draw.integers(2, 7)), wounds=int(draw.integers(1, 4)))
    profile = ModelProfile.from_dict("p", fields, {}, "test")
    name = WEAPONS[int(draw.integers(0, len(WEAPONS)))]
    if name is None:
        return profile
    count = int(draw.integers(0, 3))
    traits = frozenset(TRAITS[int(k)] for k in draw.integers(0, len(TRAITS), count))
    weapon = Weapon(name=name, kind="melee", range=0.0, modifier=0, traits=traits)
    return replace(profile, melee=weapon)


def _modifiers(draw: np.random.Generator) -> tuple[Modifier, ...]:
    sources = ("charge", "outnumbered", "weapon:spear", "trait:heavy", "condition:prone")
    count = int(draw.integers(0, 4))
    return tuple(
        Modifier(sources[int(draw.integers(0, len(sources)))], int(draw.integers(-2, 3)))
        for _ in range(count)
    )


def _fighter(data: RosData, index: int, draw: np.random.Generator) -> ros.Fighter:
    return ros.make_fighter(
        index,
        f"m{index}",
        _profile(draw),
        int(draw.integers(1, 4)),
        int(draw.integers(0, 4)),
        _modifiers(draw),
        data,
    )


def test_pools_and_bands_agree(engines: tuple[Any, Any]) -> None:
    python, native = engines
    data = python.data
    draw = np.random.default_rng(5)
    stacked = 0
    for seed in range(400):
        pair = Pair(engines, seed)
        dice, tn = int(draw.integers(0, 9)), int(draw.integers(data.min_tn, 46))
        roll = pair.same(lambda d, t, rng: roll_pool(d, t, rng, data), native.roll_pool, dice, tn)
        stacked += sum(1 for faces in roll.faces if len(faces) > 1)
        assert native.band_for(roll.successes, roll.fumble) == band_for(
            roll.successes, roll.fumble, data
        )
    assert stacked > 20


def test_tests_agree(engines: tuple[Any, Any]) -> None:
    python, native = engines
    draw = np.random.default_rng(11)
    bands = set()
    for seed in range(400):
        pair = Pair(engines, seed)
        kind = KINDS[int(draw.integers(0, len(KINDS)))]
        attribute = ATTRIBUTES[int(draw.integers(0, len(ATTRIBUTES)))]
        value, tn = int(draw.integers(-1, 7)), int(draw.integers(3, 16))
        mods = _modifiers(draw)
        roll = pair.same(python.roll_test, native.roll_test, kind, attribute, value, tn, mods)
        assert native.finalise(roll) == python.finalise(roll)
        assert native.finalise(roll).event_fields() == python.finalise(roll).event_fields()
        bands.add(roll.result)
    assert bands == {"miss", "partial", "hit", "critical"}
    assert native.spend_options(None, momentum=6, strain=0, strain_max=4) == []
    assert native.choice_vocabulary() == python.choice_vocabulary() == ()
    for cover in ("none", "soft", "hard", "smoke"):
        assert _outcome(lambda c=cover: native.shot_tn(c)) == _outcome(
            lambda c=cover: python.shot_tn(c)
        )


def test_fighters_agree(engines: tuple[Any, Any]) -> None:
    python, native = engines
    draw = np.random.default_rng(13)
    shields = 0
    for _ in range(300):
        args = (
            int(draw.integers(0, 9)),
            "m",
            _profile(draw),
            int(draw.integers(0, 4)),
            int(draw.integers(0, 6)),
            _modifiers(draw),
        )
        made = native.make_fighter(*args)
        assert made == ros.make_fighter(*args, python.data)
        shields += made.shield is not None
    assert shields > 10


def test_combat_rounds_agree(engines: tuple[Any, Any]) -> None:
    """Whole rounds: every step's options, the Oracle's choice under each stance and profile,
    random legal and illegal options, the sessions and their events after each."""
    python, native = engines
    data = python.data
    draw = np.random.default_rng(17)
    seen: set[str] = set()
    for seed in range(300):
        pair = Pair(engines, seed)
        fighters = (_fighter(data, 0, draw), _fighter(data, 1, draw))
        if draw.random() < 0.4:
            fighters = (fighters[0], replace(fighters[1], shield=data.shields["heater"]))
        session = pair.same(
            lambda a, d, rng: ros.open_session(a, d, rng, data), native.open_session, *fighters
        )
        assert _events(pair.native_value) == _events(session)
        oracle = draw.random() < 0.5
        while not session.done:
            legal = ros.choice_options(session, data)
            assert native.choice_options(session) == legal
            for stance in STANCES:
                assert native.oracle_choice(session, legal, stance) == ros.oracle_choice(
                    session, legal, stance, data
                )
            for profile in PROFILES:
                assert native.oracle_session_choice(
                    session, legal, profile
                ) == python.oracle_session_choice(session, legal, profile)
            if draw.random() < 0.05:
                option = ("swing:IX", "0", "parry:2", "", "steal", "V:99")[int(draw.integers(0, 6))]
            elif oracle:
                option = ros.oracle_choice(session, legal, STANCES[seed % len(STANCES)], data)[0]
            else:
                option = legal[int(draw.integers(0, len(legal)))]
            after = pair.same(
                lambda s, o, rng: ros.apply_choice(s, o, rng, data),
                native.apply_choice,
                session,
                option,
            )
            if isinstance(after, str):  # an illegal option: the same error, nothing drawn
                continue
            assert _events(pair.native_value) == _events(after)
            session = after
            seen.update(f["outcome"] for t, f in session.new_events if t == "ros_exchange")
            seen.update(t for t, _ in session.new_events)
        assert native.choice_options(session) == [] == ros.choice_options(session, data)
    assert {"hit", "tie", "defended", "ros_round", "ros_round_end"} <= seen


def test_rivens_rolls_agree(engines: tuple[Any, Any]) -> None:
    """Activation, morale, Out checks, Complications and the shot table stay RIVEN's."""
    python, native = engines
    draw = np.random.default_rng(23)
    for seed in range(100):
        pair = Pair(engines, seed)
        mettle = int(draw.integers(1, 7))
        pair.same(python.roll_activation, native.roll_activation, mettle, int(draw.integers(1, 4)))
        pair.same(python.roll_morale, native.roll_morale, mettle)
        pair.same(python.roll_out_check, native.roll_out_check, mettle)
        pair.same(python.roll_complication, native.roll_complication)
    for band in ("miss", "partial", "hit", "critical"):
        assert native.shot_effect(band) == python.shot_effect(band)
    assert native.has_choices and native.name == python.name == "riddle-of-steel"


def test_melee_and_spends_are_refused_as_in_python(engines: tuple[Any, Any]) -> None:
    python, native = engines
    for engine in engines:
        with pytest.raises(RivenError, match="open_melee"):
            engine.resolve_melee(2, 2, (), (), np.random.default_rng(0))
        with pytest.raises(RivenError, match="no spend exists"):
            engine.apply_spend(None, "boost", None)
        with pytest.raises(RivenError, match="cannot finalise"):
            engine.finalise(object())


def test_the_core_refuses_rules_without_a_riddle_of_steel_table() -> None:
    from riven_env.native import load
    from riven_env.native.rules import native_rules

    with pytest.raises(ValueError, match=r"no \[riddle_of_steel\] table"):
        load().RiddleOfSteelSystem(native_rules(load_rules()))
    assert not native_rules(load_rules()).has_riddle_of_steel


def test_the_core_refuses_a_struct_it_cannot_play() -> None:
    from riven_env.native.rules import native_rules

    config = native_rules.__wrapped__(_rules("bundled"))  # a fresh struct, not the cached one
    config.riddle_of_steel.stack_on = 9
    with pytest.raises(ValueError, match=r"riddle_of_steel\.dice"):
        config.prepare()
    config = native_rules.__wrapped__(_rules("bundled"))
    config.riddle_of_steel.counter_bonus = "all"
    with pytest.raises(ValueError, match=r"counter_bonus = 'all'"):
        config.prepare()


def _data_of_struct(native: Any, source: str) -> RosData:
    """The native struct read back as the Python :class:`RosData` (every field)."""
    zones = tuple(z.zone for z in native.zones)
    return RosData(
        source=source,
        faces=native.faces,
        stack_on=native.stack_on,
        max_stacks=native.max_stacks,
        fumble_ones=native.fumble_ones,
        min_tn=native.min_tn,
        attributes=tuple((a.name, a.from_, a.offset) for a in native.attributes),
        proficiency_base=native.proficiency_base,
        proficiency_min=native.proficiency_min,
        feint_min=native.feint_min,
        test_attribute_for=dict(native.test_attribute_for),
        test_modifier_dice=native.test_modifier_dice,
        test_min_dice=native.test_min_dice,
        tn_for_riven_tn=tuple(tuple(p) for p in native.tn_for_riven_tn),
        bands=tuple(tuple(b) for b in native.bands),
        shot_atn=native.shot_atn,
        cover_tn=dict(native.cover_tn),
        exchanges=native.exchanges,
        modifier_dice=native.modifier_dice,
        ignore_modifier_sources=tuple(native.ignore_modifier_sources),
        feint_cost=native.feint_cost,
        feint_die_cost_near=native.feint_die_cost_near,
        feint_die_cost_far=native.feint_die_cost_far,
        counter_bonus=native.counter_bonus,
        counter_fail_extra_successes=native.counter_fail_extra_successes,
        stand_steal_cost=native.stand_steal_cost,
        duck_weave_pool_loss=native.duck_weave_pool_loss,
        fumble_pool_loss=native.fumble_pool_loss,
        knockdown_tn_per_margin=native.knockdown_tn_per_margin,
        knockdown_condition=native.knockdown_condition,
        bleeding_condition=native.bleeding_condition,
        max_wound_level=native.max_wound_level,
        attacks={a.name: Attack(a.name, a.extra, a.bonus_dice, a.damage) for a in native.attacks},
        defences={
            d.name: Defence(
                d.name, d.dtn if d.source == "number" else d.source, d.cost, d.needs_shield
            )
            for d in native.defences
        },
        zones=zones,
        zone_names={z.zone: z.name for z in native.zones},
        zone_near={z.zone: frozenset(z.near) for z in native.zones},
        weapons={w.name: RosWeapon(w.name, w.atn, w.dtn, w.dr, w.shield) for w in native.weapons},
        weapon_traits={
            t.name: {
                **({"dr": t.dr} if t.dr else {}),
                **({"shield": t.shield} if t.sets_shield else {}),
            }
            for t in native.weapon_traits
        },
        shields={
            s.name: RosShield(s.name, s.dtn, s.passive_av, frozenset(s.zones))
            for s in native.shields
        },
        damage={
            row.zone: {
                level: Wound(c.shock, c.pain, c.bl, c.wounds, c.effect, c.text)
                for level, c in enumerate(row.levels, start=1)
            }
            for row in native.damage
        },
        default_stance=native.default_stance,
        stances_by_profile=dict(native.stances_by_profile),
        stances={
            s.name: Stance(s.name, s.first_attack_share, s.defence_share) for s in native.stances
        },
    )


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_riddle_of_steel_key_reaches_the_native_struct(variant: str) -> None:
    from riven_env.native.rules import native_rules

    rules = _rules(variant)
    config = native_rules(rules)
    assert config.has_riddle_of_steel and config.system == "riddle-of-steel" and config.prepared
    expected = ros_data_for(rules)
    got = _data_of_struct(config.riddle_of_steel, expected.source)
    for field in expected.__dataclass_fields__:
        assert getattr(got, field) == getattr(expected, field), field
    assert got == expected


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_option_vocabulary_is_the_cores(variant: str) -> None:
    """The native game's ``choose`` vocabulary (riven_env/native/game.py) is the core's list,
    and it names every option a Combat Round offers in the sweeps above."""
    from riven_env.native.riddle_of_steel import MOST_DICE, option_vocabulary

    python, native = _pair(variant)
    vocabulary = option_vocabulary(python.data)
    assert list(native._system.option_vocabulary()) == vocabulary
    assert len(vocabulary) == len(set(vocabulary)) and str(MOST_DICE) in vocabulary


def _pair(variant: str) -> tuple[Any, Any]:
    from riven_env.native.riddle_of_steel import NativeRiddleOfSteelResolution

    rules = _rules(variant)
    return ros.RiddleOfSteelResolution(rules), NativeRiddleOfSteelResolution(rules)
