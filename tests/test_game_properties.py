"""Random legal play never breaks an invariant: property tests, every bundled scenario, soak.

After every decision the :class:`Invariants` checker verifies: wounds, Strain and Momentum
in range; statuses consistent with wounds and the table; removed or Down models never act;
no model activates twice in a side-turn; the legal list is never empty before the end and
empty after it; rounds never pass the limit; ``seq`` is contiguous; ``game_end`` is the
last event and appears once; every event serialises. The soak test (``slow``) plays many
random-vs-random games (and oracle-vs-random ones) across every bundled scenario.
"""

from __future__ import annotations

import functools
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from riven_agents.registry import make_agent

from riven_env.engines import new_game
from riven_env.game import GameState, dumps_event
from riven_env.game.runner import agent_seeds
from riven_env.rules.conditions import condition_specs
from riven_env.scenario import list_bundled, load_scenario

STATUSES = {"active", "down", "out", "fled", "extracted"}
OFF_TABLE = {"out", "fled", "extracted"}
# Event types that only a model able to act produces (the model field is the actor).
ACTOR_EVENTS = {"activation": "model", "action": "model", "melee": "attacker", "shot": "shooter"}
MAX_DECISIONS = 20_000  # far above any real game; reaching it means the loop never ends
TOLERANCE = 0.05  # inches: the tabletop's contact tolerance with margin


@functools.cache
def scenario(name: str):
    """Bundled scenarios load once per process (loading places models: slow)."""
    return load_scenario(name)


def bundled_names() -> list[str]:
    return [info.name for info in list_bundled()]


class Invariants:
    """Checks a game after each decision; collects what it saw for the final checks."""

    def __init__(self, state: GameState, events: list[dict]) -> None:
        self.cap = state.rules.get("momentum.cap")
        self.known_conditions = set(condition_specs(state.rules))
        self.seq = -1
        self.activated: set[tuple[int, str, str]] = set()
        self.ended = 0
        self.decisions = 0
        self.check(state, events, unable=set())

    def unable(self, state: GameState) -> set[str]:
        """Ids of the models that may not act now (Down or off the table)."""
        return {m.id for m in state.models if not m.is_active}

    def check(self, state: GameState, events: list[dict], unable: set[str]) -> None:
        for event in events:
            json.loads(dumps_event(event))
            assert self.ended == 0, f"event after game_end: {event}"
            if event["type"] != "game_start":
                assert event["seq"] == self.seq + 1, event
            self.seq = event.get("seq", 0)
            actor = ACTOR_EVENTS.get(event["type"])
            if actor is not None:
                assert event[actor] not in unable, f"{event[actor]} acted while unable: {event}"
            if event["type"] == "activation" and not event["bonus"]:
                # One rolled activation per side-turn; Momentum bonus actions are extra (RAW).
                key = (event["round"], event["side"], event["model"])
                assert key not in self.activated, f"activated twice in a side-turn: {key}"
                self.activated.add(key)
            if event["type"] == "game_end":
                self.ended += 1
                assert event["rounds"] <= state.round_limit
        assert 1 <= state.round <= state.round_limit
        for model in state.models:
            where = f"{model.id} ({model.status})"
            assert model.status in STATUSES, where
            assert 0 <= model.wounds <= model.profile.wounds, where
            assert (model.wounds == 0) == (model.status == "down") or model.status in OFF_TABLE, (
                where
            )
            assert 0 <= model.strain <= model.profile.strain_max(state.rules), where
            assert set(model.conditions) <= self.known_conditions, where
            assert bool(state.bases.on_table[model.index]) == model.on_table, where
            if model.on_table:
                x, y = state.position(model.index)
                r = float(state.bases.radii[model.index])
                assert x - r >= -TOLERANCE and x + r <= state.table.width + TOLERANCE, where
                assert y - r >= -TOLERANCE and y + r <= state.table.height + TOLERANCE, where
        for owner, value in state.momentum.items():
            assert 0 <= value <= self.cap, (owner, value)
        legal = state.legal_decisions()
        if state.is_terminal:
            assert legal == [] and state.current_side is None and self.ended == 1
        else:
            assert legal, f"no legal decision in {state!r}"
            assert self.ended == 0

    def step(self, state: GameState, events: list[dict], unable: set[str]) -> None:
        self.decisions += 1
        assert self.decisions < MAX_DECISIONS, "the game does not end"
        self.check(state, events, unable)


def play_checked(name: str, seed: int, blue: str = "random", red: str = "random", overrides=None):
    """Play one game of a bundled scenario, checking the invariants after every decision.

    Returns:
        ``(result, decisions)``.
    """
    state = new_game(scenario(name), seed, overrides=overrides)
    seeds = agent_seeds(seed)
    agents = {
        side: make_agent(spec, side, seeds[side]) for side, spec in (("blue", blue), ("red", red))
    }
    checker = Invariants(state, state.drain_events())
    while not state.is_terminal:
        side = state.current_side
        legal = state.legal_decisions()
        decision = agents[side].act(state, legal)
        assert decision in legal
        if decision.model is not None:
            model = state.models[decision.model]
            assert model.is_active and model.side == side, (
                f"{decision} by {model.id} ({model.status})"
            )
        unable = checker.unable(state)
        events = state.apply(decision)
        checker.step(state, events, unable)
    return state.result, checker.decisions


# ----------------------------------------------------------------------------- properties
FAST = ["duel-1v1", "solo-hero-horde", "open-field"]


@settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(FAST),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    turnover=st.sampled_from(["raw", "sbh"]),
)
def test_random_legal_play_keeps_every_invariant(name, seed, turnover):
    result, decisions = play_checked(name, seed, overrides={"turnover": turnover})
    assert result["reason"] is not None and decisions > 0


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_scenario_plays_to_the_end(name):
    result, _ = play_checked(name, 2024)
    assert result["rounds"] <= scenario(name).rounds


def oracle_available() -> bool:
    try:
        make_agent("oracle", "blue", [0, 1])
    except Exception:  # noqa: BLE001 - the oracle is optional while a colleague builds it
        return False
    return True


@pytest.mark.skipif(not oracle_available(), reason="riven_agents.oracle is not available")
@pytest.mark.parametrize("name", ["duel-1v1", "solo-hero-horde"])
def test_oracle_against_random_keeps_every_invariant(name):
    play_checked(name, 7, blue="random", red="oracle")
    play_checked(name, 8, blue="oracle", red="random")


def test_games_are_reproducible_from_the_seed():
    first = play_checked("duel-1v1", 99)
    assert play_checked("duel-1v1", 99) == first


# ----------------------------------------------------------------------------- soak
# Games per scenario, sized from measured cost (seconds per random game on one core):
# duel-1v1 ~0.07, solo-hero-horde ~0.35, open-field ~0.4, the 36" tables 0.8-2.6.
SOAK_PLAN = {
    "duel-1v1": 760,
    "solo-hero-horde": 120,
    "open-field": 60,
}
SOAK_OTHERS = 8  # every other bundled scenario
SOAK_ORACLE = 40  # oracle-vs-random games (duel and solo hero), when the oracle exists


def _soak_jobs() -> list[tuple[str, int, str, str]]:
    jobs = []
    for name in bundled_names():
        count = SOAK_PLAN.get(name, SOAK_OTHERS)
        jobs += [(name, 10_000 + k, "random", "random") for k in range(count)]
    if oracle_available():
        for k in range(SOAK_ORACLE):
            name = ("duel-1v1", "solo-hero-horde")[k % 2]
            blue, red = ("oracle", "random") if k % 4 < 2 else ("random", "oracle")
            jobs.append((name, 20_000 + k, blue, red))
    return jobs


def _soak_chunk(jobs: list[tuple[str, int, str, str]]) -> list[tuple[str, int, str]]:
    """Play a chunk of games in a worker; return the failures (scenario, seed, error)."""
    failures = []
    for name, seed, blue, red in jobs:
        try:
            play_checked(name, seed, blue, red)
        except Exception as exc:  # noqa: BLE001 - every failure is reported with its seed
            failures.append((f"{name} {blue}-vs-{red}", seed, f"{type(exc).__name__}: {exc}"))
    return failures


@pytest.mark.slow
def test_soak_thousands_of_games_without_an_exception():
    jobs = _soak_jobs()
    workers = max(1, min(2, os.cpu_count() or 1))
    chunks = [jobs[k :: workers * 8] for k in range(workers * 8)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        failures = [f for found in pool.map(_soak_chunk, chunks) for f in found]
    elapsed = time.perf_counter() - started
    assert not failures, (
        f"{len(failures)} of {len(jobs)} games failed in {elapsed:.0f}s: {failures[:5]}"
    )
    assert len(jobs) >= 1000
