"""Morale flight read back from event logs alone (``riven_env.game.flightlog``).

First the checker itself, on hand-written logs that break each invariant; then the games the
rules audit of issue 11 found at fault; then a soak over every bundled mission with oracle,
random and greedy agents (``slow``). The full soak of 2,000+ games is
``python3 benchmarks/flight_soak.py --seeds 24 --workers 2``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from riven_env.engines import play_game
from riven_env.game.flightlog import audit_flights
from riven_env.scenario import list_bundled


def _log(*events):
    start = {
        "type": "game_start",
        "seq": 0,
        "table": {"width": 24, "height": 24},
        "models": [
            {"id": "r1", "x": 12.0, "y": 20.0, "base": 1.0},
            {"id": "b1", "x": 12.0, "y": 4.0, "base": 1.0},
        ],
    }
    return [start, *({"seq": k + 1, **e} for k, e in enumerate(events))]


def _morale(fled_off=False):
    return {"type": "morale", "model": "r1", "passed": False, "fled_off_table": fled_off}


def _flee(to):
    return {"type": "move", "model": "r1", "kind": "flee", "to": list(to)}


def test_a_sound_log_has_no_violation():
    audit = audit_flights(
        _log(
            _morale(True),
            _flee((12, 23.5)),
            {"type": "removed", "model": "r1", "reason": "fled"},
            {"type": "activation", "model": "b1"},
        )
    )
    assert (audit.flights, audit.fled, audit.violations) == (1, 1, [])


@pytest.mark.parametrize(
    ("events", "violation"),
    [
        ((_morale(), _flee((12, 15))), "farther"),
        ((_morale(), _flee((21, 19))), "farther"),  # nearer the right edge, farther from the top
        ((_morale(), _flee((12, 23.5))), "stayed_at_edge"),
        ((_morale(True), _flee((12, 22))), "flag"),
        (
            (
                _morale(True),
                _flee((12, 23.5)),
                {"type": "removed", "model": "r1", "reason": "fled"},
                {"type": "action", "model": "r1"},
            ),
            "acted_after_fleeing",
        ),
    ],
    ids=["away from the edge", "toward another edge", "at the edge", "flag", "acts again"],
)
def test_each_broken_invariant_is_found(events, violation):
    found = audit_flights(_log(*events)).violations
    assert len(found) == 1 and found[0].startswith(violation), found


#: The missions as they were when the audit found these flights at fault (before issue 15
#: tuned them): the same seeds on the tuned files play other games, without the flights.
REGRESSIONS = Path(__file__).parent / "data" / "pre-balance"


@pytest.mark.parametrize(
    "case",
    [
        # Seed 19 was the fault (red-champion stayed at y = 0.5 and fought on); since Focus may
        # be taken twice and Rest bans a bonus action's attacks (issue 38), it plays a game
        # without a flight. Seed 20 is the next of that mission and pairing with one.
        ("duel-1v1", "greedy", "oracle", 20),
        ("dungeon-crawl", "greedy", "oracle", 13),  # blue-2 walked back into play
        ("scifi-derelict", "random", "oracle", 15),  # a flight ended 5" farther from the edge
    ],
    ids=lambda case: f"{case[0]} {case[1]}-{case[2]} {case[3]}",
)
def test_the_flights_found_at_fault_are_sound(case):
    mission, blue, red, seed = case
    audit = audit_flights(play_game(str(REGRESSIONS / f"{mission}.toml"), blue, red, seed))
    assert audit.flights > 0 and audit.violations == []


# (blue, red, seeds): the CI share of the soak; benchmarks/flight_soak.py runs the 2,000+.
PAIRINGS = (
    ("oracle", "oracle", 2),
    ("random", "random", 2),
    ("random", "oracle", 1),
    ("greedy", "oracle", 1),
)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", [info.name for info in list_bundled()])
def test_flight_invariants_hold_over_every_bundled_mission(scenario):
    for blue, red, seeds in PAIRINGS:
        for seed in range(seeds):
            audit = audit_flights(play_game(scenario, blue, red, seed))
            assert audit.violations == [], (blue, red, seed, audit.violations)
