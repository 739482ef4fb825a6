"""The native game state (cpp/riven/game) holds every field of the Python GameState.

States after every decision of real seeded games on every bundled mission are exported with
``to_native`` and viewed back: every field agrees; copies are independent and equal; the native
event writer gives the Python writer's bytes for every event of those games.
"""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.game.events import dumps_event as python_dumps_event
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

if available():
    from riven_env.native.game import (
        NativeStateError,
        dumps_event,
        dumps_events,
        native_view,
        python_view,
        to_native,
    )

from native_games import cases, game, mission_states, missions  # noqa: E402


@pytest.mark.parametrize("mission", missions())
def test_every_field_of_sampled_states_round_trips(mission: str) -> None:
    states = mission_states(mission)
    phases = set()
    for state in states:
        expected = python_view(state)
        assert native_view(to_native(state)) == expected, (mission, state)
        phases.add(expected["phase"])
    # The games reach the decision points that carry the most state.
    assert {"activate", "action", "over"} <= phases


def test_the_samples_cover_pending_spends_conditions_and_casualties() -> None:
    seen = {"pending": 0, "conditions": 0, "down": 0, "out": 0, "last_position": 0, "taken": 0}
    for mission in missions():
        for state in mission_states(mission):
            view = native_view(to_native(state))
            seen["pending"] += view["pending"] is not None
            seen["taken"] += bool(view["taken_actions"])
            for m in view["models"]:
                seen["conditions"] += bool(m["conditions"])
                seen["down"] += m["status"] == "down"
                seen["out"] += m["status"] in ("out", "fled")
                seen["last_position"] += m["last_position"] is not None
    assert all(count > 0 for count in seen.values()), seen


def test_fields_real_games_rarely_reach_round_trip_too() -> None:
    # No sampled game loots an objective or hands the choice to the other side: set them by hand.
    mission = next(m for m in missions() if game(m, "oracle", "oracle", 0)[0][0].objectives)
    states, _ = game(mission, "oracle", "oracle", 0)
    state = states[len(states) // 2].copy()
    state.looted = {0}
    state.half_strength_tested = {"red"}
    state.decider = "red"
    state.end_reason = "objective"
    state.winner = "blue"
    state.models[1].resources["luck"] = 2
    state.last_position[0] = (1.25, -3.5)
    view = python_view(state)
    assert native_view(to_native(state)) == view
    assert view["current_side"] == "red"


def test_copies_are_equal_and_independent() -> None:
    states, _ = game("skirmish-5v5", "oracle", "oracle", 0)
    native = to_native(states[len(states) // 2])
    copy = native.copy()
    assert native_view(copy) == native_view(native)
    fields = list(copy.model(0))
    fields[3] = fields[3] + 1  # wounds
    copy.set_model(0, tuple(fields))
    copy.round = copy.round + 1
    copy.rng.next_uint64()
    assert native.model(0)[3] == fields[3] - 1
    assert native_view(copy)["round"] == native_view(native)["round"] + 1
    assert native_view(copy)["rng"] != native_view(native)["rng"]
    # One static part for every copy: a copy owns only its flat blocks.
    assert copy.statics is not None
    assert copy.owned_bytes() == native.owned_bytes()


def test_the_random_stream_continues_where_the_python_game_stands() -> None:
    states, _ = game("duel-1v1", "random", "random", 1)
    state = states[len(states) // 2]
    native = to_native(state)
    reference = state.copy().rng
    assert [native.rng.integers(1, 7) for _ in range(200)] == [
        int(reference.integers(1, 7)) for _ in range(200)
    ]


def test_a_state_it_cannot_hold_is_refused_by_name() -> None:
    states, _ = game("duel-1v1", "oracle", "oracle", 0)
    state = states[0].copy()
    state.models[0].conditions["not-a-condition"] = 0
    with pytest.raises(NativeStateError, match="not-a-condition"):
        to_native(state)
    state = states[0].copy()
    state.rng = np.random.Generator(np.random.MT19937(1))
    with pytest.raises(Exception, match="PCG64"):
        to_native(state)


@pytest.mark.parametrize("mission", missions())
def test_the_native_event_writer_writes_the_python_bytes(mission: str) -> None:
    for case in cases(mission):
        _, events = game(mission, *case)
        assert events
        expected = "".join(python_dumps_event(e) + "\n" for e in events)
        assert dumps_events(events) == expected
        for event in events[:50]:
            assert dumps_event(event) == python_dumps_event(event)


@pytest.mark.parametrize(
    "value",
    [
        0.1,
        1 / 3,
        -2.5e-5,
        1e-4,
        0.00005,
        0.00015,
        12345.678951,
        1e15,
        1e16,
        1.5e17,
        -0.0,
        2.0**60,
        float("inf"),
        float("-inf"),
        float("nan"),
        123456789.00005,
        5e-324,
        1.7976931348623157e308,
    ],
)
def test_floats_are_rounded_and_printed_as_python_does(value: float) -> None:
    event = {"type": "x", "value": value, "nested": [{"v": value}, (value, -value)]}
    assert dumps_event(event) == python_dumps_event(event)


def test_strings_ints_and_numpy_scalars_are_written_as_python_does() -> None:
    event = {
        "type": 't"q\\\n\t\r\b\f\x01\x1f é ∑ 🙂',
        "big": 2**80,
        "neg": -(2**70),
        "np_int": np.int64(-7),
        "np_float": np.float64(0.123456),
        "np_bool": np.bool_(True),
        1: "int key",
        "none": None,
        "flags": [True, False],
    }
    assert dumps_event(event) == python_dumps_event(event)


def test_a_value_without_json_form_is_refused() -> None:
    with pytest.raises(NativeStateError, match="set"):
        dumps_event({"type": "x", "bad": {1, 2}})


@pytest.mark.parametrize("mission", ["skirmish-5v5", "dungeon-crawl", "solo-hero-horde"])
def test_a_game_continued_from_the_native_state_plays_on_identically(mission: str) -> None:
    from riven_agents.registry import make_agent

    from riven_env.game.events import dumps_event as write
    from riven_env.game.runner import play
    from riven_env.native.game import from_native

    states, _ = game(mission, "oracle", "random", 2)
    for k in range(1, len(states) - 1, max(1, len(states) // 6)):
        original = states[k].copy()
        restored = from_native(to_native(original), like=states[0])
        assert python_view(restored) == python_view(original)
        runs = []
        for state in (original, restored):
            agents = {
                side: make_agent("oracle", side, [5, n]) for n, side in enumerate(("blue", "red"))
            }
            runs.append([write(e) for e in play(state, agents)])
        assert runs[0] == runs[1], (mission, k)
