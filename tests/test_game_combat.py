"""Scripted mini-games for movement, charge, melee, shooting and Down/Out/stabilise.

Each test places the models, scripts the dice with ``script_dice`` and checks the events and
the state after (rules reference: Melee, Shooting, Down and Out; INTERPRETATION readings 3-5).
"""

from __future__ import annotations

import math

import pytest
from game_events import act, of_type, one

from riven_env.game import Decision
from riven_env.game.decisions import ACCEPT, PASS

END = Decision("end")
BUSH = '[[table.terrain]]\nname = "bush"\ntype = "scrub"\ncircle = [5, 15, 1.5]\n'
WALL = '[[table.terrain]]\nname = "wall"\ntype = "low_wall"\nrect = [3, 13.5, 7, 14]\n'


def activate(state, script_dice, i, faces):
    """Activate model ``i`` with the scripted activation dice; return the events."""
    dice = script_dice(state, *faces)
    events = state.apply(Decision("activate", model=i, dice=len(faces)))
    return events, dice


def near(a, b, tol=1e-6):
    return math.dist(a, b) <= tol


# ----------------------------------------------------------------------------- move
def test_move_stays_within_the_allowance_and_records_the_path(mini_game, script_dice):
    state = mini_game([("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (19, 20))])
    activate(state, script_dice, 0, [4])
    moves = [d for d in state.legal_decisions() if d.kind == "move"]
    assert moves, "an unengaged model with an action can move"
    for decision in moves:
        game = state.copy()
        start = game.position(0)
        event = one(game.apply(decision), "move")
        assert event["kind"] == "move" and event["model"] == "b1"
        assert 0 < event["path_length"] <= 5 + 1e-6
        assert near(event["from"], start) and near(event["to"], game.position(0))
        assert near(event["path"][0], start) and near(event["path"][-1], event["to"])
        assert math.dist(start, event["to"]) <= event["path_length"] + 1e-6


def test_prone_shortens_the_move_and_moving_stands_up(mini_game, script_dice):
    state = mini_game([("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (19, 20))])
    state.models[0].conditions["prone"] = 0
    activate(state, script_dice, 0, [4])
    move = next(d for d in state.legal_decisions() if d.kind == "move")
    events = state.apply(move)
    assert one(events, "move")["path_length"] <= 3 + 1e-6  # Move 5 - 2" for Prone
    lost = one(events, "condition")
    assert (lost["condition"], lost["gained"], lost["reason"]) == ("prone", False, "move")


STICKY_MELEE = {"engagement.forbids": ["move", "charge", "shoot", "aim"]}


def test_engaged_model_cannot_move_or_shoot_in_the_sticky_melee_variant(mini_game, script_dice):
    state = mini_game(
        [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 6))],
        overrides=STICKY_MELEE,
    )
    activate(state, script_dice, 0, [4])
    kinds = {d.kind for d in state.legal_decisions()}
    assert {"melee", "disengage"} <= kinds
    assert not kinds & {"move", "charge", "shoot", "aim"}


def test_disengage_hit_moves_away_up_to_half_move(mini_game, script_dice):
    state = mini_game([("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 6))])
    activate(state, script_dice, 0, [4])
    decision = next(d for d in state.legal_decisions() if d.kind == "disengage")
    state.rng.push(4, 4)  # 8 + Agility 2 = 10 vs Standard 8: Hit
    events = state.apply(decision)
    assert one(events, "test")["result"] == "hit"
    move = one(events, "move")
    assert move["kind"] == "disengage" and move["path_length"] <= 2.5 + 1e-6
    assert not state.is_engaged(0)


def test_disengage_miss_stays_engaged_and_rolls_a_complication(mini_game, script_dice):
    state = mini_game([("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 6))])
    activate(state, script_dice, 0, [4, 4])
    decision = next(d for d in state.legal_decisions() if d.kind == "disengage")
    state.rng.push(1, 1, 2)  # 4 vs 8: Miss; complication d6 = 2 (Stress)
    events = state.apply(decision)
    assert state.phase == "spend"  # a Miss may be bought up with 2 Strain
    assert state.legal_decisions() == [Decision("spend", option="strain"), ACCEPT]
    events += state.apply(ACCEPT)
    assert one(events, "test")["result"] == "miss"
    assert not of_type(events, "move") and state.is_engaged(0)
    assert one(events, "complication")["name"] == "Stress"


# ----------------------------------------------------------------------------- charge
def test_charge_moves_into_contact_and_strikes_first_at_plus_two_once(mini_game, script_dice):
    state = mini_game([("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 9))])
    activate(state, script_dice, 0, [4, 4])
    charge = Decision("charge", model=0, target=1)
    assert charge in state.legal_decisions()
    state.rng.push(2, 2, 3, 3)  # 4 + 2 + charge 2 = 8 vs 6 + 2 = 8: parry
    events = state.apply(charge)
    move = one(events, "move")
    assert move["kind"] == "charge" and move["path_length"] <= 5 + 1e-6
    assert state.is_engaged(0)
    melee = one(events, "melee")
    assert melee["attacker_modifiers"] == [{"source": "charge", "value": 2}]
    assert (melee["attacker_total"], melee["defender_total"], melee["outcome"]) == (8, 8, "parry")
    state.rng.push(3, 3, 3, 3)
    second = one(state.apply(Decision("melee", model=0, target=1)), "melee")
    assert second["attacker_modifiers"] == [] and second["outcome"] == "parry"


def test_charge_reach_is_the_move(mini_game, script_dice):
    state = mini_game([("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 12))])
    activate(state, script_dice, 0, [4])
    assert not any(d.kind == "charge" for d in state.legal_decisions())  # 6" gap > Move 5


def test_terror_charge_tests_the_target_before_the_strike(mini_game, script_dice):
    state = mini_game([("blue", "horror", "b1", (5, 5)), ("red", "brawler", "r1", (5, 9))])
    activate(state, script_dice, 0, [4])
    state.rng.push(4, 2, 2, 3, 3)  # morale die 4 vs Mettle 4: passed; then 8 vs 8
    events = state.apply(Decision("charge", model=0, target=1))
    morale = one(events, "morale")
    assert (morale["model"], morale["trigger"], morale["passed"]) == ("r1", "terror_charge", True)
    kinds = [e["type"] for e in events]
    assert kinds.index("morale") < kinds.index("melee")


# ----------------------------------------------------------------------------- melee
MELEE = [
    # attacker dice, defender dice, totals, outcome, winner
    pytest.param((3, 3), (3, 3), (8, 8), "parry", None, id="tie: parry"),
    pytest.param((4, 3), (3, 3), (9, 8), "recoil", "b1", id="win by 1: recoil"),
    pytest.param((6, 5), (3, 3), (13, 8), "wound", "b1", id="win by 5: wound"),
    pytest.param((6, 6), (1, 1), (14, 4), "critical", "b1", id="double: critical"),
    pytest.param((5, 5), (2, 2), (12, 6), "critical", "b1", id="double beats the margin"),
    pytest.param((1, 1), (6, 6), (4, 14), "critical", "r1", id="the initiator can lose"),
    pytest.param((2, 2), (4, 3), (6, 9), "recoil", "r1", id="initiator recoils"),
]


@pytest.mark.parametrize(("a_dice", "d_dice", "totals", "outcome", "winner"), MELEE)
def test_melee_outcomes(mini_game, script_dice, a_dice, d_dice, totals, outcome, winner):
    state = mini_game(
        [
            ("blue", "brawler", "b1", (5, 5)),
            ("red", "brawler", "r1", (5, 6)),
            ("red", "brawler", "r2", (20, 20)),
        ]
    )
    activate(state, script_dice, 0, [4])
    state.rng.push(*a_dice, *d_dice)
    if outcome == "recoil":
        state.rng.push(4)  # the recoiled model's morale test: passed
    events = state.apply(Decision("melee", model=0, target=1))
    melee = one(events, "melee")
    assert (melee["attacker_total"], melee["defender_total"]) == totals
    assert melee["outcome"] == outcome and melee["winner"] == winner
    assert state.rng.remaining == 0
    if winner is None:
        assert not of_type(events, "wound") and not of_type(events, "move")
        return
    loser = 1 if winner == "b1" else 0
    loser_id = state.models[loser].id
    if outcome == "recoil":
        push = one(events, "move")
        assert push["kind"] == "recoil" and push["model"] == loser_id
        assert push["path_length"] == pytest.approx(2.0)
        assert math.dist(state.position(0), state.position(1)) == pytest.approx(3.0)
        assert one(events, "strain")["reason"] == "recoiled"
        assert one(events, "morale")["trigger"] == "recoiled"
        assert state.models[loser].wounds == 2
    else:
        wound = one(events, "wound")
        assert wound["model"] == loser_id and wound["amount"] == 1 and wound["wounds_left"] == 1
        assert state.models[loser].wounds == 1
        strain = [e["reason"] for e in of_type(events, "strain") if e["model"] == loser_id]
        assert strain == ["wound"]
        dazed = [e for e in of_type(events, "condition") if e["condition"] == "dazed"]
        assert bool(dazed) == (outcome == "critical")


def test_outnumbered_model_takes_minus_one_per_extra_enemy(mini_game, script_dice):
    state = mini_game(
        [
            ("blue", "brawler", "b1", (5, 5)),
            ("blue", "brawler", "b2", (6, 6)),
            ("blue", "brawler", "b3", (4, 6)),
            ("red", "brawler", "r1", (5, 6)),
            ("red", "brawler", "r2", (20, 20)),
        ]
    )
    activate(state, script_dice, 0, [4])
    state.rng.push(3, 3, 3, 3, 4)  # 8 vs 8 - 2 = 6: r1 recoils; its morale die 4 passes
    melee = one(state.apply(Decision("melee", model=0, target=3)), "melee")
    assert melee["attacker_modifiers"] == []
    assert melee["defender_modifiers"] == [{"source": "outnumbered", "value": -2}]
    assert (melee["attacker_total"], melee["defender_total"], melee["outcome"]) == (8, 6, "recoil")


def test_dazed_model_gets_one_action_and_minus_one_in_melee(mini_game, script_dice):
    state = mini_game([("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 6))])
    state.models[0].conditions["dazed"] = 0
    events, _ = activate(state, script_dice, 0, [4, 5, 6])
    assert one(events, "activation")["actions"] == 3 and state.actions_left == 1
    state.rng.push(4, 3, 3, 3)  # 7 + 2 - 1 = 8 vs 8: parry
    events = state.apply(Decision("melee", model=0, target=1))
    assert one(events, "melee")["attacker_modifiers"] == [
        {"source": "condition:dazed", "value": -1}
    ]
    expired = one(events, "condition")  # Dazed ends at the end of its next activation
    assert (expired["condition"], expired["gained"]) == ("dazed", False)


# ----------------------------------------------------------------------------- shooting
@pytest.mark.parametrize(
    ("terrain", "cover", "tn"),
    [("", "none", 8), (BUSH, "soft", 10), (WALL, "hard", 12)],
    ids=["open", "soft", "hard"],
)
def test_shot_tn_follows_the_cover(mini_game, script_dice, terrain, cover, tn):
    state = mini_game(
        [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))], terrain=terrain
    )
    activate(state, script_dice, 0, [4])
    state.rng.push(5, 5)  # 10 + Agility 2 = 12
    events = state.apply(Decision("shoot", model=0, target=1))
    shot = one(events, "shot")
    assert (shot["cover"], shot["tn"], shot["total"]) == (cover, tn, 12)
    expected = {8: "critical", 10: "hit", 12: "partial"}[tn]
    assert shot["result"] == expected


def test_exposed_target_loses_its_cover_and_hunkered_gains_a_step(mini_game, script_dice):
    exposed = mini_game(
        [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))], terrain=WALL
    )
    exposed.models[1].conditions["exposed"] = 0
    activate(exposed, script_dice, 0, [4])
    exposed.rng.push(3, 3)
    assert one(exposed.apply(Decision("shoot", model=0, target=1)), "shot")["tn"] == 8
    hunkered = mini_game(
        [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))], terrain=BUSH
    )
    hunkered.models[1].conditions["hunkered"] = 0
    activate(hunkered, script_dice, 0, [4])
    hunkered.rng.push(3, 3, 2)  # 8 vs 12: Miss; complication 2 (Stress)
    shot = one(act(hunkered, Decision("shoot", model=0, target=1)), "shot")
    assert (shot["cover"], shot["tn"]) == ("hard", 12)


SHOTS = [
    pytest.param((1, 1, 2), "miss", 0, id="miss: complication"),
    pytest.param((3, 3), "partial", 1, id="partial: wound, shooter exposed"),
    pytest.param((4, 3), "hit", 1, id="hit: wound"),
    pytest.param((6, 6), "critical", 1, id="critical: wound, push 3, momentum"),
]


@pytest.mark.parametrize(("dice", "band", "wounds"), SHOTS)
def test_shot_bands(mini_game, script_dice, dice, band, wounds):
    state = mini_game([("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))])
    activate(state, script_dice, 0, [4])
    state.rng.push(*dice)
    events = act(state, Decision("shoot", model=0, target=1))
    assert one(events, "shot")["result"] == band and state.rng.remaining == 0
    assert state.models[1].wounds == 2 - wounds
    exposed = [e for e in of_type(events, "condition") if e["condition"] == "exposed"]
    assert [e["model"] for e in exposed] == (["b1"] if band == "partial" else [])
    pushes = of_type(events, "move")
    complications = of_type(events, "complication")
    assert bool(complications) == (band == "miss")
    if band == "critical":
        (push,) = pushes
        assert push["kind"] == "push" and push["model"] == "r1"
        assert push["path_length"] == pytest.approx(3.0) and state.position(1)[1] == pytest.approx(
            18
        )
        momentum = one(events, "momentum")
        assert (momentum["delta"], momentum["reason"], state.momentum["blue"]) == (1, "critical", 1)
    else:
        assert pushes == []


def test_no_shooting_into_melee_unless_adjacent_to_a_friend_in_it(mini_game, script_dice):
    far = mini_game(
        [
            ("blue", "trooper", "b1", (5, 5)),
            ("blue", "brawler", "b2", (5, 14)),
            ("red", "trooper", "r1", (5, 15)),
            ("red", "trooper", "r2", (12, 12)),
        ]
    )
    activate(far, script_dice, 0, [4])
    targets = {d.target for d in far.legal_decisions() if d.kind == "shoot"}
    assert targets == {3}  # r1 is in melee with b2; r2 is free
    beside = mini_game(
        [
            ("blue", "trooper", "b1", (6, 14)),
            ("blue", "brawler", "b2", (5, 14)),
            ("red", "trooper", "r1", (5, 15)),
            ("red", "trooper", "r2", (12, 12)),
        ]
    )
    activate(beside, script_dice, 0, [4])
    assert not beside.is_engaged(0)
    assert {d.target for d in beside.legal_decisions() if d.kind == "shoot"} == {2, 3}


def test_aim_adds_one_to_the_next_shot_and_the_shot_ends_it(mini_game, script_dice):
    state = mini_game([("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))])
    activate(state, script_dice, 0, [4, 4, 4])
    gained = one(state.apply(Decision("aim", model=0)), "condition")
    assert (gained["condition"], gained["gained"]) == ("aiming", True)
    assert Decision("aim", model=0) not in state.legal_decisions()
    state.rng.push(3, 2)
    events = state.apply(Decision("shoot", model=0, target=1))
    shot = one(events, "shot")
    assert shot["modifiers"] == [{"source": "condition:aiming", "value": 1}] and shot["total"] == 8
    assert "aiming" not in state.models[0].conditions


# ----------------------------------------------------------------------------- Down and Out
DOWN_SETUP = [
    ("blue", "trooper", "b1", (5, 5)),
    ("blue", "trooper", "b2", (2, 2)),
    ("red", "trooper", "r1", (5, 15)),
    ("red", "trooper", "r2", (20, 22)),
    ("red", "trooper", "r3", (22, 22)),
]


def _shoot_down(state, script_dice):
    state.models[2].wounds = 1
    activate(state, script_dice, 0, [4])
    state.rng.push(4, 3)  # Hit
    return state.apply(Decision("shoot", model=0, target=2))


def test_zero_wounds_is_down_and_a_down_model_never_activates(mini_game, script_dice):
    state = mini_game(DOWN_SETUP)
    events = _shoot_down(state, script_dice)
    assert one(events, "down")["model"] == "r1" and state.models[2].status == "down"
    assert not of_type(events, "strain")  # no wound Strain for a model that went Down
    events = state.apply(PASS)  # the end of blue's turn: no Out check for red's model
    assert not of_type(events, "out_check")
    assert state.current_side == "red"
    assert all(d.model != 2 for d in state.legal_decisions())


@pytest.mark.parametrize(("die", "out"), [(3, True), (4, False)], ids=["below Mettle", "meets"])
def test_out_check_at_the_end_of_the_owning_sides_turn(mini_game, script_dice, die, out):
    state = mini_game(DOWN_SETUP)
    _shoot_down(state, script_dice)
    state.apply(PASS)
    script_dice(state, die)
    events = state.apply(PASS)  # end of red's turn
    check = one(events, "out_check")
    assert (check["model"], check["die"], check["out"]) == ("r1", die, out)
    kinds = [e["type"] for e in events]
    assert kinds.index("out_check") < kinds.index("turn_end")
    if out:
        assert one(events, "removed") == {**one(events, "removed"), "model": "r1", "reason": "out"}
        assert state.models[2].status == "out" and not state.bases.on_table[2]
    else:
        assert state.models[2].status == "down"


def test_stabilised_model_stops_rolling_for_out(mini_game, script_dice):
    setup = [*DOWN_SETUP[:3], ("red", "trooper", "r2", (7, 16)), DOWN_SETUP[4]]
    state = mini_game(setup)
    _shoot_down(state, script_dice)
    state.apply(PASS)
    activate(state, script_dice, 3, [4])
    stabilise = Decision("stabilise", model=3, target=2)
    assert stabilise in state.legal_decisions()
    events = state.apply(stabilise)
    assert one(events, "stabilise") == {**one(events, "stabilise"), "model": "r1", "by": "r2"}
    script_dice(state)  # no die may be drawn now
    events = state.apply(PASS)
    assert not of_type(events, "out_check") and state.models[2].stable


def test_stabilise_needs_an_ally_within_three_inches(mini_game, script_dice):
    state = mini_game(DOWN_SETUP)
    _shoot_down(state, script_dice)
    state.apply(PASS)
    activate(state, script_dice, 3, [4])
    assert not any(d.kind == "stabilise" for d in state.legal_decisions())
