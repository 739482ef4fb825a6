"""The native Enemy Oracle (cpp/riven/oracle) decides and explains as the Python Oracle does.

Every bundled mission is played with every Oracle profile forced on both sides, and with each
model's own scenario profile, from fixed seeds. At every decision point the native Oracle is
asked first from the Python Oracle's exact random state; its decision, its ``oracle_decision``
explanation (every field and word) and the state of its stream afterwards must equal the Python
Oracle's. Whole games played by native Oracles write the Python games' event logs byte for byte.
Under the other resolution systems only their own choices (spends, the choice phase) are left to
the Python Oracle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from riven_agents.oracle import OracleAgent, profile_names  # noqa: E402
from riven_agents.registry import make_agent  # noqa: E402

from riven_env.engines import new_game  # noqa: E402
from riven_env.errors import AgentSpecError  # noqa: E402
from riven_env.game.events import dumps_event  # noqa: E402
from riven_env.game.runner import agent_seeds, play  # noqa: E402
from riven_env.rules.resolution import resolution_names  # noqa: E402
from riven_env.scenario import list_bundled  # noqa: E402

if available():
    from riven_agents.oracle.native import NativeOracleAgent

PROFILES = profile_names()


def missions() -> list[str]:
    return [info.name for info in list_bundled()]


class Twin:
    """Plays as the Python Oracle; asks the native Oracle first, from the same random state."""

    def __init__(self, spec: str, side: str, seed: Any) -> None:
        profile = spec.partition(":")[2] or None
        self.python = OracleAgent(spec, side, seed, profile)
        self.native = NativeOracleAgent("native-" + spec, side, seed, profile)
        self.name = spec
        self.last_explanation: dict[str, Any] | None = None
        self.checked: Counter[str] = Counter()
        self.mismatches: list[tuple[str, Any, Any]] = []

    def act(self, state: Any, legal: Sequence[Any]) -> Any:
        self.native.rng.bit_generator.state = self.python.rng.bit_generator.state
        before = state.copy()
        native = self.native.act(state, legal)
        native_why = self.native.last_explanation
        python = self.python.act(state, legal)
        python_why = self.python.last_explanation
        self.last_explanation = python_why
        self.checked[state.phase] += 1
        if native != python or native_why != python_why:
            self.mismatches.append((str(before.phase), (native, native_why), (python, python_why)))
        if self.native.rng.bit_generator.state != self.python.rng.bit_generator.state:
            self.mismatches.append((str(before.phase), "stream", python_why))
        return python


def _twin_game(
    mission: str, spec: str, seed: int, overrides: dict[str, object] | None = None
) -> tuple[Counter[str], list, dict[str, int]]:
    state = new_game(mission, seed, overrides=overrides)
    seeds = agent_seeds(seed)
    agents = {side: Twin(spec, side, seeds[side]) for side in ("blue", "red")}
    play(state, agents)
    checked: Counter[str] = Counter()
    fallbacks: Counter[str] = Counter()
    mismatches = []
    for agent in agents.values():
        checked.update(agent.checked)
        mismatches += agent.mismatches
        fallbacks.update(agent.native.python_fallbacks)
    return checked, mismatches, dict(fallbacks)


@pytest.mark.parametrize("mission", missions())
def test_native_oracle_matches_python_on_every_decision(mission: str) -> None:
    total: Counter[str] = Counter()
    for k, spec in enumerate(["oracle", *(f"oracle:{p}" for p in PROFILES)]):
        checked, mismatches, fallbacks = _twin_game(mission, spec, 100 + k)
        assert not mismatches, (mission, spec, mismatches[:3])
        # RIVEN's decision points are all decided in the core (no Python fallback).
        assert not fallbacks, (mission, spec, fallbacks)
        total.update(checked)
    assert total["activate"] > 0 and total["action"] > 0, total


@pytest.mark.parametrize("system", [s for s in resolution_names() if s != "riven"])
def test_other_resolution_systems_leave_only_their_own_choices_to_python(system: str) -> None:
    # Another system's spends and choice phase are its own Oracle rules (Python); activations
    # and actions are still decided in the core, and everything matches.
    fallbacks: Counter[str] = Counter()
    for k, mission in enumerate(("duel-1v1", "skirmish-5v5")):
        checked, mismatches, found = _twin_game(mission, "oracle", 5 + k, {"resolution": system})
        assert not mismatches, (system, mission, mismatches[:3])
        assert checked["activate"] > 0 and checked["action"] > 0
        fallbacks.update(found)
    assert set(fallbacks) <= {"another resolution system's spends", "choice phase"}, fallbacks


def test_the_games_reach_spends_and_fallback_rolls() -> None:
    # The comparison above covers every branch: spends, the d6 fallback, holds and bonuses.
    rules: Counter[str] = Counter()
    for k, profile in enumerate(PROFILES):
        state = new_game("skirmish-5v5", 7 + k)
        seeds = agent_seeds(7 + k)
        agents = {s: NativeOracleAgent(f"n:{profile}", s, seeds[s], profile) for s in seeds}
        for event in play(state, agents):
            if event["type"] == "oracle_decision":
                rule = event["rule"]
                rules[rule.split(":")[0] if ":" in rule else "priority"] += 1
    assert rules["spend"] > 0 and rules["d6"] > 0 and rules["dice"] > 0, rules


@pytest.mark.parametrize("mission", ["skirmish-5v5", "duel-1v1", "ruins"])
def test_games_of_native_oracles_write_the_python_event_logs(mission: str) -> None:
    seed = 11
    logs = []
    for spec in ("oracle", "native-oracle"):
        state = new_game(mission, seed)
        seeds = agent_seeds(seed)
        agents = {side: make_agent(spec, side, seeds[side]) for side in ("blue", "red")}
        logs.append("\n".join(dumps_event(e) for e in play(state, agents)))
    assert logs[0] == logs[1]
    assert '"type": "oracle_decision"' in logs[0] or '"type":"oracle_decision"' in logs[0]


def test_native_oracle_spec_and_profile_errors() -> None:
    agent = make_agent("native-oracle:aggressive", "blue", 0)
    assert isinstance(agent, NativeOracleAgent) and agent.forced == "aggressive"
    with pytest.raises(AgentSpecError, match="unknown Oracle profile"):
        make_agent("native-oracle:nosuch", "blue", 0)


def test_a_missing_core_is_a_clear_agent_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import riven_agents.oracle.native as native_module

    from riven_env.native import NativeUnavailableError

    def missing() -> None:
        raise NativeUnavailableError("the native core riven_env._native is not built")

    monkeypatch.setattr(native_module, "_core", missing)
    with pytest.raises(AgentSpecError, match="needs the native core"):
        NativeOracleAgent("native-oracle", "blue", 0)


def test_the_batched_call_decides_as_one_call_per_state() -> None:
    from riven_env.native.encoding import native_decision
    from riven_env.native.game import native_static, to_native
    from riven_env.native.random import native_stream
    from riven_env.native.rules import native_rules
    from riven_env.native.table import native_table

    state = new_game("skirmish-5v5", 3)
    seeds = agent_seeds(3)
    points = []

    def record(s: Any) -> None:
        if not s.over:
            points.append((s.copy(), list(s.legal_decisions())))

    play(state, {s: make_agent("oracle", s, seeds[s]) for s in seeds}, on_decision=record)
    agent = NativeOracleAgent("native-oracle", "blue", 0)
    first = points[0][0]
    static, game = native_static(first), agent.native_game(first)
    table = native_table(first.table)
    for radius in first.bases.radii.tolist():
        table.ensure_radius(radius)
    rules = native_rules(first.rules)
    core = agent.native
    singles, states, decisions = [], [], []
    for s, legal in points:
        natives = [native_decision(d, static) for d in legal]
        ns = to_native(s)
        try:  # without routing callbacks: the points that need routing are refused
            found = core.oracle_decide(
                game.core, ns, table.core, rules, natives, native_stream(agent.rng), None, None
            )
        except ValueError as error:
            assert "routing" in str(error)
            continue
        singles.append(found)
        states.append(ns)
        decisions.append(natives)
    assert len(singles) > len(points) // 2
    streams = [native_stream(agent.rng) for _ in states]
    batched = core.oracle_decide_many(game.core, states, table.core, rules, decisions, streams)
    key = [(b, i, m, p, r, roll, t, d) for b, i, _, m, p, r, roll, t, d, _ in singles]
    assert [(b, i, m, p, r, roll, t, d) for b, i, _, m, p, r, roll, t, d, _ in batched] == key
