"""New native games from a mission's start template (riven_env/native/start.py) are the games
built from scratch: the same events, state and stream, for every bundled mission."""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.engines import new_game
from riven_env.game.events import dumps_event
from riven_env.game.runner import play
from riven_env.game.setup import prepare_game
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")

from tests.native_games import agents, missions  # noqa: E402


def _from_scratch(mission: str, seed: int | None, overrides=None):
    """new_game(engine="native") as it was before templates: the Python start, then the core's."""
    from riven_env.native.loop import NativeGameState

    state = prepare_game(mission, seed, overrides=overrides)
    state.start()
    return NativeGameState.from_python(state)


def _same_start(a, b) -> None:
    from riven_env.native.game import native_view
    from riven_env.native.random import numpy_state

    assert [dumps_event(e) for e in a.drain_events()] == [dumps_event(e) for e in b.drain_events()]
    assert native_view(a.native) == native_view(b.native)
    assert numpy_state(a.native.rng) == numpy_state(b.native.rng)
    assert a.start_state.scenario is b.start_state.scenario


@pytest.mark.parametrize("mission", missions())
def test_every_mission_starts_as_built_from_scratch(mission: str) -> None:
    for seed in range(6):  # both first sides where the mission rolls for it
        _same_start(new_game(mission, seed, engine="native"), _from_scratch(mission, seed))


@pytest.mark.parametrize("system", ["invictus", "new-world", "riddle-of-steel"])
def test_every_system_starts_as_built_from_scratch(system: str) -> None:
    for mission in ("duel-1v1", "skirmish-5v5"):
        for seed in range(3):
            overrides = {"resolution": system}
            _same_start(
                new_game(mission, seed, overrides=overrides, engine="native"),
                _from_scratch(mission, seed, overrides=overrides),
            )


@pytest.mark.parametrize("mission", ["skirmish-5v5", "duel-1v1", "escort-extract"])
def test_games_from_the_template_play_the_same_log(mission: str) -> None:
    for seed, (blue, red) in enumerate((("oracle", "oracle"), ("random", "oracle"))):
        logs = []
        for state in (new_game(mission, seed, engine="native"), _from_scratch(mission, seed)):
            events = state.drain_events()
            events.extend(play(state, agents(blue, red, seed)))
            logs.append([dumps_event(e) for e in events])
        assert logs[0] == logs[1]
        assert len(logs[0]) > 10


def test_each_game_gets_its_own_events_and_state() -> None:
    first = new_game("skirmish-5v5", 1, engine="native")
    events = first.drain_events()
    events[0]["agents"]["blue"] = "changed"
    events[0]["models"][0]["x"] = -1.0
    first.apply(first.legal_decisions()[0])
    second = new_game("skirmish-5v5", 1, engine="native")
    _same_start(second, _from_scratch("skirmish-5v5", 1))


def test_seed_none_and_seed_sequence() -> None:
    game = new_game("duel-1v1", None, engine="native")
    assert game.drain_events()[0]["seed"] is None
    sequence = np.random.SeedSequence(5)
    _same_start(
        new_game("duel-1v1", sequence, engine="native"),
        _from_scratch("duel-1v1", np.random.SeedSequence(5)),
    )


def test_equal_rules_share_one_start() -> None:
    from riven_env.native import start

    start.clear_starts()
    for seed in range(4):
        game = new_game("skirmish-5v5", seed, overrides={"turnover": "sbh"}, engine="native")
        _same_start(game, _from_scratch("skirmish-5v5", seed, overrides={"turnover": "sbh"}))
    # one start per first side, however many times the overrides were loaded
    assert len(start._STARTS) <= 2


def test_a_start_that_draws_is_built_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from riven_env.game.state import GameState
    from riven_env.native import start

    start.clear_starts()
    opened = GameState.start

    def drawing_start(self: GameState) -> None:
        self.rng.integers(0, 6)
        opened(self)

    monkeypatch.setattr(GameState, "start", drawing_start)
    for seed in (3, 4):
        _same_start(new_game("duel-1v1", seed, engine="native"), _from_scratch("duel-1v1", seed))
    assert all(found is None for _, found in start._STARTS.values())
    start.clear_starts()


def test_auto_leaves_an_unported_system_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    from riven_env.game.state import GameState
    from riven_env.native import NativeUnavailableError, rules, start

    start.clear_starts()
    monkeypatch.setattr(rules, "NATIVE_SYSTEMS", ("invictus",))
    monkeypatch.setattr("riven_env.native.loop.NATIVE_SYSTEMS", ("invictus",))
    assert isinstance(new_game("duel-1v1", 0, engine="auto"), GameState)
    with pytest.raises(NativeUnavailableError, match="riven"):
        new_game("duel-1v1", 0, engine="native")
    start.clear_starts()
