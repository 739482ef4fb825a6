"""Scripted mini-games for morale and flight, Momentum, Strain, Conditions and complications.

Rules reference: Morale, Momentum, Strain, Conditions, Complication Oracle (house tables in
``riven_env/rules/data/riven-v0.1.toml``).
"""

from __future__ import annotations

import pytest
from game_events import act, activate, of_type, one

from riven_env.game import Decision
from riven_env.game.decisions import PASS

END = Decision("end")


def conditions_of(events, model):
    return [
        (e["condition"], e["gained"]) for e in of_type(events, "condition") if e["model"] == model
    ]


# ----------------------------------------------------------------------------- morale
def _red_loses_r1(mini_game, script_dice, red, *faces, leader=False):
    """Blue passes; red's Down r1 fails its Out check at the end of red's turn."""
    blue = [("blue", "trooper", "b1", (2, 2))]
    models = blue + [("red", "leader" if leader else "trooper", "r1", (10, 15))] + red
    state = mini_game(models)
    state.models[1].wounds, state.models[1].status = 0, "down"
    state.apply(PASS)
    script_dice(state, 1, *faces)  # Out check 1 < Mettle 4: Out
    events = state.apply(PASS)
    assert of_type(events, "removed")[0]["model"] == "r1"
    assert state.rng.remaining == 0
    return state, events


FAR = [("red", "trooper", f"r{k}", (13 + 2 * k, 13)) for k in range(3, 6)]  # > 6" from r1


def test_friend_lost_within_six_inches_tests_morale(mini_game, script_dice):
    red = [("red", "trooper", "r2", (13, 15)), *FAR]
    _, events = _red_loses_r1(mini_game, script_dice, red, 4)
    morale = one(events, "morale")
    assert (morale["model"], morale["trigger"], morale["die"], morale["passed"]) == (
        "r2", "friend_lost", 4, True,
    )  # fmt: skip
    assert morale["flee_distance"] == 0.0 and morale["fled_off_table"] is False


def test_leader_out_tests_every_model_of_the_side(mini_game, script_dice):
    red = [("red", "trooper", "r2", (13, 15)), *FAR]
    _, events = _red_loses_r1(mini_game, script_dice, red, 4, 5, 6, 4, leader=True)
    tested = [(e["model"], e["trigger"]) for e in of_type(events, "morale")]
    assert tested == [(m, "leader_out") for m in ("r2", "r3", "r4", "r5")]


def test_half_strength_tests_each_model_once(mini_game, script_dice):
    red = [("red", "trooper", "r2", (22, 22))]  # 1 of 2 left: half strength; r2 is far away
    state, events = _red_loses_r1(mini_game, script_dice, red, 4)
    assert [(e["model"], e["trigger"]) for e in of_type(events, "morale")] == [
        ("r2", "half_strength")
    ]
    assert "red" in state.half_strength_tested


def test_failed_morale_flees_toward_the_nearest_edge(mini_game, script_dice):
    red = [("red", "trooper", "r2", (13, 16)), *FAR]
    state, events = _red_loses_r1(mini_game, script_dice, red, 3, 1)  # fails; flees 1 + 3"
    morale = one(events, "morale")
    assert (morale["passed"], morale["flee_distance"], morale["fled_off_table"]) == (
        False,
        4.0,
        False,
    )
    move = one(events, "move")
    assert move["kind"] == "flee" and move["path_length"] == pytest.approx(4.0)
    assert state.position(2)[1] == pytest.approx(20.0)  # nearest edge: the top, y = 24
    assert state.models[2].is_active


def test_flight_off_the_table_removes_the_model(mini_game, script_dice):
    red = [("red", "trooper", "r2", (12, 20)), *FAR]
    state, events = _red_loses_r1(mini_game, script_dice, red, 2, 6)  # flees 9": off the edge
    morale = one(events, "morale")
    assert morale["model"] == "r2" and morale["fled_off_table"] is True
    removed = [(e["model"], e["reason"]) for e in of_type(events, "removed")]
    assert removed == [("r1", "out"), ("r2", "fled")]
    assert state.models[2].status == "fled" and not state.bases.on_table[2]


# ----------------------------------------------------------------------------- Momentum
TWO = [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))]


def test_focus_gains_one_momentum_each_time(mini_game, script_dice):
    state = mini_game(TWO)
    activate(state, script_dice, 0, [4, 4])
    momentum = one(state.apply(Decision("focus", model=0)), "momentum")
    assert (momentum["owner"], momentum["delta"], momentum["value"], momentum["reason"]) == (
        "blue", 1, 1, "focus",
    )  # fmt: skip
    # RAW: "A model may take the same action multiple times if it earns multiple actions."
    assert Decision("focus", model=0) in state.legal_decisions()
    assert one(state.apply(Decision("focus", model=0)), "momentum")["value"] == 2


def test_momentum_is_capped(mini_game, script_dice):
    state = mini_game(TWO)
    state.momentum["blue"] = 6
    activate(state, script_dice, 0, [4])
    assert not of_type(state.apply(Decision("focus", model=0)), "momentum")
    assert state.momentum["blue"] == 6


def test_reroll_spend_replaces_one_die_and_costs_one(mini_game, script_dice):
    state = mini_game(TWO)
    state.momentum["blue"] = 1
    activate(state, script_dice, 0, [4])
    state.rng.push(1, 2)  # 3 + 2 = 5 vs 8: Miss
    state.apply(Decision("shoot", model=0, target=1))
    options = [d.option for d in state.legal_decisions()]
    assert options == ["reroll:0", "reroll:1", "strain", "accept"]
    state.rng.push(6)  # the rerolled die: 6 + 2 + 2 = 10: Hit
    events = state.apply(Decision("spend", option="reroll:0"))
    shot = one(events, "shot")
    assert (shot["dice"], shot["result"], shot["rolled_result"], shot["spends"]) == (
        [6, 2], "hit", "hit", ["reroll:0"],
    )  # fmt: skip
    spent = one(events, "momentum")
    assert (spent["delta"], spent["reason"], state.momentum["blue"]) == (-1, "spend", 0)
    assert state.models[1].wounds == 1


def test_boost_moves_a_partial_to_hit_for_two_momentum(mini_game, script_dice):
    state = mini_game(TWO)
    state.momentum["blue"] = 2
    activate(state, script_dice, 0, [4])
    state.rng.push(3, 3)  # 8 vs 8: Partial
    state.apply(Decision("shoot", model=0, target=1))
    assert Decision("spend", option="boost") in state.legal_decisions()
    events = state.apply(Decision("spend", option="boost"))
    shot = one(events, "shot")
    assert (shot["result"], shot["rolled_result"], shot["spends"]) == ("hit", "partial", ["boost"])
    assert state.momentum["blue"] == 0
    assert conditions_of(events, "b1") == []  # a Hit does not expose the shooter


def test_strain_spend_turns_a_miss_into_a_partial(mini_game, script_dice):
    state = mini_game(TWO)
    activate(state, script_dice, 0, [4])
    state.rng.push(1, 1)
    state.apply(Decision("shoot", model=0, target=1))
    events = state.apply(Decision("spend", option="strain"))
    shot = one(events, "shot")
    assert (shot["result"], shot["rolled_result"], shot["spends"]) == (
        "partial",
        "miss",
        ["strain"],
    )
    strain = [(e["delta"], e["reason"]) for e in of_type(events, "strain") if e["model"] == "b1"]
    assert strain == [(2, "spend")]
    assert not of_type(events, "complication")
    assert ("exposed", True) in conditions_of(events, "b1")


# ----------------------------------------------------------------------------- Strain
def test_rest_removes_four_strain_and_excludes_moving_and_attacking(mini_game, script_dice):
    state = mini_game(TWO)
    state.models[0].strain = 4
    activate(state, script_dice, 0, [4, 4])
    events = state.apply(Decision("rest", model=0))
    strain = one(events, "strain")
    assert (strain["delta"], strain["value"], strain["reason"]) == (-4, 0, "rest")
    assert not {d.kind for d in state.legal_decisions()} & {"move", "shoot", "charge"}


def test_a_model_that_moved_cannot_rest(mini_game, script_dice):
    state = mini_game(TWO)
    state.models[0].strain = 2
    activate(state, script_dice, 0, [4, 4])
    assert Decision("rest", model=0) in state.legal_decisions()
    state.apply(next(d for d in state.legal_decisions() if d.kind == "move"))
    assert Decision("rest", model=0) not in state.legal_decisions()


def test_strain_overflow_gives_an_unresisted_condition(mini_game, script_dice):
    state = mini_game(TWO)
    state.models[0].strain = 4  # Wit 2: the track is full
    script_dice(state, 4, 4, 4, 2)  # 3 dice: +1 Strain for the maximum; overflow d6 = 2
    events = state.apply(Decision("activate", model=0, dice=3))
    strain = of_type(events, "strain")
    assert [(e["delta"], e["value"]) for e in strain] == [(0, 4)]
    assert strain[0]["reason"] == "overflow (d6 2)"
    assert conditions_of(events, "b1") == [("shaken", True)]  # no Resolve test: no dice left
    assert state.models[0].strain == 4 and state.rng.remaining == 0


def test_shaken_forbids_charge_and_rally_removes_it(mini_game, script_dice):
    state = mini_game([("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 9))])
    state.models[0].conditions["shaken"] = 0
    activate(state, script_dice, 0, [4, 4])
    kinds = {d.kind for d in state.legal_decisions()}
    assert "charge" not in kinds and Decision("rally", model=0, target=0) in state.legal_decisions()
    state.rng.push(4, 4)  # 8 + Resolve 2 - 1 (shaken) = 9 vs 8: Hit
    events = state.apply(Decision("rally", model=0, target=0))
    test = one(events, "test")
    assert test["kind"] == "rally" and test["modifiers"] == [
        {"source": "condition:shaken", "value": -1}
    ]
    assert conditions_of(events, "b1") == [("shaken", False)]
    assert Decision("charge", model=0, target=1) in state.legal_decisions()


def test_pinned_forbids_moving(mini_game, script_dice):
    state = mini_game(TWO)
    state.models[0].conditions["pinned"] = 0
    activate(state, script_dice, 0, [4])
    assert not {d.kind for d in state.legal_decisions()} & {"move", "charge"}


def test_bleeding_rolls_for_a_wound_at_the_end_of_its_sides_turn(mini_game, script_dice):
    state = mini_game(TWO)
    state.models[0].conditions["bleeding"] = 0
    script_dice(state, 3)  # 3 < Mettle 4: 1 wound
    events = state.apply(PASS)
    bleed = one(events, "bleeding")
    assert (bleed["model"], bleed["die"], bleed["wounded"]) == ("b1", 3, True)
    assert one(events, "wound")["cause"] == "bleeding" and state.models[0].wounds == 1
    script_dice(state)
    assert not of_type(state.apply(PASS), "bleeding")  # red's turn end: not blue's models


def test_exhausted_caps_activation_dice_at_two(mini_game):
    state = mini_game(TWO)
    state.models[0].conditions["exhausted"] = 0
    state._legal = None
    dice = {d.dice for d in state.legal_decisions() if d.kind == "activate"}
    assert dice == {1, 2}


# ----------------------------------------------------------------------------- expiry
def test_aiming_expires_at_the_end_of_the_activation(mini_game, script_dice):
    state = mini_game([*TWO, ("blue", "trooper", "b2", (2, 2))])
    activate(state, script_dice, 0, [4, 4])
    state.apply(Decision("aim", model=0))
    events = state.apply(END)
    assert conditions_of(events, "b1") == [("aiming", False)]


def test_hunkered_lasts_until_the_start_of_the_next_activation(mini_game, script_dice):
    state = mini_game(TWO)
    activate(state, script_dice, 0, [4])
    state.apply(Decision("take_cover", model=0))
    assert "hunkered" in state.models[0].conditions
    state.apply(PASS)  # red passes; blue's turn again
    events = activate(state, script_dice, 0, [4])
    assert conditions_of(events, "b1") == [("hunkered", False)]
    kinds = [e["type"] for e in events]
    assert kinds.index("condition") < kinds.index("activation")


def test_exposed_lasts_until_the_end_of_the_next_activation(mini_game, script_dice):
    state = mini_game(TWO)
    activate(state, script_dice, 0, [4])
    state.rng.push(3, 3)  # Partial: the shooter is Exposed
    state.apply(Decision("shoot", model=0, target=1))
    assert "exposed" in state.models[0].conditions  # survives the end of this activation
    state.apply(PASS)
    activate(state, script_dice, 0, [4])
    assert "exposed" in state.models[0].conditions
    events = state.apply(END)
    assert conditions_of(events, "b1") == [("exposed", False)]


# ----------------------------------------------------------------------------- complications
COMPLICATIONS = [
    pytest.param(1, "Lost footing", id="1 lost footing: prone"),
    pytest.param(2, "Stress", id="2 stress: strain"),
    pytest.param(3, "Lost time", id="3 lost time: activation ends"),
    pytest.param(4, "Enemy advantage", id="4 enemy advantage"),
    pytest.param(5, "Gear trouble", id="5 gear trouble"),
    pytest.param(6, "Exposed position", id="6 exposed position"),
]


@pytest.mark.parametrize(("face", "name"), COMPLICATIONS)
def test_complications_on_a_missed_shot(mini_game, script_dice, face, name):
    state = mini_game(TWO)
    state.momentum["blue"] = 1
    activate(state, script_dice, 0, [4, 4])
    state.rng.push(1, 1, face)  # 4 vs 8: Miss, even with a reroll
    events = act(state, Decision("shoot", model=0, target=1))
    complication = one(events, "complication")
    assert (complication["model"], complication["roll"], complication["name"]) == ("b1", face, name)
    assert complication["text"]  # setting flavour text
    changes = {
        1: lambda: conditions_of(events, "b1") == [("prone", True)],
        2: lambda: state.models[0].strain == 1,
        3: lambda: state.phase == "activate" and state.active_model is None,
        4: lambda: state.momentum == {"blue": 1, "red": 1},
        5: lambda: state.momentum == {"blue": 0, "red": 0},
        6: lambda: conditions_of(events, "b1") == [("exposed", True)],
    }
    assert changes[face]()
    if face != 3:
        assert state.active_model == 0 and state.actions_left == 1
