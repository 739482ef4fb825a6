"""Game summaries are derived from the event log alone."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from playtest_fake_game import FAKE_SCENARIO
from playtest_fake_game import play_game as fake_play_game

from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.summary import GameSummary, summarise_game


def _start(**extra):
    models = [
        {"id": "blue-0", "side": "blue", "profile": "veteran", "name": "Vet", "mettle": 3,
         "wounds": 2, "oracle": None},
        {"id": "red-0", "side": "red", "profile": "brute", "name": "Brute", "mettle": 4,
         "wounds": 3, "oracle": "aggressive"},
        {"id": "red-1", "side": "red", "profile": "brute", "name": "Brute", "mettle": 4,
         "wounds": 3, "oracle": "aggressive"},
    ]  # fmt: skip
    event = {"type": "game_start", "scenario": "hand", "seed": 11, "first_side": "red",
             "agents": {"blue": "random", "red": "oracle"},
             "sides": {"blue": {"name": "B"}, "red": {"name": "R"}}, "models": models}  # fmt: skip
    event.update(extra)
    return event


def _log():
    e = [
        _start(),
        {"type": "activation", "side": "red", "model": "red-0", "mettle": 4, "dice": [5, 2],
         "successes": 1, "actions": 1, "turn_passes": True, "bonus": False, "round": 1},
        {"type": "oracle_decision", "side": "red", "model": "red-0", "profile": "aggressive",
         "rule": "charge_weakest", "round": 1},
        {"type": "melee", "attacker": "red-0", "defender": "blue-0", "outcome": "wound",
         "winner": "red-0", "loser": "blue-0", "round": 1},
        {"type": "wound", "model": "blue-0", "amount": 1, "wounds_left": 1, "source": "red-0",
         "round": 1},
        {"type": "activation", "side": "blue", "model": "blue-0", "mettle": 3, "dice": [3, 4, 6],
         "successes": 3, "actions": 3, "turn_passes": False, "bonus": False, "round": 1},
        {"type": "shot", "shooter": "blue-0", "target": "red-1", "result": "critical", "round": 1},
        {"type": "wound", "model": "red-1", "amount": 3, "wounds_left": 0, "source": "blue-0",
         "round": 1},
        {"type": "down", "model": "red-1", "round": 1},
        {"type": "morale", "model": "red-0", "passed": False, "fled_off_table": True, "round": 1},
        {"type": "removed", "model": "red-0", "reason": "fled", "round": 1},
        {"type": "momentum", "owner": "blue", "delta": 1, "reason": "critical", "round": 1},
        {"type": "momentum", "owner": "blue", "delta": -1, "reason": "reroll", "round": 1},
        {"type": "strain", "model": "blue-0", "delta": 2, "reason": "max dice", "round": 1},
        {"type": "strain", "model": "blue-0", "delta": -2, "reason": "miss to partial",
         "round": 2},
        {"type": "decision", "side": "blue", "round": 2},
        {"type": "game_end", "winner": "blue", "draw": False, "reason": "eliminate", "rounds": 2,
         "points": {"blue": 3, "red": 0}},
    ]  # fmt: skip
    return e


def test_hand_built_log_counts_everything():
    s = summarise_game(_log())
    assert (s.scenario, s.seed, s.winner, s.draw, s.reason, s.rounds, s.first_side) == (
        "hand",
        11,
        "blue",
        False,
        "eliminate",
        2,
        "red",
    )
    blue, red = s.sides["blue"], s.sides["red"]
    assert (blue.wounds_dealt, blue.wounds_taken, red.wounds_dealt, red.wounds_taken) == (
        3,
        1,
        1,
        3,
    )
    assert (red.models, red.down, red.out, red.fled, red.survivors) == (2, 1, 0, 1, 0)
    assert (blue.survivors, blue.points, red.points) == (1, 3, 0)
    assert (red.morale_tests, red.morale_failures, red.morale_flights) == (1, 1, 1)
    assert blue.momentum_gained_by_reason == {"critical": 1}
    assert blue.momentum_spent_by_reason == {"reroll": 1}
    assert (blue.strain_gained, blue.strain_spent) == (2, 2)
    assert blue.shots == {"total": 1, "miss": 0, "partial": 0, "hit": 0, "critical": 1}
    assert (red.melees["won"], red.melees["initiated"], blue.melees["lost"]) == (1, 1, 1)
    assert [(t.mettle, t.dice, t.count, t.actions, t.passed) for t in red.activations] == [
        (4, 2, 1, 1, 1)
    ]
    assert blue.activation_count == 1 and blue.actions_gained == 3 and blue.turns_passed == 0
    assert [(r.side, r.profile, r.rule, r.count) for r in s.oracle_rules] == [
        ("red", "aggressive", "charge_weakest", 1)
    ]
    models = {m.model: m for m in s.models}
    assert models["red-0"].status == "fled" and models["red-1"].status == "down"
    assert models["blue-0"].wounds_dealt == 3 and models["blue-0"].shot_wounds == 1
    assert s.decisions == 1


def test_summary_is_json_ready_and_round_trips():
    s = summarise_game(_log())
    data = json.loads(json.dumps(s.to_dict()))
    assert GameSummary.from_dict(data) == s


def test_log_without_game_end_is_unfinished():
    s = summarise_game(_log()[:-1])
    assert (s.winner, s.draw, s.reason, s.rounds) == (None, False, "unfinished", 2)


@pytest.mark.parametrize("events", [[], [{"type": "round_start"}]])
def test_log_must_start_with_game_start(events):
    with pytest.raises(PlaytestError, match="game_start"):
        summarise_game(events)


def test_fake_games_agree_with_raw_event_counts():
    for seed in range(30):
        events = fake_play_game(FAKE_SCENARIO, "oracle:cautious", "random", seed)
        s = summarise_game(events)
        kinds = Counter(e["type"] for e in events)
        assert sum(side.activation_count for side in s.sides.values()) == kinds["activation"]
        assert sum(r.count for r in s.oracle_rules) == kinds["oracle_decision"]
        assert sum(side.out + side.fled for side in s.sides.values()) == kinds["removed"]
        wounds = sum(e["amount"] for e in events if e["type"] == "wound")
        assert sum(side.wounds_taken for side in s.sides.values()) == wounds


def test_real_game_summary_matches_its_log():
    from riven_env.engines import play_game

    events = play_game("duel-1v1", "random", "greedy", 5)
    s = summarise_game(events)
    end = events[-1]
    assert end["type"] == "game_end"
    assert (s.winner, s.draw, s.rounds, s.points) == (
        end["winner"],
        end["draw"],
        end["rounds"],
        end["points"],
    )
    kinds = Counter(e["type"] for e in events)
    assert sum(side.activation_count for side in s.sides.values()) == kinds["activation"]
    assert s.decisions == kinds["decision"]
    assert s.agents == {"blue": "random", "red": "greedy"}
