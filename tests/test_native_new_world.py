"""The core's New World engine (cpp/riven/rules/systems/new_world.cpp) agrees with the Python one.

Seeded sweeps over attributes, keywords (rank and Luck), TNs, modifiers, roll facts (a profile or
none, a shot's target and cover, helpers at hand, Luck held) and several variants of the
``[new_world]`` table: every roll, allocation, Luck spend, hand-over to the defender, Oracle
choice and close runs on :class:`~riven_env.rules.systems.new_world.NewWorldResolution` with a
numpy Generator and on :class:`~riven_env.native.new_world.NativeNewWorldResolution` with a
Generator at the same state; the records (pending roll, result with its aftermath and detail),
the errors and the stream state after each call must be identical. RIVEN's rolls that New
World keeps (activation, morale, Out checks, the Complication Oracle, the shot table) are
compared too, and every ``[new_world]`` key is found in the native struct.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from riven_env.errors import RivenError
from riven_env.native import available
from riven_env.rules import load_rules
from riven_env.rules.config import RulesConfig
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import ChoiceView, Combatant, RollContext
from riven_env.rules.results import Modifier
from riven_env.rules.systems.new_world import NewWorldResolution, melee_outcome, settings_for

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

BASE = {"resolution": "new-world"}
VARIANTS: dict[str, dict[str, Any]] = {
    "bundled": {},
    # Every number moved, every switch flipped: no snake-eyes rule, a Partial band, a striking
    # defender, other characteristics, cover that helps, a lower roll limit.
    "turned": {
        "new_world.roll.snake_eyes_fails": False,
        "new_world.roll.roll_limit": 6,
        "new_world.characteristic.offset": 0,
        "new_world.rank.default": 0,
        "new_world.rank.leader": 1,
        "new_world.rank.hero": 3,
        "new_world.rank.elite": 1,
        "new_world.rank.minion": 2,
        "new_world.difficulty.offset": 1,
        "new_world.difficulty.critical_margin": 3,
        "new_world.difficulty.partial_within": 2,
        "new_world.passive.base": 6,
        "new_world.passive.shot_characteristic": "wit",
        "new_world.passive.cover_modifier.none": 1,
        "new_world.passive.cover_modifier.soft": 0,
        "new_world.passive.cover_modifier.hard": -3,
        "new_world.melee.characteristic": "agility",
        "new_world.melee.wound_margin": 2,
        "new_world.melee.critical_margin": 4,
        "new_world.melee.defender_strikes_back": True,
    },
    # Helpers everywhere and dear, plenty of Luck, an Oracle that helps and spends more.
    "helping": {
        "new_world.helpers.max": 1,
        "new_world.helpers.bonus_each": 2,
        "new_world.helpers.kinds": ["rally", "interact", "disengage", "shot", "stabilise"],
        "new_world.helpers.shared_risk_margin": 2,
        "new_world.helpers.shared_risk_strain": 2,
        "new_world.luck.default": 3,
        "new_world.luck.hero": 5,
        "new_world.luck.leader": 0,
        "new_world.luck.per_point": 2,
        "new_world.oracle.helpers_unless_sure": 20,
        "new_world.oracle.luck_max_per_roll": 4,
        "new_world.melee.defender_strikes_back": True,
    },
    "no-help": {
        "new_world.helpers.bonus_each": 0,
        "new_world.helpers.shared_risk_strain": 0,
        "new_world.luck.default": 0,
        "new_world.oracle.luck_max_per_roll": 0,
    },
}
KINDS = ("rally", "disengage", "interact", "shot", "resist", "stabilise")
ATTRIBUTES = ("might", "agility", "wit", "resolve")
KEYWORDS = ("leader", "hero", "elite", "minion", "beast", "ranged")
COVERS = (None, "none", "soft", "hard")


def _rules(name: str) -> RulesConfig:
    return load_rules(overrides={**BASE, **VARIANTS[name]})


@pytest.fixture(params=list(VARIANTS))
def engines(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    from riven_env.native.new_world import NativeNewWorldResolution

    rules = _rules(request.param)
    return NewWorldResolution(rules), NativeNewWorldResolution(rules)


def _outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("value", function())
    except RivenError as error:
        return (type(error).__name__, str(error))


class Pair:
    """Both engines, each with a Generator at the same state."""

    def __init__(self, engines: tuple[Any, Any], seed: int) -> None:
        self.engines = engines
        self.rngs = (np.random.default_rng(seed), np.random.default_rng(seed))

    def same(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """``engine.method(*args, rng, **kwargs)`` on both: the same outcome (value, or error
        class and message) and the same stream state after it; returns the Python outcome."""
        (python, native), (rng_p, rng_n) = self.engines, self.rngs
        expected = _outcome(lambda: getattr(python, method)(*args, rng_p, **kwargs))
        got = _outcome(lambda: getattr(native, method)(*args, rng_n, **kwargs))
        assert got == expected
        assert rng_n.bit_generator.state == rng_p.bit_generator.state
        return expected[1]


def _profile(draw: np.random.Generator) -> ModelProfile:
    fields: dict[str, Any] = {a: int(draw.integers(1, 6)) for a in ATTRIBUTES}
    count = int(draw.integers(0, 3))
    fields.update(
        mettle=int(draw.integers(2, 7)),
        wounds=int(draw.integers(1, 4)),
        keywords=sorted({KEYWORDS[int(k)] for k in draw.integers(0, len(KEYWORDS), count)}),
    )
    return ModelProfile.from_dict("p", fields, {}, "test")


def _modifiers(draw: np.random.Generator) -> tuple[Modifier, ...]:
    count = int(draw.integers(0, 4))
    return tuple(Modifier(f"m{k}", int(draw.integers(-3, 4))) for k in range(count))


def _context(draw: np.random.Generator, *, opponent: bool) -> RollContext:
    helpers = int(draw.integers(0, 4))
    resources = {} if draw.random() < 0.15 else {"luck": int(draw.integers(0, 5))}
    return RollContext(
        engaged=bool(draw.random() < 0.3),
        opponent=_profile(draw) if opponent else None,
        cover=COVERS[int(draw.integers(0, len(COVERS)))],
        helpers=helpers,
        helper_models=tuple(int(k) for k in draw.permutation(8)[:helpers]),
        profile=None if draw.random() < 0.15 else _profile(draw),
        resources=resources,
    )


def _play_out(roll_p: Any, draw: np.random.Generator, pair: Pair) -> int:
    """Random choices (some illegal) on both engines, accepting (and handing over) until the
    roll closes; the Oracle's view at each step. Returns how many choices were applied."""
    python, native = pair.engines
    roll_n = roll_p
    applied = 0
    view = ChoiceView(model="m0", resources={})
    while True:
        assert roll_n == roll_p
        assert (roll_n.result, roll_n.total, roll_n.margin) == (
            roll_p.result,
            roll_p.total,
            roll_p.margin,
        )
        options = python.spend_options(roll_p, momentum=0, strain=0, strain_max=0)
        assert native.spend_options(roll_n, momentum=0, strain=0, strain_max=0) == options
        assert native.oracle_choice(roll_n, options, view) == python.oracle_choice(
            roll_p, options, view
        )
        if not options or (roll_p.rolled and draw.random() < 0.3):
            handed_p, handed_n = python.accept(roll_p), native.accept(roll_n)
            assert handed_n == handed_p
            if handed_p is None:
                break
            roll_p, roll_n = handed_p, handed_n
            continue
        if draw.random() < 0.1:
            bad = ("help:9", "luck:0", "boost", "help:", f"help:{int(draw.integers(0, 3))}")
            option = bad[int(draw.integers(0, len(bad)))]
        else:
            option = options[int(draw.integers(0, len(options)))]
        got_p = pair.same("apply_spend", roll_p, option)
        if isinstance(got_p, str):  # an illegal option: the same error, the roll unchanged
            continue
        # The native roll goes on from the native engine's own record (the same, checked above).
        roll_p, roll_n = got_p, got_p
        applied += 1
    result_p, result_n = python.finalise(roll_p), native.finalise(roll_n)
    assert result_n == result_p
    assert result_n.aftermath == result_p.aftermath
    assert list(result_n.detail.items()) == list(result_p.detail.items())  # the order too
    return applied


def test_setup_and_vocabulary_agree(engines: tuple[Any, Any]) -> None:
    python, native = engines
    draw = np.random.default_rng(3)
    for _ in range(50):
        profile = _profile(draw)
        assert native.starting_resources(profile) == python.starting_resources(profile)
        assert native.starting_wounds(profile) == python.starting_wounds(profile)
    assert native.choice_vocabulary() == python.choice_vocabulary()


def test_tests_allocations_and_luck_agree(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(11)
    applied = 0
    for seed in range(500):
        pair = Pair(engines, seed)
        kind = KINDS[int(draw.integers(0, len(KINDS)))]
        attribute = ATTRIBUTES[int(draw.integers(0, len(ATTRIBUTES)))]
        value = int(draw.integers(0, 7))
        tn = int(draw.integers(4, 15))
        mods = _modifiers(draw)
        context = None if draw.random() < 0.1 else _context(draw, opponent=draw.random() < 0.6)
        roll = pair.same("roll_test", kind, attribute, value, tn, mods, context=context)
        applied += _play_out(roll, draw, pair)
    assert applied > 50  # "no-help" has Luck only where the context holds some


def test_melee_agrees(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(17)
    outcomes = set()
    for seed in range(500):
        pair = Pair(engines, seed)
        sides = [
            Combatant(
                _profile(draw),
                _modifiers(draw),
                _context(draw, opponent=False),
                {} if draw.random() < 0.1 else {"luck": int(draw.integers(0, 5))},
            )
            for _ in range(2)
        ]
        roll = pair.same("start_melee", *sides)
        _play_out(roll, draw, pair)
        outcomes.add(engines[0].finalise(roll).outcome)
    assert len(outcomes) >= 3


def test_the_opposed_reading_agrees_on_every_pair_of_rolls(engines: tuple[Any, Any]) -> None:
    """melee_outcome and band_of over every pair of 2d6 and a spread of totals."""
    from riven_env.native import load
    from riven_env.native.rules import native_rules
    from riven_env.rules.systems.new_world import band_of

    python, _ = engines
    s, config, core = settings_for(python.rules), native_rules(python.rules), load()
    faces = list(itertools.product(range(1, 7), repeat=2))
    for a, d in itertools.product(faces, faces):
        for a_extra, d_extra in ((0, 0), (3, 0), (0, 4), (9, 2)):
            a_total, d_total = sum(a) + a_extra, sum(d) + d_extra
            expected = melee_outcome(a, a_total, d, d_total, s)
            assert core.new_world_melee_outcome(list(a), a_total, list(d), d_total, config) == (
                expected
            )
    for dice, total, difficulty in itertools.product(faces, range(0, 20, 3), range(5, 17)):
        assert core.new_world_band_of(list(dice), total, difficulty, config) == band_of(
            dice, total, difficulty, s
        )


def test_rivens_rolls_agree(engines: tuple[Any, Any]) -> None:
    """Activation, morale, Out checks, Complications and shot TNs stay RIVEN's under New World."""
    python, native = engines
    draw = np.random.default_rng(23)
    for seed in range(200):
        pair = Pair(engines, seed)
        mettle = int(draw.integers(1, 7))
        pair.same("roll_activation", mettle, int(draw.integers(1, 4)))
        pair.same("roll_morale", mettle)
        pair.same("roll_out_check", mettle)
        pair.same("roll_complication")
    for cover in ("none", "soft", "hard"):
        assert native.shot_tn(cover) == python.shot_tn(cover)
    for band in ("miss", "partial", "hit", "critical"):
        assert native.shot_effect(band) == python.shot_effect(band)


def test_the_core_refuses_rules_without_a_new_world_table() -> None:
    from riven_env.native import load
    from riven_env.native.rules import native_rules

    with pytest.raises(ValueError, match=r"no \[new_world\] table"):
        load().NewWorldSystem(native_rules(load_rules()))


def test_the_core_refuses_a_characteristic_it_does_not_know() -> None:
    from riven_env.native.rules import native_rules

    config = native_rules.__wrapped__(_rules("bundled"))  # a fresh struct, not the cached one
    config.new_world.shot_characteristic = "mettle"
    with pytest.raises(
        ValueError, match=r"characteristic 'mettle'.*might, agility, wit or resolve"
    ):
        config.prepare()


_RENAMED = {
    "characteristic.offset": "characteristic_offset",
    "rank.default": "rank_default",
    "difficulty.offset": "difficulty_offset",
    "passive.base": "passive_base",
    "melee.characteristic": "melee_characteristic",
    "melee.critical_margin": "melee_critical_margin",
    "helpers.max": "helpers_max",
    "helpers.bonus_each": "helper_bonus",
    "helpers.kinds": "helper_kinds",
    "luck.default": "luck_default",
    "luck.per_point": "luck_per_point",
    "oracle.helpers_unless_sure": "oracle_sure",
    "oracle.luck_max_per_roll": "oracle_luck_max",
}


def _native_new_world_value(native: Any, key: str) -> Any:
    """The native struct's value for ``new_world.KEY``."""
    if key in _RENAMED:
        return getattr(native, _RENAMED[key])
    table, _, name = key.partition(".")
    if table == "rank":
        return dict(native.rank_by_keyword)[name]
    if table == "luck":
        return dict(native.luck_by_keyword)[name]
    if name.startswith("cover_modifier."):
        return dict(native.cover_modifier)[name.split(".")[1]]
    return getattr(native, name)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_new_world_key_reaches_the_native_struct(variant: str) -> None:
    from riven_env.native.rules import native_rules
    from riven_env.rules.config import leaf_keys

    rules = _rules(variant)
    config = native_rules(rules)
    assert config.has_new_world and config.system == "new-world" and config.prepared
    keys = [k for k in leaf_keys(rules.raw) if k.startswith("new_world.")]
    for dotted in keys:
        expected = rules.get(dotted)
        got = _native_new_world_value(config.new_world, dotted[len("new_world.") :])
        assert (list(got) if isinstance(expected, list) else got) == expected, dotted
    assert len(keys) == 32  # every key of new-world.toml
    assert not native_rules(load_rules()).has_new_world
