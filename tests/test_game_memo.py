"""The speed-ups of the forward model keep its behaviour: memos follow the situation,
copies are faithful and independent, and rules lookups return what a fresh walk would.
"""

from __future__ import annotations

import copy
from dataclasses import fields

import numpy as np
import pytest

from riven_env.engines import new_game
from riven_env.errors import RulesDataError
from riven_env.game.actions import shot_targets
from riven_env.game.model_state import ModelState
from riven_env.game.state import copy_generator
from riven_env.rules import load_rules

BLUE_ARCHER, RED_BRUTE, RED_WARRIOR = 3, 6, 7  # skirmish-5v5 roster indices


def _archer_facing_warrior():
    """skirmish-5v5 with every model far apart except a blue archer 7" from a red warrior, in the open."""
    state = new_game("skirmish-5v5", 3)
    for k, i in enumerate(state.side_models("blue")):
        state.bases.move_to(i, (26.0 + 2 * k, 1.0))
    for k, i in enumerate(state.side_models("red")):
        state.bases.move_to(i, (26.0 + 2 * k, 35.0))
    state.bases.move_to(BLUE_ARCHER, (10.0, 14.0))
    state.bases.move_to(RED_WARRIOR, (10.0, 21.0))
    state.positions_changed()
    return state


def test_shot_targets_follow_positions_statuses_and_conditions_without_invalidation() -> None:
    state = _archer_facing_warrior()
    first = shot_targets(state, BLUE_ARCHER)
    assert RED_WARRIOR in dict(first)
    # A base moved by hand into contact (no cache call): the memo must notice on its own.
    touching = 14.0 + state.bases.radii[BLUE_ARCHER] + state.bases.radii[RED_WARRIOR]
    state.bases.move_to(RED_WARRIOR, (10.0, touching))
    assert state.is_engaged(BLUE_ARCHER)
    assert shot_targets(state, BLUE_ARCHER) == []  # engaged models cannot shoot
    state.bases.move_to(RED_WARRIOR, (10.0, 21.0))
    assert not state.is_engaged(BLUE_ARCHER)
    assert shot_targets(state, BLUE_ARCHER) == first
    # A status change alone (the target goes Down) removes it as a target.
    state.models[RED_WARRIOR].status = "down"
    assert RED_WARRIOR not in dict(shot_targets(state, BLUE_ARCHER))
    state.models[RED_WARRIOR].status = "active"
    # A Condition alone can change the cover a target counts.
    covered = dict(first)[RED_WARRIOR]
    state.models[RED_WARRIOR].conditions["hunkered"] = 0
    hunkered = dict(shot_targets(state, BLUE_ARCHER))[RED_WARRIOR]
    assert hunkered != covered
    del state.models[RED_WARRIOR].conditions["hunkered"]
    assert shot_targets(state, BLUE_ARCHER) == first


def test_memoised_answers_equal_fresh_ones_along_whole_games() -> None:
    from riven_agents.registry import make_agent

    for seed in range(3):
        state = new_game("skirmish-5v5", seed)
        agents = {
            side: make_agent("random", side, [seed, k]) for k, side in enumerate(("blue", "red"))
        }
        while not state.is_terminal:
            for i in range(len(state.models)):
                fresh = state.copy()
                fresh._memo, fresh._memo_key = {}, None
                assert state.engaged_enemies(i) == fresh.engaged_enemies(i)
                assert shot_targets(state, i) == shot_targets(fresh, i)
            side = state.current_side
            state.apply(agents[side].act(state, state.legal_decisions()))


def test_returned_lists_are_the_callers_own() -> None:
    state = _archer_facing_warrior()
    targets = shot_targets(state, BLUE_ARCHER)
    targets.clear()
    assert shot_targets(state, BLUE_ARCHER)
    engaged = state.engaged_enemies(BLUE_ARCHER)
    engaged.append(99)
    assert state.engaged_enemies(BLUE_ARCHER) == []


def test_copies_do_not_share_the_memo() -> None:
    state = _archer_facing_warrior()
    shot_targets(state, BLUE_ARCHER)
    twin = state.copy()
    assert twin._memo is not state._memo
    touching = 14.0 + state.bases.radii[BLUE_ARCHER] + state.bases.radii[RED_WARRIOR]
    twin.bases.move_to(RED_WARRIOR, (10.0, touching))
    assert twin.is_engaged(BLUE_ARCHER) and not state.is_engaged(BLUE_ARCHER)


def test_copy_generator_continues_the_stream_like_deepcopy_and_independently() -> None:
    rng = np.random.default_rng(11)
    rng.integers(1, 7, size=5)
    rng.random()  # leaves a buffered 32-bit half in some bit generators
    clone, reference = copy_generator(rng), copy.deepcopy(rng)
    assert clone.bit_generator.state == reference.bit_generator.state
    assert np.array_equal(clone.integers(1, 7, size=50), reference.integers(1, 7, size=50))
    assert clone.random() == reference.random()
    assert rng.bit_generator.state != clone.bit_generator.state  # drawing on the copy only
    assert clone.bit_generator.seed_seq.entropy == rng.bit_generator.seed_seq.entropy
    assert clone.bit_generator.seed_seq is not rng.bit_generator.seed_seq


def test_copy_generator_deep_copies_stand_ins() -> None:
    class Scripted:
        def __init__(self) -> None:
            self.queue = [1, 2]

    scripted = Scripted()
    clone = copy_generator(scripted)  # type: ignore[arg-type]
    assert clone is not scripted and clone.queue == [1, 2] and clone.queue is not scripted.queue


def test_model_copy_copies_every_field_and_owns_its_conditions() -> None:
    state = new_game("skirmish-5v5", 1)
    model = state.models[RED_BRUTE]
    model.conditions["pinned"] = 1
    model.strain, model.activated, model.charged, model.aim_bonus = 2, True, True, 1
    twin = model.copy()
    assert isinstance(twin, ModelState)
    for f in fields(ModelState):
        assert getattr(twin, f.name) == getattr(model, f.name), f.name
    twin.conditions["exposed"] = 0
    assert "exposed" not in model.conditions


def test_rules_get_memo_returns_the_data_and_still_refuses_unknown_keys() -> None:
    rules = load_rules(overrides={"activation.max_dice": 2})
    assert rules.get("activation.max_dice") == 2
    assert rules.get("activation.max_dice") == rules.raw["activation"]["max_dice"]
    assert rules.get("activation") is rules.raw["activation"]
    for _ in range(2):  # a failed lookup is never remembered as a value
        with pytest.raises(RulesDataError, match="no 'nope'"):
            rules.get("activation.nope")
    assert rules.has("activation.max_dice") and not rules.has("activation.nope")
    assert load_rules().get("activation.max_dice") != 2  # memos are per rules object
