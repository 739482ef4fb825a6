"""The core's New World engine (cpp/riven/rules/systems/new_world.cpp) agrees with the Python one.

Seeded sweeps over attributes, keywords (rank and Luck), TNs, modifiers, roll facts (a profile or
none, a shot's target and cover, helpers at hand, Luck held) and several variants of the
``[new_world]`` table: every roll, allocation, Luck spend, hand-over to the defender, Oracle
choice and close runs on :class:`~riven_env.rules.systems.new_world.NewWorldResolution` with a
numpy Generator and on :class:`~riven_env.native.new_world.NativeNewWorldResolution` with a
Generator at the same state; the records (pending roll, result with its aftermath and detail),
the errors and the stream state after each call must be identical. RIVEN's rolls that New
World keeps (activation, morale, Out checks, the Complication Oracle, the shot table) and every
``[new_world]`` key are compared by tests/test_native_systems.py, for every ported system; the
variants are tests/native_systems.py's.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from riven_env.native import available
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import ChoiceView, Combatant, RollContext
from riven_env.rules.systems.new_world import melee_outcome, settings_for

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_systems import (  # noqa: E402
    ATTRIBUTES,
    NEW_WORLD,
    Pair,
    engines_fixture,
    modifiers,
    pick_option,
    roll_test_on_both,
    same_close,
    same_options,
    setup_agrees,
)

KEYWORDS = ("leader", "hero", "elite", "minion", "beast", "ranged")
COVERS = (None, "none", "soft", "hard")
engines = engines_fixture(NEW_WORLD)


def _profile(draw: np.random.Generator) -> ModelProfile:
    fields: dict[str, Any] = {a: int(draw.integers(1, 6)) for a in ATTRIBUTES}
    count = int(draw.integers(0, 3))
    fields.update(
        mettle=int(draw.integers(2, 7)),
        wounds=int(draw.integers(1, 4)),
        keywords=sorted({KEYWORDS[int(k)] for k in draw.integers(0, len(KEYWORDS), count)}),
    )
    return ModelProfile.from_dict("p", fields, {}, "test")


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
        options = same_options(pair.engines, roll_p, roll_n, view)
        if not options or (roll_p.rolled and draw.random() < 0.3):
            handed_p, handed_n = python.accept(roll_p), native.accept(roll_n)
            assert handed_n == handed_p
            if handed_p is None:
                break
            roll_p, roll_n = handed_p, handed_n
            continue
        option = pick_option(
            draw,
            options,
            lambda: ("help:9", "luck:0", "boost", "help:", f"help:{int(draw.integers(0, 3))}"),
        )
        got_p = pair.same("apply_spend", roll_p, option)
        if isinstance(got_p, str):  # an illegal option: the same error, the roll unchanged
            continue
        # The native roll goes on from the native engine's own record (the same, checked above).
        roll_p, roll_n = got_p, got_p
        applied += 1
    same_close(pair.engines, roll_p, roll_n)
    return applied


def test_setup_and_vocabulary_agree(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(3)
    setup_agrees(engines, [_profile(draw) for _ in range(50)])


def test_tests_allocations_and_luck_agree(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(11)
    applied = 0
    for seed in range(500):
        pair = Pair(engines, seed)
        roll, _ = roll_test_on_both(pair, draw, _context)
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
                modifiers(draw),
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


def test_the_core_refuses_a_characteristic_it_does_not_know() -> None:
    from riven_env.native.rules import native_rules

    config = native_rules.__wrapped__(
        NEW_WORLD.rules("bundled")
    )  # a fresh struct, not the cached one
    config.new_world.shot_characteristic = "mettle"
    with pytest.raises(
        ValueError, match=r"characteristic 'mettle'.*might, agility, wit or resolve"
    ):
        config.prepare()
