"""Scripted tests of issue 38's RIVEN items 2-4, on both engines.

2. "A model may take the same action multiple times if it earns multiple actions": Focus may
   be taken again in one activation (each gains +1 Momentum); the old cap is a House variant
   (``actions.focus.once_per_activation``).
3. Shooting into melee: a Down friend in base contact with the target is in no melee (House
   reading, ``shooting.down_models_in_melee``): it neither puts the target in a melee nor lets a
   shooter beside it shoot into one.
4. Rest, "no movement, no attack that activation": a Momentum bonus action in the same
   side-turn belongs to the model's activation, so a model that Rested neither moves nor attacks
   in it (and one that moved or attacked does not Rest), in the legal decisions and the masks.

Each scripted game runs with the Python dice engine and with the native core behind the
resolution seam (``mini_game``, as in tests/test_rules_fidelity.py); at the decision points
under test the position is handed to the native game loop (``NativeGameState.from_python``),
whose legal decisions, events (byte for byte) and state must be the Python engine's.
Rules reference: ``docs/rules-reference.md``.
"""

from __future__ import annotations

import numpy as np
import pytest
from game_events import act, activate, one
from rules_engines import ENGINES, use_native_resolution

from riven_env.encoding.catalogue import ActionCatalogue
from riven_env.game import Decision
from riven_env.game.decisions import PASS
from riven_env.game.events import dumps_event
from riven_env.native import available

END = Decision("end")


@pytest.fixture(params=ENGINES)
def mini_game(request, mini_game):
    """conftest's ``mini_game``, its dice engine the Python one or the native core."""
    if request.param == "python":
        return mini_game

    def build(*args, **kwargs):
        return use_native_resolution(mini_game(*args, **kwargs))

    return build


def twins(state, seed: int = 0):
    """The position on both game loops, each drawing from the same seeded generator."""
    if not available():
        pytest.skip("native core not built")
    from riven_env.native.loop import NativeGameState

    python = state.copy()
    python.rng = np.random.default_rng(seed)
    native = NativeGameState.from_python(python.copy())
    native.drain_events()
    return python, native


def same_step(python, native, decision) -> list[dict]:
    """Apply ``decision`` (and accept any spend) on both: same menu, events and state."""
    from riven_env.native.game import native_view, python_view

    assert native.legal_decisions() == python.legal_decisions()
    expected = act(python, decision)
    got = act(native, decision)
    assert [dumps_event(e) for e in got] == [dumps_event(e) for e in expected]
    assert native_view(native.native) == python_view(python)
    return expected


def kinds(state) -> set[str]:
    return {d.kind for d in state.legal_decisions()}


def masked_kinds(state) -> set[str]:
    """The kinds of the decisions the action catalogue's mask offers."""
    catalogue = ActionCatalogue(state)
    return {catalogue.decode(k, state).kind for k in np.flatnonzero(catalogue.mask(state))}


# ----------------------------------------------------------------------------- 2. Focus
TWO_BLUE = [
    ("blue", "trooper", "b1", (5, 5)),
    ("blue", "brawler", "b2", (9, 5)),
    ("red", "brawler", "r1", (5, 20)),
]


def test_focus_may_be_taken_again_and_each_gains_momentum(mini_game, script_dice):
    state = mini_game(TWO_BLUE)
    activate(state, script_dice, 0, [4, 4, 4])  # 3 successes: 3 actions
    values = []
    for _ in range(3):
        assert Decision("focus", model=0) in state.legal_decisions()
        momentum = one(state.apply(Decision("focus", model=0)), "momentum")
        assert (momentum["owner"], momentum["delta"], momentum["reason"]) == ("blue", 1, "focus")
        values.append(momentum["value"])
    assert values == [1, 2, 3]
    # The Momentum pays a bonus action (2) for another model of the side ("another model").
    assert Decision("bonus", model=1) in state.legal_decisions()
    assert Decision("bonus", model=0) not in state.legal_decisions()


def test_the_focus_cap_is_a_house_variant(mini_game, script_dice):
    state = mini_game(TWO_BLUE, overrides={"actions.focus.once_per_activation": True})
    activate(state, script_dice, 0, [4, 4])
    state.apply(Decision("focus", model=0))
    assert Decision("focus", model=0) not in state.legal_decisions()
    assert state.momentum["blue"] == 1


def test_repeated_focus_is_the_same_on_the_native_loop(mini_game, script_dice):
    state = mini_game(TWO_BLUE)
    activate(state, script_dice, 0, [4, 4, 4])
    python, native = twins(state)
    for _ in range(3):
        same_step(python, native, Decision("focus", model=0))
    assert python.momentum["blue"] == 3  # and the native state is the Python one (same_step)
    same_step(python, native, Decision("bonus", model=1))
    same_step(python, native, Decision("focus", model=1))
    assert python.momentum["blue"] == 2


# ----------------------------------------------------------------------------- 3. Down in melee
def _down(state, i: int) -> None:
    state.models[i].wounds, state.models[i].status = 0, "down"


# r1 at (10, 10); b2 (Down) and b3 (active) in base contact with it; the shooter b1 touches only
# b2. Nobody blocks the sight line (models never do); no terrain: no cover.
MELEE_WITH_DOWN_FRIEND = [
    ("blue", "trooper", "b1", (12, 10)),
    ("blue", "brawler", "b2", (11, 10)),
    ("blue", "brawler", "b3", (10, 11)),
    ("red", "brawler", "r1", (10, 10)),
]
# r1 touches only the Down b2; the shooter b1 stands 6" away, beside nobody.
ONLY_A_DOWN_FRIEND = [
    ("blue", "trooper", "b1", (10, 3)),
    ("blue", "brawler", "b2", (11, 10)),
    ("red", "brawler", "r1", (10, 10)),
]


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_shooter_beside_only_a_down_friend_may_not_shoot_into_the_melee(
    mini_game, script_dice, engine
):
    state = mini_game(MELEE_WITH_DOWN_FRIEND)
    _down(state, 1)
    activate(state, script_dice, 0, [4])
    game = state if engine == "python" else twins(state)[1]
    # r1 fights the active b3; b1 touches only the Down b2, who is in no melee.
    assert Decision("shoot", model=0, target=3) not in game.legal_decisions()
    assert "shoot" not in masked_kinds(game)


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_target_beside_only_a_down_friend_is_in_no_melee(mini_game, script_dice, engine):
    state = mini_game(ONLY_A_DOWN_FRIEND)
    _down(state, 1)
    activate(state, script_dice, 0, [4])
    if engine == "python":
        assert Decision("shoot", model=0, target=2) in state.legal_decisions()
        state.rng.push(5, 5, 6)  # 10 + 2 = 12 vs TN 8: Critical; b2's Out check (6) holds
        shot = one(act(state, Decision("shoot", model=0, target=2)), "shot")
        assert (shot["target"], shot["cover"]) == ("r1", "none")
    else:
        python, native = twins(state, seed=3)
        events = same_step(python, native, Decision("shoot", model=0, target=2))
        assert one(events, "shot")["target"] == "r1"


def test_counting_down_models_in_the_melee_is_a_variant(mini_game, script_dice):
    on = {"shooting.down_models_in_melee": True}
    state = mini_game(MELEE_WITH_DOWN_FRIEND, overrides=on)
    _down(state, 1)
    activate(state, script_dice, 0, [4])
    assert Decision("shoot", model=0, target=3) in state.legal_decisions()
    if available():
        assert twins(state)[1].legal_decisions() == state.legal_decisions()
    state = mini_game(ONLY_A_DOWN_FRIEND, overrides=on)
    _down(state, 1)
    activate(state, script_dice, 0, [4])
    assert Decision("shoot", model=0, target=2) not in state.legal_decisions()
    if available():
        assert twins(state)[1].legal_decisions() == state.legal_decisions()


def test_an_active_friend_in_the_melee_still_opens_it(mini_game, script_dice):
    # b1 now touches the active b3 in r1's melee: the RAW exception holds.
    state = mini_game(
        [
            ("blue", "trooper", "b1", (10, 12)),
            ("blue", "brawler", "b2", (11, 10)),
            ("blue", "brawler", "b3", (10, 11)),
            ("red", "brawler", "r1", (10, 10)),
        ]
    )
    _down(state, 1)
    activate(state, script_dice, 0, [4])
    assert Decision("shoot", model=0, target=3) in state.legal_decisions()
    if available():
        assert twins(state)[1].legal_decisions() == state.legal_decisions()


# ----------------------------------------------------------------------------- 4. Rest
# b1 has Strain to rest off and r1 in bow range, out of contact: it could shoot, move or rest.
REST = [
    ("blue", "trooper", "b1", (5, 5)),
    ("blue", "brawler", "b2", (9, 5)),
    ("red", "brawler", "r1", (5, 15)),
]
BANNED = {"move", "charge", "melee", "shoot", "disengage"}


def _rested_then_bonus(mini_game, script_dice, overrides=None):
    """b1 Rests in its activation, b2 activates, then b1 takes a bonus action (2 Momentum)."""
    state = mini_game(REST, overrides=overrides)
    state.models[0].strain = 2
    state.momentum["blue"] = 2
    activate(state, script_dice, 0, [4])  # 1 action, the side goes on
    state.apply(Decision("rest", model=0))
    assert state.models[0].strain == 0
    activate(state, script_dice, 1, [4])
    state.apply(END)
    script_dice(state)  # a bonus action rolls nothing
    state.apply(Decision("bonus", model=0))
    assert state.active_model == 0 and state.actions_left == 1
    return state


def test_a_bonus_action_after_rest_neither_moves_nor_attacks(mini_game, script_dice):
    state = _rested_then_bonus(mini_game, script_dice)
    offered = kinds(state)
    assert not offered & BANNED and {"focus", "aim", "end"} <= offered
    assert not masked_kinds(state) & BANNED


def test_rest_bans_lift_at_the_sides_next_turn(mini_game, script_dice):
    state = _rested_then_bonus(mini_game, script_dice)
    state.apply(END)
    while state.round == 1:  # blue's turn ends (nothing left to activate), red passes
        state.apply(PASS)
    assert state.current_side == "blue" and not state.models[0].rested
    activate(state, script_dice, 0, [4])
    assert {"move", "shoot"} <= kinds(state)


def test_rest_in_a_bonus_action_bans_attacks_in_the_own_activation(mini_game, script_dice):
    state = mini_game(REST)
    state.models[0].strain = 2
    state.momentum["blue"] = 2
    script_dice(state)
    state.apply(Decision("bonus", model=0))  # at the start of the turn: any model
    state.apply(Decision("rest", model=0))
    activate(state, script_dice, 1, [4])
    state.apply(END)
    activate(state, script_dice, 0, [4])  # b1's own activation, the same side-turn
    assert not kinds(state) & BANNED


def test_having_moved_a_model_rests_in_no_bonus_action_of_the_turn(mini_game, script_dice):
    state = mini_game(REST)
    state.models[0].strain = 2
    state.momentum["blue"] = 2
    activate(state, script_dice, 0, [4])
    move = next(d for d in state.legal_decisions() if d.kind == "move")
    state.apply(move)
    activate(state, script_dice, 1, [4])
    state.apply(END)
    script_dice(state)
    state.apply(Decision("bonus", model=0))
    assert state.models[0].strain == 2 and "rest" not in kinds(state)


def test_rest_bans_are_the_same_on_the_native_loop(mini_game, script_dice):
    from riven_env.native.game import native_view

    state = mini_game(REST)
    state.models[0].strain = 2
    state.momentum["blue"] = 2
    activate(state, script_dice, 0, [4])
    python, native = twins(state, seed=5)
    same_step(python, native, Decision("rest", model=0))
    assert native_view(native.native)["models"][0]["rested"]
    # The same position, scripted on: b2 activates and ends; then b1's bonus action.
    state.apply(Decision("rest", model=0))
    activate(state, script_dice, 1, [4])
    state.apply(END)
    python, native = twins(state, seed=5)
    same_step(python, native, Decision("bonus", model=0))
    assert not kinds(native) & BANNED and {"focus", "aim"} <= kinds(native)
    assert masked_kinds(native) == masked_kinds(python)
    same_step(python, native, END)
