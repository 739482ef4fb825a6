"""The core's Invictus engine (cpp/riven/rules/systems/invictus.cpp) agrees with the Python one.

Seeded sweeps over pools, TNs, modifiers, roll facts (a fray, exposing Conditions, Critical
Health, the final round, Luck held, an opponent) and several variants of the ``[invictus]``
table: every roll, spend, Oracle choice and close runs on
:class:`~riven_env.rules.systems.invictus.InvictusResolution` with a numpy Generator and on
:class:`~riven_env.native.invictus.NativeInvictusResolution` with a Generator at the same
state; the records (pending roll, result with its aftermath and detail), the errors and the
stream state after each call must be identical. RIVEN's rolls that Invictus keeps (activation,
morale, Out checks, the Complication Oracle) and every key of the table are compared by
tests/test_native_systems.py, for every ported system; the variants are tests/native_systems.py's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from riven_env.native import available
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import ChoiceView, Combatant, RollContext

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_systems import (  # noqa: E402
    ATTRIBUTES,
    INVICTUS,
    Pair,
    engines_fixture,
    modifiers,
    pick_option,
    roll_test_on_both,
    same_close,
    same_options,
    setup_agrees,
)

CONDITIONS = ("exposed", "prone", "pinned", "dazed", "shaken", "aiming")
engines = engines_fixture(INVICTUS)


def _profile(draw: np.random.Generator) -> ModelProfile:
    fields = {a: int(draw.integers(1, 6)) for a in ATTRIBUTES}
    fields.update(mettle=int(draw.integers(2, 7)), wounds=int(draw.integers(1, 4)))
    return ModelProfile.from_dict("p", fields, {}, "test")


def _context(draw: np.random.Generator, *, opponent: bool) -> RollContext:
    wounds_max = int(draw.integers(0, 5))
    conditions = tuple(
        CONDITIONS[int(k)] for k in draw.integers(0, len(CONDITIONS), int(draw.integers(0, 3)))
    )
    resources = {} if draw.random() < 0.15 else {"luck": int(draw.integers(0, 4))}
    return RollContext(
        engaged=bool(draw.random() < 0.4),
        opponent=_profile(draw) if opponent else None,
        conditions=conditions,
        wounds_left=int(draw.integers(0, wounds_max + 1)),
        wounds_max=wounds_max,
        final_round=bool(draw.random() < 0.3),
        resources=resources,
    )


def _play_out(roll_p: Any, draw: np.random.Generator, pair: Pair, luck: int | None) -> int:
    """Random spends (some illegal) on both engines until accept; the Oracle's view each step.

    Returns how many spends were applied."""
    native = pair.engines[1]
    roll_n = roll_p
    spends = 0
    view = ChoiceView(model="m0", resources={} if luck is None else {"luck": luck})
    resources = view.resources or None
    while True:
        assert roll_n == roll_p and roll_n.band == roll_p.band and roll_n.total == roll_p.total
        options = same_options(pair.engines, roll_p, roll_n, view, resources)
        if not options or draw.random() < 0.25:
            break
        option = pick_option(
            draw,
            options,
            lambda: ("favour:9", "luck:x", "boost", f"favour:{int(draw.integers(0, 6))}"),
        )
        got_p = pair.same("apply_spend", roll_p, option)
        if isinstance(got_p, str):  # an illegal option: the same error, the roll unchanged
            continue
        roll_p, roll_n = got_p, native.apply_spend(roll_n, option, None)
        spends += 1
    same_close(pair.engines, roll_p, roll_n)
    return spends


def test_setup_and_vocabulary_agree(engines: tuple[Any, Any]) -> None:
    python, native = engines
    draw = np.random.default_rng(3)
    setup_agrees(engines, [_profile(draw) for _ in range(20)])
    assert native.accept(None) is None and python.accept(None) is None


def test_tests_and_spends_agree(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(11)
    spends = 0
    for seed in range(400):
        pair = Pair(engines, seed)
        roll, context = roll_test_on_both(pair, draw, _context)
        luck = None if context is None else context.resources.get("luck")
        spends += _play_out(roll, draw, pair, luck)
    assert spends > 100


def test_melee_agrees(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(17)
    outcomes = set()
    for seed in range(400):
        pair = Pair(engines, seed)
        a_profile, d_profile = _profile(draw), _profile(draw)
        attacker = Combatant(
            a_profile,
            modifiers(draw),
            _context(draw, opponent=False),
            {"luck": int(draw.integers(0, 4))},
        )
        defender = Combatant(d_profile, modifiers(draw), _context(draw, opponent=False), {})
        roll = pair.same("start_melee", attacker, defender)
        _play_out(roll, draw, pair, attacker.resources["luck"])
        outcomes.add(engines[0].finalise(roll).outcome)
    assert len(outcomes) >= 2  # "harsh" (three 6s a Crit) rarely reaches a Crit


def test_cover_keeps_soft_and_hard_apart_on_both_engines(engines: tuple[Any, Any]) -> None:
    """Issue 38 item 5 (House, ``invictus.cover.score``): a shot's TN, and so its circumstance,
    comes from the cover's score on both engines; soft and hard cover give different pools."""
    from native_systems import outcome

    python, native = engines
    s = python.settings
    for cover in ("none", "soft", "hard"):
        assert native.shot_tn(cover) == python.shot_tn(cover)
        assert python.shot_tn(cover) == s.standard_tn - s.tn_step * s.cover_score[cover]
    assert outcome(lambda: native.shot_tn("wall")) == outcome(lambda: python.shot_tn("wall"))
    context = RollContext(cover="hard")
    for seed in range(40):
        for cover in ("none", "soft", "hard"):
            pair = Pair(engines, seed)
            tn = python.shot_tn(cover)
            roll = pair.same("roll_test", "shot", "agility", 3, tn, [], context=context)
            score = s.cover_score[cover]
            assert roll.score == score and roll.unfavourable == (score < 0)


def test_bundled_cover_scores_give_two_steps() -> None:
    from riven_env.native.invictus import NativeInvictusResolution
    from riven_env.rules import load_rules

    native = NativeInvictusResolution(load_rules(overrides={"resolution": "invictus"}))
    assert [native.shot_tn(c) for c in ("none", "soft", "hard")] == [8, 10, 14]
    pools = {
        c: native.roll_test("shot", "agility", 3, native.shot_tn(c), [], np.random.default_rng(1))
        for c in ("none", "soft", "hard")
    }
    assert [pools[c].pool for c in ("none", "soft", "hard")] == [3, 3, 2]
    assert [pools[c].unfavourable for c in ("none", "soft", "hard")] == [False, True, True]
