"""The native game loop plays New World (``resolution = "new-world"``) as the Python engine does.

New World's pending roll (its bonus and difficulty, helpers at hand and called, Luck held and
spent by each side, a melee's defender dice) lives in the native state (``Pending::new_world``);
helpers are allocated before the roll (``allocate help:K``), Luck is spent after it (``spend
luck``), a melee's attacker hands the choice to the defender, whose side decides; the aftermath
(Luck spent, the helpers' shared risk) is applied by the core. Seeded games on every bundled
mission are played by both engines:

* in lockstep (the Python agents choosing from the Python list): the legal decisions, the
  current side, the events (``dumps_event``) and the state field by field (``native_view ==
  python_view``, the New World roll included) agree after every decision;
* whole, by ``play`` (the Oracle and random agents, decided in the core): the event logs, as
  JSON dumps, are identical;
* as environments: the batched native environment and the single Gymnasium environment on the
  core give the Python environment's observations, masks and rewards.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from riven_env.game.events import dumps_event
from riven_env.game.runner import agent_seeds, play
from riven_env.game.setup import new_game
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

if available():
    from riven_env.native.game import from_native, native_view, python_view, to_native
    from riven_env.native.loop import NativeGameState

from native_games import batch_lockstep, missions  # noqa: E402

OVERRIDES = {"resolution": "new-world"}
PAIRINGS = (("random", "random"), ("oracle", "oracle"), ("oracle", "random"))
SEEDS = range(4)


def _agents(blue: str, red: str, seed: int) -> dict[str, Any]:
    from riven_agents.registry import make_agent

    seeds = agent_seeds(seed)
    return {
        side: make_agent(spec, side, seeds[side]) for side, spec in (("blue", blue), ("red", red))
    }


def lockstep(mission: str, blue: str, red: str, seed: int) -> tuple[int, list[str], int]:
    """One New World game on both engines at once: (decisions, native event lines, spend points)."""
    python = new_game(mission, seed, overrides=OVERRIDES, engine="python")
    assert python.resolution.name == "new-world"
    native = NativeGameState.from_python(python)
    lines = [dumps_event(e) for e in native.drain_events()]
    agents = _agents(blue, red, seed)
    steps = spend_points = 0
    while not python.is_terminal:
        legal = python.legal_decisions()
        assert native.legal_decisions() == legal, (mission, seed, steps, python.phase)
        assert native.current_side == python.current_side
        spend_points += python.phase == "spend"
        decision = agents[python.current_side].act(python, legal)
        expected = [dumps_event(e) for e in python.apply(decision)]
        got = [dumps_event(e) for e in native.apply(decision)]
        assert got == expected, (mission, seed, steps, str(decision))
        assert native_view(native.native) == python_view(python), (mission, seed, steps)
        lines += got
        steps += 1
    assert native.is_terminal and native.result == python.result
    return steps, lines, spend_points


def _log(mission: str, blue: str, red: str, seed: int, engine: str) -> list[str]:
    state = new_game(mission, seed, overrides=OVERRIDES, engine=engine)
    assert type(state).__name__ == ("NativeGameState" if engine == "native" else "GameState")
    return [json.dumps(e, sort_keys=False) for e in play(state, _agents(blue, red, seed))]


@pytest.mark.parametrize("mission", missions())
def test_new_world_games_match_the_python_engine_step_by_step(mission: str) -> None:
    for blue, red, seed in (("random", "random", 1), ("oracle", "oracle", 0)):
        steps, _, _ = lockstep(mission, blue, red, seed)
        assert steps > 0


@pytest.mark.parametrize("mission", missions())
@pytest.mark.parametrize(("blue", "red"), PAIRINGS)
def test_new_world_event_logs_are_identical(mission: str, blue: str, red: str) -> None:
    rolls = 0
    for seed in SEEDS:
        python = _log(mission, blue, red, seed, "python")
        native = _log(mission, blue, red, seed, "native")
        assert native == python, (mission, blue, red, seed)
        rolls += sum('"system": "new-world"' in line for line in python)
    if blue == "oracle":
        assert rolls > 0  # the Oracle rolls New World tests, shots or melee in every mission


def test_native_games_call_helpers_and_spend_both_sides_luck() -> None:
    lines: list[str] = []
    spend_points = 0
    for mission, blue, red in (
        ("hold-the-line", "random", "random"),
        ("hold-the-line", "oracle", "oracle"),
        ("skirmish-5v5", "oracle", "oracle"),
    ):
        for seed in SEEDS:
            _, found, spends = lockstep(mission, blue, red, seed)
            lines += found
            spend_points += spends
    text = "\n".join(lines)
    assert spend_points > 0
    assert '"kind":"allocate"' in text and '"help:' in text  # helpers, before the roll
    assert '"defender:luck"' in text and '"luck"' in text  # both sides' Luck, after it
    assert '"type":"melee"' in text and '"defender_luck_spent"' in text  # New World's melee
    assert '"reason":"luck spent"' in text  # the aftermath


def test_the_oracle_decides_new_world_choices_in_the_core() -> None:
    from riven_env.native.play import play_in_core

    rules: set[str] = set()
    for mission, seed in (("skirmish-5v5", 1), ("hold-the-line", 2), ("duel-1v1", 0)):
        state = new_game(mission, seed, overrides=OVERRIDES, engine="native")
        events, decisions = play_in_core(state, _agents("oracle", "oracle", seed))
        assert state.is_terminal and decisions > 0  # one core call: no point left to Python
        rules |= {e["rule"] for e in events if e["type"] == "oracle_decision"}
    assert "new-world:luck_turns_it" in rules or "new-world:accept" in rules


def test_a_new_world_pending_roll_crosses_the_seam() -> None:
    seen = unrolled = 0
    for seed in SEEDS:
        python = new_game("hold-the-line", seed, overrides=OVERRIDES, engine="python")
        agents = _agents("random", "random", seed)
        while not python.is_terminal:
            if python.phase == "spend":
                seen += 1
                unrolled += not python.pending[0].rolled
                native = to_native(python)
                assert native.pending_new_world is not None
                assert native_view(native) == python_view(python)
                back = from_native(native, python)
                assert back.pending == python.pending
                assert back.legal_decisions() == python.legal_decisions()
                assert back.current_side == python.current_side
            legal = python.legal_decisions()
            python.apply(agents[python.current_side].act(python, legal))
    assert seen > 3 and unrolled > 0


def test_auto_plays_new_world_on_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    from riven_env.game.engines import ENGINE_VARIABLE, pick_engine

    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    assert isinstance(new_game("duel-1v1", 3, overrides=OVERRIDES), NativeGameState)
    assert pick_engine("auto", ["duel-1v1"], overrides=OVERRIDES) == "native"


@pytest.mark.parametrize(
    ("scenario", "opponent", "learner_side", "steps"),
    [
        ("duel-1v1", "random", "random", 160),
        ("skirmish-5v5", "oracle", "blue", 120),
        ("duel-1v1", "oracle", "red", 160),
        ("ranged-vs-melee", "random", "blue", 200),
        ("hold-the-line", "random", "red", 160),
    ],
)
def test_the_batched_env_plays_new_world_as_the_python_envs(
    scenario: str, opponent: str, learner_side: str, steps: int
) -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.envs.vector import RivenVectorEnv

    n, seed = 3, 5
    batch = RivenVectorEnv(
        n,
        scenario,
        opponent,
        engine="native",
        learner_side=learner_side,
        rules_overrides=OVERRIDES,
    )
    assert batch.backend == "batched"
    envs = [
        RivenSkirmishEnv(
            scenario,
            opponent,
            learner_side=learner_side,
            obs_mode="flat",
            rules_overrides=OVERRIDES,
            engine="python",
        )
        for _ in range(n)
    ]
    batch_lockstep(batch, envs, seed, steps)
    batch.close()


def _same(a: Any, b: Any) -> bool:
    """Observations equal: arrays, or dicts of arrays (the entity and dict modes)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


@pytest.mark.parametrize("obs_mode", ["flat", "entity"])
@pytest.mark.parametrize("opponent", ["random", "oracle"])
def test_the_gymnasium_env_on_the_core_observes_new_world_as_python(
    opponent: str, obs_mode: str
) -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    def make(engine: str) -> RivenSkirmishEnv:
        return RivenSkirmishEnv(
            "ranged-vs-melee", opponent, obs_mode=obs_mode, rules_overrides=OVERRIDES, engine=engine
        )

    native, python = make("native"), make("python")
    a, _ = native.reset(seed=4)
    b, _ = python.reset(seed=4)
    assert isinstance(native.state, NativeGameState)
    rng = np.random.default_rng(4)
    pending = 0
    for _ in range(300):
        assert _same(a, b)
        assert np.array_equal(native.action_masks(), python.action_masks())
        pending += python.state.phase == "spend"
        action = int(rng.choice(np.flatnonzero(python.action_masks())))
        a, ra, ta, ua, _ = native.step(action)
        b, rb, tb, ub, _ = python.step(action)
        assert (ra, ta, ua) == (rb, tb, ub)
        if tb or ub:
            a, _ = native.reset()
            b, _ = python.reset()
    assert pending > 0  # the learner observed its pending New World rolls (the spend phase)
