"""The core's Riddle of Steel engine (cpp/riven/rules/systems/riddle_of_steel.cpp) agrees with the
Python one.

Seeded sweeps over pools and TNs (Stacking, Fumbles), RIVEN tests (kinds, attributes, TNs,
modifiers), profiles (attributes, Mettle, listed and unlisted weapons with traits, Pain,
modifiers) and whole Combat Rounds (random fighters with and without shields, random, illegal
and Oracle choices under every stance and profile) run on
:class:`~riven_env.rules.systems.riddle_of_steel.RiddleOfSteelResolution` with a numpy Generator
and on :class:`~riven_env.native.riddle_of_steel.NativeRiddleOfSteelResolution` with a Generator
at the same state, under the variants of the ``[riddle_of_steel]`` table
(tests/native_systems.py): the records (test rolls and results, pools, fighters, sessions with
their effects and events, the events' keys in order), the options, the Oracle's choices, the
errors and the stream state after each call must be identical. What every ported system shares (RIVEN's rolls kept, the table refused
when missing, every key carried) is tests/test_native_systems.py's.
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
from riven_env.rules.profiles import ModelProfile, Weapon
from riven_env.rules.results import Modifier
from riven_env.rules.systems import riddle_of_steel as ros
from riven_env.rules.systems.ros_data import RosData
from riven_env.rules.systems.ros_dice import band_for, roll_pool

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_systems import ATTRIBUTES, KINDS, SYSTEMS, Pair, engines_fixture, outcome  # noqa: E402

SYSTEM = SYSTEMS["riddle-of-steel"]
engines = engines_fixture(SYSTEM)

WEAPONS = (None, "sword", "sword_and_shield", "spear", "dagger", "halberd", "maul", "buckler_axe")
TRAITS = ("heavy", "shield", "reach", "light")
STANCES = (None, "", "bold", "balanced", "guarded", "reckless")
PROFILES = (None, "aggressive", "cautious", "tactical", "berserk")


class RosPair(Pair):
    """Both engines, each with a Generator at the same state; calls that are a function of the
    Python module on one side and a method of the core's engine on the other."""

    native_value: Any = None

    def same_call(self, python: Callable[..., Any], native: Callable[..., Any], *args: Any) -> Any:
        """``python(*args, rng)`` and ``native(*args, rng)``: the same outcome (value, or error
        class and message) and the same stream state after it; returns the Python outcome and
        keeps the core's in :attr:`native_value`."""
        rng_p, rng_n = self.rngs
        expected = outcome(lambda: python(*args, rng_p))
        got = outcome(lambda: native(*args, rng_n))
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
        pair = RosPair(engines, seed)
        dice, tn = int(draw.integers(0, 9)), int(draw.integers(data.min_tn, 46))
        roll = pair.same_call(
            lambda d, t, rng: roll_pool(d, t, rng, data), native.roll_pool, dice, tn
        )
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
        pair = RosPair(engines, seed)
        kind = KINDS[int(draw.integers(0, len(KINDS)))]
        attribute = ATTRIBUTES[int(draw.integers(0, len(ATTRIBUTES)))]
        value, tn = int(draw.integers(-1, 7)), int(draw.integers(3, 16))
        mods = _modifiers(draw)
        roll = pair.same_call(python.roll_test, native.roll_test, kind, attribute, value, tn, mods)
        assert native.finalise(roll) == python.finalise(roll)
        assert native.finalise(roll).event_fields() == python.finalise(roll).event_fields()
        bands.add(roll.result)
    assert bands == {"miss", "partial", "hit", "critical"}
    assert native.spend_options(None, momentum=6, strain=0, strain_max=4) == []
    assert native.choice_vocabulary() == python.choice_vocabulary() == ()
    for cover in ("none", "soft", "hard", "smoke"):
        assert outcome(lambda c=cover: native.shot_tn(c)) == outcome(
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
        pair = RosPair(engines, seed)
        fighters = (_fighter(data, 0, draw), _fighter(data, 1, draw))
        if draw.random() < 0.4:
            fighters = (fighters[0], replace(fighters[1], shield=data.shields["heater"]))
        session = pair.same_call(
            lambda a, d, rng: ros.open_session(a, d, rng, data), native.open_session, *fighters
        )
        assert _events(pair.native_value) == _events(session)
        oracle = draw.random() < 0.5
        while not session.done:
            legal = ros.choice_options(session, data)
            assert native.choice_options(session) == legal
            for stance in STANCES:
                assert native.stance_choice(session, legal, stance) == ros.oracle_choice(
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
            after = pair.same_call(
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


def test_melee_and_spends_are_refused_as_in_python(engines: tuple[Any, Any]) -> None:
    python, native = engines
    for engine in engines:
        with pytest.raises(RivenError, match="open_melee"):
            engine.resolve_melee(2, 2, (), (), np.random.default_rng(0))
        with pytest.raises(RivenError, match="no spend exists"):
            engine.apply_spend(None, "boost", None)
        with pytest.raises(RivenError, match="cannot finalise"):
            engine.finalise(object())


def test_the_core_refuses_a_struct_it_cannot_play() -> None:
    from riven_env.native.rules import native_rules

    config = native_rules.__wrapped__(SYSTEM.rules("bundled"))  # a fresh struct, not the cached one
    config.riddle_of_steel.stack_on = 9
    with pytest.raises(ValueError, match=r"riddle_of_steel\.dice"):
        config.prepare()
    config = native_rules.__wrapped__(SYSTEM.rules("bundled"))
    config.riddle_of_steel.counter_bonus = "all"
    with pytest.raises(ValueError, match=r"counter_bonus = 'all'"):
        config.prepare()


@pytest.mark.parametrize("variant", list(SYSTEM.variants))
def test_the_option_vocabulary_is_the_cores(variant: str) -> None:
    """The native game's ``choose`` vocabulary (riven_env/native/game.py) is the core's list,
    and it names every option a Combat Round offers in the sweeps above."""
    from riven_env.native.riddle_of_steel import MOST_DICE, option_vocabulary

    python, native = SYSTEM.engines(variant)
    vocabulary = option_vocabulary(python.data)
    assert list(native._system.option_vocabulary()) == vocabulary
    assert len(vocabulary) == len(set(vocabulary)) and str(MOST_DICE) in vocabulary
