"""The turn sequence of the game loop: activation rows, turnover, rounds, the round limit,
bonus activations, illegal decisions, copies and views, and byte-identical logs.

Dice are scripted with ``script_dice`` (tests/conftest.py), so each test states the faces
the rules read and the events and state they must produce.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from game_events import of_type

from riven_env.engines import play_game
from riven_env.errors import IllegalActionError
from riven_env.game import Decision, dumps_event
from riven_env.game.decisions import PASS

END = Decision("end")
# Two troopers a side (Mettle 4), far apart: nobody is engaged or in charge reach.
FOUR = [
    ("blue", "trooper", "b1", (3, 3)),
    ("blue", "trooper", "b2", (7, 3)),
    ("red", "trooper", "r1", (3, 21)),
    ("red", "trooper", "r2", (7, 21)),
]


def activate(i, dice):
    return Decision("activate", model=i, dice=dice)


# faces, successes, actions, turn passes (Mettle 4, RAW reading 2)
RAW_ROWS = [
    pytest.param([3], 0, 0, True, id="1 die, no success: no action, turnover"),
    pytest.param([2, 1, 3], 0, 0, True, id="3 dice, no success"),
    pytest.param([4, 1], 1, 1, True, id="1 success with a failure: 1 action, turnover"),
    pytest.param([1, 1, 6], 1, 1, True, id="1 success with two failures"),
    pytest.param([4], 1, 1, False, id="1 success on 1 die: clean, go on"),
    pytest.param([4, 6], 2, 2, False, id="2 successes"),
    pytest.param([6, 1, 5], 2, 2, False, id="2 successes and a failure still go on"),
    pytest.param([4, 5, 6], 3, 3, False, id="3 successes"),
]


@pytest.mark.parametrize(("faces", "successes", "actions", "passes"), RAW_ROWS)
def test_activation_rows_raw(mini_game, script_dice, faces, successes, actions, passes):
    state = mini_game(FOUR)
    dice = script_dice(state, *faces)
    events = state.apply(activate(0, len(faces)))
    (act,) = of_type(events, "activation")
    assert act["dice"] == faces
    assert (act["successes"], act["actions"], act["turn_passes"]) == (successes, actions, passes)
    assert dice.remaining == 0
    if actions:
        assert state.phase == "action" and state.actions_left == actions
        events = state.apply(END)
    if passes:
        (end,) = of_type(events, "turn_end")
        assert end["side"] == "blue" and end["reason"] == "turnover"
        assert state.current_side == "red" and state.phase == "activate"
    else:
        assert of_type(events, "turn_end") == []
        assert state.current_side == "blue" and state.phase == "activate"
        assert state.eligible_models() == [1]


def test_max_dice_activation_costs_strain(mini_game, script_dice):
    state = mini_game(FOUR)
    script_dice(state, 4, 5, 6)
    events = state.apply(activate(0, 3))
    (strain,) = of_type(events, "strain")
    assert strain == {**strain, "model": "b1", "delta": 1, "value": 1, "reason": "max dice"}
    script_dice(state, 4, 5)
    state.apply(END)
    assert not of_type(state.apply(activate(1, 2)), "strain")


SBH_ROWS = [
    pytest.param([5, 1], 1, False, id="one failed die keeps the turn"),
    pytest.param([5, 1, 1], 1, True, id="two failed dice pass the turn"),
    pytest.param([1], 0, True, id="no success passes the turn"),
    pytest.param([5, 6, 1], 2, False, id="two successes, one failure"),
]


@pytest.mark.parametrize(("faces", "actions", "passes"), SBH_ROWS)
def test_activation_rows_sbh_variant(mini_game, script_dice, faces, actions, passes):
    state = mini_game(FOUR, overrides={"turnover": "sbh"})
    script_dice(state, *faces)
    events = state.apply(activate(0, len(faces)))
    (act,) = of_type(events, "activation")
    assert (act["actions"], act["turn_passes"]) == (actions, passes)
    if actions:
        state.apply(END)
    assert state.current_side == ("red" if passes else "blue")


def test_each_model_activates_at_most_once_per_side_turn(mini_game, script_dice):
    state = mini_game(FOUR)
    script_dice(state, 4)
    state.apply(activate(0, 1))
    state.apply(END)
    assert all(d.model != 0 for d in state.legal_decisions())
    with pytest.raises(IllegalActionError):
        state.apply(activate(0, 1))
    script_dice(state, 4)
    state.apply(activate(1, 1))
    events = state.apply(END)
    (end,) = of_type(events, "turn_end")
    assert end["reason"] == "all_activated" and state.current_side == "red"
    # Red's turn: its models activate; blue's flags are reset at blue's next turn.
    state.apply(PASS)
    assert state.current_side == "blue" and state.round == 2
    assert {d.model for d in state.legal_decisions() if d.kind == "activate"} == {0, 1}


def test_round_structure_and_round_limit(mini_game):
    state = mini_game(FOUR, rounds=2, victory='[[victory.conditions]]\ntype = "casualties"\n')
    kinds = [e["type"] for e in state.start_events]
    assert kinds == ["game_start", "round_start", "turn_start"]
    log = []
    for _ in range(3):
        log += state.apply(PASS)
        assert not state.is_terminal
    log += state.apply(PASS)
    assert [e["type"] for e in log if e["type"] not in ("decision",)] == [
        "turn_end", "turn_start", "turn_end", "round_end", "round_start", "turn_start",
        "turn_end", "turn_start", "turn_end", "round_end", "game_end",
    ]  # fmt: skip
    turns = [(e["round"], e["side"]) for e in of_type(log, "turn_start")]
    assert turns == [(1, "red"), (2, "blue"), (2, "red")]
    end = log[-1]
    assert end["reason"] == "round_limit" and end["rounds"] == 2 and end["draw"] is True
    assert state.is_terminal and state.current_side is None and state.legal_decisions() == []
    assert state.result == {
        "winner": None, "draw": True, "reason": "round_limit", "rounds": 2,
        "points": {"blue": 0, "red": 0},
    }  # fmt: skip


def test_between_turn_events_have_no_side(mini_game):
    """docs/event-log.md: ``side`` is the side whose turn it is, null between turns."""
    state = mini_game(FOUR, rounds=1)
    assert state.start_events[1]["side"] is None  # round_start
    log = state.apply(PASS) + state.apply(PASS)
    for event in log:
        if event["type"] in ("round_start", "round_end", "game_end"):
            assert event["side"] is None, event
        elif event["type"] in ("turn_start", "turn_end", "decision"):
            assert event["side"] in ("blue", "red"), event


def test_bonus_activation_costs_momentum_and_rolls_nothing(mini_game, script_dice):
    state = mini_game(FOUR)
    assert not any(d.kind == "bonus" for d in state.legal_decisions())
    state.momentum["blue"] = 2
    state._legal = None  # the legal list is cached per decision point
    assert Decision("bonus", model=0) in state.legal_decisions()
    dice = script_dice(state)  # any die drawn would raise
    events = state.apply(Decision("bonus", model=0))
    (momentum,) = of_type(events, "momentum")
    assert (momentum["owner"], momentum["delta"], momentum["value"]) == ("blue", -2, 0)
    (act,) = of_type(events, "activation")
    assert act["bonus"] is True and act["dice"] == [] and act["actions"] == 1
    assert not act["turn_passes"] and dice.dealt == []
    # RAW (momentum.bonus_mode "extra"): an action more; the model keeps its own activation.
    assert state.actions_left == 1 and not state.models[0].activated


def test_bonus_activation_replaces_the_activation_in_the_house_variant(mini_game, script_dice):
    state = mini_game(FOUR, overrides={"momentum.bonus_mode": "replace"})
    state.momentum["blue"] = 2
    state._legal = None
    script_dice(state)
    state.apply(Decision("bonus", model=0))
    assert state.actions_left == 1 and state.models[0].activated


def test_illegal_decision_names_it_and_lists_the_legal_ones(mini_game):
    state = mini_game(FOUR)
    legal = state.legal_decisions()
    seq = state.seq
    wrong = activate(2, 1)  # a red model in blue's turn
    with pytest.raises(IllegalActionError) as caught:
        state.apply(wrong)
    message = str(caught.value)
    assert "activate m2 1d" in message
    for decision in legal:
        assert str(decision) in message
    assert caught.value.decision == wrong and caught.value.legal == legal
    assert state.seq == seq and state.legal_decisions() == legal and state.drain_events() == []


def test_copy_is_independent_and_replays_the_same_future(mini_game):
    state = mini_game(FOUR, seed=11)
    before = (state.bases.centers.copy(), [m.copy() for m in state.models], dict(state.momentum))
    first, second = state.copy(), state.copy()
    for game in (first, second):
        game.apply(activate(0, 3))
        while game.phase == "action":
            legal = game.legal_decisions()
            game.apply(legal[0])
    assert first.drain_events() == second.drain_events()  # same dice: the RNG was copied
    first.models[1].wounds = 0
    first.models[1].conditions["dazed"] = 0
    first.momentum["blue"] = 5
    first.bases.move_to(3, (12, 12))
    assert (state.bases.centers == before[0]).all()
    assert [m.wounds for m in state.models] == [m.wounds for m in before[1]]
    assert all(m.conditions == {} and not m.activated for m in state.models)
    assert state.momentum == before[2] and state.seq == 3 and state.phase == "activate"


def test_view_hides_the_future_dice(mini_game):
    state = mini_game(FOUR, seed=5)
    reference = state.copy()
    view = state.view("red", seed=99)
    again = state.view("red", seed=99)
    future = [int(v) for v in reference.rng.integers(1, 7, size=30)]
    assert [int(v) for v in view.rng.integers(1, 7, size=30)] != future
    assert [int(v) for v in again.rng.integers(1, 7, size=30)] == [
        int(v) for v in state.view("red", seed=99).rng.integers(1, 7, size=30)
    ]
    # Making and stepping a view leaves the real game's dice alone.
    view.apply(activate(0, 3))
    assert [int(v) for v in state.rng.integers(1, 7, size=30)] == future
    with pytest.raises(ValueError, match="side"):
        state.view("green")


_LOG_SCRIPT = """
import sys
from riven_env.game import dumps_event
from riven_env.engines import play_game
for name, seed in (("duel-1v1", 7), ("solo-hero-horde", 3)):
    for event in play_game(name, "random", "random", seed):
        sys.stdout.write(dumps_event(event) + "\\n")
"""


def test_same_seed_gives_a_byte_identical_log_in_another_process():
    here = "".join(
        dumps_event(event) + "\n"
        for name, seed in (("duel-1v1", 7), ("solo-hero-horde", 3))
        for event in play_game(name, "random", "random", seed)
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    there = subprocess.run(
        [sys.executable, "-c", _LOG_SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        check=True,
        timeout=120,
    ).stdout
    assert there == here
    lines = here.splitlines()
    assert json.loads(lines[0])["type"] == "game_start"
    other = [dumps_event(e) for e in play_game("duel-1v1", "random", "random", 8)]
    assert other != lines[: len(other)]
